"""A search typed as you type answers what was typed last, without waiting for an older search.

htmx alone queues a search behind the one still on its way: on a slow network the clerk first
saw the list for the first letters, which the list for the whole name then replaced, perhaps
under their finger or their keyboard focus. The check-in list and the phone's Find abort the
older search instead (``hx-sync="this:replace"``). The test holds the first search's answer,
types on, and sees the whole name's list while the first answer is still held, and the first
request aborted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from tournament import enums
from tournament.models import Player, StaffRole
from tournament.tests.browser.conftest import TABLET, TIMEOUT_MS, log_in, wait_for_search
from tournament.tests.factories import TournamentFactory

pytestmark = pytest.mark.browser

NAMES = ["Anna Tastatur", "Bruno Tabulator", "Clara Eingabe"]


COUNT_ABORTS = (
    "document.body.addEventListener('htmx:sendAbort', () => { window.__aborted = (window.__aborted || 0) + 1 })"
)


def hold_search(page: Page, query: str) -> list[Route]:
    """Hold every request of the search for ``query`` (not answered until the test says so)."""
    held: list[Route] = []

    def route(route: Route) -> None:
        if route.request.url.endswith(f"?q={query}"):
            held.append(route)
        else:
            route.continue_()

    page.route(lambda url: "?q=" in url, route)
    return held


def type_past_a_held_answer(page: Page, box: str, first: str, whole: str) -> None:
    """Type ``first`` (its answer held), then ``whole``: the page shows the answer to ``whole``
    while the first is still held (queued behind it, it would wait), and htmx reports the first
    request aborted. The held request is let go afterwards: aborted, it has nothing to swap in."""
    page.evaluate(
        "document.body.addEventListener('htmx:sendAbort', () => { window.__aborted = (window.__aborted || 0) + 1 })"
    )
    held = hold_search(page, first)
    with page.expect_request(lambda request: request.url.endswith(f"?q={first}")):
        page.locator(box).fill(first)
    page.locator(box).fill(whole)
    wait_for_search(page, whole)
    page.wait_for_function("() => window.__aborted === 1")
    assert len(held) == 1
    for route in held:
        with contextlib.suppress(PlaywrightError):  # the page aborted it: nothing left to answer
            route.continue_()


@pytest.fixture
def new_page(browser: Browser, live_server) -> Iterator[Callable[[], Page]]:  # type: ignore[no-untyped-def]
    """A tablet's page without the service worker: the requests a page sends through it are not
    routed by ``page.route``, and what is tested here is the page's own htmx."""
    contexts: list[BrowserContext] = []

    def make() -> Page:
        context = browser.new_context(
            viewport=TABLET, locale="en-US", base_url=live_server.url, service_workers="block"
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def test_the_check_in_list_keeps_the_newer_search(new_page, browser_user) -> None:  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(format=enums.Format.KNOCKOUT)
    for name in NAMES:
        Player.objects.create(tournament=tournament, name=name)
    clerk = browser_user("clerk")
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)
    page: Page = new_page()
    log_in(page, clerk.username)
    page.goto(reverse("tournament:check_in", args=[tournament.pk]))
    rows = page.locator("#player-list article.player-row")
    expect(rows).to_have_count(3)

    type_past_a_held_answer(page, "#id_q", "Ta", "Tabulator")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-player", "Bruno Tabulator")
    # A search after it is answered as ever: the list follows what is typed.
    page.locator("#id_q").fill("Eingabe")
    wait_for_search(page, "Eingabe")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-player", "Clara Eingabe")


def test_the_phones_find_keeps_the_newer_search(new_page: Callable[[], Page]) -> None:
    tournament = TournamentFactory(format=enums.Format.KNOCKOUT)
    for number, name in enumerate(NAMES, start=1):
        Player.objects.create(
            tournament=tournament, name=name, status=enums.PlayerStatus.CHECKED_IN, start_number=number
        )
    page = new_page()
    page.goto(reverse("tournament:find", args=[tournament.public_key]))
    expect(page.get_by_role("heading", name="Find your table")).to_be_visible()

    type_past_a_held_answer(page, "#find-q", "Ta", "Tabulator")
    results = page.locator("#find-results")
    expect(results).to_contain_text("Bruno Tabulator")
    expect(results).not_to_contain_text("Anna Tastatur")
