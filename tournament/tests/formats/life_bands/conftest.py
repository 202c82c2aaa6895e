"""Fixtures of the life-bands tests shared by several modules (the half tracker's)."""

from __future__ import annotations

import pytest

from tournament import enums, simulation
from tournament.formats.life_bands import services as life_bands
from tournament.models import Table, Tournament


@pytest.fixture
def table_of_four() -> tuple[Tournament, Table, list[int]]:
    """A main-round table of four, its players in seat order."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=11)
    rnd = life_bands.start_main_round(tournament=tournament, actor=None, seed=11)
    assert rnd is not None
    table = rnd.tables.get()
    return tournament, table, list(table.seats.order_by("position").values_list("player_id", flat=True))
