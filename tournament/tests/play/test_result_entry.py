"""Result entry that a tablet on bad Wi-Fi can trust (the server's side).

- every answer to an entry says its fate (``X-Entry-Status``) and the table's
  version right after it (``X-Entry-Version``), also for a replay whose first
  answer was lost, so a tablet's queued entries chain correctly;
- a refused entry answers 409 with the reason, saves nothing, and leaves an
  ``entry_refused`` audit entry (who, table, what, why) that the organiser
  reads on the log page;
- the calculator's hands come back after a refusal; typed points and tapped
  cards never disagree silently; malformed fields are refused, never a 500;
- the dealer pick is idempotent.
"""

from __future__ import annotations

import time
import uuid
from urllib.parse import unquote

import pytest

from games.models import Game, GameScore, GameStatus
from tournament import enums, simulation
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.knockout import services as knockout
from tournament.formats.life_bands import services as life_bands
from tournament.formats.points.services import call_time as points_call_time
from tournament.models import AuditEntry, Seat, Table, Tournament
from tournament.play import results
from tournament.selectors.audit import player_name
from tournament.tests.helpers import count_queries, field_at_once, refreshed, seated, set_dealer, set_settings, url
from tournament.writes import REFUSED, refusals_audited

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def post(client, path: str, data: dict[str, object], htmx: bool = True):  # type: ignore[no-untyped-def]
    extra = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table-panel"} if htmx else {}
    return client.post(path, data, **extra)


@pytest.fixture
def knockout_table(client, staff_user):  # type: ignore[no-untyped-def]
    """A table of three in round 1 with its first dealer, and a referee logged in."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=11)
    rnd = knockout.generate_next_round(tournament=tournament, actor=None, seed=5).round
    assert rnd is not None
    table = rnd.tables.order_by("number").first()
    assert table is not None
    ids = set_dealer(tournament, table)
    referee = staff_user(tournament, enums.Role.REFEREE)
    client.force_login(referee)
    return tournament, refreshed(table), ids, referee


@pytest.fixture
def final_table(client, staff_user):  # type: ignore[no-untyped-def]
    """The points final of three players (target 100) with its dealer, and a referee logged in."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=3, seed=1)
    set_settings(tournament, final_points_target=100)
    tournament.refresh_from_db()
    rnd = knockout.generate_next_round(tournament=tournament, actor=None).round
    assert rnd is not None
    table = rnd.tables.get()
    ids = set_dealer(tournament, table)
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    return tournament, refreshed(table), ids


# --- fates and versions -----------------------------------------------------------------


class TestFate:
    def test_a_saved_game_says_so_with_the_version_after_it(self, client, knockout_table):
        tournament, table, (a, _b, _c), _ref = knockout_table
        response = post(
            client, url("record_game", tournament, table.pk), {"winner": a, "version": table.version, "key": "k1"}
        )
        assert response.status_code == 200
        assert response["X-Entry-Status"] == "saved"
        game = Game.objects.get(idempotency_key="k1")
        assert game.table_version == refreshed(table).version == int(response["X-Entry-Version"])
        body = response.content.decode()
        assert 'id="table-notice"' in body and "Saved: game 1" in body

    def test_a_replay_after_a_lost_answer_gives_the_version_right_after_that_game(self, client, knockout_table):
        """The answer to game 1 was lost; meanwhile another tablet recorded game 2. The replay
        of game 1 records nothing and reports the version after game 1, not the current one, so
        the tablet's next queued entry is refused instead of landing on top of a game it never saw."""
        tournament, table, (a, b, _c), _ref = knockout_table
        path = url("record_game", tournament, table.pk)
        data = {"winner": a, "version": table.version, "key": "lost-answer"}
        first = post(client, path, data)
        after_game_1 = int(first["X-Entry-Version"])
        post(client, path, {"winner": b, "version": after_game_1, "key": "other-tablet"})
        replay = post(client, path, data)
        assert replay.status_code == 200
        assert replay["X-Entry-Status"] == "replayed"
        assert int(replay["X-Entry-Version"]) == after_game_1 < refreshed(table).version
        assert "Already saved: game 1" in replay.content.decode()
        assert Game.objects.filter(table=table).count() == 2
        queued = post(client, path, {"winner": a, "version": after_game_1, "key": "queued-next"})
        assert queued.status_code == 409
        assert not Game.objects.filter(idempotency_key="queued-next").exists()

    def test_a_plain_form_redirects_and_says_saved(self, client, knockout_table):
        tournament, table, (a, _b, _c), _ref = knockout_table
        path = url("record_game", tournament, table.pk)
        response = post(client, path, {"winner": a, "version": table.version, "key": "plain"}, htmx=False)
        assert response.status_code == 302
        assert response["X-Entry-Status"] == "saved"
        page = client.get(response["Location"])
        assert "Saved: game 1" in page.content.decode()

    def test_the_dealer_pick_is_idempotent(self, client, staff_user):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=3)
        rnd = knockout.generate_next_round(tournament=tournament, actor=None, seed=3).round
        assert rnd is not None
        table = rnd.tables.order_by("number").first()
        assert table is not None
        ids = seated(table)
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        path = url("set_dealer", tournament, table.pk)
        stale = table.version
        first = post(client, path, {"player": ids[1], "version": stale})
        assert first.status_code == 200 and first["X-Entry-Status"] == "saved"
        again = post(client, path, {"player": ids[1], "version": stale})  # the retry of a lost answer
        assert again.status_code == 200 and again["X-Entry-Status"] == "saved"
        other = post(client, path, {"player": ids[2], "version": stale})  # a different pick on a stale page
        assert other.status_code == 409
        assert refreshed(table).first_dealer_position == 1
        assert AuditEntry.objects.filter(tournament=tournament, action="first_dealer_set").count() == 1


