"""The seeded draw of a round (knockout, life bands): shuffle and cut, or deal clubs
round-robin across the tables and let the swap search part the club mates left.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tournament.seating.pairs import _check_unique, _club_lower_bound, club_conflicts
from tournament.seating.plan import SeatingPlan, SeatingPlayer
from tournament.seating.sizes import table_sizes
from tournament.seating.swaps import DEFAULT_WORK_LIMIT, GIVE_UP, _improve

#: Plain seeded draw: shuffle the sorted ids, cut into tables of ``table_sizes``.
SEATING_ALGORITHM = "balanced-shuffle-v1"
#: Seeded draw dealing clubs round-robin across tables, then bounded swaps.
CLUBS_APART_ALGORITHM = "clubs-apart-v1"


def _sorted_players(players: Iterable[SeatingPlayer]) -> list[SeatingPlayer]:
    ordered = sorted(players, key=lambda player: player.id)
    _check_unique([player.id for player in ordered])
    return ordered


def _split_into_tables(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """``order`` cut into consecutive tables of ``sizes`` players, in that order."""
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


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
        tables = _split_into_tables([player.id for player in ordered], sizes)
        return SeatingPlan(
            tables=tuple(tuple(table) for table in tables),
            seed=seed,
            algorithm=SEATING_ALGORITHM,
            club_conflicts=club_conflicts(tables, clubs),
        )

    dealt = _deal_clubs_apart(ordered, sizes, rng, work_limit)
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


def _deal_clubs_apart(
    ordered: Sequence[SeatingPlayer], sizes: Sequence[int], rng: random.Random, work_limit: int
) -> list[list[int]]:
    """The shuffled players grouped by club (clubs in order of their first member, players
    without a club last), dealt round-robin across the tables; then the swap search parts the
    club mates left above the even spread (``CLUBS_APART_ALGORITHM``)."""
    clubs = {player.id: player.club for player in ordered}
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
    return dealt
