"""Games numbered as the referee counts them (issue 26): an undone game gives its number back.

The paper result slip numbers its lines 1, 2, 3 ...; the referee who undoes game 3 plays game 3
again. Recorded through the referee's page, the game played after an undo takes the undone
game's number, and the referee's page, the log, the corrections page, the games CSV and the
result slip all say so. A correction keeps the number of the game it supersedes.
"""

from __future__ import annotations

import csv
import html
import io
import re
import uuid

import pytest
from django.test import Client

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.formats.knockout import dry_run as knockout_dry_run
from tournament.models import Player, Table, Tournament
from tournament.tests.helpers import refreshed, set_dealer, url

pytestmark = [pytest.mark.core, pytest.mark.django_db]


@pytest.fixture
def table_one() -> tuple[Tournament, Table, list[int]]:
    """Nine players, round 1 seated as the first option has it (three tables of three, first to three
    wins); table 1's dealer drawn."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=3)
    started = knockout_dry_run.seat_next_round(tournament, actor=None, seed=3)  # asked at 9: the first option
    assert started.round is not None
    table = started.round.tables.get(number=1)
    assert table.wins_needed == 3
    return tournament, table, set_dealer(tournament, table)


@pytest.fixture
def organiser(client: Client, staff_user, table_one) -> Client:  # type: ignore[no-untyped-def]
    """The organiser: taps results at the table (an organiser may referee) and corrects them."""
    client.force_login(staff_user(table_one[0], enums.Role.ORGANISER))
    return client


def tap(client: Client, tournament: Tournament, table: Table, winner: int) -> str:
    """The referee taps ``winner`` on the table page; the notice the page answers with."""
    data = {"winner": winner, "version": refreshed(table).version, "key": uuid.uuid4().hex}
    response = client.post(url("record_game", tournament, table.pk), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()
    return text(response.content.decode())


def undo(client: Client, tournament: Tournament, table: Table) -> str:
    response = client.post(
        url("undo_game", tournament, table.pk), {"version": refreshed(table).version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200, response.content.decode()
    return text(response.content.decode())


def text(page: str) -> str:
    """A page's words, tags left out, white space folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def name(pk: int) -> str:
    return Player.objects.get(pk=pk).name


def numbers(table: Table, status: str) -> list[tuple[int, str]]:
    """(number, winner's name) of the table's games with ``status``, in number order."""
    games = Game.objects.filter(table=table, status=status).select_related("winner").order_by("number", "pk")
    return [(game.number, game.winner.name if game.winner else "") for game in games]


def game_log(client: Client, tournament: Tournament, table: Table) -> str:
    """The referee page's list of games (valid and undone), as words."""
    page = client.get(url("referee_table", tournament, table.pk)).content.decode()
    return text(page.split('<section class="game-log">', 1)[1].split("</section>", 1)[0])


def next_game(client: Client, tournament: Tournament, table: Table) -> int:
    """The number the referee page gives the next game (the outbox names a queued tap with it)."""
    page = client.get(url("referee_table", tournament, table.pk)).content.decode()
    found = re.search(r'data-next-game="(\d+)"', page)
    assert found is not None
    return int(found.group(1))


def csv_games(client: Client, tournament: Tournament, table: Table) -> list[tuple[str, str, str]]:
    """(game, status, winner's start number) of the table's lines in the games CSV, once per game."""
    response = client.get(url("export_games", tournament))
    body = b"".join(response.streaming_content).decode("utf-8").removeprefix("\ufeff")
    _header, *rows = csv.reader(io.StringIO(body), delimiter=";")
    return list(
        dict.fromkeys((row[2], row[3], row[4]) for row in rows if row[0] == "1" and row[1] == str(table.number))
    )


def log(client: Client, tournament: Tournament) -> str:
    return text(client.get(url("audit_log", tournament)).content.decode())


def start(pk: int) -> str:
    return str(Player.objects.get(pk=pk).start_number)


