"""Every format by its stable slug (the value stored in ``Tournament.format``).

Adding a format: write its package (``tournament/formats/<slug>/``: rules,
services, reads, plugin, its templates under ``templates/formats/<slug>/``) and
add its record to ``FORMATS`` below.
"""

from __future__ import annotations

from tournament.formats.knockout.plugin import FORMAT as KNOCKOUT
from tournament.formats.life_bands.plugin import FORMAT as LIFE_BANDS
from tournament.formats.points.plugin import FORMAT as POINTS
from tournament.formats.record import Format
from tournament.models import Tournament

FORMATS: dict[str, Format] = {record.slug: record for record in (KNOCKOUT, LIFE_BANDS, POINTS)}


def get(slug: str) -> Format:
    """The record of the format ``slug`` (KeyError for an unknown one)."""
    return FORMATS[slug]


def of(tournament: Tournament) -> Format:
    """The record of the tournament's format."""
    return FORMATS[tournament.format]


def for_game(game: str) -> list[Format]:
    """The formats a game is played with."""
    return [record for record in FORMATS.values() if game in record.games]
