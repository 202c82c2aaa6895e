"""Repeat avoidance above ``LINEAR_FROM`` players (``LINEAR_ALGORITHM``): a windowed greedy
and bounded swaps among the conflicting tables, time and memory about linear in the field.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tournament.seating.pairs import _cost_at

#: ``LINEAR_ALGORITHM`` whose swap phase stopped at its total work bound
#: (``LINEAR_SWAP_WORK`` partner evaluations per player); otherwise the same seating.
LINEAR_CAPPED_ALGORITHM = "avoid-repeats-linear-v2"
LINEAR_SWAP_WORK = 64
#: Fields above this size are seated by the linear algorithm (``LINEAR_ALGORITHM``): the dense
#: search's time and memory grow with the square of the field. Up to it the dense search
#: (``REPEAT_AVOIDING_ALGORITHM``) seats them, the same seed giving the same seating, so every
#: stored round stays reproducible under its algorithm string.
LINEAR_FROM = 400
#: Seeded greedy from a bounded window plus bounded swaps among conflicting
#: tables; memory and time about linear in the field (``_seat_linear``).
LINEAR_ALGORITHM = "avoid-repeats-linear-v1"
#: Candidates the greedy looks at for a seat, tables a conflicting player tries to swap into.
WINDOW = 48
SWAP_TABLES = 24
#: Rounds of the linear local search (each visits only the conflicting tables).
LINEAR_PASSES = 6


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
    tables = _greedy_window(ids, sizes, met, rng, apart)
    if len(tables) < 2:
        return tables, False
    return tables, _swap_conflicts(tables, met, rng, apart, swap_work)


def _greedy_window(
    ids: Sequence[int],
    sizes: Sequence[int],
    met: Mapping[int, Mapping[int, int]],
    rng: random.Random,
    apart: Mapping[int, str] | None,
) -> list[list[int]]:
    """The ids in seeded random order; each seat takes, among the next ``WINDOW`` waiting
    players, the first with no cost at the table (else the one with the least)."""
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
    return tables


def _swap_conflicts(
    tables: list[list[int]],
    met: Mapping[int, Mapping[int, int]],
    rng: random.Random,
    apart: Mapping[int, str] | None,
    swap_work: int,
) -> bool:
    """Up to ``LINEAR_PASSES`` passes over the tables holding a cost: each conflicting player
    tries ``SWAP_TABLES`` random tables for the first partner whose swap lowers the cost. True
    when ``swap_work`` partner evaluations (0: unbounded) cut the passes short."""
    where = {pid: index for index, table in enumerate(tables) for pid in table}

    def cost(pid: int, table: int, without: int) -> int:
        return _cost_at(pid, tables[table], without, met, apart)

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
                            return True
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
    return False
