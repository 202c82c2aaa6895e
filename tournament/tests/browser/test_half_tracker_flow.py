"""The Schocken half tracker at the table, by taps only, in chromium on an 800x1280 tablet.

- A whole half is played by tapping dice, rolls and a laid-aside one on the pad (no
  typing): each throw shows its ranking word as it is tapped, a wrong tap is undone,
  the page is reloaded in the middle of a round and carries on where it was, a round
  scored while the connection is lost waits on the tablet and is scored once the
  connection is back, and the half's loser begins the second half. Recording a result
  at the table clears what the tablet kept: the tracker starts the next game.
- Sharp play: with the table's start far enough in the past the tracker is in sharp
  mode at once; when the limit passes while the page is open, a game that has not begun
  switches to one half by itself and the server agrees when its round is scored; a game
  already under way at the limit ends normally and says so.
Screenshots land in test-artifacts/screenshots/ for a human to look at.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from games.models import Game
from tournament import enums, simulation
from tournament.formats.life_bands import services as life_bands
from tournament.models import Round, StaffRole, Table, Tournament
from tournament.tests.browser.conftest import PASSWORD, SCREENSHOTS, TABLET, go_offline, go_online
from tournament.tests.browser.tablet import assert_tap_target, seated

pytestmark = pytest.mark.browser

SEED = 20260701
PAD_TAP_PX = 64  # a wet thumb on the tablet


@pytest.fixture
def schocken_table(referee) -> tuple[Tournament, Table, list[str]]:  # type: ignore[no-untyped-def]
    """A main-round table of four, the referee's; its players' names in seat order."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=SEED)
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    rnd = life_bands.start_main_round(tournament=tournament, actor=None, seed=SEED)
    assert rnd is not None
    table = rnd.tables.get()
    return tournament, table, [seat.player.name for seat in seated(table)]


# --- helpers --------------------------------------------------------------------------


def tracker_url(tournament: Tournament, table: Table) -> str:
    return reverse("tournament:half_tracker", args=[tournament.pk, table.pk])


def store_key(tournament: Tournament, table: Table) -> str:
    return f"spielleitung.tracker.v1:{tournament.pk}:{table.pk}"


def tracker(page: Page) -> Locator:
    return page.locator("#tracker")


def pad(page: Page) -> Locator:
    return page.locator("#tracker [data-pad]")


def row(page: Page, name: str) -> Locator:
    return tracker(page).locator("tr[data-seat]", has_text=name)


def word(page: Page, name: str) -> Locator:
    return row(page, name).locator("[data-word]")


def expect_throw(page: Page, name: str, ranking_word: str, lids: str) -> None:
    """The throw's ranking word and the lids it hands out, shown in its row as it is tapped."""
    expect(word(page, name)).to_have_text(ranking_word)
    expect(row(page, name).locator("[data-lids]")).to_have_text(lids)


def open_tracker(page: Page, url: str) -> None:
    page.goto(url)
    expect(tracker(page).locator("form.is-tapping")).to_be_visible()


def show_faces(page: Page) -> None:
    """The die-by-die pad (folded under the one-tap throws until asked for; kept open on the tablet)."""
    if pad(page).locator("[data-faces]").is_hidden():
        pad(page).locator("[data-dice-toggle]").click()
    expect(pad(page).locator("[data-faces]")).to_be_visible()


def tap(page: Page, *faces: int) -> None:
    show_faces(page)
    for face in faces:
        pad(page).locator(f'[data-face="{face}"]').click()


def tap_rolls(page: Page, rolls: int) -> None:
    pad(page).locator(f'[data-roll="{rolls}"]').click()


def expect_thrower(page: Page, name: str) -> None:
    expect(pad(page).locator("[data-pad-name]")).to_have_text(name)
    expect(row(page, name)).to_have_class(re.compile(r"\bis-current\b"))


def score(page: Page) -> None:
    button = tracker(page).get_by_role("button", name="Score this round")
    expect(button).to_be_enabled()
    button.click()


def kept(page: Page, tournament: Tournament, table: Table) -> dict | None:  # type: ignore[type-arg]
    return page.evaluate("key => JSON.parse(localStorage.getItem(key))", store_key(tournament, table))


def assert_in_view(page: Page, locator: Locator, what: str) -> None:
    """On screen without scrolling (the tablet's viewport, not the whole page)."""
    box = locator.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None, f"{what} is not rendered"
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], f"{what} is off screen: {box}"


