"""Self check-in (issue 32, item 3): "I'm here" on the pass and at the entrance. Refusals say why
and save nothing; a double tap checks in once; a desk-only item puts the player on the desk's
"arrived, needs the desk" list; the check-in is the desk's (audited as the player); the entrance
page and the desk's list cost the same at 20 and 500 players; hostile posts never answer 500."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import (
    AuditEntry,
    CheckIn,
    ChecklistItem,
    Player,
    PlayerCheck,
    SelfArrival,
    Tournament,
)
from tournament.passes import checkin, services
from tournament.selectors import desk as desk_selectors
from tournament.selectors import self_check_in as self_check_in_selectors
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db
WAITING_WORDS = "You are on the waiting list; the desk calls you when a place frees up"


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


def event(*, desk_item: bool = False, by_name: bool = False, on: bool = True, players: int = 0) -> Tournament:
    """A tournament with self check-in on, a self-declared "Own deck brought" and, with ``desk_item``,
    a "Medical certificate" the desk must see."""
    tournament = TournamentFactory(
        self_check_in=on, check_in_by_name=by_name, capacity=max(players + 5, 50), checklist=[]
    )
    ChecklistItem.objects.create(tournament=tournament, label="Own deck brought", kind=ChecklistItem.Kind.SELF)
    if desk_item:
        ChecklistItem.objects.create(tournament=tournament, label="Medical certificate", position=1)
    if players:
        Player.objects.bulk_create(
            Player(tournament=tournament, name=f"Spieler {n:04d}", club=f"Club {n % 17}") for n in range(players)
        )
        for player in Player.objects.filter(tournament=tournament):
            player.save()  # the folded search text
    return tournament


def self_item(tournament: Tournament) -> ChecklistItem:
    return ChecklistItem.objects.get(tournament=tournament, kind=ChecklistItem.Kind.SELF)


def with_pass(tournament: Tournament, **extra: object) -> tuple[Player, str]:
    player = PlayerFactory(tournament=tournament, **extra)
    _pass, token = services.issue_pass(tournament=tournament, actor=None, player_id=player.pk)
    return player, token


def here_url(token: str) -> str:
    return reverse("tournament:pass_here", kwargs={"token": token})


def entrance_url(tournament: Tournament) -> str:
    return reverse("tournament:entrance", args=[tournament.public_key])


def state(tournament: Tournament) -> tuple[object, ...]:
    """Everything self check-in may write."""
    return (
        list(Player.objects.filter(tournament=tournament).order_by("pk").values_list("status", "start_number")),
        PlayerCheck.objects.filter(player__tournament=tournament).count(),
        CheckIn.objects.filter(player__tournament=tournament).count(),
        SelfArrival.objects.filter(player__tournament=tournament).count(),
        AuditEntry.objects.filter(tournament=tournament).count(),
        Tournament.objects.get(pk=tournament.pk).version,
    )


# --- the pass -------------------------------------------------------------------------------------


def test_im_here_with_a_self_declared_item_checks_in_once_audited_as_the_player(client: Client) -> None:
    tournament = event()
    player, token = with_pass(tournament)
    item = self_item(tournament)
    page = client.get(reverse("tournament:pass", kwargs={"token": token}))
    assert b"I&#x27;m here" in page.content or b"I'm here" in page.content
    first = client.post(here_url(token), {"item": [str(item.pk)]})
    assert first.status_code == 302
    player.refresh_from_db()
    assert player.status == enums.PlayerStatus.CHECKED_IN
    assert PlayerCheck.objects.filter(player=player, item=item).exists()
    check_in = CheckIn.objects.get(player=player)
    assert check_in.checked_in_by is None and not check_in.override
    entry = AuditEntry.objects.get(tournament=tournament, action="player_checked_in")
    assert entry.actor_player_id == player.pk and entry.actor_id is None
    before = state(tournament)
    again = client.post(here_url(token), {"item": [str(item.pk)]})  # the double tap
    assert again.status_code == 302 and state(tournament) == before
    shown = client.get(reverse("tournament:pass", kwargs={"token": token}))
    assert "You are checked in." in shown.content.decode()


def test_a_desk_item_puts_the_player_on_the_desks_list_and_the_desk_completes_it(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = event(desk_item=True)
    player, token = with_pass(tournament)
    item = self_item(tournament)
    assert client.post(here_url(token), {"item": [str(item.pk)]}).status_code == 302
    player.refresh_from_db()
    assert player.status == enums.PlayerStatus.REGISTERED
    assert SelfArrival.objects.filter(player=player).exists()
    before = state(tournament)
    client.post(here_url(token), {"item": [str(item.pk)]})  # a second tap: the same arrival
    assert state(tournament) == before
    assert "Medical certificate" in client.get(reverse("tournament:pass", kwargs={"token": token})).content.decode()
    desk = Client()
    desk.force_login(staff_user(tournament, enums.Role.DESK))
    page = desk.get(reverse("tournament:check_in", args=[tournament.pk])).content.decode()
    listed = page.index("Arrived, needs the desk")
    assert listed < page.index('id="id_q"') and player.name in page[listed:]
    assert "Medical certificate" in page[listed : page.index('id="id_q"')]
    # The desk sees the certificate and checks in as today.
    answer = desk.post(reverse("tournament:player_check_in", args=[tournament.pk, player.pk]), {"all_checked": "1"})
    assert answer.status_code in (200, 302)
    player.refresh_from_db()
    assert player.status == enums.PlayerStatus.CHECKED_IN
    after = desk.get(reverse("tournament:check_in", args=[tournament.pk])).content.decode()
    assert "Arrived, needs the desk" not in after


def test_an_unticked_self_declaration_also_sends_the_player_to_the_desk(client: Client) -> None:
    tournament = event()
    player, token = with_pass(tournament)
    client.post(here_url(token), {})
    player.refresh_from_db()
    assert player.status == enums.PlayerStatus.REGISTERED and SelfArrival.objects.filter(player=player).exists()


@pytest.mark.parametrize(
    ("arrange", "words"),
    [
        ("setting_off", "Players do not check themselves in"),
        ("closed", "Check-in is closed"),
        ("waiting", WAITING_WORDS),
        ("withdrawn", "You have withdrawn"),
        ("no_show", "marked as not come"),
        ("revoked", "This pass was replaced"),
        ("foreign_item", "cannot be ticked here"),
        ("desk_item_posted", "cannot be ticked here"),
        ("garbage_item", "cannot be ticked here"),
    ],
)
def test_refusals_say_why_and_save_nothing(client: Client, arrange: str, words: str) -> None:
    tournament = event(desk_item=True)
    player, token = with_pass(tournament)
    posted = [str(self_item(tournament).pk)]
    if arrange == "setting_off":
        Tournament.objects.filter(pk=tournament.pk).update(self_check_in=False)
    elif arrange == "closed":
        Tournament.objects.filter(pk=tournament.pk).update(status=enums.TournamentStatus.FINISHED)
    elif arrange in ("waiting", "withdrawn", "no_show"):
        Player.objects.filter(pk=player.pk).update(status=arrange)
    elif arrange == "revoked":
        services.issue_pass(tournament=tournament, actor=None, player_id=player.pk)
    elif arrange == "foreign_item":
        posted.append(str(self_item(event()).pk))
    elif arrange == "desk_item_posted":
        posted.append(str(ChecklistItem.objects.get(tournament=tournament, kind="desk").pk))
    elif arrange == "garbage_item":
        posted.append("x'; DROP")
    before = state(tournament)
    answer = client.post(here_url(token), {"item": posted})
    assert answer.status_code in (409, 410), answer.status_code
    assert words in answer.content.decode()
    assert state(tournament) == before


def test_a_guessed_pass_is_refused_and_counted(client: Client) -> None:
    tournament = event()
    before = state(tournament)
    answer = client.post(here_url("A" * 43), {"item": ["1"]})
    assert answer.status_code == 404 and state(tournament) == before


def test_the_pass_page_says_why_before_a_tap() -> None:
    tournament = event()
    player, _token = with_pass(tournament, status=enums.PlayerStatus.WAITING)
    offer = self_check_in_selectors.offer(tournament, player)
    assert offer is not None and offer.refused.startswith(WAITING_WORDS)
    assert self_check_in_selectors.offer(event(on=False), PlayerFactory()) is None


def test_the_pass_shows_no_check_in_once_a_checked_in_player_plays() -> None:
    tournament = event()
    player, _token = with_pass(tournament, status=enums.PlayerStatus.CHECKED_IN)
    offer = self_check_in_selectors.offer(tournament, player)
    assert offer is not None and offer.checked_in
    Tournament.objects.filter(pk=tournament.pk).update(status=enums.TournamentStatus.RUNNING)
    tournament.refresh_from_db()
    assert self_check_in_selectors.offer(tournament, player) is None


def test_the_service_refuses_a_pass_of_another_tournament() -> None:
    tournament, other = event(), event()
    _player, _token = with_pass(other)
    foreign_pass = _player.passes.get()
    with pytest.raises(ServiceError):
        checkin.self_check_in(tournament_id=tournament.pk, pass_id=foreign_pass.pk, player_id=None, declared=[])
    assert not SelfArrival.objects.exists()


# --- the entrance ---------------------------------------------------------------------------------


def test_the_entrance_finds_a_typo_and_asks_is_this_you(client: Client) -> None:
    tournament = event()
    PlayerFactory(tournament=tournament, name="Niccolò Bianchi", club="UNO Club Trento")
    page = client.get(entrance_url(tournament), {"q": "nicolo"}).content.decode()
    assert "Is this you? Niccolò Bianchi" in page and "UNO Club Trento" in page


def test_the_entrance_without_check_in_by_name_needs_the_pass(client: Client) -> None:
    tournament = event(by_name=False)
    player = PlayerFactory(tournament=tournament)
    page = client.get(entrance_url(tournament), {"player": player.pk}).content.decode()
    assert "open your pass" in page and 'name="item"' not in page
    before = state(tournament)
    answer = client.post(entrance_url(tournament), {"player": player.pk, "item": [str(self_item(tournament).pk)]})
    assert answer.status_code == 409 and "Check-in by name is not offered" in answer.content.decode()
    assert state(tournament) == before


def test_the_entrance_with_check_in_by_name_checks_in_and_a_reload_shows_it(client: Client) -> None:
    tournament = event(by_name=True)
    player = PlayerFactory(tournament=tournament)
    item = self_item(tournament)
    answer = client.post(entrance_url(tournament), {"player": player.pk, "item": [str(item.pk)]})
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.status == enums.PlayerStatus.CHECKED_IN
    assert AuditEntry.objects.get(action="player_checked_in", tournament=tournament).actor_player_id == player.pk
    assert "You are checked in." in client.get(answer["Location"]).content.decode()


def test_the_entrance_says_when_check_in_is_closed_or_off(client: Client) -> None:
    assert "Players do not check themselves in" in client.get(entrance_url(event(on=False))).content.decode()
    closed = event()
    Tournament.objects.filter(pk=closed.pk).update(status=enums.TournamentStatus.FINISHED)
    assert "Check-in is closed" in client.get(entrance_url(closed)).content.decode()
    assert client.get("/p/AAAAAAAAAAAAAAAAAAAA/here/").status_code == 404


HOSTILE = ["", "0", "-1", "1e3", "9" * 30, str(2**63), "²", "\x00", "' OR 1=1 --", "<script>", "ä" * 300]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    player=st.one_of(st.sampled_from(HOSTILE), st.text(max_size=20)),
    items=st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=10)), max_size=4),
    query=st.one_of(st.sampled_from(HOSTILE), st.text(max_size=30)),
    by_pass=st.booleans(),
)
def test_hostile_posts_never_answer_500(
    client: Client, player: str, items: list[str], query: str, by_pass: bool
) -> None:
    tournament = Tournament.objects.filter(name="fuzz-self-check-in").first()
    if tournament is None:
        tournament = event(by_name=True, desk_item=True)
        Tournament.objects.filter(pk=tournament.pk).update(name="fuzz-self-check-in")
        with_pass(tournament)
    token = services.issue_pass(
        tournament=tournament, actor=None, player_id=Player.objects.filter(tournament=tournament).first().pk
    )[1]
    if by_pass:
        answer = client.post(here_url(token), {"item": items, "q": query})
    else:
        answer = client.post(entrance_url(tournament), {"player": player, "item": items})
    assert answer.status_code < 500
    assert client.get(entrance_url(tournament), {"q": query, "player": player}).status_code < 500


def test_a_search_of_punctuation_only_is_answered_at_the_desk_and_the_entrance(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    """ "-" folds to nothing: the desk's ordering by what the name starts with had an empty
    condition (a 500 before); now nobody "starts with" it."""
    tournament = event(players=3)
    assert client.get(entrance_url(tournament), {"q": "-"}).status_code == 200
    client.force_login(staff_user(tournament, enums.Role.DESK))
    assert client.get(reverse("tournament:check_in", args=[tournament.pk]), {"q": "-"}).status_code == 200


# --- access ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 302), ("referee", 403), ("no_role", 403), ("desk", 200), ("organiser", 200), ("superuser", 200)],
)
def test_the_entrance_poster_is_the_desks(client: Client, login_as, who: str, expected: int) -> None:  # type: ignore[no-untyped-def]
    tournament = event()
    if who != "anonymous":
        login_as(who, tournament)
    answer = client.get(reverse("tournament:print_entrance", args=[tournament.pk]))
    assert answer.status_code == expected
    if expected == 302:
        assert "login" in answer["Location"]
    if expected == 200:
        assert entrance_url(tournament) in answer.content.decode()


def test_the_print_pack_links_the_poster_only_with_self_check_in(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    on, off = event(), event(on=False)
    client.force_login(staff_user(on, enums.Role.DESK))
    poster = reverse("tournament:print_entrance", args=[on.pk])
    assert poster in client.get(reverse("tournament:print_pack", args=[on.pk])).content.decode()
    client.force_login(staff_user(off, enums.Role.DESK))
    assert "Entrance poster" not in client.get(reverse("tournament:print_pack", args=[off.pk])).content.decode()


# --- query counts ---------------------------------------------------------------------------------


def _queries(client: Client, path: str, data: dict[str, object] | None = None) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path, data or {}).status_code == 200
    return len(captured)


def test_the_entrance_page_and_the_desks_list_cost_the_same_at_20_and_500(staff_user) -> None:  # type: ignore[no-untyped-def]
    counts = {}
    for size in (20, 500):
        tournament = event(desk_item=True, by_name=True, players=size)
        item = self_item(tournament)
        arrived = list(Player.objects.filter(tournament=tournament).order_by("pk")[: size // 2])
        for player in arrived:
            checkin.self_check_in(tournament_id=tournament.pk, pass_id=None, player_id=player.pk, declared=[item.pk])
        one = arrived[0]
        _fresh, token = with_pass(tournament)
        desk = Client()
        desk.force_login(staff_user(tournament, enums.Role.DESK))
        public = Client()
        public.get(entrance_url(tournament), {"q": "spieler 0001"})  # the name index warm
        counts[size] = (
            _queries(public, entrance_url(tournament), {"q": "spieler 0001"}),
            _queries(public, entrance_url(tournament), {"q": "spielr"}),
            _queries(public, entrance_url(tournament), {"player": one.pk}),
            _desk_list_queries(tournament),
            _warm_then_queries(reverse("tournament:pass", kwargs={"token": token})),
        )
        assert (
            self_check_in_selectors.arrived(tournament, desk_selectors.checklist_with_handouts(tournament)).count
            == size // 2
        )
    assert counts[20] == counts[500] == ENTRANCE_AND_DESK_LIST, counts


# The entrance: a search found by name, one like it (a typo), one player chosen; the desk's list;
# the pass page with its check-in (the pass page's 3 and the offer's 2: the items, the arrival).
ENTRANCE_AND_DESK_LIST = (5, 6, 4, 2, 5)


def _warm_then_queries(path: str) -> int:
    """The queries of a page opened a second time (the version and the ranking cached by the first)."""
    client = Client()
    client.get(path)
    return _queries(client, path)


def _desk_list_queries(tournament: Tournament) -> int:
    items = desk_selectors.checklist_with_handouts(tournament)
    with CaptureQueriesContext(connection) as captured:
        shown = self_check_in_selectors.arrived(tournament, items)
    assert len(shown.rows) == min(shown.count, self_check_in_selectors.ARRIVED_NAMED)
    return len(captured)


@pytest.mark.parametrize(("posted", "kind"), [("self", "self"), ("desk", "desk"), ("", "desk"), ("bogus", "desk")])
def test_the_organiser_adds_a_self_declared_item(client: Client, staff_user, posted: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    tournament = event()
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    answer = client.post(
        reverse("tournament:add_checklist_item", args=[tournament.pk]), {"label": "Own deck brought 2", "kind": posted}
    )
    assert answer.status_code in (302, 422)
    item = ChecklistItem.objects.filter(tournament=tournament, label="Own deck brought 2").first()
    if answer.status_code == 302:
        assert item is not None and item.kind == kind
    else:  # a choice that is none is refused by the form, nothing saved
        assert posted == "bogus" and item is None


# --- the desk's list keeps itself current ----------------------------------------------------------


def _poll(desk: Client, tournament: Tournament, etag: str = "") -> object:
    headers = {"HX-Request": "true", "HX-Target": "arrived"}
    if etag:
        headers["If-None-Match"] = etag
    return desk.get(reverse("tournament:arrived_list", args=[tournament.pk]), headers=headers)


def test_the_desks_arrived_list_polls_itself_and_shows_a_new_arrival(staff_user) -> None:  # type: ignore[no-untyped-def]
    """The check-in page's "arrived, needs the desk" asks for itself: unchanged it is a 304 without
    a query; after a player's "I'm here" at the entrance it comes back with that player."""
    tournament = event(desk_item=True, by_name=True, players=3)
    desk = Client()
    desk.force_login(staff_user(tournament, enums.Role.DESK))
    page = desk.get(reverse("tournament:check_in", args=[tournament.pk])).content.decode()
    assert 'data-poll-url="' + reverse("tournament:arrived_list", args=[tournament.pk]) in page
    first = _poll(desk, tournament)
    assert first.status_code == 200 and "Arrived, needs the desk" not in first.content.decode()
    with CaptureQueriesContext(connection) as captured:
        assert _poll(desk, tournament, first["ETag"]).status_code == 304
    assert len(captured) == 0
    newcomer = Player.objects.filter(tournament=tournament).first()
    checkin.self_check_in(tournament_id=tournament.pk, pass_id=None, player_id=newcomer.pk, declared=[])
    again = _poll(desk, tournament, first["ETag"])
    assert again.status_code == 200
    assert "Arrived, needs the desk" in again.content.decode() and newcomer.name in again.content.decode()


