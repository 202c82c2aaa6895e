"""Format C: fewest penalty points over re-seated rounds.

Source: the Italian club tournament (rules/README.md, format C). Every round
seats all checked-in players; after each game every player still holding cards
takes their value as penalty points; the fewest points over all games wins.
"""

from __future__ import annotations

from tournament.formats.base import FormatSpec

SPEC = FormatSpec(
    slug="points",
    stages=("main",),
    min_players=3,
    settings_used=(
        "table_size",
        "table_size_max",
        "rounds_planned",
        "games_per_round",
        "round_time_limit_minutes",
        "scoring_table",
    ),
)