# --- refusals ---------------------------------------------------------------------------


class TestRefusals:
    def test_a_stale_tap_is_refused_with_the_reason_and_audited(self, client, knockout_table):
        tournament, table, (a, b, _c), referee = knockout_table
        path = url("record_game", tournament, table.pk)
        post(client, path, {"winner": a, "version": table.version, "key": "tablet-1"})
        response = post(client, path, {"winner": b, "version": table.version, "key": "tablet-2"})
        assert response.status_code == 409
        assert response["X-Entry-Status"] == "refused"
        reason = unquote(response["X-Refusal"])
        assert "changed on another tablet" in reason
        assert reason in response.content.decode()
        assert not Game.objects.filter(idempotency_key="tablet-2").exists()
        entry = AuditEntry.objects.get(tournament=tournament, action=REFUSED)
        assert entry.actor == referee
        assert entry.detail == {
            "attempt": "record_game",
            "table": table.pk,
            "table_number": table.number,
            "round": 1,
            "reason": reason,
            "winner_id": b,
            "version": table.version,
            "idempotency_key": "tablet-2",
        }

    def test_every_kind_of_table_write_audits_its_refusal(self, knockout_table):
        tournament, table, (a, _b, _c), referee = knockout_table
        stale = table.version - 1
        attempts = {
            "set_first_dealer": lambda: results.set_first_dealer(
                tournament=tournament, actor=referee, table_id=table.pk, player_id=a + 10_000, version=stale
            ),
            "record_game": lambda: knockout.record_game(
                tournament=tournament,
                actor=referee,
                table_id=table.pk,
                winner_id=a,
                version=stale,
                idempotency_key=uuid.uuid4().hex,
            ),
            "undo_game": lambda: knockout.undo_last_game(
                tournament=tournament, actor=referee, table_id=table.pk, version=table.version
            ),
            "close_table": lambda: knockout.close_table(
                tournament=tournament, actor=referee, table_id=table.pk, version=table.version
            ),
            "call_time": lambda: points_call_time(
                tournament=tournament, actor=referee, table_id=table.pk, version=table.version
            ),
        }
        for attempt, call in attempts.items():
            with pytest.raises(ServiceError) as refused:
                call()
            entry = AuditEntry.objects.filter(action=REFUSED).latest("pk")
            assert entry.detail["attempt"] == attempt
            assert entry.detail["reason"] == refused.value.message
            assert entry.actor == referee
        assert AuditEntry.objects.filter(action=REFUSED).count() == len(attempts)
        assert not Game.objects.filter(table=table).exists()

    def test_a_refused_loss_is_audited(self, staff_user):
        tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=6, seed=2)
        rnd = life_bands.start_main_round(tournament=tournament, actor=None, seed=2)
        assert rnd is not None
        table = rnd.tables.order_by("number").first()
        assert table is not None
        referee = staff_user(tournament, enums.Role.REFEREE)
        with pytest.raises(ServiceError):
            life_bands.record_loss(
                tournament=tournament,
                actor=referee,
                table_id=table.pk,
                loser_id=seated(table)[0],
                version=table.version + 5,
                idempotency_key="stale-loss",
            )
        entry = AuditEntry.objects.get(action=REFUSED)
        assert entry.detail["attempt"] == "record_loss"
        assert entry.detail["loser_id"] == seated(table)[0]
        assert not Game.objects.filter(idempotency_key="stale-loss").exists()

    def test_a_question_is_not_a_refusal(self, knockout_table):
        """A service that asks back (confirm, choose) has refused nothing: no trace is written."""
        tournament, table, _ids, referee = knockout_table

        @refusals_audited("ask")
        def asks(*, tournament: Tournament, actor: object, table_id: int) -> None:
            raise NeedsChoice("Choose how to go on.", options=(), players=5)

        @refusals_audited("refuse")
        def refuses(*, tournament: Tournament, actor: object, table_id: int) -> None:
            raise ServiceError("No.")

        with pytest.raises(NeedsChoice):
            asks(tournament=tournament, actor=referee, table_id=table.pk)
        assert not AuditEntry.objects.filter(action=REFUSED).exists()
        with pytest.raises(ServiceError):
            refuses(tournament=tournament, actor=referee, table_id=table.pk)
        assert AuditEntry.objects.get(action=REFUSED).detail["attempt"] == "refuse"

    def test_the_organiser_reads_refusals_on_the_log(self, client, knockout_table, staff_user):
        tournament, table, (a, b, _c), _ref = knockout_table
        path = url("record_game", tournament, table.pk)
        post(client, path, {"winner": a, "version": table.version, "key": "t1"})
        post(client, path, {"winner": b, "version": table.version, "key": "t2"})
        for role in (enums.Role.REFEREE, enums.Role.DESK):
            client.force_login(staff_user(tournament, role))
            assert client.get(url("audit_log", tournament)).status_code == 403
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        response = client.get(url("audit_log", tournament) + "?refused=1")
        assert response.status_code == 200
        body = response.content.decode()
        name = Seat.objects.get(table=table, player_id=b).player.name
        assert f"Game won by {name}" in body
        assert "changed on another tablet" in body
        assert f"Main round 1 · Table {table.number}: Game won by {name}" in body
        assert body.count('class="is-refused"') == 1
        everything = client.get(url("audit_log", tournament)).content.decode()
        winner = player_name(Seat.objects.get(table=table, player_id=a).player)
        assert f"Main round 1 · Table {table.number}: {winner} won game 1." in everything
        assert "Only the refused entry (1)" in everything
        assert client.get(url("audit_log", tournament) + "?page=x").status_code == 200


