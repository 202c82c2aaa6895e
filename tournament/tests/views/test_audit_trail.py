"""The audit trail: every write and every refused attempt, filterable, traceable, exported.

Two referees record results through the views (each on their own tablet: user agent
and X-Device header); the log page and its CSV are read back with every filter, bad
filter values, the access matrix, and the query count at 20 and 500 players. Also
the pieces: the user agent in words, the middleware's context variable, the mapping
of the services' detail keys to the entry's table and player, and a sentence for
every action code the code base writes.
"""

from __future__ import annotations

import ast
import csv
import datetime
import io
import json
import pathlib
import uuid
from dataclasses import dataclass

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import desk, enums
from tournament.formats.knockout import dry_run as knockout_dry_run
from tournament.formats.knockout import services as knockout
from tournament.middleware import Origin, RequestOriginMiddleware, current_origin, describe_device
from tournament.models import AuditEntry, CheckIn, Player, Table, Tournament
from tournament.selectors import audit as audit_selectors
from tournament.tests.factories import PlayerFactory, TournamentFactory, players_in_bulk
from tournament.tests.helpers import OUTSIDERS, refreshed, seated, url
from tournament.tests.views.scenarios import field
from tournament.writes import REFUSED, audit, audit_refusal

pytestmark = [pytest.mark.django_db]

TABLET = (
    "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
)
IPAD = (
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)


def post(client: Client, path: str, data: dict[str, object]):  # type: ignore[no-untyped-def]
    return client.post(path, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="table-panel")


def tablet(user: object, agent: str, device: str) -> Client:
    """A referee's tablet: its own browser and outbox device id."""
    client = Client(HTTP_USER_AGENT=agent, HTTP_X_DEVICE=device, REMOTE_ADDR="10.0.0.7")
    client.force_login(user)  # type: ignore[arg-type]
    return client


def play(client: Client, tournament: Tournament, table: Table, winner: int) -> None:
    """The referee picks the first dealer (seat 1) and records one game won by ``winner``."""
    ids = seated(table)
    response = post(
        client, url("set_dealer", tournament, table.pk), {"player": ids[0], "version": refreshed(table).version}
    )
    assert response.status_code == 200
    data = {"winner": winner, "version": refreshed(table).version, "key": uuid.uuid4().hex}
    response = post(client, url("record_game", tournament, table.pk), data)
    assert response.status_code == 200


@dataclass
class Trail:
    tournament: Tournament
    tables: list[Table]
    anna: object  # referee at table 1 (Android tablet)
    bert: object  # referee at table 2 (iPad), one refused entry
    organiser: object


@pytest.fixture
def trail(staff_user) -> Trail:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.KNOCKOUT, 9, seed=4)
    rnd = knockout_dry_run.seat_next_round(tournament, actor=None, seed=4).round
    assert rnd is not None
    tables = list(rnd.tables.order_by("number"))
    anna = staff_user(tournament, enums.Role.REFEREE)
    bert = staff_user(tournament, enums.Role.REFEREE)
    organiser = staff_user(tournament, enums.Role.ORGANISER)
    play(tablet(anna, TABLET, "anna-tablet-0001"), tournament, tables[0], seated(tables[0])[0])
    bert_tablet = tablet(bert, IPAD, "bert-ipad-000002")
    play(bert_tablet, tournament, tables[1], seated(tables[1])[1])
    stale = {"winner": seated(tables[1])[2], "version": 1, "key": uuid.uuid4().hex}
    assert post(bert_tablet, url("record_game", tournament, tables[1].pk), stale).status_code == 409
    return Trail(tournament, tables, anna, bert, organiser)


def log(client: Client, trail: Trail, query: str = "", **extra: str):  # type: ignore[no-untyped-def]
    client.force_login(trail.organiser)  # type: ignore[arg-type]
    response = client.get(url("audit_log", trail.tournament) + query, **extra)
    assert response.status_code == 200
    return response


def rows(response) -> list[audit_selectors.AuditRow]:  # type: ignore[no-untyped-def]
    page = response.context["page"]
    return [] if page is None else page.rows


