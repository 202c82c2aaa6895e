"""A player's entry waiting for confirmation, as the public and the staff see it (issue 32, item 4):
the phone page ("find my table"), the projector's table and ``api.json`` say the table waits for a
confirmation, nothing of the waiting result counts (seats, standings), and every public rendering is
made again for it (the entry bumps the tournament's version). The pages' cost where players enter:
the public pages as where referees enter, the referees' list and the rounds page one query more
(``selectors.play.attention``), each the same at 20 and 500 players."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, GameStatus
from tournament import enums
from tournament.models import Player, Tournament
from tournament.passes import services, table_entry
from tournament.selectors import screen as screen_selectors
from tournament.tests.helpers import refreshed
from tournament.tests.passes.test_table_entry_views import HTMX, Phones
from tournament.tests.views.scenarios import FORMATS

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
WAITING_HERE = "An entry at your table is waiting for confirmation"


@pytest.fixture(autouse=True)
def _fresh_cache(settings):  # type: ignore[no-untyped-def]
    settings.PUBLIC_RENDER_SECONDS = 0  # no one-second window (tournament.renderings): each change at once
    cache.clear()
    yield
    cache.clear()


def public(at: Phones, name: str, query: str = "") -> str:
    path = reverse(f"tournament:{name}", args=[at.tournament.public_key]) + query
    answer = Client().get(path, **EN)
    assert answer.status_code == 200, path
    return answer.content.decode()


def table_json(at: Phones) -> dict[str, object]:
    """The table of ``at`` in ``api.json``."""
    document = json.loads(public(at, "api"))
    (table,) = [
        table
        for rnd in document["rounds"]
        for table in rnd["tables"]
        if table["number"] == at.table.number and rnd["number"] == at.table.round.number
    ]
    return table  # type: ignore[no-any-return]


def seat_figures(at: Phones) -> list[tuple[object, ...]]:
    """What the seats of the table count in ``api.json`` (games won, points, chips, out)."""
    seats = table_json(at)["seats"]
    return [(s["games_won"], s["points"], s.get("chips"), s["out"]) for s in seats]  # type: ignore[attr-defined]


def standings(at: Phones) -> list[object]:
    return json.loads(public(at, "api"))["standings"]  # type: ignore[no-any-return]


def find_query(at: Phones, pid: int) -> str:
    return f"?q={Player.objects.get(pk=pid).start_number}"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_waiting_entry_shows_on_every_public_page_and_counts_nowhere(client: Client, fmt: str) -> None:
    at = Phones(fmt)
    anna, ben, carl = at.ids[0], at.ids[1], at.ids[2]
    before = (seat_figures(at), standings(at))
    assert table_json(at)["awaiting_confirmation"] is False
    assert "pj-awaiting" not in public(at, "projector_screen")
    assert WAITING_HERE not in public(at, "find", find_query(at, carl))

    answer = client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    assert answer["X-Entry-Status"] == "saved"
    assert table_json(at)["awaiting_confirmation"] is True
    screen = public(at, "projector_screen")
    assert screen.count('class="pj-awaiting"') == 1 and "waiting for confirmation" in screen
    assert WAITING_HERE in public(at, "find", find_query(at, carl))
    # The other table's players are not told so.
    other = at.other.seats.values_list("player_id", flat=True).first()
    assert WAITING_HERE not in public(at, "find", find_query(at, other))
    # Nothing of the waiting result counts: the seats and the standings are as they were.
    assert (seat_figures(at), standings(at)) == before

    game = Game.objects.get()
    Client().post(at.url("pass_confirm", carl), {"game": game.pk, "version": refreshed(at.table).version}, **HTMX)
    assert Game.objects.get().status == GameStatus.VALID
    assert table_json(at)["awaiting_confirmation"] is False
    assert "pj-awaiting" not in public(at, "projector_screen")
    assert WAITING_HERE not in public(at, "find", find_query(at, carl))
    assert seat_figures(at) != before[0]  # confirmed, it counts


def test_a_big_fields_projector_read_window_by_window_shows_it_too(client: Client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A field above ``screen.WHOLE_READ_CAPACITY`` is read window by window: the same column."""
    monkeypatch.setattr(screen_selectors, "WHOLE_READ_CAPACITY", 0)
    at = Phones(enums.Format.KNOCKOUT)
    client.post(at.url("pass_record", at.ids[0]), at.entry(at.ids[1]), **HTMX)
    shown = screen_selectors.read(refreshed(at.tournament))
    assert [table.number for table in shown.tables if table.awaiting] == [at.table.number]
    assert public(at, "projector_screen").count('class="pj-awaiting"') == 1


