"""Life bands and chips through the services: whole tournaments and single tables."""

from __future__ import annotations

import itertools
import uuid

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.errors import ServiceError
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.life_bands import services as life_bands_services
from tournament.models import LedgerEntry, Player, PoolEntry, Round, Seat, Table
from tournament.tests.helpers import field_at_once

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def run(players: int, seed: int):
    tournament = field_at_once(fmt=enums.Format.LIFE_BANDS, players=players, seed=seed)
    simulation.simulate(tournament, seed=seed)
    tournament.refresh_from_db()
    return tournament


def assert_valid(tournament, players: int) -> None:
    assert tournament.status == enums.TournamentStatus.FINISHED
    # Nobody ever sat at two playing tables at once: each player's seats never overlap in time.
    for player in Player.objects.filter(tournament=tournament):
        seats = list(Seat.objects.filter(player=player).select_related("table").order_by("table__started_at"))
        for earlier, later in itertools.pairwise(seats):
            assert earlier.table.decided_at is not None and earlier.table.decided_at <= later.table.started_at
    # The pool is empty at the end and never held anyone twice (constraint + history).
    assert not PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).exists()
    gf = Round.objects.get(tournament=tournament, stage=enums.Stage.GRAND_FINAL)
    gf_table = gf.tables.get()
    assert gf_table.seats.count() == min(4, players)
    assert sorted(gf_table.seats.values_list("place", flat=True)) == list(range(1, gf_table.seats.count() + 1))
    # It finished when the referee closed the grand final's table; then every round is finished.
    assert gf_table.status == enums.TableStatus.CLOSED
    assert not Round.objects.filter(tournament=tournament).exclude(status=enums.RoundStatus.FINISHED).exists()
    ranking = life_bands_selectors.ranking(tournament)
    assert [row.place for row in ranking] == list(range(1, players + 1))
    assert sorted(row.player.pk for row in ranking) == sorted(
        Player.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )
    assert ranking[0].player.pk == gf_table.seats.get(place=1).player_id
    # Chips and bands only move through the ledger: nobody below zero bands.
    for pid, left in life_bands_selectors.bands_left(tournament, [r.player.pk for r in ranking]).items():
        assert 0 <= left <= tournament.life_bands, pid


@pytest.mark.parametrize("players", [4, 5, 7, 13, 23, pytest.param(50, marks=pytest.mark.slow)])
def test_whole_tournament(players):
    assert_valid(run(players, seed=players), players)


# 120 players is in the sweep (``make dry-runs``): test_dry_runs_every_count plays life bands to 120.
@pytest.mark.postgres_only
@pytest.mark.sweep
def test_whole_tournament_120_players():
    assert_valid(run(120, seed=120), 120)


# Whole tournaments through the services, left out of the SQLite smoke (the sizes above run there).
@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(min_value=3, max_value=24), seed=st.integers(min_value=0, max_value=10_000))
def test_any_field_finishes(players, seed):
    assert_valid(run(players, seed), players)


def test_three_players_make_a_smaller_grand_final_with_a_note():
    tournament = run(3, seed=1)
    gf = Round.objects.get(tournament=tournament, stage=enums.Stage.GRAND_FINAL)
    assert gf.tables.get().seats.count() == 3
    assert "too few players" in gf.seating_note


@pytest.fixture
def table_of_four():
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=4)
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=1)
    table = rnd.tables.order_by("number").first()
    ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
    return tournament, table, ids


def lose(tournament, table, pid, key=None, version=None):
    table.refresh_from_db()
    return life_bands_services.record_loss(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        loser_id=pid,
        version=table.version if version is None else version,
        idempotency_key=key or uuid.uuid4().hex,
    )