# --- the calculator -------------------------------------------------------------------


class TestCalculator:
    def test_tapped_hands_are_priced_and_kept(self, client, final_table):
        tournament, table, (a, b, c) = final_table
        data = {
            "winner": a,
            "version": table.version,
            "key": "hand-1",
            f"hand_{b}_3": "1",
            f"hand_{b}_5": "1",
            f"points_{b}": "8",
            f"points_{c}": "0",
        }
        response = post(client, url("record_game", tournament, table.pk), data)
        assert response.status_code == 200, response.content.decode()
        scores = {s.player_id: s for s in GameScore.objects.filter(game__idempotency_key="hand-1")}
        assert scores[b].hand == {"cards": 8, "hand": {"3": 1, "5": 1}}
        assert scores[c].hand == {"cards": 0, "hand": {}}
        assert scores[a].points == 8

    def test_typed_points_and_tapped_cards_never_disagree_silently(self, client, final_table):
        tournament, table, (a, b, c) = final_table
        data = {
            "winner": a,
            "version": table.version,
            "key": "mismatch",
            f"hand_{b}_9": "1",
            f"points_{b}": "8",
            f"points_{c}": "4",
        }
        response = post(client, url("record_game", tournament, table.pk), data)
        assert response.status_code == 409
        assert "count 9 points, but 8 was typed" in unquote(response["X-Refusal"])
        assert not Game.objects.filter(table=table).exists()

    def test_a_refused_entry_shows_the_hands_again(self, client, final_table):
        """A second tablet recorded first: the hand this referee tapped is not thrown away."""
        tournament, table, (a, b, c) = final_table
        knockout.record_game(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            winner_id=b,
            version=table.version,
            idempotency_key="other-tablet",
            card_points={a: 3, c: 4},
        )
        data = {
            "winner": a,
            "version": table.version,
            "key": "late",
            f"hand_{b}_skip": "2",
            f"points_{b}": "40",
            f"points_{c}": "12",
        }
        response = post(client, url("record_game", tournament, table.pk), data)
        assert response.status_code == 409
        body = response.content.decode()
        assert f'name="hand_{b}_skip" value="2"' in body
        assert f'name="points_{c}" class="calc-total" placeholder="–" value="12"' in body
        assert f'value="{a}" data-name=' in body and "checked" in body.split(f'value="{a}" data-name=')[1].split(">")[0]
        assert f'name="version" value="{refreshed(table).version}"' in body

    @pytest.mark.parametrize(
        "field, value",
        [
            ("hand_1", "1"),  # no card in the name
            ("hand_x_3", "1"),
            ("hand_{b}_joker", "1"),
            ("hand_{b}_3", "-1"),
            ("hand_{b}_3", "109"),
            ("hand_{b}_3", "1e3"),
            ("points_{b}", "2147483648"),
            ("points_{b}", "-5"),
            ("points_{b}", "zwölf"),
        ],
    )
    def test_malformed_calculator_fields_are_refused_never_a_500(self, client, final_table, field, value):
        tournament, table, (a, b, c) = final_table
        data = {"winner": a, "version": table.version, "key": uuid.uuid4().hex, f"points_{c}": "5"}
        data[field.format(b=b)] = value
        for htmx in (True, False):
            response = post(client, url("record_game", tournament, table.pk), data, htmx=htmx)
            assert response.status_code == 409, (field, value, response.status_code)
        assert not Game.objects.filter(table=table).exists()
        entries = AuditEntry.objects.filter(action=REFUSED)
        assert entries.count() == 2  # refused by the form, before the service, and still audited
        assert all(entry.detail["form"][field.format(b=b)] == value for entry in entries)

    def test_card_keys_are_translated(self, client, final_table):
        tournament, table, _ids = final_table
        client.cookies["django_language"] = "de"
        body = client.get(url("referee_table", tournament, table.pk)).content.decode()
        assert "Aussetzen" in body and "Farbwahl +4" in body


