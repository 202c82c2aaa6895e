"""Tournaments at the desk (``tournament.desk.tournaments``): creating one (its
checklist, returnable equipment, registration windows, the creator as organiser,
the audit entry), a capacity raise moving the waiting list up, and the audit
entry and version bump of each settings service (checklist, windows, settings,
card scoring table).
"""

from __future__ import annotations

import datetime
from functools import partial
from typing import Any

import pytest
from django.utils import timezone

from games.rules import uno
from tournament import enums
from tournament.desk import tournaments
from tournament.models import AuditEntry, StaffRole, Tournament
from tournament.tests.desk.helpers import Call, assert_audited, audit_cases, status_of

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


def test_create_tournament_writes_an_audit_entry_and_makes_the_creator_organiser(make_user):  # type: ignore[no-untyped-def]
    user = make_user("creator")
    now = timezone.now()
    created = tournaments.create_tournament(
        actor=user,
        name="  Stadtmeisterschaft ",
        date=datetime.date(2026, 12, 5),
        venue="Hallenbad",
        game=enums.Game.UNO,
        format=enums.Format.POINTS,
        capacity=40,
        entry_fee=3,
        checklist=["Entry fee paid", "Own deck checked", "entry  FEE paid", " "],
        returnable=["Own deck checked"],
        windows=[tournaments.WindowInput(opens_at=now, closes_at=now + datetime.timedelta(hours=1))],
    )
    assert created.name == "Stadtmeisterschaft"
    assert [(i.label, i.returnable) for i in created.checklist_items.all()] == [
        ("Entry fee paid", False),
        ("Own deck checked", True),
    ]
    assert created.registration_windows.count() == 1
    assert StaffRole.objects.filter(tournament=created, user=user, role=enums.Role.ORGANISER).exists()
    assert AuditEntry.objects.filter(tournament=created, action="tournament_created", actor=user).count() == 1


def test_raising_the_capacity_moves_the_waiting_list_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    tournaments.update_tournament(tournament=small, actor=desk, capacity=5)
    assert [status_of(p[n]) for n in ("Walter", "Ulla", "Theo")] == [
        Status.REGISTERED,
        Status.REGISTERED,
        Status.WAITING,
    ]


# --- audit trail and version (the matrix's cases for this module; see test_audit.py) --------


def case_add_checklist_item(t: Tournament, a: Any) -> tuple[Call, str]:
    call = partial(tournaments.add_checklist_item, tournament=t, actor=a, label="Entry fee paid")
    return call, "checklist_item_added"


def case_remove_checklist_item(t: Tournament, a: Any) -> tuple[Call, str]:
    item = t.checklist_items.all()[0]
    call = partial(tournaments.remove_checklist_item, tournament=t, actor=a, item_id=item.pk)
    return call, "checklist_item_removed"


def case_add_registration_window(t: Tournament, a: Any) -> tuple[Call, str]:
    now = timezone.now()
    call = partial(
        tournaments.add_registration_window,
        tournament=t,
        actor=a,
        opens_at=now,
        closes_at=now + datetime.timedelta(hours=2),
    )
    return call, "registration_window_added"


def case_update_tournament(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(tournaments.update_tournament, tournament=t, actor=a, venue="Stadthalle"), "tournament_updated"


def case_save_settings(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(tournaments.save_settings, tournament=t, actor=a, venue="Festsaal"), "tournament_updated"


def case_set_scoring_table(t: Tournament, a: Any) -> tuple[Call, str]:
    assert not tournaments.scoring_locked(t)  # no card points recorded yet: the table may change
    call = partial(tournaments.set_scoring_table, tournament=t, actor=a, values=dict(uno.HOUSE_RULES_SCORING))
    return call, "scoring_table_changed"


def case_renew_public_key(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(tournaments.renew_public_key, tournament=t, actor=a, confirmed=True), "public_key_renewed"


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)
