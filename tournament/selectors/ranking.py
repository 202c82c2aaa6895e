"""The ranking of any tournament: one ``Standing`` row per player, whatever the format.

The ranking page, the CSV export, ``api.json``, the projector and the phone page
all read it here; each format computes it in its ``reads.ranking`` and names
the columns it fills (``Format.ranking_columns``).

Reading pages take the rows from ``rows``: computed once per tournament version and
language and kept in the shared cache (at 5,000 players the computation takes a second
or more; the ranking page, the CSV, the print pack, the projector and the phones then
share it). Writes that compare rankings (``play.corrections``) compute their own.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import get_language, gettext_lazy

from tournament import enums
from tournament.formats import registry
from tournament.formats.record import OPTIONAL_COLUMNS, RANKING_COLUMNS, TEXT_COLUMNS, Label, Standing
from tournament.models import Tournament

STANDINGS_TITLE = gettext_lazy("Standings")
COLUMN_LABELS: dict[str, Label] = {
    "reached": gettext_lazy("Reached"),
    "final_points": gettext_lazy("Points in the final"),
    "points": gettext_lazy("Penalty points"),
    "games_won": gettext_lazy("Games won"),
    "games_played": gettext_lazy("Games played"),
    "best_round": gettext_lazy("Best round"),
    "duel": gettext_lazy("Duel"),
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
    # The rules the ranking follows, in sentences (``Format.ranking_notes``).
    notes: tuple[str, ...] = ()

    def table(self) -> list[tuple[Standing, list[tuple[Column, object]]]]:
        """Each row with its cells in column order (``None`` where a row has no value)."""
        return [(row, [(column, getattr(row, column.key)) for column in self.columns]) for row in self.rows]


# The shared cache's keys of ranking rows (a new prefix when what a row holds changes shape:
# 4 since a row holds the final's points and the duel).
KEY_PREFIX = "ranking4:"
# As long as the rendered public pages (``tournament.renderings.KEEP_SECONDS``).
KEEP_SECONDS = 60 * 60
# The rows last read in this process, by key: reading 5,000 rows back from the cache (unpickling
# 5,000 players) took 0.2 s, as long as the rest of the ranking page. A key names one version, so
# what is kept here can never be stale; it is used while the shared cache still holds the key (a
# cheap existence check: a cleared or evicted entry is computed again, as without this). The rows
# are frozen (``Standing``) and each caller gets its own list.
_IN_PROCESS: OrderedDict[str, list[Standing]] = OrderedDict()
_IN_PROCESS_MAX = 4


def rows(tournament: Tournament) -> list[Standing]:
    """The format's ranking of ``tournament`` at its version, in the active language.

    Kept in the shared cache under the tournament's id, public key and version (every write
    that can change a place, a name or a column bumps the version: ``writes.bump``; the key
    also names the public key so that a reused id never finds another tournament's rows)
    and the language (the "reached" words are translated as they are computed). A key
    never holds rows older than its version: ``tournament`` was read before the rows were.
    Each row's ``player`` is a ``RankedPlayer`` (the formats read plain rows, not models).
    """
    key = f"{KEY_PREFIX}{tournament.pk}:{tournament.public_key}:{tournament.version}:{get_language()}"
    kept = _IN_PROCESS.get(key)
    if kept is not None and not cache.has_key(key):
        kept = None
    if kept is None:
        cached = cache.get(key)
        if isinstance(cached, list):
            kept = cached
        else:
            kept = registry.of(tournament).ranking(tournament)
            cache.set(key, kept, KEEP_SECONDS)
        _IN_PROCESS[key] = kept
        while len(_IN_PROCESS) > _IN_PROCESS_MAX:
            _IN_PROCESS.popitem(last=False)  # the oldest key first (no reordering: threads share it)
    return list(kept)


def ranking(tournament: Tournament, *, skip_empty: bool = False) -> Ranking:
    """The rows (``rows``), the format's columns and its title.

    With ``skip_empty`` (the page and the printout, not the CSV, whose columns stay the same)
    a column that only some tournaments fill (``record.OPTIONAL_COLUMNS``) is left out where no
    row has anything in it: "reached" in a points tournament without late arrivals, pauses or
    withdrawals, the final's points in a final to wins, the duel where no tie needed one. Its
    width goes to the names."""
    fmt = registry.of(tournament)
    standings = rows(tournament)
    keys = [key for key in RANKING_COLUMNS if key in fmt.ranking_columns]
    if skip_empty:
        keys = [
            key
            for key in keys
            if key not in OPTIONAL_COLUMNS or any(getattr(row, key) not in (None, "") for row in standings)
        ]
    columns = [Column(key=key, label=COLUMN_LABELS[key], numeric=key not in TEXT_COLUMNS) for key in keys]
    # While play goes on the rows are standings, not the final ranking the format's title names.
    finished = tournament.status == enums.TournamentStatus.FINISHED
    return Ranking(
        rows=standings,
        columns=columns,
        title=fmt.ranking_title if finished else STANDINGS_TITLE,
        notes=tuple(fmt.ranking_notes(tournament)),
    )
