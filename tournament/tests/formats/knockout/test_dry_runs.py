"""The knockout dry run (``manage.py simulate_tournament --format knockout``) ends with a complete
ranking for every field of 3 to 120 players, taking the first option wherever the organiser is
asked, and says which choices it took. Taking the first option never seats more than one table
outside 3 to 4 in a round (issue 26: "im Normalfall drei Teilnehmer pro Tisch, bei Notwendigkeit
bis zu vier"; seven tables of 2 were once the first option at 14 players)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournament import enums
from tournament.models import Round, Tournament
from tournament.tests.test_dry_runs_every_count import counts

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def dry_run(players: int) -> tuple[list[str], str]:
    out, err = StringIO(), StringIO()
    call_command("simulate_tournament", "--format", "knockout", "--players", str(players), stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue()


# Where the knockout plan changes or asks at the default settings (``make test``); ``make dry-runs``
# plays every other count too (marked ``sweep``).
CHANGES = [3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 22, 23, 28, 30, 31, 33, 41, 48, 49, 60, 120]


@pytest.mark.parametrize("players", counts(CHANGES, most=120))
def test_every_field_from_3_to_120_ends_with_a_complete_ranking(players: int) -> None:
    lines, err = dry_run(players)
    assert len(lines) == players, (players, lines)
    places = [int(line.split("\t")[0]) for line in lines]
    assert places == list(range(1, players + 1)), players
    tournament = Tournament.objects.latest("pk")
    assert tournament.status == enums.TournamentStatus.FINISHED
    final = Round.objects.get(tournament=tournament, stage=enums.Stage.FINAL)
    final_table = final.tables.get(is_duel=False)
    finalists = final_table.seats.count()
    assert final_table.status == enums.TableStatus.CLOSED and final_table.seats.filter(place=1).count() == 1
    if finalists != tournament.final_size:
        # A final of another size only by the organiser's choice, recorded on the final's round.
        assert "final_of_all" in err and final.seating_note, (players, err)
    low, high = tournament.table_size, tournament.table_size_max
    for rnd in Round.objects.filter(tournament=tournament).exclude(stage=enums.Stage.FINAL):
        sizes = [table.seats.count() for table in rnd.tables.filter(is_duel=False)]
        outside = [size for size in sizes if not low <= size <= high]
        assert len(outside) <= 1, (players, str(rnd), sizes)
        if outside:
            assert rnd.seating_note.strip(), "a table outside the sizes only by a choice, in words"
    for rnd in Round.objects.filter(tournament=tournament).exclude(seating_note=""):
        assert rnd.seating_note.strip()


def test_a_choice_is_printed_and_noted() -> None:
    """Four players cannot reach a final of three with table winners alone: the dry run takes the
    first option, round 1 at one table of 4 and later the best runner-up moving up into the final,
    which the final's round says to the staff and to the public."""
    lines, err = dry_run(4)
    assert len(lines) == 4
    assert "choice: plain_round" in err and "choice: one_more_advances" in err
    final = Round.objects.get(tournament=Tournament.objects.latest("pk"), stage=enums.Stage.FINAL)
    assert "runner-up" in final.seating_note and "Moved up as the best runner-up" in final.public_note
