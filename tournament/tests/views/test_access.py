"""Who may use each staff view of play: one matrix of format x who x view.

Every staff view of play (the referee's lists, table page, table cards, ranking,
first dealer, result, undo, close, call time, half tracker; the organiser's
rounds page and steps, the points scoring table, the CSV exports, the audit log)
of a tournament of each format in play (``scenarios``) against every kind of
person (the ``login_as`` fixture):

- anonymous users are sent to the login page;
- outsiders (desk clerks, staff of another tournament, users without a role)
  get 403, also for htmx requests;
- referees use the referee views and get 403 on the organiser's;
- organisers and superusers use everything.

A refused request changes nothing (``scenarios.snapshot``); an allowed one is
answered (no 403, no login, no 500) and its write happens, or it is refused
with a translated 409 (422 for a form) where the scenario makes it refusable.
Also: a table of another tournament through one's own tournament's URL is 404
with nothing saved, and a referee whose role was removed is refused.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import resolve, reverse

from games.models import Game, GameStatus
from games.rules.uno import HOUSE_RULES_SCORING
from tournament import enums
from tournament.models import AuditEntry, LedgerEntry, Player, PoolEntry, Round, Seat, TrackerGame
from tournament.tests.helpers import OUTSIDERS, refreshed, seated, url
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    Request,
    Scenario,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
    scenario_fixture,
    snapshot,
)

pytestmark = [pytest.mark.django_db]

KNOCKOUT, LIFE_BANDS, POINTS = enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS
WHO = ["organiser", "referee", *OUTSIDERS, "superuser", "anonymous"]

REFEREE_VIEWS = {
    "referee_tables",
    "referee_table",
    "table_cards",
    "ranking",
    "set_dealer",
    "record_game",
    "undo_game",
    "close_table",
    "call_time",
    "half_tracker",
    "half_tracker_post",
    "confirm_pending",
    "reject_pending",
    "clear_call",
}
COMMON_PLAY = [
    "referee_tables",
    "referee_table",
    "table_cards",
    "ranking",
    "confirm_pending",
    "reject_pending",
    "clear_call",
]
COMMON_ORGANISER = [
    "rounds",
    "next_round",
    "next_round_playing",
    "export_standings",
    "export_games",
    "audit_log",
    "fee_paid",
]
# The desk's views in the matrix: the desk of the tournament uses them too (issue 32, item 2).
DESK_VIEWS = {"fee_paid"}
# The staff views of play of each format (request names of ``Scenario.requests``).
VIEWS = {
    KNOCKOUT: [*COMMON_PLAY, "set_dealer", "record_game", "undo_game", "close_table", *COMMON_ORGANISER],
    LIFE_BANDS: [
        *COMMON_PLAY,
        "half_tracker",
        "half_tracker_post",
        "record_game",
        "undo_game",
        "close_table",
        *COMMON_ORGANISER,
        "consolation",
        "grand_final",
    ],
    POINTS: [
        *COMMON_PLAY,
        "set_dealer",
        "record_game",
        "undo_game",
        "close_table",
        "call_time",
        *COMMON_ORGANISER,
        "finish",
        "scoring",
        "scoring_locked",
    ],
}
# The views that act on one table, reached through another tournament's URL.
PENDING_VIEWS = ["confirm_pending", "reject_pending", "clear_call"]
TABLE_VIEWS = {
    KNOCKOUT: ["referee_table", "set_dealer", "record_game", "undo_game", "close_table", *PENDING_VIEWS],
    LIFE_BANDS: [
        "referee_table",
        "half_tracker",
        "half_tracker_post",
        "record_game",
        "undo_game",
        "close_table",
        *PENDING_VIEWS,
    ],
    POINTS: ["referee_table", "set_dealer", "record_game", "undo_game", "close_table", "call_time", *PENDING_VIEWS],
}


def cases(views: dict[str, list[str]]) -> list[object]:
    return [pytest.param(fmt, view, id=f"{fmt}-{view}") for fmt in FORMATS for view in views[fmt]]


def send(client: Client, request: Request, **headers: str) -> HttpResponse:
    method, path, data = request
    return getattr(client, method)(path, data, **headers)  # type: ignore[no-any-return]


def to_login(response: HttpResponse) -> bool:
    return response.status_code == 302 and response["Location"].startswith(reverse("login"))


def allowed(who: str, view: str) -> bool:
    if who in ("organiser", "superuser"):
        return True
    return (who == "referee" and view in REFEREE_VIEWS) or (who == "desk" and view in DESK_VIEWS)


# --------------------------------------------------------------------------
# What an allowed request did
# --------------------------------------------------------------------------


@dataclass
class Answer:
    """An allowed request's answer, with what the check needs."""

    scenario: Scenario
    client: Client
    response: HttpResponse
    user: object
    before: tuple[object, ...]  # the snapshot before the request


