"""The 500s a fuzzing run found, one test each (the fuzzer itself is ``tournament/tests/test_fuzz.py``).

Each answered 500 before its fix; each must now be a translated refusal with nothing saved:

1. the desk's row actions with a player id of another tournament (htmx and plain);
2. a malformed calculator field (``hand_1=1``);
3. a NUL character in a search, a key or a form field, also on the public phone page;
6. a registration window or tournament date in the year 0001 (stored as a BC timestamp,
   after which every page of the tournament failed);
7. card points past the integer columns (2147483648, 99,999,999 "wild +4" cards).

(4 and 5, the CSV imports, are in ``tournament/tests/desk/test_import_hostile.py``.)
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games.rules.uno import MAX_CARD_POINTS
from tournament import desk, enums
from tournament.errors import ServiceError
from tournament.models import Player, RegistrationWindow, Tournament
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import url
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    Scenario,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
    snapshot,
)

pytestmark = [pytest.mark.django_db, pytest.mark.core]

SCENARIOS = [enums.Format.POINTS]
ROW_ACTIONS = ["player_check_in", "undo_check_in", "withdraw", "no_show", "reinstate"]


def player_rows() -> list[tuple[object, ...]]:
    return list(Player.objects.order_by("pk").values_list("pk", "tournament_id", "status", "start_number"))


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("action", [*ROW_ACTIONS, "toggle_check"])
def test_a_desk_row_action_on_another_tournaments_player_is_refused(desk_client, tournament, action, htmx) -> None:
    mine = PlayerFactory(tournament=tournament)
    other = TournamentFactory()
    foreign = PlayerFactory(tournament=other, status=enums.PlayerStatus.CHECKED_IN)
    before = player_rows()
    args = [foreign.pk]
    if action == "toggle_check":
        args.append(tournament.checklist_items.first().pk)
    headers = {"HX-Request": "true"} if htmx else {}
    response = desk_client.post(url(action, tournament, *args), {"done": "1"}, headers=headers)
    assert response.status_code in {302, 404}, response.status_code
    if htmx:
        assert 'role="alert"' in response.content.decode()
        assert "Reload the page" in response.content.decode()
    assert player_rows() == before
    assert mine.checks.count() == 0


@pytest.fixture
def points(built) -> Scenario:  # type: ignore[no-untyped-def]
    return built[enums.Format.POINTS]  # type: ignore[no-any-return]


@pytest.fixture
def referee(client, points, staff_user):  # type: ignore[no-untyped-def]
    client.force_login(staff_user(points.tournament, enums.Role.REFEREE))
    return client


def record(client, scenario: Scenario, **fields: object):  # type: ignore[no-untyped-def]
    table = scenario.playing
    table.refresh_from_db()
    winner = scenario.seated[table.pk][0]
    data = {"winner": winner, "version": table.version, "key": "k-" + "-".join(map(str, fields)), **fields}
    return client.post(url("record_game", scenario.tournament, table.pk), data, headers={"HX-Request": "true"})


@pytest.mark.parametrize(
    "fields",
    [
        {"hand_1": "1"},
        {"hand_": "1"},
        {"hand_x_wild": "1"},
        {"hand_1_wild": "x"},
        {"hand_1_nocard": "1"},
    ],
)
def test_a_malformed_calculator_field_is_refused(referee, points, fields) -> None:
    before = snapshot()
    _a, b, c = points.seated[points.playing.pk]
    response = record(referee, points, **{f"points_{b}": "10", f"points_{c}": "10"}, **fields)
    assert response.status_code in {409, 422}
    assert snapshot() == before


@pytest.mark.parametrize(
    "typed",
    [str(2**31), "2147483648", str(MAX_CARD_POINTS + 1), "-5", str(10**30)],
)
def test_card_points_past_the_limit_are_refused_with_the_limit(referee, points, typed) -> None:
    before = snapshot()
    _a, b, c = points.seated[points.playing.pk]
    response = record(referee, points, **{f"points_{b}": typed, f"points_{c}": "10"})
    assert response.status_code == 409
    assert f"0 to {MAX_CARD_POINTS}" in response.content.decode()
    assert snapshot() == before


def test_ninety_nine_million_wild_cards_are_refused(referee, points) -> None:
    before = snapshot()
    _a, b, c = points.seated[points.playing.pk]
    response = record(referee, points, **{f"hand_{b}_wild_draw_four": "99999999", f"points_{c}": "10"})
    assert response.status_code == 409
    assert "Reload the page" in response.content.decode()
    assert snapshot() == before


def test_the_service_refuses_a_hand_too_big_to_be_true(points) -> None:
    """Not only the form: the service itself bounds what it stores (a hand of 108 wild +4 = 5,400 is fine,
    but 108 of every action card is past any real hand)."""
    from tournament.formats import registry

    table = points.playing
    table.refresh_from_db()
    a, b, c = points.seated[table.pk]
    before = snapshot()
    huge = dict.fromkeys(("draw_two", "reverse", "skip", "wild", "wild_draw_four"), 108)
    with pytest.raises(ServiceError, match="cannot be right"):
        registry.of(points.tournament).record_result(
            tournament=points.tournament,
            actor=None,
            table_id=table.pk,
            winner_id=a,
            version=table.version,
            idempotency_key="too-big",
            card_points={c: 3},
            hands={b: huge},
        )
    assert snapshot() == before


# --------------------------------------------------------------------------
# NUL characters
# --------------------------------------------------------------------------


def test_a_nul_character_on_the_public_phone_page_is_a_translated_400(client, tournament) -> None:
    tournament = Tournament.objects.get(pk=tournament.pk)
    path = reverse("tournament:find", args=[getattr(tournament, "public_key", tournament.pk)])
    response = client.get(path, {"q": "a\x00b"}, follow=True)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_nul_character_in_a_desk_search_or_form_saves_nothing(desk_client, tournament, htmx) -> None:
    headers = {"HX-Request": "true"} if htmx else {}
    response = desk_client.get(url("check_in", tournament), {"q": "x\x00"}, headers=headers)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    response = desk_client.post(url("register", tournament), {"name": "Eva\x00", "club": ""}, headers=headers)
    assert response.status_code == 400
    assert not Player.objects.filter(tournament=tournament).exists()


def test_a_nul_character_in_a_result_key_is_refused(referee, points) -> None:
    before = snapshot()
    _a, b, c = points.seated[points.playing.pk]
    response = record(referee, points, **{f"points_{b}": "1", f"points_{c}": "1", "key": "a\x00b"})
    assert response.status_code == 400
    assert snapshot() == before


# --------------------------------------------------------------------------
# Far dates
# --------------------------------------------------------------------------


@pytest.mark.parametrize("opens", ["0001-01-01T00:00", "1899-12-31T10:00", "9999-12-31T23:59", "2100-01-01T00:00"])
def test_a_registration_window_in_a_far_year_is_refused(organiser_client, tournament, opens) -> None:
    response = organiser_client.post(
        url("add_window", tournament), {"opens_at": opens, "closes_at": "2026-11-21T18:00"}
    )
    assert response.status_code == 422
    assert not RegistrationWindow.objects.filter(tournament=tournament).exists()
    # The pages that failed for good after such a window still answer.
    for name in ("settings", "desk", "register"):
        assert organiser_client.get(url(name, tournament)).status_code in {200, 405}


def test_the_window_service_refuses_far_years_too(tournament) -> None:
    far = datetime.datetime(1, 1, 2, tzinfo=datetime.UTC)
    with pytest.raises(ServiceError, match="between 2000 and 2099"):
        desk.add_registration_window(tournament=tournament, actor=None, opens_at=far, closes_at=timezone.now())
    assert not RegistrationWindow.objects.exists()


@pytest.mark.parametrize("day", ["0001-01-01", "1999-12-31", "2100-01-01"])
def test_a_tournament_date_in_a_far_year_is_refused(organiser_client, tournament, day) -> None:
    from tournament.tests.settings_page import settings_data

    before = Tournament.objects.get(pk=tournament.pk).date
    response = organiser_client.post(url("settings", tournament), settings_data(tournament, date=day))
    assert response.status_code == 422
    assert "between 2000 and 2099" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).date == before


def test_creating_a_tournament_in_year_one_is_refused(client, make_user) -> None:
    client.force_login(make_user())
    response = client.post(
        reverse("tournament:create"),
        {
            "name": "Far",
            "date": "0001-01-01",
            "game": enums.Game.UNO,
            "format": enums.Format.KNOCKOUT,
            "capacity": 20,
            "entry_fee": "0",
            "window_1_opens": "0001-01-01T00:00",
            "window_1_closes": "2026-01-01T00:00",
        },
    )
    assert response.status_code in {200, 422}
    assert "between 2000 and 2099" in response.content.decode()
    assert not Tournament.objects.filter(name="Far").exists()
