"""Without a mouse, without motion, without sight: the desk and the referee's tablet by keyboard
alone, reduced motion honoured, and the phone page's changes announced.

The keyboard flows never click: focus moves with Tab (``tab_to`` counts the presses, so a page
whose focus order grows long fails), text is typed, buttons are pressed with Enter or Space.
Where the focus lands after an action is the desk's own concern (it may start at the page's
top); the flow only needs every control to be reachable and usable from the keyboard.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from games.models import Game
from tournament import enums
from tournament.models import Player, StaffRole
from tournament.tests.browser.conftest import PASSWORD, wait_for_search
from tournament.tests.factories import TournamentFactory
from tournament.tests.helpers import seated
from tournament.tests.views import scenarios

pytestmark = pytest.mark.browser

# The most Tab presses a step may take to reach its control (the check-in page's whole nav,
# the search and a row's buttons fit well within it).
MAX_TABS = 60


def focused(locator: Locator) -> bool:
    return bool(locator.evaluate("element => element === document.activeElement"))


def tab_to(page: Page, target: Locator, *, limit: int = MAX_TABS) -> int:
    """Press Tab until ``target`` has the focus; the presses it took."""
    expect(target).to_be_visible()
    for presses in range(limit + 1):
        if focused(target):
            return presses
        page.keyboard.press("Tab")
    raise AssertionError(f"{target} not reached with {limit} Tab presses")


def log_in_by_keyboard(page: Page, username: str) -> None:
    page.goto(reverse("login"))
    tab_to(page, page.get_by_label("Username"))
    page.keyboard.type(username)
    page.keyboard.press("Tab")
    expect(page.get_by_label("Password")).to_be_focused()
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()


def staff(tournament, role: str) -> str:  # type: ignore[no-untyped-def]
    user = get_user_model().objects.create_user(username=f"{role}-keys", password=PASSWORD)
    StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return str(user.username)


NAMES = ["Anna Tastatur", "Bruno Tabulator", "Clara Eingabe"]


def test_the_desk_registers_and_checks_in_three_players_by_keyboard(new_tablet, transactional_db) -> None:  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(format=enums.Format.KNOCKOUT)
    page = new_tablet()
    log_in_by_keyboard(page, staff(tournament, enums.Role.DESK))
    page.goto(reverse("tournament:desk", args=[tournament.pk]))

    for name in NAMES:
        tab_to(page, page.get_by_label("Name", exact=True))
        page.keyboard.type(name)
        tab_to(page, page.get_by_role("button", name="Register", exact=True), limit=10)
        page.keyboard.press("Enter")
        # Shown on the page and said to a screen reader (the live region #announce).
        expect(page.locator("ul.messages").filter(has_text=name)).to_be_visible()
        expect(page.locator("#announce")).to_contain_text(name)
    assert sorted(Player.objects.filter(tournament=tournament).values_list("name", flat=True)) == sorted(NAMES)

    tab_to(page, page.locator("nav.tournament-nav").get_by_role("link", name="Check-in", exact=True))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Check-in")).to_be_visible()
    for name in NAMES:
        tab_to(page, page.get_by_role("searchbox"))
        page.keyboard.press("Control+A")
        page.keyboard.type(name.split()[1])
        wait_for_search(page, name.split()[1])  # until then the list shows the last player's search
        row = page.locator(f'article.player-row[data-player="{name}"]')
        expect(row).to_be_visible()
        expect(page.locator("#player-list article.player-row")).to_have_count(1)
        # Tick each checklist item with Space, then check in with Enter.
        toggles = row.locator("button.check-toggle")
        for index in range(toggles.count()):
            tab_to(page, toggles.nth(index))
            page.keyboard.press("Space")
            # The row comes back from the server with the item ticked before the next key.
            expect(toggles.nth(index)).to_have_attribute("aria-pressed", "true")
        tab_to(page, row.get_by_role("button", name=re.compile(r"^(All checked ✓ )?Check in$")))
        page.keyboard.press("Enter")
        expect(row.locator(".badge-checked_in")).to_be_visible()
    checked_in = Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    assert sorted(checked_in.values_list("name", flat=True)) == sorted(NAMES)


def test_a_referee_records_a_game_by_keyboard(new_tablet, transactional_db) -> None:  # type: ignore[no-untyped-def]
    scenario = scenarios.build(enums.Format.KNOCKOUT)
    tournament, table = scenario.tournament, scenario.fresh
    assert table is not None
    first, *_others = seated(table)
    dealer = Player.objects.get(pk=first)
    page = new_tablet()
    log_in_by_keyboard(page, staff(tournament, enums.Role.REFEREE))
    page.goto(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))

    # The first dealer, then the game's winner: each a button reached with Tab and pressed with Enter.
    tab_to(page, page.get_by_role("button", name=re.compile(rf"{re.escape(dealer.name)}$")))
    page.keyboard.press("Enter")
    winner_row = page.locator("li.seat").filter(has_text=dealer.name)
    won = winner_row.get_by_role("button", name="Won")
    tab_to(page, won)
    page.keyboard.press("Enter")
    expect(winner_row.locator(".tally-value")).to_have_text("1")
    game = Game.objects.get(table=table)
    assert game.winner_id == dealer.pk


# --------------------------------------------------------------------------
# Reduced motion
# --------------------------------------------------------------------------

# Every element's transitions and animations while an htmx request runs (an indicator fades in:
# one is added, as the pages show one where a request may take a while).
MOVING = """
() => {
  const probe = document.createElement("span");
  probe.className = "htmx-indicator";
  document.body.append(probe);
  document.body.classList.add("htmx-request");
  const moving = [];
  for (const element of document.querySelectorAll("*")) {
    const style = getComputedStyle(element);
    const seconds = (value) => value.split(",").map((part) => parseFloat(part) || 0);
    const longest = Math.max(...seconds(style.transitionDuration), ...seconds(style.animationDuration));
    if (longest > 0) moving.push(element.tagName + "." + element.className + " " + longest + "s");
  }
  document.body.classList.remove("htmx-request");
  probe.remove();
  return moving.concat(document.getAnimations().map((a) => "running animation " + a.animationName));
}
"""


# Every projector view switched at once, as the rotation does (projector.js ``show``).
SWITCH_VIEWS = "() => document.querySelectorAll('#screen [data-view]').forEach((v) => v.classList.toggle('active'))"


def test_reduced_motion_stops_every_transition_and_animation(browser, live_server, transactional_db) -> None:  # type: ignore[no-untyped-def]
    scenario = scenarios.build(enums.Format.POINTS)
    tournament = scenario.tournament
    user = staff(tournament, enums.Role.ORGANISER)
    pages = [
        reverse("tournament:projector", args=[tournament.public_key]),
        reverse("tournament:find", args=[tournament.public_key]) + "?q=1",
        reverse("tournament:check_in", args=[tournament.pk]),
        reverse("tournament:referee_table", args=[tournament.pk, scenario.playing.pk]),
    ]
    moving: dict[str, list[str]] = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(base_url=live_server.url, reduced_motion=motion)
        page = context.new_page()
        log_in_by_keyboard(page, user)
        for path in pages:
            page.goto(path)
            if "/p/" in path and "/find/" not in path:
                expect(page.locator("body[data-paged]")).to_have_count(1)
                # The projector's next view comes in at once: no transition between views.
                page.evaluate(SWITCH_VIEWS)
            moving[f"{motion} {path}"] = page.evaluate(MOVING)
        context.close()
    # Without the preference an htmx indicator fades in (the check is able to see a transition) ...
    assert all(moving[f"no-preference {path}"] for path in pages), moving
    # ... and with it nothing moves anywhere.
    assert all(not moving[f"reduce {path}"] for path in pages), moving


# --------------------------------------------------------------------------
# The phone page's live region
# --------------------------------------------------------------------------


def test_a_screen_reader_hears_the_phone_pages_table_call_and_results(new_tablet, transactional_db) -> None:  # type: ignore[no-untyped-def]
    """The results sit in a polite live region that stays in the page while a poll replaces them,
    so the new text (a result, the next table) is announced, not the page reloaded."""
    scenario = scenarios.build(enums.Format.KNOCKOUT)
    tournament, table = scenario.tournament, scenario.playing
    player = Player.objects.get(pk=seated(table)[0])
    page = new_tablet()
    page.goto(reverse("tournament:find", args=[tournament.public_key]) + f"?q={player.name}")
    live = page.locator("[aria-live=polite]").filter(has=page.locator("#find-results"))
    expect(live).to_have_count(1)
    expect(live).to_contain_text(re.compile(r"Table \d+ · seat \d"))
    live.evaluate("element => { element.dataset.kept = 'yes'; }")
    before = live.inner_text()

    # The player wins the table: the phone shows the result instead of the call.
    for _ in range(5):
        table.refresh_from_db()
        if table.status != enums.TableStatus.PLAYING:
            break
        scenarios.win(tournament, table, player.pk)
    assert table.status != enums.TableStatus.PLAYING
    expect(live).not_to_have_text(before, timeout=15_000)  # the page polls every few seconds
    expect(page.locator("[aria-live=polite][data-kept=yes] #find-results")).to_have_count(1)
