"""Self check-in (issue 32, item 3): "I'm here" on the pass, the entrance page (``/p/<key>/here/``)
and its printed poster. The writes are ``passes.checkin.self_check_in``; the reads
``selectors.self_check_in``; the desk's "arrived, needs the desk" list is on its check-in page.

The forms post and redirect (no htmx): the pass page's polled region is not swapped under a
player's half-ticked form, a double tap finds the player checked in, and the back button or a
reload show the state as it is."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import enums, polling
from tournament.errors import ServiceError
from tournament.formats.entries import to_int
from tournament.http import HtmxHttpRequest, answers_refusals
from tournament.models import Player, PlayerPass, Tournament
from tournament.passes import checkin
from tournament.permissions import tournament_role
from tournament.polling import polled
from tournament.selectors import desk as desk_selectors
from tournament.selectors import self_check_in as self_check_in_selectors
from tournament.views import passes as pass_views
from tournament.views.forms import SelfCheckInForm
from tournament.views.printing import _context as print_context
from tournament.views.printing import qr_svg

# Players the entrance page shows for a search ("Is this you?").
ENTRANCE_MATCHES = 5
# The largest id a form may name (PostgreSQL's bigint): anything above is nobody.
ID_MAX = 2**63 - 1


def _id(value: int | None) -> int | None:
    return value if value is not None and 0 < value <= ID_MAX else None


# --- on the pass ------------------------------------------------------------------------------


@pass_views.with_pass
def _refused_here(request: HttpRequest, error: ServiceError, token: str, player_pass: PlayerPass) -> HttpResponse:
    """A refused "I'm here" on the pass: the pass page with why (409); nothing saved."""
    return pass_views.render_pass(request, player_pass, token, error=error.message, status=409)


@require_POST
@answers_refusals(_refused_here)
@pass_views.with_pass
def pass_here(request: HttpRequest, token: str, player_pass: PlayerPass) -> HttpResponse:
    """ "I'm here" on the pass, with the self-declared items ticked: checked in, or on the desk's
    list; refused with why (409, the pass page with the message), nothing saved."""
    checkin.self_check_in(
        tournament_id=player_pass.player.tournament_id,
        pass_id=player_pass.pk,
        player_id=None,
        declared=SelfCheckInForm.read(request)["item"],
    )
    return redirect(reverse("tournament:pass", kwargs={"token": token}) + "#check-in")


# --- the entrance -----------------------------------------------------------------------------


def _tournament(public_key: str) -> Tournament:
    tournament = Tournament.objects.filter(public_key=public_key).first()
    if tournament is None:
        raise Http404
    return tournament


def _chosen(tournament: Tournament, value: int | None) -> Player | None:
    player_id = _id(value)
    return Player.objects.filter(pk=player_id, tournament=tournament).first() if player_id else None


def _entrance_page(
    request: HttpRequest, tournament: Tournament, *, player: Player | None, error: str = "", status: int = 200
) -> HttpResponse:
    query = request.GET.get("q", "")[:60].strip()
    matches: list[Player] = []
    total = 0
    closed = checkin.refusal_for(tournament)
    if query and not closed and player is None:
        matches, total = desk_selectors.search_players(tournament, query, limit=ENTRANCE_MATCHES)
    context = {
        "tournament": tournament,
        "public_page": True,
        "closed": closed,
        "query": query,
        "matches": matches,
        "more": max(total - len(matches), 0),
        "player": player,
        "offer": self_check_in_selectors.offer(tournament, player) if player is not None and not closed else None,
        "error": error,
    }
    return pass_views.private_answer(render(request, "tournament/self_check_in/entrance.html", context, status=status))


def _refused_entrance(request: HttpRequest, error: ServiceError, public_key: str) -> HttpResponse:
    """A refused "I'm here" by name: the entrance page with why (409); nothing saved."""
    tournament = _tournament(public_key)
    player = _chosen(tournament, SelfCheckInForm.read(request)["player"])
    return _entrance_page(request, tournament, player=player, error=error.message, status=409)


@require_http_methods(["GET", "POST"])
@answers_refusals(_refused_entrance)
def entrance(request: HttpRequest, public_key: str) -> HttpResponse:
    """The entrance page: a player types their start number or name, picks "Is this you?", and
    checks in by name where the organiser allows it (else opens their pass). POST: "I'm here"
    by name; then back to this page, which shows the player's state."""
    tournament = _tournament(public_key)
    if request.method == "POST":
        posted = SelfCheckInForm.read(request)
        player = _chosen(tournament, posted["player"])
        checkin.self_check_in(
            tournament_id=tournament.pk,
            pass_id=None,
            player_id=player.pk if player else None,
            declared=posted["item"],
        )
        url = reverse("tournament:entrance", args=[tournament.public_key])
        return redirect(f"{url}?player={player.pk}" if player else url)
    return _entrance_page(request, tournament, player=_chosen(tournament, _get_int(request, "player")))


def _get_int(request: HttpRequest, name: str) -> int | None:
    return to_int(request.GET.get(name))


# --- the desk ---------------------------------------------------------------------------------


@require_GET
@tournament_role(enums.Role.DESK)
def entrance_poster(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The entrance poster (A4): the entrance page's QR code, large, and what to do."""
    link = request.build_absolute_uri(reverse("tournament:entrance", args=[tournament.public_key]))
    context = print_context(tournament, link=link, code=qr_svg(link))
    return render(request, "tournament/print/entrance_poster.html", context)


# The desk's "arrived, needs the desk" keeps itself current: polled like the staff pages.
ARRIVED_PAGE = "desk-arrived"
ARRIVED_TARGET = "arrived"


def attach_arrived_poll(request: HttpRequest, tournament: Tournament) -> None:
    """Give the check-in page the ETag of its "arrived" region (``request.poll``), so that the
    region's first poll is a 304 while nobody new arrived."""
    polling.attach(request, ARRIVED_PAGE, ARRIVED_TARGET, tournament.pk)


@require_GET
@polled(ARRIVED_PAGE, target=ARRIVED_TARGET)
@tournament_role(enums.Role.DESK)
def arrived_list(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk's "arrived, needs the desk" alone, for its poll: a player who says "I'm here" at
    the entrance while the desk looks at the check-in page appears without a reload."""
    items = desk_selectors.checklist_with_handouts(tournament)
    arrived = self_check_in_selectors.arrived(tournament, items) if tournament.self_check_in else None
    context = {"tournament": tournament, "arrived": arrived}
    return render(request, "tournament/self_check_in/_arrived.html", context)
