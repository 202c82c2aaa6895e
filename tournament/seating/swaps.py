"""The local search over swaps between tables, shared by the clubs-apart draw and the
repeat avoidance: ``_SwapSearch`` keeps each player's cost per table up to date, ``_improve``
descends, kicks and keeps the best, all within one work bound.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

#: Defaults of ``seat_avoiding_repeats``: tries, and the shared work bound (swap evaluations and
#: row updates). The bound counts work instead of timing it, so that the same seed seats the same
#: round on any machine, however loaded; it is set so the preview answers while the organiser waits.
DEFAULT_ATTEMPTS = 8
DEFAULT_WORK_LIMIT = 400_000
#: Stop a try after this many fruitless kicks in a row, whatever the cost.
GIVE_UP = 100


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
