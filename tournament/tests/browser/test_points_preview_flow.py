"""The organiser previews the next points round before seating it, in chromium (issue 15).

Six players at tables of three have played two rounds, so round 3 must repeat pairs. The
organiser taps "Preview round 3" on the rounds page, reads the repeated pairs against the
unavoidable ones and which players meet again, tries another draw, and seats the round as
shown: the stored round has exactly the previewed tables and seed. A second tap of the
same form (the back button, then the button again) says the round is already seated.
Screenshots at 1280x800 and 800x1280 land in test-artifacts/screenshots/ (preview-*.png).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament import enums, simulation
from tournament.models import Round
from tournament.tests.factories import StaffRoleFactory
from tournament.tests.formats.points.helpers import play_round, start
from tournament.tests.helpers import set_settings

pytestmark = pytest.mark.browser


def seating(rnd: Round) -> list[list[str]]:
    return [
        list(table.seats.order_by("position").values_list("player__name", flat=True))
        for table in rnd.tables.order_by("number")
    ]


def test_preview_then_seat_as_shown(new_tablet, organiser, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=4)
    set_settings(tournament, rounds_planned=4, games_per_round=1, table_size=3, table_size_max=3)
    tournament.refresh_from_db()
    StaffRoleFactory(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    play_round(tournament, start(tournament, seed=1))
    play_round(tournament, start(tournament, seed=2), seed=2)
    page = new_tablet(organiser.username)
    page.set_viewport_size({"width": 1280, "height": 800})

    # 1. The rounds page offers the preview beside seating at once.
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))
    page.get_by_role("link", name="Preview round 3").click()
    expect(page.get_by_role("heading", name="Round 3: preview of the seating")).to_be_visible()
    repeats = page.locator("#preview-repeats")
    expect(repeats).to_contain_text(re.compile(r"unavoidable: at least [1-9]"))
    expect(page.locator(".table-card.has-repeats").first).to_contain_text("before.")
    first_seed = page.locator("input[name=seed]").first.input_value()
    screenshot(page, "preview-01-desk")

    # 2. Another draw: a new seed, still nothing saved.
    page.get_by_role("link", name="Try another draw").click()
    expect(page.locator("input[name=seed]").first).not_to_have_value(first_seed)
    assert Round.objects.filter(tournament=tournament).count() == 2
    shown = [
        [name.strip() for name in card.locator(".seat-names li").all_inner_texts()]
        for card in page.locator(".table-card").all()
    ]
    seed = int(page.locator("input[name=seed]").first.input_value())
    page.set_viewport_size({"width": 800, "height": 1280})
    screenshot(page, "preview-02-tablet")

    # 3. Seat as shown: exactly the previewed tables, under the previewed seed.
    page.get_by_role("button", name="Seat round 3 as shown").click()
    expect(page.locator(".messages")).to_contain_text("seated.")
    third = Round.objects.get(tournament=tournament, number=3)
    assert third.seed == seed
    assert [list(table) for table in seating(third)] == [
        [re.sub(r"^\d+\s+", "", name) for name in table] for table in shown
    ]

    # 4. Back to the preview and the same tap again: seated once, and it says so.
    page.go_back()
    page.get_by_role("button", name="Seat round 3 as shown").click()
    expect(page.locator(".messages")).to_contain_text("Round 3 is already seated.")
    assert Round.objects.filter(tournament=tournament).count() == 3
    screenshot(page, "preview-03-already-seated")
