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

import functools
import json

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from tournament import fragments, qr, renderings, versions
from tournament.formats import registry
from tournament.models import Tournament
from tournament.polling import POLL_SECONDS as POLL_SECONDS_STAFF
from tournament.polling import answer_if_unchanged, etag_for, short_hash
from tournament.selectors import day_plan as day_plan_selectors
from tournament.selectors import public
from tournament.selectors import screen as screen_selectors
from tournament.selectors import tombola as tombola_selectors

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


def _screen_tag(public_key: str, version: int, language: str, cycle: int = 0) -> str:
    """The projector's ETag: the version its screen shows, the language it is shown in and the
    rotation whose windows it shows (``selectors.screen``)."""
    # The first rotation's tag names no cycle: a field with one window per list shows the same
    # screen on every rotation, and its projector asks without ``?cycle=``.
    rotation = f"-c{cycle}" if cycle else ""
    return f'"screen-{public_key}-{version}{rotation}-{language}"'


def _revalidate(response: HttpResponse, listed: bool = True) -> HttpResponse:
    """Clients may keep a copy but must ask (cheaply) before reusing it. An unlisted
    tournament's pages also ask search engines not to index them."""
    patch_cache_control(response, no_cache=True, public=True, max_age=0)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    if not listed:
        response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@functools.lru_cache(maxsize=64)
def qr_svg(link: str) -> str:
    """The QR code of a link as inline SVG, drawn once per link and process: it depends on nothing
    else, and drawing it costs more than the rest of the projector page."""
    return qr.svg(link)


def _state_or_404(public_key: str) -> versions.State:
    state = versions.state_by_key(public_key)
    if state is None:
        raise Http404
    return state


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


def screen_context(snap: screen_selectors.Screen) -> dict[str, object]:
    """The projector screen's context in the active language: its lists' windows in pages,
    each table, page and the bracket a piece rendered by what it shows
    (``tournament.fragments``), so a screen rendered again after a result renders that
    table, its bracket and the standings again and copies the rest."""
    fmt = snap.format
    table_pieces = [
        fragments.render("tournament/display/_pj_table.html", {"table": table, "fmt": fmt}, shows=(fmt.slug, table))
        for table in snap.tables
    ]
    standings_lines = [
        (row.place, row.player.start_number, row.player.name, row.points, row.games_won) for row in snap.standings
    ]
    # (position in the queue, (start number, name)): the position runs on across pages.
    pool_lines = list(enumerate(snap.pool, 1))
    return {
        "tournament": snap.tournament,
        "fmt": fmt,
        "snap": snap,
        "table_pages": public.chunks(table_pieces, public.TABLES_PAGE) if table_pieces else [],
        "tables_total": snap.tables_window.total,
        "alpha_pages": [
            fragments.render("tournament/display/_pj_alpha.html", {"lines": page})
            for page in public.chunks(snap.alphabetical, public.ALPHA_PAGE)
        ]
        if snap.alphabetical
        else [],
        "alpha_total": snap.alpha_window.total,
        "podium": snap.ranking_top,
        "standings_pages": [
            fragments.render("tournament/display/_pj_standings.html", {"lines": page})
            for page in public.chunks(standings_lines, public.STANDINGS_PAGE)
        ]
        if standings_lines
        else [],
        "pool_pages": [
            fragments.render("tournament/display/_pj_pool.html", {"page": page})
            for page in public.chunks(pool_lines, public.ALPHA_PAGE)
        ]
        if pool_lines
        else [],
        "bracket": fragments.render(
            "tournament/display/_pj_bracket.html", {"shown": snap.bracket, "fmt": fmt}, shows=(fmt.slug, snap.bracket)
        )
        if snap.bracket
        else "",
    }


def tombola_context(tournament: Tournament) -> dict[str, object]:
    """The projector while the tombola is drawn (``Tournament.tombola_on_screen``, set by the first
    draw and by the organiser): one view instead of the rotation, the prize drawn last and up to
    ``SCREEN_LINES`` drawn before it (two queries: ``selectors.tombola.read``). Rendered and cached
    like the screen it replaces (``renderings``), so every draw, which bumps the version, reaches
    the hall within the projector's poll."""
    tombola = tombola_selectors.read(tournament)
    won = tombola.won_latest_first
    return {"tournament": tournament, "tombola": tombola, "earlier": won[1 : tombola_selectors.SCREEN_LINES + 1]}


