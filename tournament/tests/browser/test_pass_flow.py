"""A player's pass on a phone (390x844), end to end in chromium (issue 32, items 1 and 5).

The desk prints the start cards; the code on a card decodes (zbar) to the link printed beside
it. The player opens that link on the phone and sees their status; the desk seats round 1 (the
format's service) and the open page shows the table in large type without a reload (its poll),
rings (``data-called``), and "I'm at my table" is tapped twice. The organiser's rounds page
shows who has not sat down yet, the player no longer among them. axe-core finds nothing serious
on the pass page; screenshots of the pass in German and Italian and of the start card land in
test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums, simulation
from tournament.models import AuditEntry, Player, SeatArrival, StaffRole, Tournament
from tournament.tests.browser.axe import describe, serious, violations
from tournament.tests.browser.conftest import TIMEOUT_MS
from tournament.tests.browser.test_qr_codes import decoded, zbar_tools
from tournament.tests.views.scenarios import start_round

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SEED = 20261127


def phone(browser: Browser, live_server, locale: str) -> Page:  # type: ignore[no-untyped-def]
    context = browser.new_context(
        viewport=PHONE, locale=locale, base_url=live_server.url, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def no_serious_findings(page: Page, where: str) -> None:
    found = serious(violations(page))
    assert not found, describe(where, found)


def not_cut(page: Page) -> None:
    """Nothing wider than the phone: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


def test_a_player_is_called_to_the_table_on_the_phone(  # type: ignore[no-untyped-def]
    browser: Browser,
    live_server,
    new_tablet,
    clerk,
    organiser,
    screenshot: Callable[[Page, str], Path],
    settings,
) -> None:
    settings.STAFF_POLL_SECONDS = 2
    zbar_tools()
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=SEED)
    Tournament.objects.filter(pk=tournament.pk).update(venue="Hallenbad Ost")
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    player = Player.objects.get(tournament=tournament, start_number=1)

    # A player registered, not yet checked in: the desk's "Pass…" page, "New pass", opened on a phone.
    late = Player.objects.create(tournament=tournament, name="Rosa Registered", status=enums.PlayerStatus.REGISTERED)
    desk = new_tablet(clerk.username)
    desk.goto(reverse("tournament:check_in", args=[tournament.pk]) + "?q=Rosa")
    desk.locator(f'article.player-row[data-player="{late.name}"]').get_by_role("link", name="Pass…").click()
    desk.get_by_role("button", name="New pass").click()
    expect(desk.locator(".messages")).to_contain_text("New pass issued")
    early = desk.locator("a.pass-link").get_attribute("href")
    assert early
    no_serious_findings(desk, "desk pass page")
    screenshot(desk, "pass-00-desk-pass")
    registered = phone(browser, live_server, "en-US")
    registered.goto(early)
    expect(registered.locator(".pass-status")).to_have_text("Registered")
    expect(registered.get_by_text("You are registered.")).to_be_visible()
    screenshot(registered, "pass-00-registered-en")
    # "New pass" again: the phone's open page learns at its next poll that this pass was replaced.
    desk.get_by_role("button", name="New pass").click()
    expect(registered.get_by_text("This pass was replaced; ask the desk for your new card.")).to_be_visible()
    registered.context.close()

    # The desk prints the start cards: the first card's code opens the link printed on it.
    desk.goto(reverse("tournament:print_cards", args=[tournament.pk]))
    card = desk.locator(".start-card").first
    expect(card.locator(".number")).to_have_text("1")
    link = card.locator("a.pass-url").get_attribute("href")
    assert link and link.startswith(live_server.url + "/pass/")
    picture = screenshot(desk, "pass-00-start-cards")
    card_picture = picture.with_name("pass-00-start-card.png")
    card.screenshot(path=str(card_picture))
    assert decoded(card_picture) == [link]

    # The player opens the pass on the phone: checked in (start cards are printed at check-in).
    page = phone(browser, live_server, "en-US")
    page.goto(link)
    expect(page.locator(".pass-status")).to_have_text("Checked in")
    expect(page.get_by_role("heading", name=player.name)).to_be_visible()
    expect(page.locator(".pass-call")).to_have_count(0)
    no_serious_findings(page, "pass page (before the round)")

    # The desk seats round 1 (the format's service): the open page shows the table, no reload.
    rnd = start_round(tournament, SEED)
    seat = player.seats.select_related("table").get(table__round=rnd)
    table = page.locator(".pass-table")
    expect(table).to_have_text(f"Table {seat.table.number}")
    expect(page.locator(".pass-seat")).to_have_text(f"Seat {seat.position + 1}")
    expect(page.locator(".pass-page")).to_have_attribute("data-called", str(seat.table_id))  # it rang
    size = table.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 40, f"the table is not in large type ({size}px)"
    not_cut(page)
    no_serious_findings(page, "pass page (called)")
    screenshot(page, "pass-01-called-en")

    # "I'm at my table", tapped twice: one arrival, one audit entry as the player.
    button = page.get_by_role("button", name="I'm at my table")
    button.dblclick()
    expect(page.get_by_text("You told the organiser that you are at your table.")).to_be_visible()
    assert SeatArrival.objects.filter(seat=seat).count() == 1
    assert AuditEntry.objects.filter(action="sat_down", actor_player=player).count() == 1

    # The organiser's rounds page: who has not sat down yet, the player not among them.
    rounds = new_tablet(organiser.username)
    rounds.goto(reverse("tournament:rounds", args=[tournament.pk]))
    seated = rnd.tables.count() and sum(t.seats.count() for t in rnd.tables.all())
    summary = rounds.locator("details.not-seated summary")
    expect(summary).to_contain_text(f"{seated - 1} players not at their table yet")
    summary.click()
    names = rounds.locator("details.not-seated p")
    expect(names).to_be_visible()
    assert player.name not in names.inner_text()
    screenshot(rounds, "pass-02-rounds-not-seated")
    assert not page.errors  # type: ignore[attr-defined]

    # The pass in German and Italian, as the player's phone asks for it.
    for locale, words in (("de-DE", "Ich bin an meinem Tisch"), ("it-IT", "Sono al mio tavolo")):
        other = Player.objects.get(tournament=tournament, seats__table__round=rnd, start_number=2)
        from tournament.passes import services

        _pass, token = services.issue_pass(tournament=tournament, actor=None, player_id=other.pk)
        translated = phone(browser, live_server, locale)
        translated.goto(reverse("tournament:pass", kwargs={"token": token}))
        expect(translated.get_by_role("button", name=words)).to_be_visible()
        expect(translated.locator(".pass-table")).to_have_text(re.compile(r"\d"))
        not_cut(translated)
        no_serious_findings(translated, f"pass page ({locale})")
        screenshot(translated, f"pass-03-called-{locale[:2]}")
        translated.context.close()
    page.context.close()