def screen(page: Page, name: str) -> None:
    """What the referee sees without scrolling: test-artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def start_clock(table: Table, seconds_ago: float) -> None:
    """The table (and its round) started ``seconds_ago``: the sharp-play clock counts from there."""
    started = timezone.now() - timedelta(seconds=seconds_ago)
    Table.objects.filter(pk=table.pk).update(started_at=started)
    Round.objects.filter(pk=table.round_id).update(started_at=started)


# --- a whole half by taps --------------------------------------------------------------


def test_a_half_is_played_by_taps_and_survives_a_reload_and_a_lost_connection(  # type: ignore[no-untyped-def]
    new_tablet, referee, schocken_table
) -> None:
    tournament, table, (anna, bert, carl, dora) = schocken_table
    page = new_tablet(referee.username)
    open_tracker(page, tracker_url(tournament, table))

    # The typed fields give way to the pad; its keys are big enough for a wet thumb.
    expect(tracker(page).get_by_role("heading", name="First half")).to_be_visible()
    expect(tracker(page)).to_contain_text("13 lids in the middle")
    expect(tracker(page).locator("input.dice-input").first).to_be_hidden()
    expect(pad(page)).to_be_visible()
    show_faces(page)
    for face in range(1, 7):
        assert_tap_target(pad(page).locator(f'[data-face="{face}"]'), f"the die {face}", minimum=PAD_TAP_PX)
    for rolls in (1, 2, 3):
        assert_tap_target(pad(page).locator(f'[data-roll="{rolls}"]'), f"{rolls} rolls", minimum=PAD_TAP_PX)
    assert_tap_target(pad(page).get_by_role("button", name="Undo last tap"), "Undo", minimum=PAD_TAP_PX)
    expect(tracker(page).get_by_role("button", name="Score this round")).to_be_disabled()

    # Round 1 opens the half: one roll each (the default). Each throw is named as it is tapped.
    expect_thrower(page, anna)
    expect(pad(page).locator('[data-roll="1"]')).to_have_attribute("aria-pressed", "true")
    tap(page, 1, 1, 6)
    expect_throw(page, anna, "Schock 6", "6 lids")
    expect_thrower(page, bert)
    tap(page, 6, 5, 5)
    expect_throw(page, bert, "655 · simple throw", "1 lid")
    pad(page).get_by_role("button", name="Undo last tap").click()  # the last die was a 2
    expect(word(page, bert)).to_have_text("")
    tap(page, 2)
    expect_throw(page, bert, "652 · simple throw", "1 lid")
    tap(page, 3, 2, 2)
    tap(page, 4, 2, 1)
    expect_throw(page, dora, "421 · simple throw", "1 lid")
    expect(pad(page).locator("[data-progress]")).to_have_text("4 of 4 throws entered")
    expect(row(page, anna).locator("[data-mark-high]")).to_be_visible()
    expect(row(page, carl).locator("[data-mark-low]")).to_be_visible()
    screen(page, "half-tracker-round-entered")
    for what in ('[data-face="1"]', '[data-face="6"]', "[data-undo]", "[data-score]"):
        assert_in_view(page, tracker(page).locator(what), what)
    score(page)
    expect(page.locator("#tracker-message")).to_have_text(f"{anna} (Schock 6) decides: {carl} (322) takes 6 lids.")
    expect(tracker(page)).to_contain_text("7 lids in the middle")
    expect(row(page, carl).locator(".tracker-lids")).to_have_text("6")

    # Round 2: Carl, who took the lids, throws first, over two rolls; his 1 was laid aside.
    expect_thrower(page, carl)
    expect(pad(page).locator('[data-roll="3"]')).to_have_attribute("aria-pressed", "true")
    tap_rolls(page, 2)
    tap(page, 3, 2, 1)
    expect_throw(page, carl, "Straße 123", "2 lids")
    laid_aside = pad(page).locator("[data-kept]")
    expect(laid_aside).to_be_visible()
    assert_tap_target(laid_aside, "the laid-aside one", minimum=PAD_TAP_PX)
    laid_aside.click()
    expect_throw(page, carl, "321 · simple throw", "1 lid")
    expect_thrower(page, carl)  # held for the toggle: nothing jumps under the thumb
    tap(page, 4)  # the next die is Dora's, who may roll no more often than Carl
    expect_thrower(page, dora)
    expect(pad(page).locator('[data-roll="2"]')).to_have_attribute("aria-pressed", "true")
    tap(page, 5, 6)
    expect_throw(page, dora, "Straße 456", "2 lids")
    expect_thrower(page, anna)

    # The tablet reloads in the middle of the round: it carries on where it was.
    open_tracker(page, tracker_url(tournament, table))
    expect(tracker(page).locator("[data-tracker-note]")).to_contain_text("Carried on where you were")
    expect(tracker(page)).to_contain_text("7 lids in the middle")
    expect_throw(page, carl, "321 · simple throw", "1 lid")
    expect_throw(page, dora, "Straße 456", "2 lids")
    expect(row(page, carl).locator(".die-slot .die")).to_have_count(3)
    expect_thrower(page, anna)
    screen(page, "half-tracker-after-reload")
    tap(page, 2, 2, 2)
    expect_throw(page, anna, "General 2", "3 lids")

    # The connection is lost: taps still work, the round waits on the tablet and is scored
    # by itself once the connection is back.
    go_offline(page)
    tap(page, 5, 5, 3)
    score(page)
    expect(tracker(page).locator("[data-tracker-note]")).to_contain_text("No connection")
    expect(page.locator(".htmx-error")).to_have_count(0)  # said once, in the tracker's words
    assert kept(page, tournament, table)["waiting"] is True  # type: ignore[index]
    screen(page, "half-tracker-offline")
    page.reload()  # still offline: the service worker's copy of the page, the game from the tablet
    expect(tracker(page).locator("form.is-tapping")).to_be_visible()
    expect(tracker(page)).to_contain_text("7 lids in the middle")
    expect_throw(page, bert, "553 · simple throw", "1 lid")
    expect(tracker(page).locator("[data-tracker-note]")).to_contain_text("No connection")
    go_online(page)
    expect(page.locator("#tracker-message")).to_have_text(
        f"{anna} (General 2) decides: {carl} (321) takes 3 lids.", timeout=10_000
    )
    expect(tracker(page)).to_contain_text("4 lids in the middle")

    # Round 3: a Schock-Out hands all 13 lids to the lowest throw: Bert loses the half.
    expect_thrower(page, carl)
    tap(page, 6, 6, 6)
    tap(page, 6, 5, 4)
    tap(page, 1, 1, 1)
    expect_throw(page, anna, "Schock-Out", "all lids")
    tap(page, 3, 2, 2)
    row(page, carl).locator("[data-pick]").click()  # a throw picked on purpose is entered anew
    expect_thrower(page, carl)
    tap(page, 5)
    expect(word(page, carl)).to_have_text("")
    expect(tracker(page).get_by_role("button", name="Score this round")).to_be_disabled()
    tap(page, 5, 5)
    expect_throw(page, carl, "General 5", "3 lids")
    score(page)
    expect(page.locator("#tracker-message")).to_contain_text(f"{bert} loses this half.")
    expect(tracker(page).get_by_role("heading", name="Second half")).to_be_visible()
    expect(tracker(page)).to_contain_text("13 lids in the middle")
    expect_thrower(page, bert)  # the half's loser begins the next
    entry = kept(page, tournament, table)
    assert entry is not None and entry["taps"] == [] and 'data-step="second_half"' in entry["html"]

    # A result recorded at the table (its version changes) ends what the tablet kept.
    page.get_by_role("link", name="Back to the table").click()
    page.locator("#table-panel li.seat", has_text=bert).get_by_role("button", name="Lost").click()
    expect(page.locator("#table-panel .game-log")).to_contain_text(f"Game 1: {bert} hands in a chip")
    assert Game.objects.filter(table=table).count() == 1
    page.get_by_role("link", name="Half tracker").click()
    expect(tracker(page).get_by_role("heading", name="First half")).to_be_visible()
    expect(tracker(page)).to_contain_text("13 lids in the middle")
    expect(tracker(page).locator("[data-tracker-note]")).to_be_hidden()
    table.refresh_from_db()
    entry = kept(page, tournament, table)
    assert entry is not None and entry["version"] == str(table.version) and entry["taps"] == []


# --- sharp play from the table's clock -----------------------------------------------------


def test_sharp_play_from_the_tables_clock(new_tablet, referee, schocken_table) -> None:  # type: ignore[no-untyped-def]
    tournament, table, (anna, _bert, _carl, dora) = schocken_table
    limit = tournament.sharp_play_minutes * 60
    page = new_tablet(referee.username)

    # Well past the limit: the tracker opens in sharp mode, and the clock says so.
    start_clock(table, limit + 60)
    open_tracker(page, tracker_url(tournament, table))
    expect(page.locator("[data-tracker-clock]")).to_have_class(re.compile(r"\bis-sharp\b"))
    expect(tracker(page).locator("[data-when-sharp]")).to_be_visible()
    expect(tracker(page).locator(".badge-sharp")).to_have_text("sharp play")
    screen(page, "half-tracker-sharp")

    # The limit passes while the page is open, before the game's first round is scored:
    # the game switches to one half by itself.
    start_clock(table, limit - 6)
    open_tracker(page, tracker_url(tournament, table))
    expect(tracker(page).locator("[data-when-sharp]")).to_be_hidden()
    expect(page.locator("[data-tracker-clock]")).not_to_have_class(re.compile(r"\bis-sharp\b"))
    tap(page, 1, 1, 1)
    tap(page, 6, 5, 2)
    expect(tracker(page).locator("[data-when-sharp]")).to_be_visible(timeout=15_000)
    expect(page.locator("[data-tracker-clock]")).to_have_class(re.compile(r"\bis-sharp\b"))
    expect(tracker(page).locator('input[name="sharp"]')).to_have_value("1")
    expect_throw(page, anna, "Schock-Out", "all lids")  # the taps stayed
    tap(page, 4, 2, 1)
    tap(page, 3, 2, 2)
    score(page)
    # The server agrees: its one half decides the game.
    expect(tracker(page).get_by_role("heading", name=re.compile("Game over"))).to_be_visible()
    expect(tracker(page).locator(".badge-sharp")).to_have_text("sharp play")
    expect(page.locator("#tracker-loser")).to_have_text(f"{dora} loses the game.")
    screen(page, "half-tracker-sharp-decided")
    tracker(page).get_by_role("button", name=f"Record: {dora} loses a chip").click()
    expect(tracker(page).get_by_role("heading", name="First half")).to_be_visible()
    expect(tracker(page).locator("[data-when-sharp]")).to_be_visible()
    expect(page.locator("#tracker-starter")).to_have_text(f"{dora} begins: the loser of the last game.")

    # A game under way when the limit passes ends normally with two halves, and says so.
    start_clock(table, limit - 600)
    open_tracker(page, tracker_url(tournament, table))
    expect(tracker(page).locator("[data-when-sharp]")).to_be_hidden()
    tap(page, 1, 1, 3)
    tap(page, 6, 5, 2)
    tap(page, 4, 2, 1)
    tap(page, 3, 2, 2)
    score(page)
    expect(tracker(page)).to_contain_text("10 lids in the middle")
    start_clock(table, limit + 60)
    open_tracker(page, tracker_url(tournament, table))  # kept on the tablet, now past the limit
    expect(tracker(page)).to_contain_text("10 lids in the middle")
    expect(tracker(page).locator("[data-when-pending]")).to_be_visible()
    expect(tracker(page).locator("[data-when-sharp]")).to_be_hidden()
    expect(tracker(page).locator('input[name="sharp"]')).to_have_value("0")
    tap(page, 6, 6, 5)  # Carl, who took the lids, begins
    tap(page, 6, 6, 4)
    tap(page, 6, 6, 3)
    tap(page, 6, 6, 2)
    score(page)
    expect(tracker(page).get_by_role("heading", name="First half")).to_be_visible()  # still two halves
    expect(tracker(page).locator("[data-when-pending]")).to_be_visible()
    expect(tracker(page).locator(".badge-sharp")).to_have_count(0)
    screen(page, "half-tracker-sharp-pending")


# --- without JavaScript -----------------------------------------------------------------


def test_without_javascript_the_throws_are_typed(browser, live_server, referee, schocken_table) -> None:  # type: ignore[no-untyped-def]
    tournament, table, (anna, bert, carl, dora) = schocken_table
    context = browser.new_context(viewport=TABLET, locale="en-US", base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(reverse("login"))
        page.get_by_label("Username").fill(referee.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.goto(tracker_url(tournament, table))
        expect(pad(page)).to_be_hidden()
        for name, dice in zip((anna, carl), ("1 1 3", "3 2 2"), strict=True):
            tracker(page).get_by_label(f"Dice of {name}").fill(dice)
        for name in (bert, dora):
            tracker(page).get_by_label(f"Dice of {name}").fill("6 5 2")
        tracker(page).get_by_role("button", name="Score this round").click()
        expect(page.locator("#tracker-message")).to_contain_text(f"{anna} (Schock 3) decides:")
        expect(tracker(page)).to_contain_text("10 lids in the middle")
        screen(page, "half-tracker-without-javascript")
    finally:
        context.close()
