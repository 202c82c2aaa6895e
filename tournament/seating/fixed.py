"""Fixed seats: a player kept at one table number (wheelchair, hearing, sight), and the
seats a round could not keep.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

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
        moved += _move_to(target, members, seated, where, kept, counts, club_of)
    unkept.sort(key=lambda seat: (seat.number, seat.player))
    return FixedPlacement(
        tables=tuple(tuple(table) for table in seated), numbers=tuple(numbers), unkept=tuple(unkept), moved=moved
    )


def _move_to(
    target: int,
    members: Sequence[int],
    seated: list[list[int]],
    where: dict[int, int],
    kept: set[int],
    counts: Mapping[frozenset[int], int],
    club_of: Mapping[int, str],
) -> int:
    """Swap each of ``members`` not yet at table ``target`` with a player there who is not
    ``kept``: the one whose move adds the fewest pairs who met (then club mates, weighted above
    any repeat; then the lowest id). Returns the swaps made."""

    def cost(pid: int, table: int, without: int) -> int:
        total = 0
        for other in seated[table]:
            if other in (pid, without):
                continue
            total += counts.get(frozenset((pid, other)), 0) * (1 << 20)
            if club_of.get(pid) and club_of.get(pid) == club_of.get(other):
                total += 1 << 40
        return total

    moved = 0
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
    return moved
