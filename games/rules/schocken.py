"""Schocken, pure: throw ranking, lid distribution of a half, and a game's course.

Everything here follows the game rules at the end of
``shared/rules/schocken-tournament.de.txt`` ("Regeln", "Wertung und Verteilung
der Deckel", "Weitere wichtige Regeln"). No Django imports: the referee
tablet's half tracker, the services and the tests all use the same functions.

How the rules are read (points the original leaves open are decided here and
marked *decided*):

Throws
    A throw is three dice plus the number of rolls it took (1..3). Only ones
    are laid aside between rolls ("Es werden nur Einsen rausgelegt"; a six
    turned into a one counts as laid aside), so ``ones_kept`` says how many
    ones of the final throw were not in the last roll.

Kinds and lids, lowest to highest
    * simple throw ("Einfache Würfe"), 1 lid: compared as the number the dice
      form sorted descending, so 652 > 322.
    * Straße, 2 lids: three consecutive numbers; the higher Straße wins
      (456 > 234). *Decided*: 123 is a Straße too (the lowest one), because
      the original lists no exception. "Zählt nur in einem Wurf" is read two
      ways, so it is the tournament's choice (``StreetRule``, a parameter of
      every function that ranks throws): ``ANY_ROLL`` (the default): a Straße
      counts when all three dice fell in the same roll, in any roll. Since only
      ones are laid aside, only 123 can be assembled over several rolls; a 123
      with ``ones_kept > 0`` is therefore a simple throw (321).
      ``FIRST_ROLL``: a Straße counts only when thrown in the first roll; in a
      second or third roll the dice are a simple throw (456 -> 654).
    * General, 3 lids: three equal numbers 222..666, the higher General wins.
    * Schock, 2..6 lids: two ones and x (x = 2..6); the value and the lid count
      are x, so 115 > 113.
    * Schock-Out (111), "alle Deckel": *decided* as in standard Schocken and
      in the project's brief: "beendet das Spiel" ends the *half*: the round's
      lowest thrower receives all 13 lids at once and has lost the half. (The
      rules use "Spiel" loosely; the game itself goes on with the next half or
      the decider.)

Order between equal throws
    * Fewer rolls beat more: a Schock 3 in the first roll beats a Schock 3 in
      the second or third. *Decided*: this breaks ties between equal dice
      only, for every kind; a better throw in more rolls still beats a worse
      throw in fewer rolls (Schock 4 in three rolls > Schock 3 in one).
    * "Mit ist Schitt": the same throw (same dice, same number of rolls)
      repeated by a later player ranks lower than the earlier one, so the
      ranking within a round is a strict total order.

Lids in a half (13 lids, ``LIDS_PER_HALF``)
    All lids start in the middle, the stock. In each round the highest throw
    decides how many lids move (its lid value) and the lowest throw receives
    them. While the stock holds lids they come from the stock; *decided*: if
    the stock holds fewer than the lid value, the receiver gets only what is
    left (the highest thrower does not top it up). Once the stock is empty the
    highest thrower hands over that many of their own lids (all of them if
    they hold fewer). A Schock-Out gives all 13 lids to the lowest thrower.
    The player holding all 13 lids has lost the half.

    *Decided* (standard Schocken rule, not spelled out in the original): when
    the stock is empty, a player holding no lids is out of danger for this
    half and no longer throws; the others play on until one holds all 13.

Turn order
    The loser of a round (the receiver) begins the next one ("Jedes weitere
    Spiel wird immer vom Verlierer der zuvor gespielten Runde begonnen");
    ``turn_order`` gives the seats in order from a starter. The opening round
    ("geladen": everyone turns the cup once) is an ordinary round of one-roll
    throws; *decided*: the tablet enters it in seat order from the starter,
    so equal throws there are ordered by seat like in any other round (a table
    that prefers to rethrow ties simply enters the rethrow).

The game
    First half, then second half. A player who lost both halves has lost the
    game at once ("Pitsch-Patsch"). Otherwise the two half losers play the
    decider ("Finale", "direkter Einzelvergleich"), the first-half loser
    throwing first ("legt vor"); its loser loses the game. *Decided*: the
    decider is played like a half between those two (``HalfState.start(2)``,
    seat 0 = first-half loser); the tracker only needs its loser.
    Sharp play ("scharfes Spiel", after 15 minutes, never in the grand final):
    only one half is played and its loser loses the game. A game already
    running when the 15 minutes pass is finished with two halves, so ``sharp``
    is fixed when a game starts.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.rules.base import GameRules

LIDS_PER_HALF = 13
MAX_ROLLS = 3

RULES = GameRules(slug="schocken", name="Schocken")


class InvalidThrow(ValueError):
    """Dice, rolls or laid-aside ones that no real throw can have."""


class InvalidRound(ValueError):
    """A round's throws do not fit the half (wrong players, half already over)."""


