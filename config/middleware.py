"""Site-wide request guards that run before any view."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, QueryDict

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
