"""Quality and fairness of the repeat-avoiding seating (``seat_avoiding_repeats``), pure.

Rounds are simulated as the points format plays them: every round seats all
players, with the pairs met so far, the last round's pairs and each player's
short-table seats so far. Checked over 3-400 players and up to 8 rounds: table
sizes, repeats never above a seeded shuffle of the same round, 0 repeats where
the lower bound is 0 in small fields, the short-table spread at most 1, the
lower bound sound (against brute force for tiny fields) and determinism.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournament import seating
from tournament.seating import (
    SeatingImpossible,
    SeatingPlan,
    add_meetings,
    count_repeated_pairs,
    seat_avoiding_repeats,
    seat_players,
    short_size,
    table_pairs,
    table_sizes,
    unavoidable_repeats,
)
from tournament.seating.short_tables import _spread_short_tables

pytestmark = pytest.mark.core

SEEDS = st.integers(min_value=0, max_value=2**32)


@dataclass
class Round:
    """One simulated round: the plan and the history it was seated with."""

    plan: SeatingPlan
    met: dict[frozenset[int], int]
    last: set[frozenset[int]]
    short_seats: dict[int, int]


def _seatable(n: int, preferred: int = 3, largest: int = 4) -> bool:
    try:
        table_sizes(n, preferred, largest)
    except SeatingImpossible:
        return False
    return True


def simulate(
    n: int, rounds: int, seed: int, preferred: int = 3, largest: int = 4, *, fair: bool = True
) -> Iterator[Round]:
    """Seat ``rounds`` rounds of players ``0..n-1``, yielding each with its history
    (without ``fair``, the short-table history is not passed: every plan as before).
    """
    met: dict[frozenset[int], int] = {}
    last: set[frozenset[int]] = set()
    short_seats: dict[int, int] = {}
    for number in range(rounds):
        plan = seat_avoiding_repeats(
            range(n),
            seed * 100 + number,
            met,
            last,
            preferred,
            largest,
            short_table_history=short_seats if fair else None,
        )
        yield Round(plan, met, last, dict(short_seats))
        short = short_size(plan.sizes, preferred)
        for table in plan.tables:
            for pid in table:
                short_seats[pid] = short_seats.get(pid, 0) + (1 if len(table) == short else 0)
        met = add_meetings(met, plan.tables)
        last = table_pairs(plan.tables)


def fair_shuffle_repeats(n: int, played: Round, preferred: int, largest: int) -> int:
    """Repeats of the baseline: a seeded shuffle (``seat_players``), its short seats
    then handed to the players with the fewest as the rules demand (without looking
    at who met whom: no weights).
    """
    shuffle = seat_players([seating.SeatingPlayer(id=pid) for pid in range(n)], played.plan.seed, preferred, largest)
    tables = [list(table) for table in shuffle.tables]
    short = short_size(shuffle.sizes, preferred)
    if short is not None and played.short_seats:
        _spread_short_tables(tables, short, played.short_seats, {})
    return count_repeated_pairs(tables, played.met)


def check_round(n: int, played: Round, preferred: int, largest: int) -> None:
    """Every property one round must have."""
    plan = played.plan
    assert sorted(plan.player_ids) == list(range(n))
    assert all(preferred <= size <= largest for size in plan.sizes)
    assert sorted(plan.sizes, reverse=True) == table_sizes(n, preferred, largest)
    assert plan.repeated_pairs == count_repeated_pairs(plan.tables, played.met)
    assert plan.unavoidable_repeats == unavoidable_repeats(range(n), played.met, plan.sizes, played.last)
    assert plan.unavoidable_repeats <= plan.repeated_pairs
    assert plan.repeated_pairs <= fair_shuffle_repeats(n, played, preferred, largest)
    assert plan.short_table_spread <= 1
    again = seat_avoiding_repeats(
        reversed(range(n)),
        plan.seed,
        played.met,
        played.last,
        preferred,
        largest,
        short_table_history=played.short_seats,
    )
    assert again == plan


@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=3, max_value=40), rounds=st.integers(min_value=1, max_value=8), seed=SEEDS)
# Found by this test: the repaired search seated round 4 with 5 repeats, a fair shuffle with 4.
@example(n=10, rounds=4, seed=5)
def test_small_fields_over_rounds(n: int, rounds: int, seed: int) -> None:
    """3-40 players, up to 8 rounds: sizes, baseline, spread, determinism."""
    if not _seatable(n):
        return
    for played in simulate(n, rounds, seed):
        check_round(n, played, 3, 4)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(min_value=12, max_value=48), seed=SEEDS)
def test_no_repeats_where_the_bound_allows_over_four_rounds(n: int, seed: int) -> None:
    """12-48 players at tables of 3-4: no repeated pair at all over 4 rounds
    (3 rounds for 12-14 players: 13 and 14 sometimes need 2 repeats in round 4,
    measured, as with the algorithm before this module's linear path).

    Without short-table history: handing the short seats to given players can
    force repeats in small fields (13 players: the four who must sit at the one
    table of 4 may have met), which the simple bound does not see.
    """
    for played in simulate(n, 3 if n < 15 else 4, seed, fair=False):
        assert played.plan.unavoidable_repeats == 0
        assert played.plan.repeated_pairs == 0, (n, played.plan.tables)


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(n=st.integers(min_value=60, max_value=400), rounds=st.integers(min_value=1, max_value=8), seed=SEEDS)
def test_large_fields_over_rounds(n: int, rounds: int, seed: int) -> None:
    """60-400 players, up to 8 rounds: the same properties; no repeats in the first 4 rounds."""
    for number, played in enumerate(simulate(n, rounds, seed)):
        check_round(n, played, 3, 4)
        if number < 4:
            assert played.plan.repeated_pairs == 0


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(n=st.integers(min_value=seating.LINEAR_FROM + 1, max_value=1500), seed=SEEDS)
def test_linear_seating_over_rounds(n: int, seed: int) -> None:
    """Above ``LINEAR_FROM`` the linear algorithm seats 6 rounds without a repeat."""
    for played in simulate(n, 6, seed):
        assert played.plan.algorithm.startswith(seating.LINEAR_ALGORITHM)
        check_round(n, played, 3, 4)
        assert played.plan.repeated_pairs == 0


@settings(max_examples=15, deadline=None)
@given(n=st.integers(min_value=4, max_value=40), rounds=st.integers(min_value=1, max_value=6), seed=SEEDS)
def test_tables_of_four_preferred(n: int, rounds: int, seed: int) -> None:
    """Preferred 4, up to 5: sizes stay in range and the short side is spread fairly."""
    if not _seatable(n, 4, 5):
        return
    for played in simulate(n, rounds, seed, 4, 5):
        check_round(n, played, 4, 5)


def _partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of ``players`` into tables of ``sizes`` (tiny fields only)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        table = (first, *others)
        remaining = [pid for pid in rest if pid not in others]
        for tail in _partitions(remaining, sizes[1:]):
            yield [table, *tail]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=9),
    met=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=30),
    order=st.permutations(range(9)),
)
def test_lower_bound_is_sound(n: int, met: list[tuple[int, int]], order: list[int]) -> None:
    """No seating of a tiny field has fewer repeats than ``unavoidable_repeats``, with a last
    round (a random seating of the same field) among what met."""
    if not _seatable(n):
        return
    sizes = table_sizes(n)
    players = [pid for pid in order if pid < n]
    last_tables, at = [], 0
    for size in sizes:
        last_tables.append(tuple(players[at : at + size]))
        at += size
    last = [pair for table in last_tables for pair in itertools.combinations(table, 2)]
    pairs = [pair for pair in met if pair[0] != pair[1]] + last
    best = min(count_repeated_pairs(tables, pairs) for tables in _partitions(list(range(n)), sizes))
    assert unavoidable_repeats(range(n), pairs, sizes, last) <= best
    assert unavoidable_repeats(range(n), pairs, sizes) <= unavoidable_repeats(range(n), pairs, sizes, last)


def test_lower_bound_counts_players_without_fresh_opponents() -> None:
    """6 players, 0 and 1 met everyone else: each needs 2 repeated partners, so 2 pairs at least."""
    met = [(0, other) for other in range(1, 6)] + [(1, other) for other in range(2, 6)]
    assert unavoidable_repeats(range(6), met, [3, 3]) == 2
    plan = seat_avoiding_repeats(range(6), 1, met)
    assert plan.unavoidable_repeats == 2
    assert plan.repeated_pairs >= 2


def test_lower_bound_counts_the_pairs_left_unmet() -> None:
    """9 players at three tables of 3 after four repeat-free rounds (the affine plane of order 3):
    every one of the 36 pairs met, so all 9 pairs of the next round repeat."""
    rounds = [
        [(0, 1, 2), (3, 4, 5), (6, 7, 8)],
        [(0, 3, 6), (1, 4, 7), (2, 5, 8)],
        [(0, 4, 8), (1, 5, 6), (2, 3, 7)],
        [(0, 5, 7), (1, 3, 8), (2, 4, 6)],
    ]
    met = [pair for tables in rounds for table in tables for pair in itertools.combinations(table, 2)]
    assert unavoidable_repeats(range(9), met[:27], [3, 3, 3]) == 0  # the fourth round is still free
    assert unavoidable_repeats(range(9), met, [3, 3, 3]) == 9
    # 7 players at 4-3 seat 9 pairs; with 16 of the 21 pairs met only 5 are new: at least 4 repeat.
    seven = list(itertools.combinations(range(7), 2))[:16]
    assert unavoidable_repeats(range(7), seven, [4, 3]) >= 9 - 5


def test_lower_bound_spreads_the_last_rounds_tables() -> None:
    """After one round of 8 players at 4-4, each table of the next holds two pairs from one earlier
    table (pigeonhole): 4 repeats, which no per-player or pair count sees, and the planner gets 4."""
    first = [(0, 1, 2, 3), (4, 5, 6, 7)]
    met = [pair for table in first for pair in itertools.combinations(table, 2)]
    assert unavoidable_repeats(range(8), met, [4, 4]) == 0
    assert unavoidable_repeats(range(8), met, [4, 4], met) == 4
    best = min(count_repeated_pairs(tables, met) for tables in _partitions(list(range(8)), [4, 4]))
    plan = seat_avoiding_repeats(range(8), 1, met, met, preferred=4, largest=4)
    assert best == plan.repeated_pairs == plan.unavoidable_repeats == 4


def test_short_tables_go_to_those_with_fewest() -> None:
    """13 players at 3-4: one table of 4 (the short side); it goes to players who never sat there."""
    history = dict.fromkeys(range(9), 1)
    plan = seat_avoiding_repeats(range(13), 5, {}, short_table_history=history)
    (four,) = [table for table in plan.tables if len(table) == 4]
    assert set(four) == {9, 10, 11, 12}
    assert plan.short_table_spread == 0  # everyone has sat at the table of 4 once now
    assert plan.algorithm.endswith(seating.SHORT_FAIR_SUFFIX)


def test_without_short_history_the_seating_is_unchanged() -> None:
    """No history given: the same seating as an empty history (old callers keep their plans)."""
    assert seat_avoiding_repeats(range(13), 5, {}) == seat_avoiding_repeats(range(13), 5, {}, short_table_history={})


def test_short_size() -> None:
    """The size with fewer seats is short; on a tie the one other than preferred."""
    assert short_size([4, 3, 3, 3], 3) == 4
    assert short_size([4, 4, 4, 3], 3) == 3
    assert short_size([4, 4, 3, 3, 3, 3], 3) == 4
    assert short_size([3, 3], 3) is None


def test_a_fair_shuffle_is_taken_where_the_repaired_search_seats_worse() -> None:
    """10 players at tables of 3-4, round 4 with short-table history: the search, repaired for the
    short seats, left 5 repeated pairs; the seeded fair shuffle with the same repair has 4."""
    fourth = list(simulate(10, 4, 5))[3]
    assert fourth.plan.algorithm.endswith(seating.SHORT_FAIR_SUFFIX + seating.SHUFFLE_SUFFIX)
    assert fourth.plan.repeated_pairs == 4 == fair_shuffle_repeats(10, fourth, 3, 4)
    assert fourth.plan.short_table_spread <= 1
