"""The knockout ranking in chromium: a finished championship whose final tie a duel decided.

Fourteen players (``arrange.finished_with_duel``): the final to 100 points ends 120 / 30 / 30,
and the two on 30 play the duel for place 2. The organiser reads the ranking at the desk
(1280x800; the tablet 800x1280 and a phone 390x844 too) in English, then in German (the
language buttons), and the printed ranking (A4); the projector shows the podium with the
points and the duel at 1920x1080 and 1280x720 in both languages; a player finds their place
on the phone. Nothing is cut or off the screen; the screenshots land in
test-artifacts/screenshots/ (``ranking-*``) for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.models import Player, StaffRole
from tournament.tests.browser.conftest import TIMEOUT_MS, log_in
from tournament.tests.browser.test_projector_fit import fit_problems, show_view
from tournament.tests.formats.knockout import arrange

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}
PROJECTORS = {"1920x1080": {"width": 1920, "height": 1080}, "1280x720": {"width": 1280, "height": 720}}


def nothing_cut(page: Page) -> list[str]:
    """What runs off a staff page or its cells: the page wider than the screen, a cell whose text
    is wider than the cell."""
    found: list[str] = page.evaluate(
        """() => {
            const problems = [];
            if (document.documentElement.scrollWidth > innerWidth + 1) problems.push('page wider than the screen');
            for (const el of document.querySelectorAll('main td, main th, main h1')) {
                if (el.scrollWidth > el.clientWidth + 1) problems.push('cut: ' + el.textContent.trim().slice(0, 40));
            }
            return problems;
        }"""
    )
    return found


def cells(page: Page, player: int) -> list[str]:
    return [text.strip() for text in page.locator(f"#player-{player} td").all_inner_texts()]


def test_the_ranking_at_the_desk_on_the_projector_and_the_phone(  # type: ignore[no-untyped-def]
    browser: Browser, live_server, browser_user, screenshot: Callable[[Page, str], Path]
) -> None:
    final = arrange.finished_with_duel(14, seed=26)
    tournament = final.tournament
    a, b, c = final.players
    organiser = browser_user("organiser")
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)

    context = browser.new_context(viewport=DESK, locale="en-US", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        log_in(page, organiser.username)
        page.goto(reverse("tournament:ranking", args=[tournament.pk]))
        heads = page.locator("#ranking thead th").all_inner_texts()
        assert [head.strip() for head in heads] == [
            "Place",
            "No.",
            "Name",
            "Reached",
            "Points in the final",
            "Games won",
            "Duel",
            "Decided by",
        ]
        assert cells(page, a)[3:7] == ["Final", "120", "–", ""]
        assert cells(page, c)[3:7] == ["Final", "30", "–", "won the duel for place 2"]
        assert cells(page, b)[3:7] == ["Final", "30", "–", "lost the duel for place 2"]
        assert not nothing_cut(page), nothing_cut(page)
        screenshot(page, "ranking-desk-1280x800-en")
        for size, name in ((TABLET, "tablet-800x1280"), (PHONE, "phone-390x844")):
            page.set_viewport_size(size)
            # The page keeps the screen's width (a phone scrolls the table sideways, in its region).
            assert not nothing_cut(page), (name, nothing_cut(page))
            screenshot(page, f"ranking-{name}-en")
        page.set_viewport_size(DESK)

        page.get_by_role("button", name="DE", exact=True).click()
        expect(page.locator("#ranking thead")).to_contain_text("Punkte im Finale")
        assert cells(page, c)[3:7] == ["Finale", "30", "–", "Stechen um Platz 2 gewonnen"]
        assert cells(page, b)[6] == "Stechen um Platz 2 verloren"
        assert any(
            re.fullmatch(r"Hauptrunde \d|Lucky-Loser-Runde", text.strip())
            for text in page.locator("#ranking tbody td:nth-child(4)").all_inner_texts()
        )
        assert not nothing_cut(page), nothing_cut(page)
        screenshot(page, "ranking-desk-1280x800-de")
        # The printed ranking on A4 (print media): the final's points and the duel in the box above
        # the table, which leaves out those two columns.
        page.goto(reverse("tournament:print_ranking", args=[tournament.pk]))
        page.set_viewport_size({"width": 794, "height": 1123})
        page.emulate_media(media="print")
        expect(page.locator(".ranking-final")).to_contain_text("Stechen um Platz 2:")
        expect(page.locator(".ranking-final")).to_contain_text("120 Punkte")
        assert not nothing_cut(page), nothing_cut(page)
        screenshot(page, "ranking-print-a4-de")
    finally:
        context.close()

    for lang, results in (
        ("en", ["120 points", "30 points · won the duel for place 2", "30 points · lost the duel for place 2"]),
        ("de", ["120 Punkte", "30 Punkte · Stechen um Platz 2 gewonnen", "30 Punkte · Stechen um Platz 2 verloren"]),
    ):
        for size, viewport in PROJECTORS.items():
            context = browser.new_context(viewport=viewport, locale="en-US", base_url=live_server.url)
            context.set_default_timeout(TIMEOUT_MS)
            try:
                projector = context.new_page()
                projector.goto(reverse("tournament:projector", args=[tournament.public_key]) + f"?lang={lang}")
                expect(projector.locator("body[data-paged]")).to_have_count(1)
                show_view(projector, "podium")
                steps = projector.locator('#screen [data-view="podium"] .step-result')
                assert [text.strip() for text in steps.all_inner_texts()] == results
                assert not fit_problems(projector), fit_problems(projector)
                screenshot(projector, f"ranking-projector-{size}-{lang}")
            finally:
                context.close()

    context = browser.new_context(viewport=PHONE, locale="de-DE", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        phone = context.new_page()
        number = Player.objects.get(pk=c).start_number
        phone.goto(reverse("tournament:find", args=[tournament.public_key]) + f"?q={number}")
        card = phone.locator(".find-card")
        expect(card).to_contain_text("Endplatzierung: 2")
        expect(card).to_contain_text("30 Punkte · Stechen um Platz 2 gewonnen")
        screenshot(phone, "ranking-phone-390x844-de")
    finally:
        context.close()
