"""Two desk tablets writing at the same moment, on real PostgreSQL connections.

Each scenario runs twice:
- ``simultaneous``: both threads are released by a barrier at once;
- ``interleaved``: the first thread holds its transaction open after the
  service call while the second thread calls the same service. This forces
  the race every time: without the tournament row lock the second call would
  read stale data and hit a database constraint (IntegrityError) instead of
  getting a clean answer.

The last tests prove the database constraints hold even without any lock.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournament import enums
from tournament.desk import checkin, registration, start_numbers
from tournament.desk.players import ACTIVE_STATUSES
from tournament.models import CheckIn, Player, Tournament
from tournament.tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.tests.races import HOLD_SECONDS, MODES, POSTGRES_RACES, run_two, unexpected

pytestmark = POSTGRES_RACES


@pytest.fixture
def desk_users():  # type: ignore[no-untyped-def]
    return UserFactory(username="desk-left"), UserFactory(username="desk-right")


@MODES
def test_same_player_checked_in_twice_at_once(desk_users, interleaved):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(checklist=[])
    player = PlayerFactory(tournament=tournament, name="Gleichzeitig")
    left, right = desk_users

    outcomes = run_two(
        lambda: checkin.check_in_player(tournament=tournament, actor=left, player_id=player.pk),
        lambda: checkin.check_in_player(tournament=tournament, actor=right, player_id=player.pk),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    successes = [o for o in outcomes if o.error is None]
    failures = [o for o in outcomes if o.error is not None]
    assert len(successes) == 1 and len(failures) == 1
    assert "already checked in" in failures[0].error.message  # type: ignore[union-attr]
    assert CheckIn.objects.filter(player=player).count() == 1
    assert Player.objects.get(pk=player.pk).status == enums.PlayerStatus.CHECKED_IN
    if interleaved:  # the second tablet waited for the first one's lock
        assert outcomes[1].elapsed >= HOLD_SECONDS * 0.8


@MODES
def test_two_late_arrivals_after_the_draw_get_distinct_numbers(desk_users, interleaved):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(checklist=[])
    left, right = desk_users
    for player in PlayerFactory.create_batch(6, tournament=tournament):
        checkin.check_in_player(tournament=tournament, actor=left, player_id=player.pk)
    start_numbers.draw_start_numbers(tournament=tournament, actor=left, seed=2026)
    late_a, late_b = PlayerFactory.create_batch(2, tournament=tournament)

    outcomes = run_two(
        lambda: checkin.check_in_player(tournament=tournament, actor=left, player_id=late_a.pk),
        lambda: checkin.check_in_player(tournament=tournament, actor=right, player_id=late_b.pk),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    numbers = sorted(Player.objects.filter(pk__in=[late_a.pk, late_b.pk]).values_list("start_number", flat=True))
    assert numbers == [7, 8]
    all_numbers = list(
        Player.objects.filter(tournament=tournament, start_number__isnull=False).values_list("start_number", flat=True)
    )
    assert sorted(all_numbers) == list(range(1, 9))


@MODES
def test_last_free_place_registered_twice_at_once(desk_users, interleaved):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(capacity=3, checklist=[])
    PlayerFactory.create_batch(2, tournament=tournament)
    left, right = desk_users

    outcomes = run_two(
        lambda: registration.register_player(tournament=tournament, actor=left, name="Links"),
        lambda: registration.register_player(tournament=tournament, actor=right, name="Rechts"),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    results: list[Any] = [o.value for o in outcomes]
    assert sorted(r.waitlisted for r in results) == [False, True]
    statuses = dict(Player.objects.filter(name__in=["Links", "Rechts"]).values_list("name", "status"))
    assert sorted(statuses.values()) == [enums.PlayerStatus.REGISTERED, enums.PlayerStatus.WAITING]
    active = Player.objects.filter(tournament=tournament, status__in=ACTIVE_STATUSES).count()
    assert active == 3
    if interleaved:  # the first tablet took the place; the second waited and got the waiting list
        assert statuses == {"Links": enums.PlayerStatus.REGISTERED, "Rechts": enums.PlayerStatus.WAITING}


@MODES
def test_the_version_counts_both_writes(desk_users, interleaved):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(checklist=[])
    left, right = desk_users
    before = Tournament.objects.get(pk=tournament.pk).version

    outcomes = run_two(
        lambda: registration.register_player(tournament=tournament, actor=left, name="Erste"),
        lambda: registration.register_player(tournament=tournament, actor=right, name="Zweite"),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    assert Tournament.objects.get(pk=tournament.pk).version == before + 2


# --- the constraints hold without any lock ----------------------------------------------------


def test_two_live_check_ins_for_one_player_violate_the_constraint() -> None:
    player = PlayerFactory(tournament=TournamentFactory(checklist=[]))
    CheckIn.objects.create(player=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        CheckIn.objects.create(player=player)
    assert CheckIn.objects.filter(player=player).count() == 1


def test_a_cancelled_check_in_does_not_block_a_new_one() -> None:
    player = PlayerFactory(tournament=TournamentFactory(checklist=[]))
    CheckIn.objects.create(player=player, cancelled_at=timezone.now())
    CheckIn.objects.create(player=player, cancelled_at=timezone.now())
    CheckIn.objects.create(player=player)
    assert CheckIn.objects.filter(player=player).count() == 3
    assert CheckIn.objects.filter(player=player, cancelled_at__isnull=True).count() == 1


def test_one_start_number_twice_in_a_tournament_violates_the_constraint() -> None:
    tournament = TournamentFactory(checklist=[])
    PlayerFactory(tournament=tournament, start_number=7)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(tournament=tournament, start_number=7)
    assert Player.objects.filter(tournament=tournament, start_number=7).count() == 1


def test_the_same_start_number_in_another_tournament_is_fine() -> None:
    PlayerFactory(tournament=TournamentFactory(checklist=[]), start_number=7)
    PlayerFactory(tournament=TournamentFactory(checklist=[]), start_number=7)
    PlayerFactory.create_batch(2, tournament=TournamentFactory(checklist=[]), start_number=None)
    assert Player.objects.filter(start_number=7).count() == 2
