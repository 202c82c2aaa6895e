"""Seating, pure Python (no Django): table sizes, seeded draws, repeat avoidance.

Three jobs, each reproducible from a seed:

* ``table_sizes`` splits ``n`` players into tables of the preferred size, using
  larger tables only as needed; where no split exists it raises
  ``SeatingImpossible`` with the options the rules allow (the organiser picks
  one; the service layer turns the stable codes into translated text).
* ``seat_players`` draws a seating for a round (knockout, life bands), optionally
  keeping players of the same club apart.
* ``seat_avoiding_repeats`` seats a re-seated round (points format) so that
  players who already met are kept apart as far as possible: fewest repeated
  pairs first, then fewest pairs repeated from the last round. Up to
  ``LINEAR_FROM`` players by a swap search (``REPEAT_AVOIDING_ALGORITHM``,
  unchanged), above it by a linear-time greedy plus bounded swaps
  (``LINEAR_ALGORITHM``); optionally the short tables go to the players with
  the fewest short-table seats so far; optionally club mates apart (above
  any repeat); for small fields with several rounds left, the remaining
  rounds planned jointly (``tournament.schedule``, ``LOOKAHEAD_ALGORITHM``).
  The plan reports a lower bound on the unavoidable repeats
  (``unavoidable_repeats``), the short-table spread, the club floor and how
  many rounds ahead stay repeat-free against the most possible
  (``further_rounds_bound``; ``repeat_free_rounds_bound`` from scratch).

Every draw sorts the player ids first and then uses ``random.Random(seed)``, so
the same seed and the same set of players give the same plan whatever order
the database returned them in. The plan carries the seed and an algorithm
version string; both are stored with the round so the draw can be recomputed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournament import schedule
from tournament.formats.base import FormatError, TableSizes

__all__ = [
    "CLUBS_APART_ALGORITHM",
    "CLUBS_SUFFIX",
    "FIXED_FEWER_TABLES",
    "FIXED_NUMBER_HELD",
    "FIXED_SUFFIX",
    "FIXED_TABLE_FULL",
    "LINEAR_ALGORITHM",
    "LINEAR_CAPPED_ALGORITHM",
    "LOOKAHEAD_ALGORITHM",
    "REPEAT_AVOIDING_ALGORITHM",
    "SEATING_ALGORITHM",
    "FixedPlacement",
    "PlannedRound",
    "SeatingImpossible",
    "SeatingOption",
    "SeatingPlan",
    "SeatingPlayer",
    "UnkeptSeat",
    "add_meetings",
    "club_conflicts",
    "count_repeated_pairs",
    "explain_impossible",
    "further_rounds_bound",
    "place_fixed",
    "repeat_free_rounds_bound",
    "repeat_free_run",
    "seat_avoiding_repeats",
    "seat_players",
    "short_size",
    "short_table_spread",
    "smallest_free_number",
    "table_pairs",
    "table_sizes",
    "unavoidable_repeats",
    "widened_options",
]

#: Plain seeded draw: shuffle the sorted ids, cut into tables of ``table_sizes``.
SEATING_ALGORITHM = "balanced-shuffle-v1"
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
#: Seeded draw dealing clubs round-robin across tables, then bounded swaps.
CLUBS_APART_ALGORITHM = "clubs-apart-v1"
#: Seeded greedy construction plus bounded local search against repeated pairs.
REPEAT_AVOIDING_ALGORITHM = "avoid-repeats-v1"

#: Several rounds planned jointly: from a known design's classes (``schedule.plan_from_design``, any
#: field up to ``LINEAR_FROM``) or, in small fields, ``schedule.plan_schedule``; ``:h<rounds>`` follows.
#: v2: designs by family, the history embedded in the classes left out.
LOOKAHEAD_ALGORITHM = "lookahead-v2"
#: Suffix of ``algorithm`` when ``seat_avoiding_repeats`` keeps clubs apart.
CLUBS_SUFFIX = "+clubs"
#: Suffix of ``algorithm`` when ``seat_avoiding_repeats`` kept fixed seats (``place_fixed``).
FIXED_SUFFIX = "+fixed"
#: ``LINEAR_ALGORITHM`` whose swap phase stopped at its total work bound
#: (``LINEAR_SWAP_WORK`` partner evaluations per player); otherwise the same seating.
LINEAR_CAPPED_ALGORITHM = "avoid-repeats-linear-v2"
LINEAR_SWAP_WORK = 64

#: Defaults of ``seat_avoiding_repeats``: tries, and the shared work bound
#: (swap evaluations and row updates; about 0.1-0.3 s of CPU at the most).
DEFAULT_ATTEMPTS = 8
DEFAULT_WORK_LIMIT = 400_000

# Lexicographic weights of a pair that sits together again: any repeated pair
# outweighs every repeat from the last round, which outweighs the tie-breaker
# (how often the pair met before). Python ints do not overflow.
_REPEAT_WEIGHT = 1 << 60
#: With ``keep_clubs_apart``: a same-club pair at one table outweighs any number of repeats
#: (the organiser's choice: club mates meet every week anyway).
_CLUB_WEIGHT = 1 << 80
_LAST_ROUND_WEIGHT = 1 << 40
_MET_WEIGHT = 1 << 20
#: Fields up to this size get the "keep later rounds repeat-free" tie-break
#: (dense pair weights; see ``seat_avoiding_repeats``).
TRIANGLE_LIMIT = 48
#: Once a seating is repeat-free (small fields), stop after this many fruitless kicks.
PATIENCE = 30
#: Stop a try after this many fruitless kicks in a row, whatever the cost.
GIVE_UP = 100


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatingPlayer:
    """A player to seat: the database id, the club (``""`` for none), the start number.

    Only ``id`` and ``club`` influence the draw; ``start_number`` is carried for
    callers that want it beside the plan.
    """

    id: int
    club: str = ""
    start_number: int | None = None


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


@dataclass(frozen=True)
class SeatingPlan:
    """A round's seating: player ids per table, in seat order.

    ``seed`` and ``algorithm`` are stored with the round. ``club_conflicts``
    counts pairs of players of the same (non-empty) club at one table;
    ``repeated_pairs`` counts pairs at one table who met before and
    ``repeats_from_last_round`` those of them who sat together in the last round
    (both 0 for draws that do not look at history). ``unavoidable_repeats`` is
    a lower bound on the repeated pairs any seating of the round must have
    (``unavoidable_repeats()``), so the organiser sees how close the plan is;
    ``short_table_spread`` is the largest minus the smallest number of
    short-table seats among the round's players, this round included
    (``short_table_spread()``). Both are 0 for draws that do not compute them.

    From ``seat_avoiding_repeats`` also: ``club_floor``, the fewest same-club
    pairs any seating of the round can have (``_club_lower_bound``; compare
    with ``club_conflicts``); ``planned_rounds``, how many rounds were planned
    jointly (1 without the lookahead); ``repeat_free_ahead``, how many of the
    planned rounds, this one first, hold no repeated pair (against the history
    and each other; 0 if this round has a repeat); ``repeat_free_ahead_bound``,
    the most any seating could reach there (``min(rounds_left,
    further_rounds_bound(...))``): the organiser's "how close".
    """

    tables: tuple[tuple[int, ...], ...]
    seed: int
    algorithm: str
    club_conflicts: int = 0
    repeated_pairs: int = 0
    repeats_from_last_round: int = 0
    unavoidable_repeats: int = 0
    short_table_spread: int = 0
    club_floor: int = 0
    planned_rounds: int = 1
    repeat_free_ahead: int = 0
    repeat_free_ahead_bound: int = 0
    #: With fixed seats (``seat_avoiding_repeats(fixed=...)``): per table the number it must take
    #: (None: any free number), and the fixed seats that could not be kept (``place_fixed``).
    numbers: tuple[int | None, ...] = ()
    unkept: tuple[UnkeptSeat, ...] = ()

    @property
    def sizes(self) -> tuple[int, ...]:
        """The number of players at each table."""
        return tuple(len(table) for table in self.tables)

    @property
    def player_ids(self) -> tuple[int, ...]:
        """Every seated player id, table by table, in seat order."""
        return tuple(pid for table in self.tables for pid in table)


Pair = frozenset[int]
MetInput = Mapping[frozenset[int], int] | Iterable[Iterable[int]]


# --------------------------------------------------------------------------
# Table sizes
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# Pair helpers
# --------------------------------------------------------------------------


def table_pairs(tables: Iterable[Iterable[int]]) -> set[frozenset[int]]:
    """Every pair of players who share a table."""
    pairs: set[frozenset[int]] = set()
    for table in tables:
        seated = sorted(set(table))
        for index, first in enumerate(seated):
            for second in seated[index + 1 :]:
                pairs.add(frozenset((first, second)))
    return pairs


def _met_counts(met: MetInput) -> dict[frozenset[int], int]:
    """Normalise ``met`` (pair -> count mapping, or pairs) to pair -> count >= 1."""
    counts: dict[frozenset[int], int] = {}
    if isinstance(met, Mapping):
        for pair, count in met.items():
            key = frozenset(pair)
            if len(key) == 2 and count > 0:
                counts[key] = counts.get(key, 0) + int(count)
    else:
        for raw in met:
            key = frozenset(raw)
            if len(key) == 2:
                counts[key] = counts.get(key, 0) + 1
    return counts


def count_repeated_pairs(tables: Iterable[Iterable[int]], met: MetInput) -> int:
    """How many pairs sharing a table in ``tables`` already met.

    ``met`` is a mapping pair -> times met (pairs with a count of 0 did not
    meet) or an iterable of pairs. Each pair counts once however often it met.
    """
    counts = _met_counts(met)
    return sum(1 for pair in table_pairs(tables) if pair in counts)


def repeat_free_run(rounds: Iterable[Iterable[Iterable[int]]]) -> int:
    """How many leading rounds (tables of player ids, oldest first) hold no pair that sat
    together in an earlier round."""
    seen: set[frozenset[int]] = set()
    count = 0
    for tables in rounds:
        pairs = table_pairs(tables)
        if pairs & seen:
            break
        seen |= pairs
        count += 1
    return count


def add_meetings(met: Mapping[frozenset[int], int], tables: Iterable[Iterable[int]]) -> dict[frozenset[int], int]:
    """A new pair -> times-met mapping: ``met`` plus every pair of ``tables``."""
    counts = dict(met)
    for pair in table_pairs(tables):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def club_conflicts(tables: Iterable[Iterable[int]], clubs: Mapping[int, str]) -> int:
    """Pairs of players of the same non-empty club sharing a table."""
    total = 0
    for table in tables:
        per_club: dict[str, int] = {}
        for pid in table:
            club = clubs.get(pid, "")
            if club:
                per_club[club] = per_club.get(club, 0) + 1
        total += sum(count * (count - 1) // 2 for count in per_club.values())
    return total


# --------------------------------------------------------------------------
# Local search over swaps (shared by clubs-apart and repeat avoidance)
# --------------------------------------------------------------------------


class _SwapSearch:
    """Players 0..n-1 at tables of fixed sizes; the cost of a seating is the sum
    of ``weights[i][j]`` over pairs sharing a table. Swapping two players of
    different tables keeps the sizes. ``conflict[i][t]`` is the cost player i
    would have at table t (excluding itself), kept up to date on every swap.
    """

    def __init__(
        self,
        weights: Sequence[Mapping[int, int]],
        tables: Sequence[Sequence[int]],
        pinned: frozenset[int] = frozenset(),
    ) -> None:
        self.weights = weights
        # Players that never move (fixed seats, ``place_fixed``): swaps move only the others.
        self.pinned = pinned
        self.members: list[list[int]] = [list(table) for table in tables]
        count = len(weights)
        self.table_of = [0] * count
        for index, table in enumerate(self.members):
            for player in table:
                self.table_of[player] = index
        self.conflict = [[0] * len(self.members) for _ in range(count)]
        for player in range(count):
            row = self.conflict[player]
            for other, weight in weights[player].items():
                row[self.table_of[other]] += weight
        self.cost = sum(self.conflict[player][self.table_of[player]] for player in range(count)) // 2
        # Work counts swap evaluations and row updates; ``rebuild_work`` is what
        # building this search cost (charged when the search restarts from a snapshot).
        self.rebuild_work = count * len(self.members) + sum(len(row) for row in weights)
        self.work = 0

    def swap_delta(self, a: int, b: int) -> int:
        table_a, table_b = self.table_of[a], self.table_of[b]
        row_a, row_b = self.conflict[a], self.conflict[b]
        return row_a[table_b] + row_b[table_a] - row_a[table_a] - row_b[table_b] - 2 * self.weights[a].get(b, 0)

    def swap(self, a: int, b: int) -> None:
        delta = self.swap_delta(a, b)
        table_a, table_b = self.table_of[a], self.table_of[b]
        members_a, members_b = self.members[table_a], self.members[table_b]
        members_a[members_a.index(a)] = b
        members_b[members_b.index(b)] = a
        self.table_of[a], self.table_of[b] = table_b, table_a
        for other, weight in self.weights[a].items():
            row = self.conflict[other]
            row[table_a] -= weight
            row[table_b] += weight
        for other, weight in self.weights[b].items():
            row = self.conflict[other]
            row[table_b] -= weight
            row[table_a] += weight
        self.cost += delta
        self.work += len(self.weights[a]) + len(self.weights[b])

    def unhappy(self) -> list[int]:
        pinned = self.pinned
        return [
            player
            for player in range(len(self.table_of))
            if self.conflict[player][self.table_of[player]] > 0 and player not in pinned
        ]

    def descend(self, rng: random.Random, limit: int) -> None:
        """Best-improvement swaps for players with a conflict until none helps or work runs out."""
        improved = True
        while improved and self.cost > 0 and self.work < limit:
            improved = False
            candidates = self.unhappy()
            rng.shuffle(candidates)
            for a in candidates:
                if self.work >= limit:
                    return
                table_a = self.table_of[a]
                if self.conflict[a][table_a] == 0:
                    continue
                # swap_delta inlined: this loop is the hot spot.
                conflict, weights_a, pinned = self.conflict, self.weights[a], self.pinned
                row_a = conflict[a]
                stay_a = row_a[table_a]
                best_delta, best_b = 0, -1
                for table_b, members in enumerate(self.members):
                    if table_b == table_a:
                        continue
                    move_a = row_a[table_b] - stay_a
                    for b in members:
                        if b in pinned:
                            continue
                        row_b = conflict[b]
                        delta = move_a + row_b[table_a] - row_b[table_b] - 2 * weights_a.get(b, 0)
                        if delta < best_delta:
                            best_delta, best_b = delta, b
                    self.work += len(members)
                if best_b >= 0:
                    self.swap(a, best_b)
                    improved = True

    def kick(self, rng: random.Random) -> None:
        """Swap a random player with a conflict with a random player at another table."""
        candidates = self.unhappy()
        if not candidates or len(self.members) < 2:
            return
        a = rng.choice(candidates)
        table_b = rng.randrange(len(self.members) - 1)
        if table_b >= self.table_of[a]:
            table_b += 1
        if self.pinned:
            movable = [other for other in self.members[table_b] if other not in self.pinned]
            if not movable:
                return
            b = rng.choice(movable)
        else:
            b = rng.choice(self.members[table_b])
        self.swap(a, b)

    def snapshot(self) -> list[list[int]]:
        return [list(table) for table in self.members]


def _improve(
    weights: Sequence[Mapping[int, int]],
    tables: Sequence[Sequence[int]],
    rng: random.Random,
    limit: int,
    floor: int = 0,
    settle_below: int | None = None,
    patience: int = 0,
    give_up: int | None = None,
    pinned: frozenset[int] = frozenset(),
) -> tuple[list[list[int]], int, int]:
    """Iterated local search from ``tables``: descend, kick, keep the best.

    Stops at cost ``floor`` (a known lower bound), when ``limit`` work is spent,
    or once the best cost is below ``settle_below`` and ``patience`` kicks in a
    row found nothing better. Returns (best tables, best cost, work spent). ``pinned`` players
    never move.
    """
    search = _SwapSearch(weights, tables, pinned)
    if len(tables) < 2:
        return search.snapshot(), search.cost, search.work
    search.descend(rng, limit)
    best, best_cost = search.snapshot(), search.cost
    stale = 0
    while best_cost > floor and search.work < limit:
        if settle_below is not None and best_cost < settle_below and stale >= patience:
            break
        if give_up is not None and stale >= give_up:
            break
        search.kick(rng)
        search.kick(rng)
        search.descend(rng, limit)
        if search.cost < best_cost:
            best, best_cost = search.snapshot(), search.cost
            stale = 0
            continue
        stale += 1
        if search.cost > best_cost:
            work = search.work
            search = _SwapSearch(weights, best, pinned)
            search.work = work + search.rebuild_work
    return best, best_cost, search.work


# --------------------------------------------------------------------------
# Seeded draws
# --------------------------------------------------------------------------


def _sorted_players(players: Iterable[SeatingPlayer]) -> list[SeatingPlayer]:
    ordered = sorted(players, key=lambda player: player.id)
    _check_unique([player.id for player in ordered])
    return ordered


def _check_unique(sorted_ids: Sequence[int]) -> None:
    for first, second in itertools.pairwise(sorted_ids):
        if first == second:
            raise ValueError(f"player {first} given twice")


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _club_lower_bound(club_sizes: Iterable[int], table_count: int) -> int:
    """Same-club pairs if every club were spread as evenly as possible (ignores capacities)."""
    total = 0
    for size in club_sizes:
        share, rest = divmod(size, table_count)
        total += rest * (share + 1) * share // 2 + (table_count - rest) * share * (share - 1) // 2
    return total


def seat_players(
    players: Iterable[SeatingPlayer],
    seed: int,
    sizes_preferred: int = 3,
    largest: int = 4,
    keep_clubs_apart: bool = False,
    *,
    work_limit: int = DEFAULT_WORK_LIMIT,
) -> SeatingPlan:
    """Draw a seating for ``players``; reproducible from ``seed``.

    Table sizes come from ``table_sizes`` (``SeatingImpossible`` if none fit).
    Players are sorted by id, shuffled with ``random.Random(seed)`` and cut into
    tables (``SEATING_ALGORITHM``), so the same seed and the same set of players
    always give the same plan, whatever the input order.

    With ``keep_clubs_apart`` (``CLUBS_APART_ALGORITHM``), the shuffled players
    are grouped by club (clubs in order of their first shuffled member, players
    without a club last) and dealt round-robin across the tables, then a
    bounded swap search removes remaining same-club pairs. When table sizes
    differ by at most one (the default 3-4) the dealing already reaches the
    minimum: every club spread as evenly as possible, so no same-club pair at
    all when no club has more players than there are tables.
    Clubs are compared exactly (normalise names before). Seat order inside
    each table is shuffled too. A non-default ``work_limit`` (the bound of the
    swap search) is appended to ``algorithm``. Duplicate ids raise ValueError.
    """
    ordered = _sorted_players(players)
    sizes = table_sizes(len(ordered), sizes_preferred, largest)
    rng = random.Random(seed)
    rng.shuffle(ordered)
    clubs = {player.id: player.club for player in ordered}

    if not keep_clubs_apart:
        tables = _cut([player.id for player in ordered], sizes)
        return SeatingPlan(
            tables=tuple(tuple(table) for table in tables),
            seed=seed,
            algorithm=SEATING_ALGORITHM,
            club_conflicts=club_conflicts(tables, clubs),
        )

    groups: dict[str, list[int]] = {}
    loners: list[int] = []
    for player in ordered:
        if player.club:
            groups.setdefault(player.club, []).append(player.id)
        else:
            loners.append(player.id)
    deal = [pid for members in groups.values() for pid in members] + loners

    table_count = len(sizes)
    dealt: list[list[int]] = [[] for _ in sizes]
    cursor = 0
    for pid in deal:
        while len(dealt[cursor]) >= sizes[cursor]:
            cursor = (cursor + 1) % table_count
        dealt[cursor].append(pid)
        cursor = (cursor + 1) % table_count

    floor = _club_lower_bound((len(members) for members in groups.values()), table_count)
    if club_conflicts(dealt, clubs) > floor:
        index_of = {pid: index for index, pid in enumerate(deal)}
        by_club: dict[str, list[int]] = {club: [index_of[pid] for pid in members] for club, members in groups.items()}
        weights: list[dict[int, int]] = [{} for _ in deal]
        for members in by_club.values():
            for index in members:
                weights[index] = {other: 1 for other in members if other != index}
        start = [[index_of[pid] for pid in table] for table in dealt]
        best, _cost, _work = _improve(weights, start, rng, work_limit, floor, give_up=GIVE_UP)
        dealt = [[deal[index] for index in table] for table in best]

    for table in dealt:
        rng.shuffle(table)
    algorithm = CLUBS_APART_ALGORITHM
    if work_limit != DEFAULT_WORK_LIMIT:
        algorithm = f"{algorithm}:w{work_limit}"
    return SeatingPlan(
        tables=tuple(tuple(table) for table in dealt),
        seed=seed,
        algorithm=algorithm,
        club_conflicts=club_conflicts(dealt, clubs),
    )


def _player_id(player: SeatingPlayer | int) -> int:
    return player.id if isinstance(player, SeatingPlayer) else int(player)


def seat_avoiding_repeats(
    players: Iterable[SeatingPlayer | int],
    seed: int,
    met: MetInput,
    last_round_pairs: Iterable[Iterable[int]] = (),
    preferred: int = 3,
    largest: int = 4,
    attempts: int = DEFAULT_ATTEMPTS,
    *,
    work_limit: int = DEFAULT_WORK_LIMIT,
    short_table_history: Mapping[int, int] | None = None,
    keep_clubs_apart: bool = False,
    rounds_left: int = 1,
    lookahead_work: int = schedule.LOOKAHEAD_WORK,
    linear_swap_work: int = LINEAR_SWAP_WORK,
    history_rounds: Sequence[Iterable[Iterable[int]]] = (),
    fixed: Mapping[int, int] | None = None,
) -> SeatingPlan:
    """Seat every player at tables of ``table_sizes``, keeping those who met apart.

    ``fixed`` (player id -> table number): players kept at their table (``place_fixed``: one
    table per number, the lowest numbers first). A resolvable design cannot hold two fixed
    players at different tables (every pair meets once), so with a fixed player in the field the
    round is seated round by round, without the design and the lookahead: up to ``LINEAR_FROM``
    each try's greedy start has the fixed players moved to their tables and the swap search
    moves only the others (``_SwapSearch.pinned``); above it the linear seating is followed by
    ``place_fixed``. The short-table repair never moves a fixed player. The plan's ``numbers``
    give each table's fixed number and ``unkept`` the seats not kept; ``algorithm`` ends in
    ``FIXED_SUFFIX``. Without fixed players (or none in the field) the seating is unchanged.

    ``met`` maps a pair (``frozenset({a, b})``) to how often the two sat at one
    table before, or is an iterable of such pairs; ``last_round_pairs`` are the
    pairs of the last round (counted as met even if missing from ``met``).
    Pairs with players not in ``players`` are ignored.

    The objective, in order: fewest repeated pairs (pairs at one table who met
    before), then fewest of them from the last round, then fewest earlier
    meetings of the repeated pairs in total; for fields of up to
    ``TRIANGLE_LIMIT`` players a last tie-break keeps the most chances for
    repeat-free later rounds (see the code). Up to ``attempts`` tries, each a
    seeded greedy construction (most-met players first, each to the open table
    where they met fewest) followed by an iterated local search of swaps
    between tables (descend, kick two random swaps, keep the best); all tries
    share ``work_limit`` units of work (swap evaluations and row updates), the
    bound that keeps 200 players well under a second. It stops early at a
    repeat-free seating. The best seating found wins; ties keep the earlier.

    Deterministic for the same seed, set of players and history, whatever the
    input order. The plan reports ``repeated_pairs`` and
    ``repeats_from_last_round``. ``algorithm`` is ``REPEAT_AVOIDING_ALGORITHM``,
    with the attempts and work limit appended when they are not the defaults.

    Fields of more than ``LINEAR_FROM`` players are seated by ``_seat_linear``
    instead (``attempts`` and ``work_limit`` do not apply): the search above
    needs time and memory growing with the square of the field. Its swap phase
    evaluates at most ``linear_swap_work`` partners per player in total
    (0: unbounded, the first version); the algorithm is ``LINEAR_ALGORITHM``
    when the bound was not reached (then the seating is exactly the first
    version's) and ``LINEAR_CAPPED_ALGORITHM`` when it cut the search short.
    Up to ``LINEAR_FROM`` the seating is the same as before for the same seed,
    so stored rounds stay reproducible under their version string.

    ``short_table_history`` maps a player id to how often they sat at a short
    table (``short_size``) before (missing: 0). When it is given and not all
    equal, the short seats go to the players with the fewest
    (``_spread_short_tables``; ``SHORT_FAIR_SUFFIX`` is appended to
    ``algorithm`` when that moved anyone). Up to ``LINEAR_FROM`` players the seating
    is then never worse than a seeded fair shuffle with the same repair: where that
    is better (``_seating_cost``) it is taken, and ``SHUFFLE_SUFFIX`` appended. The plan reports
    ``unavoidable_repeats`` and ``short_table_spread``.

    ``keep_clubs_apart``: players of one (non-empty) club (``SeatingPlayer.club``)
    at one table weigh above any repeated pair, on every path; the plan's
    ``club_conflicts`` is then as a rule ``club_floor`` (the fewest possible
    when clubs are spread as evenly as the tables allow). ``CLUBS_SUFFIX`` is
    appended to ``algorithm`` whenever the flag is on.

    ``history_rounds``: the earlier rounds as tables of player ids, oldest first (optional; the pairs
    in them must be in ``met``). Where a known design (``schedule.design_classes``) fits a field
    of one table size and ``min(rounds_left, further_rounds_bound(...))`` is more than one, the
    design relabelled so that the history lies on classes left out seats this round
    (``schedule.plan_from_design``; with ``history_rounds`` the rounds are embedded whole, a history
    seated from the design is found again): every round left is then repeat-free
    (``repeat_free_ahead`` counts them all, beyond ``MAX_HORIZON``), for any field up to
    ``LINEAR_FROM``; ``algorithm`` is ``LOOKAHEAD_ALGORITHM`` with ``:h<rounds>``.

    ``rounds_left`` (this round included): with more than one, at most
    ``LOOKAHEAD_LIMIT`` players and history leaving room for more than one
    further repeat-free round, the next ``h = min(rounds_left,
    further_rounds_bound(...), MAX_HORIZON)`` rounds are planned jointly
    (``schedule.plan_schedule``, bounded by ``lookahead_work``) and this round
    is the schedule's first, unless it has a repeat or more club pairs than
    ``club_floor`` and the round-by-round search above does better (the plan's
    ``repeat_free_ahead`` then counts this round only). ``algorithm`` is then
    ``LOOKAHEAD_ALGORITHM`` with ``:h<h>`` (and ``w<lookahead_work>`` when not the
    default); without the lookahead the seating is the same as with
    ``rounds_left=1``.
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    if rounds_left < 1:
        raise ValueError("rounds_left must be at least 1")
    given = list(players)
    ids = sorted(_player_id(player) for player in given)
    _check_unique(ids)
    sizes = table_sizes(len(ids), preferred, largest)
    index_of = {pid: index for index, pid in enumerate(ids)}
    clubs = {player.id: player.club for player in given if isinstance(player, SeatingPlayer) and player.club}

    counts = _met_counts(met)
    last = {key for key in (frozenset(pair) for pair in last_round_pairs) if len(key) == 2}
    for pair in last:
        counts.setdefault(pair, 1)
    weights: list[dict[int, int]] = [{} for _ in ids]
    met_pairs = 0
    for pair, count in counts.items():
        first, second = sorted(pair)
        if first not in index_of or second not in index_of:
            continue
        met_pairs += 1
        weight = _REPEAT_WEIGHT + (_LAST_ROUND_WEIGHT if pair in last else 0) + count * _MET_WEIGHT
        a, b = index_of[first], index_of[second]
        weights[a][b] = weight
        weights[b][a] = weight
    # The same weights by player id, for the linear seating and the short-table repair.
    by_id: dict[int, dict[int, int]] = {
        ids[index]: {ids[other]: weight for other, weight in row.items()} for index, row in enumerate(weights) if row
    }
    further = further_rounds_bound(len(ids), sizes, [len(row) for row in weights], met_pairs, preferred, largest)
    members: dict[str, list[int]] = {}
    for pid in ids:
        if pid in clubs:
            members.setdefault(clubs[pid], []).append(index_of[pid])
    club_floor = _club_lower_bound((len(group) for group in members.values()), len(sizes))
    apart = clubs if keep_clubs_apart and clubs else None
    if apart is not None:
        for group in members.values():
            for a, b in itertools.combinations(group, 2):
                weights[a][b] = weights[a].get(b, 0) + _CLUB_WEIGHT
                weights[b][a] = weights[a][b]

    short = short_size(sizes, preferred)
    history = dict(short_table_history or {})
    pins = {pid: number for pid, number in (fixed or {}).items() if pid in index_of}
    placement: FixedPlacement | None = None
    horizon = min(rounds_left, further, schedule.MAX_HORIZON)
    if pins:
        horizon = 1
    planned = 1
    ahead: int | None = None
    # A known design for the field (all tables of one size): the rounds left from its classes.
    design_horizon = min(rounds_left, further)
    designed = None
    # The last round too when the history is given (the design's last class is left for it).
    if (
        not pins
        and len(ids) <= LINEAR_FROM
        and (design_horizon > 1 or (design_horizon and history_rounds))
        and len(set(sizes)) == 1
    ):
        designed = _seat_by_design(ids, sizes[0], design_horizon, counts, apart, seed, lookahead_work, history_rounds)
    if len(ids) > LINEAR_FROM:
        rng = random.Random(seed)
        seated, capped = _seat_linear(ids, sizes, by_id, rng, apart, linear_swap_work * len(ids))
        algorithm = LINEAR_CAPPED_ALGORITHM if capped else LINEAR_ALGORITHM
        if pins:
            placement = place_fixed(seated, pins, met=counts, clubs=apart)
            seated = [list(table) for table in placement.tables]
    elif designed is not None:
        seated, rng = designed
        planned = ahead = design_horizon
        algorithm = f"{LOOKAHEAD_ALGORITHM}:h{design_horizon}"
        if lookahead_work != schedule.LOOKAHEAD_WORK:
            algorithm += f"w{lookahead_work}"
    elif horizon > 1 and len(ids) <= schedule.LOOKAHEAD_LIMIT:
        seated, rng, ahead = _seat_ahead(
            ids,
            sizes,
            weights,
            seed,
            horizon,
            last,
            counts,
            apart,
            club_floor,
            short,
            history,
            lookahead_work,
            (attempts, work_limit),
            by_id,
        )
        planned = horizon
        algorithm = f"{LOOKAHEAD_ALGORITHM}:h{horizon}"
        if lookahead_work != schedule.LOOKAHEAD_WORK:
            algorithm += f"w{lookahead_work}"
        if attempts != DEFAULT_ATTEMPTS or work_limit != DEFAULT_WORK_LIMIT:
            algorithm = f"{algorithm}a{attempts}w{work_limit}"
    elif pins:
        seated, rng, placement = _seat_dense_fixed(ids, sizes, weights, seed, attempts, work_limit, pins, counts, apart)
        algorithm = REPEAT_AVOIDING_ALGORITHM
        if attempts != DEFAULT_ATTEMPTS or work_limit != DEFAULT_WORK_LIMIT:
            algorithm = f"{algorithm}:a{attempts}w{work_limit}"
    else:
        seated, rng = _seat_dense(ids, sizes, weights, seed, attempts, work_limit)
        algorithm = REPEAT_AVOIDING_ALGORITHM
        if attempts != DEFAULT_ATTEMPTS or work_limit != DEFAULT_WORK_LIMIT:
            algorithm = f"{algorithm}:a{attempts}w{work_limit}"
    pinned = placement.pinned if placement is not None else frozenset()
    if short is not None and history and _spread_short_tables(seated, short, history, by_id, apart, pinned):
        algorithm += SHORT_FAIR_SUFFIX
        if len(ids) <= LINEAR_FROM and placement is None:
            # The repair and its polish are local: in a small field they can end with more
            # repeats than a fair shuffle (seeded, the same repair) finds (10 players, fourth
            # round: 5 against 4). Never seat worse than that: the shuffle is taken where it is
            # better (above LINEAR_FROM the field leaves the search room: no repeat in six rounds).
            plain = seat_players([SeatingPlayer(id=pid) for pid in ids], seed, preferred, largest)
            shuffled = [list(table) for table in plain.tables]
            _spread_short_tables(shuffled, short, history, {}, apart)
            if _seating_cost(shuffled, counts, last, apart) < _seating_cost(seated, counts, last, apart):
                seated = shuffled
                algorithm += SHUFFLE_SUFFIX
    if keep_clubs_apart:
        algorithm += CLUBS_SUFFIX
    if placement is not None:
        algorithm += FIXED_SUFFIX
    for table in seated:
        rng.shuffle(table)
    pairs = table_pairs(seated)
    repeated = sum(1 for pair in pairs if pair in counts)
    if ahead is None or repeated:
        ahead = 0 if repeated else 1
    return SeatingPlan(
        tables=tuple(tuple(table) for table in seated),
        seed=seed,
        algorithm=algorithm,
        club_conflicts=club_conflicts(seated, clubs),
        repeated_pairs=repeated,
        repeats_from_last_round=sum(1 for pair in pairs if pair in last),
        unavoidable_repeats=unavoidable_repeats(ids, counts, sizes, last),
        short_table_spread=short_table_spread(seated, short, history),
        club_floor=club_floor,
        planned_rounds=planned,
        repeat_free_ahead=ahead,
        repeat_free_ahead_bound=min(rounds_left, further),
        numbers=placement.numbers if placement is not None else (),
        unkept=placement.unkept if placement is not None else (),
    )


def _seat_by_design(
    ids: Sequence[int],
    size: int,
    horizon: int,
    counts: Mapping[frozenset[int], int],
    apart: Mapping[int, str] | None,
    seed: int,
    lookahead_work: int,
    history: Sequence[Iterable[Iterable[int]]],
) -> tuple[list[list[int]], random.Random] | None:
    """This round from a known design whose unused classes hold the ``horizon`` rounds left
    without a repeat (``schedule.plan_from_design``), as seated ids per table and the generator
    the seat shuffle continues; None where no design is known or the history does not fit one."""
    if schedule.design_classes(len(ids), size) is None:
        return None
    index_of = {pid: index for index, pid in enumerate(ids)}
    met_rows: list[list[int]] = [[] for _ in ids]
    for pair in counts:
        first, second = sorted(pair)
        if first in index_of and second in index_of:
            a, b = index_of[first], index_of[second]
            met_rows[a].append(b)
            met_rows[b].append(a)
    club_numbers: list[int] | None = None
    if apart is not None:
        numbered = {club: number for number, club in enumerate(sorted(set(apart.values())))}
        club_numbers = [numbered[apart[pid]] if pid in apart else -1 for pid in ids]
    rounds = [
        [table for table in ([index_of[pid] for pid in table if pid in index_of] for table in tables) if table]
        for tables in history
    ]
    rng = random.Random(seed)
    planned = schedule.plan_from_design(
        len(ids), size, horizon, met_rows, rng, clubs=club_numbers, work_limit=lookahead_work, history=rounds
    )
    if planned is None:
        return None
    return [[ids[index] for index in table] for table in planned.rounds[0]], rng


def _seat_ahead(
    ids: Sequence[int],
    sizes: Sequence[int],
    weights: list[dict[int, int]],
    seed: int,
    horizon: int,
    last: set[frozenset[int]],
    counts: Mapping[frozenset[int], int],
    apart: Mapping[int, str] | None,
    club_floor: int,
    short: int | None,
    history: Mapping[int, int],
    lookahead_work: int,
    dense_bounds: tuple[int, int],
    by_id: Mapping[int, Mapping[int, int]],
) -> tuple[list[list[int]], random.Random, int]:
    """``LOOKAHEAD_ALGORITHM`` (see ``seat_avoiding_repeats``): the seated ids per
    table, the generator the seat shuffle continues, and the repeat-free rounds ahead.

    The short seats of this round are pinned as ``_spread_short_tables`` would
    hand them out (below the threshold count: short; above: long), so that
    repair moves nobody afterwards.
    """
    n = len(ids)
    index_of = {pid: index for index, pid in enumerate(ids)}
    met_rows: list[list[int]] = [[] for _ in ids]
    last_rows: list[list[int]] = [[] for _ in ids]
    for pair in counts:
        first, second = sorted(pair)
        if first in index_of and second in index_of:
            a, b = index_of[first], index_of[second]
            target = last_rows if pair in last else met_rows
            target[a].append(b)
            target[b].append(a)
    club_numbers: list[int] | None = None
    if apart is not None:
        numbered = {club: number for number, club in enumerate(sorted(set(apart.values())))}
        club_numbers = [numbered[apart[pid]] if pid in apart else -1 for pid in ids]
    pins = [0] * n
    if short is not None and history:
        short_seats = sum(size for size in sizes if size == short)
        threshold = sorted(history.get(pid, 0) for pid in ids)[short_seats - 1]
        pins = [(history.get(pid, 0) < threshold) - (history.get(pid, 0) > threshold) for pid in ids]

    def one_by_one(work: int) -> list[list[list[int]]]:
        """The start of the search: the rounds seated one by one as without lookahead
        (this round's short seats handed out fairly), on a share of the work."""
        simulated = dict(counts)
        rounds: list[list[list[int]]] = []
        for number in range(horizon):
            trial = [dict(row) for row in weights]
            for pair, _count in simulated.items():
                first, second = sorted(pair)
                if first in index_of and second in index_of and pair not in counts:
                    a, b = index_of[first], index_of[second]
                    trial[a][b] = trial[a].get(b, 0) + _REPEAT_WEIGHT
                    trial[b][a] = trial[a][b]
            tables, _rng = _seat_dense(ids, sizes, trial, seed + number, 2, max(work // horizon, 1))
            if number == 0 and short is not None and history:
                _spread_short_tables(tables, short, history, by_id, apart)
            rounds.append([[index_of[pid] for pid in table] for table in tables])
            for pair in table_pairs(tables):
                simulated[pair] = simulated.get(pair, 0) + 1
        return rounds

    rng = random.Random(seed)
    planned = schedule.plan_schedule(
        n,
        sizes,
        horizon,
        [sorted(row) for row in met_rows],
        [sorted(row) for row in last_rows],
        rng,
        clubs=club_numbers,
        pins=pins,
        short=short,
        work_limit=lookahead_work,
        initial=one_by_one,
    )
    seated = [[ids[index] for index in table] for table in planned.rounds[0]]
    clubs = dict(apart or {})
    mine = (club_conflicts(seated, clubs), count_repeated_pairs(seated, counts))
    if mine <= (club_floor if apart else 0, 0):
        return seated, rng, planned.repeat_free
    attempts, work_limit = dense_bounds
    dense, dense_rng = _seat_dense(ids, sizes, weights, seed, attempts, work_limit)
    theirs = (club_conflicts(dense, clubs), count_repeated_pairs(dense, counts))
    if theirs < mine:
        return dense, dense_rng, 0
    return seated, rng, planned.repeat_free


def _seat_dense(
    ids: Sequence[int],
    sizes: Sequence[int],
    weights: list[dict[int, int]],
    seed: int,
    attempts: int,
    work_limit: int,
) -> tuple[list[list[int]], random.Random]:
    """``REPEAT_AVOIDING_ALGORITHM`` (see ``seat_avoiding_repeats``): the seated ids
    per table and the random generator, whose state the seat shuffle continues.
    """
    met_degree = [len(row) for row in weights]
    settle: int | None = None
    if len(ids) <= TRIANGLE_LIMIT:
        # Tie-break for small fields, where rounds run out of fresh opponents
        # quickly: seating a fresh pair together destroys every triangle of the
        # not-yet-met graph through that pair; keep as many as possible so the
        # next rounds can still seat everyone without repeats. (12 players at
        # tables of 3 get 4 repeat-free rounds this way; without it about half
        # of the draws got stuck after round 3.) Once repeat-free, the search
        # stops after PATIENCE fruitless kicks instead of spending all its work.
        unmet = [set(range(len(ids))) - set(weights[a]) - {a} for a in range(len(ids))]
        for a in range(len(ids)):
            for b in unmet[a]:
                weights[a][b] = len(unmet[a] & unmet[b])
        settle = _REPEAT_WEIGHT

    # Building a start seating and its search costs about this much work.
    setup_work = len(ids) * len(sizes) + sum(len(row) for row in weights)
    rng = random.Random(seed)
    best_tables: list[list[int]] | None = None
    best_cost = -1
    spent = 0
    for attempt in range(attempts):
        if best_tables is not None and (best_cost == 0 or (settle is not None and best_cost < settle)):
            break
        if attempt > 0 and spent >= work_limit:
            break
        share = max((work_limit - spent) // (attempts - attempt), 1)
        tables = _greedy(weights, met_degree, sizes, rng)
        found, cost, work = _improve(weights, tables, rng, share, 0, settle, PATIENCE, GIVE_UP)
        spent += work + setup_work
        if best_tables is None or cost < best_cost:
            best_tables, best_cost = found, cost
    assert best_tables is not None
    return [[ids[index] for index in table] for table in best_tables], rng


def _seat_dense_fixed(
    ids: Sequence[int],
    sizes: Sequence[int],
    weights: list[dict[int, int]],
    seed: int,
    attempts: int,
    work_limit: int,
    pins: Mapping[int, int],
    counts: Mapping[frozenset[int], int],
    apart: Mapping[int, str] | None,
) -> tuple[list[list[int]], random.Random, FixedPlacement]:
    """``_seat_dense`` with fixed seats: each try's greedy start has the fixed players moved to
    their tables (``place_fixed``), then the swap search moves only the others. The best try
    wins (ties keep the earlier); returns its seated ids, the generator and its placement."""
    rng = random.Random(seed)
    setup_work = len(ids) * len(sizes) + sum(len(row) for row in weights)
    met_degree = [len(row) for row in weights]
    index_of = {pid: index for index, pid in enumerate(ids)}
    best: tuple[list[list[int]], FixedPlacement] | None = None
    best_cost = -1
    spent = 0
    for attempt in range(attempts):
        if best is not None and best_cost == 0:
            break
        if attempt > 0 and spent >= work_limit:
            break
        share = max((work_limit - spent) // (attempts - attempt), 1)
        start = [[ids[index] for index in table] for table in _greedy(weights, met_degree, sizes, rng)]
        placement = place_fixed(start, pins, met=counts, clubs=apart)
        pinned = frozenset(index_of[pid] for pid in placement.pinned)
        tables = [[index_of[pid] for pid in table] for table in placement.tables]
        found, cost, work = _improve(weights, tables, rng, share, 0, None, 0, GIVE_UP, pinned)
        spent += work + setup_work
        if best is None or cost < best_cost:
            best, best_cost = ([[ids[index] for index in table] for table in found], placement), cost
    assert best is not None
    return best[0], rng, best[1]


def _greedy(
    weights: Sequence[Mapping[int, int]], degree: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Players with the highest ``degree`` first (random among equals); each to
    the open table where it adds the least cost, then the emptiest, then a random one.
    """
    order = list(range(len(weights)))
    rng.shuffle(order)
    order.sort(key=lambda player: -degree[player])
    table_order = list(range(len(sizes)))
    rng.shuffle(table_order)
    tables: list[list[int]] = [[] for _ in sizes]
    added = [[0] * len(sizes) for _ in weights]
    for player in order:
        row = added[player]
        best = min(
            (table for table in table_order if len(tables[table]) < sizes[table]),
            key=lambda table: (row[table], len(tables[table])),
        )
        tables[best].append(player)
        for other, weight in weights[player].items():
            added[other][best] += weight
    return tables


# --------------------------------------------------------------------------
# Large fields: linear repeat avoidance, lower bound, short-table fairness
# --------------------------------------------------------------------------

#: Fields above this size are seated by the linear algorithm
#: (``LINEAR_ALGORITHM``); up to it ``REPEAT_AVOIDING_ALGORITHM`` stays in use
#: unchanged (same seed, same seating), so every stored round stays reproducible.
LINEAR_FROM = 400
#: Seeded greedy from a bounded window plus bounded swaps among conflicting
#: tables; memory and time about linear in the field (``_seat_linear``).
LINEAR_ALGORITHM = "avoid-repeats-linear-v1"
#: Suffix of ``algorithm`` when short-table history moved players (``_spread_short_tables``).
SHORT_FAIR_SUFFIX = "+short-fair"
#: Suffix after ``SHORT_FAIR_SUFFIX`` when a fair shuffle seated better than the repaired search.
SHUFFLE_SUFFIX = "+shuffle"
#: Candidates the greedy looks at for a seat, tables a conflicting player tries to swap into.
WINDOW = 48
SWAP_TABLES = 24
#: Rounds of the linear local search (each visits only the conflicting tables).
LINEAR_PASSES = 6
#: Tables each repeated player looks at when polishing after the short-table repair.
POLISH_TABLES = 150


def unavoidable_repeats(
    players: Iterable[SeatingPlayer | int],
    met: MetInput,
    sizes: Sequence[int],
    last_round_pairs: Iterable[Iterable[int]] = (),
) -> int:
    """A lower bound on the repeated pairs of any seating of ``players`` at ``sizes``.

    A player seated at a table of ``s`` shares it with ``s - 1`` others. If
    among the players present fewer than ``min(sizes) - 1`` are new to them,
    at least ``min(sizes) - 1 - new`` of their table partners are repeats.
    Summing this deficit over players counts every repeated pair at most twice
    (once from each side), so half of the sum, rounded up, is sound.

    Second, by pairs: the round seats ``sum(C(s, 2))`` pairs, and only the pairs
    of present players who never met can be new, so the rest are repeats
    (6 players at two tables of 3 after two repeat-free rounds: 6 pairs to seat,
    3 unmet left, at least 3 repeats).

    Third, by the last round's tables (``last_round_pairs``, pigeonhole): the
    ``m`` present players of one earlier table, spread over the round's ``T``
    tables as evenly as can be, still share ``r * C(q + 1, 2) + (T - r) * C(q, 2)``
    pairs (``q, r = divmod(m, T)``); these pairs differ from table to table, so
    the sum is sound (8 players at two tables of 4 after one round: 4 repeats).

    The largest of the three is returned. It is 0 whenever players still have
    enough fresh opponents and pairs, even where the true minimum is higher
    (the bound is simple, not tight).
    """
    ids = {_player_id(player) for player in players}
    if not sizes or not ids:
        return 0
    seen: dict[int, set[int]] = {}
    for pair in _met_counts(met):
        first, second = tuple(pair)
        if first in ids and second in ids:
            seen.setdefault(first, set()).add(second)
            seen.setdefault(second, set()).add(first)
    need = min(sizes) - 1
    deficit = 0
    for pid in ids:
        fresh = len(ids) - 1 - len(seen.get(pid, ()))
        deficit += max(0, need - fresh)
    met_among_present = sum(len(partners) for partners in seen.values()) // 2
    unmet = len(ids) * (len(ids) - 1) // 2 - met_among_present
    seated_pairs = sum(size * (size - 1) // 2 for size in sizes)
    return max((deficit + 1) // 2, seated_pairs - unmet, _spread_bound(ids, last_round_pairs, len(sizes)))


def _spread_bound(ids: set[int], last_round_pairs: Iterable[Iterable[int]], table_count: int) -> int:
    """The repeats forced by spreading each earlier table's present players over ``table_count``
    tables (see ``unavoidable_repeats``). The tables are the components of the pairs' graph."""
    parent: dict[int, int] = {}

    def root(pid: int) -> int:
        while parent.setdefault(pid, pid) != pid:
            parent[pid] = parent[parent[pid]]
            pid = parent[pid]
        return pid

    for pair in last_round_pairs:
        first, second = tuple(pair)
        if first in ids and second in ids:
            parent[root(first)] = root(second)
    group_sizes: dict[int, int] = {}
    for pid in parent:
        group_sizes[root(pid)] = group_sizes.get(root(pid), 0) + 1
    bound = 0
    for size in group_sizes.values():
        q, r = divmod(size, table_count)
        bound += r * (q + 1) * q // 2 + (table_count - r) * q * (q - 1) // 2
    return bound


def repeat_free_rounds_bound(n: int, preferred: int = 3, largest: int = 4) -> int:
    """The most rounds any schedule can seat ``n`` players at the tables of
    ``tabletable_sizes(n, preferred, largest)`` (the same split every round) without
    two players sharing a table twice.

    Upper bounds (always applied):

    * per player: everyone meets at least ``min(sizes) - 1`` new players a round,
      out of ``n - 1``;
    * pairs: a round uses ``sum(C(s, 2))`` of the ``C(n, 2)`` pairs;
    * pigeonhole: a second round needs every table's players to come from
      different tables of the first, so with a table larger than the number
      of tables only 1 round is possible (e.g. 6 at 3-3, 7 at 4-3, 8 at 4-4).

    Exact values where design theory settles the question (all tables of size s,
    ``n`` a multiple of s); the value returned is then reached by a known schedule:

    * s = 3, n = 3 (mod 6): ``(n - 1) / 2`` (Kirkman triple systems exist for every
      such n: Ray-Chaudhuri & Wilson, "Solution of Kirkman's schoolgirl problem",
      1971; n = 15 is Kirkman's 1850 puzzle).
    * s = 3, n = 0 (mod 6), n >= 18: ``(n - 2) / 2`` (nearly Kirkman triple systems:
      Baker & Wilson 1977, Brouwer 1978, Rees & Stinson 1987). n = 12: 4 (no
      NKTS(12) exists, Kotzig & Rosa 1974; 4 rounds are easy to find). n = 6: 1
      (pigeonhole).
    * s = 4, n = 4 (mod 12): ``(n - 1) / 3`` (resolvable (v, 4, 1)-designs: Hanani,
      Ray-Chaudhuri & Wilson, "On resolvable designs", 1972; n = 16 is the affine
      plane of order 4).
    * s = q a prime power, n = q^2: ``q + 1`` (the affine plane AG(2, q)), e.g. 25
      players at tables of 5 play 6 rounds.

    Everywhere else (tables of mixed sizes, e.g. 13 players at 4-3-3-3; tables of
    4 with n = 0 or 8 mod 12; larger tables) the figure is only the counting
    upper bound: no schedule does better, but one reaching it may not exist.
    Raises ``SeatingImpossible`` when ``n`` does not split; 0 for no players.
    """
    if n <= 0:
        return 0
    sizes = table_sizes(n, preferred, largest)
    if len(sizes) == 1:
        return 1
    smallest = min(sizes)
    pairs = sum(size * (size - 1) // 2 for size in sizes)
    bound = min((n - 1) // (smallest - 1), (n * (n - 1) // 2) // pairs)
    if max(sizes) > len(sizes):
        return 1
    if len(set(sizes)) == 1:
        size = sizes[0]
        if size == 3 and n in (6, 12):
            return 1 if n == 6 else 4
        # The exact cases above equal the counting bound there; nothing to tighten.
    return bound


def further_rounds_bound(
    n: int, sizes: Sequence[int], met_degree: Sequence[int], met_pairs: int, preferred: int, largest: int
) -> int:
    """At most how many more rounds ``n`` players at ``sizes`` can play without a repeated pair.

    ``met_degree[i]`` is how many of the present players player i already met,
    ``met_pairs`` how many pairs of present players met. Each player needs
    ``min(sizes) - 1`` fresh opponents a round, each round uses ``sum(C(s, 2))``
    fresh pairs, and no schedule beats ``repeat_free_rounds_bound`` even from
    scratch. An upper bound, not always reachable.
    """
    if not sizes or n <= 0:
        return 0
    need = min(sizes) - 1
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    if need <= 0 or per_round <= 0:
        return 0
    fresh_players = min(n - 1 - degree for degree in met_degree) if met_degree else n - 1
    fresh_pairs = n * (n - 1) // 2 - met_pairs
    return max(
        0,
        min(fresh_players // need, fresh_pairs // per_round, repeat_free_rounds_bound(n, preferred, largest)),
    )


def short_size(sizes: Sequence[int], preferred: int) -> int | None:
    """The table size that counts as "short" in a round of ``sizes``, or None if all are equal.

    The size holding fewer seats (the minority side: the 3-player tables among
    4-player ones, or the 4-player ones among 3-player ones); on a tie the size
    other than ``preferred``.
    """
    seats: dict[int, int] = {}
    for size in sizes:
        seats[size] = seats.get(size, 0) + size
    if len(seats) < 2:
        return None
    return min(seats, key=lambda size: (seats[size], size == preferred, size))


def short_table_spread(tables: Iterable[Iterable[int]], short: int | None, history: Mapping[int, int]) -> int:
    """Max minus min short-table seats among the players of ``tables``, this round included."""
    counts: dict[int, int] = {}
    for table in tables:
        seated = list(table)
        for pid in seated:
            counts[pid] = history.get(pid, 0) + (1 if len(seated) == short else 0)
    return max(counts.values()) - min(counts.values()) if counts else 0


def _cost_at(
    pid: int,
    members: Sequence[int],
    without: int,
    met: Mapping[int, Mapping[int, int]],
    apart: Mapping[int, str] | None,
) -> int:
    """What ``pid`` pays at a table of ``members`` (``without`` left out): met weights,
    plus ``_CLUB_WEIGHT`` per club mate when clubs are kept ``apart``."""
    row = met.get(pid, {})
    total = sum(row.get(other, 0) for other in members if other != pid and other != without)
    if apart:
        club = apart.get(pid, "")
        if club:
            mates = sum(1 for other in members if other != pid and other != without and apart.get(other) == club)
            total += _CLUB_WEIGHT * mates
    return total


def _seating_cost(
    tables: Iterable[Iterable[int]],
    counts: Mapping[frozenset[int], int],
    last: set[frozenset[int]],
    apart: Mapping[int, str] | None,
) -> tuple[int, int, int, int]:
    """What ``seat_avoiding_repeats`` minimises, in order: club mates at one table (when kept
    apart), repeated pairs, of them from the last round, their earlier meetings in total."""
    pairs = table_pairs(tables)
    repeated = [pair for pair in pairs if pair in counts]
    return (
        club_conflicts(tables, apart) if apart else 0,
        len(repeated),
        sum(1 for pair in repeated if pair in last),
        sum(counts[pair] for pair in repeated),
    )


def _spread_short_tables(
    tables: list[list[int]],
    short: int,
    history: Mapping[int, int],
    met: Mapping[int, Mapping[int, int]],
    apart: Mapping[int, str] | None = None,
    pinned: frozenset[int] = frozenset(),
) -> bool:
    """Move the short-table seats to the players with the fewest so far; True if anything moved.

    ``pinned`` players (fixed seats) never move: the fairness yields to them.

    With ``S`` short seats, let ``c`` be the ``S``-th smallest count: players
    below ``c`` must sit short, players above ``c`` must not. Each violator
    swaps with an allowed partner on the other side (one always exists, by
    counting), chosen to add the fewest repeated pairs (``met`` weights); a
    swap never makes its partner a violator, so this ends after at most one
    swap per violator. Repeated over rounds, nobody sits short twice before
    everyone has once (the spread of counts stays at most 1). With ``apart``
    (club by id), club mates at one table cost ``_CLUB_WEIGHT`` too.
    """
    short_players = [pid for table in tables if len(table) == short for pid in table]
    if not short_players:
        return False
    counts = sorted(history.get(pid, 0) for table in tables for pid in table)
    threshold = counts[len(short_players) - 1]
    where = {pid: index for index, table in enumerate(tables) for pid in table}

    def cost(pid: int, table: int, without: int) -> int:
        return _cost_at(pid, tables[table], without, met, apart)

    moved = False
    for pid in sorted(where):
        if pid in pinned:
            continue
        count = history.get(pid, 0)
        at_short = len(tables[where[pid]]) == short
        if (at_short and count <= threshold) or (not at_short and count >= threshold):
            continue  # allowed where it sits
        partners = [
            other
            for other in sorted(where)
            if (len(tables[where[other]]) == short) != at_short
            and (history.get(other, 0) >= threshold if not at_short else history.get(other, 0) <= threshold)
            and other not in pinned
        ]
        if not partners:
            continue
        mine = where[pid]

        here = cost(pid, mine, pid)
        best = min(
            partners,
            key=lambda other: (
                cost(pid, where[other], other) + cost(other, mine, pid) - here - cost(other, where[other], other)
            ),
        )
        theirs = where[best]
        tables[mine][tables[mine].index(pid)] = best
        tables[theirs][tables[theirs].index(best)] = pid
        where[pid], where[best] = theirs, mine
        moved = True
    if moved:
        _polish_fairly(tables, short, threshold, history, met, where, apart, pinned)
    return moved


def _polish_fairly(
    tables: list[list[int]],
    short: int,
    threshold: int,
    history: Mapping[int, int],
    met: Mapping[int, Mapping[int, int]],
    where: dict[int, int],
    apart: Mapping[int, str] | None = None,
    pinned: frozenset[int] = frozenset(),
) -> None:
    """Best-improvement swaps for players with a repeat, keeping the short seats fair.

    The repair of ``_spread_short_tables`` ignores the seating's other
    constraints; this wins back what it cost. A player may move to a short
    table only with at most ``threshold`` short seats so far, to a long one
    only with at least ``threshold``. Each player looks at the next
    ``POLISH_TABLES`` tables (in table order, so the result is deterministic),
    for at most ``LINEAR_PASSES`` passes: bounded, linear work.
    """

    def cost(pid: int, table: int, without: int) -> int:
        return _cost_at(pid, tables[table], without, met, apart)

    def allowed(pid: int, at_short: bool) -> bool:
        count = history.get(pid, 0)
        return count <= threshold if at_short else count >= threshold

    count = len(tables)
    for _ in range(LINEAR_PASSES):
        improved = False
        for pid in sorted(where):
            if pid in pinned:
                continue
            mine = where[pid]
            here = cost(pid, mine, pid)
            if here == 0:
                continue
            mine_short = len(tables[mine]) == short
            best_delta, best = 0, -1
            for step in range(1, min(count, POLISH_TABLES + 1)):
                other_table = (mine + step) % count
                other_short = len(tables[other_table]) == short
                if other_short != mine_short and not allowed(pid, other_short):
                    continue
                for other in tables[other_table]:
                    if other in pinned or (other_short != mine_short and not allowed(other, mine_short)):
                        continue
                    delta = (
                        cost(pid, other_table, other) + cost(other, mine, pid) - here - cost(other, other_table, other)
                    )
                    if delta < best_delta:
                        best_delta, best = delta, other
            if best >= 0:
                theirs = where[best]
                tables[mine][tables[mine].index(pid)] = best
                tables[theirs][tables[theirs].index(best)] = pid
                where[pid], where[best] = theirs, mine
                improved = True
        if not improved:
            break


def _seat_linear(
    ids: Sequence[int],
    sizes: Sequence[int],
    met: Mapping[int, Mapping[int, int]],
    rng: random.Random,
    apart: Mapping[int, str] | None = None,
    swap_work: int = 0,
) -> tuple[list[list[int]], bool]:
    """Seat ``ids`` at ``sizes`` keeping met players apart, in about linear time and memory.

    Only the per-player sets of opponents met are held (never all pairs).
    Greedy: the ids in seeded random order; each seat takes, among the next
    ``WINDOW`` waiting players, the first with no repeat at the table (else
    the one with the fewest). Then up to ``LINEAR_PASSES`` passes over the
    tables that still hold a repeat: each conflicting player tries
    ``SWAP_TABLES`` random tables for a partner whose swap lowers the cost
    (``met`` weights). Every step is bounded, so the work is linear in the field;
    the whole swap phase also stops after ``swap_work`` partner evaluations
    (0: no such bound), so the time stays linear however many players conflict.
    With ``apart`` (club by id) club mates at one table cost ``_CLUB_WEIGHT``.

    Returns the tables and whether the work bound cut the swaps short (if not,
    the seating is exactly the one without the bound: same steps, same draws).
    """
    pool = list(ids)
    rng.shuffle(pool)
    pool.reverse()  # take from the end: pop() is cheap there
    tables: list[list[int]] = []
    for size in sizes:
        table: list[int] = []
        for _ in range(size):
            best_at, best_cost = len(pool) - 1, -1
            for offset in range(1, min(WINDOW, len(pool)) + 1):
                candidate = pool[-offset]
                conflict = _cost_at(candidate, table, candidate, met, apart)
                if best_cost < 0 or conflict < best_cost:
                    best_at, best_cost = len(pool) - offset, conflict
                if conflict == 0:
                    break
            table.append(pool.pop(best_at))
        tables.append(table)

    where = {pid: index for index, table in enumerate(tables) for pid in table}

    def cost(pid: int, table: int, without: int) -> int:
        return _cost_at(pid, tables[table], without, met, apart)

    if len(tables) < 2:
        return tables, False
    work = 0
    for _ in range(LINEAR_PASSES):
        conflicting = [index for index, table in enumerate(tables) if any(cost(pid, index, pid) for pid in table)]
        if not conflicting:
            break
        for index in conflicting:
            for pid in list(tables[index]):
                mine = where[pid]
                here = cost(pid, mine, pid)
                if here == 0:
                    continue
                for _ in range(SWAP_TABLES):
                    other_table = rng.randrange(len(tables) - 1)
                    if other_table >= mine:
                        other_table += 1
                    for other in tables[other_table]:
                        if swap_work and work >= swap_work:
                            return tables, True
                        work += 1
                        gain = here + cost(other, other_table, other)
                        loss = cost(pid, other_table, other) + cost(other, mine, pid)
                        if loss < gain:
                            tables[mine][tables[mine].index(pid)] = other
                            tables[other_table][tables[other_table].index(other)] = pid
                            where[pid], where[other] = other_table, mine
                            break
                    else:
                        continue
                    break
    return tables, False


def smallest_free_number(held: Iterable[int]) -> int:
    """The number a new table takes: the smallest from 1 that no table still in play holds
    (``held``), so that the tables playing at the same time never share a number and the
    numbers stay those of the physical tables, reused as they become free (the main round's
    and the consolation round's tables draw from one sequence)."""
    taken = set(held)
    number = 1
    while number in taken:
        number += 1
    return number


# --------------------------------------------------------------------------
# Fixed seats: a player kept at one table number (wheelchair, hearing, sight)
# --------------------------------------------------------------------------

#: Why a fixed seat was not kept (``UnkeptSeat.reason``; the service layer words it):
#: the round has fewer tables than distinct fixed numbers (the lowest numbers win),
FIXED_FEWER_TABLES = "fewer_tables"
#: a table of the tournament still in play holds the number (life bands' concurrent rounds),
FIXED_NUMBER_HELD = "number_held"
#: more players fixed to the number than the table has seats (a final of two, a duel).
FIXED_TABLE_FULL = "table_full"


@dataclass(frozen=True)
class UnkeptSeat:
    """A fixed seat this round could not keep: the player, the number, why (``FIXED_*``)."""

    player: int
    number: int
    reason: str


@dataclass(frozen=True)
class FixedPlacement:
    """A round's tables with the fixed players moved to their tables.

    ``tables`` keep their sizes and order; ``numbers[i]`` is the number table ``i`` must take
    (None: any free number); ``unkept`` the fixed seats not kept; ``moved`` how many swaps it took.
    """

    tables: tuple[tuple[int, ...], ...]
    numbers: tuple[int | None, ...]
    unkept: tuple[UnkeptSeat, ...] = ()
    moved: int = 0

    @property
    def pinned(self) -> frozenset[int]:
        """The players kept at their fixed table (they never move in a later search)."""
        return frozenset(
            pid for table, number in zip(self.tables, self.numbers, strict=True) if number is not None for pid in table
        )


def place_fixed(
    tables: Sequence[Sequence[int]],
    fixed: Mapping[int, int],
    *,
    held: Iterable[int] = (),
    met: Mapping[frozenset[int], int] | None = None,
    clubs: Mapping[int, str] | None = None,
) -> FixedPlacement:
    """Move each fixed player (``fixed``: player id -> table number) to one table per number.

    The table number is a place in the hall: the table holding a fixed player takes that number
    whatever the round's table count. Players fixed to one number sit together; players with
    different numbers sit at different tables. Numbers are served lowest first; a number that a
    table still in play holds (``held``), a number beyond the round's table count (fewer tables
    than distinct numbers) and players beyond a table's seats (a final of two) are reported in
    ``unkept`` and those players seated as anyone else. Each number goes to the table already
    holding most of its players (then the lowest index), and each missing player swaps in with a
    player of that table who is not fixed there, the one whose move adds the fewest pairs who met
    before (``met``) and club mates (``clubs``, weighted above any repeat). Table sizes and order
    stay; ids not in ``fixed`` and fixed ids not seated are ignored. Deterministic.
    """
    seated = [list(table) for table in tables]
    where = {pid: index for index, table in enumerate(seated) for pid in table}
    present = {pid: number for pid, number in fixed.items() if pid in where}
    taken = set(held)
    counts = met or {}
    club_of = clubs or {}
    groups: dict[int, list[int]] = {}
    for pid in sorted(present):
        groups.setdefault(present[pid], []).append(pid)
    numbers: list[int | None] = [None] * len(seated)
    unkept: list[UnkeptSeat] = []
    kept: set[int] = set()
    moved = 0

    def cost(pid: int, table: int, without: int) -> int:
        total = 0
        for other in seated[table]:
            if other in (pid, without):
                continue
            total += counts.get(frozenset((pid, other)), 0) * (1 << 20)
            if club_of.get(pid) and club_of.get(pid) == club_of.get(other):
                total += 1 << 40
        return total

    for number in sorted(groups):
        members = groups[number]
        if number in taken:
            unkept.extend(UnkeptSeat(pid, number, FIXED_NUMBER_HELD) for pid in members)
            continue
        free = [index for index in range(len(seated)) if numbers[index] is None]
        if not free:
            unkept.extend(UnkeptSeat(pid, number, FIXED_FEWER_TABLES) for pid in members)
            continue
        target = max(free, key=lambda index: (sum(1 for pid in members if where[pid] == index), -index))
        room = len(seated[target])
        if len(members) > room:
            # Those already there stay first, then the lowest ids.
            members = sorted(members, key=lambda pid: (where[pid] != target, pid))
            unkept.extend(UnkeptSeat(pid, number, FIXED_TABLE_FULL) for pid in members[room:])
            members = members[:room]
        numbers[target] = number
        kept.update(members)
        for pid in members:
            if where[pid] == target:
                continue
            mine = where[pid]
            partners = [other for other in seated[target] if other not in kept]
            best = min(
                partners,
                key=lambda other: (cost(pid, target, other) + cost(other, mine, pid), other),
            )
            seated[mine][seated[mine].index(pid)] = best
            seated[target][seated[target].index(best)] = pid
            where[pid], where[best] = target, mine
            moved += 1
    unkept.sort(key=lambda seat: (seat.number, seat.player))
    return FixedPlacement(
        tables=tuple(tuple(table) for table in seated), numbers=tuple(numbers), unkept=tuple(unkept), moved=moved
    )