def read_csv(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


# --------------------------------------------------------------------------
# The referee trace
# --------------------------------------------------------------------------


class TestTrace:
    def test_each_referee_sees_exactly_their_entries(self, client, trail):
        for referee, table, agent in (
            (trail.anna, trail.tables[0], "Chrome 131 on Android tablet · id anna-tab · 10.0.0.7"),
            (trail.bert, trail.tables[1], "Safari 17 on iPad · id bert-ipa · 10.0.0.7"),
        ):
            found = rows(log(client, trail, f"?person={referee.pk}"))
            theirs = AuditEntry.objects.filter(tournament=trail.tournament, actor=referee)
            assert [row.entry.pk for row in found] == list(
                theirs.order_by("-created_at", "-pk").values_list("pk", flat=True)
            )
            assert {row.entry.action for row in found} >= {"first_dealer_set", "game_recorded"}
            for row in found:
                assert row.person == referee.get_username()
                assert row.table == audit_selectors.choices(trail.tournament).tables[table.pk]
                assert row.entry.source.startswith(f"POST /t/{trail.tournament.pk}/referee/tables/{table.pk}/")
                assert row.entry.device == agent

    def test_the_written_sentence_names_table_round_and_winner(self, client, trail):
        body = log(client, trail, f"?person={trail.anna.pk}").content.decode()
        table = trail.tables[0]
        winner = audit_selectors.player_name(Player.objects.get(pk=seated(table)[0]))
        # The round by its one name, as every page says it ("Main round 1"), the table with it.
        assert f"Main round 1 · Table {table.number}: {winner} won game 1." in body
        assert f"Main round 1 · Table {table.number}: {winner} deals first." in body
        assert "Chrome 131 on Android tablet" in body
        assert f'href="?table={table.pk}"' in body and f'href="?player={seated(table)[0]}"' in body

    def test_refused_attempts_are_listed_with_their_reason(self, client, trail):
        found = rows(log(client, trail, "?kind=refused"))
        assert len(found) == 1
        (row,) = found
        assert row.refused and row.person == trail.bert.get_username()
        assert "changed on another tablet" in row.reason
        tapped = audit_selectors.player_name(Player.objects.get(pk=seated(trail.tables[1])[2]))
        assert row.description == f"Main round 1 · Table 2: Game won by {tapped}."
        assert row.player is not None and row.table is not None and row.table.pk == trail.tables[1].pk
        body = log(client, trail, "?refused=1").content.decode()  # the old link still works
        assert body.count('class="is-refused"') == 1 and "changed on another tablet" in body


# --------------------------------------------------------------------------
# The filters
# --------------------------------------------------------------------------


class TestFilters:
    def test_table(self, client, trail):
        table = trail.tables[1]
        found = rows(log(client, trail, f"?table={table.pk}"))
        assert found and all(row.entry.table_id == table.pk for row in found)
        assert len(found) == AuditEntry.objects.filter(table=table).count() == 3  # dealer, game, refused

    def test_player_names_the_player_and_their_tables(self, client, trail):
        table = trail.tables[0]
        player = seated(table)[1]  # neither dealer nor winner: only their table's entries
        found = rows(log(client, trail, f"?player={player}"))
        assert {"first_dealer_set", "game_recorded", "player_checked_in"} <= {row.entry.action for row in found}
        assert all(row.entry.table_id == table.pk or row.entry.player_id == player for row in found)
        mine = AuditEntry.objects.filter(Q(player_id=player) | Q(table=table), tournament=trail.tournament)
        assert len(found) == mine.count()

    def test_the_system(self, client, trail):
        found = rows(log(client, trail, "?person=system"))
        assert found and all(row.entry.actor_id is None for row in found)
        assert "round_started" in {row.entry.action for row in found}

    def test_kinds(self, client, trail):
        everything = rows(log(client, trail))
        writes = rows(log(client, trail, "?kind=writes"))
        refused = rows(log(client, trail, "?kind=refused"))
        assert len(everything) == len(writes) + len(refused)
        assert not any(row.refused for row in writes) and all(row.refused for row in refused)
        assert rows(log(client, trail, "?kind=all")) == everything

    def test_filters_combine(self, client, trail):
        t1, t2 = trail.tables[0].pk, trail.tables[1].pk
        bert = trail.bert.pk
        assert len(rows(log(client, trail, f"?person={bert}&kind=refused"))) == 1
        assert len(rows(log(client, trail, f"?person={bert}&kind=writes&table={t2}"))) == 2
        assert rows(log(client, trail, f"?person={trail.anna.pk}&table={t2}")) == []
        assert rows(log(client, trail, f"?person={bert}&table={t1}")) == []
        winner = seated(trail.tables[1])[1]
        found = rows(log(client, trail, f"?player={winner}&person={bert}&kind=writes"))
        assert {row.entry.action for row in found} == {"first_dealer_set", "game_recorded"}
        body = log(client, trail, f"?person={bert}&kind=refused").content.decode()
        assert "No entry matches these filters." not in body
        assert "No entry matches these filters." in log(client, trail, f"?person={bert}&table={t1}").content.decode()

    def test_the_form_shows_the_choices_and_keeps_the_chosen(self, client, trail):
        body = log(client, trail, f"?person={trail.bert.pk}&kind=refused").content.decode()
        assert f'<option value="{trail.bert.pk}" selected>{trail.bert.get_username()} (Referee)</option>' in body
        assert '<option value="refused" selected>' in body
        assert 'optgroup label="Main round 1"' in body
        assert f'<option value="{trail.tables[0].pk}">Main round 1 · Table {trail.tables[0].number}</option>' in body
        assert f'href="{url("audit_csv", trail.tournament)}?person={trail.bert.pk}&amp;kind=refused"' in body

    def test_htmx_gets_the_results_only(self, client, trail):
        response = log(client, trail, "?kind=refused", HTTP_HX_REQUEST="true")
        body = response.content.decode()
        assert body.lstrip().startswith('<div id="audit-results">') and "<html" not in body

    def test_paging_keeps_the_filters(self, client, trail):
        system = [AuditEntry(tournament=trail.tournament, action="tournament_updated", detail={}) for _ in range(150)]
        AuditEntry.objects.bulk_create(system)
        first = log(client, trail, "?person=system")
        assert len(rows(first)) == 100 and first.context["page"].has_next
        assert 'href="?person=system&amp;page=2"' in first.content.decode()
        second = log(client, trail, "?person=system&page=2")
        assert 50 < len(rows(second)) < 100 and not second.context["page"].has_next


class TestBadInputs:
    @pytest.mark.parametrize(
        ("query", "message"),
        [
            ("?table=abc", "There is no such table in this tournament."),
            ("?table=99999999", "There is no such table in this tournament."),
            ("?player=-3", "There is no such player in this tournament."),
            ("?player=1e5", "There is no such player in this tournament."),
            ("?person=999999", "Nobody by that name works in or appears in this log."),
            ("?person=%01", "Nobody by that name works in or appears in this log."),
            # A superscript two is a digit to str.isdigit but not a number to int().
            ("?table=%C2%B2", "There is no such table in this tournament."),
            ("?kind=deleted", "Choose what to show: everything, the writes or the refused entries."),
        ],
    )
    def test_a_message_and_no_entries(self, client, trail, query, message):
        response = log(client, trail, query)
        assert message in response.content.decode()
        assert response.context["page"] is None
        assert client.get(url("audit_csv", trail.tournament) + query).status_code == 400

    def test_a_nul_character_is_a_translated_400(self, client, trail):
        """PostgreSQL cannot compare with U+0000: the site-wide guard answers before the log reads it."""
        for path in (url("audit_log", trail.tournament), url("audit_csv", trail.tournament)):
            response = client.get(path + "?person=%00")
            assert response.status_code == 400
            assert "NUL character" in response.content.decode()

    def test_another_tournaments_table_and_player(self, client, trail):
        other = field(enums.Format.KNOCKOUT, 6, seed=5)
        rnd = knockout.generate_next_round(tournament=other, actor=None, seed=5).round
        assert rnd is not None
        table = rnd.tables.first()
        assert table is not None
        assert "There is no such table" in log(client, trail, f"?table={table.pk}").content.decode()
        player = other.players.first()
        assert player is not None
        assert "There is no such player" in log(client, trail, f"?player={player.pk}").content.decode()

    @pytest.mark.parametrize("page", ["abc", "0", "-1", "999", "1" * 30, "9" * 400])
    def test_odd_pages(self, client, trail, page):
        response = log(client, trail, f"?page={page}")
        if page in ("999", "1" * 30, "9" * 400):
            assert rows(response) == [] and "There are no entries on this page." in response.content.decode()
        else:
            assert response.context["page"].page == 1 and rows(response)


# --------------------------------------------------------------------------
# The CSV
# --------------------------------------------------------------------------


class TestCsv:
    def test_headers_and_content(self, client, trail):
        client.force_login(trail.organiser)
        response = client.get(url("audit_csv", trail.tournament))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"].endswith('-log.csv"')
        header, *lines = read_csv(response)
        assert header == [
            "Time",
            "Person",
            "Source",
            "Device",
            "Action",
            "Description",
            "Table",
            "Round",
            "Player",
            "Reason",
            "Details",
            "Round name",
            "Table name",
            "Stage",
        ]
        entries = list(AuditEntry.objects.filter(tournament=trail.tournament).order_by("-created_at", "-pk"))
        assert [line[4] for line in lines] == [entry.action for entry in entries]
        refused = next(line for line in lines if line[4] == REFUSED)
        assert refused[1] == trail.bert.get_username()
        assert refused[2].startswith("POST /t/") and refused[3].startswith("Safari 17 on iPad")
        assert refused[6:8] == [str(trail.tables[1].number), "1"]
        assert "changed on another tablet" in refused[9]
        assert json.loads(refused[10])["attempt"] == "record_game"
        assert refused[11:13] == ["Main round 1", f"Table {trail.tables[1].number}"]
        entry = AuditEntry.objects.get(tournament=trail.tournament, action=REFUSED)
        assert refused[0] == timezone.localtime(entry.created_at).isoformat(timespec="seconds")
        assert (
            timezone.localtime(entry.created_at).utcoffset() == datetime.datetime.fromisoformat(refused[0]).utcoffset()
        )
        assert lines[-1][1] == ""  # the system: the start numbers were drawn by nobody

    def test_respects_the_filters(self, client, trail):
        client.force_login(trail.organiser)
        query = f"?person={trail.anna.pk}&table={trail.tables[0].pk}&kind=writes"
        _header, *lines = read_csv(client.get(url("audit_csv", trail.tournament) + query))
        page = rows(log(client, trail, query))
        assert [line[5] for line in lines] == [row.description for row in page]
        assert {line[1] for line in lines} == {trail.anna.get_username()}

    def test_cells_that_would_be_formulas_are_text(self, client, trail):
        player = PlayerFactory(tournament=trail.tournament, name="=HYPERLINK(1)")
        audit(trail.tournament, None, "player_registered", player=player.pk, name=player.name, waiting=False)
        client.force_login(trail.organiser)
        _header, newest, *_rest = read_csv(client.get(url("audit_csv", trail.tournament)))
        assert newest[5] == "'=HYPERLINK(1) registered."
        assert newest[8] == "'=HYPERLINK(1)"
        assert newest[10].startswith("{")


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("superuser", 200), ("referee", 403)] + [(who, 403) for who in OUTSIDERS],
)
def test_who_may_download_the_log(client, login_as, tournament, who, status):
    login_as(who, tournament)
    assert client.get(url("audit_csv", tournament)).status_code == status
    assert client.get(url("audit_log", tournament)).status_code == status


