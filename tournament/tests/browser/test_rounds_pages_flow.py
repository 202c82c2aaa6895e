"""The organiser's rounds page shows a round of many tables a page at a time, in chromium (issue 16).

A knockout of 200 players seats 66 tables in round 1: the rounds page draws tables 1-60
with a pager ("Tables 1–60 61–66"), the step above still counts every table that plays.
The organiser taps "61–66": the page shows tables 61-66 (the address says so, for the
back button and a reload), and its poll keeps that page: a result entered at table 62 on
a tablet shows there without a reload. Screenshots at 1280x800 and 800x1280 land in
test-artifacts/screenshots/ (rounds-pages-*.png).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament import enums
from tournament.tests.browser.conftest import SCREENSHOTS
from tournament.tests.factories import StaffRoleFactory
from tournament.tests.helpers import record_one_result
from tournament.tests.views.scenarios import field, start_round

pytestmark = pytest.mark.browser


def test_a_round_of_many_tables_is_shown_a_page_at_a_time(new_tablet, organiser, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.KNOCKOUT, 200, seed=16)
    StaffRoleFactory(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    rnd = start_round(tournament, seed=1)
    tables = list(rnd.tables.order_by("number"))
    assert len(tables) > 60
    last = tables[-1].number
    page = new_tablet(organiser.username)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))

    pager = page.get_by_role("navigation", name="Tables by number")
    expect(pager).to_contain_text("1–60")
    expect(page.locator(".bracket-title", has_text=re.compile(r"^Table 60$"))).to_be_visible()
    expect(page.locator(".bracket-title", has_text=re.compile(r"^Table 61$"))).to_have_count(0)
    expect(page.get_by_text(f"{len(tables)} tables are still playing.")).to_be_visible()
    screenshot(page, "rounds-pages-01-desk")
    page.screenshot(path=str(SCREENSHOTS / "rounds-pages-01-desk-top.png"))  # the pager, as first seen

    pager.get_by_role("link", name=f"61–{last}").click()
    expect(page).to_have_url(re.compile(r"\?from=61$"))
    sixty_two = page.locator(".bracket-table", has=page.locator(".bracket-title", has_text=re.compile(r"^Table 62$")))
    expect(sixty_two).to_be_visible()
    expect(page.locator(".bracket-title", has_text=re.compile(r"^Table 1$"))).to_have_count(0)

    # A tablet enters a result at table 62: the page's poll (kept on tables 61-66) shows it.
    record_one_result(tournament, tables[61])
    expect(sixty_two.locator(".num").first).to_have_text("1", timeout=20_000)
    expect(page).to_have_url(re.compile(r"\?from=61$"))

    page.set_viewport_size({"width": 800, "height": 1280})
    page.reload()
    expect(sixty_two).to_be_visible()
    screenshot(page, "rounds-pages-02-tablet")
