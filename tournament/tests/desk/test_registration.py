"""Registration at the desk (``tournament.desk.registration``): one player at a
time, past capacity onto the waiting list, same-name and outside-window
confirmations, bad fields, translated errors; the CSV import (parsing every
dialect, reporting every bad row, all or nothing unless bad rows are skipped);
and the audit entry and version bump of each registration service.

Every refused action is checked to change nothing: no rows, no audit entry,
no version bump (``snapshot`` compares the whole desk state before and after).
"""

from __future__ import annotations

import datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.utils import timezone, translation

from tournament import enums
from tournament.desk import checkin, registration
from tournament.desk.players import name_key
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import AuditEntry, Player, RegistrationWindow, Tournament
from tournament.selectors import desk as desk_selectors
from tournament.tests.desk.helpers import (
    Call,
    assert_audited,
    audit_cases,
    check_in,
    register,
    snapshot,
    status_of,
    version,
)
from tournament.tests.factories import TournamentFactory

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


# --- register_player -----------------------------------------------------------------


def test_register_player_creates_a_registered_player(tournament, desk):  # type: ignore[no-untyped-def]
    assert not tournament.registration_windows.exists()  # no windows: registration always allowed
    before = version(tournament)

    result = register(tournament, desk, "  Anna  Berger ", club=" TSV Nord ", contact=" anna@example.org ")

    assert result.waitlisted is False
    player = Player.objects.get(pk=result.player.pk)
    assert player.tournament == tournament
    assert player.name == "Anna  Berger"
    assert player.club == "TSV Nord"
    assert player.contact == "anna@example.org"
    assert player.status == Status.REGISTERED
    assert player.start_number is None
    assert player.name_key == "anna berger"
    assert version(tournament) == before + 1
    entry = AuditEntry.objects.get(tournament=tournament, action="player_registered")
    assert entry.actor == desk
    assert entry.detail["player"] == player.pk


def test_register_past_capacity_goes_to_the_waiting_list(small, desk):  # type: ignore[no-untyped-def]
    first = [register(small, desk, name) for name in ("Anna", "Bernd", "Carla")]
    assert [r.waitlisted for r in first] == [False, False, False]

    fourth = register(small, desk, "Dora")
    fifth = register(small, desk, "Emil")

    assert fourth.waitlisted is True and fifth.waitlisted is True
    assert status_of(fourth.player) == Status.WAITING
    assert status_of(fifth.player) == Status.WAITING
    assert [p.name for p in desk_selectors.waiting_list(small)] == ["Dora", "Emil"]
    counters = desk_selectors.desk_counters(small)
    assert (counters.registered, counters.waiting, counters.free_places) == (3, 2, 0)


def test_checked_in_players_hold_places_and_withdrawn_do_not(small, desk):  # type: ignore[no-untyped-def]
    anna = register(small, desk, "Anna").player
    bernd = register(small, desk, "Bernd").player
    check_in(small, desk, anna)
    checkin.withdraw_player(tournament=small, actor=desk, player_id=bernd.pk, confirmed=True)

    assert register(small, desk, "Carla").waitlisted is False
    assert register(small, desk, "Dora").waitlisted is False  # Bernd's place is free again
    assert register(small, desk, "Emil").waitlisted is True  # Anna (checked in), Carla, Dora hold the 3 places


@pytest.mark.parametrize("second_name", ["Anna Berger", "anna berger", "  ANNA   BERGER ", "Anna\tBerger"])
def test_same_name_needs_confirmation_and_saves_nothing(tournament, desk, second_name):  # type: ignore[no-untyped-def]
    first = register(tournament, desk, "Anna Berger").player
    state = snapshot(tournament)

    with pytest.raises(NeedsConfirmation) as caught:
        register(tournament, desk, second_name)

    assert caught.value.kind == "same_name"
    assert second_name.strip() in caught.value.message
    assert snapshot(tournament) == state

    second = register(tournament, desk, second_name, confirm_same_name=True)
    assert second.player.pk != first.pk
    assert Player.objects.filter(tournament=tournament, name_key="anna berger").count() == 2


def test_same_name_folds_unicode_composition(tournament, desk):  # type: ignore[no-untyped-def]
    register(tournament, desk, "J\u00fcrgen M\u00fcller")  # precomposed ü
    with pytest.raises(NeedsConfirmation) as caught:
        register(tournament, desk, "Ju\u0308rgen Mu\u0308ller")  # u + combining diaeresis
    assert caught.value.kind == "same_name"