def test_not_right_takes_the_waiting_off_the_public_pages(client: Client) -> None:
    at = Phones(enums.Format.LIFE_BANDS)
    anna, ben = at.ids[0], at.ids[1]
    before = seat_figures(at)
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    assert table_json(at)["awaiting_confirmation"] is True
    Client().post(at.url("pass_reject", ben), {"game": Game.objects.get().pk, "reason": "no"}, **HTMX)
    assert table_json(at)["awaiting_confirmation"] is False and seat_figures(at) == before
    assert "pj-awaiting" not in public(at, "projector_screen")


def test_the_projector_and_the_phone_page_are_rendered_again_for_a_waiting_entry(client: Client) -> None:
    """The public renderings are kept per version (``renderings``): the entry bumps it, so a
    projector's poll and a phone's poll get the table waiting at once, not the old rendering."""
    at = Phones(enums.Format.POINTS)
    anna, ben = at.ids[0], at.ids[1]
    screen_url = reverse("tournament:projector_screen", args=[at.tournament.public_key])
    find_url = reverse("tournament:find", args=[at.tournament.public_key]) + find_query(at, ben)
    projector, phone = Client(), Client()
    first = projector.get(screen_url, **EN)
    found = phone.get(find_url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="find-results", **EN)
    version = refreshed(at.tournament).version
    # Unchanged: 304 from the version alone.
    assert projector.get(screen_url, HTTP_IF_NONE_MATCH=first["ETag"], **EN).status_code == 304
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    assert refreshed(at.tournament).version > version
    again = projector.get(screen_url, HTTP_IF_NONE_MATCH=first["ETag"], **EN)
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "pj-awaiting" in again.content.decode()
    polled = phone.get(
        find_url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="find-results", HTTP_IF_NONE_MATCH=found["ETag"], **EN
    )
    assert polled.status_code == 200 and WAITING_HERE in polled.content.decode()


def test_where_referees_enter_no_table_ever_waits(client: Client) -> None:
    at = Phones(enums.Format.KNOCKOUT, mode=enums.TableEntry.REFEREES)
    assert table_json(at)["awaiting_confirmation"] is False
    # A pending game made some other way (the mode changed while one waited) is not announced.
    Tournament.objects.filter(pk=at.tournament.pk).update(table_entry=enums.TableEntry.PLAYERS)
    client.post(at.url("pass_record", at.ids[0]), at.entry(at.ids[1]), **HTMX)
    Tournament.objects.filter(pk=at.tournament.pk).update(table_entry=enums.TableEntry.REFEREES, version=10_000)
    cache.clear()
    assert Game.objects.get().status == GameStatus.PENDING
    assert table_json(at)["awaiting_confirmation"] is False


def test_the_projector_says_it_in_german_and_italian(client: Client) -> None:
    at = Phones(enums.Format.KNOCKOUT)
    client.post(at.url("pass_record", at.ids[0]), at.entry(at.ids[1]), **HTMX)
    path = reverse("tournament:projector_screen", args=[at.tournament.public_key])
    assert "wartet auf Bestätigung" in Client().get(path + "?lang=de").content.decode()
    assert "in attesa di conferma" in Client().get(path + "?lang=it").content.decode()
    find = reverse("tournament:find", args=[at.tournament.public_key]) + find_query(at, at.ids[2])
    assert "wartet auf Bestätigung" in Client().get(find, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "in attesa di conferma" in Client().get(find, HTTP_ACCEPT_LANGUAGE="it").content.decode()


# --- cost -----------------------------------------------------------------------------------------


def counted(client: Client, path: str) -> int:
    cache.clear()  # the public pages are rendered once per version: count the real work
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path, **EN)
        assert answer.status_code == 200, path
    return len(queries)


