"""Who reaches the public pages, and whom they show.

The public pages (projector, its poll, the phone page, the JSON) live under the
tournament's unguessable key; the old addresses by number redirect there only while
the tournament is listed, and are otherwise the same 404 as a tournament that does
not exist. Only players who take part (checked in, or seated at some point) appear.
"""

from __future__ import annotations

import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from tournament import enums, qr, simulation
from tournament.desk import checkin
from tournament.desk.tournaments import renew_public_key
from tournament.errors import NeedsConfirmation
from tournament.formats.knockout import services as knockout_services
from tournament.models import AuditEntry, Player, Round, Tournament, new_public_key
from tournament.selectors import audit as audit_selectors
from tournament.tests.factories import PlayerFactory
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (the "organiser" fixture)

pytestmark = [pytest.mark.core, pytest.mark.django_db]

PAGES = ["projector", "projector_screen", "find", "api"]
BY_NUMBER = {"projector": "", "projector_screen": "screen/", "find": "find/", "api": "api.json"}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


def by_key(name: str, tournament: Tournament, query: str = "") -> str:
    return reverse(f"tournament:{name}", args=[tournament.public_key]) + query


def by_number(name: str, tournament_id: int, query: str = "") -> str:
    return f"/p/{tournament_id}/{BY_NUMBER[name]}{query}"


