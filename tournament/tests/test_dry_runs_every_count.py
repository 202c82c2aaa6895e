"""Every dry run ends with a complete ranking, for every field from 3 to 60 players (life
bands: to 120) (issue 12, item 7): where a count does not split into tables the dry run takes
the first option the format offers, as ``simulate_tournament`` does. On the way no two tables
with the same number are in play at once, and the life bands' grand final gives every place
(issue 27).

``make test`` plays the counts where something changes (the smallest fields, the
first that do not split into tables of 3-4, the largest); ``make dry-runs`` plays
every count (marked ``sweep``: 116 whole tournaments through the services, about
11 minutes on one core, too long for every run of the suite).
"""

from __future__ import annotations

import pytest

from tournament import enums, simulation
from tournament.formats import registry
from tournament.models import Table, Tournament
from tournament.tests.helpers import assert_places_ranked

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

# Where the seating or the plan changes at the default table sizes of 3 to 4.
CHANGES = [3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 17, 23, 60]


def counts(changes: list[int], most: int = 60) -> list[object]:
    """Every count from 3 to ``most``: ``changes`` in every run of the suite, the rest in the sweep."""
    return [pytest.param(n, id=str(n), marks=() if n in changes else (pytest.mark.sweep,)) for n in range(3, most + 1)]


@pytest.mark.parametrize(
    ("fmt", "players"),
    [
        pytest.param(enums.Format.POINTS, *param.values, marks=param.marks, id=f"points-{param.id}")
        for param in counts(CHANGES)
    ]
    + [
        pytest.param(enums.Format.LIFE_BANDS, *param.values, marks=param.marks, id=f"life_bands-{param.id}")
        for param in counts(CHANGES, most=120)
    ],
)
def test_the_dry_run_ends_with_a_complete_ranking(fmt: str, players: int) -> None:
    tournament = simulation.create_field(fmt=fmt, players=players, seed=players)
    simulation.simulate(tournament, seed=players)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    ranking = registry.of(tournament).ranking(tournament)
    places = [row.place for row in ranking]
    if fmt == enums.Format.POINTS:
        # Ties share a place below the podium (issue 28); the podium's are played off, never drawn.
        assert_places_ranked(places)
        assert places[:3] == [1, 2, 3]
    else:
        assert sorted(places) == list(range(1, players + 1))
    assert len({row.player.pk for row in ranking}) == players
    assert_numbers_never_shared(tournament)
    if fmt == enums.Format.LIFE_BANDS:
        assert_grand_final_complete(tournament)
    else:  # one round at a time: each is numbered 1..n, as it always was
        for rnd in tournament.rounds.all():
            numbers = sorted(rnd.tables.values_list("number", flat=True))
            assert numbers == list(range(1, len(numbers) + 1)), (str(rnd), numbers)


def assert_numbers_never_shared(tournament: Tournament) -> None:
    """No two tables of the tournament with the same number were in play at the same time: a
    table started only once the table that had its number before stopped holding it (closed,
    or its round finished: ``play.rounds.in_play``)."""
    tables = list(
        Table.objects.filter(round__tournament=tournament).select_related("round").order_by("started_at", "pk")
    )
    last: dict[int, Table] = {}
    for table in tables:
        before = last.get(table.number)
        if before is not None:
            released = min((t for t in (before.closed_at, before.round.finished_at) if t is not None), default=None)
            assert released is not None and released <= table.started_at, (
                f"{before} (started {before.started_at}, released {released}) and {table} "
                f"(started {table.started_at}) share number {table.number}"
            )
        last[table.number] = table


def assert_grand_final_complete(tournament: Tournament) -> None:
    """The grand final is seated, closed, and gives every one of its players a place 1..n."""
    final = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.GRAND_FINAL)
    assert final.status == enums.TableStatus.CLOSED
    places = sorted(final.seats.values_list("place", flat=True))
    assert places == list(range(1, len(places) + 1)) and len(places) >= 2
