"""The organiser's corrections page: who may use it, the two-step correction (consequences, then
confirm), the downstream games, reload after a correction, and every bad input (a clear message,
nothing saved, never a 500)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, GameStatus
from tournament.formats import registry
from tournament.models import AuditEntry, Seat, Table
from tournament.tests.helpers import OUTSIDERS, count_queries, refreshed, set_dealer, url
from tournament.tests.play.test_corrections import knockout_round_one, last_game, life_bands_round_one, snapshot
from tournament.tests.views.scenarios import lose, start_round, win
from tournament.tests.views.test_query_counts import quick_field

pytestmark = [pytest.mark.core, pytest.mark.django_db]

REASON = "tapped the wrong player"


def correction(table: Table, game: Game, **fields: Any) -> dict[str, Any]:
    return {
        "action": "correct",
        "game": game.pk,
        "version": refreshed(table).version,
        "reason": REASON,
        **fields,
    }


@pytest.mark.parametrize("who", ["referee", *OUTSIDERS])
def test_only_the_organiser_corrects(client, login_as, who: str) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, order = knockout_round_one()
    table = tables[0]
    login_as(who, tournament)
    assert client.get(url("table_corrections", tournament, table.pk)).status_code == 403
    before = snapshot(tournament)
    data = correction(table, last_game(table), winner=order[table.pk][1])
    assert client.post(url("table_corrections", tournament, table.pk), data).status_code == 403
    assert snapshot(tournament) == before


def test_anonymous_goes_to_login(client) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, _order = knockout_round_one()
    response = client.get(url("table_corrections", tournament, tables[0].pk))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_page_lists_the_games_and_the_forms(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, _order = knockout_round_one()
    login_as("organiser", tournament)
    table = tables[0]
    page = client.get(url("table_corrections", tournament, table.pk)).content.decode()
    for game in table.games.all():
        assert f'id="game-{game.pk}"' in page
    assert "Reopen the table" in page and "Change the first dealer" in page
    table_page = client.get(url("referee_table", tournament, table.pk)).content.decode()
    assert url("table_corrections", tournament, table.pk) in table_page
    start_round(tournament, seed=5)  # built on the table: reopening is no longer offered
    assert "Reopen the table" not in client.get(url("table_corrections", tournament, table.pk)).content.decode()


def test_the_referee_sees_no_link_to_corrections(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, _order = knockout_round_one()
    login_as("referee", tournament)
    page = client.get(url("referee_table", tournament, tables[0].pk)).content.decode()
    assert "table_corrections" not in page and "/corrections/" not in page


def test_consequences_first_then_confirm_then_reload(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, order = knockout_round_one()
    lucky = start_round(tournament, seed=5)
    login_as("organiser", tournament)
    table = tables[0]
    a, b = order[table.pk]
    path = url("table_corrections", tournament, table.pk)
    data = correction(table, last_game(table), winner=b)
    before = snapshot(tournament)
    asked = client.post(path, data)
    assert asked.status_code == 200
    body = asked.content.decode()
    assert "This correction changes" in body and "replaces" in body and "no game has been played there yet" in body
    assert snapshot(tournament) == before
    fingerprint = asked.context["question"].fingerprint
    done = client.post(path, {**data, "confirm": fingerprint})
    assert done.status_code == 302 and done["Location"] == path
    assert Seat.objects.filter(table__round=lucky, player_id=a).exists()
    followed = client.get(path).content.decode()
    assert "Game" in followed and "is corrected" in followed
    # The browser sends the confirmation again (double tap, reload, back button): answered as
    # saved, nothing more changes.
    after = snapshot(tournament)
    again = client.post(path, {**data, "confirm": fingerprint})
    assert again.status_code == 302
    assert "already saved" in client.get(path).content.decode()
    assert snapshot(tournament) == after
    # Someone else sending it (or a confirmation much later) is refused as stale, nothing changes.
    login_as("organiser", tournament)
    other = client.post(path, {**data, "confirm": fingerprint})
    assert other.status_code == 409
    assert snapshot(tournament) == after
    assert AuditEntry.objects.filter(action="game_corrected").count() == 1


def test_downstream_games_need_their_own_confirmation(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, order = knockout_round_one()
    lucky = start_round(tournament, seed=5)
    table = tables[1]
    _a, b = order[table.pk]
    downstream = Table.objects.get(round=lucky, seats__player_id=b)
    set_dealer(tournament, downstream)
    win(tournament, downstream, b)
    login_as("organiser", tournament)
    path = url("table_corrections", tournament, table.pk)
    data = correction(table, last_game(table), winner=b)
    asked = client.post(path, data)
    body = asked.content.decode()
    assert "Void those games too and correct" in body and "Confirm the correction" not in body
    fingerprint = asked.context["question"].fingerprint
    before = snapshot(tournament)
    assert client.post(path, {**data, "confirm": fingerprint}).status_code == 200  # asked again
    assert snapshot(tournament) == before
    done = client.post(path, {**data, "confirm": fingerprint, "void_downstream": "1"})
    assert done.status_code == 302
    assert downstream.games.filter(status=GameStatus.VOIDED).count() == 1


def test_life_bands_correct_the_loser(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, order = life_bands_round_one()
    table = tables[0]
    _a, b = order[table.pk]
    login_as("organiser", tournament)
    path = url("table_corrections", tournament, table.pk)
    data = {**correction(table, last_game(table)), "loser": b}
    asked = client.post(path, data)
    assert asked.status_code == 200
    done = client.post(path, {**data, "confirm": asked.context["question"].fingerprint})
    assert done.status_code == 302
    assert Seat.objects.get(table=table, player_id=b).out_order == 1


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"reason": ""}, 409, "needs a reason"),
        ({"version": "abc"}, 409, "reload the page"),
        ({"version": "1"}, 409, "changed on another tablet"),
        ({"game": "abc"}, 409, "reload the page"),
        ({"game": "999999"}, 409, "does not exist"),
        ({"winner": "abc"}, 409, "must sit at this table"),
        ({"winner": "999999"}, 409, "must sit at this table"),
        ({"action": "explode"}, 400, "Unknown action"),
        ({"points_1": "lots"}, 409, "whole numbers"),
        ({"hand_1_joker": "2"}, 409, "unknown card"),
        ({"confirm": "x" * 500}, 200, "This correction changes"),
    ],
)
def test_bad_inputs_say_what_to_do_and_save_nothing(  # type: ignore[no-untyped-def]
    client, login_as, fields: dict[str, str], status: int, message: str
) -> None:
    tournament, tables, order = knockout_round_one()
    table = tables[0]
    login_as("organiser", tournament)
    data = {**correction(table, last_game(table), winner=order[table.pk][1]), **fields}
    before = snapshot(tournament)
    response = client.post(url("table_corrections", tournament, table.pk), data)
    assert response.status_code == status
    assert message in response.content.decode()
    assert snapshot(tournament) == before


def test_correcting_a_voided_game_is_refused(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, order = knockout_round_one()
    table = tables[0]
    game = table.games.filter(status=GameStatus.VALID).order_by("number").first()
    assert game is not None
    Game.objects.filter(pk=game.pk).update(status=GameStatus.VOIDED)
    login_as("organiser", tournament)
    before = snapshot(tournament)
    response = client.post(
        url("table_corrections", tournament, table.pk), correction(table, game, winner=order[table.pk][1])
    )
    assert response.status_code == 409 and "already corrected or voided" in response.content.decode()
    assert snapshot(tournament) == before


def test_first_dealer_and_reopen_through_the_page(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament, tables, _order = knockout_round_one()
    table = tables[0]
    login_as("organiser", tournament)
    path = url("table_corrections", tournament, table.pk)
    seat = table.seats.order_by("position").last()
    assert seat is not None
    dealer = {"action": "dealer", "player": seat.player_id, "version": refreshed(table).version, "reason": REASON}
    assert client.post(path, dealer).status_code == 302
    assert refreshed(table).first_dealer_position == seat.position
    reopen = {"action": "reopen", "version": refreshed(table).version, "reason": ""}
    assert client.post(path, reopen).status_code == 409
    assert client.post(path, {**reopen, "reason": REASON}).status_code == 302
    assert refreshed(table).status == "decided"


# The queries of the corrections page, pinned per format (equal at 20 and 500 players).
CORRECTIONS_PAGE_QUERIES = {"knockout": 9, "life_bands": 9, "points": 9}


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(CORRECTIONS_PAGE_QUERIES))
def test_the_page_costs_the_same_at_20_and_500_players(client, staff_user, fmt: str) -> None:  # type: ignore[no-untyped-def]
    counts = []
    for size in (20, 500):
        tournament = quick_field(fmt, size)
        table = start_round(tournament, seed=size).tables.order_by("number").first()
        assert table is not None
        if registry.of(tournament).entry == "loser":
            lose(tournament, table, refreshed(table).seats.order_by("position").first().player_id)
        else:
            win(tournament, table, set_dealer(tournament, table)[0])
        client.force_login(staff_user(tournament, "organiser"))
        counts.append(count_queries(client, url("table_corrections", tournament, table.pk)))
    assert counts == [CORRECTIONS_PAGE_QUERIES[fmt]] * 2, counts
