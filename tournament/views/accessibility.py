"""The accessibility statement: public, linked from every page's footer.

It says what is tested (axe-core's WCAG 2.2 AA rules on every page, keyboard-only flows,
reduced motion, live regions on the phone page), what is known not to hold, and whom to tell
(``settings.SPIELLEITUNG_ACCESSIBILITY_CONTACT``, the organiser's; else the desk).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def statement(request: HttpRequest) -> HttpResponse:
    contact = settings.SPIELLEITUNG_ACCESSIBILITY_CONTACT
    return render(
        request,
        "tournament/accessibility.html",
        {"contact": contact, "contact_is_mail": "@" in contact, "public_page": True},
    )
