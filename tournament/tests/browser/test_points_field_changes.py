"""Between rounds of a points tournament, in chromium on the organiser's tablet (issue 15).

Round 1 plays. A late arrival is checked in at the check-in list and gets the next
start number; the rounds page names her among the late arrivals. The organiser pauses
a player on the next round's players page, seats round 2 (the late arrival plays, the
paused player does not), brings the paused player back from round 3 on the rounds page,
and the ranking says "joined in round 2" and "paused in round 2". Screenshots land in
test-artifacts/screenshots/ (field-*.png).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament import desk, enums, simulation
from tournament.models import Player, Seat, Tournament
from tournament.tests.factories import StaffRoleFactory
from tournament.tests.formats.points.helpers import play_round, start
from tournament.tests.helpers import set_settings

pytestmark = pytest.mark.browser


def seated_in(tournament: Tournament, number: int) -> set[int]:
    return set(
        Seat.objects.filter(table__round__tournament=tournament, table__round__number=number).values_list(
            "player_id", flat=True
        )
    )


def test_a_late_arrival_joins_and_a_player_pauses_and_comes_back(new_tablet, organiser, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=9, seed=3)
    set_settings(tournament, rounds_planned=3, games_per_round=1, capacity=20)
    tournament.refresh_from_db()
    StaffRoleFactory(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    first = start(tournament, seed=1)
    lena = desk.register_player(
        tournament=tournament, actor=None, name="Lena Spät", club="", confirm_same_name=True
    ).player
    resting = Player.objects.filter(tournament=tournament, start_number=4).get()
    page = new_tablet(organiser.username)

    # 1. Round 1 plays; Lena arrives and is checked in at the desk's list: the next start number.
    page.goto(reverse("tournament:check_in", args=[tournament.pk]) + "?q=spät")
    row = page.locator(f"#player-{lena.pk}")
    row.get_by_role("button", name=re.compile(r"Check in$")).click()
    expect(row.locator(".startno")).to_have_text("10")
    expect(row.locator(".badge-checked_in")).to_be_visible()
    screenshot(page, "field-01-late-arrival-checked-in")

    # 2. The rounds page names her among the late arrivals of round 2.
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))
    expect(page.locator("#points-joining")).to_contain_text("Lena Spät")
    expect(page.locator("#points-field")).to_contain_text("Round 2 seats 10 players.")

    # 3. The organiser pauses player 4 for the next round on the players page.
    page.get_by_role("link", name="Pause a player or bring one back…").click()
    expect(page.get_by_role("heading", name="Round 2: who plays")).to_be_visible()
    page.locator(f'#points-players tr[data-player="{resting.name}"]').get_by_role(
        "button", name="Pause next round"
    ).click()
    expect(page.locator(".messages")).to_contain_text(f"{resting.name} pauses from round 2.")
    paused_row = page.locator(f'#points-players tr[data-player="{resting.name}"]')
    expect(paused_row).to_contain_text("paused from round 2")
    expect(paused_row.get_by_role("button", name="Back from round 2")).to_be_visible()
    screenshot(page, "field-02-paused-for-round-2")

    # 4. Round 1 is played out (player 4 too: the pause starts with round 2); round 2 is seated.
    play_round(tournament, first)
    assert resting.pk in seated_in(tournament, 1)
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))
    expect(page.locator("#points-field")).to_contain_text("Round 2 seats 9 players.")
    page.get_by_role("button", name="Seat round 2").click()
    expect(page.locator(".messages")).to_contain_text("1 player pauses.")
    second = seated_in(tournament, 2)
    assert lena.pk in second and resting.pk not in second and len(second) == 9
    screenshot(page, "field-03-round-2-seated")

    # 5. Player 4 is back from round 3, from the rounds page.
    page.locator(f'#points-paused li[data-player="{resting.name}"]').get_by_role(
        "button", name="Back from round 3"
    ).click()
    expect(page.locator(".messages")).to_contain_text(f"{resting.name} is back from round 3.")
    expect(page.locator("#points-paused")).to_have_count(0)
    assert Player.objects.get(pk=resting.pk).paused_from_round is None

    # 6. After round 2 the ranking says who joined late and who paused.
    play_round(tournament, tournament.rounds.get(number=2), seed=2)
    page.goto(reverse("tournament:ranking", args=[tournament.pk]))
    ranking = page.locator("#ranking")
    expect(ranking.locator("tr", has_text="Lena Spät")).to_contain_text("joined in round 2")
    expect(ranking.locator("tr", has_text=resting.name)).to_contain_text("paused in round 2")
    screenshot(page, "field-04-ranking-notes")
