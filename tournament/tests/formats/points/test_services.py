"""Points-format play through the services and the pages.

Rounds (``points_services.start_round``) seat every checked-in player at
tables of 3-4 keeping players who met apart; games (``points_services.record_game``)
give every hand still holding cards its value as penalty points and the
winner 0; a table is decided after the games per round (or when time is
called); the standings (``points.selectors.ranking``) sum the valid games.
Every refusal leaves the database as it was. The CSV exports are tested in
``tests/views/test_exports.py``.
"""

from __future__ import annotations

import random
import uuid

import pytest
from django.urls import reverse

from games.models import Game, GameScore, GameStatus
from games.rules.uno import HOUSE_RULES_SCORING, STANDARD_SCORING
from tournament import desk, enums, seating, simulation
from tournament.errors import ServiceError
from tournament.formats.points import rules as points_rules
from tournament.formats.points import selectors as points_selectors
from tournament.formats.points import services as points_services
from tournament.formats.points.rules import GameResult
from tournament.models import AuditEntry, Player, Round, Seat, Table, Tournament
from tournament.tests.formats.points.helpers import (
    play_round,
    points_field,
    record,
    round_two_under_way,
    start,
    valid_points,
)
from tournament.tests.helpers import assert_places_ranked, refreshed, seated, set_dealer, undo
from tournament.writes import REFUSED

pytestmark = [pytest.mark.core, pytest.mark.django_db]


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def round_tables(rnd: Round) -> list[list[int]]:
    return [seated(table) for table in rnd.tables.order_by("number")]


def snapshot(*tournaments: Tournament) -> tuple[object, ...]:
    """Everything a round, a result or a setting would change."""
    return (
        sorted(Game.objects.values_list("pk", "status", "table_id")),
        sorted(GameScore.objects.values_list("pk", "points")),
        sorted(Round.objects.values_list("pk", "status")),
        sorted(Table.objects.values_list("pk", "status", "version", "first_dealer_position", "time_called_at")),
        sorted(Seat.objects.values_list("pk", "games_won", "place", "points")),
        AuditEntry.objects.exclude(action=REFUSED).count(),  # a refusal leaves only its trace
        [Tournament.objects.values_list("version", "status", "scoring_table").get(pk=t.pk) for t in tournaments],
    )


def key() -> str:
    return uuid.uuid4().hex


# --------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------


