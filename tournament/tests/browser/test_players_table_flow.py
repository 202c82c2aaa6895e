"""Players record their own table on four phones (390x844) at one table of four (issue 32, item 4).

A knockout of eight with "Players at the table": Anna, Ben, Carla and Dino open their table from
the pass. Anna picks the first dealer and taps "Won" for Ben twice (a double tap: one entry); the
entry waits, shown on every phone, until Ben confirms it on his own phone. Carla and Dino each enter
a different result at once: the first counts as the waiting entry, the second is refused with why.
Ben's phone loses its connection, its entry waits in the outbox and arrives once when it is back.
Ben says "Not right" about an entry: the table calls a referee, and the referees' list shows it at
the top. axe finds nothing serious on the phone's table page; screenshots in English, German and
Italian land in test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.models import Seat, StaffRole, Table, Tournament
from tournament.passes import services
from tournament.tests.browser.conftest import go_offline, go_online
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut, phone
from tournament.tests.views.scenarios import start_round

pytestmark = pytest.mark.browser
SEED = 20261127


def open_table(browser: Browser, live_server, token: str, locale: str = "en-US") -> Page:  # type: ignore[no-untyped-def]
    page = phone(browser, live_server, locale)
    page.goto(reverse("tournament:pass", kwargs={"token": token}))
    page.locator("a.pass-open-table").click()
    expect(page.locator("#table-panel")).to_be_visible()
    return page


def won(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#table-panel button[data-winner="{name}"]')


def test_four_phones_record_their_table(  # type: ignore[no-untyped-def]
    browser: Browser, live_server, new_tablet, referee, screenshot: Callable[[Page, str], Path], settings
) -> None:
    settings.STAFF_POLL_SECONDS = 1
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=8, seed=SEED)
    Tournament.objects.filter(pk=tournament.pk).update(table_entry=enums.TableEntry.PLAYERS)
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    rnd = start_round(tournament, SEED)
    table = rnd.tables.order_by("number").first()
    seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
    assert len(seats) == 4
    names = [seat.player.name for seat in seats]
    tokens = [services.issue_pass(tournament=tournament, actor=None, player_id=s.player_id)[1] for s in seats]
    anna, ben, carla, dino = (open_table(browser, live_server, token) for token in tokens)

    # Anna picks the first dealer; every phone then shows "Won" per player.
    anna.get_by_role("button", name=re.compile(names[0])).first.click()
    expect(won(anna, names[1])).to_be_visible()
    no_serious_findings(anna, "phone table page")
    not_cut(anna)
    screenshot(anna, "players-table-01-entry-en")

    # A double tap on "Won": one entry, waiting for a table-mate.
    won(anna, names[1]).dblclick()
    expect(anna.locator("#pending-entry")).to_contain_text(f"{names[0]} entered: {names[1]} won game 1")
    expect(anna.locator("#pending-entry")).to_contain_text("Another player at your table confirms it")
    line = f"{names[0]} entered: {names[1]} won game 1."
    for other in (ben, carla, dino):
        expect(other.locator("#pending-entry .pending-line")).to_have_text(line)
    screenshot(ben, "players-table-02-confirm-en")
    assert Game.objects.filter(table=table).count() == 1
    ben.locator("#confirm-entry").click()
    expect(ben.locator("#table-notice")).to_contain_text("Confirmed: game 1 counts.")
    expect(anna.locator(".game-log")).to_contain_text(f"Game 1: {names[1]}")
    assert Game.objects.get(table=table).status == GameStatus.VALID

    # Carla and Dino enter different results at once: the first counts, the second sees why. Which
    # post the server takes first is the network's and the machine's choice (on a busy machine
    # Dino's came first): the test reads it from the entry that waits, then checks both sides.
    for page in (carla, dino):
        expect(page.locator(".game-log")).to_contain_text(f"Game 1: {names[1]}")
    expect(won(carla, names[2])).to_be_enabled()
    expect(won(dino, names[3])).to_be_enabled()
    carla.evaluate("() => document.body.dataset.pollHold = '1'")
    dino.evaluate("() => document.body.dataset.pollHold = '1'")
    won(carla, names[2]).click()
    won(dino, names[3]).click()
    for page in (carla, dino):  # the one's own entry, the other's refusal with the entry that waits
        expect(page.locator("#pending-entry")).to_be_visible()
    waiting = Game.objects.get(table=table, status=GameStatus.PENDING)
    carla_first = waiting.entered_by_player_id == seats[2].player_id
    first, second = (carla, dino) if carla_first else (dino, carla)
    first_name = names[2] if carla_first else names[3]
    expect(first.locator("#pending-entry")).to_contain_text(f"{first_name} entered: {first_name} won game 2")
    expect(second.locator("#table-error")).to_contain_text(
        f"{first_name}'s entry for game 2 waits for confirmation: confirm it or say it is not right first."
    )
    screenshot(second, "players-table-03-refused-en")
    expect(second.locator("#pending-entry .pending-line")).to_contain_text(f"{first_name} won game 2")
    second.locator("#confirm-entry").click()
    expect(second.locator("#table-notice")).to_contain_text("Confirmed: game 2 counts.")
    assert Game.objects.filter(table=table, status=GameStatus.VALID).count() == 2

    # Ben's phone is offline: his entry waits on the phone and arrives once when he is back.
    expect(ben.locator(".game-log")).to_contain_text(f"Game 2: {first_name}")  # his page is current
    expect(won(ben, names[0])).to_be_enabled()
    go_offline(ben)
    won(ben, names[0]).click()
    expect(ben.locator("#outbox-banner")).to_be_visible()
    assert Game.objects.filter(table=table).count() == 2
    go_online(ben)
    ben.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(ben.locator("#pending-entry")).to_contain_text(f"{names[1]} entered: {names[0]} won game 3")
    expect(ben.locator("#outbox")).to_be_hidden()
    assert Game.objects.filter(table=table, status=GameStatus.PENDING).count() == 1

    # Carla says "Not right": the entry does not count and the table calls a referee.
    expect(carla.locator("#reject-entry")).to_be_visible()
    carla.locator("#not-right-reason").fill("Anna had two cards left")
    carla.locator("#reject-entry").click()
    expect(carla.locator("#table-notice")).to_contain_text("A referee is called to your table.")
    expect(anna.locator("#referee-called")).to_be_visible()
    assert Game.objects.filter(table=table, status=GameStatus.VOIDED).count() == 1
    assert Table.objects.get(pk=table.pk).referee_call_reason == enums.RefereeCall.DISAGREEMENT
    tablet = new_tablet(referee.username)
    tablet.goto(reverse("tournament:referee_tables", args=[tournament.pk]))
    first = tablet.locator("#tables-list > *").first
    expect(first).to_have_attribute("id", "attention")
    expect(first).to_contain_text("Not right: players disagree")
    screenshot(tablet, "players-table-04-referees-list")
    for page in (anna, ben, carla, dino):
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()

    # The phone's table in German and Italian.
    for locale in ("de-DE", "it-IT"):
        translated = open_table(browser, live_server, tokens[3], locale)
        expect(translated.locator("#call-referee, #referee-called").first).to_be_visible()
        not_cut(translated)
        no_serious_findings(translated, f"phone table page ({locale})")
        screenshot(translated, f"players-table-05-{locale[:2]}")
        translated.context.close()