def in_play(players: int = 6, seed: int = 1) -> Tournament:
    """A knockout tournament with round 1 seated and its first table decided."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=seed)
    knockout_services.generate_next_round(tournament=tournament, actor=None, seed=seed)
    table = Round.objects.get(tournament=tournament).tables.order_by("number").first()
    simulation.play_table(tournament, table, random.Random(seed), None)
    tournament.refresh_from_db()
    return tournament


def missing_id(like: int) -> int:
    """An id no tournament has, with as many digits as ``like``."""
    taken = set(Tournament.objects.values_list("pk", flat=True))
    return next(n for n in range(10 ** (len(str(like)) - 1), 10 ** len(str(like))) if n not in taken)


def as_seen(response, number: int) -> tuple[int, str, dict[str, str]]:  # type: ignore[no-untyped-def]
    """Status, body and headers, with what the requester sent (the number in the path, echoed
    by the language switch) and the per-request CSRF token made alike."""
    body = re.sub(r'"[A-Za-z0-9]{64}"', '"TOKEN"', response.content.decode())  # a masked CSRF token
    return response.status_code, body.replace(f"/{number}/", "/N/"), dict(response.headers)


# --- the key --------------------------------------------------------------------------------


def test_every_tournament_gets_its_own_key_that_is_never_a_number():
    keys = {simulation.create_field(fmt=enums.Format.KNOCKOUT, players=3, seed=s).public_key for s in range(3)}
    assert len(keys) == 3
    for key in keys | {new_public_key() for _ in range(200)}:
        assert len(key) >= 16 and not key.isdecimal()
        assert reverse("tournament:projector", args=[key]) == f"/p/{key}/"


@pytest.mark.parametrize("name", PAGES)
def test_the_key_opens_every_public_page(client, name):
    tournament = in_play()
    response = client.get(by_key(name, tournament, "?q=1" if name == "find" else ""))
    assert response.status_code == 200
    assert "X-Robots-Tag" not in response  # a listed tournament's pages may be indexed


@pytest.mark.parametrize("name", PAGES)
def test_a_wrong_key_is_a_404(client, name):
    tournament = in_play()
    wrong = new_public_key()
    path = reverse(f"tournament:{name}", args=[wrong])
    assert client.get(path).status_code == 404
    # A poll that guesses an ETag of the real tournament under a wrong key gets nothing either.
    real = client.get(by_key(name, tournament))
    guess = (real.get("ETag") or '"x"').replace(tournament.public_key, wrong)
    assert client.get(path, HTTP_IF_NONE_MATCH=guess).status_code == 404


def test_a_number_that_looks_like_a_key_is_not_one(client):
    tournament = in_play()
    sixteen_digits = "1234567890123456"
    with pytest.raises(NoReverseMatch):  # the converter refuses it
        reverse("tournament:projector", args=[sixteen_digits])
    assert client.get(f"/p/{sixteen_digits}/").status_code == 404
    assert client.get(f"/p/{tournament.public_key[:15]}/").status_code == 404  # too short


# --- the old addresses by number ------------------------------------------------------------


@pytest.mark.parametrize("name", PAGES)
def test_a_listed_tournament_s_number_redirects_to_its_key(client, name):
    tournament = in_play()
    response = client.get(by_number(name, tournament.pk, "?q=Anna+M%C3%BCller&lang=de"))
    assert response.status_code == 302
    assert response["Location"] == by_key(name, tournament, "?q=Anna+M%C3%BCller&lang=de")
    assert "no-store" in response["Cache-Control"]
    assert client.get(by_number(name, tournament.pk)).url == by_key(name, tournament)  # no query, none added


@pytest.mark.parametrize("name", PAGES)
def test_an_unlisted_tournament_s_number_answers_like_a_missing_tournament(client, name):
    tournament = in_play()
    Tournament.objects.filter(pk=tournament.pk).update(listed=False)
    missing = missing_id(like=tournament.pk)
    with CaptureQueriesContext(connection) as unlisted_queries:
        unlisted = Client().get(by_number(name, tournament.pk, "?q=1"))
    with CaptureQueriesContext(connection) as missing_queries:
        nothing = Client().get(by_number(name, missing, "?q=1"))
    assert unlisted.status_code == 404
    assert as_seen(unlisted, tournament.pk) == as_seen(nothing, missing)
    # The same work for both (no timing difference): one query, the same but for the number.
    assert len(unlisted_queries) == len(missing_queries) == 1
    sql = [
        re.sub(r'"id" = \d+', '"id" = N', unlisted_queries[0]["sql"]),
        re.sub(r'"id" = \d+', '"id" = N', missing_queries[0]["sql"]),
    ]
    assert sql[0] == sql[1]
    # The key still opens it.
    assert client.get(by_key(name, tournament)).status_code == 200


def test_unlisted_pages_ask_search_engines_to_stay_away(client):
    tournament = in_play()
    Tournament.objects.filter(pk=tournament.pk).update(listed=False)
    for name in PAGES:
        assert client.get(by_key(name, tournament))["X-Robots-Tag"] == "noindex, nofollow", name


def test_switching_to_unlisted_on_the_settings_page_is_audited_and_immediate(client, organiser):
    tournament = in_play()
    phone = Client()
    # The old address works and the projector's fragment is cached for this version.
    screen = phone.get(by_number("projector_screen", tournament.pk), follow=True)
    assert screen.status_code == 200 and screen.redirect_chain
    etag = screen["ETag"]
    organiser(tournament)
    page = client.get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
    assert 'name="listed"' in page and "checked" in page.split('name="listed"')[1].split(">")[0]
    response = client.post(
        reverse("tournament:settings", args=[tournament.pk]), settings_data(tournament, listed=False)
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.listed is False
    entry = AuditEntry.objects.filter(tournament=tournament, action="tournament_updated").latest("pk")
    assert entry.detail == {"fields": ["listed"], "listed": False}
    offered = audit_selectors.Choices(tables={}, players={}, people={})
    sentence = audit_selectors.describe(entry.action, entry.detail, None, None, offered)
    assert "unlisted" in sentence and "listed" in sentence
    # At once: every old address is a 404, even a poll holding the cached fragment's ETag.
    for name in PAGES:
        assert phone.get(by_number(name, tournament.pk)).status_code == 404, name
    assert phone.get(by_number("projector_screen", tournament.pk), HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert tournament.public_key in phone.get(by_key("projector", tournament)).content.decode()
    assert phone.get(by_key("projector_screen", tournament)).status_code == 200
    # And back: listed again, the number redirects again.
    client.post(reverse("tournament:settings", args=[tournament.pk]), settings_data(tournament, listed="on"))
    assert phone.get(by_number("projector", tournament.pk)).status_code == 302


# --- the links the app hands out ------------------------------------------------------------


def test_the_projector_s_phone_link_and_qr_code_use_the_key(client):
    tournament = in_play()
    body = client.get(by_key("projector", tournament)).content.decode()
    phone_link = f"http://testserver/p/{tournament.public_key}/find/"
    assert phone_link in body
    assert qr.svg(phone_link) in body
    assert f"/p/{tournament.pk}/" not in body
    assert f'hx-get="/p/{tournament.public_key}/screen/"' in body


def test_the_phone_page_searches_under_the_key(client):
    tournament = in_play()
    body = client.get(by_key("find", tournament)).content.decode()
    assert f'hx-get="/p/{tournament.public_key}/find/"' in body


def test_the_printed_player_list_and_the_staff_pages_link_by_key(client, organiser):
    tournament = in_play()
    organiser(tournament)
    printed = client.get(reverse("tournament:print_players", args=[tournament.pk])).content.decode()
    phone_link = f"http://testserver/p/{tournament.public_key}/find/"
    assert phone_link in printed
    assert qr.svg(phone_link) in printed
    assert f"/p/{tournament.pk}/" not in printed
    desk = client.get(reverse("tournament:desk", args=[tournament.pk])).content.decode()
    assert f'href="/p/{tournament.public_key}/"' in desk  # the "Projector" link
    settings = client.get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
    assert f"http://testserver/p/{tournament.public_key}/" in settings
    assert phone_link in settings


# --- a new public link ----------------------------------------------------------------------


def test_a_new_public_link_is_asked_first_then_replaces_the_old_one(client, organiser):
    tournament = in_play()
    old_key, version = tournament.public_key, tournament.version
    phone = Client()
    assert phone.get(by_key("projector_screen", tournament)).status_code == 200  # cached now
    organiser(tournament)
    url = reverse("tournament:new_public_link", args=[tournament.pk])

    question = client.post(url)
    assert question.status_code == 200
    body = question.content.decode()
    assert "Please confirm" in body and "stop working" in body and 'name="confirm" value="1"' in body
    assert Tournament.objects.get(pk=tournament.pk).public_key == old_key  # nothing changed yet

    done = client.post(url, {"confirm": "1"})
    assert done.status_code == 302 and done.url == reverse("tournament:settings", args=[tournament.pk])
    tournament.refresh_from_db()
    assert tournament.public_key != old_key and tournament.version > version
    entry = AuditEntry.objects.get(tournament=tournament, action="public_key_renewed")
    assert old_key not in str(entry.detail) and tournament.public_key not in str(entry.detail)
    for name in PAGES:
        assert phone.get(reverse(f"tournament:{name}", args=[old_key])).status_code == 404, name
        assert phone.get(by_key(name, tournament)).status_code == 200, name
    assert phone.get(by_number("projector", tournament.pk)).url == by_key("projector", tournament)
    settings = client.get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
    assert "New public link issued" in settings and tournament.public_key in settings


def test_only_the_organiser_issues_a_new_public_link(client, staff_user):
    tournament = in_play()
    client.force_login(staff_user(tournament, enums.Role.DESK))
    response = client.post(reverse("tournament:new_public_link", args=[tournament.pk]), {"confirm": "1"})
    assert response.status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).public_key == tournament.public_key
    assert (
        Client().post(reverse("tournament:new_public_link", args=[tournament.pk]), {"confirm": "1"}).status_code == 302
    )


def test_renewing_without_confirmation_changes_nothing():
    tournament = in_play()
    with pytest.raises(NeedsConfirmation) as refused:
        renew_public_key(tournament=tournament, actor=None)
    assert refused.value.kind == "new_public_key"
    assert Tournament.objects.get(pk=tournament.pk).public_key == tournament.public_key
    assert not AuditEntry.objects.filter(tournament=tournament, action="public_key_renewed").exists()


# --- only players who take part -------------------------------------------------------------


def field_with_every_status() -> tuple[Tournament, dict[str, Player], Player]:
    """A knockout tournament in round 1 plus a player of every status who never played, and
    a player who played a decided table and then withdrew."""
    tournament = in_play(players=6)
    hidden = {
        "registered": PlayerFactory(
            tournament=tournament, name="Zora Registered", status=enums.PlayerStatus.REGISTERED
        ),
        "waiting": PlayerFactory(tournament=tournament, name="Yves Waiting", status=enums.PlayerStatus.WAITING),
        "no_show": PlayerFactory(tournament=tournament, name="Xaver Noshow", status=enums.PlayerStatus.NO_SHOW),
        # Checked in with a start number, then withdrew before playing.
        "withdrawn": PlayerFactory(
            tournament=tournament, name="Wanda Withdrawn", status=enums.PlayerStatus.WITHDRAWN, start_number=90
        ),
    }
    decided = Round.objects.get(tournament=tournament).tables.filter(status=enums.TableStatus.DECIDED).first()
    assert decided is not None
    played = decided.seats.order_by("position").first().player
    checkin.withdraw_player(tournament=tournament, actor=None, player_id=played.pk, confirmed=True)
    played.refresh_from_db()
    assert played.status == enums.PlayerStatus.WITHDRAWN
    tournament.refresh_from_db()
    return tournament, hidden, played


def found(client: Client, tournament: Tournament, query: object) -> str:
    """The phone page's results for ``query`` (only the results region)."""
    body = client.get(by_key("find", tournament, f"?q={query}")).content.decode()
    return body.split('id="find-results"', 1)[1]


