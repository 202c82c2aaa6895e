"""The Format contract, pure Python (no Django).

A format takes frozen snapshots of the tournament and returns plain results.
Errors a user can fix are raised as ``FormatError`` with a stable ``code`` and
parameters; the service layer turns the code into a translated message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import itemgetter
from typing import Any


class Entry(StrEnum):
    """What the referee records for a game of the format: who won it (UNO, with card points where
    counted) or who lost it (life bands: the loser hands in a chip). Code outside the formats asks
    ``Format.records_loser`` rather than comparing this value (the registry test reads for it)."""

    WINNER = "winner"
    LOSER = "loser"


class FormatError(Exception):
    """A problem the organiser can fix (too few players, settings that clash)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class TableSizes:
    """Preferred and largest table size. Tables never seat fewer than 2."""

    preferred: int = 3
    largest: int = 4

    def __post_init__(self) -> None:
        if self.preferred < 2:
            raise FormatError("table_size_too_small", preferred=self.preferred)
        if self.largest < self.preferred:
            raise FormatError("table_size_max_below_preferred", preferred=self.preferred, largest=self.largest)


# Settings every format seats its rounds with; formats add their own to ``FormatSpec.settings_used``.
SEATING_SETTINGS = ("table_size", "table_size_max", "auto_advance")
# Keeping clubs apart at the first round's tables (the formats whose round 1 is drawn).
CLUBS_APART = "keep_clubs_apart"


@dataclass(frozen=True)
class FormatSpec:
    """What the rest of the app needs to know about a format up front."""

    slug: str
    stages: tuple[str, ...]
    min_players: int
    settings_used: tuple[str, ...] = field(default_factory=tuple)
    # The main stage's rounds are the tournament's rounds ("Round 2", not "Main round 2"): nothing
    # is played beside them (the points format; its play-offs come after and are named apart).
    plain_round_names: bool = False


# A rule of a ranking: its code (or a function of the players above and below that names the
# code) and its key for one player; lower keys rank higher.
TieBreak = tuple[str | Callable[[int, int], str], Callable[[int], Any]]


def rank_by(players: Iterable[int], tie_breaks: Sequence[TieBreak]) -> list[tuple[int, int, str]]:
    """Rank ``players`` by the ``tie_breaks`` in order (the tie-break order as data).

    Returns ``(place, player, decided_by)`` best first; ``decided_by`` is the code of the first rule
    whose key tells the player from the one above ("" for the first place, the last rule's code
    when every key is equal).
    """
    # Each player's keys computed once (at 5,000 players computing them again for every
    # comparison with the player above took a third of the ranking's time).
    keys_of = [key for _code, key in tie_breaks]
    keyed = sorted([(tuple([key(pid) for key in keys_of]), pid) for pid in players], key=itemgetter(0))
    last_rule = len(tie_breaks) - 1
    ranked: list[tuple[int, int, str]] = []
    above_keys: tuple[Any, ...] = ()
    above = 0
    for index, (keys, pid) in enumerate(keyed):
        decided_by = ""
        if index:
            # The first rule whose key differs; the last rule's code when every key is equal.
            rule = next((i for i in range(last_rule) if keys[i] != above_keys[i]), last_rule)
            code = tie_breaks[rule][0]
            decided_by = code(above, pid) if callable(code) else code
        ranked.append((index + 1, pid, decided_by))
        above_keys, above = keys, pid
    return ranked