@pytest.mark.parametrize(("who", "expected"), [("desk", 200), ("organiser", 200), ("referee", 403), ("no_role", 403)])
def test_the_arrived_list_is_the_desks(client: Client, login_as, who: str, expected: int) -> None:  # type: ignore[no-untyped-def]
    tournament = event()
    assert _poll(client, tournament).status_code == 302  # anonymous: to the login
    login_as(who, tournament)
    assert _poll(client, tournament).status_code == expected


def test_the_announcement_is_shown_at_check_in_at_the_entrance_and_at_the_desk(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    """ "Die Teilnehmer werden bei der Anmeldung darauf hingewiesen": the organiser's announcement is
    on the entrance page and on the desk's check-in page (besides the sign-up page and the pass)."""
    tournament = event(by_name=True, players=2)
    Tournament.objects.filter(pk=tournament.pk).update(announcement="Sharp play from round 3 on.")
    assert "Sharp play from round 3 on." in client.get(entrance_url(tournament)).content.decode()
    desk = Client()
    desk.force_login(staff_user(tournament, enums.Role.DESK))
    page = desk.get(reverse("tournament:check_in", args=[tournament.pk])).content.decode()
    assert "Point every player to the organiser's announcement" in page and "Sharp play from round 3 on." in page
    Tournament.objects.filter(pk=tournament.pk).update(announcement="")
    assert (
        "organiser's announcement"
        not in desk.get(reverse("tournament:check_in", args=[tournament.pk])).content.decode()
    )
