"""The desk keeps its place (issue 29), by keyboard alone at 1280x800.

A clerk registers three players without touching the mouse: after each "Register" the Name field
has the focus again, empty, and a screen reader hears "<name> registered." (the live region
#announce). A Name left empty is refused with the focus back on it and nothing saved. Then three
players are checked in the same way: typed into the search, Tab to "All checked ✓ Check in",
Enter; the search is emptied and focused for the next name and the check-in is announced.
Check-in rows keep a name and a club on one line each at 1280 px ("Kegelclub Alle Neune" was cut
into "Kegelclub Alle" / "Neune ·"). Screenshots: test-artifacts/screenshots/desk-*-1280x800.png.
Every wait is for content (``expect``), never a timer.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tournament import enums
from tournament.models import CheckIn, Player
from tournament.tests.browser.conftest import wait_for_search
from tournament.tests.factories import StaffRoleFactory, TournamentFactory

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
PLAYERS = [
    ("Maria Höller", "Kegelclub Alle Neune"),
    ("Niccolò Bianchi", "Circolo Ricreativo Dopolavoro Ferroviario"),
    ("Alessandro Dell'Acqua-Bergmann", "Tauchsportverein Unterwasserrugby Hohenems"),
]
SEARCH = {"Maria Höller": "höller", "Niccolò Bianchi": "bianchi", "Alessandro Dell'Acqua-Bergmann": "acqua"}


def focused_id(page: Page) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.id"))


def test_register_and_check_in_three_players_by_keyboard(new_tablet, clerk, screenshot):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(checklist=["Entry fee paid", "Medical certificate"])
    StaffRoleFactory(tournament=tournament, user=clerk, role=enums.Role.DESK)
    page: Page = new_tablet(clerk.username)
    page.set_viewport_size(DESK)
    page.goto(reverse("tournament:desk", args=[tournament.pk]))
    name = page.locator("#id_name")
    expect(name).to_be_focused()

    # A Name left empty: refused in place, the focus back on the Name, nothing saved.
    page.keyboard.press("Enter")
    expect(page.locator("#id_name + .errorlist, .errorlist").first).to_be_visible()
    expect(name).to_be_focused()
    assert not Player.objects.filter(tournament=tournament).exists()

    for player, club in PLAYERS:
        page.keyboard.type(player)
        page.keyboard.press("Tab")
        assert focused_id(page) == "id_club"
        page.keyboard.type(club)
        page.keyboard.press("Enter")
        expect(page.locator("#announce")).to_have_text(f"{player} registered.")
        expect(name).to_be_focused()
        expect(name).to_have_value("")
    assert Player.objects.filter(tournament=tournament).count() == 3
    screenshot(page, "desk-register-1280x800")

    page.goto(reverse("tournament:check_in", args=[tournament.pk]))
    search = page.locator("#id_q")
    expect(search).to_be_focused()
    expect(page.locator("article.player-row")).to_have_count(3)
    screenshot(page, "desk-check-in-1280x800")
    for player, _club in PLAYERS:
        page.keyboard.type(SEARCH[player])
        wait_for_search(page, SEARCH[player])  # not a list that answers part of it
        rows = page.locator("#player-list article.player-row")
        expect(rows).to_have_count(1)
        expect(rows.first).to_have_attribute("data-player", player)
        page.keyboard.press("Tab")
        expect(page.locator(":focus")).to_have_text("All checked ✓ Check in")
        page.keyboard.press("Enter")
        expect(page.locator("#announce")).to_have_text(f"{player} checked in.")
        expect(search).to_be_focused()
        expect(search).to_have_value("")
        expect(rows).to_have_count(3)  # the list follows the emptied search
        expect(page.locator(f'article.player-row[data-player="{player}"]')).to_have_class(
            "player-row is-checked_in", timeout=10_000
        )
    assert CheckIn.objects.filter(player__tournament=tournament, cancelled_at__isnull=True).count() == 3
    screenshot(page, "desk-checked-in-1280x800")


def test_check_in_rows_keep_names_and_clubs_on_one_line_at_1280(new_tablet, clerk, screenshot):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(checklist=["Entry fee paid", "Medical certificate", "Diving licence (OWD)"])
    StaffRoleFactory(tournament=tournament, user=clerk, role=enums.Role.DESK)
    for player, club in PLAYERS:
        Player.objects.create(tournament=tournament, name=player, club=club)
    page: Page = new_tablet(clerk.username)
    page.set_viewport_size(DESK)
    for language in ("en", "de", "it"):
        page.goto(reverse("tournament:check_in", args=[tournament.pk]))
        if language != "en":  # the switch in the top bar, as the clerk would
            page.get_by_role("button", name=language.upper(), exact=True).click()
        expect(page.locator("article.player-row")).to_have_count(3)
        lines = page.evaluate(
            """() => Array.from(document.querySelectorAll('article.player-row .name, article.player-row .club'),
                 (el) => [el.textContent.trim(), el.getBoundingClientRect().height,
                          parseFloat(getComputedStyle(el).lineHeight)
                            || parseFloat(getComputedStyle(el).fontSize) * 1.5])"""
        )
        assert len(lines) == 6
        wrapped = [text for text, height, line in lines if height > line * 1.4]
        assert not wrapped, f"{language}: wrapped at 1280 px: {wrapped}"
        assert page.evaluate("document.documentElement.scrollWidth") <= DESK["width"]
        screenshot(page, f"desk-check-in-rows-{language}-1280x800")