class TestStartRound:
    def test_seats_every_checked_in_player_at_tables_of_three_or_four(self):
        tournament = points_field(players=14)
        dropped = Player.objects.filter(tournament=tournament).order_by("pk").first()
        desk.withdraw_player(tournament=tournament, actor=None, player_id=dropped.pk, confirmed=True)
        rnd = start(tournament, seed=1234)
        checked_in = set(
            Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN).values_list(
                "pk", flat=True
            )
        )
        tables = round_tables(rnd)
        assert sorted(pid for table in tables for pid in table) == sorted(checked_in)
        assert dropped.pk not in checked_in
        assert sorted(len(table) for table in tables) == sorted(seating.table_sizes(13, 3, 4))
        assert (rnd.number, rnd.stage, rnd.status) == (1, enums.Stage.MAIN, enums.RoundStatus.RUNNING)
        assert rnd.seed == 1234
        # More than one round left: the rounds still to come are planned together (tournament.schedule).
        assert rnd.seating_algorithm.startswith(f"{seating.LOOKAHEAD_ALGORITHM}:h")
        # 13 players: one table of 4 among tables of 3, so after round 1 the short-table counts differ by 1.
        assert rnd.seating_note == (
            "Repeated pairs: 0 (from the last round: 0; unavoidable: at least 0). "
            "Short tables: each player's count differs by at most 1. "
            "Planned with the 4 rounds left: 3 of them without a repeated pair (at most 4 are possible)."
        )
        assert all(t.status == enums.TableStatus.PLAYING for t in rnd.tables.all())
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.RUNNING
        entry = AuditEntry.objects.filter(tournament=tournament, action="points_round_started").get()
        assert entry.detail == {"round": 1, "seed": 1234, "repeated_pairs": 0}

    def test_four_rounds_keep_players_who_met_apart(self):
        tournament = points_field(players=12, seed=3)
        met: dict[frozenset[int], int] = {}
        for number in range(1, 5):
            rnd = start(tournament, seed=number)
            tables = round_tables(rnd)
            repeated = seating.count_repeated_pairs(tables, met)
            assert repeated == 0, number
            assert rnd.seating_note.startswith(
                f"Repeated pairs: {repeated} (from the last round: 0; unavoidable: at least 0)."
            )
            met = seating.add_meetings(met, tables)
            play_round(tournament, rnd, seed=number)
        assert set(met.values()) == {1}, "no pair met twice in 4 rounds"
        rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
        assert [r.number for r in rounds] == [1, 2, 3, 4]
        # Starting a round closes the decided tables of the one before.
        assert all(r.status == enums.RoundStatus.FINISHED for r in rounds[:3])
        assert not Table.objects.filter(round__in=rounds[:3]).exclude(status=enums.TableStatus.CLOSED).exists()

    def test_note_counts_repeats_that_cannot_be_avoided(self):
        """6 players at two tables of 3: any second round puts two of the same
        first-round table together at each table (2 repeated pairs at least)."""
        tournament = points_field(players=6, seed=2)
        first = start(tournament, seed=1)
        play_round(tournament, first)
        second = start(tournament, seed=2)
        met = seating.add_meetings({}, round_tables(first))
        assert seating.count_repeated_pairs(round_tables(second), met) == 2
        assert second.seating_note.startswith("Repeated pairs: 2 ")

    def test_same_seed_same_seating(self):
        def seating_by_start_number(seed: int) -> list[set[int]]:
            tournament = points_field(players=13, seed=5)
            rnd = start(tournament, seed=seed)
            numbers = dict(Player.objects.filter(tournament=tournament).values_list("pk", "start_number"))
            return sorted(({numbers[pid] for pid in table} for table in round_tables(rnd)), key=sorted)

        assert seating_by_start_number(99) == seating_by_start_number(99)

    def test_refused_while_a_table_still_plays(self):
        tournament = points_field()
        rnd = start(tournament)
        tables = list(rnd.tables.order_by("number"))
        for table in tables[1:]:
            simulation.play_table(tournament, table, random.Random(1), None)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match=r"Tables still playing: 1\."):
            start(tournament)
        assert snapshot(tournament) == before

    def test_refused_after_the_planned_rounds(self):
        tournament = points_field(rounds_planned=2)
        for number in (1, 2):
            play_round(tournament, start(tournament, seed=number))
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="All 2 rounds have been played"):
            start(tournament)
        assert snapshot(tournament) == before
        assert Round.objects.filter(tournament=tournament).count() == 2

    def test_refused_before_the_draw(self):
        tournament = points_field()
        tournament.draws.all().delete()
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="Draw the start numbers"):
            start(tournament)
        assert snapshot(tournament) == before
        assert not Round.objects.filter(tournament=tournament).exists()

    def test_refused_for_another_format(self):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=1)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="does not use the points format"):
            start(tournament)
        assert snapshot(tournament) == before
        assert not Round.objects.filter(tournament=tournament).exists()

    def test_refused_when_the_count_does_not_split(self):
        tournament = points_field(players=5)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="5 players cannot be split into tables of 3 to 4"):
            start(tournament)
        assert snapshot(tournament) == before

    def test_refused_after_the_finish(self):
        tournament = points_field(points_tie_resolution="shared")  # (a tie shares its place: no play-off)
        play_round(tournament, start(tournament))
        points_services.finish(tournament=tournament, actor=None, confirmed=True)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="finished"):
            start(tournament)
        assert snapshot(tournament) == before


# --------------------------------------------------------------------------
# Results at a points table
# --------------------------------------------------------------------------


@pytest.fixture
def table_of_three():
    """12 players, round 1 seated; table 1 (3 players) has its first dealer."""
    tournament = points_field(players=12, seed=11)
    table = start(tournament, seed=5).tables.order_by("number").first()
    ids = set_dealer(tournament, table)
    return tournament, refreshed(table), ids


def scores(game: Game) -> dict[int, int]:
    return dict(game.scores.values_list("player_id", "points"))


