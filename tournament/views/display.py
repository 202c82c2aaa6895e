"""Public pages: the projector, the phone's find-my-table, and read-only JSON.

No login, no staff data, GET only. Polls are answered with 304 from one query
(the tournament's version) when nothing changed; rendered fragments are cached
per version and language, so a write (which bumps the version) invalidates them.
"""

from __future__ import annotations

import segno
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition, require_GET

from tournament.formats import registry
from tournament.models import Tournament
from tournament.polling import polled, short_hash
from tournament.selectors import public

POLL_SECONDS = 2


def _etag(part: str):  # type: ignore[no-untyped-def]
    def etag(request: HttpRequest, tournament_id: int) -> str | None:
        version = public.current_version(tournament_id)
        if version is None:
            return None
        return f'"{part}-{tournament_id}-{version}-{request.LANGUAGE_CODE}"'

    return etag


def _revalidate(response: HttpResponse) -> HttpResponse:
    """Clients may keep a copy but must ask (cheaply) before reusing it."""
    patch_cache_control(response, no_cache=True, public=True, max_age=0)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def _phone_link(request: HttpRequest, tournament: Tournament) -> str:
    return request.build_absolute_uri(reverse("tournament:find", args=[tournament.pk]))


def _screen_html(request: HttpRequest, tournament: Tournament) -> str:
    """The projector's rotating views, rendered once per version and language."""
    key = f"screen:{tournament.pk}:{tournament.version}:{request.LANGUAGE_CODE}"
    html = cache.get(key)
    if html is None:
        snap = public.snapshot(tournament)
        alphabetical = snap.seating_alphabetical()
        tables = snap.live_tables
        context = {
            "tournament": tournament,
            "fmt": snap.format,
            "snap": snap,
            "alpha_pages": public.chunks(alphabetical, public.ALPHA_PAGE) if alphabetical else [],
            "table_pages": public.chunks(tables, public.TABLES_PAGE) if tables else [],
            "podium": snap.ranking[:3],
            "standings_pages": public.chunks(snap.standings, public.STANDINGS_PAGE) if snap.standings else [],
            "pool_pages": public.chunks(snap.pool, public.ALPHA_PAGE) if snap.pool else [],
        }
        html = render_to_string("tournament/display/_screen.html", context, request=request)
        cache.set(key, html, 60 * 60)
    return html


@require_GET
def projector(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    phone_link = _phone_link(request, tournament)
    context = {
        "tournament": tournament,
        "screen": _screen_html(request, tournament),
        "etag": _etag("screen")(request, tournament.pk),
        "poll_seconds": POLL_SECONDS,
        "phone_link": phone_link,
        "qr": segno.make(phone_link, error="m").svg_inline(scale=4, border=1, dark="#000", light="#fff"),
    }
    return _revalidate(render(request, "tournament/display/projector.html", context))


@require_GET
@condition(etag_func=_etag("screen"))
def projector_screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return _revalidate(HttpResponse(_screen_html(request, tournament)))


def _search(request: HttpRequest, **kwargs: object) -> str:
    return short_hash(request.GET.get("q", "")[:60])


@require_GET
@polled("find", target="find-results", private=False, extra=_search)
def find(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A player types their name or start number and sees their table and seat; the results poll themselves."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
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
        "results": results,
        "public_page": True,
    }
    template = "tournament/display/find.html"
    if getattr(request, "htmx", False) and request.htmx.target == "find-results":  # type: ignore[attr-defined]
        template += "#find-results"
    return _revalidate(render(request, template, context))


@require_GET
@condition(etag_func=_etag("api"))
def api(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404
    key = f"api:{tournament.pk}:{tournament.version}"
    document = cache.get(key)
    if document is None:
        document = public.as_json(public.snapshot(tournament))
        cache.set(key, document, 60 * 60)
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return _revalidate(response)
