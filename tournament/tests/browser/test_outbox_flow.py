"""No tap is lost: the referee tablet on bad Wi-Fi, end to end in chromium (800x1280).

- a tap made offline shows "waiting", survives a reload of the page (the
  service worker serves the table, localStorage keeps the entry) and is
  recorded exactly once when the connection returns; several offline entries
  go out in order;
- the server answering 500 shows the message, records nothing, and the
  buttons come back; "Send again" records it once;
- the final's calculator records exactly the tapped hands (undo per card, an
  emptied hand is 0, winner first, "Record game" in view, the hand survives a
  conflict with a second tablet);
- an htmx action that fails offline says so in place;
- the referees' table list, a table page and the organiser's rounds page keep
  themselves current, and the table page leaves a half-done hand alone.
Screenshots land in test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from games.models import Game, GameScore, GameStatus
from tournament import enums, simulation
from tournament.errors import ServiceError
from tournament.formats.knockout import services as knockout
from tournament.formats.life_bands import services as life_bands
from tournament.models import StaffRole, Table, Tournament
from tournament.play import results
from tournament.tests.browser.conftest import go_offline, go_online, wait_for_polls
from tournament.tests.browser.tablet import DESK, expect_status, panel, seated
from tournament.tests.helpers import set_settings
from tournament.writes import REFUSED

pytestmark = pytest.mark.browser

SEED = 20261122
SENT_MS = 12_000  # an offline entry is sent within the retry interval once the connection is back


@pytest.fixture(autouse=True)
def _fast_polls(settings):  # type: ignore[no-untyped-def]
    settings.STAFF_POLL_SECONDS = 2


@pytest.fixture
def field(organiser, referee):  # type: ignore[no-untyped-def]
    """field(fmt, players, **settings) -> a tournament with round 1 seated; organiser and referee have roles."""

    def make(fmt: str, players: int, **settings: object) -> Tournament:
        tournament = simulation.create_field(fmt=fmt, players=players, seed=SEED)
        if settings:
            set_settings(tournament, **settings)
            tournament.refresh_from_db()
        StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
        StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
        if fmt == enums.Format.LIFE_BANDS:
            life_bands.start_main_round(tournament=tournament, actor=organiser, seed=SEED)
        else:
            knockout.generate_next_round(tournament=tournament, actor=organiser, seed=SEED)
        return tournament

    return make


def table_url(tournament: Tournament, table: Table) -> str:
    return reverse("tournament:referee_table", args=[tournament.pk, table.pk])


def with_dealer(tournament: Tournament, table: Table, position: int = 0) -> Table:
    table.refresh_from_db()
    return results.set_first_dealer(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        player_id=seated(table)[position].player_id,
        version=table.version,
    )


def seat_rows(page: Page) -> Locator:
    return page.locator("#table-panel ol.seats > li.seat")


def outbox_entries(page: Page) -> Locator:
    return page.locator("#outbox .outbox-entry")


def kept_for_offline(page: Page) -> None:
    """Wait until the service worker keeps this page and its scripts for a reload without a connection
    (the modules the scripts import too: the page lists them as modulepreload links)."""
    page.wait_for_function(
        """async () => {
            if (!navigator.serviceWorker) return false;
            await navigator.serviceWorker.ready;
            if (!(await caches.match(location.href))) return false;
            const tags = document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=modulepreload]");
            for (const tag of tags) { if (!(await caches.match(tag.src || tag.href))) return false; }
            return true;
        }""",
        timeout=10_000,
    )


def valid_games(table: Table) -> list[tuple[int, int | None, int | None]]:
    return list(
        Game.objects.filter(table=table, status=GameStatus.VALID)
        .order_by("number")
        .values_list("number", "winner_id", "loser_id")
    )


# --- offline ------------------------------------------------------------------------------


def test_an_offline_tap_waits_survives_a_reload_and_is_recorded_once(  # type: ignore[no-untyped-def]
    new_tablet, field, referee, screenshot
) -> None:
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))
    expect(seat_rows(page)).to_have_count(3)
    kept_for_offline(page)

    go_offline(page)
    seat_rows(page).nth(1).get_by_role("button", name="Won").click()
    entry = outbox_entries(page)
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Waiting to be sent")
    expect(entry).to_contain_text(f"Game 1: won by {seats[1].player.name}")
    expect(page.locator("#outbox-banner")).to_have_text("Offline: 1 entry waiting")
    expect(seat_rows(page).nth(1).get_by_role("button", name="Won")).to_be_enabled()  # the buttons came back
    screenshot(page, "outbox-offline-waiting")
    assert valid_games(table) == []

    # The referee reloads without a connection: the table and the waiting entry are still there.
    page.reload()
    expect(seat_rows(page)).to_have_count(3)
    expect(outbox_entries(page)).to_contain_text("Waiting to be sent")
    expect(page.locator("#outbox-banner")).to_have_text("Offline: 1 entry waiting")
    assert valid_games(table) == []

    go_online(page)
    expect(outbox_entries(page)).to_have_count(0, timeout=SENT_MS)
    expect(page.locator("#outbox-banner")).to_be_hidden()
    expect(seat_rows(page).locator(".tally-value")).to_have_text(["0", "1", "0"])
    expect(panel(page).locator(".game-log li")).to_have_count(1)
    assert valid_games(table) == [(1, seats[1].player_id, None)]
    # Whatever the page does next, the game stays recorded once.
    page.reload()
    expect(seat_rows(page).locator(".tally-value")).to_have_text(["0", "1", "0"])
    assert Game.objects.filter(table=table).count() == 1


def test_offline_losses_go_out_in_order_once_each(new_tablet, field, referee) -> None:  # type: ignore[no-untyped-def]
    """Schocken: two "Lost" taps while offline, the second built on the first."""
    tournament = field(enums.Format.LIFE_BANDS, 8)
    table = Table.objects.get(round__tournament=tournament, number=1)
    seats = seated(table)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))
    expect(seat_rows(page)).to_have_count(4)

    go_offline(page)
    seat_rows(page).nth(2).get_by_role("button", name="Lost").click()
    expect(outbox_entries(page)).to_have_count(1)
    seat_rows(page).nth(0).get_by_role("button", name="Lost").click()
    expect(outbox_entries(page)).to_have_count(2)
    expect(outbox_entries(page).nth(1)).to_contain_text(f"Game 2: {seats[0].player.name} hands in a chip")
    expect(page.locator("#outbox-banner")).to_have_text("Offline: 2 entries waiting")
    assert valid_games(table) == []

    go_online(page)
    expect(outbox_entries(page)).to_have_count(0, timeout=SENT_MS)
    assert valid_games(table) == [(1, None, seats[2].player_id), (2, None, seats[0].player_id)]
    expect(panel(page).locator(".game-log li")).to_have_count(2)


def test_a_refused_replay_is_shown_beside_the_current_table(  # type: ignore[no-untyped-def]
    new_tablet, field, referee
) -> None:
    """Offline, the referee taps; meanwhile a second tablet records at the same table. On
    reconnection the waiting entry is refused (the table changed) and shown with the reason."""
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))
    go_offline(page)
    seat_rows(page).nth(0).get_by_role("button", name="Won").click()
    expect(outbox_entries(page)).to_contain_text("Waiting to be sent")
    table.refresh_from_db()
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=seats[2].player_id,
        version=table.version,
        idempotency_key=uuid.uuid4().hex,
    )
    go_online(page)
    refused = page.locator("#outbox .outbox-entry.is-refused")
    expect(refused).to_contain_text("Not recorded", timeout=SENT_MS)
    expect(refused).to_contain_text("changed on another tablet")
    expect(page.locator("#table-error")).to_contain_text("changed on another tablet")
    expect(seat_rows(page).locator(".tally-value")).to_have_text(["0", "0", "1"])  # the current state beside it
    expect(page.locator("#outbox-banner")).to_have_text("1 entry was not recorded")
    assert valid_games(table) == [(1, seats[2].player_id, None)]
    # The referee enters it again on the current state, then dismisses the note.
    seat_rows(page).nth(0).get_by_role("button", name="Won").click()
    expect(seat_rows(page).locator(".tally-value")).to_have_text(["1", "0", "1"])
    refused.get_by_role("button", name="Dismiss").click()
    expect(outbox_entries(page)).to_have_count(0)
    assert len(valid_games(table)) == 2


# --- the server fails ----------------------------------------------------------------------


def test_a_server_error_shows_the_message_and_records_nothing(  # type: ignore[no-untyped-def]
    new_tablet, field, referee, monkeypatch, screenshot
) -> None:
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away in the middle of the game")

    # The live server runs in this process: its next result entry fails after the game was written.
    monkeypatch.setattr(results, "audit", broken)  # the last write of a tap
    seat_rows(page).nth(2).get_by_role("button", name="Won").click()
    failed = page.locator("#outbox .outbox-entry.is-failed")
    expect(failed).to_contain_text("Not saved")
    expect(failed).to_contain_text("error 500")
    expect(failed).to_contain_text("nothing was recorded")
    expect(page.locator("#outbox-banner")).to_have_text("1 entry was not saved")
    expect(seat_rows(page).nth(2).get_by_role("button", name="Won")).to_be_enabled()
    screenshot(page, "outbox-server-error")
    assert Game.objects.filter(table=table).count() == 0

    monkeypatch.undo()
    failed.get_by_role("button", name="Send again").click()
    expect(outbox_entries(page)).to_have_count(0)
    expect(seat_rows(page).locator(".tally-value")).to_have_text(["0", "0", "1"])
    expect(panel(page).locator("#table-notice")).to_have_text(f"✓ Saved: game 1, won by {seats[2].player.name}.")
    assert valid_games(table) == [(1, seats[2].player_id, None)]


def test_an_htmx_action_that_fails_offline_says_so_in_place(new_tablet, field, referee) -> None:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=seated(table)[0].player_id,
        version=Table.objects.get(pk=table.pk).version,
        idempotency_key=uuid.uuid4().hex,
    )
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))
    go_offline(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo game 1").click()
    expect(page.locator(".htmx-error")).to_have_text(
        "No connection: nothing was changed. Try again when the tablet is back online."
    )
    expect(page.get_by_role("button", name="Undo game 1")).to_be_enabled()
    assert valid_games(table) != []


# --- the calculator --------------------------------------------------------------------------


def calculator(page: Page, player_id: int) -> Locator:
    return page.locator(f'form.final-entry fieldset[data-calculator][data-player="{player_id}"]')


def tap(calc: Locator, *cards: str) -> None:
    for card in cards:
        calc.locator(f'.calc-key[data-card="{card}"]').click()


def assert_in_view(page: Page, locator: Locator, what: str) -> None:
    box = locator.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None, what
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], f"{what} is out of view: {box}"


def test_the_calculator_records_exactly_the_tapped_hands(  # type: ignore[no-untyped-def]
    new_tablet, field, referee, browser_user, screenshot
) -> None:
    tournament = field(enums.Format.KNOCKOUT, 3, final_points_target=200)
    final = with_dealer(tournament, Table.objects.get(round__tournament=tournament))
    winner, second, third = seated(final)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, final))
    entry = page.locator("form.final-entry")

    # The winner first: until then no hand is asked for.
    expect(page.locator("[data-calc-hint]")).to_be_visible()
    expect(page.locator("[data-calculators]")).to_be_hidden()
    assert_in_view(page, entry.get_by_role("button", name="Record game"), "Record game")
    entry.locator(".winner-option").nth(0).click()
    expect(calculator(page, winner.player_id)).to_be_hidden()  # the winner holds no cards
    expect(calculator(page, second.player_id)).to_be_visible()

    # 3, 5, Skip, 9, then "Undo last card" twice: the hand is 3 and 5.
    hand = calculator(page, second.player_id)
    tap(hand, "3", "5", "skip", "9")
    expect(hand.locator("[data-calc-hand]")).to_have_text("3 · 5 · ⊘ Skip · 9")
    expect(hand.locator(".calc-total")).to_have_value("37")
    hand.get_by_role("button", name="Undo last card").click()
    hand.get_by_role("button", name="Undo last card").click()
    expect(hand.locator("[data-calc-hand]")).to_have_text("3 · 5")
    expect(hand.locator(".calc-total")).to_have_value("8")

    # 8, then undo: the hand is empty, it shows 0 and records 0.
    other = calculator(page, third.player_id)
    tap(other, "8")
    expect(other.locator(".calc-total")).to_have_value("8")
    other.get_by_role("button", name="Undo last card").click()
    expect(other.locator("[data-calc-hand]")).to_have_text("")
    expect(other.locator(".calc-total")).to_have_value("0")
    expect(page.locator("[data-winner-total]")).to_have_text("8")
    assert_in_view(page, entry.get_by_role("button", name="Record game"), "Record game after the hands")
    screenshot(page, "calculator-tablet")
    entry.get_by_role("button", name="Record game").click()
    expect(panel(page).locator("#table-notice")).to_contain_text("Saved: game 1")

    game = Game.objects.get(table=final)
    scores = {s.player_id: s for s in GameScore.objects.filter(game=game)}
    assert scores[second.player_id].hand == {"cards": 8, "hand": {"3": 1, "5": 1}}
    assert scores[third.player_id].hand == {"cards": 0, "hand": {}}
    assert scores[winner.player_id].points == 8

    # Typed first, then a card: the typed points are replaced, visibly.
    entry.locator(".winner-option").nth(1).click()
    typed = calculator(page, third.player_id)
    typed.locator(".calc-total").fill("12")
    tap(typed, "wild")
    expect(typed.locator(".calc-total")).to_have_value("50")
    expect(typed.locator("[data-calc-hand]")).to_contain_text(
        "The typed points (12) were replaced by the tapped cards."
    )
    tap(calculator(page, winner.player_id), "2")

    # A second tablet records game 2 first: this entry is refused and the hands stay.
    final.refresh_from_db()
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=final.pk,
        winner_id=third.player_id,
        version=final.version,
        idempotency_key=uuid.uuid4().hex,
        card_points={winner.player_id: 1, second.player_id: 1},
    )
    entry.get_by_role("button", name="Record game").click()
    expect(page.locator("#table-error")).to_contain_text("changed on another tablet")
    expect(entry.locator('input[name="winner"]:checked')).to_have_value(str(second.player_id))
    expect(calculator(page, third.player_id).locator("[data-calc-hand]")).to_have_text("Wild")
    expect(calculator(page, winner.player_id).locator("[data-calc-hand]")).to_have_text("2")
    expect(page.locator("[data-winner-total]")).to_have_text("52")
    screenshot(page, "calculator-refused-hand-kept")
    entry.get_by_role("button", name="Record game").click()
    expect(panel(page).locator("#table-notice")).to_contain_text("Saved: game 3")
    last = Game.objects.filter(table=final, status=GameStatus.VALID).order_by("-number").first()
    assert last is not None and last.number == 3 and last.winner_id == second.player_id
    scores = {s.player_id: s.hand for s in GameScore.objects.filter(game=last)}
    assert scores[third.player_id] == {"cards": 50, "hand": {"wild": 1}}
    assert scores[winner.player_id] == {"cards": 2, "hand": {"2": 1}}


# --- pages that keep themselves current ----------------------------------------------------


def test_staff_pages_keep_themselves_current(  # type: ignore[no-untyped-def]
    new_tablet, field, organiser, referee, screenshot
) -> None:
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)

    tables = new_tablet(referee.username)
    tables.goto(reverse("tournament:referee_tables", args=[tournament.pk]))
    card = tables.locator("#table-link-1")
    expect(card.locator(".seat-names li").nth(0)).to_contain_text(" · 0")

    at_table = new_tablet(referee.username)
    at_table.goto(table_url(tournament, table))

    rounds = new_tablet(organiser.username)
    rounds.set_viewport_size(DESK)
    rounds.goto(reverse("tournament:rounds", args=[tournament.pk]))
    expect(rounds.locator(".next-round")).to_contain_text("2 tables are still playing.")

    # Another tablet records three games at table 1: every page follows by itself.
    for _ in range(3):
        table.refresh_from_db()
        knockout.record_game(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            winner_id=seats[0].player_id,
            version=table.version,
            idempotency_key=uuid.uuid4().hex,
        )
    expect(card.locator(".seat-names li").nth(0)).to_contain_text("3")
    expect(card.locator(".badge")).to_have_text("Decided")
    expect_status(at_table, "Decided")
    expect(at_table.locator(".decided-banner")).to_contain_text(seats[0].player.name)
    expect(rounds.locator(".next-round")).to_contain_text("1 table is still playing.")
    screenshot(rounds, "rounds-page-polled")


def test_a_half_done_hand_is_not_replaced_by_a_poll(new_tablet, field, referee) -> None:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.KNOCKOUT, 3, final_points_target=200)
    final = with_dealer(tournament, Table.objects.get(round__tournament=tournament))
    winner, second, _third = seated(final)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, final))
    page.locator("form.final-entry .winner-option").nth(0).click()
    tap(calculator(page, second.player_id), "7", "draw_two")
    # Something else changes in the tournament; the polls must leave the hand alone.
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version + 50)
    wait_for_polls(page, 2)
    expect(calculator(page, second.player_id).locator("[data-calc-hand]")).to_have_text("7 · +2")
    expect(page.locator('input[name="winner"]:checked')).to_have_value(str(winner.player_id))


def test_the_organiser_reads_the_refused_entries(  # type: ignore[no-untyped-def]
    new_tablet, field, organiser, referee, screenshot
) -> None:
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)
    stale = Table.objects.get(pk=table.pk).version
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=seats[0].player_id,
        version=stale,
        idempotency_key="a",
    )
    with pytest.raises(ServiceError):
        knockout.record_game(
            tournament=tournament,
            actor=referee,
            table_id=table.pk,
            winner_id=seats[1].player_id,
            version=stale,
            idempotency_key="b",
        )
    assert tournament.audit.filter(action=REFUSED).count() == 1
    page = new_tablet(organiser.username)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(reverse("tournament:audit_log", args=[tournament.pk]))
    page.get_by_role("link", name=re.compile(r"Only the refused entry \(1\)")).click()
    row = page.locator("table.audit-log tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(referee.username)
    expect(row).to_contain_text(f"Game won by {seats[1].player.name}")
    expect(row).to_contain_text("changed on another tablet")
    screenshot(page, "organiser-log-refused")


def test_a_waiting_entry_can_be_discarded(new_tablet, field, referee) -> None:  # type: ignore[no-untyped-def]
    """A tap made by mistake while offline is thrown away before it is sent; nothing is recorded."""
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))
    go_offline(page)
    seat_rows(page).nth(0).get_by_role("button", name="Won").click()
    seat_rows(page).nth(1).get_by_role("button", name="Won").click()
    expect(outbox_entries(page)).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    outbox_entries(page).nth(0).get_by_role("button", name="Discard").click()
    # The second was entered on top of the first: it is not sent either, and says why.
    expect(outbox_entries(page)).to_have_count(1)
    expect(outbox_entries(page)).to_contain_text("Not sent: an earlier entry at this table was not recorded")
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    go_online(page)
    # Back online the page polls at once and every few seconds after; two polls that ran (nothing held
    # them back for an entry being sent) show that nothing was sent.
    wait_for_polls(page, 2, idle=True)
    assert posts == []
    assert valid_games(table) == []
    outbox_entries(page).get_by_role("button", name="Dismiss").click()
    expect(outbox_entries(page)).to_have_count(0)
    expect(page.locator("#outbox-banner")).to_be_hidden()


def test_the_tablet_works_without_javascript(browser, live_server, field, referee) -> None:  # type: ignore[no-untyped-def]
    from tournament.tests.browser.conftest import PASSWORD, TABLET

    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)
    context = browser.new_context(viewport=TABLET, locale="en-US", base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(reverse("login"))
        page.get_by_label("Username").fill(referee.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.goto(table_url(tournament, table))
        seat_rows(page).nth(2).get_by_role("button", name="Won").click()
        expect(page.locator(".messages")).to_contain_text(f"Saved: game 1, won by {seats[2].player.name}.")
        expect(seat_rows(page).locator(".tally-value")).to_have_text(["0", "0", "1"])
        assert valid_games(table) == [(1, seats[2].player_id, None)]
        page.reload()  # reloading after the tap records nothing more
        expect(seat_rows(page).locator(".tally-value")).to_have_text(["0", "0", "1"])
        assert Game.objects.filter(table=table).count() == 1
    finally:
        context.close()


def test_a_double_tap_records_one_game(new_tablet, field, referee) -> None:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.KNOCKOUT, 6)
    table = with_dealer(tournament, Table.objects.get(round__tournament=tournament, number=1))
    seats = seated(table)
    page = new_tablet(referee.username)
    page.goto(table_url(tournament, table))
    seat_rows(page).nth(0).get_by_role("button", name="Won").dblclick()
    expect(panel(page).locator("#table-notice")).to_contain_text("Saved: game 1")
    expect(seat_rows(page).locator(".tally-value")).to_have_text(["1", "0", "0"])
    wait_for_polls(page, 1, idle=True)  # a poll that ran: no entry is being sent any more
    assert valid_games(table) == [(1, seats[0].player_id, None)]
