"""Players record their own table (issue 32, item 4): the phone's table page and its posts (the
outbox's headers, refusals with words and nothing saved, never a 500), the entry waiting on every
player's pass and on the staff's pages, and the phone page's cost at 20 and 500 players."""

from __future__ import annotations

import re
import uuid
from urllib.parse import unquote

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, GameStatus
from tournament import enums
from tournament.formats import registry
from tournament.models import Seat, Table, Tournament
from tournament.passes import services
from tournament.tests.helpers import refreshed, seated, set_dealer
from tournament.tests.views.scenarios import FORMATS, field, snapshot, start_round

pytestmark = pytest.mark.django_db
SEED = 20261127
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table-panel", "HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


class Phones:
    """Round 1 of a tournament whose players enter their tables; the tokens of one table's players."""

    def __init__(self, fmt: str, players: int = 12, mode: str = enums.TableEntry.PLAYERS) -> None:
        self.tournament = field(fmt, players, SEED)
        self.tournament.table_entry = mode
        self.tournament.save(update_fields=["table_entry"])
        rnd = start_round(self.tournament, SEED)
        tables = list(rnd.tables.order_by("number"))
        self.table, self.other = tables[0], tables[1]
        self.ids = seated(self.table)
        self.names = dict(Seat.objects.filter(table=self.table).values_list("player_id", "player__name"))
        self.tokens = {
            pid: services.issue_pass(tournament=self.tournament, actor=None, player_id=pid)[1] for pid in self.ids
        }
        self.fmt = registry.of(self.tournament)
        if self.fmt.entry == "winner":
            set_dealer(self.tournament, self.table)

    def url(self, name: str, pid: int, table: Table | None = None) -> str:
        kwargs: dict[str, object] = {"token": self.tokens[pid]}
        if name != "pass_table":
            kwargs["table_id"] = (table or self.table).pk
        return reverse(f"tournament:{name}", kwargs=kwargs)

    def entry(self, result: int, key: str = "") -> dict[str, str]:
        data = {"version": str(refreshed(self.table).version), "key": key or uuid.uuid4().hex}
        if self.fmt.entry == "loser":
            data["loser"] = str(result)
        else:
            data["winner"] = str(result)
            if self.fmt.counts_card_points(self.table):
                data.update({f"points_{pid}": "5" for pid in self.ids if pid != result})
        return data


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_phone_enters_a_game_with_the_outboxs_headers_and_a_table_mate_confirms(client: Client, fmt: str) -> None:
    at = Phones(fmt)
    anna, ben, carl = at.ids[0], at.ids[1], at.ids[2]
    page = client.get(at.url("pass_table", anna), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The format's own entry, posting to the phone's URL through the outbox.
    assert f'action="{at.url("pass_record", anna)}"' in page and 'data-entry="result"' in page
    assert 'id="table-panel"' in page and "Call a referee" in page
    posted = at.entry(ben)
    answer = client.post(at.url("pass_record", anna), posted, **HTMX)
    assert answer.status_code == 200 and answer["X-Entry-Status"] == "saved"
    table = refreshed(at.table)
    assert answer["X-Entry-Version"] == answer["X-Table-Version"] == str(table.version)
    assert "waits for a table-mate&#x27;s confirmation" in answer.content.decode()
    again = client.post(at.url("pass_record", anna), posted, **HTMX)
    assert again["X-Entry-Status"] == "replayed" and Game.objects.count() == 1
    # Every player of the table sees it waiting: on the pass and on the table page.
    line = f"{at.names[anna]} entered:"
    for pid in (ben, carl):
        assert line in Client().get(reverse("tournament:pass", kwargs={"token": at.tokens[pid]})).content.decode()
    assert "Another player at your table confirms it" in client.get(at.url("pass_table", anna)).content.decode()
    game = Game.objects.get()
    confirmed = Client().post(at.url("pass_confirm", ben), {"game": game.pk, "version": table.version}, **HTMX)
    assert confirmed.status_code == 200 and "Confirmed: game 1 counts." in confirmed.content.decode()
    assert Game.objects.get().status == GameStatus.VALID


def test_a_refused_entry_answers_409_with_the_reason_and_saves_nothing(client: Client) -> None:
    at = Phones(enums.Format.KNOCKOUT)
    anna, ben = at.ids[0], at.ids[1]
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    before = snapshot()
    answer = Client().post(at.url("pass_record", ben), at.entry(ben), **HTMX)
    assert answer.status_code == 409 and answer["X-Entry-Status"] == "refused"
    words = f"{at.names[anna]}'s entry for game 1 waits for confirmation: confirm it or say it is not right first."
    assert unquote(answer["X-Refusal"]) == words
    own = client.post(at.url("pass_confirm", anna), {"game": Game.objects.get().pk, "version": 1}, **HTMX)
    assert own.status_code == 409 and "You entered this game yourself" in own.content.decode()
    assert snapshot() == before


BAD_POSTS = [
    {},
    {"winner": "x", "loser": "-1", "version": "abc", "key": "k" * 200},
    {"winner": "999999999999", "version": "1", "key": "a"},
    {"points_1": "-5", "hand_1_wild": "999", "winner": "1", "version": "1", "key": "b"},
    {"game": "x", "version": "", "reason": "\x00" * 5},
    {"game": "999999999", "player": "abc", "reason": "r" * 5000},
]


@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_inputs_never_answer_500_and_save_nothing(client: Client, fmt: str) -> None:
    at = Phones(fmt)
    anna = at.ids[0]
    before = snapshot()
    for name in ("pass_record", "pass_confirm", "pass_reject", "pass_dealer"):
        for data in BAD_POSTS:
            for headers in (HTMX, {"HTTP_ACCEPT_LANGUAGE": "en"}):
                answer = client.post(at.url(name, anna), data, **headers)
                assert answer.status_code in (400, 409) or (name == "pass_dealer" and answer.status_code == 409), (
                    name,
                    data,
                    answer.status_code,
                )
    # Another table's URL, guessed and replaced tokens.
    assert client.post(at.url("pass_record", anna, at.other), at.entry(anna), **HTMX).status_code == 409
    assert client.post(f"/pass/{'A' * 43}/table/{at.table.pk}/game/", at.entry(anna)).status_code == 404
    assert client.get(f"/pass/{'A' * 43}/table/").status_code == 404
    old = at.tokens[anna]
    services.issue_pass(tournament=at.tournament, actor=None, player_id=anna)
    assert client.post(at.url("pass_record", anna), at.entry(anna)).status_code == 410
    assert client.get(reverse("tournament:pass_table", kwargs={"token": old})).status_code == 410
    assert snapshot()[:7] == before[:7]  # nothing played; only refusals' traces were written
    assert not Game.objects.exists()


def test_referees_only_shows_no_entry_on_the_pass(client: Client) -> None:
    at = Phones(enums.Format.POINTS, mode=enums.TableEntry.REFEREES)
    anna = at.ids[0]
    page = client.get(reverse("tournament:pass", kwargs={"token": at.tokens[anna]}), HTTP_ACCEPT_LANGUAGE="en")
    assert "Open my table" not in page.content.decode()
    table_page = client.get(at.url("pass_table", anna), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "referees enter the results" in table_page and "data-entry" not in table_page
    answer = client.post(at.url("pass_record", anna), at.entry(anna), **HTMX)
    assert answer.status_code == 409 and not Game.objects.exists()


def test_not_right_puts_the_table_first_for_the_referees_and_the_organiser(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    at = Phones(enums.Format.LIFE_BANDS, mode=enums.TableEntry.BOTH)
    anna, ben = at.ids[0], at.ids[1]
    client.post(at.url("pass_record", anna), at.entry(ben), **HTMX)
    game = Game.objects.get()
    answer = Client().post(at.url("pass_reject", ben), {"game": game.pk, "reason": "I did not lose"}, **HTMX)
    assert answer.status_code == 200 and "A referee is called to your table." in answer.content.decode()
    referee = Client()
    referee.force_login(staff_user(at.tournament, enums.Role.REFEREE))
    listing = referee.get(reverse("tournament:referee_tables", args=[at.tournament.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = listing.content.decode()
    assert text.index('id="attention"') < text.index("table-grid") and "Not right: players disagree" in text
    organiser = Client()
    organiser.force_login(staff_user(at.tournament, enums.Role.ORGANISER))
    rounds = organiser.get(reverse("tournament:rounds", args=[at.tournament.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert 'id="attention-' + str(at.table.pk) + '"' in rounds.content.decode()
    table_url = reverse("tournament:referee_table", args=[at.tournament.pk, at.table.pk])
    assert "A player said an entry is not right" in referee.get(table_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    handled = referee.post(reverse("tournament:clear_call", args=[at.tournament.pk, at.table.pk]))
    assert handled.status_code == 302 and refreshed(at.table).referee_called_at is None


def test_a_referee_confirms_a_players_entry_on_the_table_page(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    at = Phones(enums.Format.POINTS, mode=enums.TableEntry.BOTH)
    client.post(at.url("pass_record", at.ids[0]), at.entry(at.ids[1]), **HTMX)
    referee = Client()
    referee.force_login(staff_user(at.tournament, enums.Role.REFEREE))
    table_url = reverse("tournament:referee_table", args=[at.tournament.pk, at.table.pk])
    page = referee.get(table_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Waiting for confirmation" in page and f"{at.names[at.ids[0]]} entered:" in page
    game = Game.objects.get()
    version = refreshed(at.table).version
    confirm_url = reverse("tournament:confirm_pending", args=[at.tournament.pk, at.table.pk])
    answer = referee.post(confirm_url, {"game": game.pk, "version": version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Confirmed: game 1 counts." in answer.content.decode()
    assert Game.objects.get().status == GameStatus.VALID
    # A second confirmation (a double tap) is answered, nothing new.
    assert referee.post(confirm_url, {"game": game.pk, "version": version}).status_code == 302


# --- cost -----------------------------------------------------------------------------------------


def _counted(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path)
        assert answer.status_code == 200
    return len(queries)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_phone_table_page_costs_the_same_at_20_and_500_players(fmt: str) -> None:
    counts = {}
    for size in (20, 500):
        at = Phones(fmt, players=size)
        client = Client()
        path = at.url("pass_table", at.ids[0])
        client.get(path)  # the caches warm
        plain = _counted(client, path)
        client.post(at.url("pass_record", at.ids[0]), at.entry(at.ids[1]), **HTMX)
        waiting = _counted(Client(), at.url("pass_table", at.ids[1]))
        counts[size] = (plain, waiting)
        Tournament.objects.filter(pk=at.tournament.pk).update(table_entry=enums.TableEntry.REFEREES)
    assert counts[20] == counts[500] == PHONE_TABLE_QUERIES[fmt], counts


PHONE_TABLE_QUERIES = {
    enums.Format.KNOCKOUT: (5, 6),
    enums.Format.LIFE_BANDS: (6, 7),
    enums.Format.POINTS: (5, 6),
}


def test_the_page_never_names_another_tables_players(client: Client) -> None:
    at = Phones(enums.Format.KNOCKOUT)
    page = client.get(at.url("pass_table", at.ids[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    others = Seat.objects.filter(table=at.other).values_list("player__name", flat=True)
    assert not any(re.search(rf"\b{re.escape(name)}\b", page) for name in others)


# --- the setting ----------------------------------------------------------------------------------


def test_the_setting_is_on_the_settings_page_and_a_bad_choice_is_refused(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    from tournament.tests.settings_page import settings_data

    tournament = field(enums.Format.POINTS, 6, SEED)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    path = reverse("tournament:settings", args=[tournament.pk])
    page = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "who records the games at a table" in page.lower() and "Players at the table" in page
    for bad in ("nonsense", "", "REFEREES", "x" * 500):
        answer = client.post(path, settings_data(tournament, table_entry=bad), HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 422, bad
        assert Tournament.objects.get(pk=tournament.pk).table_entry == enums.TableEntry.REFEREES
    answer = client.post(path, settings_data(tournament, table_entry="players"))
    assert answer.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).table_entry == enums.TableEntry.PLAYERS
