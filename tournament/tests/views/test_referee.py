"""The referee's table page at work: what a tap answers, and what it refuses with nothing saved.

For every format (``scenarios``): an htmx tap answers with the table panel alone;
a stale tap (the table changed on another tablet) and a tap without its winner or
loser are refused with 409 and a translated reason, nothing saved; calling time
ends a points table with a time limit and is refused elsewhere. Knockout's final:
once closed, its result stands, duel included, and closing the duel finishes
the tournament. (Who may tap at all: ``test_access``.)
"""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tournament import enums, simulation
from tournament.formats.knockout import services as knockout_services
from tournament.models import Player, Table
from tournament.tests.helpers import refreshed, set_dealer, url
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
    scenario_fixture,
    snapshot,
    win,
)

pytestmark = [pytest.mark.core, pytest.mark.django_db]

# The field a result tap cannot go without, and the reason given when it is missing.
RESULT_FIELD = {
    enums.Format.KNOCKOUT: ("winner", "Tap the winner of the game."),
    enums.Format.LIFE_BANDS: ("loser", "Tap the player who lost the game."),
    enums.Format.POINTS: ("winner", "Tap the winner of the game."),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_htmx_taps_answer_with_the_panel(client, login_as, scenario, fmt):
    login_as("referee", scenario.tournament)
    ((_m, path, data),) = scenario.requests(["record_game"])
    response = client.post(path, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["X-Entry-Status"] == "saved"
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="table-panel"')
    assert "<html" not in body
    if fmt == enums.Format.LIFE_BANDS:
        assert "chip-icon" in body
    assert Game.objects.filter(table=scenario.playing).count() == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_stale_tap_is_refused_with_nothing_saved(client, login_as, scenario):
    login_as("referee", scenario.tournament)
    ((_m, path, data),) = scenario.requests(["record_game"])
    stale = {**data, "version": int(data["version"]) - 1}  # type: ignore[call-overload]
    before = snapshot()
    response = client.post(path, stale)
    assert response.status_code == 409
    assert "changed on another tablet" in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_tap_without_its_result_is_refused(client, login_as, scenario, fmt):
    login_as("referee", scenario.tournament)
    ((_m, path, data),) = scenario.requests(["record_game"])
    field, reason = RESULT_FIELD[fmt]
    before = snapshot()
    response = client.post(path, {**data, field: ""})
    assert response.status_code == 409
    assert reason in response.content.decode()
    assert snapshot() == before


class TestCallTime:
    @pytest.mark.parametrize("fmt", [enums.Format.POINTS])
    def test_time_ends_the_table_with_the_games_played(self, client, login_as, scenario):
        login_as("referee", scenario.tournament)
        playing, fresh = refreshed(scenario.playing), refreshed(scenario.fresh)
        before = snapshot()
        response = client.post(url("call_time", scenario.tournament, fresh.pk), {"version": fresh.version})
        assert response.status_code == 409
        assert "Record at least one game before the time is called." in response.content.decode()
        assert snapshot() == before
        response = client.post(url("call_time", scenario.tournament, playing.pk), {"version": playing.version})
        assert response.status_code == 302
        playing = refreshed(playing)
        assert playing.status == enums.TableStatus.DECIDED and playing.time_called_at is not None
        assert sorted(playing.seats.values_list("place", flat=True)) == [1, 2, 3]

    @pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT])
    def test_refused_where_a_fixed_number_of_games_is_played(self, client, login_as, scenario):
        login_as("referee", scenario.tournament)
        playing = refreshed(scenario.playing)
        before = snapshot()
        response = client.post(url("call_time", scenario.tournament, playing.pk), {"version": playing.version})
        assert response.status_code == 409
        assert "fixed number of games" in response.content.decode()
        assert snapshot() == before


class TestClosedFinal:
    """Once the knockout final is closed its result stands, duel included (through the referee pages)."""

    @pytest.fixture
    def closed_final(self, client, login_as):  # type: ignore[no-untyped-def]
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=3, seed=2)
        tournament.final_points_target = 100
        tournament.save()
        final = knockout_services.generate_next_round(tournament=tournament, actor=None).round.tables.get()
        a, b, c = set_dealer(tournament, final)
        win(tournament, final, a, card_points={b: 60, c: 60})  # b and c tie on 0 points: a duel
        duel = Table.objects.get(round=final.round, is_duel=True)
        d1, d2 = set_dealer(tournament, duel)
        win(tournament, duel, d2)
        login_as("referee", tournament)
        response = client.post(url("close_table", tournament, final.pk), {"version": refreshed(final).version})
        assert response.status_code == 302
        assert refreshed(final).status == enums.TableStatus.CLOSED
        return tournament, final, duel, (a, d2, d1)

    def test_undoing_the_duel_is_refused(self, client, closed_final):
        tournament, final, duel, order = closed_final
        before = snapshot()
        places = dict(final.seats.values_list("player_id", "place"))
        assert places == {pid: place for place, pid in enumerate(order, start=1)}
        response = client.post(url("undo_game", tournament, duel.pk), {"version": refreshed(duel).version})
        assert response.status_code == 409
        assert "The final is closed" in response.content.decode()
        assert snapshot() == before
        assert refreshed(final).status == enums.TableStatus.CLOSED
        assert dict(final.seats.values_list("player_id", "place")) == places

    def test_closing_the_duel_finishes_the_tournament(self, client, closed_final):
        tournament, _final, duel, order = closed_final
        response = client.post(url("close_table", tournament, duel.pk), {"version": refreshed(duel).version})
        assert response.status_code == 302
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        ranking = client.get(url("ranking", tournament))
        assert ranking.status_code == 200
        body = ranking.content.decode()
        names = [Player.objects.get(pk=pid).name for pid in order]
        assert body.index(names[0]) < body.index(names[1]) < body.index(names[2])
        before = snapshot()
        for name, data in [("undo_game", {}), ("record_game", {"winner": order[2], "key": "late"})]:
            response = client.post(url(name, tournament, duel.pk), {"version": refreshed(duel).version, **data})
            assert response.status_code == 409, name
            assert "closed" in response.content.decode()
        assert snapshot() == before


def _panel(body: str) -> str:
    """The panel without what differs between any two renderings: the fresh idempotency key, the
    CSRF token (masked anew each time), and the notice of the tap just saved."""
    body = re.sub(r'name="key" value="[0-9a-f]+"', 'name="key"', body)
    body = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', 'name="csrfmiddlewaretoken"', body)
    return re.sub(r'<div class="alert alert-ok entry-notice"[^>]*>.*?</div>', "", body, flags=re.S)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_panel_a_tap_answers_with_is_the_table_as_read_again(client, login_as, scenario, fmt):
    """The answer to a tap is rendered from what the entry held in memory (no second read); it must
    show exactly what a poll reading the table afresh shows, games entered on another tablet included."""
    login_as("referee", scenario.tournament)
    ((_m, path, data),) = scenario.requests(["record_game"])
    assert client.post(path, data, HTTP_HX_REQUEST="true").status_code == 200
    login_as("referee", scenario.tournament)  # a second tablet at the same table
    ((_m, path, data),) = scenario.requests(["record_game"])
    answered = client.post(path, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="table-panel")
    assert answered.status_code == 200 and answered["X-Entry-Status"] == "saved"
    read_again = client.get(
        url("referee_table", scenario.tournament, scenario.playing.pk),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="table-panel",
    )
    assert read_again.status_code == 200
    assert Game.objects.filter(table=scenario.playing).values("entered_by").distinct().count() >= 2
    assert _panel(answered.content.decode()) == _panel(read_again.content.decode())
