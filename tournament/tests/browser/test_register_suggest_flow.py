"""The club's register, part two, in chromium (issue 33, item 1).

On a phone (390x844) the public sign-up suggests a regular as the name is typed with a typo
("Hoeler"): only name and club are shown; a tap fills both. Signed up with another e-mail address
than the register's, the player is a new person, which the organiser's register page (1280x800)
lists under "Possible duplicates" with a one-tap link to "Merge into…" with the entry to keep
offered first. "Edit" corrects an entry. axe-core finds nothing serious on any of these pages;
screenshots in English, German and Italian land in test-artifacts/screenshots/ for a person to
look at, and nothing scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.desk import register
from tournament.models import Person, Player
from tournament.tests.browser.conftest import TIMEOUT_MS, log_in
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut, phone
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}


def test_the_sign_up_suggests_a_regular_and_the_organiser_merges_the_new_entry(  # type: ignore[no-untyped-def]
    browser: Browser,
    live_server,
    browser_user,
    screenshot: Callable[[Page, str], Path],
) -> None:
    organiser = browser_user("organiser")
    club = register.create_club(actor=organiser, name="Schockfreunde Nord")
    january = TournamentFactory(club=club, name="January evening", status=enums.TournamentStatus.FINISHED)
    hoeller = Person.objects.create(
        club=club, name="Anna Höller", team="TSV Nord", email="anna@example.org", member_number="M-117"
    )
    regulars = [hoeller] + [
        Person.objects.create(club=club, name=name, team="Kegelclub Alle Neune")
        for name in ("Anna Holzer", "Hanna Höfler", "Georg Meyer")
    ]
    for person in regulars:
        PlayerFactory(tournament=january, name=person.name, person=person, status=enums.PlayerStatus.CHECKED_IN)
    Person.objects.create(club=club, name="Anna Höllbauer", team="TSV Nord")  # never played: never suggested
    tonight = TournamentFactory(club=club, name="April evening", online_signup=True)

    page = phone(browser, live_server, "en-US")
    page.goto(reverse("tournament:sign_up", args=[tonight.public_key]))
    page.locator("#id_name").press_sequentially("Anna Hoeler", delay=30)
    pick = page.locator("#signup-suggestions button.suggestion", has_text="Anna Höller")
    expect(pick).to_be_visible()
    expect(pick).to_contain_text("TSV Nord")
    suggestions = page.locator("#signup-suggestions")
    expect(suggestions).not_to_contain_text("Höllbauer")
    expect(suggestions).not_to_contain_text("anna@example.org")
    expect(suggestions).not_to_contain_text("M-117")
    no_serious_findings(page, "sign-up with suggestions")
    not_cut(page)
    screenshot(page, "signup-suggestions-en")
    pick.click()
    expect(page.locator("#id_name")).to_have_value("Anna Höller")
    expect(page.locator("#id_club")).to_have_value("TSV Nord")
    expect(suggestions.locator("button")).to_have_count(0)
    page.locator("#id_contact").fill("anna.hoeller@example.net")
    page.locator("#id_rules_accepted").check()
    page.locator("form.signup-form button.btn-big").click()
    expect(page.get_by_role("heading", name="You are registered")).to_be_visible()
    signed = Player.objects.get(tournament=tonight).person
    assert signed is not None and signed.pk != hoeller.pk and signed.maybe_same_as_id == hoeller.pk
    assert page.errors == []  # type: ignore[attr-defined]

    for locale, language in (("de-AT", "de"), ("it-IT", "it")):
        shot = phone(browser, live_server, locale)
        shot.goto(reverse("tournament:sign_up", args=[tonight.public_key]))
        shot.locator("#id_name").press_sequentially("Hoeler", delay=30)
        expect(shot.locator("#signup-suggestions button.suggestion").first).to_be_visible()
        not_cut(shot)
        screenshot(shot, f"signup-suggestions-{language}")

    context = browser.new_context(viewport=WIDE, locale="en-US", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    wide = context.new_page()
    log_in(wide, organiser.username)
    wide.goto(reverse("tournament:club_register", args=[club.pk]))
    duplicates = wide.locator(".register-duplicates")
    expect(duplicates).to_contain_text("signed up online, picked “Anna Höller”")
    no_serious_findings(wide, "register page with duplicates")
    titles = (("en", "Possible duplicates"), ("de", "Mögliche Doppeleinträge"), ("it", "Possibili doppioni"))
    for language, title in titles:
        wide.locator(f'form.lang-switch button[value="{language}"]').click()
        expect(duplicates.get_by_role("heading", level=2)).to_have_text(title)
        not_cut(wide)
        screenshot(wide, f"register-duplicates-{language}")
    wide.locator('form.lang-switch button[value="en"]').click()

    # "Edit" corrects an entry; the page says the past keeps the names as registered.
    wide.locator(f'tr[data-person="{hoeller.pk}"]').get_by_role("link", name="Edit").click()
    expect(wide.get_by_role("heading", name="Edit Anna Höller")).to_be_visible()
    expect(wide.get_by_text("Past tournaments keep the names as they were registered")).to_be_visible()
    no_serious_findings(wide, "edit page")
    for language in ("de", "it", "en"):
        wide.locator(f'form.lang-switch button[value="{language}"]').click()
        expect(wide.locator("#id_member_number")).to_have_value("M-117")
        not_cut(wide)
        screenshot(wide, f"register-edit-{language}")
    wide.locator("#id_phone").fill("0171 2345678")
    wide.get_by_role("button", name="Save", exact=True).click()
    expect(wide.locator("li.success")).to_have_text("Anna Höller is saved in the register.")

    # One tap from the duplicate to the merge, the entry to keep offered first.
    duplicates.get_by_role("link", name="Merge into Anna Höller").click()
    expect(wide.locator("tr.is-preset")).to_contain_text("Anna Höller")
    no_serious_findings(wide, "merge page with the entry to keep")
    wide.locator("tr.is-preset").get_by_role("button", name="Keep this one").click()
    expect(wide.locator("li.success")).to_contain_text("merged into Anna Höller")
    expect(wide.locator(".register-duplicates")).to_have_count(0)
    assert Player.objects.get(tournament=tonight).person_id == hoeller.pk
    context.close()