def test_the_phone_page_finds_only_players_who_take_part(client):
    tournament, hidden, played = field_with_every_status()
    for status, player in hidden.items():
        results = found(client, tournament, player.name.split()[-1])
        assert "find-card" not in results and "Nobody matches" in results, status
        assert "find-card" not in found(client, tournament, player.name), status
    assert "find-card" not in found(client, tournament, 90), "a withdrawn player's start number"
    # Who played keeps their results, withdrawn or not; checked-in players are found.
    assert played.name in found(client, tournament, played.start_number)
    assert "find-card" in found(client, tournament, played.name)
    for player in Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN):
        assert player.name in found(client, tournament, player.start_number)


def test_the_projector_and_the_json_show_only_players_who_take_part(client):
    tournament, hidden, played = field_with_every_status()
    pages = {name: client.get(by_key(name, tournament)).content.decode() for name in ("projector", "projector_screen")}
    document = client.get(by_key("api", tournament)).json()
    pages["api"] = str(document)
    for name, body in pages.items():
        for status, player in hidden.items():
            assert player.name not in body, (name, status)
        assert played.name in body, name  # seated at the table they played
    seated = {seat["name"] for rnd in document["rounds"] for table in rnd["tables"] for seat in table["seats"]}
    assert played.name in seated and not seated & {p.name for p in hidden.values()}


def test_the_standings_keep_a_withdrawn_player_s_games_and_nobody_else(client):
    """Points: the standings show who played (a withdrawn player with their points), never
    who only registered."""
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=3)
    tournament.rounds_planned = 1
    tournament.save()
    PlayerFactory(tournament=tournament, name="Zora Registered", status=enums.PlayerStatus.REGISTERED)
    simulation.simulate(tournament, seed=3)
    tournament.refresh_from_db()
    quitter = Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN).first()
    checkin.withdraw_player(tournament=tournament, actor=None, player_id=quitter.pk, confirmed=True)
    tournament.refresh_from_db()
    standings = client.get(by_key("api", tournament)).json()["standings"]
    names = [row["name"] for row in standings]
    assert quitter.name in names and "Zora Registered" not in names
    assert len(names) == 6
    screen = client.get(by_key("projector_screen", tournament)).content.decode()
    assert quitter.name in screen and "Zora Registered" not in screen
