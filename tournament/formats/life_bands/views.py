"""The Schocken half tracker: a referee's calculator at the table.

The referee enters each player's throw of a round -- with JavaScript by tapping
the throw on a pad (``static/js/half_tracker.js``), without it by typing them --
and the app names who receives how many lids, detects a half's loser,
Pitsch-Patsch and the decider between the two half losers. The game in progress
is kept on the server per table (``life_bands.tracker``: a second tablet continues
the same game; a round scored on an older revision is refused and the kept game
shown); the tablet keeps the taps of the round in progress in localStorage. The
game's loser is recorded in one tap through the tablet's outbox (the table page's
"Lost" form), never dropped: a decided game whose loser is not recorded stays on
screen until it is recorded (or discarded on purpose). Each new game is begun by
the last recorded game's loser (``schocken.game_starter``).

Sharp play ("scharfes Spiel": one half only) is the server's decision, from the
table's start and ``Tournament.sharp_play_minutes`` (never in the grand final):
a game is sharp when its first round is scored once the limit has passed. A game
already under way then ends normally with two halves, so its flag travels in the
form from then on.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games.rules import schocken
from tournament import enums
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.life_bands import tracker as kept_games
from tournament.http import HtmxHttpRequest
from tournament.models import Table, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import play as play_selectors
from tournament.views.forms import TrackerForm, to_int

TEMPLATE = "formats/life_bands/half_tracker.html"
# The dice faces of the tap pad: the face and one pip per point (drawn by app.css).
FACES = [(face, range(face)) for face in range(1, 7)]


class BadState(ValueError):
    """The posted game state is not one the tracker can have produced for this table."""


@dataclass(frozen=True)
class TrackerState:
    """A game at the table as the tracker sees it between two rounds of throws."""

    players: list[int]  # player ids of the half (or decider) being played, in seat order
    half: schocken.HalfState
    tracker: schocken.GameTracker
    starter: int  # seat (index into ``players``) that throws first this round

    @property
    def fresh(self) -> bool:
        """No round of this game scored yet: sharp play is still decided by the clock."""
        return self.tracker.next_step is schocken.Step.FIRST_HALF and self.half == schocken.HalfState.start(
            len(self.players)
        )

    def encode(self) -> dict[str, str]:
        """The hidden fields that carry the state to the next post."""
        return {
            "players": ",".join(map(str, self.players)),
            "stock": str(self.half.stock),
            "lids": ",".join(map(str, self.half.lids)),
            "half_losers": ",".join(map(str, self.tracker.half_losers)),
            "decider_loser": "" if self.tracker.decider_loser is None else str(self.tracker.decider_loser),
            "sharp": "1" if self.tracker.sharp else "0",
            "starter": str(self.starter),
        }


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _decode(post: dict[str, str], in_play: list[int]) -> TrackerState:
    """The state posted by the form, checked against the table; ``BadState`` when it does not fit.

    The players of a half are the table's players still in play, in seat order; those of a
    decider its two half losers; the seat to throw first must still throw in this half.
    """
    try:
        players = _ints(post.get("players", ""))
        half = schocken.HalfState(stock=int(post["stock"]), lids=tuple(_ints(post["lids"])))
        decider_loser = _ints(post.get("decider_loser", ""))
        tracker = schocken.GameTracker(
            sharp=post.get("sharp") == "1",
            half_losers=tuple(_ints(post.get("half_losers", ""))),
            decider_loser=decider_loser[0] if len(decider_loser) == 1 else None,
        )
        starter = int(post.get("starter", "0"))
    except (KeyError, ValueError) as error:  # InvalidGameStep is a ValueError
        raise BadState(str(error)) from error
    step = tracker.next_step
    if len(set(players)) != len(players) or not set(tracker.half_losers) <= set(in_play):
        raise BadState("players")
    if step is schocken.Step.DECIDER:
        expected = list(tracker.decider_players or ())
        if players != expected:
            raise BadState("decider players")
    elif step is schocken.Step.DONE:
        if not set(players) <= set(in_play) or len(players) < 2:
            raise BadState("players")
    elif players != in_play:
        raise BadState("players")
    if len(half.lids) != len(players) or not 0 <= starter < len(players):
        raise BadState("seats")
    if step is not schocken.Step.DONE and (half.is_over or starter not in half.active):
        raise BadState("half")
    return TrackerState(players=players, half=half, tracker=tracker, starter=starter)


def _new_game(in_play: list[int], sharp: bool, starter: int = 0) -> TrackerState:
    """A game not begun: its first half, thrown first by ``starter`` (``schocken.game_starter``)."""
    return TrackerState(
        players=in_play,
        half=schocken.HalfState.start(len(in_play)),
        tracker=schocken.GameTracker(sharp=sharp),
        starter=starter,
    )


def _kept_state(kept: Any, mark: str, in_play: list[int]) -> TrackerState | None:
    """The kept game when it still follows the table's recorded games and fits its players."""
    if kept is None or kept.results_mark != mark or not kept.state:
        return None
    try:
        return _decode({str(name): str(value) for name, value in kept.state.items()}, in_play)
    except BadState:
        return None


