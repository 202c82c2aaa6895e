"""Finishing a points tournament before its planned rounds asks first (issue 11):
``finish`` (and the organiser's step "finish") raises ``NeedsConfirmation`` saying
which rounds are dropped unless ``confirmed``, changing nothing; after the last
planned round it asks nothing; while tables play it stays refused. The other formats
finish only when their final is over: their step takes ``confirmed`` and asks nothing.
"""

from __future__ import annotations

import pytest

from tournament import enums, simulation
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.formats import registry
from tournament.formats.points import services as points_services
from tournament.models import AuditEntry, Round, Table, Tournament
from tournament.tests.formats.points.helpers import finish, play_round, points_field, start
from tournament.tests.helpers import set_settings

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def state(tournament: Tournament) -> tuple[object, ...]:
    return (
        Tournament.objects.values_list("status", "version").get(pk=tournament.pk),
        sorted(Round.objects.filter(tournament=tournament).values_list("pk", "status")),
        sorted(Table.objects.filter(round__tournament=tournament).values_list("pk", "status")),
        AuditEntry.objects.filter(tournament=tournament).count(),
    )


def played(rounds: int, planned: int = 4) -> Tournament:
    tournament = points_field(rounds_planned=planned)
    for number in range(1, rounds + 1):
        play_round(tournament, start(tournament, seed=number), seed=number)
    return tournament


def test_finishing_after_round_one_of_four_asks_first():
    tournament = played(1)
    before = state(tournament)
    with pytest.raises(NeedsConfirmation) as caught:
        points_services.finish(tournament=tournament, actor=None)
    assert caught.value.kind == "finish_early"
    assert caught.value.message == (
        "Round 1 of 4 is done. Rounds 2–4 will not be played; the ranking after round 1 becomes final."
    )
    assert state(tournament) == before


def test_one_round_left_is_named_alone():
    tournament = played(2, planned=3)
    with pytest.raises(NeedsConfirmation) as caught:
        points_services.finish(tournament=tournament, actor=None)
    assert caught.value.message == (
        "Round 2 of 3 is done. Round 3 will not be played; the ranking after round 2 becomes final."
    )


def test_finishing_early_confirmed_finishes():
    tournament = played(1)
    finish(tournament, confirmed=True)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    assert AuditEntry.objects.filter(tournament=tournament, action="tournament_finished").count() == 1


def test_finishing_after_the_last_round_asks_nothing():
    tournament = played(2, planned=2)
    finish(tournament)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED


def test_finishing_while_tables_play_stays_refused_even_confirmed():
    tournament = played(1)
    start(tournament, seed=9)
    before = state(tournament)
    for confirmed in (False, True):
        with pytest.raises(ServiceError) as caught:
            points_services.finish(tournament=tournament, actor=None, confirmed=confirmed)
        assert not isinstance(caught.value, NeedsConfirmation)
        assert caught.value.message == "Tables are still playing."
    assert state(tournament) == before


def test_the_organisers_step_passes_the_confirmation_on():
    tournament = played(1)
    # Not about ties: a tie after round 1 shares its place instead of asking for a play-off.
    set_settings(tournament, points_tie_resolution="shared")
    tournament.refresh_from_db()
    step = registry.of(tournament).next_step
    before = state(tournament)
    with pytest.raises(NeedsConfirmation, match="Rounds 2–4 will not be played"):
        step(tournament=tournament, actor=None, action="finish")
    assert state(tournament) == before
    done = step(tournament=tournament, actor=None, action="finish", confirmed=True)
    assert done.finished


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS])
def test_the_other_formats_steps_take_confirmed(fmt):
    # 6 players: round 1 is the plain rule in every format (9 would ask the knockout's organiser first).
    tournament = simulation.create_field(fmt=fmt, players=6, seed=1)
    action = "main" if fmt == enums.Format.LIFE_BANDS else ""
    done = registry.of(tournament).next_step(tournament=tournament, actor=None, action=action, confirmed=True)
    assert not done.finished
    assert Round.objects.filter(tournament=tournament).count() == 1
