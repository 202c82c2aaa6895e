"""The organiser's corrections at one table (``tournament.play.corrections``).

One page per table, for the organiser only: every game (corrected and voided ones
struck through, with who, when and why), and forms to correct or void a game,
change the first dealer and reopen a closed table. Every form needs a reason.

A correction is posted twice: the first answer shows what it would change (the
service ran it and rolled it back) with a "Confirm" form carrying the same fields
and the consequences' fingerprint; where games downstream would be voided, the
confirmation says which and needs its own button. A saved correction redirects
back to the page with a message (reload-safe); a refusal shows the reason with
status 409 and nothing saved.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.models import Game, GameStatus
from tournament import enums
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.http import HtmxHttpRequest
from tournament.models import Table, Tournament
from tournament.permissions import tournament_role
from tournament.play import corrections
from tournament.selectors import play as play_reads
from tournament.views.referee import read_card_entries

ACTIONS = ("correct", "void", "dealer", "reopen")
# A confirmation sent again within this time by the same person is taken as a replay of the first.
REPLAY_WINDOW = timedelta(minutes=2)
# The posted fields a confirmation carries over (the rest is the form's own).
CARRIED = ("action", "game", "version", "reason", "winner", "loser", "player")


def _int(value: str | None) -> int | None:
    try:
        return int((value or "").strip())
    except ValueError:
        return None


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
def table_corrections(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """The corrections page of a table; POST runs one correction (see the module docstring)."""
    if request.method == "GET":
        return _page(request, tournament, table_id)
    action = request.POST.get("action", "")
    if action not in ACTIONS:
        return _page(request, tournament, table_id, error=_("Unknown action. Reload the page."), status=400)
    try:
        done = _run(request, tournament, table_id, action)
    except corrections.ConfirmConsequences as question:
        return _page(request, tournament, table_id, question=question, action=action)
    except ServiceError as error:
        if _already_applied(request, table_id, action):
            messages.info(request, _("This correction was already saved; nothing more was changed."))
            return redirect("tournament:table_corrections", tournament.pk, table_id)
        return _page(request, tournament, table_id, error=error.message, status=409, action=action)
    messages.success(request, done)
    return redirect("tournament:table_corrections", tournament.pk, table_id)


def _already_applied(request: HtmxHttpRequest, table_id: int, action: str) -> bool:
    """The same confirmation arrives again (a double tap, a reload, the back button): its game was
    retired by this person moments ago. The first one was applied; this one is answered as saved."""
    game_id = _int(request.POST.get("game"))
    if action not in ("correct", "void") or game_id is None or not request.POST.get("confirm"):
        return False
    return (
        Game.objects.filter(pk=game_id, table_id=table_id, voided_by=request.user.pk)
        .exclude(status=GameStatus.VALID)
        .filter(voided_at__gte=timezone.now() - REPLAY_WINDOW)
        .exists()
    )


def _run(request: HtmxHttpRequest, tournament: Tournament, table_id: int, action: str) -> str:
    """Call the service of ``action`` with the posted fields; returns the message of success."""
    post = request.POST
    version = _int(post.get("version"))
    if version is None:
        raise ServiceError(_("The form is incomplete; reload the page."))
    common = {
        "tournament": tournament,
        "actor": request.user,
        "table_id": table_id,
        "version": version,
        "reason": post.get("reason", ""),
    }
    if action == "reopen":
        table = corrections.reopen_table(**common)
        return _("Table %(number)d is open again: the referee can undo and record.") % {"number": table.number}
    if action == "dealer":
        player = _int(post.get("player"))
        if player is None:
            raise ServiceError(_("Choose who deals first."))
        corrections.change_first_dealer(**common, player_id=player)
        return _("The first dealer is changed; the dealers of the games played follow from it.")
    game_id = _int(post.get("game"))
    if game_id is None:
        raise ServiceError(_("The form is incomplete; reload the page."))
    confirm = post.get("confirm", "")[:64]
    void_downstream = post.get("void_downstream") == "1"
    if action == "void":
        game = corrections.void_game(**common, game_id=game_id, confirm=confirm, void_downstream=void_downstream)
        return _("Game %(number)d is voided.") % {"number": game.number}
    entered, problem = read_card_entries(request)
    if problem:
        raise ServiceError(problem)
    game = corrections.correct_game(
        **common,
        game_id=game_id,
        winner_id=_int(post.get("winner")),
        loser_id=_int(post.get("loser")),
        card_points=entered.points or None,
        hands=entered.hands or None,
        confirm=confirm,
        void_downstream=void_downstream,
    )
    return _("Game %(number)d is corrected.") % {"number": game.number}


def _page(
    request: HtmxHttpRequest,
    tournament: Tournament,
    table_id: int,
    *,
    error: str = "",
    status: int = 200,
    question: corrections.ConfirmConsequences | None = None,
    action: str = "",
) -> HttpResponse:
    try:
        view = play_reads.table_view(tournament, table_id)
    except Table.DoesNotExist:
        raise Http404 from None
    fmt = registry.of(tournament)
    carried = [(name, request.POST.get(name, "")) for name in CARRIED if request.POST.get(name, "") != ""]
    carried += [(key, value) for key, value in request.POST.items() if key.startswith(("points_", "hand_"))]
    context = {
        "tournament": tournament,
        "fmt": fmt,
        "view": view,
        "table": view.table,
        "games": _games(view),
        "counts_card_points": fmt.counts_card_points(view.table),
        "reopenable": corrections.reopenable(view.table),
        "error": error,
        "question": question,
        "carried": carried,
        "posted_game": _int(request.POST.get("game")),
        "action": action,
    }
    return render(request, "tournament/corrections.html", context, status=status)


def _games(view: play_reads.TableView) -> list[dict[str, object]]:
    """Every game of the table with its scores by player, newest number last, the valid one of
    each number after the ones it replaced."""
    rows = []
    for game in view.games:
        held = {}
        for score in game.scores.all():
            if score.player_id != game.winner_id:
                # The knockout final keeps the cards in ``hand["cards"]`` (the winner scores them).
                held[score.player_id] = score.hand.get("cards", score.points) if score.hand else score.points
        seats = [{"seat": seat, "held": held.get(seat.player_id, "")} for seat in view.seats]
        rows.append({"game": game, "seats": seats, "points": sum(s.points for s in game.scores.all())})
    return rows