def test_the_game_after_an_undo_takes_the_undone_games_number_everywhere(organiser, table_one):
    tournament, table, (a, b, c) = table_one
    assert "Saved: game 1" in tap(organiser, tournament, table, a)
    assert "Saved: game 2" in tap(organiser, tournament, table, b)
    assert "Saved: game 3" in tap(organiser, tournament, table, a)
    assert "Game 3 undone." in undo(organiser, tournament, table)
    assert next_game(organiser, tournament, table) == 3
    assert f"Saved: game 3, won by {name(c)}." in tap(organiser, tournament, table, c)

    assert numbers(table, GameStatus.VALID) == [(1, name(a)), (2, name(b)), (3, name(c))]
    assert numbers(table, GameStatus.VOIDED) == [(3, name(a))]
    # The referee's page: game 3 undone, game 3 played instead; the next is game 4.
    games = game_log(organiser, tournament, table)
    assert f"Game 3: {name(a)}" in games and "Undone" in games and f"Game 3: {name(c)}" in games
    assert "Game 4" not in games
    assert next_game(organiser, tournament, table) == 4
    # The log, the corrections page and the games CSV say the same.
    trail = log(organiser, tournament)
    assert re.search(rf"Main round 1 · Table 1: {re.escape(name(c))}[^.]* won game 3\.", trail), trail
    assert "won game 4" not in trail
    corrections = text(organiser.get(url("table_corrections", tournament, table.pk)).content.decode())
    assert f"Game 3: {name(c)}" in corrections and "Correct or void game 3" in corrections
    assert "game 4" not in corrections.lower()
    assert csv_games(organiser, tournament, table) == [
        ("1", "Valid", start(a)),
        ("2", "Valid", start(b)),
        ("3", "Undone", start(a)),
        ("3", "Valid", start(c)),
    ]
    # The paper result slip: one line per game, numbered 1, 2, 3 ...
    slips = organiser.get(url("print_result_slips", tournament, 1)).content.decode()
    slip = slips.split('id="slip-1"', 1)[1].split("</section>", 1)[0]
    lines = re.findall(r'<th class="slip-game" scope="row">(\d+)</th>', slip)
    assert lines[:3] == ["1", "2", "3"]


def test_two_undos_give_back_two_numbers(organiser, table_one):
    tournament, table, (a, b, c) = table_one
    for winner in (a, b, a):
        tap(organiser, tournament, table, winner)
    assert "Game 3 undone." in undo(organiser, tournament, table)
    assert "Game 2 undone." in undo(organiser, tournament, table)
    assert next_game(organiser, tournament, table) == 2
    assert f"Saved: game 2, won by {name(c)}." in tap(organiser, tournament, table, c)
    assert f"Saved: game 3, won by {name(c)}." in tap(organiser, tournament, table, c)

    assert numbers(table, GameStatus.VALID) == [(1, name(a)), (2, name(c)), (3, name(c))]
    assert numbers(table, GameStatus.VOIDED) == [(2, name(b)), (3, name(a))]
    games = game_log(organiser, tournament, table)
    assert f"Game 2: {name(c)}" in games and f"Game 3: {name(c)}" in games and "Game 4" not in games
    assert next_game(organiser, tournament, table) == 4
    trail = log(organiser, tournament)
    assert "Main round 1 · Table 1: game 3 undone." in trail  # the two undos
    assert "Main round 1 · Table 1: game 2 undone." in trail
    assert "won game 4" not in trail and "won game 5" not in trail


def test_a_correction_after_an_undo_keeps_the_number_of_the_game_it_supersedes(organiser, table_one):
    tournament, table, (a, b, c) = table_one
    tap(organiser, tournament, table, a)
    tap(organiser, tournament, table, b)
    undo(organiser, tournament, table)
    assert f"Saved: game 2, won by {name(a)}." in tap(organiser, tournament, table, a)
    replayed = Game.objects.get(table=table, status=GameStatus.VALID, number=2)

    path = url("table_corrections", tournament, table.pk)
    data = {
        "action": "correct",
        "game": replayed.pk,
        "version": refreshed(table).version,
        "reason": "tapped the wrong player",
        "winner": c,
    }
    asked = organiser.post(path, data)
    assert asked.status_code == 200
    done = organiser.post(path, {**data, "confirm": asked.context["question"].fingerprint})
    assert done.status_code == 302
    assert "Game 2 is corrected." in text(organiser.get(path).content.decode())

    assert numbers(table, GameStatus.VALID) == [(1, name(a)), (2, name(c))]
    assert numbers(table, GameStatus.SUPERSEDED) == [(2, name(a))]
    assert numbers(table, GameStatus.VOIDED) == [(2, name(b))]
    assert Game.objects.get(table=table, status=GameStatus.VALID, number=2).supersedes_id == replayed.pk
    assert "Main round 1 · Table 1: game 2 corrected" in log(organiser, tournament)
    assert next_game(organiser, tournament, table) == 3
    assert "Saved: game 3" in tap(organiser, tournament, table, b)
