"""A Schocken (life bands and chips) tournament end to end in chromium.

Eight players are checked in through the services. In the browser, the
organiser seats the first main round (two tables of 4); a referee on a tablet
runs table 1 to its decision: every "Lost" hands in one chip (the chip icons
go down, swapped in by htmx), a player's second loss cuts a band ("band cut"
badge, no more "Lost" button), one game is undone, and the table is decided
when 2 are out; the referee confirms and closes it. Table 2 is played through
the services. The organiser then sees the 4 players who lost a band waiting in
the pool and taps "Form consolation table": they sit at one consolation table.
Finally the referee uses the half tracker there for one round of throws.
Screenshots land in test-artifacts/screenshots/ for a human to look at.
"""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.formats.life_bands import dry_run
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.models import LedgerEntry, PoolEntry, Round, StaffRole, Table, Tournament
from tournament.tests.browser.tablet import (
    DESK,
    assert_same_document,
    assert_tap_target,
    expect_status,
    mark_document,
    nav,
    panel,
    seated,
)

pytestmark = pytest.mark.browser

SEED = 20260615


@pytest.fixture
def schocken_field(organiser, referee) -> Tournament:  # type: ignore[no-untyped-def]
    """Eight checked-in players with start numbers; the organiser and a referee have their roles."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=SEED)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    return tournament


# --- helpers --------------------------------------------------------------------------


def open_tournament(page: Page, tournament: Tournament) -> None:
    page.goto(reverse("tournament:home"))
    page.get_by_role("link", name=tournament.name).click()


def seat_rows(page: Page) -> Locator:
    return page.locator("#table-panel ol.schocken-seats > li.seat")


def lost_button(page: Page, position: int) -> Locator:
    return seat_rows(page).nth(position).get_by_role("button", name="Lost")


def expect_chips(page: Page, chips: list[int]) -> None:
    for position, count in enumerate(chips):
        expect(seat_rows(page).nth(position).locator(".chips .chip-icon")).to_have_count(count)


def expect_bands(page: Page, bands: list[int]) -> None:
    for position, count in enumerate(bands):
        expect(seat_rows(page).nth(position).locator(".bands .band-icon")).to_have_count(count)


# --- the test -------------------------------------------------------------------------


def test_referee_decides_a_table_of_four_and_the_organiser_forms_a_consolation_table(  # type: ignore[no-untyped-def]
    new_tablet, schocken_field, organiser, referee, screenshot
) -> None:
    tournament = schocken_field

    # 1. The organiser seats the first main round: two tables of 4.
    desk = new_tablet(organiser.username)
    desk.set_viewport_size(DESK)
    open_tournament(desk, tournament)
    nav(desk).get_by_role("link", name="Rounds").click()
    expect(desk.get_by_role("heading", name="Rounds", exact=True)).to_be_visible()
    expect(desk.locator("#pool")).to_have_count(0)
    desk.get_by_role("button", name="Seat the first round").click()
    expect(desk.locator(".messages")).to_contain_text("The main round is seated.")
    rnd = Round.objects.get(tournament=tournament, stage=enums.Stage.MAIN)
    table_1, table_2 = rnd.tables.order_by("number")
    assert [t.seats.count() for t in (table_1, table_2)] == [4, 4]
    seats = seated(table_1)
    names = [s.player.name for s in seats]
    ids = [s.player_id for s in seats]

    # 2. The referee opens table 1: 4 players, 2 chips and 2 life bands each.
    page = new_tablet(referee.username)
    open_tournament(page, tournament)
    page.locator("#table-link-1").click()
    expect(page.get_by_role("heading", name="Table 1", exact=True)).to_be_visible()
    expect(panel(page).locator(".table-head")).to_contain_text("2 chips each")
    expect_status(page, "Playing")
    expect(seat_rows(page)).to_have_count(4)
    expect(seat_rows(page).locator(".seat-name")).to_contain_text(names)
    expect_chips(page, [2, 2, 2, 2])
    expect_bands(page, [2, 2, 2, 2])
    # The 15-minute rule: a clock runs from the table's start (minutes:seconds), no sharp play yet.
    expect(panel(page).locator(".sharp [data-timer]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(panel(page).locator(".sharp")).not_to_have_class(re.compile(r"\bis-sharp\b"))
    for position in range(4):
        assert_tap_target(lost_button(page, position), f"the Lost button of seat {position + 1}")

    dialogs: list[str] = []

    def accept(dialog) -> None:  # type: ignore[no-untyped-def]
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    mark_document(page)

    # Each tap hands in one chip.
    lost_button(page, 0).click()
    expect_chips(page, [1, 2, 2, 2])
    expect(panel(page).locator(".game-log li")).to_have_count(1)
    expect(panel(page).locator(".game-log li").first).to_contain_text(f"Game 1: {names[0]} hands in a chip")

    # The second loss cuts a band: the badge shows, the Lost button goes, one band icon fewer.
    lost_button(page, 0).click()
    expect(seat_rows(page).nth(0).locator(".badge")).to_have_text(re.compile(r"band cut"))
    expect(lost_button(page, 0)).to_have_count(0)
    expect(seat_rows(page).nth(0)).to_have_class(re.compile(r"\bis-out\b"))
    expect_chips(page, [0, 2, 2, 2])
    expect_bands(page, [1, 2, 2, 2])
    expect_status(page, "Playing")  # a table of 4 needs 2 out
    assert PoolEntry.objects.filter(player_id=ids[0], left_at__isnull=True).exists()

    # Undo once (confirmed in the browser's dialog): the chip and the band come back.
    page.get_by_role("button", name="Undo game 2").click()
    expect(lost_button(page, 0)).to_be_visible()
    expect(seat_rows(page).nth(0).locator(".badge")).to_have_count(0)
    expect_chips(page, [1, 2, 2, 2])
    expect_bands(page, [2, 2, 2, 2])
    expect(panel(page).locator(".game-log li.is-void")).to_have_count(1)
    expect(panel(page).locator(".game-log li.is-void")).to_contain_text("Undone")
    assert dialogs == [f"Undo game 2 (lost by {names[0]})?"]
    assert not PoolEntry.objects.filter(player_id=ids[0], left_at__isnull=True).exists()

    # Seat 1 is out again; seat 2 loses a chip.
    lost_button(page, 0).click()
    expect(lost_button(page, 0)).to_have_count(0)
    lost_button(page, 1).click()
    expect_chips(page, [0, 1, 2, 2])
    expect_bands(page, [1, 2, 2, 2])
    screenshot(page, "schocken-table-playing")

    # Seat 2's second loss: 2 of 4 are out, the table is decided.
    lost_button(page, 1).click()
    expect_status(page, "Decided")
    expect(panel(page).locator(".decided-banner")).to_contain_text("Table decided")
    expect(panel(page).locator(".decided-banner")).to_contain_text(f"{names[2]} and {names[3]}")  # a list, not a comma
    expect(panel(page).get_by_role("button", name="Lost")).to_have_count(0)
    expect(seat_rows(page).locator(".badge")).to_have_count(2)
    expect_chips(page, [0, 0, 2, 2])
    expect_bands(page, [1, 1, 2, 2])
    close = panel(page).get_by_role("button", name="Confirm result and close table")
    expect(close).to_be_visible()
    assert_tap_target(close, "the close button")
    screenshot(page, "schocken-table-decided")

    # Confirm and close (accepting the hx-confirm dialog): no more undo.
    close.click()
    expect_status(page, "Closed")
    expect(panel(page).get_by_role("status").filter(has_text="Table closed. Thank you!")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"Undo game"))).to_have_count(0)
    expect(close).to_have_count(0)
    assert dialogs[1:] == ["Close the table? After this only the organiser can correct its result."]
    assert_same_document(page, "recording, undoing and closing")

    table_1.refresh_from_db()
    assert table_1.status == enums.TableStatus.CLOSED
    valid = list(Game.objects.filter(table=table_1, status=GameStatus.VALID).order_by("number"))
    # Game 2 was undone: the game after it is game 2 again (as the referee counts).
    assert [(g.number, g.loser_id) for g in valid] == [(1, ids[0]), (2, ids[0]), (3, ids[1]), (4, ids[1])]
    assert all(g.entered_by_id == referee.pk for g in valid)
    assert Game.objects.get(table=table_1, status=GameStatus.VOIDED).number == 2
    assert LedgerEntry.objects.filter(table=table_1, kind=enums.LedgerKind.CHIP_LOST).count() == 5
    assert [(s.chips, s.out_order, s.advances) for s in seated(table_1)] == [
        (0, 1, False),
        (0, 2, False),
        (2, None, True),
        (2, None, True),
    ]

    # 3. Table 2 is played through the services: 2 more wait in the pool.
    dry_run.play_table(tournament, table_2, random.Random(SEED), referee)
    pool = life_bands_selectors.pool_players(tournament)
    assert len(pool) == 4
    waiting = [entry.player.name for entry in pool]

    # 4. The organiser sees the pool and forms a consolation table with one tap.
    nav(desk).get_by_role("link", name="Rounds").click()
    pool_list = desk.locator("#pool li")
    expect(pool_list).to_have_count(4)
    for name in waiting:
        expect(desk.locator("#pool")).to_contain_text(name)
    form = desk.get_by_role("button", name="Form consolation table")
    expect(form).to_be_enabled()
    expect(desk.get_by_role("button", name="Seat the grand final")).to_be_disabled()
    assert_tap_target(form, "Form consolation table", minimum=44)
    screenshot(desk, "schocken-organiser-pool")
    form.click()
    expect(desk.locator(".messages")).to_contain_text("Consolation table seated from the waiting pool.")
    expect(desk.locator("#pool")).to_have_count(0)
    expect(desk.get_by_text("Nobody waits in the consolation pool.")).to_be_visible()
    expect(form).to_be_disabled()
    consolation = desk.locator(".lb-brackets section").nth(1)
    expect(consolation.locator(".bracket-table")).to_have_count(1)
    expect(consolation.locator(".bracket-table li")).to_have_count(4)
    for name in waiting:
        expect(consolation.locator(".bracket-table")).to_contain_text(name)
    screenshot(desk, "schocken-organiser-consolation")
    cons_table = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.CONSOLATION)
    assert sorted(s.player.name for s in seated(cons_table)) == sorted(waiting)
    assert not PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).exists()

    # 5. The referee opens the consolation table and its half tracker: one round of throws.
    # The list shows both running rounds (main round 1 and the consolation round, round 2)
    # side by side, so the card ids name the round too.
    nav(page).get_by_role("link", name="Tables").click()
    assert (cons_table.round.number, cons_table.number) == (2, 1)
    expect(page.locator("#table-link-1-1")).to_be_visible()
    page.locator("#table-link-2-1").click()
    expect(panel(page).locator(".table-head")).to_contain_text("Consolation")
    cons_names = [s.player.name for s in seated(cons_table)]
    expect_bands(page, [1, 1, 1, 1])  # everyone here has lost a band already
    page.get_by_role("link", name="Half tracker").click()
    expect(page.get_by_role("heading", name=re.compile(r"Half tracker"))).to_be_visible()
    tracker = page.locator("#tracker")
    expect(tracker.get_by_role("heading", name=re.compile("First half"))).to_be_visible()
    expect(tracker).to_contain_text("13 lids in the middle")
    throws = [(6, 5, 2), (1, 1, 3), (4, 5, 6), (3, 2, 2)]  # 652, Schock 3, Straße 456, 322: tapped on the pad
    # Die by die (folded under the one-tap throws until asked for).
    if tracker.locator("[data-pad] [data-faces]").is_hidden():
        tracker.locator("[data-pad] [data-dice-toggle]").click()
    expect(tracker.locator("[data-pad] [data-faces]")).to_be_visible()
    for name, dice in zip(cons_names, throws, strict=True):
        expect(tracker.locator("[data-pad-name]")).to_have_text(name)
        for face in dice:
            tracker.locator(f'[data-pad] [data-face="{face}"]').click()
    for face in tracker.locator("[data-pad] [data-face]").all():
        assert_tap_target(face, "a die on the pad")
    mark_document(page)
    tracker.get_by_role("button", name="Score this round").click()
    message = page.locator("#tracker-message")
    expect(message).to_have_text(f"{cons_names[1]} (Schock 3) decides: {cons_names[3]} (322) takes 3 lids.")
    expect(tracker).to_contain_text("10 lids in the middle")
    lids = tracker.locator("tbody tr")
    expect(lids.filter(has_text=cons_names[3]).locator("td.num").nth(1)).to_have_text("3")
    assert_same_document(page, "scoring a round")
    screenshot(page, "schocken-half-tracker")
    # The tracker saves nothing.
    assert not Game.objects.filter(table=cons_table).exists()