class InvalidGameStep(ValueError):
    """A half or decider result recorded when the game is not at that step."""


class StreetRule(enum.StrEnum):
    """When a Straße counts ("Zählt nur in einem Wurf"); members equal their plain string values."""

    ANY_ROLL = "any_roll"  # all three dice in one roll, whichever roll it was
    FIRST_ROLL = "first_roll"  # only in the player's first roll


class ThrowKind(enum.IntEnum):
    """The kinds of throw, valued so that a higher kind beats a lower one."""

    SIMPLE = 1
    STRASSE = 2
    GENERAL = 3
    SCHOCK = 4
    SCHOCK_OUT = 5


@dataclass(frozen=True)
class Throw:
    """A player's final throw in a round.

    ``dice`` is normalised to a tuple sorted ascending (``Throw((6, 5, 2))``
    equals ``Throw((2, 5, 6))``); ``rolls`` is how many rolls it took (1..3);
    ``ones_kept`` is how many of its ones were laid aside before the last roll.
    """

    dice: tuple[int, int, int]
    rolls: int = 1
    ones_kept: int = 0

    def __post_init__(self) -> None:
        raw = tuple(self.dice)
        if len(raw) != 3:
            raise InvalidThrow(f"a throw has three dice, not {len(raw)}")
        for die in raw:
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise InvalidThrow(f"a die shows 1..6, not {die!r}")
        if not isinstance(self.rolls, int) or isinstance(self.rolls, bool) or not 1 <= self.rolls <= MAX_ROLLS:
            raise InvalidThrow(f"a throw takes 1..{MAX_ROLLS} rolls, not {self.rolls!r}")
        if not isinstance(self.ones_kept, int) or isinstance(self.ones_kept, bool) or self.ones_kept < 0:
            raise InvalidThrow(f"ones laid aside must be a count, not {self.ones_kept!r}")
        if self.ones_kept > min(2, raw.count(1)):
            raise InvalidThrow("only ones are laid aside, at most two, and they stay in the throw")
        if self.ones_kept and self.rolls == 1:
            raise InvalidThrow("ones can only be laid aside before a second or third roll")
        low, mid, high = sorted(raw)
        object.__setattr__(self, "dice", (low, mid, high))

    @property
    def kind(self) -> ThrowKind:
        """The throw's kind under the default ``StreetRule.ANY_ROLL`` (see ``throw_kind``)."""
        return throw_kind(self)

    @property
    def lids(self) -> int:
        """The lids this throw hands out as a round's highest, under ``StreetRule.ANY_ROLL`` (see ``lid_value``)."""
        return lid_value(self)

    @property
    def label(self) -> str:
        """A short German label for the tablet: "Schock 5", "General 3", "Straße 456", "652"."""
        return throw_label(self)


def throw_label(throw: Throw, street: StreetRule = StreetRule.ANY_ROLL) -> str:
    """A short German label for the tablet under the tournament's ``street`` rule."""
    low, mid, high = throw.dice
    kind = throw_kind(throw, street)
    if kind is ThrowKind.SCHOCK_OUT:
        return "Schock-Out"
    if kind is ThrowKind.SCHOCK:
        return f"Schock {high}"
    if kind is ThrowKind.GENERAL:
        return f"General {low}"
    if kind is ThrowKind.STRASSE:
        return f"Straße {low}{mid}{high}"
    return f"{high}{mid}{low}"


def throw_from_dice(dice: Iterable[int], rolls: int = 1, ones_kept: int = 0) -> Throw:
    """Build a Throw from three dice in any order; raises InvalidThrow for impossible input."""
    values = tuple(dice)
    if len(values) != 3:
        raise InvalidThrow(f"a throw has three dice, not {len(values)}")
    return Throw((values[0], values[1], values[2]), rolls=rolls, ones_kept=ones_kept)


_THROW_TEXT = re.compile(r"\s*([1-6])[\s,;/\-]*([1-6])[\s,;/\-]*([1-6])\s*")


