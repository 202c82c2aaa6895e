"""Several rounds planned together for small fields (``LOOKAHEAD_ALGORITHM``,
``schedule.plan_schedule``): this round is the schedule's first unless the round-by-round
search seats it better.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence

from tournament import schedule
from tournament.seating.dense import _seat_dense
from tournament.seating.pairs import _REPEAT_WEIGHT, _club_numbers, club_conflicts, count_repeated_pairs, table_pairs
from tournament.seating.request import SeatingRequest, _Field
from tournament.seating.short_tables import _spread_short_tables

#: Several rounds planned jointly: from a known design's classes (``schedule.plan_from_design``, any
#: field up to ``LINEAR_FROM``) or, in small fields, ``schedule.plan_schedule``; ``:h<rounds>`` follows.
#: v2: designs by family, the history embedded in the classes left out.
LOOKAHEAD_ALGORITHM = "lookahead-v2"


def _seat_ahead(request: SeatingRequest, field: _Field, horizon: int) -> tuple[list[list[int]], random.Random, int]:
    """``LOOKAHEAD_ALGORITHM`` (see ``seat_avoiding_repeats``): the seated ids per
    table, the generator the seat shuffle continues, and the repeat-free rounds ahead.

    The short seats of this round are pinned as ``_spread_short_tables`` would
    hand them out (below the threshold count: short; above: long), so that
    repair moves nobody afterwards.
    """
    ids, sizes, weights, seed = field.ids, field.sizes, field.weights, request.seed
    counts, apart, short, history = field.counts, field.apart, field.short, field.history
    met_rows, last_rows = _history_rows(ids, field.index_of, counts, field.last)
    start = functools.partial(_one_by_one, field, seed, horizon)
    rng = random.Random(seed)
    planned = schedule.plan_schedule(
        len(ids),
        sizes,
        horizon,
        [sorted(row) for row in met_rows],
        [sorted(row) for row in last_rows],
        rng,
        clubs=_club_numbers(ids, apart),
        pins=_short_pins(ids, sizes, short, history),
        short=short,
        work_limit=request.lookahead_work,
        initial=start,
    )
    seated = [[ids[index] for index in table] for table in planned.rounds[0]]
    clubs = dict(apart or {})
    mine = (club_conflicts(seated, clubs), count_repeated_pairs(seated, counts))
    if mine <= (field.club_floor if apart else 0, 0):
        return seated, rng, planned.repeat_free
    # The schedule's first round has a repeat (or club mates above the floor): the round-by-round
    # search may seat this round better, at the cost of the rounds after it.
    dense, dense_rng = _seat_dense(ids, sizes, weights, seed, request.attempts, request.work_limit)
    theirs = (club_conflicts(dense, clubs), count_repeated_pairs(dense, counts))
    if theirs < mine:
        return dense, dense_rng, 0
    return seated, rng, planned.repeat_free


def _history_rows(
    ids: Sequence[int], index_of: Mapping[int, int], counts: Mapping[frozenset[int], int], last: set[frozenset[int]]
) -> tuple[list[list[int]], list[list[int]]]:
    """Per player index the indices met before outside the last round, and those of the last round."""
    met_rows: list[list[int]] = [[] for _ in ids]
    last_rows: list[list[int]] = [[] for _ in ids]
    for pair in counts:
        first, second = sorted(pair)
        if first in index_of and second in index_of:
            a, b = index_of[first], index_of[second]
            target = last_rows if pair in last else met_rows
            target[a].append(b)
            target[b].append(a)
    return met_rows, last_rows


def _short_pins(ids: Sequence[int], sizes: Sequence[int], short: int | None, history: Mapping[int, int]) -> list[int]:
    """Per player 1 (must sit short), -1 (must not) or 0, as ``_spread_short_tables`` hands out
    the short seats: below the threshold count short, above it long."""
    if short is None or not history:
        return [0] * len(ids)
    short_seats = sum(size for size in sizes if size == short)
    threshold = sorted(history.get(pid, 0) for pid in ids)[short_seats - 1]
    return [(history.get(pid, 0) < threshold) - (history.get(pid, 0) > threshold) for pid in ids]


def _one_by_one(field: _Field, seed: int, horizon: int, work: int) -> list[list[list[int]]]:
    """The start of the lookahead's search: the rounds seated one by one as without lookahead
    (this round's short seats handed out fairly), on a share of the work."""
    ids, sizes, index_of, counts = field.ids, field.sizes, field.index_of, field.counts
    short, history = field.short, field.history
    simulated = dict(counts)
    rounds: list[list[list[int]]] = []
    for number in range(horizon):
        trial = [dict(row) for row in field.weights]
        for pair, _count in simulated.items():
            first, second = sorted(pair)
            if first in index_of and second in index_of and pair not in counts:
                a, b = index_of[first], index_of[second]
                trial[a][b] = trial[a].get(b, 0) + _REPEAT_WEIGHT
                trial[b][a] = trial[a][b]
        tables, _rng = _seat_dense(ids, sizes, trial, seed + number, 2, max(work // horizon, 1))
        if number == 0 and short is not None and history:
            _spread_short_tables(tables, short, history, field.by_id, field.apart)
        rounds.append([[index_of[pid] for pid in table] for table in tables])
        for pair in table_pairs(tables):
            simulated[pair] = simulated.get(pair, 0) + 1
    return rounds
