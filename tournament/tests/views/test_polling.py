"""Staff pages and the phone page keep themselves current with cheap conditional polls.

A polled region answers ``304 Not Modified`` without a query (the version
from the cache, ``tournament.versions``) while the tournament is unchanged,
a fresh region after any write, and the same number of queries at 20 and
at 500 players. A 304 is only ever given to the session that received the
region (the ETag holds a keyed hash of its session cookie); everyone else goes through the login and role checks.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import enums, simulation
from tournament.formats import registry
from tournament.formats.knockout import services as knockout
from tournament.models import Table, Tournament
from tournament.tests.helpers import field_at_once, record_one_result, refreshed, seated, url

pytestmark = [pytest.mark.core, pytest.mark.django_db]


# (url name, region id) of every polled staff page.
STAFF_REGIONS = [("referee_tables", "tables-list"), ("referee_table", "table-panel"), ("rounds", "rounds-body")]


def poll(client: Client, path: str, target: str, etag: str = ""):  # type: ignore[no-untyped-def]
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **headers)
    return response, len(queries)


def region_path(tournament: Tournament, name: str, table: Table) -> str:
    return url(name, tournament, table.pk) if name == "referee_table" else url(name, tournament)


def play_a_little(tournament: Tournament) -> Table:
    """Seat round 1 of any format and record one result at table 1; returns table 1."""
    registry.of(tournament).next_step(tournament=tournament, actor=None, action="main")
    table = Table.objects.filter(round__tournament=tournament).order_by("number").first()
    assert table is not None
    return record_one_result(tournament, table)


def measure(client: Client, staff_user, fmt: str, players: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    tournament = field_at_once(fmt=fmt, players=players, seed=3)
    table = play_a_little(tournament)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    counts: dict[str, int] = {}
    for name, target in STAFF_REGIONS:
        path = region_path(tournament, name, table)
        fresh, counts[name] = poll(client, path, target)
        assert fresh.status_code == 200, (name, fresh.status_code)
        body = fresh.content.decode()
        assert body.lstrip().startswith(f'<div id="{target}"'), name
        assert "<html" not in body
        assert fresh["ETag"] and "private" in fresh["Cache-Control"]
        unchanged, counts[f"{name} 304"] = poll(client, path, target, fresh["ETag"])
        assert unchanged.status_code == 304, name
        assert unchanged["ETag"] == fresh["ETag"]
    start_number = seated(table)[0]
    find_path = (
        reverse("tournament:find", args=[tournament.public_key])
        + f"?q={tournament.players.get(pk=start_number).start_number}"
    )
    fresh, counts["find"] = poll(client, find_path, "find-results")
    assert fresh.status_code == 200 and 'id="find-results"' in fresh.content.decode()
    unchanged, counts["find 304"] = poll(client, find_path, "find-results", fresh["ETag"])
    assert unchanged.status_code == 304
    return counts


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS])
@pytest.mark.slow  # six fields of up to 500 players: not part of the SQLite smoke run
def test_polls_cost_the_same_at_20_and_500_players_and_a_304_no_query(client, staff_user, fmt):
    small = measure(client, staff_user, fmt, 20)
    large = measure(client, staff_user, fmt, 500)
    assert small == large, f"queries at 20 vs 500 players: {small} / {large}"
    for name, count in small.items():
        if name.endswith("304"):
            assert count == 0, (name, count)  # the version from the cache (tournament.versions)


@pytest.fixture
def table_page(client, staff_user):  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=2)
    table = play_a_little(tournament)
    referee = staff_user(tournament, enums.Role.REFEREE)
    client.force_login(referee)
    return tournament, table, url("referee_table", tournament, table.pk)


def test_any_write_ends_the_304s(client, table_page):
    tournament, table, path = table_page
    first, _ = poll(client, path, "table-panel")
    ids = seated(table)
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=ids[1],
        version=refreshed(table).version,
        idempotency_key="next",
    )
    changed, _ = poll(client, path, "table-panel", first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]
    assert "Game 2:" in changed.content.decode()


def test_the_panel_after_a_tap_carries_the_etag_of_the_next_poll(client, table_page):
    """The answer to a result entry already knows the new version: the tablet's next poll is a 304."""
    tournament, table, path = table_page
    ids = seated(table)
    response = client.post(
        url("record_game", tournament, table.pk),
        {"winner": ids[2], "version": refreshed(table).version, "key": "tap"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="table-panel",
    )
    assert response.status_code == 200
    etag = response.content.decode().split('data-etag="', 1)[1].split('"', 1)[0].replace("&quot;", '"')
    unchanged, queries = poll(client, path, "table-panel", etag)
    assert (unchanged.status_code, queries) == (304, 0)


def test_a_304_is_only_for_the_session_that_got_the_region(client, table_page, make_user, staff_user):
    tournament, _table, path = table_page
    fresh, _ = poll(client, path, "table-panel")
    etag = fresh["ETag"]
    anonymous = Client()
    response, _ = poll(anonymous, path, "table-panel", etag)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    outsider = Client()
    outsider.force_login(make_user())
    response, _ = poll(outsider, path, "table-panel", etag)
    assert response.status_code == 403
    colleague = Client()
    colleague.force_login(staff_user(tournament, enums.Role.REFEREE))
    response, _ = poll(colleague, path, "table-panel", etag)
    assert response.status_code == 200  # a new ETag of its own, after the role check


def test_whole_pages_never_answer_304(client, table_page):
    """A reload always renders afresh (new idempotency keys, messages shown)."""
    _tournament, _table, path = table_page
    fresh, _ = poll(client, path, "table-panel")
    response = client.get(path, HTTP_IF_NONE_MATCH=fresh["ETag"])
    assert response.status_code == 200
    assert "ETag" not in response
    assert "<html" in response.content.decode()
    assert 'data-poll="5"' in response.content.decode()


def test_the_language_is_part_of_the_etag(client, table_page):
    _tournament, _table, path = table_page
    english, _ = poll(client, path, "table-panel")
    client.cookies["django_language"] = "de"
    german, _ = poll(client, path, "table-panel", english["ETag"])
    assert german.status_code == 200
    assert german["ETag"] != english["ETag"]


def test_the_phone_page_polls_without_a_login(client, table_page):
    tournament, table, _path = table_page
    player = tournament.players.get(pk=seated(table)[0])
    path = reverse("tournament:find", args=[tournament.public_key]) + f"?q={player.start_number}"
    phone = Client()
    fresh, _ = poll(phone, path, "find-results")
    assert fresh.status_code == 200 and player.name in fresh.content.decode()
    assert "public" in fresh["Cache-Control"]
    unchanged, queries = poll(phone, path, "find-results", fresh["ETag"])
    assert (unchanged.status_code, queries) == (304, 0)
    other, _ = poll(
        phone, reverse("tournament:find", args=[tournament.public_key]) + "?q=zz", "find-results", fresh["ETag"]
    )
    assert other.status_code == 200  # another search, another ETag
