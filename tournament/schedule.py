"""Whole-schedule seating for small fields, pure Python (no Django).

The points format seats one round at a time, from the stored history only.
Seating each round as well as possible on its own can leave the later rounds
without a repeat-free seating (measured: Kirkman's 15 players at tables of 3
mostly get 5 repeat-free rounds of the 7 possible, 27 players 10-11 of 13).
This module plans the remaining rounds jointly and lets the caller seat the
first round of the best schedule found; the next round is planned again from
the history (so a stored round never depends on anything but its inputs).

* ``plan_from_design``: where a resolvable design is known for the field
  (``tournament.designs``, by family: Kirkman triple systems, resolvable
  (n, 4, 1) designs, affine spaces, transversal designs), the design
  relabelled so that the history lies on classes left out; the other classes
  are the rounds left, none with a repeat, for any field size.
* ``plan_schedule`` finds a schedule of ``horizon`` rounds with few repeats:
  where a design is known, the relabelling above and, failing it, a seeded
  tabu search over relabellings of the design that looks for classes avoiding
  the history; then a seeded tabu
  search over swaps within a round (after Dotú & Van Hentenryck, "Scheduling
  social golfers locally", CPAIOR 2005) minimises the repeats over all
  planned rounds, earlier rounds weighing more. Both are bounded by a work
  limit (lookups), so the time is bounded whatever the input.

Players are indices ``0..n-1`` here; ``tournament.seating`` maps the ids and
holds the bounds (``repeat_free_rounds_bound``, ``further_rounds_bound``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from tournament import designs

__all__ = [
    "LOOKAHEAD_LIMIT",
    "LOOKAHEAD_WORK",
    "MAX_HORIZON",
    "Schedule",
    "design_classes",
    "plan_from_design",
    "plan_schedule",
    "repeat_free_prefix",
]

#: Fields up to this size get the lookahead (larger ones rarely run out of fresh
#: opponents within a tournament's rounds, and the search grows with the field).
LOOKAHEAD_LIMIT = 60
#: At most this many rounds are planned jointly (pair masks are bit sets of rounds).
MAX_HORIZON = 12
#: Default work bound of ``plan_schedule`` (table lookups): counted rather than timed so that the
#: plan is the same on any machine; it caps the lookahead's share of seating a round.
LOOKAHEAD_WORK = 600_000
#: Cost of a same-club pair at one table, per round weight: above any number of repeats
#: (n <= LOOKAHEAD_LIMIT: fewer than 2,000 pairs, each costing at most the sum of round weights).
CLUB_COST = 1 << 24

# Pair categories of the schedule search: met before (bit 0), same club (bit 1).
_MET = 1
_CLUB = 2


# --------------------------------------------------------------------------
# Known resolvable designs (their parallel classes are repeat-free rounds)
# --------------------------------------------------------------------------


@cache
def design_classes(n: int, size: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """Parallel classes of a known resolvable design on ``n`` points with blocks of ``size``, or None.

    From ``tournament.designs.resolution`` (by family: Kirkman triple systems, resolvable
    (n, 4, 1) designs, affine spaces, resolvable transversal designs). Any two blocks of the
    design share at most one point, so its classes are rounds without a repeat.
    """
    return designs.resolution(n, size)


# --------------------------------------------------------------------------
# The schedule search
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule:
    """Planned rounds (tables of player indices), best first round first.

    ``repeat_free`` is how many leading rounds hold no repeated pair (against
    the history and the rounds planned before them); ``work`` the lookups spent.
    """

    rounds: tuple[tuple[tuple[int, ...], ...], ...]
    repeat_free: int
    work: int


def repeat_free_prefix(rounds: Sequence[Sequence[Sequence[int]]], met: Sequence[Sequence[int]]) -> int:
    """Leading rounds without a pair that met before (``met[a]`` lists a's earlier partners)."""
    seen = [set(row) for row in met]
    count = 0
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                if b in seen[a]:
                    return count
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                seen[a].add(b)
                seen[b].add(a)
        count += 1
    return count


def _last_round_tables(n: int, last: Sequence[Sequence[int]], size: int) -> list[list[int]] | None:
    """The last round's tables (components of its pairs) if they are ``n / size`` tables of ``size``."""
    parent = list(range(n))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a in range(n):
        for b in last[a]:
            parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for a in range(n):
        groups.setdefault(root(a), []).append(a)
    tables = sorted(groups.values())
    if all(len(table) == size for table in tables):
        return tables
    return None


def _category(n: int, met_sets: Sequence[set[int]], club_of: Sequence[int]) -> list[list[int]]:
    """Per pair of players its category bits: met before (``_MET``), same club (``_CLUB``)."""
    return [
        [
            (_MET if b in met_sets[a] else 0)
            | (_CLUB if a != b and club_of[a] >= 0 and club_of[a] == club_of[b] else 0)
            for b in range(n)
        ]
        for a in range(n)
    ]


def _pair_classes(classes: tuple[tuple[tuple[int, ...], ...], ...], n: int) -> list[list[int]]:
    """Per pair of points the class whose block joins them (-1: none, the point itself)."""
    pair_class = [[-1] * n for _ in range(n)]
    for number, group in enumerate(classes):
        for block in group:
            for x, y in itertools.permutations(block, 2):
                pair_class[x][y] = number
    return pair_class


def _block_mates(classes: tuple[tuple[tuple[int, ...], ...], ...], n: int) -> list[list[tuple[int, ...]]]:
    """Per point and class the other points of the point's block in that class."""
    other: list[list[tuple[int, ...]]] = [[() for _ in range(len(classes))] for _ in range(n)]
    for number, group in enumerate(classes):
        for block in group:
            for point in block:
                other[point][number] = tuple(q for q in block if q != point)
    return other


def _connected_order(n: int, links: Sequence[Sequence[int]]) -> list[int]:
    """Players in order: each next one the most linked to those already ordered (then the most
    linked in all, then the lowest index). ``links[a]`` may name a player more than once."""
    order: list[int] = []
    placed_before = [0] * n
    remaining = set(range(n))
    while remaining:
        pick = max(sorted(remaining), key=lambda a: (placed_before[a], len(links[a])))
        order.append(pick)
        remaining.discard(pick)
        for b in links[pick]:
            placed_before[b] += 1
    return order


def _players_at(point_of: Sequence[int]) -> list[int]:
    """The inverse labelling: per point the player placed there."""
    player_at = [0] * len(point_of)
    for player, point in enumerate(point_of):
        player_at[point] = player
    return player_at


def _classes_as_rounds(
    classes: tuple[tuple[tuple[int, ...], ...], ...], player_at: Sequence[int], numbers: Sequence[int]
) -> list[list[list[int]]]:
    """The classes ``numbers`` as rounds: tables of the players at their blocks' points."""
    return [[[player_at[point] for point in block] for block in classes[number]] for number in numbers]


def _meets_again(rounds: Sequence[Sequence[Sequence[int]]], category: list[list[int]]) -> bool:
    """Whether any table of ``rounds`` seats a pair that met before or shares a club."""
    return any(category[a][b] for tables in rounds for table in tables for a, b in itertools.combinations(table, 2))


def _embed_exactly(
    classes: tuple[tuple[tuple[int, ...], ...], ...],
    n: int,
    category: list[list[int]],
    horizon: int,
    rng: random.Random,
    limit: int,
) -> tuple[list[list[list[int]]] | None, int]:
    """Relabel the design so that every pair that met (or shares a club) lies in a class
    not among ``horizon`` others, which then form a schedule without any repeat.

    If the history was itself seated from this design (as the lookahead does),
    its met graph is a union of classes, and this finds the relabelling that
    continues it. Backtracking over players (most constrained first: the
    neighbours of those placed), for each set ``used`` of classes from the
    smallest that could hold the history: a player may take a point only if
    each met player already placed sits at a point joined to it by a block of
    a class in ``used``. Returns (``horizon`` remaining classes as tables of
    players, work) or (None, work) when ``limit`` candidate checks found none.
    """
    count = len(classes)
    size = len(classes[0][0])
    pair_class = _pair_classes(classes, n)
    neighbours = [[b for b in range(n) if category[a][b]] for a in range(n)]
    edges = sum(len(row) for row in neighbours) // 2
    if not edges:
        return None, 0  # nothing to avoid: the relabelling search starts at cost 0 anyway
    per_class = len(classes[0]) * size * (size - 1) // 2
    widest = max(len(row) for row in neighbours)
    smallest = max(-(-widest // (size - 1)), -(-edges // per_class))
    order = _connected_order(n, neighbours)
    points = list(range(n))
    rng.shuffle(points)
    search = _ExactPlacement(order, neighbours, points, pair_class, limit)
    for width in range(smallest, count - horizon + 1):
        for used in itertools.combinations(range(count), width):
            if search.place(0, frozenset(used)):
                free = [number for number in range(count) if number not in used][:horizon]
                return _classes_as_rounds(classes, _players_at(search.point_of), free), search.work
            if search.work >= limit:
                return None, search.work
    return None, search.work


class _ExactPlacement:
    """The backtracking of ``_embed_exactly``: players in ``order`` onto the design's points,
    each met player already placed joined to the new one by a block of a class in ``used``."""

    def __init__(
        self,
        order: list[int],
        neighbours: list[list[int]],
        points: list[int],
        pair_class: list[list[int]],
        limit: int,
    ) -> None:
        self.order, self.neighbours, self.points = order, neighbours, points
        self.pair_class, self.limit = pair_class, limit
        self.point_of = [-1] * len(order)
        self.taken = [False] * len(order)
        self.work = 0

    def place(self, position: int, used: frozenset[int]) -> bool:
        """Place the players from ``position`` on; True when all are placed (else all undone)."""
        if position == len(self.order):
            return True
        if self.work >= self.limit:
            return False
        player = self.order[position]
        point_of, taken, pair_class = self.point_of, self.taken, self.pair_class
        anchors = [point_of[b] for b in self.neighbours[player] if point_of[b] >= 0]
        if anchors:
            first = anchors[0]
            candidates = [q for q in self.points if not taken[q] and pair_class[first][q] in used]
        else:
            candidates = [q for q in self.points if not taken[q]]
        self.work += len(candidates) + 1
        for q in candidates:
            if all(pair_class[anchor][q] in used for anchor in anchors[1:]):
                point_of[player], taken[q] = q, True
                if self.place(position + 1, used):
                    return True
                point_of[player], taken[q] = -1, False
        return False


def _embed_canonically(
    classes: tuple[tuple[tuple[int, ...], ...], ...],
    n: int,
    history: Sequence[Sequence[Sequence[int]]],
    category: list[list[int]],
    horizon: int,
) -> list[list[list[int]]] | None:
    """The design relabelled from the first earlier round alone, or None where that does not fit.

    The first round's tables (sorted by their players) go onto the first class's blocks in order,
    players in order onto each block's points: a labelling that depends on that round only, so
    every later round finds the same one. It fits when every earlier round lies on the blocks of
    one class; the first ``horizon`` classes no round lies on are then the rounds left (checked
    against every pair that met or shares a club). A schedule seated from the design this way
    (the first round its first class under any labelling, the next ones from here) is continued
    without any search."""
    first = sorted(sorted(table) for table in history[0])
    blocks = sorted(classes[0])
    if len(first) != len(blocks) or any(len(table) != len(blocks[0]) for table in first):
        return None
    point_of = [-1] * n
    for table, block in zip(first, blocks, strict=True):
        for player, point in zip(table, block, strict=True):
            point_of[player] = point
    if -1 in point_of:
        return None
    class_of_pair: dict[tuple[int, int], int] = {}
    for number, group in enumerate(classes):
        for block in group:
            for x, y in itertools.combinations(block, 2):
                class_of_pair[(x, y)] = class_of_pair[(y, x)] = number
    used: set[int] = set()
    for tables in history:
        found: set[int] = set()
        for seated in tables:
            for a, b in itertools.combinations(seated, 2):
                found.add(class_of_pair.get((point_of[a], point_of[b]), -1))
        if len(found) != 1 or -1 in found:
            return None
        used |= found
    free = [number for number in range(len(classes)) if number not in used][:horizon]
    if len(free) < horizon:
        return None
    rounds = _classes_as_rounds(classes, _players_at(point_of), free)
    if _meets_again(rounds, category):
        return None
    return rounds


def _embed_rounds(
    classes: tuple[tuple[tuple[int, ...], ...], ...],
    n: int,
    history: Sequence[Sequence[Sequence[int]]],
    category: list[list[int]],
    horizon: int,
    rng: random.Random,
    limit: int,
) -> tuple[list[list[list[int]]] | None, int]:
    """As ``_embed_exactly``, knowing the history's rounds: each earlier round (tables of player
    indices, absent players left out) must lie on the blocks of one class, and the rounds use at
    most ``len(classes) - horizon`` classes. Backtracking over players (neighbours of those placed
    first): a player's table-mates of a round whose class is chosen fix the block it must sit in,
    so a history seated from this design is found again in about n^2 lookups. The classes left
    must then hold no pair that met (or shares a club) in any other way; else None."""
    count = len(classes)
    budget = count - horizon
    if budget < 0:
        return None, 0
    mates: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (round, table-mate)
    for number, tables in enumerate(history):
        for table in tables:
            for a in table:
                mates[a].extend((number, b) for b in table if b != a)
    order = _connected_order(n, [[b for _number, b in row] for row in mates])
    points = list(range(n))
    rng.shuffle(points)
    search = _RoundsPlacement(classes, n, len(history), mates, order, points, budget, limit)
    if not search.place(0):
        return None, search.work
    free = [number for number in range(count) if not search.uses[number]][:horizon]
    rounds = _classes_as_rounds(classes, _players_at(search.point_of), free)
    if _meets_again(rounds, category):
        return None, search.work  # a pair that met outside the rounds given, or one club
    return rounds, search.work


class _RoundsPlacement:
    """The backtracking of ``_embed_rounds``: players in ``order`` onto the design's points, each
    earlier round given a class as soon as one of its pairs is placed, at most ``budget`` classes."""

    def __init__(
        self,
        classes: tuple[tuple[tuple[int, ...], ...], ...],
        n: int,
        rounds: int,
        mates: list[list[tuple[int, int]]],
        order: list[int],
        points: list[int],
        budget: int,
        limit: int,
    ) -> None:
        self.pair_class = _pair_classes(classes, n)
        self.through = _block_mates(classes, n)
        self.mates, self.order, self.points = mates, order, points
        self.budget, self.limit = budget, limit
        self.point_of = [-1] * n
        self.taken = [False] * n
        self.class_of = [-1] * rounds
        self.uses = [0] * len(classes)  # rounds on each class
        self.in_use = 0
        self.work = 0

    def scored(self, player: int) -> list[tuple[int, int, list[tuple[int, int]]]]:
        """The free points ``player`` may take, each with the classes it would give rounds
        (``fresh``) and how many of those are new, within the budget."""
        point_of, class_of, uses = self.point_of, self.class_of, self.uses
        placed = [(number, point_of[b]) for number, b in self.mates[player] if point_of[b] >= 0]
        pool: Sequence[int] = self.points
        for number, anchor in placed:
            if class_of[number] >= 0:
                pool = list(self.through[anchor][class_of[number]])
                break
        scored: list[tuple[int, int, list[tuple[int, int]]]] = []
        for q in pool:
            if self.taken[q]:
                continue
            self.work += len(placed) + 1
            chosen: dict[int, int] = {}
            ok = True
            for number, anchor in placed:
                c = self.pair_class[anchor][q]
                wanted = class_of[number] if class_of[number] >= 0 else chosen.get(number, -1)
                if c < 0 or (wanted >= 0 and wanted != c):
                    ok = False
                    break
                chosen[number] = c
            if not ok:
                continue
            fresh = [(number, c) for number, c in chosen.items() if class_of[number] < 0]
            new_classes = {c for _number, c in fresh if not uses[c]}
            if self.in_use + len(new_classes) <= self.budget:
                scored.append((len(new_classes), q, fresh))
        return scored

    def place(self, position: int) -> bool:
        """Place the players from ``position`` on; True when all are placed (else all undone)."""
        if position == len(self.order):
            return True
        player = self.order[position]
        scored = self.scored(player)
        if self.work >= self.limit:
            return False
        scored.sort(key=lambda item: item[0])  # stable: the seeded point order among equals
        for _new, q, fresh in scored:
            self.point_of[player], self.taken[q] = q, True
            for number, c in fresh:
                self.class_of[number] = c
                self.in_use += not self.uses[c]
                self.uses[c] += 1
            if self.place(position + 1):
                return True
            for number, c in fresh:
                self.class_of[number] = -1
                self.uses[c] -= 1
                self.in_use -= not self.uses[c]
            self.point_of[player], self.taken[q] = -1, False
            if self.work >= self.limit:
                return False
        return False


def plan_from_design(
    n: int,
    size: int,
    horizon: int,
    met: Sequence[Sequence[int]],
    rng: random.Random,
    *,
    clubs: Sequence[int] | None = None,
    work_limit: int = LOOKAHEAD_WORK,
    history: Sequence[Sequence[Sequence[int]]] | None = None,
) -> Schedule | None:
    """``horizon`` rounds without any repeat (nor a same-club pair) for players ``0..n-1`` at
    tables of ``size``, from a known design (``design_classes``), or None.

    ``met[a]`` lists the players a met before, ``history`` (if given) the earlier rounds as tables
    of player indices. The design is relabelled so that the history lies on classes left out
    (``_embed_canonically`` where the first round fixes the labelling, else the searches
    ``_embed_rounds``, or from the met pairs alone ``_embed_exactly``; bounded by
    ``work_limit``): when the history was
    seated from this design, its unused classes continue it. No limit on ``horizon`` (up to the
    design's classes) and none on ``n``: the work is the embedding's, about n^2 lookups a pass.
    """
    design = design_classes(n, size)
    if design is None or horizon < 1 or horizon > len(design):
        return None
    club_of = list(clubs) if clubs is not None else [-1] * n
    met_sets = [set(row) for row in met]
    category = _category(n, met_sets, club_of)
    rounds: list[list[list[int]]] | None = None
    work = 0
    if not any(any(row) for row in category):
        labels = list(range(n))  # nothing to avoid: a seeded labelling, the first classes
        rng.shuffle(labels)
        rounds = [[[labels[point] for point in block] for block in design[number]] for number in range(horizon)]
    elif history:
        rounds = _embed_canonically(design, n, history, category, horizon)
        if rounds is None:
            rounds, work = _embed_rounds(design, n, history, category, horizon, rng, work_limit)
    else:
        rounds, work = _embed_exactly(design, n, category, horizon, rng, work_limit)
    if rounds is None:
        return None
    return Schedule(
        rounds=tuple(tuple(tuple(table) for table in tables) for tables in rounds),
        repeat_free=horizon,
        work=work,
    )


def _embed_design(
    classes: tuple[tuple[tuple[int, ...], ...], ...],
    n: int,
    category: list[list[int]],
    horizon: int,
    start: list[int],
    rng: random.Random,
    limit: int,
) -> tuple[list[list[list[int]]], int]:
    """Relabel the design's points to players so that ``horizon`` of its classes avoid the history.

    A class's cost is the number of its pairs (relabelled) that met before or
    share a club (``category``). Tabu search over swaps of two labels, moving
    only points in a costly block of the ``horizon`` cheapest classes; stops at
    cost 0 or after ``limit`` lookups. Returns the chosen classes as tables of
    players (cheapest first) and the work spent.
    """
    perm = list(start)  # point -> player
    other = _block_mates(classes, n)

    def weight(a: int, b: int) -> int:
        kind = category[a][b]
        return (CLUB_COST if kind & _CLUB else 0) + (1 if kind & _MET else 0)

    selected, score = _select(classes, perm, weight, horizon)
    best_score = score
    best_perm = list(perm)
    tabu: dict[tuple[int, int], int] = {}
    work = 0
    iteration = 0
    while best_score > 0 and work < limit:
        iteration += 1
        moves, spent = _label_moves(perm, other, selected, weight, tabu, iteration, score - best_score)
        work += spent
        if not moves:
            break
        x, y = moves[rng.randrange(len(moves))]
        perm[x], perm[y] = perm[y], perm[x]
        selected, score = _select(classes, perm, weight, horizon)
        work += n * len(classes)
        tabu[(x, y)] = iteration + 4 + rng.randrange(6)
        if score < best_score:
            best_score, best_perm = score, list(perm)
    chosen = _cheapest(_class_costs(classes, best_perm, weight), horizon)
    return [[[best_perm[point] for point in block] for block in classes[number]] for number in chosen], work


def _class_costs(
    classes: tuple[tuple[tuple[int, ...], ...], ...], perm: Sequence[int], weight: Callable[[int, int], int]
) -> list[int]:
    """Per class the weight of its pairs under the labelling ``perm`` (point -> player)."""
    return [
        sum(weight(perm[a], perm[b]) for block in group for a, b in itertools.combinations(block, 2))
        for group in classes
    ]


def _cheapest(cost: Sequence[int], horizon: int) -> list[int]:
    """The ``horizon`` cheapest classes, cheapest first (the lower number on a tie)."""
    return sorted(range(len(cost)), key=lambda number: (cost[number], number))[:horizon]


def _select(
    classes: tuple[tuple[tuple[int, ...], ...], ...],
    perm: Sequence[int],
    weight: Callable[[int, int], int],
    horizon: int,
) -> tuple[list[int], int]:
    """The ``horizon`` cheapest classes under ``perm`` and their cost together."""
    cost = _class_costs(classes, perm, weight)
    selected = _cheapest(cost, horizon)
    return selected, sum(cost[number] for number in selected)


def _label_moves(
    perm: list[int],
    other: list[list[tuple[int, ...]]],
    selected: Sequence[int],
    weight: Callable[[int, int], int],
    tabu: dict[tuple[int, int], int],
    iteration: int,
    behind: int,
) -> tuple[list[tuple[int, int]], int]:
    """The best swaps of two labels for the ``selected`` classes (ties all kept), moving only a
    point in a costly block; a tabu swap only if it beats the best score (``behind``: the score
    minus the best). Returns the moves and the work spent."""
    n = len(perm)
    movable = sorted(
        {
            point
            for number in selected
            for point in range(n)
            if any(weight(perm[point], perm[q]) for q in other[point][number])
        }
    )
    best_delta: int | None = None
    moves: list[tuple[int, int]] = []
    work = 0
    for x in movable:
        px, ox = perm[x], other[x]
        for y in range(n):
            if y == x:
                continue
            py, oy = perm[y], other[y]
            delta = 0
            for number in selected:
                bx, by = ox[number], oy[number]
                if y in bx:
                    continue  # same block: the swap changes nothing there
                for q in bx:
                    delta += weight(py, perm[q]) - weight(px, perm[q])
                for q in by:
                    delta += weight(px, perm[q]) - weight(py, perm[q])
            work += len(selected) * 2
            key = (min(x, y), max(x, y))
            if tabu.get(key, 0) > iteration and behind + delta >= 0:
                continue
            if best_delta is None or delta < best_delta:
                best_delta, moves = delta, [key]
            elif delta == best_delta:
                moves.append(key)
    return moves, work


class _Search:
    """Tabu search over swaps within a round (see ``plan_schedule``)."""

    def __init__(
        self,
        n: int,
        sizes: Sequence[int],
        horizon: int,
        category: list[list[int]],
        pins: Sequence[int],
        short: int | None,
        rounds: list[list[list[int]]],
    ) -> None:
        self.n, self.sizes, self.horizon = n, list(sizes), horizon
        self.category = category
        self.pins, self.short = pins, short
        weights = [horizon - k for k in range(horizon)]  # earlier rounds weigh more
        masks = 1 << horizon
        # table[kind][mask]: cost of a pair of ``kind`` sitting together in the rounds of ``mask``;
        # a fresh pair's first meeting is free, every further one (and any of a met pair) costs.
        self.table = [[0] * masks for _ in range(4)]
        for mask in range(masks):
            bits = [k for k in range(horizon) if mask >> k & 1]
            total = sum(weights[k] for k in bits)
            for kind in range(4):
                repeat = total if kind & _MET else total - (weights[bits[0]] if bits else 0)
                self.table[kind][mask] = repeat + (CLUB_COST * total if kind & _CLUB else 0)
        self.tables = [[list(table) for table in tables] for tables in rounds]
        self.where = [[0] * n for _ in range(horizon)]
        self.mask = [[0] * n for _ in range(n)]
        for k, tables in enumerate(self.tables):
            for number, table in enumerate(tables):
                for a in table:
                    self.where[k][a] = number
                for a, b in itertools.combinations(table, 2):
                    self.mask[a][b] |= 1 << k
                    self.mask[b][a] |= 1 << k
        self.cost = sum(self.table[category[a][b]][self.mask[a][b]] for a, b in itertools.combinations(range(n), 2))
        self.work = 0

    def allowed(self, k: int, a: int, table: int) -> bool:
        """Round 0's short-table pins: -1 must not sit short, 1 must."""
        if k or self.short is None or not self.pins[a]:
            return True
        return (self.sizes[table] == self.short) == (self.pins[a] > 0)

    def conflicting(self) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        category, mask = self.category, self.mask
        for k, tables in enumerate(self.tables):
            bit = 1 << k
            for table in tables:
                for a in table:
                    row, kinds = mask[a], category[a]
                    if any(b != a and (kinds[b] or row[b] & (bit - 1)) for b in table):
                        found.append((k, a))
                    elif any(b != a and row[b] != bit for b in table):
                        found.append((k, a))  # meets b again in a later round
                self.work += len(table) * len(table)
        return found

    def delta(self, k: int, a: int, b: int) -> int:
        bit = 1 << k
        tables, where = self.tables[k], self.where[k]
        first, second = tables[where[a]], tables[where[b]]
        mask, category, table = self.mask, self.category, self.table
        row_a, row_b, kind_a, kind_b = mask[a], mask[b], category[a], category[b]
        change = 0
        for x in first:
            if x != a:
                m, kind = row_a[x], table[kind_a[x]]
                change += kind[m ^ bit] - kind[m]
                m, kind = row_b[x], table[kind_b[x]]
                change += kind[m | bit] - kind[m]
        for y in second:
            if y != b:
                m, kind = row_b[y], table[kind_b[y]]
                change += kind[m ^ bit] - kind[m]
                m, kind = row_a[y], table[kind_a[y]]
                change += kind[m | bit] - kind[m]
        self.work += 4 * (len(first) + len(second))
        return change

    def swap(self, k: int, a: int, b: int, change: int) -> None:
        bit = 1 << k
        tables, where = self.tables[k], self.where[k]
        ta, tb = where[a], where[b]
        first, second = tables[ta], tables[tb]
        mask = self.mask
        for x in first:
            if x != a:
                mask[a][x] ^= bit
                mask[x][a] ^= bit
                mask[b][x] |= bit
                mask[x][b] |= bit
        for y in second:
            if y != b:
                mask[b][y] ^= bit
                mask[y][b] ^= bit
                mask[a][y] |= bit
                mask[y][a] |= bit
        first[first.index(a)] = b
        second[second.index(b)] = a
        where[a], where[b] = tb, ta
        self.cost += change

    def snapshot(self) -> list[list[list[int]]]:
        return [[list(table) for table in tables] for tables in self.tables]


def _random_round(
    n: int, sizes: Sequence[int], pins: Sequence[int], short: int | None, rng: random.Random
) -> list[list[int]]:
    """A seeded random round; with pins, the must-short players at the short tables first."""
    order = list(range(n))
    rng.shuffle(order)
    if short is not None and any(pins):
        order.sort(key=lambda a: -pins[a])  # stable: must-short, either, must-long
        short_tables = [number for number, size in enumerate(sizes) if size == short]
        long_tables = [number for number, size in enumerate(sizes) if size != short]
        seats = [number for number in short_tables for _ in range(sizes[number])]
        seats += [number for number in long_tables for _ in range(sizes[number])]
        tables: list[list[int]] = [[] for _ in sizes]
        for a, number in zip(order, seats, strict=True):
            tables[number].append(a)
        return tables
    result: list[list[int]] = []
    start = 0
    for size in sizes:
        result.append(order[start : start + size])
        start += size
    return result


def plan_schedule(
    n: int,
    sizes: Sequence[int],
    horizon: int,
    met: Sequence[Sequence[int]],
    last: Sequence[Sequence[int]],
    rng: random.Random,
    *,
    clubs: Sequence[int] | None = None,
    pins: Sequence[int] | None = None,
    short: int | None = None,
    work_limit: int = LOOKAHEAD_WORK,
    initial: Callable[[int], list[list[list[int]]]] | None = None,
) -> Schedule:
    """Plan ``horizon`` rounds of players ``0..n-1`` at tables of ``sizes`` with few repeats.

    ``met[a]`` lists the players a met before (the last round's partners
    ``last[a]`` included); ``clubs[a]`` is a's club number (-1: none), where
    same-club pairs must be kept apart (they weigh above every repeat). Round 0
    (the one the caller seats) honours ``pins``: with a ``short`` table size,
    ``pins[a]`` = 1 puts a at a short table, -1 at a long one, 0 either.

    The objective sums, over the planned rounds, every pair sitting together
    that met before (in the history or an earlier planned round), a round k
    weighing ``horizon - k`` (the rounds seated sooner matter more), and every
    same-club pair at ``CLUB_COST`` times that weight. Start: ``_start_rounds``;
    then ``_tabu_search``. Stops at cost 0 or after ``work_limit`` lookups.
    Deterministic for the same inputs and ``rng`` state.
    """
    if horizon < 1 or horizon > MAX_HORIZON:
        raise ValueError(f"horizon {horizon} outside 1..{MAX_HORIZON}")
    pins = list(pins) if pins is not None else [0] * n
    club_of = list(clubs) if clubs is not None else [-1] * n
    met_sets = [set(row) | set(last[a]) for a, row in enumerate(met)]
    category = _category(n, met_sets, club_of)
    rounds, work = _start_rounds(n, sizes, horizon, last, category, rng, pins, short, work_limit, initial)
    search = _Search(n, sizes, horizon, category, pins, short, rounds)
    search.work = work
    best, spent = _tabu_search(search, rng, work_limit)
    return Schedule(
        rounds=tuple(tuple(tuple(table) for table in tables) for tables in best),
        repeat_free=repeat_free_prefix(best, [sorted(row) for row in met_sets]),
        work=spent,
    )


def _start_rounds(
    n: int,
    sizes: Sequence[int],
    horizon: int,
    last: Sequence[Sequence[int]],
    category: list[list[int]],
    rng: random.Random,
    pins: Sequence[int],
    short: int | None,
    work_limit: int,
    initial: Callable[[int], list[list[list[int]]]] | None,
) -> tuple[list[list[list[int]]], int]:
    """The start of ``plan_schedule``'s search and the work it cost: the cheapest classes of a
    known design relabelled to avoid the history (uniform tables only, ``design_classes``: first
    an exact embedding, ``_embed_exactly``, then a tabu search, ``_embed_design``), else the
    caller's ``initial`` schedule (given half the work; ``seating`` seats the rounds one by one
    there), else seeded random rounds (round 0 honouring the pins)."""
    work = 0
    rounds: list[list[list[int]]] | None = None
    uniform = len(set(sizes)) == 1
    design = design_classes(n, sizes[0]) if uniform else None
    if design is not None and len(design) >= horizon:
        rounds, work = _embed_exactly(design, n, category, horizon, rng, work_limit // 2)
    if design is not None and len(design) >= horizon and rounds is None:
        start = list(range(n))
        rng.shuffle(start)
        tables = _last_round_tables(n, last, sizes[0]) if any(last) else None
        if tables is not None:
            # Put the last round onto the design's first class: every other class then avoids it.
            for block, table in zip(design[0], tables, strict=True):
                for point, player in zip(block, table, strict=True):
                    start[point] = player
        rounds, spent = _embed_design(design, n, category, horizon, start, rng, work_limit // 4)
        work += spent
    if rounds is None and initial is not None:
        # The caller's round-by-round seating, given half the work (it counts its own).
        rounds = initial(work_limit // 2)
        work = work_limit // 2
    if rounds is None:
        rounds = [_random_round(n, sizes, pins if k == 0 else [0] * n, short, rng) for k in range(horizon)]
    return rounds, work


def _tabu_search(search: _Search, rng: random.Random, work_limit: int) -> tuple[list[list[list[int]]], int]:
    """Tabu search from ``search``'s rounds: each step picks a random (round, player) in conflict
    and makes the best swap with a player at another table of that round that is not tabu (a
    swapped pair is tabu for 4-13 steps unless the swap beats the best), restarting from the best
    schedule with a few random swaps after a long stall. Returns the best rounds and the work."""
    best_cost, best = search.cost, search.snapshot()
    tabu: dict[tuple[int, int, int], int] = {}
    iteration = stall = 0
    while best_cost > 0 and search.work < work_limit:
        iteration += 1
        candidates = search.conflicting()
        if not candidates:
            break
        k, a = candidates[rng.randrange(len(candidates))]
        best_change, moves = _best_swaps(search, k, a, tabu, iteration, best_cost)
        if best_change is None:
            continue
        b = moves[rng.randrange(len(moves))]
        search.swap(k, a, b, best_change)
        tabu[(k, min(a, b), max(a, b))] = iteration + 4 + rng.randrange(10)
        if search.cost < best_cost:
            best_cost, best, stall = search.cost, search.snapshot(), 0
            continue
        stall += 1
        if stall > 40 * search.n:
            stall = 0
            search = _shaken(search, best, rng)
    return best, search.work


def _best_swaps(
    search: _Search, k: int, a: int, tabu: dict[tuple[int, int, int], int], iteration: int, best_cost: int
) -> tuple[int | None, list[int]]:
    """The least change a swap of ``a`` in round ``k`` makes, and the partners making it (None and
    none when every partner is barred by the pins or tabu)."""
    mine = search.where[k][a]
    best_change: int | None = None
    moves: list[int] = []
    for number, table in enumerate(search.tables[k]):
        if number == mine or not search.allowed(k, a, number):
            continue
        for b in table:
            if not search.allowed(k, b, mine):
                continue
            change = search.delta(k, a, b)
            if tabu.get((k, min(a, b), max(a, b)), 0) > iteration and search.cost + change >= best_cost:
                continue
            if best_change is None or change < best_change:
                best_change, moves = change, [b]
            elif change == best_change:
                moves.append(b)
    return best_change, moves


def _shaken(search: _Search, best: list[list[list[int]]], rng: random.Random) -> _Search:
    """After a long stall: a new search from the best schedule, shaken by a few random swaps."""
    n, horizon = search.n, search.horizon
    spent = search.work
    search = _Search(n, search.sizes, horizon, search.category, search.pins, search.short, best)
    search.work = spent + n * n
    for _ in range(3):
        k = rng.randrange(horizon)
        a, b = rng.sample(range(n), 2)
        ta, tb = search.where[k][a], search.where[k][b]
        if ta != tb and search.allowed(k, a, tb) and search.allowed(k, b, ta):
            search.swap(k, a, b, search.delta(k, a, b))
    return search