def asked_cycle(request: HttpRequest) -> int:
    """The rotation a projector asks for with ``?cycle=N`` (``selectors.screen``: which window of
    each list it shows); 0 when none is asked or the value is not a small whole number."""
    asked = request.GET.get("cycle", "")[:3]  # at most 1,000 renderings per screen and language
    return int(asked) if asked.isdecimal() and asked.isascii() else 0


def _screen(state: versions.State, language: str, cycle: int = 0) -> renderings.Rendering:
    """The projector's rotating views in ``language`` on rotation ``cycle`` (``renderings``: once
    per version, at most once a second). Keyed by id: the fragment shows no key, and every
    write (a new key, unlisting) bumps the version."""

    def build() -> tuple[int, bytes]:
        tournament = Tournament.objects.get(pk=state.tournament_id)
        # The read too: round and stage labels are translated as it is built.
        with translation.override(language):
            if tournament.tombola_on_screen:
                html = render_to_string("tournament/display/_tombola.html", tombola_context(tournament))
            else:
                snap = screen_selectors.read(tournament, cycle)
                context = screen_context(snap)
                # The expected plan: the welcome view before the day, "final expected at about" during it.
                context["day"] = (
                    None if snap.finished else day_plan_selectors.for_screen(tournament, any_round=bool(snap.rounds))
                )
                html = render_to_string("tournament/display/_screen.html", context)
        return tournament.version, html.encode()

    name = f"screen:{language}" if cycle == 0 else f"screen:{language}:{cycle}"
    return renderings.latest(name, state.tournament_id, state.version, build)


@require_GET
def projector(request: HttpRequest, public_key: str) -> HttpResponse:
    """The projector in the hall's language (``projector_language``); a screen's ``?lang=``
    is carried by its polls."""
    tournament = get_object_or_404(Tournament, public_key=public_key)
    state = versions.State(
        tournament.pk, tournament.version, tournament.public_key, tournament.display_language, tournament.listed
    )
    language = projector_language(request, tournament.display_language)
    phone_link = _phone_link(request, tournament)
    screen = _screen(state, language)
    context = {
        "tournament": tournament,
        "screen": mark_safe(screen.body.decode()),  # our own template's output, escaped as it was rendered
        "etag": _screen_tag(public_key, screen.version, language),
        "lang": asked_language(request),
        "poll_seconds": POLL_SECONDS,
        "phone_link": phone_link,
        "qr": qr_svg(phone_link),
    }
    with translation.override(language):
        response = render(request, "tournament/display/projector.html", context)
    response["Content-Language"] = language
    return _revalidate(response, tournament.listed)


@require_GET
def projector_screen(request: HttpRequest, public_key: str) -> HttpResponse:
    """The projector's poll. Unchanged: a 304 from the shared cache, no query. Changed: the
    screen's latest rendering (``renderings``), with that rendering's version as ETag."""
    state = _state_or_404(public_key)
    language = projector_language(request, state.display_language)
    cycle = asked_cycle(request)
    unchanged = answer_if_unchanged(request, _screen_tag(public_key, state.version, language, cycle))
    behind = 0.0  # the screen shows the tournament as it is now
    if unchanged is None:
        screen = _screen(state, language, cycle)
        etag = _screen_tag(public_key, screen.version, language, cycle)
        if screen.version != state.version:
            # A rendering kept although the version moved on: it shows the state of when it was made.
            behind = renderings.age(screen)
        unchanged = answer_if_unchanged(request, etag)  # the client already shows this rendering
    response = unchanged or renderings.respond(request, screen)  # compressed as stored, for every browser
    if unchanged is None:
        response["ETag"] = etag
        response["Content-Language"] = language
    # How old the state shown is, in seconds (projector.js: "updated N s ago" counts from it).
    response["X-State-Age"] = f"{behind:.1f}"
    return _revalidate(response, state.listed)


def _search(request: HttpRequest, **kwargs: object) -> str:
    return short_hash(request.GET.get("q", "")[:60])


