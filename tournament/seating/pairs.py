"""Pairs of players: who shares a table, who met before, club mates; the lexicographic
weights the searches minimise (a club pair above a repeat above a last-round repeat above
how often the pair met).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

from tournament.seating.plan import SeatingPlayer

# Lexicographic weights of a pair that sits together again: any repeated pair
# outweighs every repeat from the last round, which outweighs the tie-breaker
# (how often the pair met before). Python ints do not overflow.
_REPEAT_WEIGHT = 1 << 60
#: With ``keep_clubs_apart``: a same-club pair at one table outweighs any number of repeats
#: (the organiser's choice: club mates meet every week anyway).
_CLUB_WEIGHT = 1 << 80
_LAST_ROUND_WEIGHT = 1 << 40
_MET_WEIGHT = 1 << 20


Pair = frozenset[int]


MetInput = Mapping[frozenset[int], int] | Iterable[Iterable[int]]


def table_pairs(tables: Iterable[Iterable[int]]) -> set[frozenset[int]]:
    """Every pair of players who share a table."""
    pairs: set[frozenset[int]] = set()
    for table in tables:
        seated = sorted(set(table))
        for index, first in enumerate(seated):
            for second in seated[index + 1 :]:
                pairs.add(frozenset((first, second)))
    return pairs


def _met_counts(met: MetInput) -> dict[frozenset[int], int]:
    """Normalise ``met`` (pair -> count mapping, or pairs) to pair -> count >= 1."""
    counts: dict[frozenset[int], int] = {}
    if isinstance(met, Mapping):
        for pair, count in met.items():
            key = frozenset(pair)
            if len(key) == 2 and count > 0:
                counts[key] = counts.get(key, 0) + int(count)
    else:
        for raw in met:
            key = frozenset(raw)
            if len(key) == 2:
                counts[key] = counts.get(key, 0) + 1
    return counts


def count_repeated_pairs(tables: Iterable[Iterable[int]], met: MetInput) -> int:
    """How many pairs sharing a table in ``tables`` already met.

    ``met`` is a mapping pair -> times met (pairs with a count of 0 did not
    meet) or an iterable of pairs. Each pair counts once however often it met.
    """
    counts = _met_counts(met)
    return sum(1 for pair in table_pairs(tables) if pair in counts)


def repeat_free_run(rounds: Iterable[Iterable[Iterable[int]]]) -> int:
    """How many leading rounds (tables of player ids, oldest first) hold no pair that sat
    together in an earlier round."""
    seen: set[frozenset[int]] = set()
    count = 0
    for tables in rounds:
        pairs = table_pairs(tables)
        if pairs & seen:
            break
        seen |= pairs
        count += 1
    return count


def add_meetings(met: Mapping[frozenset[int], int], tables: Iterable[Iterable[int]]) -> dict[frozenset[int], int]:
    """A new pair -> times-met mapping: ``met`` plus every pair of ``tables``."""
    counts = dict(met)
    for pair in table_pairs(tables):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def club_conflicts(tables: Iterable[Iterable[int]], clubs: Mapping[int, str]) -> int:
    """Pairs of players of the same non-empty club sharing a table."""
    total = 0
    for table in tables:
        per_club: dict[str, int] = {}
        for pid in table:
            club = clubs.get(pid, "")
            if club:
                per_club[club] = per_club.get(club, 0) + 1
        total += sum(count * (count - 1) // 2 for count in per_club.values())
    return total


def _check_unique(sorted_ids: Sequence[int]) -> None:
    for first, second in itertools.pairwise(sorted_ids):
        if first == second:
            raise ValueError(f"player {first} given twice")


def _club_lower_bound(club_sizes: Iterable[int], table_count: int) -> int:
    """Same-club pairs if every club were spread as evenly as possible (ignores capacities)."""
    total = 0
    for size in club_sizes:
        share, rest = divmod(size, table_count)
        total += rest * (share + 1) * share // 2 + (table_count - rest) * share * (share - 1) // 2
    return total


def _player_id(player: SeatingPlayer | int) -> int:
    return player.id if isinstance(player, SeatingPlayer) else int(player)


def _cost_at(
    pid: int,
    members: Sequence[int],
    without: int,
    met: Mapping[int, Mapping[int, int]],
    apart: Mapping[int, str] | None,
) -> int:
    """What ``pid`` pays at a table of ``members`` (``without`` left out): met weights,
    plus ``_CLUB_WEIGHT`` per club mate when clubs are kept ``apart``."""
    row = met.get(pid, {})
    total = sum(row.get(other, 0) for other in members if other != pid and other != without)
    if apart:
        club = apart.get(pid, "")
        if club:
            mates = sum(1 for other in members if other != pid and other != without and apart.get(other) == club)
            total += _CLUB_WEIGHT * mates
    return total


def _club_numbers(ids: Sequence[int], apart: Mapping[int, str] | None) -> list[int] | None:
    """Per player index a number for the club (-1: none), for the schedule searches; None when
    clubs are not kept apart."""
    if apart is None:
        return None
    numbered = {club: number for number, club in enumerate(sorted(set(apart.values())))}
    return [numbered[apart[pid]] if pid in apart else -1 for pid in ids]
