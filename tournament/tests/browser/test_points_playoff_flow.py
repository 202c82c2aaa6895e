"""A tie on first place in a points tournament, in Italian, on the organiser's tablet (800x1280)
and a phone (390x844) (issue 28): the rounds page offers the play-off in words, the referee
enters the play-off game with the calculator, and the ranking names its winner first, "spareggio"
deciding the place. Screenshots (test-artifacts/screenshots/playoff-*.png), also in German.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament import enums
from tournament.models import Player, Round, Tournament
from tournament.tests.factories import StaffRoleFactory
from tournament.tests.formats.points.test_ties import tied_on_first
from tournament.tests.helpers import set_dealer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def in_language(page, live_server, language: str) -> None:  # type: ignore[no-untyped-def]
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])


def test_a_tie_on_first_place_is_decided_by_a_playoff_in_italian(
    new_tablet, organiser, live_server, screenshot
) -> None:  # type: ignore[no-untyped-def]
    tournament, who = tied_on_first()
    for role in (enums.Role.ORGANISER, enums.Role.REFEREE):
        StaffRoleFactory(tournament=tournament, user=organiser, role=role)
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    page = new_tablet(organiser.username)
    in_language(page, live_server, "it")

    # 1. The rounds page: the tie on first place in words, and the step.
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))
    step = page.locator("#playoff-step")
    expect(step).to_contain_text(re.compile(r"Parità in posizione 1 tra .+ e .+: organizza uno spareggio\."))
    expect(step).to_contain_text(names[who["a1"]])
    expect(page.get_by_role("button", name="Concludi il torneo")).to_have_count(0)
    screenshot(page, "playoff-01-rounds-step-it")
    page.set_viewport_size(PHONE)
    screenshot(page, "playoff-01-rounds-step-it-phone")
    page.set_viewport_size({"width": 800, "height": 1280})
    page.get_by_role("button", name="Organizza uno spareggio").click()
    expect(page.locator(".messages")).to_contain_text("Spareggio 1")
    playoff = Round.objects.get(tournament=tournament, stage=enums.Stage.PLAYOFF)
    table = playoff.tables.get()

    # 2. The referee's play-off table: the calculator, one game.
    set_dealer(tournament, table)
    page.goto(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
    expect(page.locator("body")).to_contain_text("Spareggio: una partita")
    entry = page.locator("form.final-entry")
    options = entry.locator(".winner-option")
    expect(options).to_have_count(2)
    winner = options.filter(has_text=names[who["b1"]])
    winner.click()
    other = entry.locator(f'fieldset[data-calculator][data-player="{who["a1"]}"]')
    other.get_by_role("button", name="7", exact=True).click()
    expect(other.locator(".calc-total")).to_have_value("7")
    screenshot(page, "playoff-02-referee-table-it")
    page.set_viewport_size(PHONE)
    screenshot(page, "playoff-02-referee-table-it-phone")
    page.set_viewport_size({"width": 800, "height": 1280})
    entry.locator("button[type=submit]").last.click()
    expect(page.locator("form.final-entry")).to_have_count(0)

    # 3. Finish; the ranking names the play-off's winner first.
    page.goto(reverse("tournament:rounds", args=[tournament.pk]))
    page.get_by_role("button", name="Concludi il torneo").click()
    expect(page.locator("#ranking")).to_be_visible()
    first = page.locator("#ranking tbody tr").first
    expect(first).to_contain_text(names[who["b1"]])
    expect(first).to_contain_text("spareggio")
    expect(page.locator("#ranking-rules")).to_contain_text("Il numero di partenza non decide mai una posizione.")
    expect(page.locator("#ranking")).to_contain_text("pari merito")
    screenshot(page, "playoff-03-ranking-it")
    page.set_viewport_size(PHONE)
    screenshot(page, "playoff-03-ranking-it-phone")
    in_language(page, live_server, "de")
    page.set_viewport_size({"width": 800, "height": 1280})
    page.reload()
    expect(page.locator("#ranking tbody tr").first).to_contain_text("Stechen")
    screenshot(page, "playoff-04-ranking-de")
    assert Tournament.objects.get(pk=tournament.pk).status == enums.TournamentStatus.FINISHED
