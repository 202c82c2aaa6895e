"""The design path: a known resolvable design whose unused classes hold the rounds left
without a repeat (``schedule.plan_from_design``) seats this round.
"""

from __future__ import annotations

import random

from tournament import schedule
from tournament.seating.pairs import _club_numbers
from tournament.seating.request import SeatingRequest, _Field


def _seat_by_design(
    request: SeatingRequest, field: _Field, horizon: int
) -> tuple[list[list[int]], random.Random] | None:
    """This round from a known design whose unused classes hold the ``horizon`` rounds left
    without a repeat (``schedule.plan_from_design``), as seated ids per table and the generator
    the seat shuffle continues; None where no design is known or the history does not fit one."""
    ids, size, index_of = field.ids, field.sizes[0], field.index_of
    if schedule.design_classes(len(ids), size) is None:
        return None
    met_rows: list[list[int]] = [[] for _ in ids]
    for pair in field.counts:
        first, second = sorted(pair)
        if first in index_of and second in index_of:
            a, b = index_of[first], index_of[second]
            met_rows[a].append(b)
            met_rows[b].append(a)
    club_numbers = _club_numbers(ids, field.apart)
    rounds = [
        [table for table in ([index_of[pid] for pid in table if pid in index_of] for table in tables) if table]
        for tables in request.history_rounds
    ]
    rng = random.Random(request.seed)
    planned = schedule.plan_from_design(
        len(ids), size, horizon, met_rows, rng, clubs=club_numbers, work_limit=request.lookahead_work, history=rounds
    )
    if planned is None:
        return None
    return [[ids[index] for index in table] for table in planned.rounds[0]], rng