class TestResults:
    def test_winner_takes_zero_and_the_others_their_typed_points(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        game = record(tournament, table, a, points={b: 17, c: 0})
        assert scores(game) == {a: 0, b: 17, c: 0}
        assert dict(table.seats.values_list("player_id", "points")) == {a: 0, b: 17, c: 0}
        assert dict(table.seats.values_list("player_id", "games_won")) == {a: 1, b: 0, c: 0}

    def test_points_typed_for_the_winner_are_ignored(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        game = record(tournament, table, a, points={a: 40, b: 3, c: 4})
        assert scores(game) == {a: 0, b: 3, c: 4}

    def test_hands_are_priced_with_the_scoring_table(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        game = record(tournament, table, b, hands={a: {"wild_draw_four": 1, "7": 2}, c: {"skip": 1, "reverse": 1}})
        assert scores(game) == {a: 50 + 14, b: 0, c: 40}
        assert GameScore.objects.get(game=game, player_id=a).hand == {
            "cards": 64,
            "hand": {"wild_draw_four": 1, "7": 2},
        }

    def test_house_rules_price_the_wild_draw_four_at_seventy(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        desk.set_scoring_table(tournament=tournament, actor=None, values=HOUSE_RULES_SCORING)
        tournament.refresh_from_db()
        game = record(tournament, table, a, hands={b: {"wild_draw_four": 2}}, points={c: 9})
        assert scores(game) == {a: 0, b: 140, c: 9}

    def test_cards_drawn_after_a_last_plus_four_count_as_cards_in_hand(self, table_of_three):
        """The winner's last card was a wild +4: the next player drew four cards;
        the referee taps them into that hand like the rest."""
        tournament, table, (a, b, c) = table_of_three
        held = {"3": 1, "skip": 1}
        drawn = {"9": 1, "wild": 1, "draw_two": 1, "3": 1}
        hand = {card: held.get(card, 0) + drawn.get(card, 0) for card in {*held, *drawn}}
        game = record(tournament, table, a, hands={b: hand, c: {}})
        assert scores(game)[b] == (3 + 20) + (9 + 50 + 20 + 3)
        assert scores(game)[c] == 0

    def test_a_hand_and_its_typed_total_must_agree(self, table_of_three):
        """The calculator sends the tapped hand and the total it shows; they never disagree silently."""
        tournament, table, (a, b, c) = table_of_three
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="count 5 points, but 99 was typed"):
            record(tournament, table, a, hands={b: {"5": 1}}, points={b: 99, c: 1})
        assert snapshot(tournament) == before
        game = record(tournament, table, a, hands={b: {"5": 1}}, points={b: 5, c: 1})
        assert scores(game) == {a: 0, b: 5, c: 1}

    @pytest.mark.parametrize(
        ("entry", "message"),
        [
            ({"points": {"b": 5}}, "card points of every player"),
            ({"points": {"b": -5, "c": 3}}, "cannot be negative"),
            ({"hands": {"b": {"joker": 1}}, "points": {"c": 1}}, "unknown card"),
            ({"hands": {"b": {"7": -1}}, "points": {"c": 1}}, "unknown card or a negative count"),
            ({"points": {"b": 1, "c": 1, "stranger": 4}}, "does not sit at this table"),
        ],
    )
    def test_bad_entries_refused_with_nothing_saved(self, table_of_three, entry, message):
        tournament, table, (a, b, c) = table_of_three
        stranger = Seat.objects.filter(table__round=table.round).exclude(table=table).first().player_id
        names = {"b": b, "c": c, "stranger": stranger}
        extra = {kind: {names[name]: value for name, value in values.items()} for kind, values in entry.items()}
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match=message):
            record(tournament, table, a, **extra)
        assert snapshot(tournament) == before

    def test_decided_after_the_games_per_round(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        assert tournament.games_per_round == 3
        record(tournament, table, a, points={b: 10, c: 20})
        record(tournament, table, b, points={a: 4, c: 20})
        assert refreshed(table).status == enums.TableStatus.PLAYING
        record(tournament, table, c, points={a: 6, b: 0})
        table = refreshed(table)
        assert table.status == enums.TableStatus.DECIDED
        # Totals a 10, b 10, c 40: a and b tie on points and games won; then the start number.
        numbers = dict(Player.objects.filter(pk__in=[a, b]).values_list("pk", "start_number"))
        first, second = sorted((a, b), key=numbers.__getitem__)
        assert dict(table.seats.values_list("player_id", "place")) == {first: 1, second: 2, c: 3}
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="already decided"):
            record(tournament, table, a)
        assert snapshot(tournament) == before

    def test_games_per_round_setting(self):
        tournament = points_field(games_per_round=1)
        table = start(tournament).tables.order_by("number").first()
        a, *_rest = set_dealer(tournament, table)
        record(tournament, table, a)
        assert refreshed(table).status == enums.TableStatus.DECIDED

    def test_undo_reopens_and_keeps_the_game(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        for winner in (a, b, c):
            record(tournament, table, winner)
        undo(tournament, table)
        table = refreshed(table)
        assert table.status == enums.TableStatus.PLAYING
        assert table.seats.get(player_id=c).points == 10  # two games of 5 points
        assert Game.objects.filter(table=table, status=GameStatus.VOIDED).count() == 1
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert (rows[a].points, rows[b].points, rows[c].points) == (5, 5, 10)

    def test_retry_with_the_same_key_records_one_game(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        idem, version = key(), table.version
        first = record(tournament, table, a, points={b: 1, c: 2}, key=idem, version=version)
        again = record(tournament, table, a, points={b: 1, c: 2}, key=idem, version=version)
        assert first.pk == again.pk
        assert Game.objects.filter(table=table).count() == 1
        assert GameScore.objects.filter(game__table=table).count() == 3

    def test_stale_view_refused(self, table_of_three):
        tournament, table, (a, b, _c) = table_of_three
        stale = table.version
        record(tournament, table, a, version=stale)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="changed on another tablet"):
            record(tournament, table, b, version=stale)
        assert snapshot(tournament) == before

    def test_winner_not_at_the_table_refused(self, table_of_three):
        tournament, table, (_a, b, c) = table_of_three
        stranger = Seat.objects.filter(table__round=table.round).exclude(table=table).first().player_id
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="does not sit at table"):
            record(tournament, table, stranger, points={b: 1, c: 1})
        assert snapshot(tournament) == before

    def test_closed_table_refuses_results_and_undo(self, table_of_three):
        tournament, table, (a, _b, _c) = table_of_three
        for _ in range(3):
            record(tournament, table, a)
        points_services.close_table(
            tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
        )
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="closed"):
            record(tournament, table, a)
        with pytest.raises(ServiceError, match="closed"):
            points_services.undo_last_game(
                tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
            )
        assert snapshot(tournament) == before

    def test_first_dealer_required(self):
        tournament = points_field()
        table = start(tournament).tables.order_by("number").first()
        a, b, c = seated(table)
        with pytest.raises(ServiceError, match="drew the highest card"):
            record(tournament, table, a, points={b: 1, c: 1})
        assert not Game.objects.exists()


class TestCallTime:
    def test_time_called_decides_with_the_games_played(self):
        tournament = points_field(round_time_limit_minutes=30)
        table = start(tournament).tables.order_by("number").first()
        a, b, c = set_dealer(tournament, table)
        record(tournament, table, b, points={a: 12, c: 3})
        points_services.call_time(
            tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
        )
        table = refreshed(table)
        assert table.status == enums.TableStatus.DECIDED
        assert table.time_called_at is not None
        assert dict(table.seats.values_list("player_id", "place")) == {b: 1, c: 2, a: 3}
        assert AuditEntry.objects.filter(tournament=tournament, action="time_called").count() == 1

    def test_refused_before_the_first_game(self):
        tournament = points_field(round_time_limit_minutes=30)
        table = start(tournament).tables.order_by("number").first()
        set_dealer(tournament, table)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="at least one game"):
            points_services.call_time(
                tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
            )
        assert snapshot(tournament) == before

    def test_refused_without_a_time_limit(self, table_of_three):
        tournament, table, (a, _b, _c) = table_of_three
        assert tournament.round_time_limit_minutes is None
        record(tournament, table, a)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="fixed number of games"):
            points_services.call_time(
                tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
            )
        assert snapshot(tournament) == before

    def test_stale_call_refused(self):
        tournament = points_field(round_time_limit_minutes=30)
        table = start(tournament).tables.order_by("number").first()
        a, _b, _c = set_dealer(tournament, table)
        stale = refreshed(table).version
        record(tournament, table, a)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="changed on another tablet"):
            points_services.call_time(tournament=tournament, actor=None, table_id=table.pk, version=stale)
        assert snapshot(tournament) == before


