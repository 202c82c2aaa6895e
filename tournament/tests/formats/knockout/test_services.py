"""Knockout play through the services: whole tournaments, tables, bad submissions."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.knockout import selectors as knockout_selectors
from tournament.formats.knockout import services as knockout_services
from tournament.models import Player, Round, Seat, Table
from tournament.play import results
from tournament.tests.helpers import field_at_once

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def key() -> str:
    return uuid.uuid4().hex


def run(players: int, seed: int):
    tournament = field_at_once(fmt=enums.Format.KNOCKOUT, players=players, seed=seed)
    result = simulation.simulate(tournament, seed=seed)
    return result


def assert_valid_tournament(tournament, players: int) -> None:
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    preferred, largest = tournament.table_size, tournament.table_size_max
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert rounds[-1].stage == enums.Stage.FINAL
    for rnd in rounds:
        seen: set[int] = set()
        for table in rnd.tables.all():
            ids = list(table.seats.values_list("player_id", flat=True))
            if table.is_duel:
                # Duel players also sit at the final table of the same round.
                assert len(ids) >= 2
                continue
            assert not seen & set(ids), "a player sits at two tables of one round"
            seen |= set(ids)
            if rnd.stage != enums.Stage.FINAL:
                # A larger or smaller table only where the organiser chose it (written into the round's note).
                allowed = largest + 1 if rnd.seating_note else largest
                least = preferred - 1 if rnd.seating_note else preferred
                assert least <= len(ids) <= allowed, (rnd, len(ids))
            assert table.status in (enums.TableStatus.DECIDED, enums.TableStatus.CLOSED)
            assert table.seats.filter(place=1).count() == 1
    ranking = knockout_selectors.ranking(tournament)
    assert sorted(row.player.pk for row in ranking) == sorted(
        Player.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )
    assert [row.place for row in ranking] == list(range(1, players + 1))
    champion = ranking[0]
    final = rounds[-1].tables.get(is_duel=False)
    assert final.seats.get(place=1).player_id == champion.player.pk
    assert final.seats.get(place=1).points >= tournament.final_points_target


@pytest.mark.parametrize("players", [3, 4, 5, 7, 12, 27, pytest.param(50, marks=pytest.mark.slow)])
def test_whole_tournament(players):
    result = run(players, seed=players)
    assert_valid_tournament(result.tournament, players)


@pytest.mark.postgres_only
def test_whole_tournament_200_players():
    result = run(200, seed=7)
    assert_valid_tournament(result.tournament, 200)


# Whole tournaments through the services are slow; the pure format module is
# property-tested over hundreds of sizes in test_rules.py. Left out of the SQLite smoke.
@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(min_value=2, max_value=26), seed=st.integers(min_value=0, max_value=10_000))
def test_any_field_size_finishes_with_one_champion(django_db_blocker, players, seed):
    result = run(players, seed)
    assert_valid_tournament(result.tournament, players)


def test_simulation_is_reproducible():
    lines = []
    for _ in range(2):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=42)
        simulation.simulate(tournament, seed=42)
        lines.append([line.split("\t", 1)[1] for line in simulation.ranking_lines(tournament)])
    assert lines[0] == lines[1]


def test_lucky_loser_round_follows_round_one():
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=12, seed=3)
    knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1)
    first = Round.objects.get(tournament=tournament, number=1)
    for table in first.tables.all():
        simulation.play_table(tournament, table, __import__("random").Random(1), None)
    # 4 winners and 8 losers: the usual tables lead to a runner-up moving up later; a table of 2 now
    # and two in main round 2 would not: the organiser is asked, the usual tables first and ticked.
    with pytest.raises(NeedsChoice) as asked:
        knockout_services.generate_next_round(tournament=tournament, actor=None, seed=2)
    assert [(o.code, o.preselect) for o in asked.value.options] == [
        ("plain_round", True),
        ("one_smaller_table", False),
    ]
    second = knockout_services.generate_next_round(
        tournament=tournament, actor=None, seed=2, choice="plain_round"
    ).round
    assert second.stage == enums.Stage.LUCKY_LOSER
    losers = set(Seat.objects.filter(table__round=first).exclude(place=1).values_list("player_id", flat=True))
    assert set(Seat.objects.filter(table__round=second).values_list("player_id", flat=True)) == losers
    for table in second.tables.all():
        simulation.play_table(tournament, table, __import__("random").Random(2), None)
    # 4 + 2 winners: no split of 6 into tables of 3 to 4 leads to a final of three; the usual tables are
    # the only way (three tables of 2 are not looked at): seated, the runner-up expected in the note.
    third = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=3).round
    assert "Expected: the best runner-up" in third.seating_note and third.public_note == ""
    winners = set(Seat.objects.filter(table__round__in=[first, second], place=1).values_list("player_id", flat=True))
    assert third.stage == enums.Stage.MAIN
    assert set(Seat.objects.filter(table__round=third).values_list("player_id", flat=True)) == winners


def test_count_that_does_not_split_asks_the_organiser():
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=5, seed=1)
    with pytest.raises(NeedsChoice) as caught:
        knockout_services.generate_next_round(tournament=tournament, actor=None)
    # Tables of 3 and 2 reach a final of three; the final of all five now is the other choice (a table
    # of five, with a runner-up moving up later, departs as much and is not offered).
    assert [o.code for o in caught.value.options] == ["one_smaller_table", "final_of_all"]
    assert "Main round 1: 5 players cannot be split into tables of 3 to 4." in caught.value.message
    assert not Round.objects.filter(tournament=tournament).exists()
    started = knockout_services.generate_next_round(tournament=tournament, actor=None, choice="one_larger_table")
    assert [t.seats.count() for t in started.round.tables.all()] == [5]


def test_next_round_refused_while_tables_play():
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=1)
    knockout_services.generate_next_round(tournament=tournament, actor=None)
    with pytest.raises(ServiceError, match="Tables still playing"):
        knockout_services.generate_next_round(tournament=tournament, actor=None)
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_first_round_needs_a_draw():
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=1)
    tournament.draws.all().delete()
    with pytest.raises(ServiceError, match="Draw the start numbers"):
        knockout_services.generate_next_round(tournament=tournament, actor=None)


@pytest.fixture
def table_of_three():
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=11)
    rnd = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=5).round
    table = rnd.tables.order_by("number").first()
    seats = list(table.seats.order_by("position"))
    table = results.set_first_dealer(
        tournament=tournament, actor=None, table_id=table.pk, player_id=seats[0].player_id, version=table.version
    )
    return tournament, table, [s.player_id for s in seats]


def win(tournament, table, player_id, idem=None, version=None):
    table.refresh_from_db()
    return knockout_services.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=player_id,
        version=table.version if version is None else version,
        idempotency_key=idem or key(),
    )


class TestTable:
    def test_three_wins_decide_and_places_follow_wins_then_start_number(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        for winner in (a, b, a, a):
            win(tournament, table, winner)
        table.refresh_from_db()
        assert table.status == enums.TableStatus.DECIDED
        places = dict(table.seats.values_list("player_id", "place"))
        assert places[a] == 1 and places[b] == 2 and places[c] == 3

    def test_tie_on_games_won_broken_by_lower_start_number(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        for winner in (a, a, a):
            win(tournament, table, winner)
        numbers = dict(Player.objects.filter(pk__in=[b, c]).values_list("pk", "start_number"))
        places = dict(table.seats.values_list("player_id", "place"))
        lower = min((b, c), key=numbers.__getitem__)
        assert places[lower] == 2

    def test_dealer_moves_one_seat_left_after_each_game(self, table_of_three):
        tournament, table, (a, b, _c) = table_of_three
        first = win(tournament, table, a)
        second = win(tournament, table, b)
        assert (first.dealer_position, second.dealer_position) == (0, 1)

    def test_retry_with_same_key_records_one_game(self, table_of_three):
        tournament, table, (a, _b, _c) = table_of_three
        idem = key()
        version = table.version
        first = win(tournament, table, a, idem=idem, version=version)
        again = win(tournament, table, a, idem=idem, version=version)
        assert first.pk == again.pk
        assert Game.objects.filter(table=table).count() == 1

    def test_stale_view_refused(self, table_of_three):
        tournament, table, (a, b, _c) = table_of_three
        stale = table.version
        win(tournament, table, a, version=stale)
        with pytest.raises(ServiceError, match="changed on another tablet"):
            win(tournament, table, b, version=stale)
        assert Game.objects.filter(table=table).count() == 1

    def test_winner_not_at_table_refused(self, table_of_three):
        tournament, table, _ids = table_of_three
        stranger = Seat.objects.exclude(table=table).first().player_id
        with pytest.raises(ServiceError, match="does not sit at table"):
            win(tournament, table, stranger)
        assert not Game.objects.exists()

    def test_decided_table_refuses_more_games(self, table_of_three):
        tournament, table, (a, b, _c) = table_of_three
        for _ in range(3):
            win(tournament, table, a)
        with pytest.raises(ServiceError, match="already decided"):
            win(tournament, table, b)
        assert Game.objects.filter(table=table).count() == 3

    def test_undo_and_redo(self, table_of_three):
        tournament, table, (a, b, _c) = table_of_three
        for _ in range(3):
            win(tournament, table, a)
        table.refresh_from_db()
        undone = knockout_services.undo_last_game(
            tournament=tournament, actor=None, table_id=table.pk, version=table.version
        )
        assert undone.status == GameStatus.VOIDED
        table.refresh_from_db()
        assert table.status == enums.TableStatus.PLAYING
        assert table.seats.get(player_id=a).games_won == 2
        win(tournament, table, b)
        assert Game.objects.filter(table=table).count() == 4  # the undone game is kept
        assert Game.objects.filter(table=table, status=GameStatus.VALID).count() == 3

    def test_closed_table_refuses_results_and_undo(self, table_of_three):
        tournament, table, (a, _b, _c) = table_of_three
        for _ in range(3):
            win(tournament, table, a)
        table.refresh_from_db()
        knockout_services.close_table(tournament=tournament, actor=None, table_id=table.pk, version=table.version)
        table.refresh_from_db()
        with pytest.raises(ServiceError, match="closed"):
            knockout_services.undo_last_game(
                tournament=tournament, actor=None, table_id=table.pk, version=table.version
            )
        with pytest.raises(ServiceError, match="closed"):
            win(tournament, table, a)
        assert Game.objects.filter(table=table, status=GameStatus.VALID).count() == 3

    def test_first_dealer_required(self):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=11)
        table = knockout_services.generate_next_round(tournament=tournament, actor=None).round.tables.first()
        with pytest.raises(ServiceError, match="drew the highest card"):
            win(tournament, table, table.seats.first().player_id)


class TestFinal:
    @pytest.fixture
    def final(self):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=3, seed=1)
        tournament.final_points_target = 100
        tournament.save()
        table = knockout_services.generate_next_round(tournament=tournament, actor=None).round.tables.get()
        ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
        results.set_first_dealer(
            tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=table.version
        )
        return tournament, table, ids

    def score(self, tournament, table, winner, points=None, hands=None):
        table.refresh_from_db()
        return knockout_services.record_game(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            winner_id=winner,
            version=table.version,
            idempotency_key=key(),
            card_points=points,
            hands=hands,
        )

    def test_winner_scores_the_others_cards(self, final):
        tournament, table, (a, b, c) = final
        self.score(tournament, table, a, hands={b: {"wild_draw_four": 1, "7": 2}, c: {"skip": 1}})
        assert table.seats.get(player_id=a).points == 50 + 14 + 20

    def test_house_rules_scoring_table_prices_wild_draw_four(self, final):
        tournament, table, (a, b, c) = final
        tournament.scoring_table = {**tournament.scoring_table, "wild_draw_four": 70}
        tournament.save()
        self.score(tournament, table, a, hands={b: {"wild_draw_four": 1}}, points={c: 0})
        assert table.seats.get(player_id=a).points == 70

    def test_missing_points_refused(self, final):
        tournament, table, (a, b, _c) = final
        with pytest.raises(ServiceError, match="card points of every player"):
            self.score(tournament, table, a, points={b: 10})
        assert not Game.objects.exists()

    def test_negative_points_refused(self, final):
        tournament, table, (a, b, c) = final
        with pytest.raises(ServiceError, match="cannot be negative"):
            self.score(tournament, table, a, points={b: -5, c: 3})
        assert not Game.objects.exists()

    def test_target_decides_and_tie_creates_duel(self, final):
        tournament, table, (a, b, c) = final
        self.score(tournament, table, b, points={a: 30, c: 0})
        self.score(tournament, table, c, points={a: 30, b: 0})
        self.score(tournament, table, a, points={b: 60, c: 60})
        table.refresh_from_db()
        assert table.status == enums.TableStatus.DECIDED
        duel = Table.objects.get(round=table.round, is_duel=True)
        assert sorted(duel.seats.values_list("player_id", flat=True)) == sorted([b, c])
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.RUNNING
        with pytest.raises(ServiceError, match="Tables still playing"):
            knockout_services.generate_next_round(tournament=tournament, actor=None)
        duel_ids = list(duel.seats.order_by("position").values_list("player_id", flat=True))
        results.set_first_dealer(
            tournament=tournament, actor=None, table_id=duel.pk, player_id=duel_ids[0], version=duel.version
        )
        self.score(tournament, duel, c)
        places = dict(table.seats.values_list("player_id", "place"))
        assert places == {a: 1, c: 2, b: 3}
        result = knockout_services.generate_next_round(tournament=tournament, actor=None)
        assert result.finished
        assert [row.player.pk for row in knockout_selectors.ranking(tournament)] == [a, c, b]


class TestPages:
    @pytest.fixture
    def referee_client(self, client, staff_user, table_of_three):
        tournament, table, ids = table_of_three
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        return client, tournament, table, ids

    def test_tap_winner_through_the_page(self, referee_client):
        client, tournament, table, (a, _b, _c) = referee_client
        page = client.get(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
        assert page.status_code == 200
        table.refresh_from_db()
        url = reverse("tournament:record_game", args=[tournament.pk, table.pk])
        response = client.post(url, {"winner": a, "version": table.version, "key": "abc"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert "table-error" not in response.content.decode()
        assert table.seats.get(player_id=a).games_won == 1
        # The same tap again (a Wi-Fi retry): still one game.
        client.post(url, {"winner": a, "version": table.version, "key": "abc"}, HTTP_HX_REQUEST="true")
        assert Game.objects.filter(table=table).count() == 1

    def test_stale_tap_shows_message(self, referee_client):
        client, tournament, table, (a, b, _c) = referee_client
        url = reverse("tournament:record_game", args=[tournament.pk, table.pk])
        client.post(url, {"winner": a, "version": table.version, "key": "k1"}, HTTP_HX_REQUEST="true")
        response = client.post(url, {"winner": b, "version": table.version, "key": "k2"}, HTTP_HX_REQUEST="true")
        assert "changed on another tablet" in response.content.decode()
        assert Game.objects.filter(table=table).count() == 1