def test_same_name_in_another_tournament_is_no_conflict(tournament, desk):  # type: ignore[no-untyped-def]
    other = TournamentFactory()
    register(other, desk, "Anna Berger")
    assert register(tournament, desk, "Anna Berger").waitlisted is False


def test_registration_outside_every_window_needs_confirmation(tournament, desk):  # type: ignore[no-untyped-def]
    now = timezone.now()
    RegistrationWindow.objects.create(
        tournament=tournament, opens_at=now - datetime.timedelta(hours=3), closes_at=now - datetime.timedelta(hours=2)
    )
    RegistrationWindow.objects.create(
        tournament=tournament, opens_at=now + datetime.timedelta(days=1), closes_at=now + datetime.timedelta(days=2)
    )
    state = snapshot(tournament)

    with pytest.raises(NeedsConfirmation) as caught:
        register(tournament, desk, "Anna")

    assert caught.value.kind == "outside_window"
    assert snapshot(tournament) == state

    result = register(tournament, desk, "Anna", confirm_outside_window=True)
    assert Player.objects.get(pk=result.player.pk).status == Status.REGISTERED


def test_registration_inside_a_window_needs_no_confirmation(tournament, desk):  # type: ignore[no-untyped-def]
    now = timezone.now()
    RegistrationWindow.objects.create(
        tournament=tournament, opens_at=now - datetime.timedelta(hours=3), closes_at=now - datetime.timedelta(hours=2)
    )
    RegistrationWindow.objects.create(
        tournament=tournament, opens_at=now - datetime.timedelta(minutes=5), closes_at=now + datetime.timedelta(hours=1)
    )
    assert register(tournament, desk, "Anna").waitlisted is False


def test_same_name_and_outside_window_need_both_confirmations(tournament, desk):  # type: ignore[no-untyped-def]
    register(tournament, desk, "Anna")
    now = timezone.now()
    RegistrationWindow.objects.create(
        tournament=tournament, opens_at=now - datetime.timedelta(hours=3), closes_at=now - datetime.timedelta(hours=2)
    )
    with pytest.raises(NeedsConfirmation) as caught:
        register(tournament, desk, "anna", confirm_outside_window=True)
    assert caught.value.kind == "same_name"
    with pytest.raises(NeedsConfirmation) as caught:
        register(tournament, desk, "anna", confirm_same_name=True)
    assert caught.value.kind == "outside_window"
    register(tournament, desk, "anna", confirm_same_name=True, confirm_outside_window=True)
    assert Player.objects.filter(tournament=tournament).count() == 2


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"name": ""}, "missing"),
        ({"name": "   \t "}, "missing"),
        ({"name": "x" * (registration.NAME_MAX + 1)}, str(registration.NAME_MAX)),
        ({"name": "Anna", "club": "c" * (registration.CLUB_MAX + 1)}, "club"),
        ({"name": "Anna", "contact": "c" * (registration.CONTACT_MAX + 1)}, "contact"),
    ],
)
def test_bad_player_fields_raise_and_save_nothing(tournament, desk, fields, fragment):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    with pytest.raises(ServiceError) as caught:
        registration.register_player(tournament=tournament, actor=desk, **fields)
    assert not isinstance(caught.value, NeedsConfirmation)
    assert fragment in caught.value.message
    assert snapshot(tournament) == state


def test_name_of_exactly_the_maximum_length_is_accepted(tournament, desk):  # type: ignore[no-untyped-def]
    name = "n" * registration.NAME_MAX
    assert Player.objects.get(pk=register(tournament, desk, name).player.pk).name == name


def test_registration_into_a_finished_tournament_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    tournament.status = enums.TournamentStatus.FINISHED
    tournament.save()
    state = snapshot(tournament)
    with pytest.raises(ServiceError) as caught:
        register(tournament, desk, "Anna", confirm_same_name=True, confirm_outside_window=True)
    assert not isinstance(caught.value, NeedsConfirmation)
    assert "finished" in caught.value.message
    assert snapshot(tournament) == state


# --- translated messages ------------------------------------------------------------------


