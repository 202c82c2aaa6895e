"""Seating quality of the points format (issue 6, "Must hold"), pure.

Four consecutive rounds are seated with ``seat_avoiding_repeats`` for fields of
12, 30, 60 and 200 players at tables of 3-4, each round against the history of
the rounds before. For every round the repeated pairs (pairs at one table who
already met) are compared with a baseline: 1,000 random shuffles of the field,
each cut into the same table sizes, counted against the same history.

Must hold: the algorithm is never above the baseline's mean, and it is zero
wherever a repeat-free 4-round seating exists. It exists for all four sizes:
a player meets 2-3 others a round, at most 12 over 4 rounds, far fewer than
the 11 / 29 / 59 / 199 others there are; for 12 players at tables of 3 it is
tight (each player meets 8 of 11, and a 5th repeat-free round does not exist,
see ``test_seating.py``). The algorithm's own seatings are the witnesses:
their pairs are recounted here independently of the seating module.

The figures (baseline mean, its minimum, the algorithm) are printed (``-s``)
and attached to the test report (``record_property``).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

import pytest

from tournament.seating import count_repeated_pairs, seat_avoiding_repeats, table_sizes

pytestmark = pytest.mark.core

SIZES = [12, 30, 60, 200]
ROUNDS = 4
SHUFFLES = 1_000
#: Sizes for which a repeat-free seating of all 4 rounds exists (see the module docstring).
REPEAT_FREE = {12, 30, 60, 200}


def pair_code(a: int, b: int, n: int) -> int:
    """One int per unordered pair of players 0..n-1 (cheap to hash and compare)."""
    return a * n + b if a < b else b * n + a


def pairs_of(tables: Sequence[Sequence[int]], n: int) -> list[int]:
    codes = []
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                codes.append(pair_code(a, b, n))
    return codes


def cut_pairs(n: int, sizes: Sequence[int]) -> list[tuple[int, int]]:
    """Positions in a shuffled order that share a table once cut into ``sizes``."""
    positions = []
    start = 0
    for size in sizes:
        seats = range(start, start + size)
        positions += [(i, j) for i in seats for j in seats if i < j]
        start += size
    return positions


def shuffle_baseline(n: int, met: set[int], rng: random.Random) -> list[int]:
    """Repeated pairs of ``SHUFFLES`` random seatings (shuffle, cut into the table sizes)."""
    positions = cut_pairs(n, table_sizes(n, 3, 4))
    order = list(range(n))
    counts = []
    for _ in range(SHUFFLES):
        rng.shuffle(order)
        counts.append(sum(1 for i, j in positions if pair_code(order[i], order[j], n) in met))
    return counts


def check_seating(tables: Sequence[Sequence[int]], n: int) -> None:
    assert sorted(pid for table in tables for pid in table) == list(range(n)), "everyone seated once"
    assert all(3 <= len(table) <= 4 for table in tables)
    assert sorted((len(t) for t in tables), reverse=True) == table_sizes(n, 3, 4)


def play(n: int, seed: int, report: Callable[[str], None]) -> list[tuple[int, float, int, int]]:
    """Seat 4 rounds of n players; per round (round, baseline mean, baseline min, algorithm)."""
    rng = random.Random(seed)
    met_pairs: dict[frozenset[int], int] = {}
    met: set[int] = set()
    last: set[frozenset[int]] = set()
    figures = []
    for number in range(1, ROUNDS + 1):
        baseline = shuffle_baseline(n, met, rng)
        plan = seat_avoiding_repeats(range(n), seed * 100 + number, met_pairs, last, 3, 4)
        check_seating(plan.tables, n)
        codes = pairs_of(plan.tables, n)
        repeated = sum(1 for code in codes if code in met)
        # Recounted independently; the seating module and the plan agree.
        assert repeated == plan.repeated_pairs == count_repeated_pairs(plan.tables, met_pairs)
        mean = statistics.fmean(baseline)
        figures.append((number, mean, min(baseline), repeated))
        report(
            f"{n:>4} players, seed {seed}, round {number}: "
            f"baseline mean {mean:7.2f} (min {min(baseline)}), algorithm {repeated}"
        )
        met.update(codes)
        last = {frozenset(divmod(code, n)) for code in codes}
        for pair in last:
            met_pairs[pair] = met_pairs.get(pair, 0) + 1
    return figures


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("n", SIZES)
def test_four_rounds_never_above_the_shuffle_baseline(
    n: int, seed: int, record_property: Callable[[str, object], None]
) -> None:
    started = time.perf_counter()
    figures = play(n, seed=seed, report=print)
    record_property(f"seating_{n}_seed_{seed}", [(r, round(mean, 2), low, algo) for r, mean, low, algo in figures])
    for number, mean, _low, repeated in figures:
        assert repeated <= mean, (n, number, repeated, mean)
        if n in REPEAT_FREE:
            assert repeated == 0, (n, number, repeated)
    # From round 2 on, a random seating repeats pairs: the baseline is not trivially 0.
    assert all(mean > 0 for number, mean, _low, _algo in figures if number > 1)
    assert figures[0][1] == 0, "nobody met before round 1"
    assert time.perf_counter() - started < 30


def test_the_baseline_counts_like_the_seating_module() -> None:
    """The fast pair codes used for the baseline agree with ``count_repeated_pairs``."""
    rng = random.Random(5)
    n = 30
    order = list(range(n))
    rng.shuffle(order)
    sizes = table_sizes(n, 3, 4)
    first = [order[sum(sizes[:k]) : sum(sizes[: k + 1])] for k in range(len(sizes))]
    met = set(pairs_of(first, n))
    met_pairs = {frozenset(divmod(code, n)) for code in met}
    for _ in range(20):
        rng.shuffle(order)
        tables = [order[sum(sizes[:k]) : sum(sizes[: k + 1])] for k in range(len(sizes))]
        fast = sum(1 for code in pairs_of(tables, n) if code in met)
        positions = cut_pairs(n, sizes)
        by_position = sum(1 for i, j in positions if pair_code(order[i], order[j], n) in met)
        assert fast == by_position == count_repeated_pairs(tables, met_pairs)
