"""Short-table fairness: the seats at the short tables go to the players who sat short
least often, then a bounded polish wins back the repeats the repair cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tournament.seating.linear import LINEAR_PASSES
from tournament.seating.pairs import _cost_at, club_conflicts, table_pairs

#: Suffix of ``algorithm`` when short-table history moved players (``_spread_short_tables``).
SHORT_FAIR_SUFFIX = "+short-fair"
#: Suffix after ``SHORT_FAIR_SUFFIX`` when a fair shuffle seated better than the repaired search.
SHUFFLE_SUFFIX = "+shuffle"
#: Tables each repeated player looks at when polishing after the short-table repair.
POLISH_TABLES = 150


def short_size(sizes: Sequence[int], preferred: int) -> int | None:
    """The table size that counts as "short" in a round of ``sizes``, or None if all are equal.

    The size holding fewer seats (the minority side: the 3-player tables among
    4-player ones, or the 4-player ones among 3-player ones); on a tie the size
    other than ``preferred``.
    """
    seats: dict[int, int] = {}
    for size in sizes:
        seats[size] = seats.get(size, 0) + size
    if len(seats) < 2:
        return None
    return min(seats, key=lambda size: (seats[size], size == preferred, size))


def short_table_spread(tables: Iterable[Iterable[int]], short: int | None, history: Mapping[int, int]) -> int:
    """Max minus min short-table seats among the players of ``tables``, this round included."""
    counts: dict[int, int] = {}
    for table in tables:
        seated = list(table)
        for pid in seated:
            counts[pid] = history.get(pid, 0) + (1 if len(seated) == short else 0)
    return max(counts.values()) - min(counts.values()) if counts else 0


def _seating_cost(
    tables: Iterable[Iterable[int]],
    counts: Mapping[frozenset[int], int],
    last: set[frozenset[int]],
    apart: Mapping[int, str] | None,
) -> tuple[int, int, int, int]:
    """What ``seat_avoiding_repeats`` minimises, in order: club mates at one table (when kept
    apart), repeated pairs, of them from the last round, their earlier meetings in total."""
    pairs = table_pairs(tables)
    repeated = [pair for pair in pairs if pair in counts]
    return (
        club_conflicts(tables, apart) if apart else 0,
        len(repeated),
        sum(1 for pair in repeated if pair in last),
        sum(counts[pair] for pair in repeated),
    )


def _spread_short_tables(
    tables: list[list[int]],
    short: int,
    history: Mapping[int, int],
    met: Mapping[int, Mapping[int, int]],
    apart: Mapping[int, str] | None = None,
    pinned: frozenset[int] = frozenset(),
) -> bool:
    """Move the short-table seats to the players with the fewest so far; True if anything moved.

    ``pinned`` players (fixed seats) never move: the fairness yields to them.

    With ``S`` short seats, let ``c`` be the ``S``-th smallest count: players
    below ``c`` must sit short, players above ``c`` must not. Each violator
    swaps with an allowed partner on the other side (one always exists, by
    counting), chosen to add the fewest repeated pairs (``met`` weights); a
    swap never makes its partner a violator, so this ends after at most one
    swap per violator. Repeated over rounds, nobody sits short twice before
    everyone has once (the spread of counts stays at most 1). With ``apart``
    (club by id), club mates at one table cost ``_CLUB_WEIGHT`` too.
    """
    short_players = [pid for table in tables if len(table) == short for pid in table]
    if not short_players:
        return False
    counts = sorted(history.get(pid, 0) for table in tables for pid in table)
    threshold = counts[len(short_players) - 1]
    where = {pid: index for index, table in enumerate(tables) for pid in table}

    moved = False
    for pid in sorted(where):
        if pid in pinned:
            continue
        count = history.get(pid, 0)
        at_short = len(tables[where[pid]]) == short
        if (at_short and count <= threshold) or (not at_short and count >= threshold):
            continue  # allowed where it sits
        best = _fair_partner(pid, tables, short, threshold, history, met, where, apart, pinned)
        if best is None:
            continue
        mine, theirs = where[pid], where[best]
        tables[mine][tables[mine].index(pid)] = best
        tables[theirs][tables[theirs].index(best)] = pid
        where[pid], where[best] = theirs, mine
        moved = True
    if moved:
        _polish_fairly(tables, short, threshold, history, met, where, apart, pinned)
    return moved


def _fair_partner(
    pid: int,
    tables: list[list[int]],
    short: int,
    threshold: int,
    history: Mapping[int, int],
    met: Mapping[int, Mapping[int, int]],
    where: dict[int, int],
    apart: Mapping[int, str] | None,
    pinned: frozenset[int],
) -> int | None:
    """The player on the other side (short or long) allowed to take ``pid``'s seat whose swap
    with ``pid`` adds the least cost (the lowest id on a tie), or None if nobody may."""

    def cost(pid: int, table: int, without: int) -> int:
        return _cost_at(pid, tables[table], without, met, apart)

    at_short = len(tables[where[pid]]) == short
    partners = [
        other
        for other in sorted(where)
        if (len(tables[where[other]]) == short) != at_short
        and (history.get(other, 0) >= threshold if not at_short else history.get(other, 0) <= threshold)
        and other not in pinned
    ]
    if not partners:
        return None
    mine = where[pid]
    here = cost(pid, mine, pid)
    return min(
        partners,
        key=lambda other: (
            cost(pid, where[other], other) + cost(other, mine, pid) - here - cost(other, where[other], other)
        ),
    )


def _polish_fairly(
    tables: list[list[int]],
    short: int,
    threshold: int,
    history: Mapping[int, int],
    met: Mapping[int, Mapping[int, int]],
    where: dict[int, int],
    apart: Mapping[int, str] | None = None,
    pinned: frozenset[int] = frozenset(),
) -> None:
    """Best-improvement swaps for players with a repeat, keeping the short seats fair.

    The repair of ``_spread_short_tables`` ignores the seating's other
    constraints; this wins back what it cost. A player may move to a short
    table only with at most ``threshold`` short seats so far, to a long one
    only with at least ``threshold``. Each player looks at the next
    ``POLISH_TABLES`` tables (in table order, so the result is deterministic),
    for at most ``LINEAR_PASSES`` passes: bounded, linear work.
    """

    def cost(pid: int, table: int, without: int) -> int:
        return _cost_at(pid, tables[table], without, met, apart)

    def allowed(pid: int, at_short: bool) -> bool:
        count = history.get(pid, 0)
        return count <= threshold if at_short else count >= threshold

    count = len(tables)
    for _ in range(LINEAR_PASSES):
        improved = False
        for pid in sorted(where):
            if pid in pinned:
                continue
            mine = where[pid]
            here = cost(pid, mine, pid)
            if here == 0:
                continue
            mine_short = len(tables[mine]) == short
            best_delta, best = 0, -1
            for step in range(1, min(count, POLISH_TABLES + 1)):
                other_table = (mine + step) % count
                other_short = len(tables[other_table]) == short
                if other_short != mine_short and not allowed(pid, other_short):
                    continue
                for other in tables[other_table]:
                    if other in pinned or (other_short != mine_short and not allowed(other, mine_short)):
                        continue
                    delta = (
                        cost(pid, other_table, other) + cost(other, mine, pid) - here - cost(other, other_table, other)
                    )
                    if delta < best_delta:
                        best_delta, best = delta, other
            if best >= 0:
                theirs = where[best]
                tables[mine][tables[mine].index(pid)] = best
                tables[theirs][tables[theirs].index(best)] = pid
                where[pid], where[best] = theirs, mine
                improved = True
        if not improved:
            break