def _project_german_catalogue() -> bool:
    roots = [Path(path) for path in settings.LOCALE_PATHS]
    base = Path(settings.BASE_DIR).resolve()
    roots += [
        Path(app.path) / "locale"
        for app in apps.get_app_configs()  # the project's apps, not Django's or the venv's
        if Path(app.path).resolve().is_relative_to(base) and "site-packages" not in Path(app.path).parts
    ]
    return any((root / "de" / "LC_MESSAGES" / "django.mo").exists() for root in roots)


def test_service_errors_are_translated(tournament, desk):  # type: ignore[no-untyped-def]
    def message() -> str:
        with pytest.raises(ServiceError) as caught:
            register(tournament, desk, "   ")
        return caught.value.message

    with translation.override("en"):
        english = message()
    assert english == "The name is missing."
    if not _project_german_catalogue():
        pytest.skip("no compiled German catalogue (locale/de/LC_MESSAGES/django.mo) yet")
    with translation.override("de"):
        german = message()
    assert german != english


# --- CSV import ---------------------------------------------------------------------------


def test_parse_comma_file_without_header() -> None:
    report = registration.parse_player_csv(
        'Anna Berger,TSV Nord,anna@example.org\n"Berger, Bernd",,\nCarla\n', existing_keys=set()
    )
    assert report.errors == []
    assert [(r.line, r.name, r.club, r.contact) for r in report.rows] == [
        (1, "Anna Berger", "TSV Nord", "anna@example.org"),
        (2, "Berger, Bernd", "", ""),
        (3, "Carla", "", ""),
    ]


def test_parse_semicolon_file_with_german_header_and_bom() -> None:
    text = "\ufeffName;Verein;Kontakt\r\nMüller, Hans;UNO Club Süd;0664 123\r\nAnna;;\r\n"
    report = registration.parse_player_csv(text, existing_keys=set())
    assert report.errors == []
    assert [(r.line, r.name, r.club, r.contact) for r in report.rows] == [
        (2, "Müller, Hans", "UNO Club Süd", "0664 123"),
        (3, "Anna", "", ""),
    ]


@pytest.mark.parametrize(
    "header",
    ["Nome;Società;Contatto", "NOME;SOCIETÀ;CONTATTO", "Spieler;Verein;E-Mail", "name;club;contact"],
)
def test_parse_header_names_in_every_language(header: str) -> None:
    report = registration.parse_player_csv(f"{header}\nGiulia Rossi;Circolo UNO;giulia@example.it\n", set())
    assert report.errors == []
    assert [(r.line, r.name, r.club, r.contact) for r in report.rows] == [
        (2, "Giulia Rossi", "Circolo UNO", "giulia@example.it")
    ]


def test_parse_header_gives_the_column_order() -> None:
    report = registration.parse_player_csv("Verein,Name\nTSV Nord,Anna\n", set())
    assert report.errors == []
    assert [(r.name, r.club, r.contact) for r in report.rows] == [("Anna", "TSV Nord", "")]


def test_parse_header_after_a_blank_first_line() -> None:
    report = registration.parse_player_csv("\nName;Verein\nAnna;TSV Nord\n", set())
    assert report.errors == []
    assert [(r.line, r.name, r.club) for r in report.rows] == [(3, "Anna", "TSV Nord")]


def test_parse_unknown_header_column_is_reported() -> None:
    report = registration.parse_player_csv("Name;Shoe size\nAnna;42\n", set())
    assert report.rows == []
    assert report.bad_lines == [1]


BAD_FILE = "\n".join(
    [
        "Name;Verein;Kontakt",  # 1 header
        "Anna Berger;TSV Nord;anna@example.org",  # 2 good
        ";TSV Nord;nobody@example.org",  # 3 name missing
        "Bernd;TSV Nord;bernd@example.org;extra",  # 4 too many columns
        "x" * (registration.NAME_MAX + 1) + ";;",  # 5 name too long
        "",  # 6 blank: skipped, still counted
        "  anna   BERGER ;;",  # 7 same name as line 2
        "Existing Player;;",  # 8 already registered
        "Carla;;",  # 9 good
    ]
)


def test_parse_reports_every_bad_row_with_its_line() -> None:
    report = registration.parse_player_csv(BAD_FILE, existing_keys={name_key("Existing Player")})

    errors = dict(report.errors)
    assert report.bad_lines == [3, 4, 5, 7, 8]
    assert len(report.errors) == 5
    assert "missing" in errors[3]
    assert "columns" in errors[4]
    assert str(registration.NAME_MAX) in errors[5]
    assert "line 2" in errors[7]
    assert "already registered" in errors[8]
    assert [(r.line, r.name) for r in report.rows] == [(2, "Anna Berger"), (9, "Carla")]