def parse_throw(text: str, rolls: int = 1, ones_kept: int = 0) -> Throw:
    """Parse a throw typed on the tablet: "652", "6 5 2", "6-5-2" or "6,5,2" (any order)."""
    match = _THROW_TEXT.fullmatch(text)
    if match is None:
        raise InvalidThrow(f"not three dice 1..6: {text!r}")
    return throw_from_dice((int(group) for group in match.groups()), rolls=rolls, ones_kept=ones_kept)


def throw_kind(throw: Throw, street: StreetRule = StreetRule.ANY_ROLL) -> ThrowKind:
    """The kind of a throw: Schock-Out, Schock, General, Straße or simple throw.

    A Straße needs all three dice in one roll; with ``StreetRule.FIRST_ROLL`` also the first roll.
    """
    low, mid, high = throw.dice
    if low == mid == high == 1:
        return ThrowKind.SCHOCK_OUT
    if low == mid == 1:
        return ThrowKind.SCHOCK
    if low == mid == high:
        return ThrowKind.GENERAL
    straight = mid == low + 1 and high == mid + 1 and throw.ones_kept == 0
    if straight and (street is StreetRule.ANY_ROLL or throw.rolls == 1):
        return ThrowKind.STRASSE
    return ThrowKind.SIMPLE


def lid_value(throw: Throw, street: StreetRule = StreetRule.ANY_ROLL) -> int:
    """Lids a throw hands out as the round's highest: simple 1, Straße 2, General 3, Schock x, Schock-Out all 13."""
    kind = throw_kind(throw, street)
    if kind is ThrowKind.SCHOCK_OUT:
        return LIDS_PER_HALF
    if kind is ThrowKind.SCHOCK:
        return throw.dice[2]
    if kind is ThrowKind.GENERAL:
        return 3
    if kind is ThrowKind.STRASSE:
        return 2
    return 1


def _value_within_kind(throw: Throw, kind: ThrowKind) -> int:
    low, mid, high = throw.dice
    if kind is ThrowKind.SCHOCK_OUT:
        return 0
    if kind is ThrowKind.GENERAL:
        return low
    if kind in (ThrowKind.SCHOCK, ThrowKind.STRASSE):
        return high
    return 100 * high + 10 * mid + low


def rank_key(throw: Throw, order_index: int, street: StreetRule = StreetRule.ANY_ROLL) -> tuple[int, int, int, int]:
    """Sort key of a throw made as the ``order_index``-th throw of a round (0 = first).

    A higher key is a better throw: kind first, then the value within the kind,
    then fewer rolls, then the earlier thrower ("Mit ist Schitt"). Keys of a
    round's throws (distinct order indices) are all different.
    """
    kind = throw_kind(throw, street)
    return (int(kind), _value_within_kind(throw, kind), -throw.rolls, -order_index)


def ranking(throws: Sequence[Throw], street: StreetRule = StreetRule.ANY_ROLL) -> tuple[int, ...]:
    """Indices of a round's throws (given in turn order), best first."""
    return tuple(sorted(range(len(throws)), key=lambda index: rank_key(throws[index], index, street), reverse=True))