def page_counts(at: Phones, organiser: Client) -> dict[str, int]:
    key = at.tournament.public_key
    paths = {
        "projector": reverse("tournament:projector", args=[key]),
        "projector_screen": reverse("tournament:projector_screen", args=[key]),
        "api": reverse("tournament:api", args=[key]),
        "find": reverse("tournament:find", args=[key]) + find_query(at, at.ids[2]),
    }
    counts = {name: counted(Client(), path) for name, path in paths.items()}
    for name in ("referee_tables", "rounds"):
        counts[name] = counted(organiser, reverse(f"tournament:{name}", args=[at.tournament.pk]))
    return counts


def players_mode_counts(fmt: str, size: int, staff_user) -> tuple[dict[str, int], dict[str, int]]:  # type: ignore[no-untyped-def]
    """The pages' queries where referees enter, and where players do with one table that called a
    referee and another where an entry waits."""
    at = Phones(fmt, players=size, mode=enums.TableEntry.REFEREES)
    organiser = Client()
    organiser.force_login(staff_user(at.tournament, enums.Role.ORGANISER))
    referees_only = page_counts(at, organiser)
    Tournament.objects.filter(pk=at.tournament.pk).update(table_entry=enums.TableEntry.PLAYERS)
    at.tournament.refresh_from_db()
    Client().post(at.url("pass_record", at.ids[0]), at.entry(at.ids[1]), **HTMX)
    caller = at.other.seats.values_list("player_id", flat=True).first()
    pass_id = services.issue_pass(tournament=at.tournament, actor=None, player_id=caller)[0].pk
    table_entry.call_referee(pass_id=pass_id, table_id=at.other.pk)
    assert Game.objects.filter(table__round__tournament=at.tournament, status=GameStatus.PENDING).count() == 1
    assert refreshed(at.other).referee_called_at is not None
    return referees_only, page_counts(at, organiser)


@pytest.fixture
def _projector_reads_whole(monkeypatch):  # type: ignore[no-untyped-def]
    # Both sizes read the projector's screen whole, as test_query_counts compares them.
    monkeypatch.setattr(screen_selectors, "WHOLE_READ_CAPACITY", 10**9)


# Where players enter, with a called table and a waiting entry: the public pages cost what they cost
# where referees enter (the waiting is a column of the tables' query); the referees' list and the
# rounds page one query more (the tables wanting a referee, ``selectors.play.attention``).
PLAYERS_MODE_EXTRA = {"projector": 0, "projector_screen": 0, "api": 0, "find": 0, "referee_tables": 1, "rounds": 1}
PLAYERS_MODE_PINNED = {
    enums.Format.KNOCKOUT: {
        "projector": 7,
        "projector_screen": 7,
        "api": 4,
        "find": 6,
        "referee_tables": 10,
        "rounds": 18,
    },
    enums.Format.LIFE_BANDS: {
        "projector": 10,
        "projector_screen": 10,
        "api": 7,
        "find": 9,
        "referee_tables": 10,
        "rounds": 24,  # round 1 before its first cut: no waiting pool to name yet
    },
    enums.Format.POINTS: {
        "projector": 10,
        "projector_screen": 10,
        "api": 7,
        "find": 9,
        "referee_tables": 10,
        "rounds": 20,
    },
}


@pytest.mark.slow
@pytest.mark.usefixtures("_projector_reads_whole")
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_pages_cost_the_same_at_20_and_500_players_where_players_enter(fmt: str, staff_user) -> None:  # type: ignore[no-untyped-def]
    counts = {size: players_mode_counts(fmt, size, staff_user) for size in (20, 500)}
    (small_referees, small_players), (large_referees, large_players) = counts[20], counts[500]
    assert small_players == large_players == PLAYERS_MODE_PINNED[fmt], counts
    assert small_referees == large_referees
    extra = {name: small_players[name] - small_referees[name] for name in small_players}
    assert extra == PLAYERS_MODE_EXTRA, counts
