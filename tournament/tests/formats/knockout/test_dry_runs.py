"""The knockout dry run (``manage.py simulate_tournament --format knockout``) ends with a complete
ranking for every field of 3 to 60 players, taking the first option wherever the organiser is
asked, and says which choices it took."""

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
CHANGES = [3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 16, 22, 23, 28, 31, 33, 41, 48, 49, 60]


@pytest.mark.parametrize("players", counts(CHANGES))
def test_every_field_from_3_to_60_ends_with_a_complete_ranking(players: int) -> None:
    lines, err = dry_run(players)
    assert len(lines) == players, (players, lines)
    places = [int(line.split("\t")[0]) for line in lines]
    assert places == list(range(1, players + 1)), players
    tournament = Tournament.objects.latest("pk")
    assert tournament.status == enums.TournamentStatus.FINISHED
    final = Round.objects.get(tournament=tournament, stage=enums.Stage.FINAL)
    finalists = final.tables.get(is_duel=False).seats.count()
    if finalists != tournament.final_size:
        # A final of another size only by the organiser's choice, recorded on the final's round.
        assert "final_of_all" in err and final.seating_note, (players, err)
    for rnd in Round.objects.filter(tournament=tournament).exclude(seating_note=""):
        assert rnd.seating_note.strip()


def test_a_choice_is_printed_and_noted() -> None:
    """Four players cannot reach a final of three: the dry run takes "all four play the final"."""
    lines, err = dry_run(4)
    assert len(lines) == 4
    assert "choice: final_of_all" in err
    final = Round.objects.get(tournament=Tournament.objects.latest("pk"), stage=enums.Stage.FINAL)
    assert "final" in final.seating_note.lower()
