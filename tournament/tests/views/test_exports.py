"""The organiser's CSV exports (``tournament.views.exports``): standings.csv and games.csv.

Semicolon separated, UTF-8 with a byte order mark. standings.csv: place,
start number, name, club, the format's columns and the rule that decided the
place, in ranking order. games.csv: one line per seated player per game,
undone games marked, ordered by round, table and game.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.models import GameScore, GameStatus
from tournament import enums
from tournament.formats import registry
from tournament.formats.points import selectors as points_selectors
from tournament.models import Player
from tournament.tests.formats.points.helpers import round_two_under_way, valid_points
from tournament.tests.helpers import assert_places_ranked, seated

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))


@pytest.fixture
def played(client, staff_user):
    """A points tournament: round 1 of 12 players played; in round 2 table 1 has a valid and an undone game."""
    tournament, table = round_two_under_way()
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    return client, tournament, table


class TestExports:
    """A points tournament (penalty points, games won, games played, best round)."""

    def test_standings_csv(self, played):
        client, tournament, _table = played
        response = client.get(reverse("tournament:export_standings", args=[tournament.pk]))
        assert (
            response["Content-Disposition"] == 'attachment; filename="dry-run-points-12-players-seed-8-standings.csv"'
        )
        header, *rows = read_csv(response)
        assert header == [
            "Place",
            "Start number",
            "Name",
            "Club",
            "Reached",
            "Penalty points",
            "Games won",
            "Games played",
            "Best round",
            "Decided by",
        ]
        standings = points_selectors.ranking(tournament)
        assert len(rows) == len(standings) == 12
        for line, row in zip(rows, standings, strict=True):
            assert line[:8] == [
                str(row.place),
                str(row.player.start_number),
                row.player.name,
                row.player.club,
                str(row.reached),
                str(row.points),
                str(row.games_won),
                str(row.games_played),
            ]
            assert line[9] == str(registry.of(tournament).rule_label(row.decided_by))
        assert_places_ranked([int(line[0]) for line in rows])  # a tie shares its place (issue 28)

    def test_games_csv_has_one_line_per_score_undone_games_marked(self, played):
        client, tournament, table = played
        header, *rows = read_csv(client.get(reverse("tournament:export_games", args=[tournament.pk])))
        assert header == [
            "Round",
            "Table",
            "Game",
            "Status",
            "Winner",
            "Loser",
            "Start number",
            "Name",
            "Points",
            "Cards",
            "Entered at",
            "Entered by",
            "Round name",
            "Table name",
            "Stage",
        ]
        assert len(rows) == GameScore.objects.filter(game__table__round__tournament=tournament).count()
        assert len(rows) == 4 * 3 * 3 + 2 * 3  # round 1: 4 tables x 3 games x 3 players; round 2: 2 games
        undone = [line for line in rows if line[3] == str(GameStatus.VOIDED.label)]
        assert len(undone) == 3
        assert {line[0] for line in undone} == {"2"} and {line[1] for line in undone} == {str(table.number)}
        numbers = dict(Player.objects.filter(tournament=tournament).values_list("start_number", "pk"))
        by_player = {numbers[int(line[6])]: line for line in undone}
        a, b, c = seated(table)
        assert by_player[a][8] == "50" and by_player[c][8] == "4" and by_player[b][8] == "0"
        assert by_player[a][4] == str(Player.objects.get(pk=b).start_number)
        assert {line[5] for line in rows} == {""}  # UNO games have a winner, no loser
        valid = [line for line in rows if line[3] == str(GameStatus.VALID.label)]
        assert sum(int(line[8]) for line in valid) == sum(valid_points(tournament).values())
        # Ordered by round, table, game.
        order = [(int(line[0]), int(line[1]), int(line[2])) for line in rows]
        assert order == sorted(order)
        # Beside the numbers, the names the pages say, last (the columns before keep their places).
        assert {(line[0], line[1], line[12], line[13]) for line in undone} == {
            # The points format has one stage: its rounds are "Round 2", not "Main round 2" (issue 28).
            ("2", str(table.number), "Round 2", f"Table {table.number}")
        }
        assert {line[14] for line in rows} == {"Round"}
        # Cards as cards (the undone game's hands: a wild to the first, a 4 to the third), not the points again.
        assert by_player[a][9] == "1×Wild" and by_player[c][9] == "1×4" and by_player[b][9] == ""
