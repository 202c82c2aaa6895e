"""Views outside any tournament: the health check and the error pages.

The error handlers (wired in ``config/urls.py`` and ``CSRF_FAILURE_VIEW``) answer
with a translated page in the site layout, or, for htmx requests (``HX-Request:
true``, not boosted), with just the alert fragment
``<div class="alert alert-bad" role="alert">…</div>`` and the same status code,
rendered from the ``alert`` partial of the same template.

Two kinds of rendering:

- *full* (403, 404, CSRF failure): the usual ``render`` with every context
  processor, so the top bar shows the user name and the log-out button;
- *plain* (400, 500): the template gets only ``request``, ``csrf_token`` and its
  own variables, no context processors: no ``user``, no ``messages``, so no
  session and no database access. The templates also empty the
  ``topbar_user`` block of ``base.html``.
"""

from __future__ import annotations

import html
import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.middleware.csrf import get_token
from django.template import loader
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the app can reach its database; used by Docker's HEALTHCHECK and as the benchmark baseline."""
    connection.ensure_connection()
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: sent on to the icon in static/
    (served by whitenoise under its hashed name, kept by browsers for a year)."""
    return HttpResponsePermanentRedirect(static("img/favicon.ico"))


def _wants_fragment(request: HttpRequest) -> bool:
    """An htmx request that swaps part of a page (a boosted one expects a whole page).

    Reads the headers only: ``request.htmx`` is not set yet when the error comes
    from a middleware before django-htmx's (DisallowedHost, for one).
    """
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def _back_url(request: HttpRequest) -> str | None:
    """The page the user came from (``Referer``) when it is on this site, else None. Never raises."""
    try:
        referer = request.headers.get("Referer", "")
        if referer and url_has_allowed_host_and_scheme(
            referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return referer
    except Exception:  # a bad Host header, anything: just no back link
        pass
    return None


def _retry_url(request: HttpRequest) -> str:
    """Where to land after logging in again: this page for a GET, else the home page."""
    return request.get_full_path() if request.method == "GET" else "/"


def _plain_csrf_token(request: HttpRequest) -> str:
    """The CSRF token for the language switch, without the session; empty when it cannot be had."""
    if settings.CSRF_USE_SESSIONS:
        return ""
    try:
        return get_token(request)
    except Exception:
        return ""


def _render(
    request: HttpRequest, template_name: str, status: int, context: dict[str, Any], *, plain: bool = False
) -> HttpResponse:
    """Render the error page, or its ``alert`` partial for htmx, with ``status``."""
    name = f"{template_name}#alert" if _wants_fragment(request) else template_name
    template = loader.get_template(name)
    if plain:
        # No request given to render(): no context processors, so no user, session or messages.
        body = template.render({"request": request, "csrf_token": _plain_csrf_token(request), **context})
    else:
        body = template.render(context, request)
    response = HttpResponse(body, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


class NulCharacter(Exception):
    """A request parameter holds a NUL character (U+0000); see ``config.middleware``."""


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: translated 400 page (plain layout, no user part) or the htmx alert.

    Also answers Django's ``DisallowedHost``, where ``request.get_host()`` itself
    raises: nothing here calls it (the page then says to use the address the
    organiser gave out, and offers no link on the wrong host).
    """
    context = {
        "bad_host": isinstance(exception, DisallowedHost),
        # config.middleware.RejectNulCharactersMiddleware: a field held a character no keyboard types.
        "nul_character": isinstance(exception, NulCharacter),
    }
    return _render(request, "400.html", 400, context, plain=True)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler403: translated 403 page (full layout with the user) or the htmx alert.

    Says that the user's role in this tournament does not allow this, to ask the
    organiser for a role, and, for a logged-in user, who is logged in with a way
    to log in with another account (shared tablets).
    """
    context = {"back_url": _back_url(request), "retry_url": _retry_url(request)}
    return _render(request, "403.html", 403, context)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: translated 404 page (full layout with the user) or the htmx alert."""
    return _render(request, "404.html", 404, {"back_url": _back_url(request)})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: translated 403 page or the htmx alert.

    The form was open too long or the login changed in another tab; nothing was
    saved, reload the page and enter it again. ``reason`` is not shown (Django
    already logs it).
    """
    return _render(request, "csrf_failure.html", 403, {"back_url": _back_url(request)})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: translated 500 page (plain layout) or the htmx alert, without touching the database.

    No user, no session, no queries: the database may be what failed. Any
    exception while rendering is logged and answered with a minimal HTML page
    (or alert fragment) built here; this handler never raises.
    """
    try:
        return _render(request, "500.html", 500, {"back_url": _back_url(request)}, plain=True)
    except Exception:
        logger.exception("The 500 page failed to render; answering with the plain fallback")
        return _server_error_fallback(request)


# The fallback's words: the same msgids as 500.html, in English when translating fails too.
FALLBACK_TITLE = gettext_noop("Server error")
FALLBACK_TEXT = (
    gettext_noop("Something went wrong on the server."),
    gettext_noop(
        "Your last action may not have been saved: go back, reload the page to see what was saved, and try again."
    ),
    gettext_noop("If it happens again, tell the organiser."),
)
FALLBACK_HOME = gettext_noop("My tournaments")


def _server_error_fallback(request: HttpRequest) -> HttpResponse:
    """A 500 response from plain strings: translated when possible, English otherwise. Never raises."""
    title, text, home, lang = FALLBACK_TITLE, " ".join(FALLBACK_TEXT), FALLBACK_HOME, "en"
    fragment = False
    try:
        fragment = _wants_fragment(request)
        title, text, home = _(FALLBACK_TITLE), " ".join(_(part) for part in FALLBACK_TEXT), _(FALLBACK_HOME)
        lang = get_language() or "en"
    except Exception:
        pass
    title, text, home, lang = (html.escape(value) for value in (title, text, home, lang))
    if fragment:
        body = f'<div class="alert alert-bad" role="alert"><strong>{title}.</strong> {text}</div>'
    else:
        body = (
            f'<!doctype html>\n<html lang="{lang}">\n<head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title} · Spielleitung</title></head>\n"
            f'<body><h1>{title}</h1>\n<p>{text}</p>\n<p><a href="/">{home}</a></p></body>\n</html>\n'
        )
    return HttpResponse(body, status=500)
