"""The expected plan before the day: on a phone (390x844) and on the projector (1920x1080 and
1280x720), read as a person reads it. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament import desk, enums, simulation
from tournament.models import StaffRole, Tournament
from tournament.tests.browser import test_display_flow as display_flow
from tournament.tests.browser.test_display_flow import PHONE, PROJECTOR, readability_problems, shoot, show_view, view
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.browser

SMALL_PROJECTOR = {"width": 1280, "height": 720}
# The projector's and the phone's fixtures, shared with the display flow.
public_context = display_flow.public_context
open_projector = display_flow.open_projector


def championship(transactional_db: object) -> Tournament:
    """The underwater championship's day: 23 registered, 2 on the waiting list, play at 10:00."""
    tournament = TournamentFactory(
        name="Österreichische Unterwasser-UNO-Staatsmeisterschaft", start_time=dt.time(10, 0), checklist=[]
    )
    Tournament.objects.filter(pk=tournament.pk).update(display_rotation_seconds=60)
    PlayerFactory.create_batch(23, tournament=tournament)
    PlayerFactory.create_batch(2, tournament=tournament, status=enums.PlayerStatus.WAITING)
    return tournament


def test_the_plan_on_a_phone_before_the_day(transactional_db, public_context) -> None:  # type: ignore[no-untyped-def]
    tournament = championship(transactional_db)
    page = public_context(PHONE).new_page()
    page.goto(reverse("tournament:plan", args=[tournament.public_key]))
    expect(page.get_by_role("heading", level=1)).to_have_text("Expected plan")
    expect(page.locator(".day-plan-lead")).to_contain_text("With 23 players registered: Final expected at about")
    expect(page.locator("table.day-plan").first.locator("tbody tr")).to_have_count(4)
    expect(page.locator("table.day-plan").first.locator("tbody tr").first).to_contain_text("about 10:00")
    expect(page.get_by_role("heading", level=2)).to_contain_text(
        "If all 2 players on the waiting list come (25 players)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing runs off the side
    shoot(page, "plan-phone")
    # In German, the same page.
    german = public_context(PHONE, locale="de-DE").new_page()
    german.goto(reverse("tournament:plan", args=[tournament.public_key]))
    expect(german.get_by_role("heading", level=1)).to_have_text("Voraussichtlicher Turnierplan")
    assert german.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(german, "plan-phone-de")


def test_the_plan_on_the_projector_before_the_day(transactional_db, public_context, open_projector) -> None:  # type: ignore[no-untyped-def]
    tournament = championship(transactional_db)
    projector = open_projector(tournament)
    show_view(projector, "plan")
    plan = view(projector, "plan")
    expect(plan.locator("h2")).to_have_text("Expected plan")
    expect(plan.locator(".pj-plan li")).to_have_count(4)
    expect(plan.locator(".pj-plan li").first).to_contain_text("about 10:00")
    expect(plan).to_contain_text("If everyone on the waiting list comes (25 players): Final at about")
    shoot(projector, "plan-projector")
    assert readability_problems(projector) == []
    small = public_context(SMALL_PROJECTOR).new_page()
    small.goto(reverse("tournament:projector", args=[tournament.public_key]))
    expect(small.locator("#screen [data-view].active")).to_have_count(1)
    show_view(small, "plan")
    expect(view(small, "plan").locator(".pj-plan li")).to_have_count(4)
    assert small.evaluate(
        "[...document.querySelectorAll('.pj-plan li')].every((li) => li.getBoundingClientRect().bottom <= innerHeight)"
    ), "every round of the plan fits the 1280x720 screen"
    shoot(small, "plan-projector-1280")
    assert PROJECTOR["width"] == 1920


def test_during_the_day_the_projector_says_when_the_final_comes_and_the_organiser_sees_who_holds_up(  # type: ignore[no-untyped-def]
    transactional_db, open_projector, new_tablet, organiser
) -> None:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=15, seed=display_flow.SEED)
    desk.save_settings(tournament=tournament, actor=None, start_time=dt.time(10, 0), display_rotation_seconds=60)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    rnd = display_flow.seat_round_1(tournament)
    display_flow.play_partly(tournament, rnd, random.Random(display_flow.SEED), decided=2, games=2)
    projector = open_projector(tournament)
    show_view(projector, "plan")
    plan = view(projector, "plan")
    expect(plan.locator(".pj-plan-final")).to_have_text(re.compile(r"^Final expected at about \d\d:\d\d$"))
    expect(plan.locator(".pj-plan li")).to_have_count(3)  # the lucky-loser round, main round 2, the final
    shoot(projector, "plan-projector-during")
    assert readability_problems(projector) == []
    page = new_tablet(organiser.username)
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))
    card = page.locator(".day-plan-card")
    expect(card).to_contain_text("3 tables still play. Holding the round up:")
    expect(card.locator(".day-plan-holding-list li")).to_have_count(3)
    # The table without a result yet first, then the tables whose last game is oldest.
    expect(card.locator(".day-plan-holding-list li").first).to_contain_text("Table 5: 0 games")
    expect(card.locator(".day-plan-holding-list li").nth(1)).to_contain_text("2 games")
    expect(card).not_to_contain_text("Measured so far")  # games typed in within seconds are no measure
    card.scroll_into_view_if_needed()
    shoot(page, "plan-rounds-page")


def test_the_printed_plan(transactional_db, new_tablet, organiser) -> None:  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(
        format=enums.Format.LIFE_BANDS, game=enums.Game.SCHOCKEN, start_time=dt.time(17, 0), checklist=[]
    )
    PlayerFactory.create_batch(23, tournament=tournament)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    page = new_tablet(organiser.username)
    page.goto(reverse("tournament:print_pack", args=[tournament.pk]))
    page.get_by_role("link", name="Expected plan").click()
    expect(page.locator(".plan-sheet")).to_contain_text("With 23 players registered: Grand final expected at about")
    expect(page.locator(".plan-sheet tbody tr").first).to_contain_text("about 17:00")
    shoot(page, "plan-print")
