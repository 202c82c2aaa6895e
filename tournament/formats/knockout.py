"""Format A: knockout tables, a lucky-loser round and a points final.

Source: the underwater UNO championship rules (rules/README.md, format A).
A table is won by the first player to win ``wins_needed`` games (fewer at the
largest table size); places 2-4 follow games won, then the lower start number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournament.formats.base import FormatError, FormatSpec

SPEC = FormatSpec(
    slug="knockout",
    stages=("main", "lucky_loser", "final"),
    min_players=3,
    settings_used=(
        "table_size",
        "table_size_max",
        "wins_needed",
        "wins_needed_large_table",
        "final_size",
        "final_points_target",
        "scoring_table",
    ),
)


def wins_needed_at(table_size: int, *, wins_needed: int, wins_needed_large_table: int, largest: int) -> int:
    """Games a player must win to take a table of ``table_size`` players.

    The rules: three games, two at a four-player table (the largest size).
    """
    if table_size < 2:
        raise FormatError("table_too_small", size=table_size)
    return wins_needed_large_table if table_size >= largest and largest > 2 else wins_needed


def table_places(wins: Mapping[int, int], start_numbers: Mapping[int, int]) -> list[int]:
    """Player ids in table order: most games won first, then lower start number.

    ``wins`` maps player id to games won; ``start_numbers`` player id to start number.
    """
    return sorted(wins, key=lambda pid: (-wins[pid], start_numbers[pid]))


def table_winner(wins: Mapping[int, int], needed: int) -> int | None:
    """The player id that reached ``needed`` wins, if any."""
    reached: Sequence[int] = [pid for pid, count in wins.items() if count >= needed]
    return reached[0] if reached else None
