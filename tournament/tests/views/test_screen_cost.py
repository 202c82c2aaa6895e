"""Staff pages whose cost follows the screen, not the field (issue 16).

The rounds page shows the running round in full and earlier rounds collapsed,
opened on demand (``?round=N``, a plain link or htmx); the ranking and the
referees' table list come in pages with a way to jump to a player or a table;
printouts come in parts; the games export is streamed; a referee's tap does its
reads before the tournament lock. (The query counts at 20 and 500 players:
``test_query_counts``; the times at 5,000: ``measure_staff_pages``.)
"""

from __future__ import annotations

import csv
import io
import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from tournament import enums
from tournament.formats import registry
from tournament.models import Round, Table
from tournament.selectors import play as play_selectors
from tournament.selectors import printing as printing_selectors
from tournament.tests.helpers import refreshed, seated, set_dealer, url
from tournament.tests.views.scenarios import field, start_round
from tournament.tests.views.test_query_counts import decide_fast, playing_tables
from tournament.views import rounds as rounds_views

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def two_rounds(db):  # type: ignore[no-untyped-def]
    """A knockout of 27 players: round 1 decided (seven tables), round 2 seated (five tables)."""
    tournament = field(enums.Format.KNOCKOUT, 27, seed=3)
    start_round(tournament, seed=1)
    decide_fast(tournament, playing_tables(tournament))
    second = start_round(tournament, seed=2)
    return tournament, second


def table_links(page: str, tournament, rnd: Round) -> int:  # type: ignore[no-untyped-def]
    return sum(url("referee_table", tournament, table.pk) in page for table in rnd.tables.all())


def test_earlier_rounds_are_collapsed_until_opened(client, login_as, two_rounds):  # type: ignore[no-untyped-def]
    tournament, second = two_rounds
    first = Round.objects.get(tournament=tournament, number=1)
    login_as("organiser", tournament)
    now = second.tables.count()
    page = client.get(url("rounds", tournament)).content.decode()
    assert table_links(page, tournament, second) == now
    assert table_links(page, tournament, first) == 0
    assert f"{first.tables.count()} tables" in page and "?round=1" in page

    opened = client.get(url("rounds", tournament) + "?round=1").content.decode()
    assert (
        table_links(opened, tournament, first) == first.tables.count()
        and table_links(opened, tournament, second) == now
    )
    assert f'data-poll-url="/t/{tournament.pk}/rounds/?round=1"' in opened  # the poll keeps it open

    fragment = client.get(url("rounds", tournament) + "?round=1", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="rounds-body")
    body = fragment.content.decode()
    assert (
        fragment.status_code == 200
        and "<html" not in body
        and table_links(body, tournament, first) == first.tables.count()
    )

    for junk in ("abc", "-1", "99", "1" * 40):
        other = client.get(url("rounds", tournament) + "?round=" + junk)
        assert other.status_code == 200 and table_links(other.content.decode(), tournament, first) == 0


def test_rounds_page_reads_the_same_queries_whatever_is_opened(client, login_as, two_rounds):  # type: ignore[no-untyped-def]
    tournament, _second = two_rounds
    login_as("organiser", tournament)
    client.get(url("rounds", tournament))
    with CaptureQueriesContext(connection) as plain:
        client.get(url("rounds", tournament))
    with CaptureQueriesContext(connection) as opened:
        client.get(url("rounds", tournament) + "?round=1")
    assert len(plain) == len(opened)


