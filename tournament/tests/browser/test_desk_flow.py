"""A desk clerk's tournament morning on a tablet, end to end in chromium.

Creates a tournament, registers 5 players (and backs out of a same-name
duplicate), checks in 4 of them (one through an override), draws start
numbers and opens the print views. Screenshots land in
test-artifacts/screenshots/ for a human to look at.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tournament import enums
from tournament.models import CheckIn, Player, StartNumberDraw, Tournament
from tournament.tests.browser.conftest import count_re, counter
from tournament.tests.factories import StaffRoleFactory, TournamentFactory

pytestmark = pytest.mark.browser

# The knockout format's default checklist, which the create form starts with.
CHECKLIST = ["Diving licence (OWD)", "Medical certificate", "Entry fee paid", "Meal voucher handed out"]
PLAYERS = [
    ("Anna Berger", "Tauchclub Ost"),
    ("Bruno Conti", "UNO Club Süd"),
    ("Clara Dietrich", "TSV Nord"),
    ("David Egger", "Tauchclub Ost"),
    ("Eva Fischer", ""),
]
# What the clerk types into the check-in search to find each player.
SEARCH = {"Anna Berger": "berg", "Bruno Conti": "conti", "Clara Dietrich": "dietr", "David Egger": "egg"}


def expect_counters(page: Page, *, registered: int, checked_in: int, missing: int, waiting: int = 0) -> None:
    expect(counter(page, "registered")).to_have_text(count_re(registered))
    expect(counter(page, "checked_in")).to_have_text(count_re(checked_in))
    expect(counter(page, "missing")).to_have_text(count_re(missing))
    expect(counter(page, "waiting")).to_have_text(count_re(waiting))


def row(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'article.player-row[data-player="{name}"]')


def search(page: Page, text: str, *, expected: list[str]) -> None:
    """Type into the search box and wait for htmx to narrow the list (no page load)."""
    box = page.get_by_role("searchbox")
    box.fill("")
    box.press_sequentially(text, delay=30)
    rows = page.locator("#player-list article.player-row")
    expect(rows).to_have_count(len(expected))
    for name in expected:
        expect(row(page, name)).to_be_visible()
    expect(page).to_have_url(re.compile(rf"\?q={re.escape(text)}$"))


def tick(page: Page, name: str, label: str) -> None:
    button = row(page, name).get_by_role("button", name=label)
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    # The row is swapped by htmx; the re-rendered button reports its new state.
    expect(row(page, name).get_by_role("button", name=label)).to_have_attribute("aria-pressed", "true")


def test_desk_clerk_runs_the_registration_desk_on_a_tablet(tablet: Page, clerk, screenshot, live_server) -> None:  # type: ignore[no-untyped-def]
    page = tablet

    # 1. Create the tournament from "My tournaments".
    page.get_by_role("link", name="New tournament").click()
    expect(page.get_by_role("heading", name="New tournament")).to_be_visible()
    checklist_box = page.get_by_label("Eligibility checklist (one item per line)")
    expect(checklist_box).to_have_value("\n".join(CHECKLIST))  # the default checklist is kept
    date = datetime.date.today() + datetime.timedelta(days=14)
    page.get_by_label("Name", exact=True).fill("UNO Unterwasser-Cup")
    page.get_by_label("Date").fill(date.isoformat())
    page.get_by_label("Venue").fill("Hallenbad Süd")
    page.get_by_label("Game").select_option(label="UNO")
    page.get_by_label("Format").select_option(enums.Format.KNOCKOUT.value)
    page.get_by_label("Capacity (players)").fill("50")
    page.get_by_label("Entry fee (€)").fill("12.50")
    screenshot(page, "01-tournament-create-form")
    page.get_by_role("button", name="Create tournament").click()

    expect(page.get_by_role("heading", name="Registration desk")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("Tournament “UNO Unterwasser-Cup” created.")
    expect(page.locator("main")).to_contain_text("Hallenbad Süd")
    expect(page.locator("main")).to_contain_text("entry fee € 12.50")
    expect_counters(page, registered=0, checked_in=0, missing=0)
    tournament = Tournament.objects.get(name="UNO Unterwasser-Cup")
    assert (tournament.game, tournament.format, tournament.capacity, tournament.date) == (
        enums.Game.UNO,
        enums.Format.KNOCKOUT,
        50,
        date,
    )
    assert [item.label for item in tournament.checklist_items.order_by("position")] == CHECKLIST
    assert tournament.staff.filter(user=clerk, role=enums.Role.ORGANISER).exists()
    assert page.url == live_server.url + reverse("tournament:desk", args=[tournament.pk])
    screenshot(page, "02-desk-new-tournament")

    # 2. Register five players one by one.
    register = page.get_by_role("region", name="Register a player")
    # The club's register answers the typed name under the field (a list, or a line saying the person
    # is new), which moves the fields and the button below it: the clerk sees that answer before going
    # on. Clicked while it came in, on a loaded machine, "Register" once sent nothing (the page stayed).
    suggestions = register.locator("#person-suggestions")
    answered = re.compile(r"In the club's register:|Not in the club's register yet")
    for number, (name, club) in enumerate(PLAYERS, start=1):
        register.get_by_label("Name").fill(name)
        expect(suggestions).to_contain_text(answered)
        register.get_by_label("Club").fill(club)
        register.get_by_role("button", name="Register", exact=True).click()
        expect(page.locator(".messages")).to_contain_text(f"{name} registered.")
        expect(counter(page, "registered")).to_have_text(count_re(number))
    expect_counters(page, registered=5, checked_in=0, missing=5)
    assert Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.REGISTERED).count() == 5

    # A second "Anna Berger": warned, nothing saved until confirmed; the clerk cancels.
    register.get_by_label("Name").fill("anna  berger")
    expect(suggestions).to_contain_text("Anna Berger")
    register.get_by_label("Club").fill("Tauchclub Ost")
    register.get_by_role("button", name="Register", exact=True).click()
    warning = register.get_by_role("alert")
    expect(warning).to_contain_text("is already registered")
    expect(register.get_by_role("button", name="Yes, register")).to_be_visible()
    expect(register.get_by_role("link", name="Cancel")).to_be_visible()
    assert Player.objects.filter(tournament=tournament).count() == 5
    expect(counter(page, "registered")).to_have_text(count_re(5))
    screenshot(page, "03-desk-same-name-warning")
    register.get_by_role("link", name="Cancel").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_role("button", name="Register", exact=True)).to_be_visible()
    expect_counters(page, registered=5, checked_in=0, missing=5)
    assert Player.objects.filter(tournament=tournament).count() == 5

    # 3. Check-in: search as you type, tick the checklist, check in.
    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Check-in").click()
    expect(page.get_by_role("heading", name="Check-in")).to_be_visible()
    expect(page.locator("#player-list article.player-row")).to_have_count(5)
    page.evaluate("window.__sameDocument = true")  # gone if anything below reloads the page

    for name in ["Anna Berger", "Bruno Conti", "Clara Dietrich"]:
        search(page, SEARCH[name], expected=[name])
        if name == "Anna Berger":
            # The desk saw everything: one tap ticks the items and checks in.
            row(page, name).get_by_role("button", name="All checked ✓ Check in").click()
            for label in CHECKLIST:
                expect(row(page, name).get_by_role("button", name=label)).to_have_attribute("aria-pressed", "true")
        else:
            for label in CHECKLIST:
                tick(page, name, label)
            row(page, name).get_by_role("button", name="Check in", exact=True).click()
        expect(row(page, name).locator(".badge-checked_in")).to_have_text("Checked in")
        expect(row(page, name)).to_contain_text("by clerk")
        expect(row(page, name).get_by_role("button", name="Undo check-in")).to_be_visible()
        expect(row(page, name).locator(".badge-override")).to_have_count(0)
    expect_counters(page, registered=5, checked_in=3, missing=2)

    # The fourth has open items: the override has to be asked for explicitly.
    david = "David Egger"
    search(page, SEARCH[david], expected=[david])
    tick(page, david, "Diving licence (OWD)")
    tick(page, david, "Entry fee paid")
    tick(page, david, "Meal voucher handed out")
    row(page, david).get_by_role("button", name="Check in with open items…").click()
    override_warning = row(page, david).get_by_role("alert")
    expect(override_warning).to_contain_text("Open checklist items: Medical certificate.")
    override = row(page, david).get_by_role("button", name="Override: check in anyway")
    expect(override).to_be_visible()
    assert Player.objects.get(tournament=tournament, name=david).status == enums.PlayerStatus.REGISTERED
    expect_counters(page, registered=5, checked_in=3, missing=2)
    screenshot(page, "04-check-in-override-warning")
    # The reason is required: the browser does not send the form without it.
    override.click()
    assert Player.objects.get(tournament=tournament, name=david).status == enums.PlayerStatus.REGISTERED
    row(page, david).get_by_label("Reason for the override").fill("certificate comes by e-mail")
    override.click()
    expect(row(page, david).locator(".badge-override")).to_have_text("override")
    expect(row(page, david).locator(".badge-checked_in")).to_have_text("Checked in")
    expect(row(page, david).get_by_role("alert")).to_have_count(0)
    expect_counters(page, registered=5, checked_in=4, missing=1)
    # The hand-outs among the checked-in, counted again after each row's action (issue 30).
    handouts = page.locator("#desk-handouts")
    expect(handouts.locator("li").filter(has_text="Meal voucher handed out")).to_have_text(
        re.compile(r"Meal voucher handed out:\s*4 given\s*·\s*0 left to give")
    )
    expect(handouts.locator("li").filter(has_text="Medical certificate")).to_have_text(
        re.compile(r"Medical certificate:\s*3 given\s*·\s*1 left to give")
    )

    # Clear the search: the whole list again, the override visible in it.
    page.get_by_role("searchbox").fill("")
    expect(page.locator("#player-list article.player-row")).to_have_count(5)
    expect(row(page, "Eva Fischer").get_by_role("button", name="All checked ✓ Check in")).to_be_visible()
    expect(row(page, david).locator(".badge-override")).to_be_visible()
    assert page.evaluate("window.__sameDocument === true"), "the check-in screen reloaded instead of using htmx"
    screenshot(page, "05-check-in-list-with-override")

    # "Missing" opens the list of who has not arrived.
    page.locator("a.counter.missing").click()
    expect(page.locator("#player-list article.player-row")).to_have_count(1)
    expect(row(page, "Eva Fischer")).to_be_visible()
    screenshot(page, "05b-check-in-missing")

    statuses = dict(Player.objects.filter(tournament=tournament).values_list("name", "status"))
    assert statuses == {
        "Anna Berger": enums.PlayerStatus.CHECKED_IN,
        "Bruno Conti": enums.PlayerStatus.CHECKED_IN,
        "Clara Dietrich": enums.PlayerStatus.CHECKED_IN,
        "David Egger": enums.PlayerStatus.CHECKED_IN,
        "Eva Fischer": enums.PlayerStatus.REGISTERED,
    }
    check_ins = {
        c.player.name: c for c in CheckIn.objects.filter(player__tournament=tournament).select_related("player")
    }
    assert set(check_ins) == {"Anna Berger", "Bruno Conti", "Clara Dietrich", "David Egger"}
    assert all(c.checked_in_by_id == clerk.pk and c.cancelled_at is None for c in check_ins.values())
    assert [name for name, c in check_ins.items() if c.override] == [david]
    assert sorted(check_ins[david].open_items) == ["Medical certificate"]

    # 4. Draw start numbers by lot.
    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Start numbers").click()
    expect(page.get_by_role("heading", name="Start numbers")).to_be_visible()
    page.get_by_role("button", name="Draw start numbers").click()
    expect(page.locator(".messages")).to_contain_text("Start numbers drawn for 4 players")
    result = page.locator("#draw-result li")
    expect(result).to_have_count(4)
    expect(result.locator(".no")).to_have_text(["1", "2", "3", "4"])
    draw = StartNumberDraw.objects.get(tournament=tournament)
    assert draw.drawn_by_id == clerk.pk
    expect(page.locator("[data-seed]")).to_have_text(str(draw.seed))
    numbers = dict(
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN).values_list(
            "start_number", "name"
        )
    )
    assert sorted(numbers) == [1, 2, 3, 4]
    assert Player.objects.get(tournament=tournament, name="Eva Fischer").start_number is None
    for number, name in numbers.items():
        expect(result.nth(number - 1)).to_contain_text(name)
    screenshot(page, "06-draw-result")

    # 5. Print views: start-number cards and the player list.
    page.get_by_role("link", name="Print start-number cards").click()
    expect(page.get_by_role("heading", name="Start-number cards")).to_be_visible()
    cards = page.locator(".start-card")
    expect(cards).to_have_count(4)
    for number, name in numbers.items():
        card = cards.filter(has=page.locator(".number", has_text=re.compile(rf"^{number}$")))
        expect(card).to_have_count(1)
        expect(card.locator(".player")).to_have_text(name)
    number_size = float(cards.first.locator(".number").evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert number_size >= 72, f"start numbers should be large, font-size is {number_size}px"
    screenshot(page, "07-print-cards-screen")
    page.emulate_media(media="print")
    expect(page.locator(".tournament-nav")).to_be_hidden()
    expect(page.locator("header.topbar")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    expect(cards).to_have_count(4)
    expect(cards.first).to_be_visible()
    screenshot(page, "08-print-cards-print-media")
    page.emulate_media(media="screen")

    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Player list").click()
    expect(page.get_by_role("heading", name="Player list")).to_be_visible()
    table_rows = page.locator("#player-table tbody tr")
    expect(table_rows).to_have_count(5)
    expect(page.locator("main")).to_contain_text("5 registered · 4 checked in · 1 missing · 0 waiting")
    expect(table_rows.filter(has_text=david)).to_contain_text("(override)")
    expect(table_rows.filter(has_text="Eva Fischer")).to_contain_text("Registered")
    screenshot(page, "09-player-list-screen")
    page.emulate_media(media="print")
    expect(page.locator(".tournament-nav")).to_be_hidden()
    expect(page.locator(".print-only")).to_contain_text("UNO Unterwasser-Cup")
    screenshot(page, "10-player-list-print-media")


def test_referee_gets_the_not_allowed_page_at_the_desk(new_tablet, browser_user, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(name="Referee's cup")
    referee = browser_user("referee")
    StaffRoleFactory(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    page = new_tablet(referee.username)

    response = page.goto(reverse("tournament:desk", args=[tournament.pk]))
    assert response is not None and response.status == 403
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.get_by_role("heading", name="Registration desk")).to_have_count(0)
    expect(page.get_by_role("link", name="My tournaments")).to_be_visible()
    screenshot(page, "11-referee-desk-403")
