"""The ranking of any tournament: one ``Standing`` row per player, whatever the format.

The ranking page, the CSV export, ``api.json``, the projector and the phone page
all read it here; each format computes it in its ``reads.ranking`` and names
the columns it fills (``Format.ranking_columns``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from tournament.formats import registry
from tournament.formats.record import RANKING_COLUMNS, Label, Standing
from tournament.models import Tournament

COLUMN_LABELS: dict[str, Label] = {
    "reached": gettext_lazy("Reached"),
    "points": gettext_lazy("Penalty points"),
    "games_won": gettext_lazy("Games won"),
    "games_played": gettext_lazy("Games played"),
    "best_round": gettext_lazy("Best round"),
}


@dataclass(frozen=True)
class Column:
    key: str
    label: Label
    numeric: bool


@dataclass(frozen=True)
class Ranking:
    """The rows, the format's columns and the page's title."""

    rows: list[Standing]
    columns: list[Column]
    title: Label

    def table(self) -> list[tuple[Standing, list[tuple[Column, object]]]]:
        """Each row with its cells in column order (``None`` where a row has no value)."""
        return [(row, [(column, getattr(row, column.key)) for column in self.columns]) for row in self.rows]


def ranking(tournament: Tournament) -> Ranking:
    fmt = registry.of(tournament)
    columns = [
        Column(key=key, label=COLUMN_LABELS[key], numeric=key != "reached")
        for key in RANKING_COLUMNS
        if key in fmt.ranking_columns
    ]
    return Ranking(rows=fmt.ranking(tournament), columns=columns, title=fmt.ranking_title)
