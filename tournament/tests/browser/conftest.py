"""Playwright in Debian's chromium against pytest-django's live server.

No browser is ever downloaded: chromium comes from apt (``make chromium``).
The sync Playwright API keeps an event loop in the main thread, so Django's
ORM (used by the tests to arrange and to check the database) needs
DJANGO_ALLOW_ASYNC_UNSAFE; the Makefile sets it, and so does this file.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Without this, Chromium's offline emulation does not reach the service worker: a
# reload "offline" would fetch the page through it from the live server. With it,
# context.route also sees the worker's requests, and `go_offline` cuts those too.
os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")

from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TABLET = {"width": 800, "height": 1280}
PASSWORD = "desk-tablet-pw-2026"
# How long a step may wait for the content a person waits for (a passing step waits only as long
# as the page needs): the suite runs on two workers, so a big page can take a few seconds to come.
TIMEOUT_MS = 10_000
SCREENSHOTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "screenshots"
BROWSER_DIR = Path(__file__).resolve().parent

# Every htmx update is awaited through `expect`, never a fixed sleep.
expect.set_options(timeout=TIMEOUT_MS)

# Content-Security-Policy violations seen in any page of the running test (`_no_csp_violations`).
CSP_VIOLATIONS: list[str] = []
# Reports each violation to the console too, with the directive and what was blocked.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error("securitypolicyviolation: " + event.violatedDirective + " blocked " +
    (event.blockedURI || "inline") + " at " + event.sourceFile + ":" + event.lineNumber +
    (event.sample ? " (" + event.sample + ")" : "") +
    (event.target instanceof Element ? " on " + event.target.outerHTML.slice(0, 160) : ""));
});
"""


def _is_csp_violation(text: str) -> bool:
    """Chromium's own "Refused to ... Content Security Policy" line, or the listener's."""
    return text.startswith("securitypolicyviolation") or (
        text.startswith("Refused to") and "Content Security Policy" in text
    )


def _watch_csp(context: BrowserContext) -> None:
    context.add_init_script(CSP_LISTENER)
    context.on(
        "console",
        lambda message: (
            CSP_VIOLATIONS.append(f"{message.text} [{message.location.get('url', '')}]")
            if _is_csp_violation(message.text)
            else None
        ),
    )


@pytest.fixture(autouse=True)
def _no_csp_violations() -> Iterator[None]:
    """Fail a browser test when any of its pages broke the Content-Security-Policy.

    Every context comes from ``browser.new_context`` (patched in ``browser``), so the
    check covers the tests' own contexts too. Set up first, torn down last: the
    fixtures that close the contexts have delivered their console messages by then.
    """
    CSP_VIOLATIONS.clear()
    yield
    violations = list(dict.fromkeys(CSP_VIOLATIONS))
    CSP_VIOLATIONS.clear()
    assert not violations, "Content-Security-Policy violations:\n" + "\n".join(violations)


# Every context a test opened (``browser.new_context`` is patched in ``browser``).
OPEN_CONTEXTS: list[BrowserContext] = []


@pytest.fixture(autouse=True)
def _close_contexts_left_open() -> Iterator[None]:
    """Close, after each test, every browser context it left open. A page left open keeps polling
    the session's live server: a phone's pass page polled into the next test's empty database, its
    404s counted as failed pass look-ups by the address's rate limit (``passes.limits``), and after
    thirty the next test's own passes were refused (429). Torn down before ``_no_csp_violations``
    (set up after it), so the closed pages' console messages are still checked."""
    yield
    while OPEN_CONTEXTS:
        context = OPEN_CONTEXTS.pop()
        with contextlib.suppress(Exception):  # closed by the test already
            context.close()


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects anything
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in this folder `browser` (make pytest-browser selects them)."""
    for item in items:
        if BROWSER_DIR in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium (make chromium); browsers are never downloaded."
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        new_context = chromium.new_context

        def watched_context(*args: Any, **kwargs: Any) -> BrowserContext:
            context = new_context(*args, **kwargs)
            _watch_csp(context)
            OPEN_CONTEXTS.append(context)
            return context

        chromium.new_context = watched_context  # type: ignore[method-assign]
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """screenshot(page, "01-desk") -> test-artifacts/screenshots/01-desk.png (full page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def browser_user(transactional_db):  # type: ignore[no-untyped-def]
    """browser_user("clerk") -> a committed user (the live server sees it) whose password is PASSWORD."""

    def make(username: str, **extra: object):  # type: ignore[no-untyped-def]
        return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)

    return make


def go_offline(page: Page) -> None:
    """The tablet loses its connection: every request fails, the page's and the service worker's."""
    page.context.set_offline(True)
    page.context.route("**/*", _disconnected)