# --- undo, close, time: the panel says what happened ---------------------------------


def test_undo_says_which_game_was_undone(client, knockout_table):
    tournament, table, (a, _b, _c), _ref = knockout_table
    knockout.record_game(
        tournament=tournament, actor=None, table_id=table.pk, winner_id=a, version=table.version, idempotency_key="g1"
    )
    response = post(client, url("undo_game", tournament, table.pk), {"version": refreshed(table).version})
    assert response.status_code == 200
    assert "Game 1 undone." in response.content.decode()
    assert Game.objects.get(idempotency_key="g1").status == GameStatus.VOIDED
    stale = post(client, url("undo_game", tournament, table.pk), {"version": 1})
    assert stale.status_code == 409 and stale["X-Entry-Status"] == "refused"


def test_the_referee_page_costs_the_same_with_a_refusal_shown(client, knockout_table):
    tournament, table, (a, b, _c), _ref = knockout_table
    path = url("record_game", tournament, table.pk)
    post(client, path, {"winner": a, "version": table.version, "key": "x1"})
    before = count_queries(client, url("referee_table", tournament, table.pk))
    post(client, path, {"winner": b, "version": table.version, "key": "x2"})
    assert count_queries(client, url("referee_table", tournament, table.pk)) == before
    assert Table.objects.get(pk=table.pk).status == enums.TableStatus.PLAYING


def test_a_page_costs_the_same_a_second_later(client, knockout_table):
    """Query counts do not depend on the clock (root ``conftest._versions_kept_for_the_whole_test``):
    a GET more than the default second after the last one costs what the GET right after it did.
    With the one-second default, the later GET read the tournament's version again."""
    tournament, table, _ids, _ref = knockout_table
    page = url("referee_table", tournament, table.pk)
    count_queries(client, page)  # the version read once, then cached
    right_after = count_queries(client, page)
    time.sleep(1.2)
    assert count_queries(client, page) == right_after


def test_the_log_costs_the_same_at_20_and_500_players(client, staff_user):
    def measure(players: int) -> int:
        tournament = field_at_once(fmt=enums.Format.KNOCKOUT, players=players, seed=8)
        rnd = knockout.generate_next_round(tournament=tournament, actor=None, seed=8).round
        assert rnd is not None
        referee = staff_user(tournament, enums.Role.REFEREE)
        for table in rnd.tables.order_by("number")[:3]:
            ids = set_dealer(tournament, table)
            stale = refreshed(table).version
            knockout.record_game(
                tournament=tournament,
                actor=referee,
                table_id=table.pk,
                winner_id=ids[0],
                version=stale,
                idempotency_key=uuid.uuid4().hex,
            )
            with pytest.raises(ServiceError):
                knockout.record_game(
                    tournament=tournament,
                    actor=referee,
                    table_id=table.pk,
                    winner_id=ids[1],
                    version=stale,
                    idempotency_key=uuid.uuid4().hex,
                )
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        counts = [count_queries(client, url("audit_log", tournament) + suffix) for suffix in ("", "?refused=1")]
        assert counts[0] == counts[1]
        return counts[0]

    assert measure(20) == measure(500)


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert b"REFEREE_PAGE" in response.content
    assert client.post("/sw.js").status_code == 405