def test_parse_gives_the_first_line_of_a_row_with_a_multiline_cell() -> None:
    report = registration.parse_player_csv('Anna,"Club\nwith two lines",x\n,no name,\nBernd,,\n', set())
    assert [(r.line, r.name, r.club) for r in report.rows] == [(1, "Anna", "Club\nwith two lines"), (4, "Bernd", "")]
    assert report.bad_lines == [3]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_parse_any_line_ending(newline: str) -> None:
    """Excel for Mac's "CSV (Macintosh)" ends lines with a lone CR."""
    text = newline.join(["Name;Verein", "Anna;TSV Nord", ";no name", "Bernd;"]) + newline
    report = registration.parse_player_csv(text, set())
    assert [(r.line, r.name, r.club) for r in report.rows] == [(2, "Anna", "TSV Nord"), (4, "Bernd", "")]
    assert report.bad_lines == [3]


def test_an_unreadable_file_is_an_error_and_imports_nothing(tournament, desk):  # type: ignore[no-untyped-def]
    """A quote left open swallows the rest of the file into one huge cell."""
    text = 'Anna;TSV\nBernd;TSV\n"Carla;' + "x" * 200_000 + "\nDora;TSV\n"
    state = snapshot(tournament)
    report = registration.import_players_csv(tournament=tournament, actor=desk, text=text, skip_bad_rows=True)
    assert report.applied is False
    assert report.rows == []
    assert report.bad_lines == [3]
    assert snapshot(tournament) == state


@pytest.fixture
def with_existing(tournament, desk):  # type: ignore[no-untyped-def]
    return register(tournament, desk, "Existing Player").player


def test_import_with_bad_rows_imports_nothing(tournament, desk, with_existing):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)

    report = registration.import_players_csv(tournament=tournament, actor=desk, text=BAD_FILE)

    assert report.applied is False
    assert report.imported == 0
    assert report.bad_lines == [3, 4, 5, 7, 8]
    assert snapshot(tournament) == state


def test_import_skipping_bad_rows_imports_only_the_good_rows(tournament, desk, with_existing):  # type: ignore[no-untyped-def]
    before = version(tournament)

    report = registration.import_players_csv(tournament=tournament, actor=desk, text=BAD_FILE, skip_bad_rows=True)

    assert report.applied is True
    assert report.imported == 2
    assert report.waitlisted == 0
    names = set(Player.objects.filter(tournament=tournament).values_list("name", flat=True))
    assert names == {"Existing Player", "Anna Berger", "Carla"}
    anna = Player.objects.get(tournament=tournament, name="Anna Berger")
    assert (anna.club, anna.contact, anna.status, anna.name_key) == (
        "TSV Nord",
        "anna@example.org",
        Status.REGISTERED,
        "anna berger",
    )
    assert version(tournament) > before
    entry = AuditEntry.objects.get(tournament=tournament, action="players_imported")
    assert entry.actor == desk
    assert entry.detail == {"count": 2, "skipped_lines": [3, 4, 5, 7, 8]}


def test_import_of_a_clean_file(tournament, desk):  # type: ignore[no-untyped-def]
    report = registration.import_players_csv(tournament=tournament, actor=desk, text="Anna;X\nBernd;Y\nCarla;Z\n")
    assert (report.applied, report.imported, report.errors) == (True, 3, [])
    assert Player.objects.filter(tournament=tournament, status=Status.REGISTERED).count() == 3


def test_import_past_capacity_fills_the_waiting_list(small, desk):  # type: ignore[no-untyped-def]
    register(small, desk, "Already Here")
    text = "\n".join(["Anna", "Bernd", "Carla", "Dora", "Emil"])

    report = registration.import_players_csv(tournament=small, actor=desk, text=text)

    assert (report.imported, report.waitlisted) == (5, 3)
    assert set(Player.objects.filter(tournament=small, status=Status.REGISTERED).values_list("name", flat=True)) == {
        "Already Here",
        "Anna",
        "Bernd",
    }
    assert [p.name for p in desk_selectors.waiting_list(small)] == ["Carla", "Dora", "Emil"]