Check = Callable[[Answer], None]


def page(answer: Answer) -> None:
    assert answer.response.status_code == 200
    assert snapshot() == answer.before  # pages write nothing


def dealer_set(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert s.fresh is not None
    assert response.status_code == 302
    assert refreshed(s.fresh).first_dealer_position == 0


def game_recorded(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    games = Game.objects.filter(table=s.playing)
    assert games.count() == 2
    latest = games.order_by("-pk").first()
    assert latest is not None and latest.entered_by == answer.user
    ids = seated(s.playing)
    if s.fmt == LIFE_BANDS:
        assert latest.loser_id == ids[1]
        assert LedgerEntry.objects.filter(game=latest, kind=enums.LedgerKind.CHIP_LOST, chips=-1).count() == 1
        assert Seat.objects.get(table=s.playing, player_id=ids[1]).chips == 1
    elif s.fmt == POINTS:
        a, b, c = ids  # c won; a typed 12 points, b held a Wild +4
        assert dict(latest.scores.values_list("player_id", "points")) == {a: 12, b: 50, c: 0}
    else:
        assert latest.winner_id == ids[-1]


def game_undone(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    games = Game.objects.filter(table=s.playing)
    assert games.filter(status=GameStatus.VOIDED).count() == 1
    if s.fmt == LIFE_BANDS:
        (game,) = games
        loser = seated(s.playing)[0]
        assert game.loser_id == loser
        assert Seat.objects.get(table=s.playing, player_id=loser).chips == 2
        assert LedgerEntry.objects.filter(game=game, kind=enums.LedgerKind.CORRECTION, chips=1).count() == 1


def table_closed(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    assert refreshed(s.decided).status == enums.TableStatus.CLOSED


def time_called(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    assert refreshed(s.playing).status == enums.TableStatus.DECIDED


def throws_scored(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 200
    assert "takes 3 lids" in response.content.decode()  # Schock 3 decides, the 322 takes 3
    (request,) = s.requests(["half_tracker_post"])
    _method, path, data = request
    # The round scored is kept for the table (another tablet continues the game): the same round
    # posted again on the kept game's revision is scored again, as the partial htmx swaps in.
    kept = TrackerGame.objects.get(table=s.playing)
    body = answer.client.post(path, {**data, "revision": kept.revision}, HTTP_HX_REQUEST="true").content.decode()
    assert "takes 3 lids" in body and "<html" not in body
    assert snapshot() == answer.before  # no result, chip or band: only the tracker's own game is kept


def round_seated(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    assert response["Location"] == url("rounds", s.ready)
    assert Round.objects.filter(tournament=s.ready).count() == 1


def consolation_seated(answer: Answer) -> None:
    """Three wait: one tap forms a consolation table while the main round plays on."""
    s, response = answer.scenario, answer.response
    assert response.status_code == 302 and response["Location"] == url("rounds", s.tournament)
    consolation = Round.objects.get(tournament=s.tournament, stage=enums.Stage.CONSOLATION)
    assert sorted(Seat.objects.filter(table__round=consolation).values_list("player_id", flat=True)) == sorted(
        PoolEntry.objects.filter(left_reason=PoolEntry.Left.SEATED).values_list("player_id", flat=True)
    )
    assert not PoolEntry.objects.filter(tournament=s.tournament, left_at__isnull=True).exists()


def call_answered(answer: Answer) -> None:
    assert answer.response.status_code == 302
    assert snapshot() == answer.before  # no call was open: nothing changes


def refused(status: int, message: str) -> Check:
    def check(answer: Answer) -> None:
        response = answer.response
        assert response.status_code == status
        assert message in response.content.decode()
        assert snapshot() == answer.before

    return check


def scoring_saved(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    s.ready.refresh_from_db()
    assert s.ready.scoring_table == dict(HOUSE_RULES_SCORING)


def fee_marked(answer: Answer) -> None:
    s, response = answer.scenario, answer.response
    assert response.status_code == 302
    (player_id, *_rest) = s.seated[s.playing.pk]
    assert Player.objects.get(pk=player_id).fee_paid_at is not None
    assert AuditEntry.objects.filter(action="fee_paid", player_id=player_id, actor=answer.user).exists()


ALLOWED: dict[str, Check] = {
    "fee_paid": fee_marked,
    "referee_tables": page,
    "referee_table": page,
    "table_cards": page,
    "ranking": page,
    "half_tracker": page,
    "rounds": page,
    "export_standings": page,
    "export_games": page,
    "audit_log": page,
    "set_dealer": dealer_set,
    "record_game": game_recorded,
    "undo_game": game_undone,
    "close_table": table_closed,
    "call_time": time_called,
    "half_tracker_post": throws_scored,
    "next_round": round_seated,
    "next_round_playing": refused(409, "still playing"),
    "consolation": consolation_seated,
    "grand_final": refused(409, "not over yet"),
    "finish": refused(409, "still playing"),
    "scoring": scoring_saved,
    "scoring_locked": refused(422, "the scoring table is locked"),
    "confirm_pending": refused(409, "no longer waits for confirmation"),
    "reject_pending": refused(409, "no longer waits for confirmation"),
    "clear_call": call_answered,
}


# --------------------------------------------------------------------------
# The matrix
# --------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(("fmt", "view"), cases(VIEWS))
def test_access(client, login_as, scenario, view, who):
    user = None if who == "anonymous" else login_as(who, scenario.tournament_of(view))
    (request,) = scenario.requests([view])
    before = snapshot()
    if who == "anonymous":
        assert to_login(send(client, request))
    elif not allowed(who, view):
        assert send(client, request).status_code == 403
        assert send(client, request, HTTP_HX_REQUEST="true").status_code == 403
    else:
        response = send(client, request)
        assert response.status_code not in (403, 500) and not to_login(response)
        ALLOWED[view](Answer(scenario, client, response, user, before))
        return
    assert snapshot() == before
    assert not Round.objects.filter(tournament=scenario.ready).exists()


@pytest.mark.parametrize("who", ["referee", "organiser"])
@pytest.mark.parametrize(("fmt", "view"), cases(TABLE_VIEWS))
def test_table_of_another_tournament_through_own_url(client, login_as, scenario, view, who):
    """Staff of tournament B cannot reach tournament A's tables through B's URLs."""
    login_as(who, scenario.ready)
    ((method, path, data),) = scenario.requests([view])
    match = resolve(path)
    own = reverse(f"tournament:{match.url_name}", kwargs={**match.kwargs, "tournament_id": scenario.ready.pk})
    before = snapshot()
    assert getattr(client, method)(own, data).status_code == 404
    assert snapshot() == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_referee_who_left_loses_access(client, login_as, scenario):
    """The role removed (the organiser's staff page): the next tap is refused."""
    user = login_as("referee", scenario.tournament)
    (request,) = scenario.requests(["record_game"])
    scenario.tournament.staff.filter(user=user).delete()
    before = snapshot()
    assert send(client, request).status_code == 403
    assert snapshot() == before


def test_unknown_tournament_is_404_for_staff(client, login_as, tournament):
    login_as("organiser", tournament)
    assert client.get(reverse("tournament:referee_tables", args=[999_999])).status_code == 404


# --------------------------------------------------------------------------
# The club's register (issue 33): only the club's organisers (and a superuser) see or change it;
# the tournament's register views follow the tournament's roles
# --------------------------------------------------------------------------

REGISTER_WHO = ["club_organiser", "superuser", "organiser_elsewhere", "desk_of_its_event", "no_role", "anonymous"]


@pytest.fixture(name="register_scene")
def register_scene_fixture(db):  # type: ignore[no-untyped-def]
    from tournament.desk import register as register_services
    from tournament.models import Person, StaffRole
    from tournament.tests.factories import TournamentFactory, UserFactory

    users = {name: UserFactory(username=f"register-{name}") for name in REGISTER_WHO if name != "anonymous"}
    for user in users.values():
        user.save()  # the factory sets the password after saving: keep the session's hash valid
    users["superuser"].is_superuser = True
    users["superuser"].save()
    club = register_services.create_club(actor=users["club_organiser"], name="Schockfreunde")
    register_services.create_club(actor=users["organiser_elsewhere"], name="Elsewhere")
    event = TournamentFactory(club=club)
    StaffRole.objects.create(tournament=event, user=users["desk_of_its_event"], role=enums.Role.DESK)
    keep = Person.objects.create(club=club, name="Georg Meyer")
    duplicate = Person.objects.create(club=club, name="Georg Mayer")
    return {"users": users, "club": club, "keep": keep, "duplicate": duplicate}


def register_requests(scene: dict) -> dict[str, Request]:  # type: ignore[type-arg]
    club, keep, duplicate = scene["club"], scene["keep"], scene["duplicate"]
    return {
        "club_register": ("get", reverse("tournament:club_register", args=[club.pk]), {}),
        "club_register_csv": ("get", reverse("tournament:club_register_csv", args=[club.pk]), {}),
        "rename_club": ("post", reverse("tournament:rename_club", args=[club.pk]), {"name": "Renamed"}),
        "merge_person": ("get", reverse("tournament:merge_person", args=[club.pk, duplicate.pk]), {}),
        "merge_person_post": (
            "post",
            reverse("tournament:merge_person", args=[club.pk, duplicate.pk]),
            {"keep": str(keep.pk)},
        ),
    }


@pytest.mark.parametrize("who", REGISTER_WHO)
@pytest.mark.parametrize(
    "view", ["club_register", "club_register_csv", "rename_club", "merge_person", "merge_person_post"]
)
def test_only_the_clubs_organisers_use_its_register(client: Client, register_scene, who: str, view: str) -> None:  # type: ignore[no-untyped-def]
    from tournament.models import Club, Person

    if who != "anonymous":
        client.force_login(register_scene["users"][who])
    state = lambda: (  # noqa: E731
        list(Club.objects.order_by("pk").values_list("name")),
        list(Person.objects.order_by("pk").values_list("merged_into")),
        AuditEntry.objects.count(),
    )
    before = state()
    response = send(client, register_requests(register_scene)[view])
    if who == "anonymous":
        assert to_login(response)
        assert state() == before
    elif who in ("club_organiser", "superuser"):
        assert response.status_code in (200, 302), response.status_code
        if view == "merge_person_post":
            assert Person.objects.get(pk=register_scene["duplicate"].pk).merged_into_id == register_scene["keep"].pk
    else:
        assert response.status_code == 403
        assert state() == before


@pytest.mark.parametrize("who", ["organiser", "desk", "referee", "organiser_elsewhere", "no_role"])
def test_the_tournaments_register_views_follow_its_roles(client: Client, staff_user, make_user, who: str) -> None:  # type: ignore[no-untyped-def]
    from tournament.desk import register as register_services
    from tournament.tests.factories import TournamentFactory

    owner = make_user("register-owner")
    club = register_services.create_club(actor=owner, name="Club")
    tournament = TournamentFactory(club=club)
    if who in ("organiser", "desk", "referee"):
        client.force_login(staff_user(tournament, who))
    elif who == "organiser_elsewhere":
        client.force_login(staff_user(TournamentFactory(), enums.Role.ORGANISER))
    else:
        client.force_login(make_user("register-nobody"))
    expected = {
        "register_suggest": who in ("organiser", "desk"),
        "copy_players": who == "organiser",
        "set_club": who == "organiser",
    }
    for view, allowed_here in expected.items():
        method = client.post if view == "set_club" else client.get
        response = method(url(view, tournament), {"name": "Geo"} if view == "register_suggest" else {})
        assert (response.status_code != 403) == allowed_here, (view, response.status_code)


# The player's pass at a table (issue 32, item 4): no login, the token is the key
# --------------------------------------------------------------------------

PASS_VIEWS = ["pass_table", "pass_record", "pass_dealer", "pass_confirm", "pass_reject", "pass_call"]
# Whose pass: the seated player's own, a player of another table (their own live pass, this table's
# URL), a replaced pass, a guessed token; and staff logged in with a guessed token (no pass).
PASS_WHO = ["own", "other_table", "replaced", "guessed", "staff_guessed"]


def _pass_request(scenario: Scenario, view: str, token: str) -> Request:
    table = scenario.playing
    version = refreshed(table).version
    ids = scenario.seated[table.pk]
    kwargs: dict[str, object] = {"token": token} if view == "pass_table" else {"token": token, "table_id": table.pk}
    path = reverse(f"tournament:{view}", kwargs=kwargs)
    if view == "pass_table":
        return ("get", path, {})
    (record,) = scenario.requests(["record_game"])
    data = {
        "pass_record": {**record[2], "key": uuid.uuid4().hex},
        "pass_dealer": {"player": ids[0], "version": version},
        "pass_confirm": {"game": 0, "version": version},
        "pass_reject": {"game": 0},
        "pass_call": {},
    }[view]
    return ("post", path, data)


def _pass_written(scenario: Scenario, view: str, response: HttpResponse, before: tuple[object, ...]) -> None:
    """What the seated player's own pass did: the page, a pending entry, a call; refusals in words."""
    table = refreshed(scenario.playing)
    if view == "pass_table":
        assert response.status_code == 200 and snapshot() == before
    elif view == "pass_record":
        assert response.status_code == 302
        assert Game.objects.filter(table=table, status=GameStatus.PENDING).count() == 1
    elif view == "pass_call":
        assert response.status_code == 302 and table.referee_called_at is not None
    elif view == "pass_dealer" and scenario.fmt != LIFE_BANDS:
        assert response.status_code == 302 and snapshot()[:8] == before[:8]  # the dealer was already set
    else:
        assert response.status_code == 409 and snapshot()[:8] == before[:8]


@pytest.mark.parametrize("who", PASS_WHO)
@pytest.mark.parametrize("view", PASS_VIEWS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_pass_acts_only_for_its_player_at_its_own_table(client, login_as, scenario, view, who):
    from tournament.passes import services as pass_services

    tournament = scenario.tournament
    tournament.table_entry = enums.TableEntry.PLAYERS
    tournament.save(update_fields=["table_entry"])
    own_player = scenario.seated[scenario.playing.pk][0]
    other_player = scenario.seated[scenario.decided.pk][0]
    _first, replaced = pass_services.issue_pass(tournament=tournament, actor=None, player_id=own_player)
    _live, own = pass_services.issue_pass(tournament=tournament, actor=None, player_id=own_player)
    _other, other = pass_services.issue_pass(tournament=tournament, actor=None, player_id=other_player)
    token = {"own": own, "other_table": other, "replaced": replaced}.get(who, "A" * 43)
    if who == "staff_guessed":
        login_as("organiser", tournament)
    request = _pass_request(scenario, view, token)
    before = snapshot()
    response = send(client, request, HTTP_ACCEPT_LANGUAGE="en")
    if who == "own":
        _pass_written(scenario, view, response, before)
        return
    expected = {"other_table": 409 if view != "pass_table" else 200, "replaced": 410}.get(who, 404)
    assert response.status_code == expected
    if who == "other_table" and view != "pass_table":
        assert "You do not sit at this table" in response.content.decode()
    if who == "other_table" and view == "pass_table":
        # Their own table page: never this table's entry.
        assert f"/table/{scenario.playing.pk}/" not in response.content.decode()
    assert snapshot()[:8] == before[:8]


# --------------------------------------------------------------------------
# The club's register, part two (issue 33): "Edit", the organisers' forms and "Not the same person"
# are the club's organisers' only (and a superuser's); the sign-up's suggestions are public
# --------------------------------------------------------------------------


def register_edit_requests(scene: dict) -> dict[str, Request]:  # type: ignore[type-arg]
    from tournament.tests.factories import UserFactory

    club, duplicate = scene["club"], scene["duplicate"]
    UserFactory(username="register-new-helper")
    return {
        "edit_person": ("get", reverse("tournament:edit_person", args=[club.pk, duplicate.pk]), {}),
        "edit_person_post": (
            "post",
            reverse("tournament:edit_person", args=[club.pk, duplicate.pk]),
            {"name": "Georg Mayer sen.", "team": "", "member_number": "", "email": "", "phone": ""},
        ),
        "add_organiser": (
            "post",
            reverse("tournament:add_organiser", args=[club.pk]),
            {"username": "register-new-helper"},
        ),
        "remove_organiser": (
            "post",
            reverse("tournament:remove_organiser", args=[club.pk]),
            {"user": str(scene["users"]["club_organiser"].pk)},
        ),
        "dismiss_duplicate": ("post", reverse("tournament:dismiss_duplicate", args=[club.pk, duplicate.pk]), {}),
    }


@pytest.mark.parametrize("who", REGISTER_WHO)
@pytest.mark.parametrize(
    "view", ["edit_person", "edit_person_post", "add_organiser", "remove_organiser", "dismiss_duplicate"]
)
def test_only_the_clubs_organisers_edit_its_register_and_its_organisers(  # type: ignore[no-untyped-def]
    client: Client, register_scene, who: str, view: str
) -> None:
    from tournament.models import Club, Person
    from tournament.tests.factories import UserFactory

    club = register_scene["club"]
    Person.objects.filter(pk=register_scene["duplicate"].pk).update(maybe_same_as=register_scene["keep"])
    # A second organiser, so that removing the first is allowed to those who may.
    club.organisers.add(UserFactory(username="register-second"))
    request = register_edit_requests(register_scene)[view]
    if who != "anonymous":
        client.force_login(register_scene["users"][who])
    state = lambda: (  # noqa: E731
        list(Club.objects.filter(pk=club.pk).values_list("organisers", flat=True).order_by("organisers")),
        list(Person.objects.order_by("pk").values_list("name", "maybe_same_as")),
        AuditEntry.objects.count(),
    )
    before = state()
    response = send(client, request)
    if who == "anonymous":
        assert to_login(response)
        assert state() == before
    elif who in ("club_organiser", "superuser"):
        assert response.status_code in (200, 302), response.status_code
        assert (state() != before) == (request[0] == "post")
    else:
        assert response.status_code == 403
        assert state() == before


def test_the_sign_up_suggestions_are_public_and_say_nothing_private(client: Client, register_scene) -> None:  # type: ignore[no-untyped-def]
    from tournament.models import Person, Tournament
    from tournament.tests.factories import PlayerFactory, TournamentFactory

    club = register_scene["club"]
    Person.objects.filter(pk=register_scene["keep"].pk).update(email="georg@example.org", member_number="M-117")
    finished = TournamentFactory(club=club, status=enums.TournamentStatus.FINISHED)
    PlayerFactory(tournament=finished, person=register_scene["keep"], status=enums.PlayerStatus.CHECKED_IN)
    tonight = TournamentFactory(club=club, online_signup=True)
    assert isinstance(tonight, Tournament)
    response = client.get(reverse("tournament:sign_up_suggest", args=[tonight.public_key]), {"name": "Meyer"})
    body = response.content.decode()
    assert response.status_code == 200 and "Georg Meyer" in body
    assert "georg@example.org" not in body and "M-117" not in body
    assert "Georg Mayer" not in body  # never played a finished event


# --------------------------------------------------------------------------
# The club's season (issue 33): the series pages and a person's history are the club's organisers'
# (and a superuser's), as its register; nobody else reads or changes them
# --------------------------------------------------------------------------

SERIES_GOOD = {"name": "Spring league", "points_preset": "club_classic", "minimum_events": "0"}


def season_requests(scene: dict) -> dict[str, Request]:  # type: ignore[type-arg]
    club, series, person = scene["club"], scene["series"], scene["keep"]
    on_series = lambda name: reverse(f"tournament:{name}", args=[club.pk, series.pk])  # noqa: E731
    return {
        "series_list": ("get", reverse("tournament:series_list", args=[club.pk]), {}),
        "series_create": ("get", reverse("tournament:series_create", args=[club.pk]), {}),
        "series_create_post": ("post", reverse("tournament:series_create", args=[club.pk]), SERIES_GOOD),
        "series": ("get", on_series("series"), {}),
        "series_edit": ("get", on_series("series_edit"), {}),
        "series_edit_post": ("post", on_series("series_edit"), {**SERIES_GOOD, "name": "Renamed league"}),
        "series_csv": ("get", on_series("series_csv"), {}),
        "series_print": ("get", on_series("series_print"), {}),
        "person_history": ("get", reverse("tournament:person_history", args=[club.pk, person.pk]), {}),
    }


SEASON_VIEWS = [
    "series_list",
    "series_create",
    "series_create_post",
    "series",
    "series_edit",
    "series_edit_post",
    "series_csv",
    "series_print",
    "person_history",
]


@pytest.mark.parametrize("who", REGISTER_WHO)
@pytest.mark.parametrize("view", SEASON_VIEWS)
def test_only_the_clubs_organisers_use_its_series(client: Client, register_scene, who: str, view: str) -> None:  # type: ignore[no-untyped-def]
    from tournament.models import Series, SeriesEvent

    scene = dict(register_scene)
    scene["series"] = Series.objects.create(club=scene["club"], name="Winter league")
    SeriesEvent.objects.create(series=scene["series"], tournament=scene["club"].tournaments.get())
    if who != "anonymous":
        client.force_login(scene["users"][who])
    state = lambda: (  # noqa: E731
        list(Series.objects.order_by("pk").values_list("name", "version")),
        list(SeriesEvent.objects.order_by("pk").values_list("series_id", "tournament_id")),
        AuditEntry.objects.count(),
    )
    before = state()
    response = send(client, season_requests(scene)[view])
    if who == "anonymous":
        assert to_login(response)
        assert state() == before
    elif who in ("club_organiser", "superuser"):
        assert response.status_code in (200, 302), response.status_code
        if view.endswith("_post"):
            assert response.status_code == 302 and state() != before
        else:
            assert state() == before
    else:
        assert response.status_code == 403
        assert state() == before
