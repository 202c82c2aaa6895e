"""The desk's audit trail across its modules.

Every public service of every desk module (``tournament.desk.tournaments``,
``.staff``, ``.registration``, ``.checkin``, ``.start_numbers``, ``.tombola``) must have a
case in the audit matrix: the ``case_<service>`` functions next to the tests of
its module (``test_<module>.py``), each checked by that file's
``test_every_service_writes_an_audit_entry_and_bumps_the_version`` (one audit
entry by the actor, in the tournament, and a version bump). Also here: a
withdrawal that moves the waiting list up (``checkin`` and ``players``) is
audited twice and bumps the version once.
"""

from __future__ import annotations

import pkgutil
from types import ModuleType

import pytest

from tournament import desk as desk_package
from tournament.desk import checkin, register, registration, staff, start_numbers, tombola, tournaments
from tournament.models import AuditEntry
from tournament.tests.desk import (
    test_checkin,
    test_register,
    test_registration,
    test_staff,
    test_start_numbers,
    test_tombola,
    test_tournaments,
)
from tournament.tests.desk.helpers import Case, version

pytestmark = pytest.mark.core

# The source module -> the audit cases of its services (in the test file of the same name).
CASES_BY_MODULE: dict[ModuleType, dict[str, Case]] = {
    tournaments: test_tournaments.AUDIT_CASES,
    staff: test_staff.AUDIT_CASES,
    registration: test_registration.AUDIT_CASES,
    checkin: test_checkin.AUDIT_CASES,
    start_numbers: test_start_numbers.AUDIT_CASES,
    tombola: test_tombola.AUDIT_CASES,
    register: test_register.AUDIT_CASES,
}

# Public functions of the desk modules that are no services (they write no audit entry of their own).
NOT_SERVICES = {
    "name_key": "pure: folds a name to spot a second registration (tournament.desk.players)",
    "parse_player_csv": "pure: checks a CSV and writes nothing; tested in test_registration.py",
    "decode_player_csv": "pure: turns an uploaded file's bytes into text; tested in test_import_hostile.py",
    "date_problem": "pure: the refusal for a date outside the years a tournament may have",
    "create_tournament": "no tournament (and no version) before it; its audit entry is tested in test_tournaments.py",
    "scoring_locked": "a read: whether set_scoring_table would refuse",
    "clean_prize_name": "pure: a tombola prize's name as shown, or the refusal (the form uses it too)",
    # The club's register (issue 33): a club's own writes are audited without a tournament (no version to
    # bump), tested in test_register.py; the rest are parts of the registration's and the copy's writes.
    "create_club": "a club's write: audited club_created without a tournament (test_register.py)",
    "rename_club": "a club's write: audited club_renamed without a tournament (test_register_pages.py)",
    "merge_persons": "a club's write: audited person_merged without a tournament (test_register.py)",
    "club_for": "the club of a new tournament: create_club's audit, or none for a club chosen",
    "runs_club": "a read: whether the user is one of the club's organisers",
    "lock_club": "a lock taken inside the caller's transaction",
    "touch_register": "raises the register's version inside the caller's write",
    "kept_person": "a read: the person a merged entry stands for",
    "split_contact": "pure: the desk's contact as e-mail or phone",
    "person_for_desk": "part of register_player's write (its audit entry is the registration's)",
    "person_for_sign_up": "part of the sign-up's write (its audit entry is the registration's)",
    "copy_sources_refusal": "a read: why copy_players is not offered",
    # The register, part two (issue 33): the club's own writes, audited without a tournament, tested in
    # test_register_edits.py; the import's links are part of import_players_csv's write.
    "edit_person": "a club's write: audited person_edited without a tournament (test_register_edits.py)",
    "dismiss_duplicate": "a club's write: audited duplicate_dismissed without a tournament (test_register_edits.py)",
    "add_organiser": "a club's write: audited organiser_added without a tournament (test_register_edits.py)",
    "remove_organiser": "a club's write: audited organiser_removed without a tournament (test_register_edits.py)",
    "people_for_import": "part of import_players_csv's write (its audit entries are the registrations')",
    "person_field_problems": "pure: why an edited register entry's field cannot be saved (the form uses it too)",
}

# Desk modules without services of their own.
NOT_SERVICE_MODULES = {
    "players": "shared by registration and check-in; its functions expect the caller to hold the tournament lock",
    "series": "a club's series writes (create_series, update_series): audited without a tournament, as the"
    " register's own writes are; their audit entries are tested in tests/views/test_season_pages.py",
}


def public_functions(module: ModuleType) -> set[str]:
    """The public functions defined in ``module`` (not imported into it; no classes)."""
    return {
        name
        for name, value in vars(module).items()
        if callable(value)
        and not name.startswith("_")
        and getattr(value, "__module__", "") == module.__name__
        and not isinstance(value, type)
    }


def test_every_desk_module_is_in_the_matrix() -> None:
    """A new desk module must get its audit cases (and a line in CASES_BY_MODULE)."""
    modules = {info.name for info in pkgutil.iter_modules(desk_package.__path__)}
    listed = {module.__name__.rpartition(".")[2] for module in CASES_BY_MODULE}
    assert modules == listed | set(NOT_SERVICE_MODULES)
    # Every function the package exposes comes from one of the modules.
    exposed = {name for name in desk_package.__all__ if not isinstance(getattr(desk_package, name), type)}
    defined = set().union(*(public_functions(module) for module in CASES_BY_MODULE))
    assert exposed - defined - set(NOT_SERVICES) == set()


def test_every_service_has_an_audit_case() -> None:
    """A new public service in a desk module must get a case in its module's test file."""
    missing = {}
    strays = {}
    for module, cases in CASES_BY_MODULE.items():
        public = public_functions(module)
        covered = {name.removesuffix("_undone") for name in cases}
        missing[module.__name__] = public - set(NOT_SERVICES) - covered
        strays[module.__name__] = covered - public  # a case for a service of another module (or none)
    assert missing == {module.__name__: set() for module in CASES_BY_MODULE}
    assert strays == {module.__name__: set() for module in CASES_BY_MODULE}


def test_moving_up_is_audited_and_bumps_once_per_action(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    before = version(small)
    checkin.withdraw_player(tournament=small, actor=desk, player_id=full_with_waiting["Xaver"].pk, confirmed=True)
    assert version(small) == before + 1
    actions = list(AuditEntry.objects.filter(tournament=small).order_by("pk").values_list("action", flat=True))
    assert actions[-2:] == ["player_withdrawn", "player_moved_up"]
