"""A big field's projector shows one window of every list per rotation, in chromium (issue 16).

The windows are made small here (6 tables, 20 names) so that a 50-player field takes several:
the projector starts with tables 1-6 and names 1-20, and each time its rotation wraps it asks
for the next windows (``?cycle=``) and shows them from the first view; after the last window
it starts over. Each page counts the items it shows of how many ("7–12 / 16").
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tournament import enums, simulation
from tournament.formats.knockout import services as knockout
from tournament.models import Tournament
from tournament.selectors import screen as screen_selectors

pytestmark = pytest.mark.browser

ROTATE_MS = 3_000  # the shortest view the projector shows (projector.js); set on the tournament below


def hold_the_clock(page: Page) -> None:
    """Stop the projector's clock (Playwright's, installed before the page opened and left to run
    while it loaded): from here only ``wrap_rotation`` moves it, so the order of its views and polls
    does not depend on how busy the machine is (a real-time rotation on a loaded machine once
    wrapped once more than the test expected).

    The page's time is read, then paused at a moment just after it; on a busy machine that moment can
    pass before the pause arrives ("Cannot fast-forward to the past", seen once in a loaded run), so
    the time is read again and the pause asked again."""
    for _ in range(50):
        try:
            page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.1)
            return
        except PlaywrightError as error:
            if "fast-forward to the past" not in error.message:
                raise
    raise AssertionError("the projector's clock could not be paused: its time kept passing the moment asked for")


def wrap_rotation(page: Page) -> None:
    """Run the projector's clock once through every view: the last step wraps the rotation, and the
    wrap asks for the next windows; the polls due on the way are sent too."""
    for _ in range(page.locator("#view-dots span").count()):
        page.clock.run_for(ROTATE_MS)


@pytest.fixture
def small_windows(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(screen_selectors, "TABLES_WINDOW", 6)
    monkeypatch.setattr(screen_selectors, "ALPHA_WINDOW", 20)


def counter(page: Page, kind: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#screen [data-view="{kind}"] [data-page]').first


def test_each_rotation_shows_the_next_windows_and_starts_over(new_tablet, small_windows, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=50, seed=3)
    rnd = knockout.generate_next_round(tournament=tournament, actor=None, seed=3).round
    assert rnd is not None
    count = rnd.tables.count()
    assert 13 <= count <= 18  # three windows of 6
    Tournament.objects.filter(pk=tournament.pk).update(display_rotation_seconds=3)
    asked: list[str] = []
    page = new_tablet()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.on("request", lambda request: asked.append(request.url) if "/screen/" in request.url else None)
    page.clock.install()
    page.goto(reverse("tournament:projector", args=[tournament.public_key]))

    tables = page.locator('#screen [data-view="tables"]')
    expect(tables.locator("article.pj-table")).to_have_count(6)
    expect(counter(page, "tables")).to_have_text(f"1–6 / {count}")
    expect(counter(page, "alphabetical")).to_have_text("1–20 / 50")
    expect(tables.locator(".pj-table-no").first).to_have_text("Table 1")
    screenshot(page, "projector-windows-01-first")
    hold_the_clock(page)

    # The rotation wraps: the next windows, shown from the first view.
    wrap_rotation(page)
    expect(counter(page, "tables")).to_have_text(f"7–12 / {count}")
    expect(tables.locator(".pj-table-no").first).to_have_text("Table 7")
    expect(counter(page, "alphabetical")).to_have_text("21–40 / 50")
    expect(page.locator('#screen [data-view="tables"].active')).to_have_count(1)
    assert any("cycle=1" in url for url in asked), asked
    screenshot(page, "projector-windows-02-second")

    wrap_rotation(page)
    expect(counter(page, "tables")).to_have_text(f"13–{count} / {count}")
    expect(counter(page, "alphabetical")).to_have_text("41–50 / 50")
    # Three windows of tables: the fourth rotation starts over.
    wrap_rotation(page)
    expect(counter(page, "tables")).to_have_text(f"1–6 / {count}")
    expect(counter(page, "alphabetical")).to_have_text("1–20 / 50")


def test_a_lost_connection_keeps_the_window_shown_and_the_next_comes_when_it_is_back(  # type: ignore[no-untyped-def]
    new_tablet, small_windows
) -> None:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=50, seed=3)
    rnd = knockout.generate_next_round(tournament=tournament, actor=None, seed=3).round
    assert rnd is not None
    count = rnd.tables.count()
    Tournament.objects.filter(pk=tournament.pk).update(display_rotation_seconds=3)
    page = new_tablet()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.clock.install()
    page.goto(reverse("tournament:projector", args=[tournament.public_key]))
    expect(counter(page, "tables")).to_have_text(f"1–6 / {count}")
    hold_the_clock(page)

    # The hall's Wi-Fi drops: polls and the ask for the next windows fail. The rotation wraps while
    # offline: the projector goes on showing what it has, from the first view, never a blank screen.
    page.route("**/screen/**", lambda route: route.abort())
    freshness = page.locator("#freshness")
    wrap_rotation(page)
    expect(freshness).to_have_text(re.compile(r"^Connection lost: showing the state of "))
    expect(page.locator('#screen [data-view="tables"].active')).to_have_count(1)
    expect(page.locator('#screen [data-view="tables"].active article.pj-table')).to_have_count(6)
    expect(counter(page, "tables")).to_have_text(f"1–6 / {count}")

    # Back online: the next windows arrive with the next poll (the second window) or the next wrap
    # (the third), whichever the clock reaches first, and the line says so.
    page.unroute("**/screen/**")
    next_window = re.compile(rf"^(7–12|13–{count}) / {count}$")
    wrap_rotation(page)
    expect(counter(page, "tables")).to_have_text(next_window)
    expect(freshness).to_have_text(re.compile(r"updated \d+ s ago"))
