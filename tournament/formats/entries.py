"""How a referee's posted result becomes a game at a table, one way per kind of entry
(``Format.result_entry``): its winner with the UNO calculator's card points (``WinnerEntry``,
the knockout and points formats) or its loser (``LoserEntry``, life bands). A format's services
build theirs from their recording service; the shared views (the referee's table, the
organiser's corrections) hand over the posted form and show what comes back.

Also here: the calculator's keys (``CARD_LABELS``, the CSV export names the cards with them),
its per-seat state on the table page (``WinnerEntry.context``) and where a game score keeps the
card points left in hand (``cards_held``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.models import GameScore
from games.rules.uno import ACTION_CARDS, MAX_CARD_POINTS, MAX_CARDS_OF_A_KIND, NUMBER_CARDS
from tournament.errors import ServiceError
from tournament.formats.record import Entered, EntryRefused, Recorded, RecordLoser, RecordWinner
from tournament.models import Tournament
from tournament.writes import User

if TYPE_CHECKING:
    from tournament.selectors.play import TableView

# The calculator's keys: number cards show their digit; action cards a short,
# translated name (the key is about 90 px wide on a tablet).
CARD_LABELS: Mapping[str, object] = {
    **{card: card for card in NUMBER_CARDS},
    "draw_two": pgettext_lazy("UNO card key", "+2"),
    "reverse": pgettext_lazy("UNO card key", "⇄ Reverse"),
    "skip": pgettext_lazy("UNO card key", "⊘ Skip"),
    "wild": pgettext_lazy("UNO card key", "Wild"),
    "wild_draw_four": pgettext_lazy("UNO card key", "Wild +4"),
}


def to_int(value: object) -> int | None:
    """A whole number as posted (spaces around it allowed), or None for nothing or anything else:
    the only "whole number or None" reader of posted text (the views' forms use it too)."""
    if value is None:
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def read_card_entries(data: Mapping[str, str]) -> tuple[Entered, str]:
    """Card points typed as numbers and hands tapped on the calculator, per player, and the winner.

    Returns what was entered (also when it is refused, so the form can show it
    again) and a translated problem, or "" when the entries are well formed.
    """
    points: dict[int, int] = {}
    hands: dict[int, dict[str, int]] = {}
    problem = ""
    for key, value in data.items():
        if key.startswith("points_"):
            pid = to_int(key.removeprefix("points_"))
            if pid is None or value.strip() == "":
                continue
            number = to_int(value.strip())
            if number is None or not 0 <= number <= MAX_CARD_POINTS:
                problem = problem or _("Card points must be whole numbers from 0 to %(max)d.") % {
                    "max": MAX_CARD_POINTS
                }
                continue
            points[pid] = number
        elif key.startswith("hand_"):
            pid_text, _sep, card = key.removeprefix("hand_").partition("_")
            pid, count = to_int(pid_text), to_int(value)
            if pid is None or count is None or card not in CARD_LABELS or not 0 <= count <= MAX_CARDS_OF_A_KIND:
                problem = problem or _("The calculator sent an unknown card or count. Reload the page.")
                continue
            if count:
                hands.setdefault(pid, {})[card] = count
    entered = Entered(winner=to_int(data.get("winner")), points=points, hands=hands)
    return entered, problem


def calculators(tournament: Tournament, seats: list[Any], entered: Entered | None) -> list[dict[str, object]]:
    """One calculator per seat: its keys with the counts entered (0 on a fresh form) and the typed points."""
    scoring = tournament.scoring_table
    hands = (entered.hands if entered else None) or {}
    points = (entered.points if entered else None) or {}
    shown = []
    for seat in seats:
        pid = seat.player_id
        hand = hands.get(pid, {})
        keys = [
            {
                "card": card,
                "label": CARD_LABELS[card],
                "value": int(card) if card in NUMBER_CARDS else scoring[card],
                "count": hand.get(card, 0),
            }
            for card in NUMBER_CARDS + ACTION_CARDS
        ]
        typed = points.get(pid)
        shown.append({"seat": seat, "keys": keys, "typed": "" if typed is None else typed})
    return shown


def cards_held(score: GameScore) -> int:
    """The card points a player was left with in a game of a UNO format: kept in ``hand["cards"]``
    (the knockout final scores them to the winner, the points format may score a penalty beside
    them), else the score's points."""
    return int(score.hand.get("cards", score.points)) if score.hand else score.points


@dataclass(frozen=True)
class WinnerEntry:
    """A game entered by its winner, with the calculator's card points where the table counts them."""

    record: RecordWinner

    def read(self, data: Mapping[str, str]) -> tuple[Entered, str]:
        return read_card_entries(data)

    def enter(self, *, tournament: Tournament, actor: User, table_id: int, data: Mapping[str, str]) -> Recorded:
        entered, problem = self.read(data)
        if problem:
            raise EntryRefused(problem, entered=entered, attempt="record_game")
        if entered.winner is None:
            raise EntryRefused(_("Tap the winner of the game."), entered=entered, attempt="record_game")
        try:
            game = self.record(
                tournament=tournament,
                actor=actor,
                table_id=table_id,
                winner_id=entered.winner,
                version=to_int(data.get("version")) or 0,
                idempotency_key=data.get("key", ""),
                card_points=entered.points,
                hands=entered.hands,
            )
        except ServiceError as error:
            raise EntryRefused(error.message, entered=entered) from error
        name = game.winner.name if game.winner is not None else ""
        if game.replayed:
            notice = _("Already saved: game %(number)d, won by %(name)s.")
        else:
            notice = _("Saved: game %(number)d, won by %(name)s.")
        return Recorded(game=game, notice=notice % {"number": game.number, "name": name})

    def context(self, tournament: Tournament, view: TableView, entered: Entered | None) -> dict[str, Any]:
        return {
            "calculators": calculators(tournament, view.seats, entered),
            "entered_winner": entered.winner if entered else None,
        }


@dataclass(frozen=True)
class LoserEntry:
    """A game entered by its loser (one chip handed in); no cards are counted."""

    record: RecordLoser

    def read(self, data: Mapping[str, str]) -> tuple[Entered, str]:
        return Entered(loser=to_int(data.get("loser"))), ""

    def enter(self, *, tournament: Tournament, actor: User, table_id: int, data: Mapping[str, str]) -> Recorded:
        loser = self.read(data)[0].loser
        if loser is None:
            raise EntryRefused(_("Tap the player who lost the game."), attempt="record_loss")
        try:
            game = self.record(
                tournament=tournament,
                actor=actor,
                table_id=table_id,
                loser_id=loser,
                version=to_int(data.get("version")) or 0,
                idempotency_key=data.get("key", ""),
            )
        except ServiceError as error:
            raise EntryRefused(error.message) from error
        name = game.loser.name if game.loser is not None else ""
        if game.replayed:
            notice = _("Already saved: game %(number)d, %(name)s hands in a chip.")
        else:
            notice = _("Saved: game %(number)d, %(name)s hands in a chip.")
        return Recorded(game=game, notice=notice % {"number": game.number, "name": name})

    def context(self, tournament: Tournament, view: TableView, entered: Entered | None) -> dict[str, Any]:
        return {}
