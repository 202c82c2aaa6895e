"""The half tracker's game kept on the server per table (``life_bands.tracker``).

- A second tablet opening the tracker continues the same game (half, lids, who throws).
- A round posted on an older revision (another tablet scored meanwhile) is refused with
  the kept game shown; nothing is overwritten.
- A decided game offers its loser's entry in one tap (the table page's "Lost" form:
  version, key, loser) and never a silent next game; discarding it is a deliberate post.
- Once the loss is recorded (or undone) the kept game is stale: the next game begins with
  the last game's loser (the next in seat order when that player is out).
- The decider's loser "loses the decider", not a half.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tournament import enums
from tournament.formats.life_bands import services as life_bands
from tournament.models import Table, Tournament, TrackerGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tablets(client, staff_user, table_of_four):  # type: ignore[no-untyped-def]
    user = staff_user(table_of_four[0], enums.Role.REFEREE)
    other = Client()
    client.force_login(user)
    other.force_login(user)
    return client, other, user


def path(tournament: Tournament, table: Table) -> str:
    return reverse("tournament:half_tracker", args=[tournament.pk, table.pk])


def hidden(page: str) -> dict[str, str]:
    form = page.split("data-tracker-form", 1)[1]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))


def throws(rows: dict[int, str]) -> dict[str, str]:
    return {f"dice_{seat}": dice for seat, dice in rows.items()}


def names(table: Table) -> list[str]:
    return [seat.player.name for seat in table.seats.order_by("position").select_related("player")]


def play_to_the_end(client: Client, url: str) -> str:
    """Rounds until the game is decided: the first thrower of each round throws a Schock-Out
    and the last one a 322, so the last thrower loses each half (and the decider): seat 3 the
    first half, seat 2 (the last after seat 3) the second half and the decider."""
    page = client.get(url).content.decode()
    for _ in range(10):
        if 'data-step="done"' in page:
            return page
        state = hidden(page)
        seats = re.findall(r'<tr data-seat="(\d+)"', page)
        dice = dict.fromkeys(map(int, seats), "6 5 2")
        dice[int(seats[0])] = "1 1 1"
        dice[int(seats[-1])] = "3 2 2"
        response = client.post(url, {**state, **throws(dice)})
        assert response.status_code == 200, response.content.decode()[:400]
        page = response.content.decode()
    raise AssertionError("the game did not end")


def test_a_second_tablet_continues_the_same_game(two_tablets, table_of_four):
    first, second, _user = two_tablets
    tournament, table, _players = table_of_four
    url = path(tournament, table)
    state = hidden(first.get(url).content.decode())
    first.post(url, {**state, **throws({0: "1 1 3", 1: "6 5 2", 2: "4 2 1", 3: "3 2 2"})})
    page = second.get(url).content.decode()
    assert hidden(page)["lids"] == "0,0,0,3" and hidden(page)["starter"] == "3"
    assert "10 lids in the middle" in page
    # The first tablet's next round is scored on the kept revision; the second tablet, still on
    # the revision it read, is refused and shown the game as it stands.
    round_two = {**hidden(page), **throws({3: "1 1 2", 0: "6 5 2", 1: "5 4 1", 2: "3 2 1"})}
    assert first.post(url, round_two).status_code == 200
    stale = second.post(url, round_two)
    assert stale.status_code == 409
    text = stale.content.decode()
    assert "Another tablet scored a round of this game meanwhile" in text
    assert hidden(text)["revision"] == "2" and hidden(text)["stock"] == "8"
    assert TrackerGame.objects.get(table=table).revision == 2


def test_a_decided_game_offers_its_loser_in_one_tap_and_never_a_silent_next_game(two_tablets, table_of_four):
    client, _other, _user = two_tablets
    tournament, table, players = table_of_four
    url = path(tournament, table)
    page = play_to_the_end(client, url)
    loser = players[2]  # seat 3 loses the first half, seat 2 (last after seat 3) the second and the decider
    assert f'name="loser" value="{loser}"' in page
    assert f'action="{reverse("tournament:record_game", args=[tournament.pk, table.pk])}"' in page
    assert 'data-entry="result"' in page and f'name="version" value="{table.version}"' in page
    assert f"Record: {names(table)[2]} loses a chip" in page
    assert "Track the next game" not in page
    # Shown again on any tablet until it is recorded; a round posted to it is refused.
    assert 'data-step="done"' in client.get(url).content.decode()
    # Discarding is a deliberate post (the page asks first): the next game begins, nothing recorded.
    found = re.search(r'name="revision" value="(\d+)"><input type="hidden" name="mark" value="([^"]*)"', page)
    assert found is not None
    discarded = client.post(url, {"action": "new", "revision": found[1], "mark": found[2]})
    assert discarded.status_code == 200 and "discarded without recording it" in discarded.content.decode()
    assert table.games.count() == 0


def test_the_next_game_begins_with_the_recorded_loser(two_tablets, table_of_four):
    client, _other, user = two_tablets
    tournament, table, players = table_of_four
    url = path(tournament, table)
    first = client.get(url).content.decode()
    assert "the table's first game goes in seat order" in first and hidden(first)["starter"] == "0"
    play_to_the_end(client, url)
    life_bands.record_loss(
        tournament=tournament,
        actor=user,
        table_id=table.pk,
        loser_id=players[2],
        version=table.version,
        idempotency_key=uuid.uuid4().hex,
    )
    page = client.get(url).content.decode()
    assert hidden(page)["starter"] == "2" and hidden(page)["mark"].startswith("1:")
    assert f"{names(table)[2]} begins: the loser of the last game." in page
    assert "13 lids in the middle" in page


def test_a_round_posted_before_a_result_was_recorded_is_refused(two_tablets, table_of_four):
    client, _other, user = two_tablets
    tournament, table, players = table_of_four
    url = path(tournament, table)
    state = hidden(client.get(url).content.decode())
    life_bands.record_loss(
        tournament=tournament,
        actor=user,
        table_id=table.pk,
        loser_id=players[1],
        version=table.version,
        idempotency_key=uuid.uuid4().hex,
    )
    response = client.post(url, {**state, **throws({0: "1 1 3", 1: "6 5 2", 2: "4 2 1", 3: "3 2 2"})})
    assert response.status_code == 409
    page = response.content.decode()
    assert "A result was recorded or undone at this table meanwhile" in page
    assert hidden(page)["starter"] == "1" and hidden(page)["stock"] == "13"


def test_a_loser_who_went_out_hands_the_start_to_the_next_seat(two_tablets, table_of_four):
    client, _other, user = two_tablets
    tournament, table, players = table_of_four
    for _ in range(2):  # two chips: the second loss takes the band, player 0 is out of this table
        table.refresh_from_db()
        life_bands.record_loss(
            tournament=tournament,
            actor=user,
            table_id=table.pk,
            loser_id=players[0],
            version=table.version,
            idempotency_key=uuid.uuid4().hex,
        )
    page = client.get(path(tournament, table)).content.decode()
    state = hidden(page)
    assert str(players[0]) not in state["players"].split(",")
    assert state["starter"] == "0"  # players[1], the next in seat order, first among the three left
    assert f"{names(table)[1]} begins" in page


def test_the_decider_is_named_as_the_decider(two_tablets, table_of_four):
    client, _other, _user = two_tablets
    tournament, table, players = table_of_four
    url = path(tournament, table)
    # First half: seat 3 loses; second half: seat 0 (its first thrower there is seat 3).
    page = client.get(url).content.decode()
    page = client.post(
        url, {**hidden(page), **throws({0: "1 1 1", 1: "6 5 2", 2: "6 5 2", 3: "3 2 2"})}
    ).content.decode()
    assert "loses this half." in page
    page = client.post(
        url, {**hidden(page), **throws({3: "1 1 1", 0: "3 2 2", 1: "6 5 2", 2: "6 5 2"})}
    ).content.decode()
    assert "Decider between the two half losers" in page
    assert hidden(page)["players"] == f"{players[3]},{players[0]}"  # the first-half loser throws first
    page = client.post(url, {**hidden(page), **throws({0: "1 1 1", 1: "3 2 2"})}).content.decode()
    assert f"{names(table)[0]} loses the decider." in page and "loses this half" not in page


def test_an_undone_result_starts_the_game_again_from_the_table(two_tablets, table_of_four):
    client, _other, user = two_tablets
    tournament, table, players = table_of_four
    url = path(tournament, table)
    for loser in (players[1], players[3]):
        table.refresh_from_db()
        life_bands.record_loss(
            tournament=tournament,
            actor=user,
            table_id=table.pk,
            loser_id=loser,
            version=table.version,
            idempotency_key=uuid.uuid4().hex,
        )
    page = client.get(url).content.decode()
    client.post(url, {**hidden(page), **throws({3: "1 1 3", 0: "6 5 2", 1: "4 2 1", 2: "3 2 2"})})
    assert "10 lids in the middle" in client.get(url).content.decode()  # kept
    table.refresh_from_db()
    life_bands.undo_last_loss(tournament=tournament, actor=user, table_id=table.pk, version=table.version)
    page = client.get(url).content.decode()
    # Game 2 is undone: the game in progress followed it, so the tracker starts game 2 again,
    # begun by game 1's loser.
    assert "13 lids in the middle" in page and hidden(page)["starter"] == "1"
    assert hidden(page)["mark"].startswith("1:")
