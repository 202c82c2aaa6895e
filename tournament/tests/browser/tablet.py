"""Helpers for the tablet pages shared by the browser tests (referee tables of every format)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tournament.models import Seat, Table

DESK = {"width": 1280, "height": 900}


MIN_TAP_PX = 56


def nav(page: Page) -> Locator:
    return page.get_by_role("navigation", name="Tournament")


def panel(page: Page) -> Locator:
    return page.locator("#table-panel")


def expect_status(page: Page, label: str) -> None:
    expect(panel(page).locator(".table-head .badge")).to_have_text(label)


def seated(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("position"))


def assert_tap_target(locator: Locator, what: str, minimum: int = MIN_TAP_PX) -> None:
    box = locator.bounding_box()
    assert box is not None, f"{what} is not rendered"
    assert box["height"] >= minimum and box["width"] >= minimum, f"{what} is only {box['width']}x{box['height']} px"


def mark_document(page: Page) -> None:
    page.evaluate("window.__sameDocument = true")


def assert_same_document(page: Page, what: str) -> None:
    assert page.evaluate("window.__sameDocument === true"), f"{what} reloaded the page instead of using htmx"
