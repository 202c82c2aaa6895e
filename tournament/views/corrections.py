"""The organiser's corrections at one table (``tournament.play.corrections``).

One page per table, for the organiser only: every game (corrected and voided ones
struck through, with who, when and why), and forms to correct or void a game,
change the first dealer and reopen a closed table. Every form needs a reason.

A correction is posted twice: the first answer shows what it would change (the
service ran it and rolled it back) with a "Confirm" form carrying the same fields
and the consequences' fingerprint; where games downstream would be voided, the
confirmation says which and needs its own button. A saved correction redirects
back to the page with a message (reload-safe); a refusal shows the reason with
status 409 and nothing saved, and the refused form open again with what was typed in it
(the reason, the chosen winner or loser, the card points, the first dealer): nothing typed
is lost, whatever refused it (a missing reason, a stale version, a change that cannot be
carried on).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.models import Game, GameScore, GameStatus
from tournament import enums, naming
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.http import HtmxHttpRequest, answers_refusals
from tournament.models import Table, Tournament
from tournament.permissions import tournament_role
from tournament.play import corrections
from tournament.selectors import play as play_selectors
from tournament.views.forms import CorrectionForm

ACTIONS = ("correct", "void", "dealer", "reopen")
# A confirmation sent again within this time by the same person is taken as a replay of the first.
REPLAY_WINDOW = timedelta(minutes=2)
# The posted fields a confirmation carries over (the rest is the form's own).
CARRIED = ("action", "game", "version", "reason", "winner", "loser", "player")


def _refused(request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, table_id: int) -> HttpResponse:
    """A refused correction: the page with why (409) and the refused form open with what was typed;
    a confirmation that arrives again after it was applied is answered as saved."""
    posted = _posted(request)
    action = posted["action"]
    if _already_applied(request, posted, table_id):
        messages.info(request, _("This correction was already saved; nothing more was changed."))
        return redirect("tournament:table_corrections", tournament.pk, table_id)
    return _page(request, tournament, table_id, error=error.message, status=409, action=action)


def _posted(request: HtmxHttpRequest) -> dict[str, Any]:
    return CorrectionForm.read(request) if request.method == "POST" else {}


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def table_corrections(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """The corrections page of a table; POST runs one correction (see the module docstring)."""
    if request.method == "GET":
        return _page(request, tournament, table_id)
    posted = _posted(request)
    action = posted["action"]
    if action not in ACTIONS:
        return _page(request, tournament, table_id, error=_("Unknown action. Reload the page."), status=400)
    try:
        done = _run(request, tournament, table_id, posted)
    except corrections.ConfirmConsequences as question:
        return _page(request, tournament, table_id, question=question, action=action)
    messages.success(request, done)
    return redirect("tournament:table_corrections", tournament.pk, table_id)


def _already_applied(request: HtmxHttpRequest, posted: dict[str, Any], table_id: int) -> bool:
    """The same confirmation arrives again (a double tap, a reload, the back button): its game was
    retired by this person moments ago. The first one was applied; this one is answered as saved."""
    game_id = posted["game"]
    if posted["action"] not in ("correct", "void") or game_id is None or not posted["confirm"]:
        return False
    return (
        Game.objects.filter(pk=game_id, table_id=table_id, voided_by=request.user.pk)
        .exclude(status=GameStatus.VALID)
        .filter(voided_at__gte=timezone.now() - REPLAY_WINDOW)
        .exists()
    )


def _run(request: HtmxHttpRequest, tournament: Tournament, table_id: int, posted: dict[str, Any]) -> str:
    """Call the service of the posted action with the posted fields; returns the message of success."""
    action = posted["action"]
    version = posted["version"]
    if version is None:
        raise ServiceError(_("The form is incomplete; reload the page."))
    common = {
        "tournament": tournament,
        "actor": request.user,
        "table_id": table_id,
        "version": version,
        "reason": posted["reason"],
    }
    if action == "reopen":
        table = corrections.reopen_table(**common)
        return _("%(table)s is open again: the referee can undo and record.") % {"table": naming.of_table(table)}
    if action == "dealer":
        player = posted["player"]
        if player is None:
            raise ServiceError(_("Choose who deals first."))
        corrections.change_first_dealer(**common, player_id=player)
        return _("The first dealer is changed; the dealers of the games played follow from it.")
    game_id = posted["game"]
    if game_id is None:
        raise ServiceError(_("The form is incomplete; reload the page."))
    confirm = posted["confirm"]
    void_downstream = posted["void_downstream"]
    if action == "void":
        game = corrections.void_game(
            **common, fmt=registry.of(tournament), game_id=game_id, confirm=confirm, void_downstream=void_downstream
        )
        return _("Game %(number)d is voided.") % {"number": game.number}
    entered, problem = posted["entered"], posted["problem"]
    if problem:
        raise ServiceError(problem)
    game = corrections.correct_game(
        **common,
        fmt=registry.of(tournament),
        game_id=game_id,
        winner_id=posted["winner"],
        loser_id=posted["loser"],
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
        view = play_selectors.table_view(tournament, table_id)
    except Table.DoesNotExist:
        raise Http404 from None
    fmt = registry.of(tournament)
    form = CorrectionForm(request.POST)
    form.is_valid()
    typed = _typed(form, action) if error else Typed()
    context = {
        "tournament": tournament,
        "fmt": fmt,
        "view": view,
        "table": view.table,
        "games": _games(view, typed, fmt.cards_held),
        "typed": typed,
        "counts_card_points": fmt.counts_card_points(view.table),
        "reopenable": corrections.reopenable(view.table),
        "error": error,
        "question": question,
        "carried": form.carried(CARRIED),
        "posted_game": form.cleaned_data["game"],
        "action": action,
    }
    return render(request, "tournament/corrections.html", context, status=status)


@dataclass(frozen=True)
class Typed:
    """What a refused form carried, to show it again as it was typed: the action, the game, the
    reason, the chosen winner, loser or first dealer and the card points by player (as typed)."""

    action: str = ""
    game_id: int | None = None
    reason: str = ""
    winner: int | None = None
    loser: int | None = None
    player: int | None = None
    points: dict[int, str] = field(default_factory=dict)

    def reason_for(self, action: str, game_id: int | None = None) -> str:
        """The reason typed into the form of ``action`` (for the game ``game_id``), "" for any other form."""
        return self.reason if self.action == action and self.game_id == game_id else ""


def _typed(form: CorrectionForm, action: str) -> Typed:
    posted = form.cleaned_data
    return Typed(
        action=action,
        game_id=posted["game"] if action in ("correct", "void") else None,
        reason=posted["reason"][: corrections.REASON_MAX + 100],
        winner=posted["winner"],
        loser=posted["loser"],
        player=posted["player"],
        points=form.typed_points(),
    )


def _games(
    view: play_selectors.TableView, typed: Typed, cards_held: Callable[[GameScore], int]
) -> list[dict[str, object]]:
    """Every game of the table with its scores by player, newest number last, the valid one of
    each number after the ones it replaced. The game whose correction was refused shows what was
    typed (``typed``): the chosen player and the card points, not the game's own."""
    rows = []
    names = {seat.player_id: seat.player.name for seat in view.seats}
    for game in view.games:
        held: dict[int, object] = {}
        for score in game.scores.all():
            if score.player_id != game.winner_id:
                held[score.player_id] = cards_held(score)  # as the format keeps them (``Format.cards_held``)
        refused = typed.action == "correct" and typed.game_id == game.pk
        seats = []
        for seat in view.seats:
            if refused:
                checked = seat.player_id in (typed.winner, typed.loser)
                shown = typed.points.get(seat.player_id, "")
            else:
                checked = seat.player_id in (game.winner_id, game.loser_id)
                shown = held.get(seat.player_id, "")
            seats.append({"seat": seat, "held": shown, "checked": checked})
        rows.append(
            {
                "game": game,
                "seats": seats,
                # A player's own entry (issue 32, item 4): who entered it with the pass, who confirmed it.
                "entered_by_player": names.get(game.entered_by_player_id, ""),
                "confirmed_by_player": names.get(game.confirmed_by_player_id, ""),
                "points": sum(s.points for s in game.scores.all()),
                "reason_correct": typed.reason_for("correct", game.pk),
                "reason_void": typed.reason_for("void", game.pk),
            }
        )
    return rows
