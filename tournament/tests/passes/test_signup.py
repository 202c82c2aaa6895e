"""Sign-up before the day (issue 32, item 2): the public page takes name, club and contact through
the desk's registration (capacity, waiting list), refuses bad input in words with nothing saved,
shows the pass, mails it through a real SMTP server, the pass withdraws only its own player, the
fee fixes places (paid first), and the page costs the same at 20 and 500 players."""

from __future__ import annotations

import datetime
import email
import re
import socket
import threading
from decimal import Decimal

import pytest
from aiosmtpd.controller import Controller
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tournament import enums
from tournament.desk import registration
from tournament.desk.players import waiting_place
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Player, PlayerPass, RegistrationWindow, Tournament
from tournament.passes import services, signup
from tournament.tests.factories import PlayerFactory, TournamentFactory, players_in_bulk

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


def open_tournament(**fields: object) -> Tournament:
    values: dict[str, object] = {"online_signup": True, "capacity": 3, "entry_fee": Decimal("3")}
    values.update(fields)
    return TournamentFactory(**values)


def url(tournament: Tournament) -> str:
    return reverse("tournament:sign_up", args=[tournament.public_key])


def post(client: Client, tournament: Tournament, **fields: str):  # type: ignore[no-untyped-def]
    data = {"name": "Anna Höller", "club": "UNO Club Süd", "contact": "anna@example.org", "rules_accepted": "on"}
    data.update(fields)
    return client.post(url(tournament), {k: v for k, v in data.items() if v is not None}, HTTP_ACCEPT_LANGUAGE="en")


def pass_link(page: str) -> str:
    found = re.search(r'class="pass-link btn" href="([^"]+)"', page)
    assert found, page
    return found.group(1)


# --- the page ---------------------------------------------------------------------------------


def test_a_sign_up_registers_through_the_desk_and_shows_the_pass(client: Client) -> None:
    tournament = open_tournament(rules_text="Bei Teilnahme am Turnier werden die aufgestellten Regeln akzeptiert.")
    page = client.get(url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "aufgestellten Regeln" in page and "I accept the tournament" in page
    answer = post(client, tournament)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "You are registered" in text and "<svg" in text
    player = Player.objects.get(tournament=tournament)
    assert (player.name, player.club, player.signed_up_online, player.status) == (
        "Anna Höller",
        "UNO Club Süd",
        True,
        enums.PlayerStatus.REGISTERED,
    )
    assert "This site sends no e-mail" in text  # EMAIL_HOST unset in the tests
    pass_page = Client().get(pass_link(text), HTTP_ACCEPT_LANGUAGE="en")
    assert pass_page.status_code == 200 and "Anna Höller" in pass_page.content.decode()
    # No card was printed for her yet: the pass's last line speaks of the e-mail, not of a lost card.
    assert "Keep the e-mail or bookmark this page" in pass_page.content.decode()
    assert "If you lose your card" not in pass_page.content.decode()
    entry = AuditEntry.objects.get(action="player_registered")
    assert (entry.actor_id, entry.actor_player_id, entry.detail["online"]) == (None, player.pk, True)


def test_past_capacity_the_sign_up_joins_the_waiting_list_with_its_place(client: Client) -> None:
    tournament = open_tournament(capacity=3)
    PlayerFactory.create_batch(3, tournament=tournament)
    post(client, tournament, name="First Waiting", contact="+43 660 1234567")
    answer = post(client, tournament, name="Second Waiting")
    text = answer.content.decode()
    assert answer.status_code == 200 and "You are on the waiting list, place 2" in text
    assert Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.WAITING).count() == 2


BAD = [
    ({"name": ""}, "The name is missing."),
    ({"name": "x" * 121}, "The name is longer than 120 characters."),
    ({"club": "c" * 121}, "The club is longer than 120 characters."),
    ({"contact": ""}, "Give an e-mail address or a phone number"),
    ({"contact": "anna@"}, "This e-mail address is not valid."),
    ({"contact": "call me"}, "Give an e-mail address (name@example.org) or a phone number"),
    ({"rules_accepted": None}, "accept the tournament"),
    ({"name": "x" * 3000}, "Ensure this value has at most"),
]


@pytest.mark.parametrize(("fields", "words"), BAD)
def test_bad_input_is_refused_in_words_and_nothing_is_saved(client: Client, fields: dict, words: str) -> None:  # type: ignore[type-arg]
    tournament = open_tournament()
    answer = post(client, tournament, **fields)
    assert answer.status_code == 422 and words in answer.content.decode()
    assert not Player.objects.exists() and not PlayerPass.objects.exists()