def test_rounds_page_shows_a_round_of_many_tables_a_page_at_a_time(client, login_as, two_rounds, monkeypatch):  # type: ignore[no-untyped-def]
    tournament, second = two_rounds
    monkeypatch.setattr(play_selectors, "TABLES_PER_PAGE", 2)
    first_round = Round.objects.get(tournament=tournament, number=1)
    login_as("organiser", tournament)
    tables = list(second.tables.order_by("number"))
    earlier = list(first_round.tables.order_by("number"))
    assert len(tables) == 5

    def linked(page: str, shown: list[Table]) -> list[bool]:
        """Which of ``shown`` the page draws as a table (the step above also names playing tables)."""
        return [f'href="{url("referee_table", tournament, t.pk)}" class="bracket-title"' in page for t in shown]

    client.get(url("rounds", tournament))  # the first request after the login fills the caches
    with CaptureQueriesContext(connection) as first_page:
        page = client.get(url("rounds", tournament)).content.decode()
    assert linked(page, tables) == [True, True, False, False, False]
    # The step still counts and names every table that plays, whatever page is shown.
    assert "5 tables are still playing" in page and f"Table {tables[4].number}</a>" in page
    assert '<strong aria-current="page">1–2</strong>' in page and "?from=3" in page and "?from=5" in page
    assert f'data-poll-url="/t/{tournament.pk}/rounds/?from=1"' in page  # the poll keeps the page

    with CaptureQueriesContext(connection) as later_page:
        third = client.get(url("rounds", tournament) + "?from=3").content.decode()
    assert linked(third, tables) == [False, False, True, True, False]
    assert '<strong aria-current="page">3–4</strong>' in third
    assert len(first_page) == len(later_page)

    opened = client.get(url("rounds", tournament) + "?round=1&from=3").content.decode()
    assert linked(opened, earlier)[:5] == [False, False, True, True, False]
    assert linked(opened, tables) == [False, False, True, True, False]
    assert f'data-poll-url="/t/{tournament.pk}/rounds/?round=1&amp;from=3"' in opened
    assert "?round=1&amp;from=5" in opened  # the pager keeps the opened round

    fragment = client.get(url("rounds", tournament) + "?from=5", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="rounds-body")
    assert fragment.status_code == 200 and linked(fragment.content.decode(), tables) == [False] * 4 + [True]

    for junk in ("x", "-3", "0", "9999", "1" * 40):
        other = client.get(url("rounds", tournament) + "?from=" + junk)
        assert other.status_code == 200
        shown = linked(other.content.decode(), tables)
        assert shown in ([True, True, False, False, False], [False] * 5), junk  # page 1, or beyond the last


def test_ranking_comes_in_pages_and_jumps_to_a_player(client, login_as, two_rounds, monkeypatch):  # type: ignore[no-untyped-def]
    tournament, _second = two_rounds
    monkeypatch.setattr(rounds_views, "RANKING_PER_PAGE", 10)
    login_as("organiser", tournament)
    rows = registry.of(tournament).ranking(tournament)
    assert len(rows) == 27
    first = client.get(url("ranking", tournament)).content.decode()
    assert first.count('<tr id="player-') == 10 and "page 1 of 3" in first
    last = client.get(url("ranking", tournament) + "?page=3").content.decode()
    assert last.count('<tr id="player-') == 7
    assert client.get(url("ranking", tournament) + "?page=999").content.decode().count('<tr id="player-') == 7
    wanted = rows[24].player
    jumped = client.get(url("ranking", tournament) + f"?q={wanted.start_number}").content.decode()
    assert f'<tr id="player-{wanted.pk}" class="is-found"' in jumped and "page 3 of 3" in jumped
    by_name = client.get(url("ranking", tournament), {"q": wanted.name}).content.decode()
    assert f'<tr id="player-{wanted.pk}" class="is-found"' in by_name
    nobody = client.get(url("ranking", tournament), {"q": "Zzyzx"}).content.decode()
    assert "Nobody in the ranking matches" in nobody


def test_referee_list_shows_a_range_of_tables(client, login_as, two_rounds, monkeypatch):  # type: ignore[no-untyped-def]
    tournament, second = two_rounds
    monkeypatch.setattr(play_selectors, "TABLES_PER_PAGE", 2)
    login_as("referee", tournament)
    tables = list(second.tables.order_by("number"))
    assert len(tables) > 3
    page = client.get(url("referee_tables", tournament)).content.decode()
    assert [url("referee_table", tournament, t.pk) in page for t in tables[:3]] == [True, True, False]
    third = client.get(url("referee_tables", tournament) + "?table=3").content.decode()
    assert [url("referee_table", tournament, t.pk) in third for t in tables[:5]] == [False, False, True, True, False]
    assert "is-found" in third and "?from=1" in third
    assert client.get(url("referee_tables", tournament) + "?from=x").status_code == 200


