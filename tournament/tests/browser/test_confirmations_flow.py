"""Destructive actions ask first, in chromium at 1280x800 (issue 11).

The desk clerk taps "Draw again", reads what will be lost, cancels (numbers
unchanged), taps again and confirms (numbers changed). The clerk withdraws a
player seated at a table still playing, without JavaScript: the question says the
table plays on. The organiser of a points tournament taps "Finish the tournament"
after round 1 of 4, reads the warning (it outlives the page's polling), cancels.
Screenshots land in test-artifacts/screenshots/ (confirm-*.png).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums, simulation
from tournament.models import Player, StartNumberDraw, Tournament
from tournament.tests.browser.conftest import PASSWORD, TIMEOUT_MS, log_in, wait_for_polls
from tournament.tests.factories import StaffRoleFactory
from tournament.tests.formats.points.helpers import play_round, start
from tournament.tests.helpers import set_settings

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def desktop(browser: Browser, live_server, transactional_db) -> Iterator[Callable[..., Page]]:  # type: ignore[no-untyped-def]
    """desktop(username, javascript=True) -> a logged-in page at 1280x800; JavaScript errors fail the test."""
    contexts = []
    problems: list[str] = []

    def make(username: str, *, javascript: bool = True) -> Page:
        context = browser.new_context(
            viewport=DESKTOP, locale="en-US", base_url=live_server.url, java_script_enabled=javascript
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
        if javascript:
            log_in(page, username)
        else:
            page.goto(reverse("login"))
            page.get_by_label("Username").fill(username)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_role("heading", name="My tournaments")).to_be_visible()
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


def points_field(rounds_played: int = 0) -> Tournament:
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=12, seed=5)
    # Not about ties: a tie shares its place rather than asking for a play-off before the finish.
    set_settings(tournament, rounds_planned=4, name="Herbst-Schocken", points_tie_resolution="shared")
    tournament.refresh_from_db()
    for number in range(1, rounds_played + 1):
        play_round(tournament, start(tournament, seed=number), seed=number)
    return tournament


def numbers(tournament: Tournament) -> dict[int, int | None]:
    return dict(Player.objects.filter(tournament=tournament).values_list("pk", "start_number"))


def test_desk_clerk_draws_again_only_after_reading_what_is_lost(desktop, clerk, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = points_field()
    StaffRoleFactory(tournament=tournament, user=clerk, role=enums.Role.DESK)
    drawn = numbers(tournament)
    last = StartNumberDraw.objects.get(tournament=tournament)
    page = desktop(clerk.username)
    page.goto(reverse("tournament:draw", args=[tournament.pk]))

    # 1. "Draw again" asks first, in place: what is lost, since when.
    page.get_by_role("button", name="Draw again").click()
    panel = page.locator("#draw-step .confirm-step")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("All 12 checked-in players get new start numbers.")
    expect(panel).to_contain_text("Cards and lists printed since")
    expect(panel).to_contain_text("must be printed again")
    expect(panel.get_by_role("button", name="Yes, draw again")).to_be_visible()
    expect(page).to_have_url(reverse("tournament:draw", args=[tournament.pk]))  # htmx: no page load
    screenshot(page, "confirm-01-draw-again-question")

    # 2. Cancel: the form is back, nothing changed.
    panel.get_by_role("link", name="Cancel").click()
    expect(panel).to_have_count(0)
    expect(page.get_by_role("button", name="Draw again")).to_be_visible()
    assert numbers(tournament) == drawn
    assert StartNumberDraw.objects.filter(tournament=tournament).count() == 1

    # 3. Again, with a known seed, and confirm: new numbers.
    page.locator("summary", has_text="Repeat a draw with a known seed").click()
    page.get_by_label("Seed (leave empty for a new random draw)").fill("99")
    page.get_by_role("button", name="Draw again").click()
    page.get_by_role("button", name="Yes, draw again").click()
    expect(page.locator(".messages")).to_contain_text("Start numbers drawn for 12 players (seed 99)")
    expect(page.locator("[data-seed]")).to_have_text("99")
    assert numbers(tournament) != drawn
    assert sorted(n for n in numbers(tournament).values() if n) == list(range(1, 13))
    assert StartNumberDraw.objects.filter(tournament=tournament).exclude(pk=last.pk).get().seed == 99
    screenshot(page, "confirm-02-draw-again-done")


def test_withdrawing_a_player_in_play_asks_without_javascript(desktop, clerk, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = points_field()
    StaffRoleFactory(tournament=tournament, user=clerk, role=enums.Role.DESK)
    table = start(tournament).tables.order_by("number").first()
    seat = table.seats.select_related("player").first()
    player = seat.player
    page = desktop(clerk.username, javascript=False)
    page.goto(reverse("tournament:check_in", args=[tournament.pk]) + f"?q={player.start_number}")

    row = page.locator(f"#player-{player.pk}")
    row.get_by_role("button", name="Withdraw").click()
    panel = page.locator(f"#player-{player.pk} .confirm-step")
    expect(panel).to_contain_text(f"{player.name} sits at table {table.number} of Round 1, which is still playing")
    expect(panel).to_contain_text("will not be seated in any later round")
    screenshot(page, "confirm-03-withdraw-in-play-question")
    assert Player.objects.get(pk=player.pk).status == enums.PlayerStatus.CHECKED_IN

    panel.get_by_role("button", name="Yes, withdraw").click()
    expect(page.locator(f"#player-{player.pk} .badge-withdrawn")).to_be_visible()
    assert Player.objects.get(pk=player.pk).status == enums.PlayerStatus.WITHDRAWN


def test_organiser_reads_the_warning_before_finishing_early_and_cancels(  # type: ignore[no-untyped-def]
    desktop, organiser, screenshot, settings
) -> None:
    settings.STAFF_POLL_SECONDS = 2
    tournament = points_field(rounds_played=1)
    StaffRoleFactory(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    page = desktop(organiser.username)
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))

    seat = page.get_by_role("button", name="Seat round 2")
    finish = page.get_by_role("button", name="Finish the tournament")
    expect(seat).to_be_visible()
    expect(finish).to_be_visible()
    seat_box, finish_box = seat.bounding_box(), finish.bounding_box()
    assert seat_box and finish_box
    assert finish_box["y"] >= seat_box["y"] + seat_box["height"] + 24, "not side by side with the next round"
    screenshot(page, "confirm-04-rounds-finish-apart")

    finish.click()
    panel = page.locator("#rounds-body .confirm-step")
    expect(panel).to_contain_text(
        "Round 1 of 4 is done. Rounds 2–4 will not be played; the ranking after round 1 becomes final."
    )
    expect(panel.get_by_role("button", name="Yes, finish now")).to_be_visible()
    expect(page.get_by_role("button", name="Seat round 2")).to_have_count(0)
    wait_for_polls(page, 2)  # two polls: the question stays
    expect(panel).to_be_visible()
    screenshot(page, "confirm-05-finish-early-question")

    panel.get_by_role("link", name="Cancel").click()
    expect(panel).to_have_count(0)
    expect(page.get_by_role("button", name="Seat round 2")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.RUNNING