def test_anonymous_users_are_asked_to_log_in(client, tournament):
    response = client.get(url("audit_csv", tournament))
    assert response.status_code == 302 and "/login" in response["Location"]


# --------------------------------------------------------------------------
# Query counts
# --------------------------------------------------------------------------

PINNED = {"page": 10, "filtered": 10, "csv": 8}


def busy_log(size: int, staff_user) -> tuple[Tournament, Client, str]:  # type: ignore[no-untyped-def]
    """``size`` checked-in players, round 1 seated, a check-in entry per player and a game at
    three tables (one refused): more entries than a page at 500, fewer at 20."""
    tournament = TournamentFactory(capacity=size, checklist=[])
    players = players_in_bulk(size, tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    CheckIn.objects.bulk_create(CheckIn(player=player) for player in players)
    AuditEntry.objects.bulk_create(
        AuditEntry(tournament=tournament, action="player_checked_in", player=p, detail={"player": p.pk})
        for p in players
    )
    desk.draw_start_numbers(tournament=tournament, actor=None, seed=size)
    rnd = knockout_dry_run.seat_next_round(Tournament.objects.get(pk=tournament.pk), actor=None, seed=3).round
    assert rnd is not None
    referee = staff_user(tournament, enums.Role.REFEREE)
    client = tablet(referee, TABLET, "count-tablet-01")
    for table in rnd.tables.order_by("number")[:3]:
        play(client, tournament, table, seated(table)[0])
    stale = {"winner": seated(table)[1], "version": 1, "key": "stale"}
    assert post(client, url("record_game", tournament, table.pk), stale).status_code == 409
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    return tournament, client, f"?player={seated(table)[1]}&kind=all&person={referee.pk}"


def counted(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


@pytest.mark.slow
def test_the_page_and_the_csv_cost_the_same_at_20_and_500_players(staff_user):
    counts = {}
    for size in (20, 500):
        tournament, client, filtered = busy_log(size, staff_user)
        page, csv_path = url("audit_log", tournament), url("audit_csv", tournament)
        counts[size] = {
            "page": counted(client, page),
            "filtered": counted(client, page + filtered),
            "csv": counted(client, csv_path),
        }
        shown = len(rows(client.get(page)))
        assert shown == 100 if size == 500 else shown < 100
    assert counts[20] == counts[500] == PINNED, counts


# --------------------------------------------------------------------------
# The pieces: where a write came from, which table and player it concerns
# --------------------------------------------------------------------------


class TestDevice:
    @pytest.mark.parametrize(
        ("agent", "words"),
        [
            (TABLET, "Chrome 131 on Android tablet"),
            (IPAD, "Safari 17 on iPad"),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/130.0.0.0 Mobile Safari/537.36",
                "Chrome 130 on Android phone",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
                "Edge 131 on Windows",
            ),
            ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox 133 on Linux"),
            (
                "Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) "
                "SamsungBrowser/26.0 Chrome/122.0.0.0 Safari/537.36",
                "Samsung Internet 26 on Android tablet",
            ),
            ("curl/8.5.0", "curl"),
            ("", ""),
            ("   ", ""),
            ("something odd", "something odd"),
        ],
    )
    def test_in_words(self, agent, words):
        assert describe_device(agent) == words

    @settings(max_examples=300, deadline=None)
    @given(st.text(max_size=3000))
    def test_never_raises_and_stays_short(self, agent):
        words = describe_device(agent)
        assert len(words) <= 200
        assert not any(ord(char) < 32 for char in words)

    def test_the_origin_line(self):
        origin = Origin(method="POST", path="/t/1/" + "x" * 400, device="Chrome 131 on Android tablet", ip="::1")
        assert len(origin.source) == 200 and origin.source.startswith("POST /t/1/")
        assert origin.device_line == "Chrome 131 on Android tablet · ::1"
        with_id = Origin(method="POST", path="/", device="curl", device_id="0123456789abcdef", ip="10.0.0.1")
        assert with_id.device_line == "curl · id 01234567 · 10.0.0.1"


class TestMiddleware:
    def test_the_origin_is_there_during_the_request_only(self):
        seen = []

        def view(request):  # type: ignore[no-untyped-def]
            seen.append(current_origin())
            from django.http import HttpResponse

            return HttpResponse("ok")

        request = RequestFactory().post(
            "/t/1/x/", HTTP_USER_AGENT=TABLET, HTTP_X_DEVICE="abc-123-def", REMOTE_ADDR="10.1.2.3"
        )
        assert current_origin() is None
        RequestOriginMiddleware(view)(request)
        assert seen == [
            Origin(
                method="POST",
                path="/t/1/x/",
                device="Chrome 131 on Android tablet",
                device_id="abc-123-def",
                ip="10.1.2.3",
            )
        ]
        assert current_origin() is None

    def test_reset_also_when_the_view_raises(self):
        def view(request):  # type: ignore[no-untyped-def]
            assert current_origin() is not None
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            RequestOriginMiddleware(view)(RequestFactory().get("/"))
        assert current_origin() is None

    def test_a_device_id_that_is_not_one_is_ignored(self):
        request = RequestFactory().get("/", HTTP_X_DEVICE="<script>alert(1)</script>")
        assert RequestOriginMiddleware(lambda r: current_origin())(request).device_id == ""  # type: ignore[arg-type,return-value]

    def test_through_the_client_the_variable_is_empty_afterwards(self, client, trail):
        log(client, trail)
        assert current_origin() is None

    def test_outside_a_request_nothing_is_recorded(self, tournament):
        audit(tournament, None, "tournament_finished")
        entry = AuditEntry.objects.get(action="tournament_finished")
        assert (entry.source, entry.device, entry.table_id, entry.player_id) == ("", "", None, None)


class TestTableAndPlayer:
    def test_the_services_keys_fill_them(self, trail):
        table = trail.tables[0]
        entry = AuditEntry.objects.get(tournament=trail.tournament, action="game_recorded", table=table)
        assert entry.player_id == seated(table)[0] == entry.detail["winner"]
        dealer = AuditEntry.objects.get(tournament=trail.tournament, action="first_dealer_set", table=table)
        assert dealer.player_id == dealer.detail["player"]
        refused = AuditEntry.objects.get(tournament=trail.tournament, action=REFUSED)
        assert (refused.table_id, refused.player_id) == (trail.tables[1].pk, refused.detail["winner_id"])

    def test_a_refusal_links_only_the_tournaments_own_rows(self, trail, tournament):
        """Submitted ids are not trusted: another tournament's table, an unknown player: nothing linked
        (and the deferred foreign keys hold at commit)."""
        audit_refusal(
            "record_game", "No.", tournament=tournament, actor=None, table_id=trail.tables[0].pk, winner_id=99999999
        )
        entry = AuditEntry.objects.get(tournament=tournament, action=REFUSED)
        assert (entry.table_id, entry.player_id) == (None, None)
        assert entry.detail["winner_id"] == 99999999
        connection.check_constraints()


# --------------------------------------------------------------------------
# Every action code has its sentence
# --------------------------------------------------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[3]
# Action codes passed through a variable: the function that passes it on, the argument's position.
PASSED_ON = {"_leave": 4, "_apply_correction": None}


def written_actions() -> tuple[set[str], set[str]]:
    """Every action code and every refused attempt the code base writes (read from its source)."""
    actions: set[str] = set()
    attempts: set[str] = set()
    for path in (ROOT / "tournament").rglob("*.py"):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "audit" and len(node.args) >= 3:
                actions |= _strings(node.args[2])
            elif name in ("refusals_audited", "audit_refusal") and node.args:
                attempts |= _strings(node.args[0])
            elif name == "_refused":
                attempts |= {kw.value.value for kw in node.keywords if kw.arg == "attempt" and _is_str(kw.value)}
            elif name in PASSED_ON:
                position = PASSED_ON[name]
                if position is not None and len(node.args) > position:
                    actions |= _strings(node.args[position])
                actions |= {kw.value.value for kw in node.keywords if kw.arg == "action" and _is_str(kw.value)}
    return actions, attempts


def _is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _strings(node: ast.AST) -> set[str]:
    return {child.value for child in ast.walk(node) if isinstance(child, ast.Constant) and isinstance(child.value, str)}


def test_every_action_the_code_base_writes_has_a_sentence():
    actions, attempts = written_actions()
    assert {"game_recorded", "player_withdrawn", "check_unticked", "tournament_finished"} <= actions  # found
    assert actions <= set(audit_selectors.SENTENCES), actions - set(audit_selectors.SENTENCES)
    assert attempts <= set(audit_selectors.ATTEMPTS), attempts - set(audit_selectors.ATTEMPTS)


@pytest.mark.parametrize("action", sorted(audit_selectors.SENTENCES))
def test_each_sentence_reads_with_empty_and_odd_details(action, tournament):
    offered = audit_selectors.Choices(tables={}, players={}, people={})
    for detail in ({}, {"players": 5, "fields": ["name", "nonsense"], "opens_at": "not a time", "role": "x"}):
        text = audit_selectors.describe(action, detail, None, None, offered)
        assert text and "%(" not in text