@dataclass(frozen=True)
class _AtTable:
    """What a request at the table is answered from: its players, recorded games and the rules in force."""

    table_id: int
    names: dict[int, str]
    in_play: list[int]
    mark: str  # the table's recorded results, as the kept game must follow them
    street: schocken.StreetRule
    sharp_now: bool
    first_game: bool
    next_game: TrackerState


@dataclass(frozen=True)
class _Shown:
    """What the tracker shows after a request: the game, its kept revision, the words to the referee, the status."""

    current: TrackerState
    revision: int
    message: str = ""
    error: str = ""
    status: int = 200
    entered: dict[int, dict[str, str]] = field(default_factory=dict)


def _at_table(
    tournament: Tournament, view: play_selectors.TableView, names: dict[int, str], in_play: list[int]
) -> _AtTable:
    """Read the table's clock, street rule and recorded games; the next game begun by the last loser."""
    sharp_now = _sharp_now(tournament, view.table)
    street = street_rule(tournament)
    mark = kept_games.results_mark(view.games)
    last = view.last_game
    starter = schocken.game_starter(
        [seat.player_id for seat in view.seats], in_play, last.loser_id if last is not None else None
    )
    return _AtTable(
        table_id=view.table.pk,
        names=names,
        in_play=in_play,
        mark=mark,
        street=street,
        sharp_now=sharp_now,
        first_game=last is None,
        next_game=_new_game(in_play, sharp_now, starter),
    )


def _answer_post(post: dict[str, str], at: _AtTable, kept_now: TrackerState, revision: int) -> _Shown:
    """A posted round or discard, refused where the table's results or the kept game moved on meanwhile."""
    if post.get("mark", at.mark) != at.mark:
        error = _(
            "A result was recorded or undone at this table meanwhile: the tracker now shows "
            "the game after it. This round was not scored."
        )
        return _Shown(kept_now, revision, error=error, status=409)
    if (to_int(post.get("revision")) or 0) != revision:
        return _Shown(kept_now, revision, error=_stale_message(), status=409)
    if post.get("action") == "new":
        # Only on purpose (the page asks first): a decided game's loser is otherwise recorded.
        discarded = _("The tracked game was discarded without recording it: the next game begins.")
        return _keep(at, revision, at.next_game, discarded)
    return _score_round(post, at, kept_now, revision)


def _score_round(post: dict[str, str], at: _AtTable, kept_now: TrackerState, revision: int) -> _Shown:
    """Score the posted round of the game the form carries, and keep the game it leads to."""
    try:
        current = _decode(post, at.in_play)
    except BadState:
        # The game kept for this table is shown (a new game when none is kept).
        error = _(
            "The tracker could not read this game's state (the page was out of date or changed), "
            "so it shows the game kept for this table."
        )
        return _Shown(kept_now, revision, error=error)
    if current.fresh:
        # The game begins with this round: the clock decides, not the posted flag.
        current = replace(current, tracker=replace(current.tracker, sharp=at.sharp_now))
    if current.tracker.next_step is schocken.Step.DONE:
        error = _("This game is already decided: record its loser first; the next game then begins by itself.")
        return _Shown(current, revision, error=error)
    scored = _play(post, current, at.names, at.street)
    if isinstance(scored, str):
        return _Shown(current, revision, error=scored, entered=_entered(post, current))
    played, message = scored
    return _keep(at, revision, played, message)