def test_printouts_come_in_parts(client, login_as, two_rounds, monkeypatch):  # type: ignore[no-untyped-def]
    tournament, _second = two_rounds
    monkeypatch.setattr(printing_selectors, "TABLES_PER_PART", 4)
    monkeypatch.setattr(printing_selectors, "PLAYERS_PER_PART", 10)
    login_as("organiser", tournament)
    first = Round.objects.get(tournament=tournament, number=1)
    tables = list(first.tables.order_by("number"))
    for name in ("print_table_cards", "print_result_slips", "table_cards"):
        parts = [client.get(url(name, tournament, 1) + f"?part={n}").content.decode() for n in (1, 2, 3, 99)]
        marks = {"print_table_cards": '<div class="table-card">', "print_result_slips": 'id="slip-'}
        shown = [part.count(marks.get(name, "table-qr-card")) for part in parts]
        assert shown == [4, len(tables) - 4, len(tables) - 4, len(tables) - 4], name
        assert "Part 1 of 2" in parts[0]
    cards = client.get(url("print_cards", tournament) + "?part=3").content.decode()
    assert len(re.findall(r'class="start-card[ "]', cards)) == 7  # with or without its pass
    players = client.get(url("print_players", tournament) + "?part=2").content.decode()
    assert players.count("<tr>") == 10 + 1  # the head's row and ten players


def test_games_export_is_streamed_with_every_score(client, login_as):  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.POINTS, 12, seed=5)
    start_round(tournament, seed=1)
    table = Table.objects.filter(round__tournament=tournament).order_by("number").first()
    assert table is not None
    ids = set_dealer(tournament, table)
    for winner in (ids[0], ids[1], ids[0]):
        registry.of(tournament).record_result(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            winner_id=winner,
            version=refreshed(table).version,
            idempotency_key=uuid.uuid4().hex,
            card_points={pid: 7 for pid in ids if pid != winner},
        )
    login_as("organiser", tournament)
    response = client.get(url("export_games", tournament))
    assert response.streaming
    text = b"".join(response.streaming_content).decode("utf-8").removeprefix("\ufeff")
    header, *rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert header[0] == "Round" and len(rows) == 3 * len(ids)
    assert sorted(row[8] for row in rows if row[2] == "1") == sorted(["0"] + ["7"] * (len(ids) - 1))


def test_a_tap_reads_before_the_tournament_lock(two_rounds):  # type: ignore[no-untyped-def]
    tournament, second = two_rounds
    table = second.tables.order_by("number").first()
    ids = set_dealer(tournament, table)
    key = uuid.uuid4().hex
    version = refreshed(table).version
    with CaptureQueriesContext(connection) as captured:
        game = registry.of(tournament).record_result(
            tournament=tournament, actor=None, table_id=table.pk, winner_id=ids[0], version=version, idempotency_key=key
        )
    sqls = [query["sql"] for query in captured.captured_queries]
    locked_at = next(i for i, sql in enumerate(sqls) if "FOR UPDATE" in sql and "tournament_tournament" in sql)
    # Under the lock: the tournament, the table, the game, the seats, the table, the version, the audit.
    assert len(sqls) - locked_at <= 8, sqls[locked_at:]
    assert game.table_version == refreshed(table).version
    # A retry with the version the tablet saw gets the same game back, without any lock.
    with CaptureQueriesContext(connection) as again:
        replay = registry.of(tournament).record_result(
            tournament=tournament, actor=None, table_id=table.pk, winner_id=ids[0], version=version, idempotency_key=key
        )
    assert replay.pk == game.pk and replay.replayed
    assert not any("FOR UPDATE" in query["sql"] for query in again.captured_queries)
    assert Game.objects.filter(table=table).count() == 1
    assert seated(table) == ids
