"""The projector's "updated N s ago" tells the age of the state it shows, in chromium (issue 16).

A big field's screen is kept a while after the tournament moved on (``tournament.renderings``:
five times what it took to render); the poll's answer then says how old its state is
(``X-State-Age``). Here the poll's answers are given an age of 42 s on their way to the
browser: the line must count from then, not from the answer.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Route, expect

from tournament import enums, simulation

pytestmark = pytest.mark.browser


def test_the_freshness_line_counts_from_the_state_shown(new_tablet) -> None:  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=3)
    page = new_tablet()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(reverse("tournament:projector", args=[tournament.public_key]))
    freshness = page.locator("#freshness")
    expect(freshness).to_have_text(re.compile(r"updated [0-4] s ago"), timeout=10_000)  # a poll answered

    def aged(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "x-state-age": "42.0"})

    page.route("**/screen/**", aged)
    expect(freshness).to_have_text(re.compile(r"updated 4[2-9] s ago"), timeout=10_000)
    page.unroute("**/screen/**")
    expect(freshness).to_have_text(re.compile(r"updated [0-4] s ago"), timeout=10_000)  # current again