# --------------------------------------------------------------------------
# Standings, withdrawals, scoring table, finish
# --------------------------------------------------------------------------


class TestStandings:
    def test_withdrawn_player_keeps_points_and_leaves_the_seating(self):
        tournament = points_field(players=12, seed=4)
        play_round(tournament, start(tournament, seed=1))
        totals = valid_points(tournament)
        leaver = max(totals, key=totals.__getitem__)  # any player who played
        desk.withdraw_player(tournament=tournament, actor=None, player_id=leaver, confirmed=True)

        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert rows[leaver].points == totals[leaver] > 0
        second = start(tournament, seed=2)
        assert leaver not in {pid for table in round_tables(second) for pid in table}
        assert sum(len(table) for table in round_tables(second)) == 11
        play_round(tournament, second, seed=2)

        standings = points_selectors.ranking(tournament)
        rows = {row.player.pk: row for row in standings}
        assert set(rows) == set(Player.objects.filter(tournament=tournament).values_list("pk", flat=True))
        # Round 2, missed, counts as its highest total (rules.py: a missed round never pays).
        played = valid_points(tournament)
        second_ids = {pid for table in round_tables(second) for pid in table}
        highest = max(played[pid] - totals[pid] for pid in second_ids)
        assert rows[leaver].points == totals[leaver] + highest
        assert rows[leaver].games_played == tournament.games_per_round
        assert_places_ranked([row.place for row in standings])  # a tie shares its place while rounds remain
        assert {pid: row.points for pid, row in rows.items() if pid != leaver} == {
            pid: points for pid, points in played.items() if pid != leaver
        }

    def test_withdrawn_before_playing_is_not_listed(self):
        tournament = points_field(players=13)
        leaver = Player.objects.filter(tournament=tournament).order_by("pk").first()
        desk.withdraw_player(tournament=tournament, actor=None, player_id=leaver.pk, confirmed=True)
        start(tournament)
        players = [row.player.pk for row in points_selectors.ranking(tournament)]
        assert leaver.pk not in players and len(players) == 12

    def test_undone_games_do_not_count(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        record(tournament, table, a, points={b: 50, c: 60})
        undo(tournament, table)
        record(tournament, table, b, points={a: 1, c: 2})
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert (rows[a].points, rows[b].points, rows[c].points) == (1, 0, 2)
        assert (rows[a].games_won, rows[b].games_won) == (0, 1)


class TestScoringTable:
    def test_set_before_results(self):
        tournament = points_field()
        desk.set_scoring_table(tournament=tournament, actor=None, values=HOUSE_RULES_SCORING)
        tournament.refresh_from_db()
        assert tournament.scoring_table == dict(HOUSE_RULES_SCORING)
        custom = {**STANDARD_SCORING, "skip": 0, "wild": 45}
        desk.set_scoring_table(tournament=tournament, actor=None, values=custom)
        tournament.refresh_from_db()
        assert tournament.scoring_table == custom
        assert AuditEntry.objects.filter(tournament=tournament, action="scoring_table_changed").count() == 2
        assert not desk.scoring_locked(tournament)

    @pytest.mark.parametrize(
        "values",
        [
            {**STANDARD_SCORING, "wild": -1},
            {k: v for k, v in STANDARD_SCORING.items() if k != "skip"},
            {**STANDARD_SCORING, "joker": 10},
            {**STANDARD_SCORING, "wild": "50"},
        ],
    )
    def test_invalid_table_refused(self, values):
        tournament = points_field()
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="value of 0 or more"):
            desk.set_scoring_table(tournament=tournament, actor=None, values=values)
        assert snapshot(tournament) == before

    def test_locked_once_card_points_exist(self, table_of_three):
        tournament, table, (a, b, c) = table_of_three
        record(tournament, table, a, points={b: 0, c: 0})
        assert desk.scoring_locked(tournament)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="scoring table is locked"):
            desk.set_scoring_table(tournament=tournament, actor=None, values=HOUSE_RULES_SCORING)
        assert snapshot(tournament) == before

    def test_page_and_service_agree_after_an_undo(self, table_of_three):
        """The only game undone: no card points count, the table may change again,
        and the settings page does not show it as locked."""
        tournament, table, (a, _b, _c) = table_of_three
        record(tournament, table, a)
        undo(tournament, table)
        assert not desk.scoring_locked(tournament)
        desk.set_scoring_table(tournament=tournament, actor=None, values=HOUSE_RULES_SCORING)
        tournament.refresh_from_db()
        assert tournament.scoring_table == dict(HOUSE_RULES_SCORING)


