"""Sign-up before the day on a phone (390x844), end to end in chromium (issue 32, item 2).

From the tournament's public link (the phone page) to "Sign up for the tournament": the rules are
shown, the box left unticked is refused in words, ticked the player is registered and sees the
pass (link and QR code); the link opens the pass, which shows the announcement. A second phone
signs up past capacity and sees its place on the waiting list. The desk's check-in list marks the
online sign-up "online". axe-core finds nothing serious; screenshots of the sign-up page and the
confirmation in German and Italian land in test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.models import Player, StaffRole
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut, phone
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.browser

RULES = (
    "Bei Teilnahme am Turnier werden die aufgestellten Regeln zu 100% akzeptiert. "
    "Ebenso werden die Entscheidungen der Schiedsrichter zu 100% akzeptiert."
)


def sign_up(page: Page, name: str, club: str, contact: str, *, accept: bool = True) -> None:
    page.locator("#id_name").fill(name)
    page.locator("#id_club").fill(club)
    page.locator("#id_contact").fill(contact)
    if accept:
        page.locator("#id_rules_accepted").check()
    page.locator("form.signup-form button.btn-big").click()


def test_a_player_signs_up_on_the_phone_and_the_desk_sees_online(  # type: ignore[no-untyped-def]
    browser: Browser,
    live_server,
    new_tablet,
    clerk,
    screenshot: Callable[[Page, str], Path],
) -> None:
    tournament = TournamentFactory(
        name="UNO Stadtmeisterschaft",
        capacity=3,
        online_signup=True,
        entry_fee=Decimal("3"),
        fee_fixes_place=True,
        rules_text=RULES,
        rules_url="https://unterwasseruno.at/regeln",
        announcement="Finale bis 300 Punkte statt 500.",
    )
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)
    PlayerFactory.create_batch(2, tournament=tournament)

    page = phone(browser, live_server, "en-US")
    page.goto(reverse("tournament:find", args=[tournament.public_key]))
    page.get_by_role("link", name="Sign up for the tournament").click()
    expect(page.get_by_role("heading", name="Sign up", exact=True)).to_be_visible()
    expect(page.locator(".signup-rules-text")).to_contain_text("zu 100% akzeptiert")
    expect(page.get_by_text("Finale bis 300 Punkte")).to_be_visible()
    no_serious_findings(page, "sign-up page")
    not_cut(page)

    # The rules not accepted: refused in words, nothing saved, the typed values kept.
    sign_up(page, "Anna Höller", "UNO Club Süd", "anna@example.org", accept=False)
    expect(page.get_by_role("alert")).to_contain_text("accept the tournament's rules")
    expect(page.locator("#id_name")).to_have_value("Anna Höller")
    assert not Player.objects.filter(name="Anna Höller").exists()
    page.locator("#id_rules_accepted").check()
    page.locator("form.signup-form button.btn-big").click()
    expect(page.get_by_role("heading", name="You are registered")).to_be_visible()
    expect(page.locator(".signup-result")).to_contain_text("Provisional place: pay the fee of € 3.00 to fix it.")
    expect(page.get_by_role("img", name="QR code of the pass")).to_be_visible()
    no_serious_findings(page, "sign-up confirmation")
    not_cut(page)
    page.get_by_role("link", name="Open my pass").click()
    expect(page.get_by_role("heading", name="Anna Höller")).to_be_visible()
    expect(page.locator(".pass-place")).to_have_text("Provisional place: pay the fee of € 3.00 to fix it.")
    expect(page.get_by_text("Finale bis 300 Punkte")).to_be_visible()
    no_serious_findings(page, "pass page after sign-up")
    not_cut(page)
    screenshot(page, "signup-03-pass-provisional-en")

    # A second phone, past capacity: the waiting list, its place.
    second = phone(browser, live_server, "en-US")
    second.goto(reverse("tournament:sign_up", args=[tournament.public_key]))
    PlayerFactory(tournament=tournament)  # the last place goes at the desk meanwhile
    sign_up(second, "Bruno Rossi", "Circolo UNO", "+39 333 1234567")
    expect(second.get_by_role("heading", name="You are on the waiting list")).to_be_visible()
    expect(second.locator(".signup-result")).to_contain_text("You are on the waiting list, place 1.")

    # The desk sees who signed up online.
    desk = new_tablet(clerk.username)
    desk.goto(reverse("tournament:check_in", args=[tournament.pk]) + "?q=Anna")
    row = desk.locator('article.player-row[data-player="Anna Höller"]')
    expect(row.locator(".badge-online")).to_have_text("online")
    expect(row.locator(".badge-provisional")).to_be_visible()
    assert Player.objects.get(name="Anna Höller").signed_up_online

    # Screenshots in German (Sie) and Italian (tu): the sign-up page and the confirmation.
    for locale, language, name in (("de-AT", "de", "Maria Berger"), ("it-IT", "it", "Giulia Bianchi")):
        shot = phone(browser, live_server, locale)
        shot.goto(reverse("tournament:sign_up", args=[tournament.public_key]))
        screenshot(shot, f"signup-01-page-{language}")
        sign_up(shot, name, "Verein", f"{language}@example.org")
        expect(shot.locator(".desk-pass-code")).to_be_visible()
        screenshot(shot, f"signup-02-confirmation-{language}")
        no_serious_findings(shot, f"sign-up confirmation ({language})")
        shot.context.close()