class TestTable:
    def test_two_chips_then_band_cut_and_pool(self, table_of_four):
        tournament, table, (a, b, c, d) = table_of_four
        lose(tournament, table, a)
        assert table.seats.get(player_id=a).chips == 1
        lose(tournament, table, a)
        seat = table.seats.get(player_id=a)
        assert seat.chips == 0 and seat.out_order == 1
        assert life_bands_selectors.bands_left(tournament, [a])[a] == 1
        assert PoolEntry.objects.filter(player_id=a, left_at__isnull=True).exists()
        table.refresh_from_db()
        assert table.status == enums.TableStatus.PLAYING  # a table of 4 needs 2 out
        lose(tournament, table, b)
        lose(tournament, table, b)
        table.refresh_from_db()
        assert table.status == enums.TableStatus.DECIDED
        assert set(table.seats.filter(advances=True).values_list("player_id", flat=True)) == {c, d}

    def test_retry_records_once(self, table_of_four):
        tournament, table, (a, *_rest) = table_of_four
        version = table.version
        first = lose(tournament, table, a, key="same", version=version)
        again = lose(tournament, table, a, key="same", version=version)
        assert first.pk == again.pk
        assert LedgerEntry.objects.filter(kind=enums.LedgerKind.CHIP_LOST).count() == 1

    def test_stale_view_refused(self, table_of_four):
        tournament, table, (a, b, *_rest) = table_of_four
        stale = table.version
        lose(tournament, table, a, version=stale)
        with pytest.raises(ServiceError, match="changed on another tablet"):
            lose(tournament, table, b, version=stale)
        assert Game.objects.count() == 1

    def test_player_out_or_elsewhere_refused(self, table_of_four):
        tournament, table, (a, *_rest) = table_of_four
        lose(tournament, table, a)
        lose(tournament, table, a)
        with pytest.raises(ServiceError, match="already out"):
            lose(tournament, table, a)
        other = Seat.objects.exclude(table=table).first().player_id
        with pytest.raises(ServiceError, match="does not sit"):
            lose(tournament, table, other)
        assert Game.objects.count() == 2

    def test_undo_restores_chip_band_and_leaves_pool(self, table_of_four):
        tournament, table, (a, *_rest) = table_of_four
        lose(tournament, table, a)
        lose(tournament, table, a)
        table.refresh_from_db()
        life_bands_services.undo_last_loss(tournament=tournament, actor=None, table_id=table.pk, version=table.version)
        assert table.seats.get(player_id=a).chips == 1
        assert life_bands_selectors.bands_left(tournament, [a])[a] == 2
        assert not PoolEntry.objects.filter(player_id=a, left_at__isnull=True).exists()
        assert Game.objects.filter(status=GameStatus.VOIDED).count() == 1
        assert LedgerEntry.objects.filter(kind=enums.LedgerKind.CORRECTION).count() == 2

    def test_undo_refused_once_the_player_sits_elsewhere(self, table_of_four):
        tournament, table, (a, *_rest) = table_of_four
        others = list(Table.objects.filter(round=table.round).exclude(pk=table.pk))
        for loser in (a, a):
            lose(tournament, table, loser)
        other = others[0]
        o_ids = list(other.seats.values_list("player_id", flat=True))
        for loser in (o_ids[0], o_ids[0], o_ids[1], o_ids[1]):
            lose(tournament, other, loser)
        life_bands_services.form_consolation_tables(tournament=tournament, actor=None)
        table.refresh_from_db()
        with pytest.raises(ServiceError, match="already play at another table"):
            life_bands_services.undo_last_loss(
                tournament=tournament, actor=None, table_id=table.pk, version=table.version
            )

    def test_consolation_needs_three_waiting(self, table_of_four):
        tournament, table, (a, *_rest) = table_of_four
        lose(tournament, table, a)
        lose(tournament, table, a)
        with pytest.raises(ServiceError, match="a table needs at least 3"):
            life_bands_services.form_consolation_tables(tournament=tournament, actor=None)
        assert not Round.objects.filter(stage=enums.Stage.CONSOLATION).exists()


def test_referee_taps_lost_on_the_page(client, staff_user, table_of_four):
    tournament, table, (a, *_rest) = table_of_four
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    page = client.get(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
    assert "Lost" in page.content.decode() and "chip-icon" in page.content.decode()
    response = client.post(
        reverse("tournament:record_game", args=[tournament.pk, table.pk]),
        {"loser": a, "version": table.version, "key": "tap-1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "table-error" not in response.content.decode()
    assert table.seats.get(player_id=a).chips == 1


def test_organiser_pages_for_life_bands(client, staff_user, table_of_four):
    tournament, table, _ids = table_of_four
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    assert "Consolation pool" in client.get(reverse("tournament:rounds", args=[tournament.pk])).content.decode()
    response = client.post(reverse("tournament:next_round", args=[tournament.pk]), {"action": "consolation"})
    assert response.status_code == 409
    assert "a table needs at least" in response.content.decode()
    assert client.get(reverse("tournament:ranking", args=[tournament.pk])).status_code == 200
    tracker = client.get(reverse("tournament:half_tracker", args=[tournament.pk, table.pk]))
    assert tracker.status_code == 200


def test_three_life_bands_through_the_services():
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=9, seed=5)
    tournament.life_bands = 3
    tournament.save()
    simulation.simulate(tournament, seed=5)
    tournament.refresh_from_db()
    assert_valid(tournament, 9)
