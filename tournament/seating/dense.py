"""Repeat avoidance round by round, up to ``LINEAR_FROM`` players (``REPEAT_AVOIDING_ALGORITHM``):
seeded greedy starts and the swap search over dense pair weights; with fixed seats the fixed
players are moved first and never swapped.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tournament.seating.fixed import FixedPlacement, place_fixed
from tournament.seating.pairs import _REPEAT_WEIGHT
from tournament.seating.request import SeatingRequest, _Field
from tournament.seating.swaps import GIVE_UP, _improve

#: Seeded greedy construction plus bounded local search against repeated pairs.
REPEAT_AVOIDING_ALGORITHM = "avoid-repeats-v1"
#: Fields up to this size get the "keep later rounds repeat-free" tie-break
#: (dense pair weights; see ``seat_avoiding_repeats``).
TRIANGLE_LIMIT = 48
#: Once a seating is repeat-free (small fields), stop after this many fruitless kicks.
PATIENCE = 30


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


def _seat_dense_fixed(request: SeatingRequest, field: _Field) -> tuple[list[list[int]], random.Random, FixedPlacement]:
    """``_seat_dense`` with fixed seats: each try's greedy start has the fixed players moved to
    their tables (``place_fixed``), then the swap search moves only the others. The best try
    wins (ties keep the earlier); returns its seated ids, the generator and its placement."""
    ids, sizes, weights, index_of = field.ids, field.sizes, field.weights, field.index_of
    attempts, work_limit = request.attempts, request.work_limit
    rng = random.Random(request.seed)
    setup_work = len(ids) * len(sizes) + sum(len(row) for row in weights)
    met_degree = [len(row) for row in weights]
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
        placement = place_fixed(start, field.pins, met=field.counts, clubs=field.apart)
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
