"""Format B: life bands and chips with a consolation round and a grand final.

Source: the Schocken tournament rules (rules/README.md, format B). At a table
of 4, two players go out; at a table of 3, one does. A player who hands in
their last chip has a life band cut.
"""

from __future__ import annotations

from tournament.formats.base import FormatError, FormatSpec

SPEC = FormatSpec(
    slug="life_bands",
    stages=("main", "consolation", "grand_final"),
    min_players=4,
    settings_used=(
        "table_size",
        "table_size_max",
        "life_bands",
        "chips_per_table",
        "chips_grand_final",
        "sharp_play_minutes",
    ),
)

GRAND_FINAL_SIZE = 4


def players_out_at(table_size: int) -> int:
    """How many players leave a table before it is decided: 2 at 4+, 1 at 3."""
    if table_size < 2:
        raise FormatError("table_too_small", size=table_size)
    return 2 if table_size >= 4 else 1


def table_decided(table_size: int, players_out: int) -> bool:
    return players_out >= players_out_at(table_size)
