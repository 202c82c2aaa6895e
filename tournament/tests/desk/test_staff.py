"""Staff roles at the desk (``tournament.desk.staff``): giving a role (creating
the account when needed) and taking it back each write an audit entry and bump
the version.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tournament import enums
from tournament.desk import staff
from tournament.models import StaffRole, Tournament
from tournament.tests.desk.helpers import Call, assert_audited, audit_cases
from tournament.tests.factories import UserFactory

pytestmark = pytest.mark.core


# --- audit trail and version (the matrix's cases for this module; see test_audit.py) --------


def case_add_staff(t: Tournament, a: Any) -> tuple[Call, str]:
    call = partial(
        staff.add_staff, tournament=t, actor=a, username="new-referee", role=enums.Role.REFEREE, password="pw-123456"
    )
    return call, "staff_added"


def case_remove_staff(t: Tournament, a: Any) -> tuple[Call, str]:
    role = StaffRole.objects.create(tournament=t, user=UserFactory(), role=enums.Role.REFEREE)
    return partial(staff.remove_staff, tournament=t, actor=a, staff_id=role.pk), "staff_removed"


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)
