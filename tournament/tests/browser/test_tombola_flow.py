"""The tombola as the hall sees it: the organiser draws prize by prize on a tablet, the projector
(1920x1080 and 1280x720) shows each draw within its poll, an absent winner is drawn again.

On each projector the prize drawn last, its winner and the prizes before it show in full: nothing
runs off the screen or is cut, long names wrap. Screenshots: test-artifacts/projector/tombola-*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.desk import tombola
from tournament.models import StaffRole, TombolaDraw
from tournament.tests.browser.conftest import TIMEOUT_MS
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "projector"
SIZES = {"1920x1080": {"width": 1920, "height": 1080}, "1280x720": {"width": 1280, "height": 720}}
NAMES = [
    "Giovanni Battista Dell'Acqua-Bergmann",
    "Jo Oberhollenzer",
    "Marie-Luise Schwarzenbacher",
    "Eva Rainer",
    "Maximilian Hinteregger-Zangerle",
    "Anna Berger",
]
PRIZES = [
    "Tauchcomputer, gespendet vom Tauchshop Unterwasserwelt Attersee",
    "Flasche Wein",
    "Gutschein für einen Nachttauchgang",
    "UNO-Kartenspiel (wasserfest)",
]


def problems(page: Page) -> list[str]:
    """What a spectator would miss: anything of the tombola's view off the screen or cut."""
    found: list[str] = page.evaluate(
        """() => {
            const problems = [];
            if (document.documentElement.scrollWidth > innerWidth) problems.push('the page is wider than the screen');
            const view = document.querySelector('#screen [data-view="tombola"]');
            if (!view) return ['no tombola view'];
            const area = view.getBoundingClientRect();
            for (const el of view.querySelectorAll('*')) {
                const box = el.getBoundingClientRect();
                if (!box.width || !box.height) continue;
                if (box.bottom > area.bottom + 1 || box.right > area.right + 1 || box.left < area.left - 1) {
                    problems.push('off the screen: ' + el.className + ' "' + el.textContent.trim().slice(0, 40) + '"');
                }
            }
            for (const el of view.querySelectorAll('.pj-prize-name, .pj-prize-winner, .pj-prizes .nm')) {
                if (el.scrollWidth > el.clientWidth + 1) problems.push('cut: ' + el.textContent.trim());
            }
            return problems;
        }"""
    )
    return found


def draw(tablet: Page) -> None:
    before = TombolaDraw.objects.count()
    tablet.get_by_role("button", name="Draw the next prize").click()
    expect(tablet.locator(".messages, .alert").first).to_contain_text("wins prize")
    assert TombolaDraw.objects.count() == before + 1


def test_the_projector_shows_the_tombola_prize_by_prize(
    browser: Browser, live_server, new_tablet, organiser, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.PUBLIC_RENDER_SECONDS = 0  # each draw at the next poll (tournament.renderings)
    tournament = TournamentFactory(name="Österreichische Unterwasser-UNO-Meisterschaft", checklist=[])
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    for number, name in enumerate(NAMES, start=1):
        PlayerFactory(tournament=tournament, name=name, status=enums.PlayerStatus.CHECKED_IN, start_number=number)
    for name in PRIZES:
        tombola.add_prize(tournament=tournament, actor=None, name=name)

    projectors = {}
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, locale="en-US", base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        projectors[size] = context.new_page()
        projectors[size].goto(reverse("tournament:projector", args=[tournament.public_key]))

    tablet = new_tablet(organiser.username)
    tablet.goto(reverse("tournament:tombola", args=[tournament.pk]))
    expect(tablet.get_by_text("Next: prize 1")).to_be_visible()
    for _ in range(3):
        draw(tablet)
    last = TombolaDraw.objects.select_related("player", "prize").latest("pk")
    assert last.prize.position == 3
    for size, page in projectors.items():
        expect(page.locator(".pj-prize-winner")).to_have_text(last.player.name)
        expect(page.locator(".pj-prize-label")).to_have_text("Prize 3")
        expect(page.locator(".pj-prizes li")).to_have_count(2)
        assert problems(page) == [], size
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"tombola-{size}.png"))

    # The first prize's winner is not there: drawn again, the others keep theirs.
    first = TombolaDraw.objects.select_related("player").get(prize__position=1)
    kept = set(TombolaDraw.objects.filter(prize__position__in=[2, 3]).values_list("player_id", flat=True))
    tablet.get_by_role("button", name=f"{first.player.name} is absent: draw again").click()
    expect(tablet.locator(".confirm-message")).to_contain_text(f"{first.player.name} is marked absent")
    tablet.get_by_role("button", name="Yes, absent: draw again").click()
    expect(tablet.locator(".messages, .alert").first).to_contain_text("Drawn again")
    again = TombolaDraw.objects.select_related("player").get(prize__position=1, absent_at__isnull=True)
    assert again.player_id != first.player_id and again.player_id not in kept
    assert set(TombolaDraw.objects.filter(prize__position__in=[2, 3]).values_list("player_id", flat=True)) == kept
    for size, page in projectors.items():
        expect(page.locator(".pj-prize-winner")).to_have_text(again.player.name)
        expect(page.locator(".pj-prize-label")).to_have_text("Prize 1")
        assert problems(page) == [], size
        page.screenshot(path=str(ARTIFACTS / f"tombola-again-{size}.png"))
    tablet.screenshot(path=str(ARTIFACTS / "tombola-organiser.png"), full_page=True)
    # The results on paper: every prize in order, its winner, the absent one, each draw's seed.
    tablet.get_by_role("link", name="Print the results").click()
    rows = tablet.locator("#print-tombola tbody tr")
    expect(rows).to_have_count(len(PRIZES))
    expect(rows.nth(0)).to_contain_text(again.player.name)
    expect(rows.nth(0)).to_contain_text(f"{first.player.name}: absent, drawn again")
    expect(rows.nth(3)).to_contain_text("not drawn yet")
    tablet.screenshot(path=str(ARTIFACTS / "tombola-printout.png"), full_page=True)
    for page in projectors.values():
        page.context.close()
