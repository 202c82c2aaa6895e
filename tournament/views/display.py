"""Public pages: the projector, the phone's find-my-table, and read-only JSON.

No login, no staff data, GET only. They live under the tournament's unguessable key,
``/p/<public_key>/``; the old addresses by number, ``/p/<id>/``, redirect there while
the tournament is listed (``Tournament.listed``) and are a plain 404 otherwise, the same
answer as for a tournament that does not exist. Polls are answered with 304 from one
query (the version, looked up by key) when nothing changed; rendered fragments are
cached per tournament, version and language, so a write (which bumps the version,
including a new key or a change of ``listed``) invalidates them.

The projector speaks the hall's language: ``?lang=de|it|en`` on its address (one
screen, kept by its polls), else the tournament's ``display_language``, else the
browser's. The phone page stays in its visitor's language (the language they chose
on the site, else their browser's): a phone is one person's, the projector the hall's.
"""

from __future__ import annotations

import segno
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition, require_GET

from tournament.formats import registry
from tournament.models import Tournament
from tournament.polling import polled, short_hash
from tournament.selectors import public

POLL_SECONDS = 2
LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


class PublicKeyConverter:
    """``<public_key:...>`` in a URL: a tournament's public key (``models.new_public_key``).

    URL-safe characters, never all digits, so an old address by number (``/p/<id>/``)
    can never be read as a key, nor a key as a number."""

    regex = r"(?=[0-9]*[A-Za-z_-])[A-Za-z0-9_-]{16,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def _etag(part: str):  # type: ignore[no-untyped-def]
    def etag(request: HttpRequest, public_key: str) -> str | None:
        version = public.current_version(public_key)
        if version is None:
            return None
        return f'"{part}-{public_key}-{version}-{request.LANGUAGE_CODE}"'

    return etag


def asked_language(request: HttpRequest) -> str:
    """The language one screen asks for with ``?lang=de|it|en``; "" when none is asked or
    the value is not one of the site's languages (ignored, never an error)."""
    asked = request.GET.get("lang", "")[:10].strip().lower()
    return asked if asked in LANGUAGE_CODES else ""


def projector_language(request: HttpRequest, display_language: str) -> str:
    """The language a projector is shown in: the screen's ``?lang=``, else the tournament's
    (``Tournament.display_language``), else the browser's (``LocaleMiddleware``: the
    language cookie, then Accept-Language)."""
    if asked := asked_language(request):
        return asked
    if display_language in LANGUAGE_CODES:
        return display_language
    return str(request.LANGUAGE_CODE)


def _screen_etag(request: HttpRequest, public_key: str) -> str | None:
    """The projector's ETag: its version and the language it is shown in (one query)."""
    state = public.screen_state(public_key)
    if state is None:
        return None
    version, display_language = state
    return f'"screen-{public_key}-{version}-{projector_language(request, display_language)}"'


def _revalidate(response: HttpResponse, tournament: Tournament | None = None) -> HttpResponse:
    """Clients may keep a copy but must ask (cheaply) before reusing it. An unlisted
    tournament's pages also ask search engines not to index them."""
    patch_cache_control(response, no_cache=True, public=True, max_age=0)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    if tournament is not None and not tournament.listed:
        response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _phone_link(request: HttpRequest, tournament: Tournament) -> str:
    """The phone page's absolute address under the key (the projector's QR code)."""
    return request.build_absolute_uri(reverse("tournament:find", args=[tournament.public_key]))


@require_GET
def by_number(request: HttpRequest, tournament_id: int, page: str) -> HttpResponse:
    """An old public address, ``/p/<id>/...``: a listed tournament's page has moved under its
    key (302, the query kept); an unlisted one answers 404 exactly as a tournament that does
    not exist (the same single query, the same response), so its number reveals nothing.
    The redirect is never stored, so unlisting takes effect at once, in shared caches too."""
    key = Tournament.objects.filter(pk=tournament_id, listed=True).values_list("public_key", flat=True).first()
    if key is None:
        raise Http404
    location = reverse(f"tournament:{page}", args=[key])
    if request.GET:
        location += "?" + request.GET.urlencode()  # re-encoded: nothing raw reaches the header
    response = HttpResponseRedirect(location)
    patch_cache_control(response, no_store=True)
    return response


