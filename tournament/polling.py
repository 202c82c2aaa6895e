"""Pages that keep themselves current: cheap conditional polling for staff pages.

A polled page renders a region (``target``: an element id, e.g. ``table-panel``)
that the browser asks for again every few seconds (``static/js/poll.js``) with
``If-None-Match``. The ETag is built from the tournament's version, which every
write bumps, so while nothing changed the answer is ``304 Not Modified`` from the
shared cache without a database query (``tournament.versions``: one query when the
cache misses), before the session, the user or the roles are loaded.

Why a 304 may skip the role check: it carries no content, and its ETag contains
a keyed hash of the caller's session cookie, so only the session that received
the page (through the full role check) can ever match it. The version itself is
public (the projector's ETag shows it). Anything else gets the normal view:
login, role check, render.

ETag: ``"<page>-<tournament>-<version>-<language>-<extra>-<session hash>"``
(``<tournament>``: its id, or on a public page its public key),
where ``extra`` names the object shown (a table id, a search). Only the
polled region (an htmx request whose ``HX-Target`` is the region) carries an
ETag; the whole page never does, so a reload always renders afresh (new
idempotency keys, pending messages shown).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from django.utils.crypto import salted_hmac
from django.utils.http import parse_etags

from tournament import versions

# Seconds between two polls of a staff page (the projector polls every 2 s);
# the setting STAFF_POLL_SECONDS overrides it (the browser tests poll faster).
POLL_SECONDS = 5
View = Callable[..., HttpResponse]


def current_version(tournament_id: int) -> int | None:
    """The tournament's version, the basis of every ETag: from the cache (no query), else one query."""
    return versions.version(tournament_id)


def session_hash(request: HttpRequest) -> str | None:
    """A keyed hash of the session cookie (no query); None without a session."""
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not cookie:
        return None
    return salted_hmac("spielleitung.polling", cookie).hexdigest()[:20]


def short_hash(text: str) -> str:
    """A short, stable digest of free text (a search) for an ETag."""
    return hashlib.blake2s(text.encode("utf-8"), digest_size=6).hexdigest()


def etag_for(
    request: HttpRequest, page: str, tournament_id: int | str, version: int, *, extra: str = "", private: bool = True
) -> str | None:
    """The ETag of a polled region (None: this request cannot be answered with a 304)."""
    who = session_hash(request) if private else "public"
    if who is None:
        return None
    language = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)
    return f'"{page}-{tournament_id}-{version}-{language}-{extra}-{who}"'


def _is_partial(request: HttpRequest, target: str) -> bool:
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == target


def answer_if_unchanged(request: HttpRequest, etag: str | None) -> HttpResponse | None:
    """A 304 when the client's copy (``If-None-Match``) is ``etag``, else None."""
    # From META: ``request.headers`` would copy every header of the request first.
    if etag is None or etag not in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        return None
    response = HttpResponseNotModified()
    response["ETag"] = etag
    return response


def attach(
    request: HttpRequest,
    page: str,
    target: str,
    tournament_id: int | str,
    *,
    extra: str = "",
    private: bool = True,
    version_of: Callable[[Any], int | None] = current_version,
) -> str | None:
    """Work out the region's current ETag and give the template ``request.poll``
    (``target``, ``etag``, ``seconds``). Views that answer a write with the
    region call it too, so the tablet's next poll is a 304. No query while the cache
    holds the version, else one: ``version_of(tournament_id)`` (a public page passes the
    public key and its lookup)."""
    version = version_of(tournament_id)
    etag = None
    if version is not None:
        etag = etag_for(request, page, tournament_id, version, extra=extra, private=private)
    seconds = getattr(settings, "STAFF_POLL_SECONDS", POLL_SECONDS)
    request.poll = {"target": target, "etag": etag or "", "seconds": seconds}  # type: ignore[attr-defined]
    return etag


def polled(
    page: str,
    *,
    target: str,
    private: bool = True,
    extra: Callable[..., str] | None = None,
    by: str = "tournament_id",
    version: Callable[[Any], int | None] = current_version,
) -> Callable[[View], View]:
    """Make a tournament view answer conditional polls of its region ``target``.

    Put it outside the role check (``tournament_role``) so an unchanged page
    costs no query (the version comes from the cache). The view receives ``request.poll`` (see ``attach``) for
    the template's ``data-poll`` attributes. ``private=False`` is for public
    pages (no session in the ETag); ``extra(request, **kwargs)`` names what the
    page shows beyond the tournament (default: the URL's other arguments).
    ``by`` names the URL argument that identifies the tournament and ``version``
    reads its version by it (the public pages: ``public_key`` and
    ``selectors.public.current_version``); the view receives it first.
    """

    def decorator(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            (tournament_id,) = args or (kwargs.pop(by),)  # Django passes it by name; a caller may pass it first
            detail = extra(request, **kwargs) if extra else "-".join(str(value) for value in kwargs.values())
            etag = attach(request, page, target, tournament_id, extra=detail, private=private, version_of=version)
            partial = _is_partial(request, target)
            if partial:
                unchanged = answer_if_unchanged(request, etag)
                if unchanged is not None:
                    return _revalidate(unchanged, private)
            response = view(request, tournament_id, **kwargs)
            if partial and etag is not None and response.status_code == 200:
                response["ETag"] = etag
            return _revalidate(response, private)

        return wrapper

    return decorator


def _revalidate(response: HttpResponse, private: bool) -> HttpResponse:
    """Browsers may keep a copy but must ask before reusing it; staff pages stay out of shared caches."""
    if private:
        patch_cache_control(response, private=True, no_cache=True, max_age=0)
    else:
        patch_cache_control(response, public=True, no_cache=True, max_age=0)
    return response
