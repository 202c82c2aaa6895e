"""Table sizes: how ``n`` players split into tables, and the ways out when they do not
(``SeatingImpossible`` with the ``SeatingOption`` list; the service layer words the stable codes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournament.formats.base import FormatError, TableSizes

# The ways out of a player count that does not split (``explain_impossible``).
ONE_MORE_ADVANCES = "one_more_advances"
MORE_PLAYERS = "more_players"
ONE_FEWER = "one_fewer"
FEWER_PLAYERS = "fewer_players"
LARGER_TABLE = "larger_table"
#: Ways out the knockout format adds (``tournament.formats.knockout.rules``): every remaining
#: player plays the final now; a round of the usual split though the final will not have its size.
FINAL_OF_ALL = "final_of_all"
PLAIN_ROUND = "plain_round"
#: Keep all players and allow tables smaller than the preferred size (``widened_options``).
SMALLER_TABLE = "smaller_table"
#: The knockout's smallest departures: exactly one table one smaller than the preferred size,
#: or one larger than the largest, in the round seated (``SMALLER_TABLE`` / ``LARGER_TABLE``
#: there mean several such tables).
ONE_SMALLER_TABLE = "one_smaller_table"
ONE_LARGER_TABLE = "one_larger_table"


@dataclass(frozen=True)
class SeatingOption:
    """One way out of a player count that cannot be seated.

    ``code`` is stable (the service layer translates it), ``sizes`` is the table
    split the option leads to, ``params`` fills the message.

    Codes:

    * ``one_more_advances``: seat ``n + 1`` players (one more lucky loser advances).
    * ``more_players``: seat ``params["players"]`` players, ``params["extra"]`` more
      (only offered when one more is not enough).
    * ``one_fewer``: seat ``n - 1`` players.
    * ``fewer_players``: seat ``params["players"]`` players, ``params["fewer"]``
      fewer (only offered when one fewer is not enough).
    * ``larger_table``: keep all ``n`` players and allow tables of
      ``params["size"]`` (one above the largest size; ``widened_options`` may go
      further); ``params["count"]`` tables above the largest size are needed.
    * ``smaller_table``: keep all ``n`` players and allow tables of
      ``params["size"]`` (below the preferred size; ``widened_options``);
      ``params["count"]`` tables below the preferred size are needed.
    * ``final_of_all`` (knockout): every one of ``params["players"]`` plays the
      final now, though the setting wants ``params["final_size"]``.
    * ``plain_round`` (knockout): a round of the usual split (``params["tables"]``
      table winners) although no split leads to a final of ``params["final_size"]``.

    * ``one_smaller_table`` / ``one_larger_table`` (knockout): exactly one table of
      ``params["size"]``, one outside the sizes, in the round seated.

    The knockout adds optional params: ``tables`` (the round's table count),
    ``preferred`` and ``largest`` (the sizes the rules want), ``finalists`` (the
    final size the way reaches, 0 if it does not) and ``final`` (1 when the round
    seated is the final); and ``forecast``: the rounds this option leads to, from
    the one it seats to the final, as far as counts can tell (each round's winners
    are its tables). ``preselect`` is False for an option the form must not tick
    by itself (several tables outside the sizes, players left out).
    """

    code: str
    sizes: tuple[int, ...]
    params: Mapping[str, int] = field(default_factory=dict, hash=False)
    forecast: tuple[PlannedRound, ...] = field(default=(), compare=False)
    preselect: bool = field(default=True, compare=False)


@dataclass(frozen=True)
class PlannedRound:
    """A round of a forecast (``SeatingOption.forecast``): its ``stage`` ("main",
    "lucky_loser" or "final"), its number within the stage (main rounds), its table
    sizes, and for the final the runners-up who move up into it (``moved_up``, chosen
    when it comes: the most games won, then the lower start number)."""

    stage: str
    number: int
    sizes: tuple[int, ...]
    moved_up: int = 0


class SeatingImpossible(FormatError):
    """``n`` players cannot be split into tables of ``preferred``..``largest`` players.

    ``code`` is ``"seating_impossible"``; ``params`` hold ``players``,
    ``preferred`` and ``largest``; ``options`` lists what the rules allow.
    """

    def __init__(self, n: int, preferred: int, largest: int, options: Sequence[SeatingOption]) -> None:
        super().__init__("seating_impossible", players=n, preferred=preferred, largest=largest)
        self.n = n
        self.preferred = preferred
        self.largest = largest
        self.options: tuple[SeatingOption, ...] = tuple(options)


def _validated(preferred: int, largest: int) -> None:
    # Raises FormatError("table_size_too_small" / "table_size_max_below_preferred").
    TableSizes(preferred=preferred, largest=largest)


def _split(n: int, preferred: int, largest: int) -> list[int] | None:
    """The split of ``table_sizes`` or None. Assumes valid sizes.

    With t tables, the e = n - preferred*t extra seats need at least
    ceil(e / (largest - preferred)) tables above the preferred size. That count
    shrinks as t grows, so t = n // preferred is best, and if it does not fit
    (more large tables needed than tables) no smaller t fits either.
    """
    if n < preferred:
        return None
    tables = n // preferred
    extra = n - preferred * tables
    if extra == 0:
        return [preferred] * tables
    step = largest - preferred
    if step == 0:
        return None
    large = -(-extra // step)
    if large > tables:
        return None
    base, rest = divmod(extra, large)
    grown = [preferred + base + 1] * rest + [preferred + base] * (large - rest)
    return grown + [preferred] * (tables - large)


def table_sizes(n: int, preferred: int = 3, largest: int = 4) -> list[int]:
    """Split ``n`` players into tables; sizes in descending order.

    Every table seats between ``preferred`` and ``largest`` players; as many
    tables as possible seat exactly ``preferred`` (the fewest tables above the
    preferred size), and the extra seats are spread evenly over the larger
    tables. Raises ``SeatingImpossible`` (with ``explain_impossible``'s options)
    when no such split exists, e.g. 5 players at tables of 3-4, or fewer players
    than ``preferred``; raises ``FormatError`` for invalid sizes.
    """
    _validated(preferred, largest)
    if n < 0:
        raise ValueError(f"negative player count {n}")
    sizes = _split(n, preferred, largest)
    if sizes is None:
        raise SeatingImpossible(n, preferred, largest, explain_impossible(n, preferred, largest))
    return sizes


def explain_impossible(n: int, preferred: int = 3, largest: int = 4) -> list[SeatingOption]:
    """What the rules allow when ``n`` players cannot be seated (``[]`` if they can).

    In this order: one more player (``one_more_advances``, else the smallest
    number more, ``more_players``); one fewer (``one_fewer``, else
    ``fewer_players`` if any smaller count of at least ``preferred`` splits);
    and tables one larger than ``largest`` (``larger_table``) if that seats
    exactly ``n``.
    """
    _validated(preferred, largest)
    if n < 0:
        raise ValueError(f"negative player count {n}")
    if _split(n, preferred, largest) is not None:
        return []
    options: list[SeatingOption] = []

    more = n + 1
    while (sizes := _split(more, preferred, largest)) is None:
        more += 1  # terminates: every multiple of preferred splits
    if more == n + 1:
        options.append(SeatingOption(ONE_MORE_ADVANCES, tuple(sizes), {"players": more, "extra": 1}))
    else:
        options.append(SeatingOption(MORE_PLAYERS, tuple(sizes), {"players": more, "extra": more - n}))

    for fewer in range(n - 1, preferred - 1, -1):
        sizes = _split(fewer, preferred, largest)
        if sizes is not None:
            if fewer == n - 1:
                options.append(SeatingOption(ONE_FEWER, tuple(sizes), {"players": fewer, "fewer": 1}))
            else:
                options.append(SeatingOption(FEWER_PLAYERS, tuple(sizes), {"players": fewer, "fewer": n - fewer}))
            break

    bigger = _split(n, preferred, largest + 1)
    if bigger is not None:
        count = sum(1 for size in bigger if size == largest + 1)
        options.append(SeatingOption(LARGER_TABLE, tuple(bigger), {"players": n, "size": largest + 1, "count": count}))
    return options


def widened_options(n: int, preferred: int = 3, largest: int = 4, smallest: int = 3) -> list[SeatingOption]:
    """Ways to seat all ``n`` players when tables of ``preferred``..``largest`` do not fit
    (``[]`` if they do): for formats where nobody can be added or left out.

    * ``larger_table``: the smallest size above ``largest`` that seats everyone at tables of
      ``preferred`` to that size (as many of ``preferred`` as possible: ``table_sizes``).
    * ``smaller_table``: the largest size below ``preferred``, not below ``smallest``, that
      seats everyone at tables of that size to ``largest`` (``table_sizes`` again, so as many
      of that size as possible: the seating functions take their sizes from it).

    The option that stretches the settings less comes first (the larger table on a tie).
    For every ``n >= max(smallest, 2)`` one exists: with ``n >= preferred`` a larger table
    (at the worst one table of ``n``), else a smaller one (one table of ``n``).
    """
    _validated(preferred, largest)
    if n < 0:
        raise ValueError(f"negative player count {n}")
    if _split(n, preferred, largest) is not None:
        return []
    larger: SeatingOption | None = None
    for size in range(largest + 1, n + 1):
        sizes = _split(n, preferred, size)
        if sizes is not None:
            count = sum(1 for seats in sizes if seats > largest)
            larger = SeatingOption(LARGER_TABLE, tuple(sizes), {"players": n, "size": size, "count": count})
            break
    smaller: SeatingOption | None = None
    for size in range(preferred - 1, max(smallest, 2) - 1, -1):
        sizes = _split(n, size, largest)
        if sizes is not None:
            count = sum(1 for seats in sizes if seats < preferred)
            smaller = SeatingOption(SMALLER_TABLE, tuple(sizes), {"players": n, "size": size, "count": count})
            break
    stretch_down = preferred - smaller.params["size"] if smaller is not None else n
    stretch_up = larger.params["size"] - largest if larger is not None else n
    if smaller is not None and stretch_down < stretch_up:
        return [option for option in (smaller, larger) if option is not None]
    return [option for option in (larger, smaller) if option is not None]