def test_a_duplicate_same_folded_name_and_club_is_refused(client: Client) -> None:
    tournament = open_tournament()
    PlayerFactory(tournament=tournament, name="Anna  HÖLLER", club="uno club süd")
    answer = post(client, tournament)
    assert answer.status_code == 422 and "is already signed up for this tournament" in answer.content.decode()
    assert Player.objects.count() == 1
    # A namesake of another club is another person.
    assert post(client, tournament, club="TSV Nord").status_code == 200


@pytest.mark.parametrize("case", ["off", "closed", "running"])
def test_sign_up_off_closed_or_under_way_is_refused(client: Client, case: str) -> None:
    tournament = open_tournament(online_signup=case != "off")
    if case == "closed":
        opens = timezone.now() + datetime.timedelta(days=1)
        RegistrationWindow.objects.create(
            tournament=tournament, opens_at=opens, closes_at=opens + datetime.timedelta(hours=1)
        )
    if case == "running":
        Tournament.objects.filter(pk=tournament.pk).update(status=enums.TournamentStatus.RUNNING)
    page = client.get(url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="rules_accepted"' not in page
    answer = post(client, tournament)
    words = {"off": "Online sign-up is not open", "closed": "Registration is closed now", "running": "under way"}
    assert answer.status_code == 422 and words[case] in answer.content.decode()
    assert not Player.objects.exists()


def test_an_open_window_takes_sign_ups(client: Client) -> None:
    tournament = open_tournament()
    now = timezone.now()
    RegistrationWindow.objects.create(
        tournament=tournament, opens_at=now - datetime.timedelta(hours=1), closes_at=now + datetime.timedelta(hours=1)
    )
    assert post(client, tournament).status_code == 200


def test_the_phone_page_links_the_sign_up_only_when_allowed(client: Client) -> None:
    on, off = open_tournament(), open_tournament(online_signup=False)
    assert url(on) in client.get(reverse("tournament:find", args=[on.public_key])).content.decode()
    assert url(off) not in client.get(reverse("tournament:find", args=[off.public_key])).content.decode()


def test_the_announcement_is_shown_at_sign_up_and_on_the_pass(client: Client) -> None:
    tournament = open_tournament(announcement="Finale bis 300 Punkte statt 500.")
    assert "Finale bis 300" in client.get(url(tournament)).content.decode()
    link = pass_link(post(client, tournament).content.decode())
    assert "Finale bis 300" in Client().get(link).content.decode()


# --- withdraw with the pass -------------------------------------------------------------------


def test_withdraw_with_the_pass_asks_first_then_moves_the_waiting_list_up(client: Client) -> None:
    tournament = open_tournament(capacity=3)
    PlayerFactory.create_batch(2, tournament=tournament)
    link = pass_link(post(client, tournament).content.decode())
    waiting = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WAITING)
    token = link.rstrip("/").rsplit("/", 1)[1]
    withdraw_url = reverse("tournament:pass_withdraw", kwargs={"token": token})
    ask = client.get(withdraw_url, HTTP_ACCEPT_LANGUAGE="en")
    assert ask.status_code == 200 and "Withdraw Anna Höller?" in ask.content.decode()
    assert client.post(withdraw_url).status_code == 200  # no confirm=1: asked again, nothing done
    player = Player.objects.get(name="Anna Höller")
    assert player.status == enums.PlayerStatus.REGISTERED
    assert client.post(withdraw_url, {"confirm": "1"}).status_code == 302
    player.refresh_from_db()
    waiting.refresh_from_db()
    assert (player.status, waiting.status) == (enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.REGISTERED)
    entry = AuditEntry.objects.get(action="player_withdrawn")
    assert (entry.actor_id, entry.actor_player_id, entry.player_id) == (None, player.pk, player.pk)
    again = client.post(withdraw_url, {"confirm": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 409 and "already withdrawn" in again.content.decode()


def test_a_revoked_pass_or_another_token_withdraws_nobody(client: Client) -> None:
    tournament = open_tournament()
    player = PlayerFactory(tournament=tournament)
    other = PlayerFactory(tournament=tournament)
    old = services.issue_pass(tournament=tournament, actor=None, player_id=player.pk)[1]
    services.issue_pass(tournament=tournament, actor=None, player_id=player.pk)
    for token, status in ((old, 410), ("A" * 43, 404)):
        answer = client.post(reverse("tournament:pass_withdraw", kwargs={"token": token}), {"confirm": "1"})
        assert answer.status_code == status
    assert set(Player.objects.values_list("status", flat=True)) == {enums.PlayerStatus.REGISTERED}
    # The service acts for the pass's own player only: a revoked pass id is refused too.
    old_pass = PlayerPass.objects.get(player=player, revoked_at__isnull=False)
    with pytest.raises(ServiceError):
        signup.withdraw_with_pass(pass_id=old_pass.pk, confirmed=True)
    other.refresh_from_db()
    assert other.status == enums.PlayerStatus.REGISTERED


# --- the fee fixes a place --------------------------------------------------------------------


def test_paid_first_a_paid_waiting_player_takes_the_latest_provisional_place(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = open_tournament(capacity=2, fee_fixes_place=True)
    early = pass_link(post(client, tournament, name="Early Unpaid").content.decode())
    late = pass_link(post(client, tournament, name="Late Unpaid").content.decode())
    post(client, tournament, name="Waiting One")
    paid_waiting = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WAITING, name="Desk Paid")
    late_before = Client().get(late, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Provisional place: pay the fee of € 3.00 to fix it" in late_before
    desk = staff_user(tournament, enums.Role.DESK)
    client.force_login(desk)
    answer = client.post(reverse("tournament:fee_paid", args=[tournament.pk, paid_waiting.pk]), {"paid": "1"})
    assert answer.status_code == 302
    by_name = {p.name: p for p in Player.objects.filter(tournament=tournament)}
    assert by_name["Desk Paid"].status == enums.PlayerStatus.REGISTERED and by_name["Desk Paid"].fee_paid_at
    assert by_name["Late Unpaid"].status == enums.PlayerStatus.WAITING
    assert by_name["Early Unpaid"].status == enums.PlayerStatus.REGISTERED
    assert waiting_place(tournament, by_name["Late Unpaid"]) == 1  # the top of the waiting list
    assert waiting_place(tournament, by_name["Waiting One"]) == 2
    late_page = Client().get(late, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "took your provisional place" in late_page and "waiting list, place 1" in late_page
    assert "Provisional place" in Client().get(early, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert AuditEntry.objects.filter(action="fee_paid", actor=desk, player=by_name["Desk Paid"]).exists()
    assert AuditEntry.objects.filter(action="provisional_place_lost", player=by_name["Late Unpaid"]).exists()
    # Paid: the place is fixed and never given up to another payer.
    registration.set_fee_paid(tournament=tournament, actor=desk, player_id=by_name["Early Unpaid"].pk, paid=True)
    assert "Fixed place" in Client().get(early, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    another = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WAITING)
    registration.set_fee_paid(tournament=tournament, actor=desk, player_id=another.pk, paid=True)
    another.refresh_from_db()
    assert another.status == enums.PlayerStatus.WAITING
    assert Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.REGISTERED).count() == 2


def test_the_desk_sees_online_and_marks_paid_only_with_its_role(client: Client, staff_user, make_user) -> None:  # type: ignore[no-untyped-def]
    tournament = open_tournament()
    post(Client(), tournament)
    player = Player.objects.get()
    client.force_login(staff_user(tournament, enums.Role.DESK))
    page = client.get(reverse("tournament:check_in", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="badge badge-online"' in page and "Fee paid" in page
    referee = staff_user(tournament, enums.Role.REFEREE)
    client.force_login(referee)
    fee_url = reverse("tournament:fee_paid", args=[tournament.pk, player.pk])
    assert client.post(fee_url, {"paid": "1"}).status_code == 403
    elsewhere = PlayerFactory()
    client.force_login(staff_user(tournament, enums.Role.DESK))
    refused = client.post(reverse("tournament:fee_paid", args=[tournament.pk, elsewhere.pk]), {"paid": "1"})
    assert refused.status_code in (302, 404, 409)
    player.refresh_from_db()
    elsewhere.refresh_from_db()
    assert player.fee_paid_at is None and elsewhere.fee_paid_at is None


# --- the confirmation e-mail through a real SMTP server ---------------------------------------


class Inbox:
    def __init__(self) -> None:
        self.messages: list[bytes] = []
        self.received = threading.Event()

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.messages.append(envelope.content)
        self.received.set()
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp_server(settings):  # type: ignore[no-untyped-def]
    inbox = Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield inbox
    controller.stop()


@pytest.mark.parametrize(("language", "greeting"), [("de", "Guten Tag"), ("it", "Ciao"), ("en", "Hello")])
def test_the_confirmation_mail_carries_the_pass_in_the_tournaments_language(
    client: Client, smtp_server: Inbox, language: str, greeting: str
) -> None:
    tournament = open_tournament(display_language=language)
    answer = post(client, tournament)
    assert answer.status_code == 200
    assert smtp_server.received.wait(5)
    message = email.message_from_bytes(smtp_server.messages[0])
    body = message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")
    assert greeting in body and "anna@example.org" in message["To"]
    link = re.search(r"(http://testserver/pass/[A-Za-z0-9_-]{43}/)", body)
    assert link and Client().get(link.group(1)).status_code == 200  # the mailed link opens the pass
    assert "We sent the link to anna@example.org" in answer.content.decode()


def test_a_phone_contact_gets_no_mail(client: Client, smtp_server: Inbox) -> None:
    tournament = open_tournament()
    answer = post(client, tournament, contact="+39 333 1234567")
    assert answer.status_code == 200 and "no e-mail is sent" in answer.content.decode()
    assert not smtp_server.received.wait(0.3)


# --- cost -------------------------------------------------------------------------------------


def _sign_up_queries(tournament: Tournament) -> tuple[int, int, int]:
    client = Client()
    client.get(url(tournament))
    with CaptureQueriesContext(connection) as page:
        assert client.get(url(tournament)).status_code == 200
    # Counted at once: a later read of ``captured_queries`` slices the connection's log again.
    counts = [len(page)]
    token = services.issue_pass(
        tournament=tournament, actor=None, player_id=Player.objects.filter(tournament=tournament).last().pk
    )[1]
    client.get(reverse("tournament:pass_withdraw", kwargs={"token": token}))
    with CaptureQueriesContext(connection) as ask:
        assert client.get(reverse("tournament:pass_withdraw", kwargs={"token": token})).status_code == 200
    counts.append(len(ask))
    waiting = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WAITING)
    waiting_token = services.issue_pass(tournament=tournament, actor=None, player_id=waiting.pk)[1]
    client.get(reverse("tournament:pass", kwargs={"token": waiting_token}))
    with CaptureQueriesContext(connection) as pass_page:
        answer = client.get(reverse("tournament:pass", kwargs={"token": waiting_token}), HTTP_ACCEPT_LANGUAGE="en")
    counts.append(len(pass_page))
    assert "You are on the waiting list, place 1." in answer.content.decode()
    return counts[0], counts[1], counts[2]


def test_the_sign_up_pages_cost_the_same_at_20_and_500_players() -> None:
    counts = {}
    for size in (20, 500):
        tournament = open_tournament(capacity=5000, fee_fixes_place=True)
        players_in_bulk(size, tournament=tournament)
        counts[size] = _sign_up_queries(tournament)
    assert counts[20] == counts[500] == (SIGN_UP_PAGE_QUERIES, WITHDRAW_ASK_QUERIES, WAITING_PASS_QUERIES), counts


SIGN_UP_PAGE_QUERIES = 2
WITHDRAW_ASK_QUERIES = 14
# The pass page of a waiting player where the fee fixes places: the pass's 3, the waiting list's order,
# the latest change of place by payment.
WAITING_PASS_QUERIES = 5


# --- the organiser's settings -----------------------------------------------------------------


def test_the_settings_page_turns_sign_up_on_with_rules_and_announcement(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    from tournament.tests.settings_page import settings_data

    tournament = TournamentFactory()
    assert not tournament.online_signup and not tournament.fee_fixes_place  # off by default
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.get(reverse("tournament:settings", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Online sign-up" in page and "A place is fixed only once the fee is paid" in page
    assert "Players sign up themselves on a public page" in page  # the help text
    bad = settings_data(tournament, online_signup="on", rules_url="not a link")
    assert client.post(reverse("tournament:settings", args=[tournament.pk]), bad).status_code == 422
    tournament.refresh_from_db()
    assert not tournament.online_signup
    good = settings_data(
        tournament, online_signup="on", rules_text="Regeln", rules_url="unterwasseruno.at", announcement="Neu"
    )
    assert client.post(reverse("tournament:settings", args=[tournament.pk]), good).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.online_signup, tournament.rules_url, tournament.announcement) == (
        True,
        "https://unterwasseruno.at",
        "Neu",
    )