def go_online(page: Page) -> None:
    """The connection is back."""
    page.context.unroute("**/*", _disconnected)
    page.context.set_offline(False)


def _disconnected(route: Route) -> None:
    route.abort("internetdisconnected")


# Resolves with the outcomes of the next `count` polls of poll.js ("spielleitung:polled"), skipped
# ones ("busy") counted unless `idle`; rejects when they do not come in time.
NEXT_POLLS = """
([count, idle, timeoutMs]) => new Promise((resolve, reject) => {
  const outcomes = [];
  const timer = setTimeout(() => {
    document.removeEventListener("spielleitung:polled", listener);
    reject(new Error("only " + outcomes.length + " of " + count + " polls came: " + outcomes.join(", ")));
  }, timeoutMs);
  function listener(event) {
    if (idle && event.detail.outcome === "busy") return;
    outcomes.push(event.detail.id + ": " + event.detail.outcome);
    if (outcomes.length < count) return;
    clearTimeout(timer);
    document.removeEventListener("spielleitung:polled", listener);
    resolve(outcomes);
  }
  document.addEventListener("spielleitung:polled", listener);
})
"""


def wait_for_polls(page: Page, count: int = 2, *, idle: bool = False) -> list[str]:
    """Wait until the page's polls (poll.js) have run ``count`` times from now, and return their
    outcomes ("<region id>: busy|unchanged|replaced|kept|failed"). That a poll left a page alone has
    no content to wait for: this waits for the polls themselves, never for a timer. ``idle``: count
    only the polls that were not skipped (nothing being sent, nothing half-done on the page)."""
    outcomes: list[str] = page.evaluate(NEXT_POLLS, [count, idle, (count + 1) * TIMEOUT_MS])
    return outcomes


def wait_for_search(page: Page, query: str) -> None:
    """Wait for the answer to the whole of a search typed as you type (the check-in's list, the
    phone's Find): its answer puts ``query`` in the address (hx-push-url). Until then the list still
    shows the search before, or an answer to part of what was typed, which the next answer replaces."""
    page.wait_for_function("q => new URLSearchParams(location.search).get('q') === q", arg=query, timeout=TIMEOUT_MS)


def assert_assets_loaded(page: Page) -> None:
    """The stylesheet and htmx really arrived from /static/ (not a bare HTML page)."""
    background = page.locator("header.topbar").evaluate("el => getComputedStyle(el).backgroundColor")
    assert background == "rgb(27, 36, 48)", f"app.css not applied to the top bar (background {background})"
    assert page.evaluate("typeof window.htmx !== 'undefined' && typeof window.htmx.ajax === 'function'"), (
        "htmx did not load"
    )


def log_in(page: Page, username: str, password: str = PASSWORD) -> None:
    """Through the real login form, as a person would."""
    page.goto(reverse("login"))
    assert_assets_loaded(page)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()
    expect(page.locator("header.topbar")).to_contain_text(username)


@pytest.fixture
def new_tablet(browser: Browser, live_server, transactional_db) -> Iterator[Callable[..., Page]]:  # type: ignore[no-untyped-def]
    """new_tablet(username=None) -> a page in a fresh 800x1280 en-US context, logged in when a user is given.

    Failed static requests and JavaScript errors fail the test at teardown.
    """
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def make(username: str | None = None, password: str = PASSWORD) -> Page:
        context = browser.new_context(viewport=TABLET, locale="en-US", base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
        page.on(
            "response",
            lambda response: (
                problems.append(f"{response.status} for {response.url}")
                if "/static/" in response.url and response.status >= 400
                else None
            ),
        )
        if username is not None:
            log_in(page, username, password)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def clerk(browser_user):  # type: ignore[no-untyped-def]
    return browser_user("clerk")


@pytest.fixture
def tablet(new_tablet, clerk) -> Page:  # type: ignore[no-untyped-def]
    """The desk clerk's tablet, logged in."""
    return new_tablet(clerk.username)


def counter(page: Page, name: str):  # type: ignore[no-untyped-def]
    """The value of a desk counter ("registered", "checked_in", "missing", "waiting")."""
    return page.locator(f'#desk-counters [data-counter="{name}"]')


def count_re(value: int) -> re.Pattern[str]:
    """Counter text: "5 / 50" for registered, "4" for the others."""
    return re.compile(rf"^\s*{value}(\s*/\s*\d+)?\s*$")


@pytest.fixture
def organiser(browser_user):  # type: ignore[no-untyped-def]
    return browser_user("organiser")


@pytest.fixture
def referee(browser_user):  # type: ignore[no-untyped-def]
    return browser_user("referee")
