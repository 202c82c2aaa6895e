"""Every dry run ends with a complete ranking, for every field from 3 to 60 players
(issue 12, item 7): where a count does not split into tables the dry run takes the
first option the format offers, as ``simulate_tournament`` does.

``make test`` plays the counts where something changes (the smallest fields, the
first that do not split into tables of 3-4, the largest); ``make dry-runs`` plays
every count (marked ``sweep``: 116 whole tournaments through the services, about
11 minutes on one core, too long for every run of the suite).
"""

from __future__ import annotations

import pytest

from tournament import enums, simulation
from tournament.formats import registry

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

# Where the seating or the plan changes at the default table sizes of 3 to 4.
CHANGES = [3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 17, 23, 60]


def counts(changes: list[int], most: int = 60) -> list[object]:
    """Every count from 3 to ``most``: ``changes`` in every run of the suite, the rest in the sweep."""
    return [pytest.param(n, id=str(n), marks=() if n in changes else (pytest.mark.sweep,)) for n in range(3, most + 1)]


@pytest.mark.parametrize("fmt", [enums.Format.POINTS, enums.Format.LIFE_BANDS])
@pytest.mark.parametrize("players", counts(CHANGES))
def test_the_dry_run_ends_with_a_complete_ranking(fmt: str, players: int) -> None:
    tournament = simulation.create_field(fmt=fmt, players=players, seed=players)
    simulation.simulate(tournament, seed=players)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    ranking = registry.of(tournament).ranking(tournament)
    assert sorted(row.place for row in ranking) == list(range(1, players + 1))
    assert len({row.player.pk for row in ranking}) == players
