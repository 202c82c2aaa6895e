"""The audit trail in a browser: a referee's tap is traced to the referee and the tablet.

The referee records a game on the tablet (the outbox sends its device id); the
organiser filters the log by that referee at desk size and sees the entry with the
page it was posted to and the device. Screenshot: organiser-audit-trail.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tournament import enums, simulation
from tournament.formats.knockout import dry_run as knockout_dry_run
from tournament.models import AuditEntry, StaffRole, Table
from tournament.play import results
from tournament.tests.browser.tablet import seated

pytestmark = pytest.mark.browser


def test_the_organiser_traces_a_referees_tap(new_tablet, organiser, referee, screenshot) -> None:  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=3)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    knockout_dry_run.seat_next_round(tournament, actor=None, seed=3)  # 9 players: the first option
    table = Table.objects.get(round__tournament=tournament, number=2)
    results.set_first_dealer(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        player_id=seated(table)[0].player_id,
        version=table.version,
    )
    tablet = new_tablet(referee.username)
    tablet.goto(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
    tablet.locator("#table-panel ol.seats > li.seat").nth(1).get_by_role("button", name="Won").click()
    expect(tablet.locator("#table-panel")).to_contain_text("Saved")
    entry = AuditEntry.objects.get(tournament=tournament, action="game_recorded", actor=referee)
    assert re.search(r" · id [0-9a-f]{8} · ", entry.device), entry.device

    page = new_tablet(organiser.username)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(reverse("tournament:audit_log", args=[tournament.pk]))
    page.get_by_label("Person").select_option(label=f"{referee.username} (Referee)")
    expect(page).to_have_url(re.compile(rf"person={referee.pk}"))
    rows = page.locator("table.audit-log tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Main round 1 · Table 2: ")  # the round and table as every page names them
    expect(rows).to_contain_text("won game 1.")
    expect(rows).to_contain_text(f"/t/{tournament.pk}/referee/tables/{table.pk}/game/")
    expect(rows).to_contain_text(entry.device)
    page.get_by_label("Show").select_option("writes")
    expect(page).to_have_url(re.compile(r"kind=writes"))
    expect(rows).to_have_count(1)
    screenshot(page, "organiser-audit-trail")