@require_GET
def find(request: HttpRequest, public_key: str) -> HttpResponse:
    """A player types their name or start number and sees their table and seat; the results
    poll themselves. Only players who take part are found (``public.find_players``).

    The results are a rendering (``renderings``: per search and language, once per version,
    at most once a second), built from the players found alone (``public.lookup``). Their
    poll is answered like the staff pages' (``tournament.polling``, public ETag): a 304 from
    the shared cache while nothing changed."""
    state = _state_or_404(public_key)
    query = request.GET.get("q", "")[:60]
    language = str(request.LANGUAGE_CODE)
    search = short_hash(query)

    def tag(version: int) -> str:
        return str(etag_for(request, "find", public_key, version, extra=search, private=False))

    partial = request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == "find-results"
    if partial and (unchanged := answer_if_unchanged(request, tag(state.version))) is not None:
        return _revalidate(unchanged, state.listed)
    seconds = getattr(settings, "STAFF_POLL_SECONDS", POLL_SECONDS_STAFF)

    def build() -> tuple[int, bytes]:
        tournament = Tournament.objects.get(pk=state.tournament_id)
        with translation.override(language):
            results = public.lookup(tournament, public.find_players(tournament, query))
            context = {
                "fmt": registry.of(tournament),
                "tournament": tournament,
                "query": query,
                "query_is_number": query.strip().isdecimal(),
                "results": results,
                # A tombola prize a found player won (one query when someone is found).
                "won": tombola_selectors.won_by(tournament, [result.player.pk for result in results]),
                "poll": {"target": "find-results", "etag": tag(tournament.version), "seconds": seconds},
            }
            html = render_to_string("tournament/display/find.html#find-results", context)
        return tournament.version, html.encode()

    results = renderings.latest(f"find:{language}:{search}", state.tournament_id, state.version, build, keep=300)
    etag = tag(results.version)
    if partial:
        response = answer_if_unchanged(request, etag) or renderings.respond(request, results)
        response["ETag"] = etag
        return _revalidate(response, state.listed)
    tournament = get_object_or_404(Tournament, pk=state.tournament_id)
    context = {
        "tournament": tournament,
        "query": query,
        "results_html": mark_safe(results.body.decode()),  # our own template's output, escaped as it was rendered
        "public_page": True,
    }
    return _revalidate(render(request, "tournament/display/find.html", context), state.listed)


@require_GET
def plan(request: HttpRequest, public_key: str) -> HttpResponse:
    """The expected plan of the day (``selectors.day_plan``): before the day for the players
    registered (and with the waiting list), during it kept true by the games measured. In the
    visitor's language, like the phone page."""
    state = _state_or_404(public_key)
    tournament = get_object_or_404(Tournament, pk=state.tournament_id)
    context = {"tournament": tournament, "day": day_plan_selectors.read(tournament), "public_page": True}
    return _revalidate(render(request, "tournament/display/plan.html", context), state.listed)


def _api_tag(public_key: str, version: int, language: str) -> str:
    return f'"api-{public_key}-{version}-{language}"'


@require_GET
def api(request: HttpRequest, public_key: str) -> HttpResponse:
    """The read-only JSON document (README, "Public JSON"): encoded once per rendering
    (``renderings``), a 304 from the shared cache while nothing changed."""
    state = _state_or_404(public_key)
    # The rounds' labels are translated: one document per language, as its ETag says.
    language = str(request.LANGUAGE_CODE)
    unchanged = answer_if_unchanged(request, _api_tag(public_key, state.version, language))
    if unchanged is None:

        def build() -> tuple[int, bytes]:
            tournament = Tournament.objects.get(pk=state.tournament_id)
            with translation.override(language):
                document = public.as_json(public.snapshot(tournament))
            return tournament.version, json.dumps(document, ensure_ascii=False, cls=DjangoJSONEncoder).encode()

        document = renderings.latest(f"api:{language}", state.tournament_id, state.version, build)
        etag = _api_tag(public_key, document.version, language)
        unchanged = answer_if_unchanged(request, etag)
    if unchanged is not None:
        response = unchanged
    else:
        response = renderings.respond(request, document, content_type="application/json")
        response["ETag"] = etag
    response["Access-Control-Allow-Origin"] = "*"
    return _revalidate(response, state.listed)