@pytest.mark.parametrize("text", ["", "   \n\n  ", "\ufeff", "\ufeff\r\n"])
def test_import_of_an_empty_file_is_an_error(tournament, desk, text):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    report = registration.import_players_csv(tournament=tournament, actor=desk, text=text, skip_bad_rows=True)
    assert report.applied is False
    assert report.rows == []
    assert len(report.errors) == 1
    assert "empty" in report.errors[0][1]
    assert snapshot(tournament) == state


def test_import_of_a_header_only_file_is_an_error(tournament, desk):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    report = registration.import_players_csv(tournament=tournament, actor=desk, text="Name;Verein;Kontakt\n;;\n")
    assert report.applied is False
    assert report.errors and report.rows == []
    assert snapshot(tournament) == state


# --- audit trail and version (the matrix's cases for this module; see test_audit.py) --------


def case_register_player(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(register, t, a, "Neu"), "player_registered"


def case_import_players_csv(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(registration.import_players_csv, tournament=t, actor=a, text="Anna\nBernd\n"), "players_imported"


def case_set_fixed_seat(t: Tournament, a: Any) -> tuple[Call, str]:
    player = register(t, a, "Rolli").player
    return partial(
        registration.set_fixed_seat, tournament=t, actor=a, player_id=player.pk, number=5, need="wheelchair"
    ), "fixed_seat_set"


def case_set_fee_paid(t: Tournament, a: Any) -> tuple[Call, str]:
    player = register(t, a, "Zahlt").player
    return partial(registration.set_fee_paid, tournament=t, actor=a, player_id=player.pk, paid=True), "fee_paid"


def case_set_fee_paid_undone(t: Tournament, a: Any) -> tuple[Call, str]:
    player = register(t, a, "Zahlt nicht").player
    registration.set_fee_paid(tournament=t, actor=a, player_id=player.pk, paid=True)
    return partial(registration.set_fee_paid, tournament=t, actor=a, player_id=player.pk, paid=False), "fee_paid_undone"


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_fee_paid_and_the_checklists_entry_fee_paid_are_one_fact(make_user, language: str) -> None:
    """The row's "Fee paid" ticks the checklist's "Entry fee paid" (stored in the language the
    organiser set it up in) and unticking either clears both; a tournament without that item
    keeps only the mark."""
    from tournament.models import ChecklistItem, PlayerCheck

    actor = make_user()
    tournament = TournamentFactory(checklist=[], capacity=10)
    with translation.override(language):
        fee = ChecklistItem.objects.create(tournament=tournament, label=translation.gettext("Entry fee paid"))
    other = ChecklistItem.objects.create(tournament=tournament, label="Own deck checked", position=1)
    player = registration.register_player(tournament=tournament, actor=actor, name="Ada", club="", contact="").player

    def state() -> tuple[bool, set[int]]:
        player.refresh_from_db()
        ticked = set(PlayerCheck.objects.filter(player=player).values_list("item_id", flat=True))
        return player.fee_paid_at is not None, ticked

    registration.set_fee_paid(tournament=tournament, actor=actor, player_id=player.pk, paid=True)
    assert state() == (True, {fee.pk})
    checkin.set_check(tournament=tournament, actor=actor, player_id=player.pk, item_id=fee.pk, done=False)
    assert state() == (False, set())
    checkin.set_check(tournament=tournament, actor=actor, player_id=player.pk, item_id=fee.pk, done=True)
    assert state() == (True, {fee.pk})
    checkin.set_check(tournament=tournament, actor=actor, player_id=player.pk, item_id=other.pk, done=True)
    registration.set_fee_paid(tournament=tournament, actor=actor, player_id=player.pk, paid=False)
    assert state() == (False, {other.pk})
    actions = list(AuditEntry.objects.filter(tournament=tournament, player=player).values_list("action", flat=True))
    assert actions.count("fee_paid") == 2 and actions.count("fee_paid_undone") == 2


@pytest.mark.django_db
def test_fee_paid_without_the_checklist_item_keeps_only_the_mark(make_user) -> None:
    from tournament.models import PlayerCheck

    actor = make_user()
    tournament = TournamentFactory(checklist=[], capacity=10)
    player = registration.register_player(tournament=tournament, actor=actor, name="Ada", club="", contact="").player
    registration.set_fee_paid(tournament=tournament, actor=actor, player_id=player.pk, paid=True)
    player.refresh_from_db()
    assert player.fee_paid_at is not None and not PlayerCheck.objects.filter(player=player).exists()
