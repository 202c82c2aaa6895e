"""Players record their own table in the other formats, on phones (390x844; issue 32, item 4).

Life bands (Anna taps "Lost" for Ben) and points (Anna picks Ben as the winner and types the
card points left in the other hands): the entry waits; Ben's pass page, open before, shows it with
"Confirm" and "Not right" at its next poll, and Carla's table page shows it too. axe finds nothing
serious or critical on the phone's table page with the entry form, the calculator and the waiting
entry, nor on the pass page with the prompt. Ben confirms on his pass page: the table page says so;
the back button shows the pass page as it is now, without the prompt. Dino enters the next game
and Carla calls a referee: the referees' list (a tablet, 800x1280) shows the table first.
Screenshots in English, German and Italian land in test-artifacts/screenshots/ to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.formats import registry
from tournament.models import Seat, StaffRole, Tournament
from tournament.passes import services
from tournament.tests.browser.conftest import TIMEOUT_MS
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut, phone
from tournament.tests.browser.test_players_table_flow import open_table
from tournament.tests.browser.test_projector_fit import fit_problems, show_view
from tournament.tests.helpers import set_dealer
from tournament.tests.views.scenarios import start_round

pytestmark = pytest.mark.browser
SEED = 20261128
LOCALES = ("de-DE", "it-IT")
PROJECTORS = {"1920x1080": {"width": 1920, "height": 1080}, "1280x720": {"width": 1280, "height": 720}}


def look_at_the_projector(browser: Browser, live_server, tournament: Tournament, shoot, tag: str) -> None:  # type: ignore[no-untyped-def]
    """The projector's tables with one waiting for confirmation, at two screen sizes, in German (the
    longest words): its strip readable (names and strip whole on the screen), and a screenshot."""
    for size, viewport in PROJECTORS.items():
        context = browser.new_context(viewport=viewport, locale="de-DE", base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.goto(reverse("tournament:projector", args=[tournament.public_key]) + "?lang=de")
        expect(page.locator("body[data-paged]")).to_have_count(1)
        show_view(page, "tables")
        strip = page.locator('#screen [data-view="tables"].active .pj-awaiting')
        expect(strip).to_have_text("wartet auf Bestätigung")
        assert not fit_problems(page), fit_problems(page)
        shoot(page, f"players-{tag}-05-projector-{size}-de")
        context.close()


def open_pass(browser: Browser, live_server, token: str, locale: str = "en-US") -> Page:  # type: ignore[no-untyped-def]
    page = phone(browser, live_server, locale)
    page.goto(reverse("tournament:pass", kwargs={"token": token}))
    expect(page.locator("#pass-body")).to_be_visible()
    return page


def enter_game(page: Page, fmt: str, loser_or_winner: str, others: list[int]) -> None:
    """Anna's entry on her phone: life bands "Lost" for a player; points the winner and the card
    points left in the other hands (typed into the calculator's totals), then "Record game"."""
    panel = page.locator("#table-panel")
    if fmt == enums.Format.LIFE_BANDS:
        panel.locator(f'button[data-loser="{loser_or_winner}"]').click()
        return
    panel.locator("label.winner-option", has_text=loser_or_winner).click()
    expect(panel.locator("[data-calculator]:visible").first).to_be_visible()
    no_serious_findings(page, f"phone table page, {fmt}: the calculator open")
    not_cut(page)
    for pid in others:
        panel.locator(f"#points-{pid}").fill("12")
    panel.get_by_role("button", name="Record game").click()


@pytest.mark.long
@pytest.mark.parametrize("fmt", [enums.Format.LIFE_BANDS, enums.Format.POINTS])
def test_players_record_their_table_in_life_bands_and_points(  # type: ignore[no-untyped-def]
    browser: Browser, live_server, new_tablet, referee, screenshot: Callable[[Page, str], Path], settings, fmt: str
) -> None:
    settings.STAFF_POLL_SECONDS = 1
    tournament = simulation.create_field(fmt=fmt, players=8, seed=SEED)
    # The projector stays on the view a test shows (no rotation while a screenshot is taken).
    Tournament.objects.filter(pk=tournament.pk).update(
        table_entry=enums.TableEntry.PLAYERS, display_rotation_seconds=600
    )
    tournament.refresh_from_db()
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    rnd = start_round(tournament, SEED)
    table = rnd.tables.order_by("number").first()
    assert table is not None
    if registry.of(tournament).entry == "winner":
        set_dealer(tournament, table)
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
    assert len(seats) == 4
    names = [seat.player.name for seat in seats]
    ids = [seat.player_id for seat in seats]
    tokens = [services.issue_pass(tournament=tournament, actor=None, player_id=pid)[1] for pid in ids]
    tag = fmt.replace("_", "-")

    # Ben's pass page and Carla's table page are open before Anna enters.
    ben = open_pass(browser, live_server, tokens[1])
    carla = open_table(browser, live_server, tokens[2])
    anna = open_table(browser, live_server, tokens[0])
    no_serious_findings(anna, f"phone table page, {fmt}: the entry")
    enter_game(anna, fmt, names[1], ids[2:] + ids[:1] if fmt == enums.Format.POINTS else [])
    expect(anna.locator("#pending-entry")).to_contain_text(f"{names[0]} entered:")
    expect(anna.locator("#pending-entry")).to_contain_text("Another player at your table confirms it")
    no_serious_findings(anna, f"phone table page, {fmt}: my own entry waiting")
    not_cut(anna)
    screenshot(anna, f"players-{tag}-01-own-entry-en")
    look_at_the_projector(browser, live_server, tournament, screenshot, tag)

    # Within one poll, Ben's pass shows it with Confirm and Not right; Carla's table too.
    expect(ben.locator("#pass-pending")).to_contain_text(f"{names[0]} entered:")
    expect(ben.get_by_role("button", name="✓ Confirm")).to_be_visible()
    expect(ben.get_by_role("button", name="✗ Not right: call a referee")).to_be_visible()
    no_serious_findings(ben, f"pass page, {fmt}: a table-mate's entry waiting")
    not_cut(ben)
    screenshot(ben, f"players-{tag}-02-pass-prompt-en")
    expect(carla.locator("#confirm-entry")).to_be_visible()
    no_serious_findings(carla, f"phone table page, {fmt}: a table-mate's entry waiting")
    not_cut(carla)
    screenshot(carla, f"players-{tag}-03-table-pending-en")

    for locale in LOCALES:
        short = locale[:2]
        translated = open_pass(browser, live_server, tokens[3], locale)
        expect(translated.locator("#pass-pending")).to_be_visible()
        no_serious_findings(translated, f"pass page, {fmt} ({locale})")
        not_cut(translated)
        screenshot(translated, f"players-{tag}-02-pass-prompt-{short}")
        translated.context.close()
        table_page = open_table(browser, live_server, tokens[3], locale)
        expect(table_page.locator("#confirm-entry")).to_be_visible()
        no_serious_findings(table_page, f"phone table page, {fmt} ({locale})")
        not_cut(table_page)
        screenshot(table_page, f"players-{tag}-03-table-pending-{short}")
        table_page.context.close()

    # Ben confirms on his pass page: the table page says so; back shows the pass as it is now.
    ben.get_by_role("button", name="✓ Confirm").click()
    expect(ben.locator(".messages")).to_contain_text("Confirmed: game 1 counts.")
    expect(ben.locator(".game-log")).to_contain_text("Game 1:")
    assert Game.objects.get(table=table).status == GameStatus.VALID
    ben.go_back()
    expect(ben.locator("#pass-body")).to_be_visible()
    expect(ben.locator("#pass-pending")).to_have_count(0)
    ben.reload()
    expect(ben.locator("#pass-pending")).to_have_count(0)
    expect(carla.locator("#pending-entry")).to_have_count(0)

    # Dino enters the next game on his phone, Carla calls a referee: first on the referees' list.
    dino = open_table(browser, live_server, tokens[3])
    enter_game(dino, fmt, names[0], ids[1:] if fmt == enums.Format.POINTS else [])
    expect(dino.locator("#pending-entry")).to_contain_text(f"{names[3]} entered:")
    expect(carla.locator("#call-referee")).to_be_visible()
    carla.locator("#call-referee").click()
    expect(carla.locator("#referee-called")).to_be_visible()
    tablet = new_tablet(referee.username)
    tablet.goto(reverse("tournament:referee_tables", args=[tournament.pk]))
    first = tablet.locator("#tables-list > *").first
    expect(first).to_have_attribute("id", "attention")
    expect(first).to_contain_text("Referee called")
    expect(first).to_contain_text(names[2])
    expect(first).to_contain_text("Waiting for confirmation")
    no_serious_findings(tablet, f"referees' list, {fmt}: a called table")
    screenshot(tablet, f"players-{tag}-04-referees-called-tablet")
    for page in (anna, ben, carla, dino):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()
