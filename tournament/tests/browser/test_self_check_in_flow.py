"""Self check-in on a phone (390x844), end to end in chromium (issue 32, item 3).

A player opens the pass, ticks the self-declared item and taps "I'm here" twice: checked in once,
the item ticked. Another, whose medical certificate the desk must see, lands on the desk's
"arrived, needs the desk" list at the top of the check-in page (1280x800); the desk ticks the
certificate and checks them in as today. At the entrance a player types their name with a typo,
finds "Is this you?", and checks in by name (the organiser allows it). The entrance poster's QR code
decodes (zbar) to the entrance page. axe-core finds nothing serious; screenshots of the pass's
check-in and the entrance page in German and Italian and of the desk's list land in
test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.models import AuditEntry, ChecklistItem, Player, PlayerCheck, SelfArrival, StaffRole
from tournament.passes import services
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut, phone
from tournament.tests.browser.test_qr_codes import decoded, zbar_tools
from tournament.tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}


def pass_of(player: Player) -> str:
    return reverse(
        "tournament:pass",
        kwargs={"token": services.issue_pass(tournament=player.tournament, actor=None, player_id=player.pk)[1]},
    )


def test_players_check_themselves_in(  # type: ignore[no-untyped-def]
    browser: Browser,
    live_server,
    new_tablet,
    clerk,
    screenshot: Callable[[Page, str], Path],
) -> None:
    zbar_tools()
    tournament = TournamentFactory(
        name="Torneo UNO Trento", format=enums.Format.POINTS, self_check_in=True, checklist=["Medical certificate"]
    )
    certificate = ChecklistItem.objects.get(tournament=tournament)
    dice = ChecklistItem.objects.create(
        tournament=tournament, label="Own dice and cup", position=1, kind=ChecklistItem.Kind.SELF
    )
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)

    # 1. The certificate seen at registration: the player ticks the dice and taps "I'm here" twice.
    anna = PlayerFactory(tournament=tournament, name="Anna Aurich", club="Würfelfreunde Nord")
    PlayerCheck.objects.create(player=anna, item=certificate)
    page = phone(browser, live_server, "en-US")
    page.goto(pass_of(anna))
    check_in = page.locator("#check-in")
    expect(check_in.get_by_role("button", name="I'm here")).to_be_visible()
    no_serious_findings(page, "pass page (self check-in)")
    check_in.get_by_label("Own dice and cup").check()
    check_in.get_by_role("button", name="I'm here").dblclick()
    expect(page.locator("#check-in")).to_contain_text("You are checked in.")
    anna.refresh_from_db()
    assert anna.status == enums.PlayerStatus.CHECKED_IN
    assert PlayerCheck.objects.filter(player=anna, item=dice).exists()
    assert AuditEntry.objects.filter(action="player_checked_in", actor_player=anna).count() == 1
    page.reload()  # the reload shows the state as it is
    expect(page.locator("#check-in")).to_contain_text("You are checked in.")
    not_cut(page)
    screenshot(page, "self-check-in-01-checked-in-en")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()

    # 2. The certificate not seen yet: "I'm here" puts the player on the desk's list, at the top.
    bruno = PlayerFactory(tournament=tournament, name="Bruno Berger", club="Kegelclub Alle Neune")
    page = phone(browser, live_server, "en-US")
    page.goto(pass_of(bruno))
    page.locator("#check-in").get_by_label("Own dice and cup").check()
    page.locator("#check-in").get_by_role("button", name="I'm here").click()
    expect(page.locator("#check-in")).to_contain_text("You are on the desk's list")
    expect(page.locator("#check-in")).to_contain_text("Medical certificate")
    no_serious_findings(page, "pass page (needs the desk)")
    screenshot(page, "self-check-in-02-needs-desk-en")
    page.context.close()
    bruno.refresh_from_db()
    assert bruno.status == enums.PlayerStatus.REGISTERED and SelfArrival.objects.filter(player=bruno).exists()

    desk = new_tablet(clerk.username)
    desk.set_viewport_size(DESK)
    desk.goto(reverse("tournament:check_in", args=[tournament.pk]))
    arrived = desk.locator("#arrived")
    expect(arrived).to_contain_text("Bruno Berger")
    expect(arrived).to_contain_text("Medical certificate")
    list_top = arrived.bounding_box()
    search_top = desk.locator("#id_q").bounding_box()
    assert list_top and search_top and list_top["y"] < search_top["y"], "the list is not at the top"
    no_serious_findings(desk, "desk check-in with arrivals")
    screenshot(desk, "self-check-in-03-desk-list")
    arrived.get_by_role("link", name="Bruno Berger").click()
    row = desk.locator('article.player-row[data-player="Bruno Berger"]')
    row.get_by_role("button", name="All checked ✓ Check in").click()
    expect(row.locator(".badge-checked_in")).to_be_visible()
    bruno.refresh_from_db()
    assert bruno.status == enums.PlayerStatus.CHECKED_IN
    assert PlayerCheck.objects.filter(player=bruno, item=certificate).exists()
    # The list follows the desk's check-in without a reload (out of band), and after one.
    expect(desk.locator("#arrived .arrived-list")).to_have_count(0)
    desk.goto(reverse("tournament:check_in", args=[tournament.pk]))
    expect(desk.locator("#arrived .arrived-list")).to_have_count(0)

    # 3. The entrance poster: its code opens the entrance page.
    desk.goto(reverse("tournament:print_pack", args=[tournament.pk]))
    desk.get_by_role("link", name="Entrance poster").click()
    code = desk.locator(".entrance-poster-qr")
    link = code.get_attribute("data-qr-link")
    assert link and link.endswith(reverse("tournament:entrance", args=[tournament.public_key]))
    picture = screenshot(desk, "self-check-in-04-poster").with_name("self-check-in-04-poster-qr.png")
    code.screenshot(path=str(picture))
    assert decoded(picture) == [link]

    # 4. At the entrance, by name (allowed by the organiser), in German and Italian.
    type(tournament).objects.filter(pk=tournament.pk).update(check_in_by_name=True)
    people = {
        "de-DE": ("Clara Dietrich", "clara dietrih", "Ich bin da", "Sie sind eingecheckt."),
        "it-IT": ("Niccolò Bianchi", "nicolo bianchi", "Sono qui", "Hai fatto il check-in."),
    }
    for locale, (name, typed, button, done) in people.items():
        player = PlayerFactory(tournament=tournament, name=name, club="UNO Club Trento")
        PlayerCheck.objects.create(player=player, item=certificate)
        page = phone(browser, live_server, locale)
        page.goto(reverse("tournament:entrance", args=[tournament.public_key]))
        page.locator("#entrance-q").fill(typed)
        page.locator("#entrance-q").press("Enter")
        page.locator(".entrance-matches a", has_text=name).click()
        expect(page.get_by_role("button", name=button)).to_be_visible()
        not_cut(page)
        no_serious_findings(page, f"entrance page ({locale})")
        screenshot(page, f"self-check-in-05-entrance-{locale[:2]}")
        page.get_by_label(_dice_label(locale)).check()
        page.get_by_role("button", name=button).click()
        expect(page.get_by_text(done)).to_be_visible()
        player.refresh_from_db()
        assert player.status == enums.PlayerStatus.CHECKED_IN
        page.context.close()

        # The pass page's check-in in that language, before the tap.
        other = PlayerFactory(tournament=tournament, name=f"Pass {locale}", club="UNO Club Trento")
        page = phone(browser, live_server, locale)
        page.goto(pass_of(other))
        expect(page.locator("#check-in").get_by_role("button", name=button)).to_be_visible()
        not_cut(page)
        no_serious_findings(page, f"pass page check-in ({locale})")
        screenshot(page, f"self-check-in-06-pass-{locale[:2]}")
        page.context.close()


def _dice_label(locale: str) -> str:
    """ "Own dice and cup" is one of the site's known labels: shown in the reader's language."""
    return {"de-DE": "Eigene Würfel und Becher", "it-IT": "Dadi e bicchiere propri"}[locale]
