"""The desk's destructive actions ask first (issue 11): drawing start numbers again and
withdrawing a player raise ``NeedsConfirmation`` with what will be lost unless
``confirmed``, and change nothing while asking. The first draw asks nothing; the
refusals (play has started, already withdrawn) come before the question and stay.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournament import enums
from tournament.desk import checkin, start_numbers
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import Player, Seat, StartNumberDraw
from tournament.tests.desk.helpers import check_in, checked_in_players, numbers_of, snapshot, status_of
from tournament.tests.factories import PlayerFactory
from tournament.tests.formats.points.helpers import play_round, points_field, start

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


def _asks(call) -> NeedsConfirmation:  # type: ignore[no-untyped-def]
    with pytest.raises(NeedsConfirmation) as caught:
        call()
    return caught.value


# --- drawing start numbers again -------------------------------------------------------


def test_the_first_draw_asks_nothing(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 3)
    draw = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=1)
    assert sorted(n for n in numbers_of(tournament).values() if n) == [1, 2, 3]
    assert draw.seed == 1


def test_drawing_again_asks_first_saying_what_is_lost(tournament, desk):  # type: ignore[no-untyped-def]
    players = checked_in_players(tournament, desk, 5)
    first = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=1)
    checkin.undo_check_in(tournament=tournament, actor=desk, player_id=players[0].pk)  # keeps number, not in
    state = snapshot(tournament)

    question = _asks(lambda: start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=2))

    when = timezone.localtime(first.drawn_at).strftime("%H:%M")
    assert question.kind == "redraw"
    assert question.message == (
        "All 4 checked-in players get new start numbers. "
        "1 player who is no longer checked in loses their start number. "
        f"Cards and lists printed since {when} show the old numbers and must be printed again."
    )
    assert snapshot(tournament) == state


def test_drawing_again_names_the_time_of_the_last_draw(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 1)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=1)
    last = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=2, confirmed=True)
    # A fixed time of day names the draw; the earlier draw is moved a day back
    # so that the one drawn last stays the latest whatever the clock says.
    at = timezone.now().replace(hour=14, minute=5)
    StartNumberDraw.objects.filter(pk=last.pk).update(drawn_at=at)
    StartNumberDraw.objects.exclude(pk=last.pk).filter(tournament=tournament).update(drawn_at=at - timedelta(days=1))

    question = _asks(lambda: start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=3))

    assert question.message.startswith("The 1 checked-in player gets a new start number. ")
    assert f"printed since {timezone.localtime(at):%H:%M} show the old numbers" in question.message


def test_drawing_again_confirmed_replaces_the_numbers(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 8)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=1)
    before = numbers_of(tournament)

    again = start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=2, confirmed=True)

    assert numbers_of(tournament) != before
    assert StartNumberDraw.objects.filter(tournament=tournament).count() == 2
    assert again.seed == 2


def test_drawing_again_after_play_started_stays_refused_even_confirmed(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 4)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=5)
    tournament.status = enums.TournamentStatus.RUNNING
    tournament.save()
    state = snapshot(tournament)
    for confirmed in (False, True):
        with pytest.raises(ServiceError) as caught:
            start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=6, confirmed=confirmed)
        assert not isinstance(caught.value, NeedsConfirmation)
        assert "can no longer be drawn again" in caught.value.message
    assert snapshot(tournament) == state


def test_drawing_again_without_players_is_refused_not_asked(tournament, desk):  # type: ignore[no-untyped-def]
    players = checked_in_players(tournament, desk, 2)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=5)
    for player in players:
        checkin.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)
    with pytest.raises(ServiceError) as caught:
        start_numbers.draw_start_numbers(tournament=tournament, actor=desk, seed=6)
    assert not isinstance(caught.value, NeedsConfirmation)


# --- withdrawing a player --------------------------------------------------------------


def test_withdrawing_a_player_not_in_play_asks_the_plain_question(small, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=small, name="Anna")
    check_in(small, desk, player, override=True)
    state = snapshot(small)

    question = _asks(lambda: checkin.withdraw_player(tournament=small, actor=desk, player_id=player.pk))

    assert (question.kind, question.message) == ("withdraw", "Withdraw Anna?")
    assert snapshot(small) == state


def test_withdrawing_confirmed_acts(small, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=small)
    checkin.withdraw_player(tournament=small, actor=desk, player_id=player.pk, confirmed=True)
    assert status_of(player) == Status.WITHDRAWN


def test_refusals_come_before_the_question(small, desk):  # type: ignore[no-untyped-def]
    gone = PlayerFactory(tournament=small, status=Status.WITHDRAWN, name="Bea")
    with pytest.raises(ServiceError) as caught:
        checkin.withdraw_player(tournament=small, actor=desk, player_id=gone.pk)
    assert not isinstance(caught.value, NeedsConfirmation)
    assert caught.value.message == "Bea has already withdrawn."
    with pytest.raises(ServiceError) as unknown:
        checkin.withdraw_player(tournament=small, actor=desk, player_id=0)
    assert not isinstance(unknown.value, NeedsConfirmation)


def test_no_show_asks_nothing(small, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=small)
    checkin.mark_no_show(tournament=small, actor=desk, player_id=player.pk)
    assert status_of(player) == Status.NO_SHOW


@pytest.mark.django_db
def test_withdrawing_a_player_at_a_playing_table_says_the_table_plays_on() -> None:
    tournament = points_field(players=12, seed=3)
    rnd = start(tournament)
    table = rnd.tables.order_by("number").last()
    assert table is not None
    seat = table.seats.select_related("player").first()
    assert seat is not None
    player = seat.player
    state = snapshot(tournament)

    question = _asks(lambda: checkin.withdraw_player(tournament=tournament, actor=None, player_id=player.pk))

    assert question.message == (
        f"{player.name} sits at table {table.number} of Round 1, which is still playing: the games recorded "
        f"there stay and the table plays on as seated. {player.name} will not be seated in any later round."
    )
    assert snapshot(tournament) == state

    checkin.withdraw_player(tournament=tournament, actor=None, player_id=player.pk, confirmed=True)
    assert status_of(player) == Status.WITHDRAWN
    assert Seat.objects.filter(pk=seat.pk, table__status=enums.TableStatus.PLAYING).exists(), "the rules stay"


@pytest.mark.django_db
def test_withdrawing_a_player_who_played_says_the_games_stay() -> None:
    tournament = points_field(players=12, seed=3, games_per_round=3)
    play_round(tournament, start(tournament))
    player = Player.objects.filter(tournament=tournament, seats__isnull=False).first()
    assert player is not None

    question = _asks(lambda: checkin.withdraw_player(tournament=tournament, actor=None, player_id=player.pk))

    assert question.message == (
        f"{player.name} has played 3 games: they stay recorded. {player.name} will not be seated in any later round."
    )
    assert status_of(player) == Status.CHECKED_IN
