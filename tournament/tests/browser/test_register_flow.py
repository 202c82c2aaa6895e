"""The club's register in chromium (issue 33, item 1): at the desk, a regular's name typed with a
typo brings the suggestion from the club's register; picking it fills the form, and the registration
is linked to that person. On the register page, a duplicate is merged into the person kept and the
club's log says so. axe-core finds nothing serious on the desk with its suggestions, the register
page and "Merge into…"; the register page at 1280x800 in English, German and Italian lands in
test-artifacts/screenshots/ for a person to look at, and nothing on it scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.desk import register
from tournament.models import Person, Player, StaffRole
from tournament.tests.browser.conftest import TIMEOUT_MS, log_in
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}


def test_a_regular_is_suggested_at_the_desk_and_a_duplicate_is_merged(  # type: ignore[no-untyped-def]
    browser: Browser,
    live_server,
    new_tablet,
    browser_user,
    screenshot: Callable[[Page, str], Path],
) -> None:
    organiser = browser_user("organiser")
    club = register.create_club(actor=organiser, name="Schockfreunde Nord")
    earlier = TournamentFactory(club=club, name="March evening")
    tonight = TournamentFactory(club=club, name="April evening")
    StaffRole.objects.create(tournament=tonight, user=organiser, role=enums.Role.ORGANISER)
    hoeller = Person.objects.create(club=club, name="Anna Höller", team="TSV Nord", email="anna@example.org")
    meyer = Person.objects.create(club=club, name="Georg Meyer", team="Kegelclub Alle Neune", member_number="117")
    mayer = Person.objects.create(club=club, name="Georg Mayer", team="Kegelclub Alle Neune")
    PlayerFactory(tournament=earlier, name="Anna Höller", person=hoeller)
    PlayerFactory(tournament=earlier, name="Georg Mayer", person=mayer)
    for n in range(12):
        Person.objects.create(club=club, name=f"Stammgast {n:02d}", team="UNO-Freunde Süd")

    page = new_tablet(organiser.username)
    page.goto(reverse("tournament:desk", args=[tonight.pk]))
    page.locator("#id_name").press_sequentially("Hoeler", delay=30)
    suggestion = page.locator("#person-suggestions a.suggestion", has_text="Anna Höller")
    expect(suggestion).to_be_visible()
    expect(suggestion).to_contain_text("TSV Nord")
    no_serious_findings(page, "desk with suggestions")
    suggestion.click()
    expect(page.locator(".register-chosen")).to_contain_text("Anna Höller")
    expect(page.locator("#id_name")).to_have_value("Anna Höller")
    expect(page.locator("#id_contact")).to_have_value("anna@example.org")
    page.get_by_role("button", name="Register", exact=True).click()
    expect(page.locator("li.success")).to_have_text("Anna Höller registered.")
    assert Player.objects.get(tournament=tonight).person_id == hoeller.pk

    # The register: Georg Mayer was typed once with a typo; merged into Georg Meyer, history follows.
    page.goto(reverse("tournament:club_register", args=[club.pk]))
    expect(page.get_by_role("heading", name="Players' register of Schockfreunde Nord")).to_be_visible()
    no_serious_findings(page, "register page")
    page.locator(f'tr[data-person="{mayer.pk}"]').get_by_role("link", name="Merge into…").click()
    expect(page.get_by_role("heading", name="Merge Georg Mayer into…")).to_be_visible()
    no_serious_findings(page, "merge page")
    page.locator(f'tr[data-person="{meyer.pk}"]').get_by_role("button", name="Keep this one").click()
    expect(page.locator("li.success")).to_have_text(
        "Georg Mayer merged into Georg Meyer; 1 registration moved with it."
    )
    expect(page.locator(".club-log")).to_contain_text("Georg Mayer merged into Georg Meyer")
    expect(page.locator(f'tr[data-person="{mayer.pk}"]')).to_have_count(0)
    expect(page.locator(f'tr[data-person="{meyer.pk}"] td.num')).to_have_text("1")
    assert Player.objects.get(tournament=earlier, name="Georg Mayer").person_id == meyer.pk

    context = browser.new_context(viewport=WIDE, locale="en-US", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    wide = context.new_page()
    log_in(wide, organiser.username)
    wide.goto(reverse("tournament:club_register", args=[club.pk]))
    for language, title in (("en", "Players' register of"), ("de", "Spielerverzeichnis von"), ("it", "Anagrafica")):
        wide.locator(f'form.lang-switch button[value="{language}"]').click()
        expect(wide.get_by_role("heading", level=1)).to_contain_text(title)
        expect(wide.locator(".register-table")).to_be_visible()
        not_cut(wide)
        screenshot(wide, f"register-page-{language}")
    context.close()
