"""A staff member's own settings kept with their account: the interface language.

The language switch (``set_language``) sets the browser's language cookie as Django's own view
does and, for a logged-in user, also keeps the choice in their ``StaffProfile``. Logging in
(``LoginView``) applies the kept language on that device, so a referee who chose Italian once
gets Italian on every tablet they log in to. Pages read the language from the cookie as before:
no page reads the profile, so no page's query count changes.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from tournament.models import StaffProfile
from tournament.views.forms import LanguageForm

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The cookie Django's language switch sets, with the same settings."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch; a logged-in user's choice is also kept with their account.
    A language the site does not offer changes nothing (Django's view ignores it too)."""
    response = django_set_language(request)
    language = LanguageForm.read(request)["language"]
    if request.user.is_authenticated and language in LANGUAGE_CODES:
        StaffProfile.objects.update_or_create(user=request.user, defaults={"language": language})
    return response


class LoginView(auth_views.LoginView):
    """Django's login; the user's kept language is then applied on this device (its cookie)."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        language = StaffProfile.objects.filter(user=form.get_user()).values_list("language", flat=True).first()
        if language in LANGUAGE_CODES:
            assert language is not None
            translation.activate(language)
            set_language_cookie(response, language)
        return response