class TestFinish:
    def test_finish_ends_the_tournament(self):
        tournament = points_field(rounds_planned=2)
        for number in (1, 2):
            play_round(tournament, start(tournament, seed=number), seed=number)
        points_services.finish(tournament=tournament, actor=None)
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        assert not Table.objects.filter(round__tournament=tournament).exclude(status=enums.TableStatus.CLOSED).exists()
        assert not Round.objects.filter(tournament=tournament).exclude(status=enums.RoundStatus.FINISHED).exists()
        assert AuditEntry.objects.filter(tournament=tournament, action="tournament_finished").count() == 1
        table = Table.objects.filter(round__tournament=tournament).first()
        with pytest.raises(ServiceError, match="closed"):
            record(tournament, table, seated(table)[0])

    def test_refused_while_tables_play_or_before_any_round(self):
        tournament = points_field()
        with pytest.raises(ServiceError, match="still playing"):
            points_services.finish(tournament=tournament, actor=None)
        start(tournament)
        before = snapshot(tournament)
        with pytest.raises(ServiceError, match="still playing"):
            points_services.finish(tournament=tournament, actor=None)
        assert snapshot(tournament) == before


# --------------------------------------------------------------------------
# Simulation
# --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [12, 30])
def test_simulation_plays_every_round(players):
    tournament = points_field(players=players, seed=players)
    result = simulation.simulate(tournament, seed=players)
    tournament = result.tournament
    assert tournament.status == enums.TournamentStatus.FINISHED
    assert result.rounds == tournament.rounds_planned == 4
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert len(rounds) == 4
    assert all(r.seating_note.startswith("Repeated pairs: 0 ") for r in rounds)
    assert result.games == Game.objects.filter(table__round__tournament=tournament).count()
    assert result.games == tournament.games_per_round * sum(r.tables.count() for r in rounds)
    standings = points_selectors.ranking(tournament)
    ids = set(Player.objects.filter(tournament=tournament).values_list("pk", flat=True))
    assert sorted(row.player.pk for row in standings) == sorted(ids)
    assert [row.place for row in standings] == list(range(1, players + 1))
    assert {row.player.pk: row.points for row in standings} == valid_points(tournament)
    for game in Game.objects.filter(table__round__tournament=tournament).prefetch_related("scores"):
        assert {s.player_id: s.points for s in game.scores.all()}[game.winner_id] == 0
    lines = simulation.ranking_lines(tournament)
    assert len(lines) == players
    assert lines[0].split("\t")[0] == "1"


