"""The player's pass (issue 32, items 1 and 5): it acts only for its player and only while valid,
failed look-ups are limited per address, the desk's "New pass" never answers 500, the organiser
sees who has not sat down, and the pages cost the same at 12 and at 200 players."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Player, PlayerPass, Seat, SeatArrival, Tournament
from tournament.passes import services, tokens
from tournament.selectors import audit as audit_selectors
from tournament.selectors import passes as passes_selectors
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.views.scenarios import field, start_round

pytestmark = pytest.mark.django_db
SEED = 20261127


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


def issued(player: Player, actor: object = None) -> str:
    """A new pass for ``player``; its token."""
    return services.issue_pass(tournament=player.tournament, actor=actor, player_id=player.pk)[1]


def pass_url(token: str) -> str:
    return reverse("tournament:pass", kwargs={"token": token})


def seat_url(token: str) -> str:
    return reverse("tournament:pass_sit_down", kwargs={"token": token})


def running(players: int = 12) -> tuple[Tournament, list[Seat]]:
    """A knockout field with round 1 seated."""
    tournament = field(enums.Format.KNOCKOUT, players, SEED)
    rnd = start_round(tournament, SEED)
    return tournament, list(Seat.objects.filter(table__round=rnd).select_related("player", "table"))


# --- the token ------------------------------------------------------------------------------------


def test_token_is_derived_and_only_its_hash_is_stored() -> None:
    player = PlayerFactory()
    token = issued(player)
    stored = PlayerPass.objects.get(player=player)
    assert tokens.well_formed(token) and len(token) == tokens.TOKEN_LENGTH
    assert stored.token_hash == tokens.hash_of(token) and token not in {stored.nonce, stored.token_hash}
    assert tokens.token_for(stored.nonce) == token  # the desk can print the card again


# --- the page -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (enums.PlayerStatus.REGISTERED, "Registered"),
        (enums.PlayerStatus.WAITING, "Waiting list"),
        (enums.PlayerStatus.CHECKED_IN, "Checked in"),
    ],
)
def test_the_page_shows_name_number_status_date_and_venue(client: Client, status: str, words: str) -> None:
    tournament = TournamentFactory(venue="Hallenbad Ost")
    player = PlayerFactory(tournament=tournament, name="Anna Berger", status=status, start_number=17)
    response = client.get(pass_url(issued(player)), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Anna Berger" in text and ">17<" in text and words in text and "Hallenbad Ost" in text
    assert "no-store" in response["Cache-Control"]


def test_the_page_calls_the_player_to_their_table_and_sitting_down_is_idempotent(client: Client) -> None:
    tournament, seats = running()
    seat = seats[0]
    token = issued(seat.player)
    page = client.get(pass_url(token), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(rf'class="pass-table">Table {seat.table.number}<', page)
    assert f"Seat {seat.position + 1}" in page and "I'm at my table" in page
    for _tap in range(2):
        answer = client.post(seat_url(token), {"table": seat.table_id})
        assert answer.status_code == 302
    assert SeatArrival.objects.filter(seat=seat).count() == 1
    entries = AuditEntry.objects.filter(tournament=tournament, action="sat_down")
    assert [(e.actor_id, e.actor_player_id, e.table_id) for e in entries] == [(None, seat.player_id, seat.table_id)]
    page = client.get(pass_url(token), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "You told the organiser that you are at your table." in page
    # The audit list names the player and the pass.
    offered = audit_selectors.choices(tournament)
    (row,) = audit_selectors.audit_rows(tournament, audit_selectors.AuditFilter(kind="writes"), offered)[:1]
    assert row.person == f"{seat.player.name} ({seat.player.start_number}) (player pass)"


def test_a_pass_acts_only_for_its_player_at_their_own_table(client: Client) -> None:
    _tournament, seats = running()
    mine = seats[0]
    other = next(seat for seat in seats if seat.table_id != mine.table_id)
    token = issued(mine.player)
    before = AuditEntry.objects.count()
    for table in (other.table_id, "", "x", "999999999999", -1):
        answer = client.post(seat_url(token), {"table": table}, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 409
        assert "You do not sit at this table" in answer.content.decode()
    assert not SeatArrival.objects.exists() and AuditEntry.objects.count() == before
    with pytest.raises(ServiceError):
        services.sit_down(pass_id=PlayerPass.objects.get(player=mine.player).pk, table_id=other.table_id)


def test_a_new_pass_stops_the_old_one_at_once(client: Client) -> None:
    _tournament, seats = running()
    seat = seats[0]
    old = issued(seat.player)
    new = issued(seat.player)
    answer = client.get(pass_url(old), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 410
    assert "This pass was replaced; ask the desk for your new card." in answer.content.decode()
    refused = client.post(seat_url(old), {"table": seat.table_id}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 410 and not SeatArrival.objects.exists()
    # A phone that had the page open learns it at its next poll.
    polled = client.get(pass_url(old), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="pass-body", HTTP_ACCEPT_LANGUAGE="en")
    assert polled.status_code == 200 and 'id="pass-body"' in polled.content.decode()
    assert "replaced" in polled.content.decode()
    assert client.get(pass_url(new)).status_code == 200
    assert PlayerPass.objects.filter(player=seat.player, revoked_at__isnull=True).count() == 1


def test_a_pass_revoked_between_page_and_tap_is_refused(client: Client) -> None:
    tournament, seats = running()
    seat = seats[0]
    player_pass, _token = services.issue_pass(tournament=tournament, actor=None, player_id=seat.player_id)
    issued(seat.player)
    with pytest.raises(ServiceError, match="replaced"):
        services.sit_down(pass_id=player_pass.pk, table_id=seat.table_id)
    assert not SeatArrival.objects.exists()


@pytest.mark.parametrize("token", ["", "x", "A" * 43, "A" * 200, "../../etc", "%00", "ü" * 43])
def test_a_guessed_or_garbage_token_opens_nothing(client: Client, token: str) -> None:
    PlayerFactory()
    path = "/pass/" + token + "/" if token else "/pass/%20/"
    for answer in (client.get(path), client.post(path + "seated/", {"table": 1})):
        assert answer.status_code in (404, 400)
    assert not SeatArrival.objects.exists()


def test_failed_look_ups_are_limited_per_address(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.PLAYER_PASS_FAILURES = "3/10m"
    player = PlayerFactory()
    token = issued(player)
    for attempt in range(3):
        assert client.get(pass_url(tokens.token_for(f"guess-{attempt}")), REMOTE_ADDR="10.0.0.7").status_code == 404
    limited = client.get(pass_url(token), REMOTE_ADDR="10.0.0.7", HTTP_ACCEPT_LANGUAGE="de")
    assert limited.status_code == 429
    assert "Zu viele falsche Pass-Links" in limited.content.decode()
    assert client.post(seat_url(token), {"table": 1}, REMOTE_ADDR="10.0.0.7").status_code == 429
    # Another address is not held back, and a valid pass counts no failure.
    assert client.get(pass_url(token), REMOTE_ADDR="10.0.0.8").status_code == 200
    for _again in range(5):
        assert client.get(pass_url(token), REMOTE_ADDR="10.0.0.9").status_code == 200


def test_the_poll_answers_304_while_nothing_changed(client: Client) -> None:
    _tournament, seats = running()
    token = issued(seats[0].player)
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "pass-body"}
    first = client.get(pass_url(token), **headers)
    assert first.status_code == 200 and first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(pass_url(token), HTTP_IF_NONE_MATCH=first["ETag"], **headers)
    assert again.status_code == 304 and len(queries) == 1


# --- the desk -------------------------------------------------------------------------------------


def test_new_pass_from_the_desk_is_audited(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    player = PlayerFactory()
    desk = staff_user(player.tournament, enums.Role.DESK)
    old = issued(player)
    client.force_login(desk)
    answer = client.post(reverse("tournament:new_pass", args=[player.tournament_id, player.pk]))
    assert answer.status_code == 302
    assert client.get(pass_url(old)).status_code == 410
    page = client.get(reverse("tournament:desk_pass", args=[player.tournament_id, player.pk]))
    link = re.search(r'class="pass-link" href="([^"]+)"', page.content.decode())
    assert link and Client().get(link.group(1)).status_code == 200
    entry = AuditEntry.objects.get(action="pass_issued", actor=desk)
    assert (entry.actor_id, entry.player_id, entry.detail["replaced"]) == (desk.pk, player.pk, True)


def test_the_desks_new_pass_never_answers_500(client: Client, staff_user, make_user) -> None:  # type: ignore[no-untyped-def]
    player = PlayerFactory()
    elsewhere = PlayerFactory()  # another tournament's player
    desk = staff_user(player.tournament, enums.Role.DESK)
    t = player.tournament_id
    client.force_login(desk)
    for path in (
        f"/t/{t}/players/{elsewhere.pk}/pass/new/",
        f"/t/{t}/players/999999/pass/new/",
        f"/t/{elsewhere.tournament_id}/players/{elsewhere.pk}/pass/new/",
        f"/t/999999/players/{player.pk}/pass/new/",
    ):
        assert client.post(path).status_code in (403, 404), path
    assert client.get(f"/t/{t}/players/{elsewhere.pk}/pass/").status_code == 404
    assert client.get(f"/t/{t}/players/{player.pk}/pass/new/").status_code == 405
    referee = staff_user(player.tournament, enums.Role.REFEREE)
    for who in (referee, make_user("nobody")):
        client.force_login(who)
        assert client.post(f"/t/{t}/players/{player.pk}/pass/new/").status_code == 403
    client.logout()
    assert client.post(f"/t/{t}/players/{player.pk}/pass/new/").status_code == 302  # to the login
    assert not PlayerPass.objects.exists()


def test_the_start_cards_carry_each_players_pass(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.KNOCKOUT, 6, SEED)
    client.force_login(staff_user(tournament, enums.Role.DESK))
    page = client.get(reverse("tournament:print_cards", args=[tournament.pk])).content.decode()
    links = re.findall(r'class="pass-url" href="([^"]+)"', page)
    assert len(links) == 6 and page.count('class="qr-code"') == 6
    again = client.get(reverse("tournament:print_cards", args=[tournament.pk])).content.decode()
    assert re.findall(r'class="pass-url" href="([^"]+)"', again) == links  # printed again: the same passes
    assert PlayerPass.objects.count() == 6


# --- the organiser --------------------------------------------------------------------------------


def test_the_rounds_page_names_who_has_not_sat_down(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament, seats = running()
    player_pass, _token = services.issue_pass(tournament=tournament, actor=None, player_id=seats[0].player_id)
    services.sit_down(pass_id=player_pass.pk, table_id=seats[0].table_id)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.get(reverse("tournament:rounds", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{len(seats) - 1} players not at their table yet" in page
    assert seats[0].player.name not in page.split("not-seated")[1].split("</details>")[0]
    assert seats[1].player.name in page


# --- cost -----------------------------------------------------------------------------------------


def _counted(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_pages_cost_the_same_at_12_and_200_players(staff_user) -> None:  # type: ignore[no-untyped-def]
    counts = {}
    for size in (12, 200):
        tournament, seats = running(size)
        token = issued(seats[-1].player)
        organiser = Client()
        organiser.force_login(staff_user(tournament, enums.Role.ORGANISER))
        client = Client()
        client.get(pass_url(token))  # the caches warm
        organiser.get(reverse("tournament:rounds", args=[tournament.pk]))
        counts[size] = (
            _counted(client, pass_url(token)),
            len(passes_selectors.not_seated(list(tournament.rounds.all()))) and _not_seated_queries(tournament),
        )
    assert counts[12] == counts[200] == (PASS_PAGE_QUERIES, 1), counts


def _not_seated_queries(tournament: Tournament) -> int:
    rounds = list(tournament.rounds.all())
    with CaptureQueriesContext(connection) as queries:
        passes_selectors.not_seated(rounds)
    return len(queries)


PASS_PAGE_QUERIES = 3
