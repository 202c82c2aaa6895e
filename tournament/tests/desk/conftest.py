"""Fixtures of the desk service tests: the desk user, a small tournament, a full one with a waiting list."""

from __future__ import annotations

import pytest

# The helpers hold the audit matrix's assertions: rewrite them for readable failures.
pytest.register_assert_rewrite("tournament.tests.desk.helpers")

from tournament import enums  # noqa: E402
from tournament.models import StaffRole  # noqa: E402
from tournament.tests.desk.helpers import register  # noqa: E402
from tournament.tests.factories import TournamentFactory  # noqa: E402


@pytest.fixture
def desk(tournament, staff_user):  # type: ignore[no-untyped-def]
    """A user with the desk role in ``tournament``."""
    return staff_user(tournament, enums.Role.DESK)


@pytest.fixture
def small(desk):  # type: ignore[no-untyped-def]
    """A tournament with 3 places, no checklist, and the desk user holding a role in it."""
    tournament = TournamentFactory(capacity=3, checklist=[])
    StaffRole.objects.create(tournament=tournament, user=desk, role=enums.Role.DESK)
    return tournament


@pytest.fixture
def full_with_waiting(small, desk):  # type: ignore[no-untyped-def]
    """3 places taken (Xaver, Yvonne, Zora); waiting in order of registration:
    Walter, Ulla, Theo (reverse alphabetical, so name order would be wrong)."""
    names = ["Xaver", "Yvonne", "Zora", "Walter", "Ulla", "Theo"]
    return {name: register(small, desk, name).player for name in names}