def _keep(at: _AtTable, revision: int, game: TrackerState, message: str) -> _Shown:
    """Keep ``game`` for the table after ``revision``; where another tablet kept a newer one, show that."""
    try:
        kept_revision = kept_games.keep_game(
            table_id=at.table_id, revision=revision, results_mark=at.mark, state=game.encode()
        ).revision
    except kept_games.StaleGame as stale:
        current, kept_revision, error, status = _stale(stale, at.mark, at.in_play, at.next_game)
        return _Shown(current, kept_revision, error=error, status=status)
    return _Shown(game, kept_revision, message=message)


def _tracker_context(
    base: dict[str, Any], shown: _Shown, at: _AtTable, next_game_number: int, *, full_page: bool
) -> dict[str, Any]:
    """The tracker's template context: the page, the game shown, the form's hidden state and the pad."""
    current = shown.current
    context = {
        **base,
        **_state_context(current, at.names, shown.entered),
        "hidden": {**current.encode(), "revision": str(shown.revision), "mark": at.mark},
        "message": shown.message,
        "error": shown.error,
        "sharp_pending": at.sharp_now and not current.tracker.sharp and not current.fresh,
        "street_first_roll_only": at.street is schocken.StreetRule.FIRST_ROLL,
        "starter_name": at.names[current.players[current.starter]] if current.fresh else "",
        "first_game": at.first_game,
        "loser_id": current.tracker.loser,
        "next_game_number": next_game_number,
        "idempotency_key": uuid.uuid4().hex,
    }
    if full_page:
        context["throws"] = throw_words(at.street)
    context["grid"] = throw_grid(at.street)
    return context


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.REFEREE)
def half_tracker(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """The tracker page (GET: the game kept for this table, else the next game) and its rounds
    (POST), answered with the tracker.

    The form: the state (``players``, ``stock``, ``lids``, ``half_losers``, ``sharp``,
    ``starter``, as ``TrackerState.encode`` wrote it), the kept game's ``revision`` and the
    table's results ``mark`` it was shown with, and, for every seat that throws,
    ``dice_<seat>`` (three dice 1-6, "6 5 2"), ``rolls_<seat>`` (1-3) and ``kept_<seat>``
    (ones laid aside before the last roll, 0-2, default 0); ``action=new`` discards the kept
    game (asked first on the page). Answers 200 with the next state (kept); 422 with the
    reason and nothing changed when a throw does not exist (the typed values are shown again),
    the game is already decided, or the state is unreadable (the kept game shown); 409 with
    the kept game when another tablet scored meanwhile (an older ``revision``) or a result
    was recorded at the table (another ``mark``), and when the table has nothing to track.
    For htmx requests only the ``#tracker`` partial.
    """
    try:
        view = play_selectors.table_view(tournament, table_id)
    except Table.DoesNotExist:
        raise Http404 from None
    partial = TEMPLATE + ("#tracker" if request.htmx else "")
    names = {seat.player_id: seat.player.name for seat in view.seats}
    in_play = [seat.player_id for seat in view.seats if seat.out_order is None]
    base = _page_context(tournament, view.table)
    if view.table.status != enums.TableStatus.PLAYING or len(in_play) < 2:
        # A decided table (the grand final's winner alone, say) has nothing left to track.
        context = {**base, "nothing_to_track": True}
        return render(request, partial, context, status=409 if request.method == "POST" else 200)
    at = _at_table(tournament, view, names, in_play)
    kept = kept_games.kept_game(view.table.pk)
    revision = kept.revision if kept is not None else 0
    kept_now = _kept_state(kept, at.mark, in_play) or at.next_game
    shown = _Shown(kept_now, revision)
    if request.method == "POST":
        shown = _answer_post(TrackerForm.read(request)["posted"], at, kept_now, revision)
    context = _tracker_context(base, shown, at, view.next_game, full_page=not request.htmx)
    # A refusal without a status of its own (a throw that does not exist, say) is a 422.
    status = 422 if shown.error and shown.status == 200 else shown.status
    return render(request, partial, context, status=status)


def _stale_message() -> str:
    return _(
        "Another tablet scored a round of this game meanwhile: this is the game as it stands now. "
        "Your round was not scored; enter it again if it is still to be played."
    )


def _stale(
    stale: kept_games.StaleGame, mark: str, in_play: list[int], next_game: TrackerState
) -> tuple[TrackerState, int, str, int]:
    """What a refused round shows: the kept game (newer than the posted one), its revision, why, 409."""
    return _kept_state(stale.kept, mark, in_play) or next_game, stale.kept.revision, _stale_message(), 409


def _page_context(tournament: Tournament, table: Table) -> dict[str, Any]:
    """What the page around the tracker shows: the table, the tablet's store key, the clock."""
    sharp_at = _sharp_at(tournament, table)
    now = timezone.now()
    elapsed = max(int((now - table.started_at).total_seconds()), 0) if table.started_at else None
    return {
        "tournament": tournament,
        "table": table,
        "store_key": f"spielleitung.tracker.v1:{tournament.pk}:{table.pk}",
        "faces": FACES,
        "clock": None
        if sharp_at is None or elapsed is None
        else {
            "elapsed": elapsed,
            "shown": f"{elapsed // 60}:{elapsed % 60:02d}",
            "sharp_after": tournament.sharp_play_minutes * 60,
            "is_sharp": now >= sharp_at,
        },
    }


def _state_context(current: TrackerState, names: dict[int, str], entered: dict[int, dict[str, str]]) -> dict[str, Any]:
    """The rows of the round to enter (in turn order) and the game's course."""
    over = current.half.is_over
    order = schocken.turn_order(current.half, current.starter) if not over else ()
    opening = current.half == schocken.HalfState.start(len(current.players))
    rows = []
    for turn, seat in enumerate(order, start=1):
        typed = entered.get(seat, {})
        rows.append(
            {
                "seat": seat,
                "turn": turn,
                "name": names[current.players[seat]],
                "lids": current.half.lids[seat],
                "dice": typed.get("dice", ""),
                "rolls": typed.get("rolls", "1" if opening else "3"),
                "kept": typed.get("kept", "0"),
            }
        )
    return {
        "state": current,
        "hidden": current.encode(),
        "step": current.tracker.next_step,
        "fresh": current.fresh,
        "opening": opening,
        "rows": rows,
        "resting": [
            names[pid] for index, pid in enumerate(current.players) if not over and index not in current.half.active
        ],
        "loser_name": names.get(current.tracker.loser, "") if current.tracker.loser is not None else "",
        "pitsch_patsch": current.tracker.pitsch_patsch,
        "stock": current.half.stock,
    }


def _entered(post: dict[str, str], current: TrackerState) -> dict[int, dict[str, str]]:
    """The typed throws of a refused round, to show them again (cut short: they are only echoed)."""
    return {
        seat: {
            "dice": post.get(f"dice_{seat}", "")[:20],
            "rolls": post.get(f"rolls_{seat}", "")[:2],
            "kept": post.get(f"kept_{seat}", "")[:2],
        }
        for seat in current.half.active
    }


def _sharp_at(tournament: Tournament, table: Table) -> datetime | None:
    """When sharp play begins at ``table``; None in the grand final or before the table started."""
    if table.started_at is None or table.round.stage == enums.Stage.GRAND_FINAL:
        return None
    return table.started_at + timedelta(minutes=tournament.sharp_play_minutes)


def _sharp_now(tournament: Tournament, table: Table) -> bool:
    if table.started_at is None:
        return False
    grand_final = table.round.stage == enums.Stage.GRAND_FINAL
    return life_bands.is_sharp_play(
        table.started_at, timezone.now(), tournament.sharp_play_minutes, grand_final=grand_final
    )


def street_rule(tournament: Tournament) -> schocken.StreetRule:
    """The tournament's reading of "Straße: zählt nur in einem Wurf" (``Tournament.schocken_street``)."""
    try:
        return schocken.StreetRule(tournament.schocken_street)
    except ValueError:
        return schocken.StreetRule.ANY_ROLL


def throw_word(throw: schocken.Throw, street: schocken.StreetRule) -> str:
    """The ranking word the tablet shows as a throw is tapped: "Schock 5", "Straße 456", "652 · simple throw"."""
    label = schocken.throw_label(throw, street)
    if schocken.throw_kind(throw, street) is schocken.ThrowKind.SIMPLE:
        return _("%(throw)s · simple throw") % {"throw": label}
    return label


def lids_text(throw: schocken.Throw, street: schocken.StreetRule) -> str:
    """The lids a throw hands out as the round's highest: "all lids" for a Schock-Out."""
    if schocken.throw_kind(throw, street) is schocken.ThrowKind.SCHOCK_OUT:
        return _("all lids")
    lids = schocken.lid_value(throw, street)
    return ngettext("%(lids)d lid", "%(lids)d lids", lids) % {"lids": lids}


def throw_words(street: schocken.StreetRule) -> dict[str, dict[str, object]]:
    """Every throw the pad can produce, for the page's script (rendered with ``json_script``).

    Keyed "<dice ascending>-<rolls>-<ones laid aside>" ("113-1-0"); a key with ones laid
    aside is there only where that changes the throw (a 123 is a Straße only when all three
    dice fell in one roll). Each entry: ``word`` (the ranking word), ``lids`` (what it hands
    out), ``kind`` (for the colour) and ``rank`` (higher is better, equal for equal throws:
    the script breaks ties by turn, "Mit ist Schitt"). The rules stay in
    ``games.rules.schocken``; the script only looks up.
    """
    throws: dict[str, schocken.Throw] = {}
    for dice in itertools.combinations_with_replacement(range(1, 7), 3):
        for rolls in range(1, schocken.MAX_ROLLS + 1):
            plain = schocken.Throw(dice, rolls=rolls)
            throws[f"{''.join(map(str, dice))}-{rolls}-0"] = plain
            if rolls > 1 and 1 in dice:
                kept = schocken.Throw(dice, rolls=rolls, ones_kept=1)
                if schocken.throw_kind(kept, street) is not schocken.throw_kind(plain, street):
                    throws[f"{''.join(map(str, dice))}-{rolls}-1"] = kept
    keys = sorted({schocken.rank_key(throw, 0, street) for throw in throws.values()})
    rank = {key: index for index, key in enumerate(keys)}
    return {
        key: {
            "word": throw_word(throw, street),
            "lids": lids_text(throw, street),
            "kind": schocken.throw_kind(throw, street).name.lower(),
            "rank": rank[schocken.rank_key(throw, 0, street)],
        }
        for key, throw in throws.items()
    }


def throw_grid(street: schocken.StreetRule) -> list[dict[str, str]]:
    """The pad's one-tap throws: every three dice, best first (as thrown in one roll).

    Each: ``dice`` (descending, "652": what the tap enters), ``kind`` (for the colour),
    ``word`` (the full name, the button's title), ``head``/``value`` (the button's two lines, its name:
    "Schock" / "3", "General" / "666", "Straße" / "456"; a simple throw only its dice).
    """
    grid = []
    for dice in itertools.combinations_with_replacement(range(1, 7), 3):
        throw = schocken.Throw(dice, rolls=1)
        kind = schocken.throw_kind(throw, street)
        digits = "".join(map(str, sorted(dice, reverse=True)))
        head, value = {
            schocken.ThrowKind.SCHOCK_OUT: ("Schock", "Out"),
            schocken.ThrowKind.SCHOCK: ("Schock", str(max(dice))),
            schocken.ThrowKind.GENERAL: ("General", digits),
            schocken.ThrowKind.STRASSE: ("Straße", "".join(map(str, sorted(dice)))),  # as said: "Straße 456"
        }.get(kind, ("", digits))
        grid.append(
            (
                schocken.rank_key(throw, 0, street),
                {
                    "dice": digits,
                    "kind": kind.name.lower(),
                    "word": schocken.throw_label(throw, street),
                    "head": head,
                    "value": value,
                },
            )
        )
    return [entry for _key, entry in sorted(grid, key=lambda pair: pair[0], reverse=True)]


def _throw_of(post: dict[str, str], seat: int, name: str) -> schocken.Throw | str:
    """One player's posted throw, or the reason it cannot be one (translated, naming the player)."""
    try:
        dice = schocken.parse_throw(post.get(f"dice_{seat}", "")).dice
    except schocken.InvalidThrow:
        return _("Enter three dice (1–6) for %(name)s, e.g. 6 5 2.") % {"name": name}
    try:
        rolls = int(post.get(f"rolls_{seat}", "1"))
        if not 1 <= rolls <= schocken.MAX_ROLLS:
            raise ValueError(rolls)
    except ValueError:
        return _("Choose 1, 2 or 3 rolls for %(name)s.") % {"name": name}
    try:
        return schocken.Throw(dice, rolls=rolls, ones_kept=int(post.get(f"kept_{seat}", "0") or "0"))
    except (schocken.InvalidThrow, ValueError):
        return _(
            "%(name)s: only ones that the throw shows can have been laid aside (at most two), "
            "and only before a second or third roll."
        ) % {"name": name}


def _play(
    post: dict[str, str],
    current: TrackerState,
    names: dict[int, str],
    street: schocken.StreetRule = schocken.StreetRule.ANY_ROLL,
) -> tuple[TrackerState, str] | str:
    """Score one round of throws and move the game on, a Straße counted as ``street`` says.

    Returns the next state and what happened, or the reason the throws were refused.
    """
    throws: list[tuple[int, schocken.Throw]] = []
    for seat in schocken.turn_order(current.half, current.starter):
        throw = _throw_of(post, seat, names[current.players[seat]])
        if isinstance(throw, str):
            return throw
        throws.append((seat, throw))
    outcome = schocken.play_round(current.half, throws, street)
    top = dict(throws)[outcome.highest]
    low = dict(throws)[outcome.receiver]
    message = ngettext(
        "%(high)s (%(high_throw)s) decides: %(low)s (%(low_throw)s) takes %(lids)d lid.",
        "%(high)s (%(high_throw)s) decides: %(low)s (%(low_throw)s) takes %(lids)d lids.",
        outcome.lids,
    ) % {
        "high": names[current.players[outcome.highest]],
        "high_throw": schocken.throw_label(top, street),
        "low": names[current.players[outcome.receiver]],
        "low_throw": schocken.throw_label(low, street),
        "lids": outcome.lids,
    }
    if outcome.half_loser is None:
        return TrackerState(current.players, outcome.state, current.tracker, outcome.next_starter), message
    loser_id = current.players[outcome.half_loser]
    tracker = current.tracker
    if tracker.next_step == schocken.Step.DECIDER:
        tracker = tracker.record_decider_loser(loser_id)
        message += " " + _("%(name)s loses the decider.") % {"name": names[loser_id]}
    else:
        tracker = tracker.record_half_loser(loser_id)
        message += " " + _("%(name)s loses this half.") % {"name": names[loser_id]}
    if tracker.next_step == schocken.Step.DONE:
        return TrackerState(current.players, outcome.state, tracker, 0), message
    if tracker.next_step == schocken.Step.DECIDER and tracker.decider_players is not None:
        players, starter = list(tracker.decider_players), 0  # the first-half loser throws first
    else:
        players, starter = current.players, outcome.half_loser  # the half's loser begins the next
    return TrackerState(players, schocken.HalfState.start(len(players)), tracker, starter), message