@dataclass(frozen=True)
class HalfState:
    """The lids of a half: ``stock`` in the middle, ``lids[seat]`` held by each player.

    Seats are 0..n-1 in clockwise order; callers map them to their players.
    """

    stock: int
    lids: tuple[int, ...]

    def __post_init__(self) -> None:
        lids = tuple(self.lids)
        if len(lids) < 2:
            raise ValueError("a half needs at least two players")
        if self.stock < 0 or any(count < 0 for count in lids):
            raise ValueError("lid counts cannot be negative")
        if self.stock + sum(lids) != LIDS_PER_HALF:
            raise ValueError(f"a half is played with {LIDS_PER_HALF} lids")
        object.__setattr__(self, "lids", lids)

    @classmethod
    def start(cls, players: int) -> HalfState:
        """A fresh half for ``players`` seats: all lids in the stock."""
        return cls(stock=LIDS_PER_HALF, lids=(0,) * players)

    @property
    def players(self) -> int:
        """Number of seats in the half (including those already out of danger)."""
        return len(self.lids)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats that still throw: everyone while the stock holds lids, then only those holding lids."""
        if self.stock > 0:
            return tuple(range(self.players))
        return tuple(seat for seat, count in enumerate(self.lids) if count > 0)

    @property
    def loser(self) -> int | None:
        """The seat holding all 13 lids (it has lost the half), or None while the half goes on."""
        for seat, count in enumerate(self.lids):
            if count == LIDS_PER_HALF:
                return seat
        return None

    @property
    def is_over(self) -> bool:
        """True once a player holds all 13 lids."""
        return self.loser is not None


@dataclass(frozen=True)
class RoundOutcome:
    """What one round of a half did.

    ``highest`` decided the number of lids, ``receiver`` (the lowest thrower)
    got ``lids`` lids in total: ``from_stock`` out of the stock and
    ``from_players`` (seat, count) from players' own piles. ``dropped_out``
    lists seats that threw this round but no longer throw in this half (when
    the half ends: everyone but its loser). ``half_loser`` is set when the
    round decided the half.
    """

    highest: int
    receiver: int
    lids: int
    from_stock: int
    from_players: tuple[tuple[int, int], ...]
    schock_out: bool
    state: HalfState
    dropped_out: tuple[int, ...]
    half_loser: int | None

    @property
    def giver(self) -> int | None:
        """The seat that handed over its own lids, or None when they came from the stock or a Schock-Out."""
        if self.schock_out or not self.from_players:
            return None
        return self.highest

    @property
    def next_starter(self) -> int:
        """The seat that begins the next round: the round's loser (the receiver)."""
        return self.receiver


def _normalise_throws(throws: Iterable[tuple[int, Throw]] | Mapping[int, Throw]) -> list[tuple[int, Throw]]:
    if isinstance(throws, Mapping):
        return list(throws.items())
    return list(throws)


def play_round(
    state: HalfState,
    throws_in_turn_order: Iterable[tuple[int, Throw]] | Mapping[int, Throw],
    street: StreetRule = StreetRule.ANY_ROLL,
) -> RoundOutcome:
    """Play one round of a half: every active seat's throw, as (seat, throw) pairs in turn order.

    ``street`` is the tournament's reading of when a Straße counts (``StreetRule``).

    A mapping {seat: throw} is read in insertion order. Raises InvalidRound when
    the half is over or the seats are not exactly the active ones, each once.
    """
    if state.is_over:
        raise InvalidRound("the half is already decided")
    pairs = _normalise_throws(throws_in_turn_order)
    seats = [seat for seat, _ in pairs]
    if len(set(seats)) != len(seats):
        raise InvalidRound("a seat threw twice in one round")
    if set(seats) != set(state.active):
        raise InvalidRound(f"the round needs one throw from each of seats {state.active}, got {tuple(seats)}")
    keys = [rank_key(throw, index, street) for index, (_, throw) in enumerate(pairs)]
    best = max(range(len(pairs)), key=keys.__getitem__)
    worst = min(range(len(pairs)), key=keys.__getitem__)
    highest, top_throw = pairs[best]
    receiver = pairs[worst][0]

    lids = list(state.lids)
    stock = state.stock
    from_players: tuple[tuple[int, int], ...] = ()
    schock_out = throw_kind(top_throw, street) is ThrowKind.SCHOCK_OUT
    if schock_out:
        from_stock = stock
        from_players = tuple((seat, count) for seat, count in enumerate(lids) if seat != receiver and count > 0)
        lids = [0] * len(lids)
        lids[receiver] = LIDS_PER_HALF
        stock = 0
    elif stock > 0:
        from_stock = min(lid_value(top_throw, street), stock)
        stock -= from_stock
        lids[receiver] += from_stock
    else:
        from_stock = 0
        handed = min(lid_value(top_throw, street), lids[highest])
        lids[highest] -= handed
        lids[receiver] += handed
        from_players = ((highest, handed),)

    new_state = HalfState(stock=stock, lids=tuple(lids))
    still_active = set(new_state.active)
    return RoundOutcome(
        highest=highest,
        receiver=receiver,
        lids=new_state.lids[receiver] - state.lids[receiver],
        from_stock=from_stock,
        from_players=from_players,
        schock_out=schock_out,
        state=new_state,
        dropped_out=tuple(seat for seat in state.active if seat not in still_active),
        half_loser=new_state.loser,
    )


def turn_order(state: HalfState, starter: int) -> tuple[int, ...]:
    """The active seats in clockwise order beginning with ``starter`` (usually the last round's receiver)."""
    active = state.active
    if starter not in active:
        raise InvalidRound(f"seat {starter} does not throw in this half any more")
    position = active.index(starter)
    return active[position:] + active[:position]