# --------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------


@pytest.fixture
def played(client, staff_user):
    """Round 1 of 12 players played; in round 2 table 1 has a valid and an undone game."""
    tournament, table = round_two_under_way()
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    return client, tournament, table


class TestPages:
    def test_rounds_page_shows_repeated_pairs(self, played):
        client, tournament, _table = played
        response = client.get(reverse("tournament:rounds", args=[tournament.pk]))
        assert response.status_code == 200
        body = response.content.decode()
        # The round in play is shown in full; round 1 is collapsed until opened.
        assert body.count("Repeated pairs: 0") == 1
        opened = client.get(reverse("tournament:rounds", args=[tournament.pk]), {"round": 1}).content.decode()
        assert opened.count("Repeated pairs: 0") == 2
        assert "Standings (CSV)" in body

    def test_next_round_and_finish_through_the_page(self, client, staff_user):
        tournament = points_field(rounds_planned=1, points_tie_resolution="shared")  # play-offs: test_playoffs.py
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        path = reverse("tournament:next_round", args=[tournament.pk])
        response = client.post(path, {"action": "round"})
        assert response.status_code == 302
        rnd = Round.objects.get(tournament=tournament)
        refused = client.post(path, {"action": "round"})
        assert refused.status_code == 409
        assert "Tables still playing" in refused.content.decode()
        play_round(tournament, rnd)
        refused = client.post(path, {"action": "round"})
        assert refused.status_code == 409 and "All 1 rounds have been played" in refused.content.decode()
        finished = client.post(path, {"action": "finish"})
        assert finished.status_code == 302
        assert finished["Location"] == reverse("tournament:ranking", args=[tournament.pk])
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED

    def test_ranking_shows_the_standings(self, played):
        client, tournament, _table = played
        response = client.get(reverse("tournament:ranking", args=[tournament.pk]))
        assert response.status_code == 200
        body = response.content.decode()
        assert "Standings" in body and "Penalty points" in body
        names = [row.player.name for row in points_selectors.ranking(tournament)]
        positions = [body.index(f"<td>{name}</td>") for name in names]
        assert positions == sorted(positions)

    def test_referee_table_shows_the_calculator(self, client, staff_user):
        tournament = points_field(round_time_limit_minutes=20)
        table = start(tournament).tables.order_by("number").first()
        a, b, c = set_dealer(tournament, table)
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        path = reverse("tournament:referee_table", args=[tournament.pk, table.pk])
        body = client.get(path).content.decode()
        assert body.count("data-calculator data-player=") == 3
        assert f'name="hand_{b}_wild_draw_four"' in body
        assert "penalty points for the cards left in hand" in body
        assert reverse("tournament:call_time", args=[tournament.pk, table.pk]) not in body, "no game yet"
        record(tournament, table, a, points={b: 1, c: 1})
        body = client.get(path).content.decode()
        assert reverse("tournament:call_time", args=[tournament.pk, table.pk]) in body

    def test_calculator_entry_with_drawn_cards_through_the_page(self, client, staff_user):
        tournament = points_field()
        table = start(tournament).tables.order_by("number").first()
        a, b, c = set_dealer(tournament, table)
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        path = reverse("tournament:record_game", args=[tournament.pk, table.pk])
        data = {
            "winner": a,
            "version": refreshed(table).version,
            "key": "page-1",
            # b held a 2 and drew four after a's last wild +4: 2 + 7 + 7 + 20 + 50.
            f"hand_{b}_2": 1,
            f"hand_{b}_7": 2,
            f"hand_{b}_skip": 1,
            f"hand_{b}_wild": 1,
            f"hand_{b}_wild_draw_four": 0,
            f"points_{c}": "13",
            f"points_{b}": "",
        }
        response = client.post(path, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert "table-error" not in response.content.decode()
        game = Game.objects.get(table=table)
        assert scores(game) == {a: 0, b: 86, c: 13}
        client.post(path, data, HTTP_HX_REQUEST="true")  # a Wi-Fi retry
        assert Game.objects.filter(table=table).count() == 1

    def test_call_time_through_the_page(self, client, staff_user):
        tournament = points_field(round_time_limit_minutes=20)
        table = start(tournament).tables.order_by("number").first()
        a, b, c = set_dealer(tournament, table)
        record(tournament, table, a, points={b: 1, c: 2})
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        response = client.post(
            reverse("tournament:call_time", args=[tournament.pk, table.pk]), {"version": refreshed(table).version}
        )
        assert response.status_code == 302
        assert refreshed(table).status == enums.TableStatus.DECIDED


def test_the_database_sums_the_games_as_the_rules_do() -> None:
    """``points_selectors.round_totals`` (summed by the database: a row per player and round) equals the
    rules' ``round_totals`` of the valid games read one by one: an undone game and another
    tournament's games count nowhere, and every win counts for its winner."""
    tournament, _table = round_two_under_way()
    other = points_field(players=9, seed=3)
    play_round(other, start(other, seed=1))
    games: dict[int, GameResult] = {}
    for score in GameScore.objects.filter(
        game__table__round__tournament=tournament, game__status=GameStatus.VALID
    ).select_related("game__table__round"):
        game = games.setdefault(score.game_id, GameResult(score.game.table.round.number, score.game.winner_id or 0, {}))
        game.points[score.player_id] = score.points  # type: ignore[index]
    expected = sorted(points_rules.round_totals(games.values()))
    summed = sorted(points_selectors.round_totals(tournament))
    assert summed == expected
    assert {number for _pid, number, *_rest in summed} == {1, 2}
    assert sum(won for *_rest, won in summed) == len(games)
    assert Game.objects.filter(table__round__tournament=tournament).exclude(status=GameStatus.VALID).exists()
