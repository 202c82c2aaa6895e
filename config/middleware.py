"""Site-wide request guards that run before any view."""

from __future__ import annotations

from collections.abc import Callable

from csp.middleware import CSPMiddleware
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.response import HttpResponseBase

from config.views import NulCharacter, bad_request


def _holds_nul(params: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in params.lists())


class RejectNulCharactersMiddleware:
    """Answer 400 to a request whose query string or form fields hold a NUL character.

    PostgreSQL cannot store U+0000 in a text column and refuses to compare with it
    ("invalid byte sequence"), so such a value would fail deep inside a view, or in a
    search on a public page. No keyboard types it; it comes from a broken client or a
    probe. The translated 400 page says what to do (see ``config.views.bad_request``).
    Uploaded files are not looked at: the CSV import reports its own bad rows.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request.GET) or (request.method == "POST" and _holds_nul(request.POST)):
            return bad_request(request, NulCharacter())
        return self.get_response(request)


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, which leaves a 304 (Not Modified) alone.

    A 304 has no body for a policy to govern: the browser keeps the copy it already
    has, with that copy's policy, and takes from the 304 only the headers it carries
    (RFC 9111, 4.3.4), so a 304 without the header leaves the stored policy as it
    was. django-csp builds the policy for every response, also one it then leaves
    without the header; a projector's unchanged poll, the most frequent request on
    the day, was paying for that (issue 16: the 304 at 0.9 of a trivial view).
    """

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code == 304:
            return response
        return super().process_response(request, response)