class Step(enum.StrEnum):
    """What a game plays next; members equal their plain string values."""

    FIRST_HALF = "first_half"
    SECOND_HALF = "second_half"
    DECIDER = "decider"
    DONE = "done"


@dataclass(frozen=True)
class GameTracker:
    """The course of one game, immutable: each ``record_*`` returns a new tracker.

    Players are plain ints (seats or primary keys, as the caller likes).
    ``sharp`` (one half only) is fixed when the game starts. Can be rebuilt
    from stored results by passing ``half_losers`` and ``decider_loser``.
    """

    sharp: bool = False
    half_losers: tuple[int, ...] = ()
    decider_loser: int | None = None

    def __post_init__(self) -> None:
        losers = tuple(self.half_losers)
        object.__setattr__(self, "half_losers", losers)
        if len(losers) > (1 if self.sharp else 2):
            raise InvalidGameStep("too many halves for this game")
        if self.decider_loser is not None:
            players = self.decider_players
            if players is None:
                raise InvalidGameStep("this game has no decider")
            if self.decider_loser not in players:
                raise InvalidGameStep("the decider's loser must be one of the two half losers")

    @property
    def next_step(self) -> Step:
        """What is played next: first_half, second_half, decider, or done."""
        halves = len(self.half_losers)
        if halves == 0:
            return Step.FIRST_HALF
        if halves == 1:
            return Step.DONE if self.sharp else Step.SECOND_HALF
        if self.pitsch_patsch or self.decider_loser is not None:
            return Step.DONE
        return Step.DECIDER

    @property
    def pitsch_patsch(self) -> bool:
        """True when the same player lost both halves (and with it the game)."""
        return len(self.half_losers) == 2 and self.half_losers[0] == self.half_losers[1]

    @property
    def decider_players(self) -> tuple[int, int] | None:
        """The decider's two players in throwing order (first-half loser first), or None if there is none."""
        if len(self.half_losers) != 2 or self.pitsch_patsch:
            return None
        return (self.half_losers[0], self.half_losers[1])

    @property
    def loser(self) -> int | None:
        """The game's loser once decided, else None."""
        if self.next_step is not Step.DONE:
            return None
        if self.decider_loser is not None:
            return self.decider_loser
        return self.half_losers[-1]

    def record_half_loser(self, player: int) -> GameTracker:
        """A new tracker with ``player`` as the loser of the half being played."""
        if self.next_step not in (Step.FIRST_HALF, Step.SECOND_HALF):
            raise InvalidGameStep(f"no half is being played (next step: {self.next_step})")
        return GameTracker(sharp=self.sharp, half_losers=(*self.half_losers, player))

    def record_decider_loser(self, player: int) -> GameTracker:
        """A new tracker with ``player`` as the decider's loser (one of the two half losers)."""
        if self.next_step is not Step.DECIDER:
            raise InvalidGameStep(f"no decider is being played (next step: {self.next_step})")
        return GameTracker(sharp=self.sharp, half_losers=self.half_losers, decider_loser=player)


def game_starter(seat_order: Sequence[int], in_play: Iterable[int], last_loser: int | None) -> int:
    """Who throws first in a new game at a table: an index into the players still in play, in seat order.

    "Jedes weitere Spiel wird immer vom Verlierer der zuvor gespielten Runde begonnen": every game
    after the first is begun by the last recorded game's loser; when that player is no longer in
    play at the table (their last chip went with that game), the next player after them in seat
    order who still is. *Decided*: the rules do not say who begins a table's first game (the
    loading throw, "geladen", is everyone's first round and names nobody), so the first game
    keeps seat order: the first seat still in play (index 0).

    ``seat_order`` is every player of the table in seat order, ``in_play`` those still playing
    (at least one of them), ``last_loser`` the loser of the table's last valid game or None.
    """
    playing = set(in_play)
    order = [player for player in seat_order if player in playing]
    if not order:
        raise InvalidGameStep("nobody is in play at this table")
    if last_loser is None or last_loser not in seat_order:
        return 0
    start = list(seat_order).index(last_loser)
    for step in range(len(seat_order)):
        player = seat_order[(start + step) % len(seat_order)]
        if player in playing:
            return order.index(player)
    return 0  # unreachable: ``order`` is not empty