def _screen_html(request: HttpRequest, tournament: Tournament, language: str) -> str:
    """The projector's rotating views in ``language``, rendered once per version and language."""
    # By id and version: the fragment shows no key, and every write (a new key, unlisting) bumps the version.
    key = f"screen:{tournament.pk}:{tournament.version}:{language}"
    html = cache.get(key)
    if html is None:
        # The snapshot too: round and stage labels are translated as it is built.
        with translation.override(language):
            snap = public.snapshot(tournament)
            alphabetical = snap.seating_alphabetical()
            tables = snap.live_tables
            context = {
                "tournament": tournament,
                "fmt": snap.format,
                "snap": snap,
                "alpha_pages": public.chunks(alphabetical, public.ALPHA_PAGE) if alphabetical else [],
                "alpha_total": len(alphabetical),
                "table_pages": public.chunks(tables, public.TABLES_PAGE) if tables else [],
                "tables_total": len(tables),
                "podium": snap.ranking[:3],
                "standings_pages": public.chunks(snap.standings, public.STANDINGS_PAGE) if snap.standings else [],
                # (position in the queue, (start number, name)): the position runs on across pages.
                "pool_pages": public.chunks(list(enumerate(snap.pool, 1)), public.ALPHA_PAGE) if snap.pool else [],
            }
            html = render_to_string("tournament/display/_screen.html", context, request=request)
        cache.set(key, html, 60 * 60)
    return html


@require_GET
def projector(request: HttpRequest, public_key: str) -> HttpResponse:
    """The projector in the hall's language (``projector_language``); a screen's ``?lang=``
    is carried by its polls."""
    tournament = get_object_or_404(Tournament, public_key=public_key)
    language = projector_language(request, tournament.display_language)
    phone_link = _phone_link(request, tournament)
    context = {
        "tournament": tournament,
        "screen": _screen_html(request, tournament, language),
        "etag": _screen_etag(request, tournament.public_key),
        "lang": asked_language(request),
        "poll_seconds": POLL_SECONDS,
        "phone_link": phone_link,
        "qr": segno.make(phone_link, error="m").svg_inline(scale=4, border=1, dark="#000", light="#fff"),
    }
    with translation.override(language):
        response = render(request, "tournament/display/projector.html", context)
    response["Content-Language"] = language
    return _revalidate(response, tournament)


@require_GET
@condition(etag_func=_screen_etag)
def projector_screen(request: HttpRequest, public_key: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, public_key=public_key)
    language = projector_language(request, tournament.display_language)
    response = HttpResponse(_screen_html(request, tournament, language))
    response["Content-Language"] = language
    return _revalidate(response, tournament)


def _search(request: HttpRequest, **kwargs: object) -> str:
    return short_hash(request.GET.get("q", "")[:60])


@require_GET
@polled("find", target="find-results", private=False, extra=_search, by="public_key", version=public.current_version)
def find(request: HttpRequest, public_key: str) -> HttpResponse:
    """A player types their name or start number and sees their table and seat; the results poll themselves.
    Only players who take part are found (``public.find_players``)."""
    tournament = get_object_or_404(Tournament, public_key=public_key)
    query = request.GET.get("q", "")[:60]
    matches = public.find_players(tournament, query)
    results = []
    if matches:
        snap = public.snapshot(tournament)
        results = [public.lookup(snap, player) for player in matches]
    context = {
        "tournament": tournament,
        "fmt": registry.of(tournament),
        "query": query,
        "query_is_number": query.strip().isdecimal(),
        "results": results,
        "public_page": True,
    }
    template = "tournament/display/find.html"
    if getattr(request, "htmx", False) and request.htmx.target == "find-results":  # type: ignore[attr-defined]
        template += "#find-results"
    return _revalidate(render(request, template, context), tournament)


@require_GET
@condition(etag_func=_etag("api"))
def api(request: HttpRequest, public_key: str) -> HttpResponse:
    tournament = Tournament.objects.filter(public_key=public_key).first()
    if tournament is None:
        raise Http404
    # The rounds' labels are translated: one document per language, as its ETag says.
    key = f"api:{tournament.pk}:{tournament.version}:{request.LANGUAGE_CODE}"
    document = cache.get(key)
    if document is None:
        document = public.as_json(public.snapshot(tournament))
        cache.set(key, document, 60 * 60)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return _revalidate(response, tournament)
