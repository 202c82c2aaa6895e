"""Service-level tests of the registration desk: registration, waiting list,
CSV import, check-in, start-number draw, audit trail and translated errors.

Every refused action is checked to change nothing: no rows, no audit entry,
no version bump (``snapshot`` compares the whole desk state before and after).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.utils import timezone, translation

from tournament import draws, enums, selectors, services
from tournament.models import (
    AuditEntry,
    CheckIn,
    ChecklistItem,
    Player,
    PlayerCheck,
    RegistrationWindow,
    StaffRole,
    StartNumberDraw,
    Tournament,
)
from tournament.tests.factories import PlayerFactory, TournamentFactory, UserFactory, tick_all

pytestmark = pytest.mark.core

Status = enums.PlayerStatus


# --- helpers ------------------------------------------------------------------------


@pytest.fixture
def desk(tournament, staff_user):  # type: ignore[no-untyped-def]
    return staff_user(tournament, enums.Role.DESK)


@pytest.fixture
def small(desk):  # type: ignore[no-untyped-def]
    """A tournament with 3 places, no checklist, and the desk user holding a role in it."""
    tournament = TournamentFactory(capacity=3, checklist=[])
    StaffRole.objects.create(tournament=tournament, user=desk, role=enums.Role.DESK)
    return tournament


def register(tournament: Tournament, actor: Any, name: str, **kwargs: Any) -> services.Registration:
    return services.register_player(tournament=tournament, actor=actor, name=name, **kwargs)


def check_in(tournament: Tournament, actor: Any, player: Player, **kwargs: Any) -> services.CheckInResult:
    return services.check_in_player(tournament=tournament, actor=actor, player_id=player.pk, **kwargs)


def version(tournament: Tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)


def status_of(player: Player) -> str:
    return Player.objects.values_list("status", flat=True).get(pk=player.pk)


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """Everything a desk action may change, to prove a refused action changed nothing."""
    return {
        "version": version(tournament),
        "players": list(
            Player.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("pk", "name", "status", "start_number", "status_changed_at")
        ),
        "check_ins": list(
            CheckIn.objects.filter(player__tournament=tournament)
            .order_by("pk")
            .values_list("pk", "player_id", "override", "cancelled_at")
        ),
        "checks": list(PlayerCheck.objects.filter(player__tournament=tournament).order_by("pk").values_list("pk")),
        "draws": list(StartNumberDraw.objects.filter(tournament=tournament).values_list("pk", "seed")),
        "audit": AuditEntry.objects.filter(tournament=tournament).count(),
    }


def numbers_of(tournament: Tournament) -> dict[int, int | None]:
    return dict(Player.objects.filter(tournament=tournament).values_list("pk", "start_number"))


def checked_in_players(tournament: Tournament, actor: Any, count: int) -> list[Player]:
    players = PlayerFactory.create_batch(count, tournament=tournament)
    for player in players:
        check_in(tournament, actor, player, override=True)
    return players


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
    assert [p.name for p in selectors.waiting_list(small)] == ["Dora", "Emil"]
    counters = selectors.desk_counters(small)
    assert (counters.registered, counters.waiting, counters.free_places) == (3, 2, 0)


def test_checked_in_players_hold_places_and_withdrawn_do_not(small, desk):  # type: ignore[no-untyped-def]
    anna = register(small, desk, "Anna").player
    bernd = register(small, desk, "Bernd").player
    check_in(small, desk, anna)
    services.withdraw_player(tournament=small, actor=desk, player_id=bernd.pk)

    assert register(small, desk, "Carla").waitlisted is False
    assert register(small, desk, "Dora").waitlisted is False  # Bernd's place is free again
    assert register(small, desk, "Emil").waitlisted is True  # Anna (checked in), Carla, Dora hold the 3 places


@pytest.mark.parametrize("second_name", ["Anna Berger", "anna berger", "  ANNA   BERGER ", "Anna\tBerger"])
def test_same_name_needs_confirmation_and_saves_nothing(tournament, desk, second_name):  # type: ignore[no-untyped-def]
    first = register(tournament, desk, "Anna Berger").player
    state = snapshot(tournament)

    with pytest.raises(services.NeedsConfirmation) as caught:
        register(tournament, desk, second_name)

    assert caught.value.kind == "same_name"
    assert second_name.strip() in caught.value.message
    assert snapshot(tournament) == state

    second = register(tournament, desk, second_name, confirm_same_name=True)
    assert second.player.pk != first.pk
    assert Player.objects.filter(tournament=tournament, name_key="anna berger").count() == 2


def test_same_name_folds_unicode_composition(tournament, desk):  # type: ignore[no-untyped-def]
    register(tournament, desk, "J\u00fcrgen M\u00fcller")  # precomposed ü
    with pytest.raises(services.NeedsConfirmation) as caught:
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

    with pytest.raises(services.NeedsConfirmation) as caught:
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
    with pytest.raises(services.NeedsConfirmation) as caught:
        register(tournament, desk, "anna", confirm_outside_window=True)
    assert caught.value.kind == "same_name"
    with pytest.raises(services.NeedsConfirmation) as caught:
        register(tournament, desk, "anna", confirm_same_name=True)
    assert caught.value.kind == "outside_window"
    register(tournament, desk, "anna", confirm_same_name=True, confirm_outside_window=True)
    assert Player.objects.filter(tournament=tournament).count() == 2


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"name": ""}, "missing"),
        ({"name": "   \t "}, "missing"),
        ({"name": "x" * (services.NAME_MAX + 1)}, str(services.NAME_MAX)),
        ({"name": "Anna", "club": "c" * (services.CLUB_MAX + 1)}, "club"),
        ({"name": "Anna", "contact": "c" * (services.CONTACT_MAX + 1)}, "contact"),
    ],
)
def test_bad_player_fields_raise_and_save_nothing(tournament, desk, fields, fragment):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    with pytest.raises(services.ServiceError) as caught:
        services.register_player(tournament=tournament, actor=desk, **fields)
    assert not isinstance(caught.value, services.NeedsConfirmation)
    assert fragment in caught.value.message
    assert snapshot(tournament) == state


def test_name_of_exactly_the_maximum_length_is_accepted(tournament, desk):  # type: ignore[no-untyped-def]
    name = "n" * services.NAME_MAX
    assert Player.objects.get(pk=register(tournament, desk, name).player.pk).name == name


def test_registration_into_a_finished_tournament_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    tournament.status = enums.TournamentStatus.FINISHED
    tournament.save()
    state = snapshot(tournament)
    with pytest.raises(services.ServiceError) as caught:
        register(tournament, desk, "Anna", confirm_same_name=True, confirm_outside_window=True)
    assert not isinstance(caught.value, services.NeedsConfirmation)
    assert "finished" in caught.value.message
    assert snapshot(tournament) == state


# --- waiting list -----------------------------------------------------------------------


@pytest.fixture
def full_with_waiting(small, desk):  # type: ignore[no-untyped-def]
    """3 places taken (Xaver, Yvonne, Zora); waiting in order of registration:
    Walter, Ulla, Theo (reverse alphabetical, so name order would be wrong)."""
    names = ["Xaver", "Yvonne", "Zora", "Walter", "Ulla", "Theo"]
    return {name: register(small, desk, name).player for name in names}


def test_withdrawal_moves_the_first_waiting_player_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    before = version(small)

    services.withdraw_player(tournament=small, actor=desk, player_id=p["Yvonne"].pk)

    assert status_of(p["Yvonne"]) == Status.WITHDRAWN
    assert status_of(p["Walter"]) == Status.REGISTERED
    assert [w.name for w in selectors.waiting_list(small)] == ["Ulla", "Theo"]
    assert version(small) > before
    moved = AuditEntry.objects.get(tournament=small, action="player_moved_up")
    assert moved.detail["player"] == p["Walter"].pk
    assert moved.actor == desk


def test_no_show_moves_the_waiting_list_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    services.mark_no_show(tournament=small, actor=desk, player_id=p["Zora"].pk)
    assert status_of(p["Zora"]) == Status.NO_SHOW
    assert status_of(p["Walter"]) == Status.REGISTERED
    assert status_of(p["Ulla"]) == Status.WAITING


def test_withdrawing_a_checked_in_player_moves_the_waiting_list_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    check_in(small, desk, p["Xaver"])
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)

    assert status_of(p["Xaver"]) == Status.WITHDRAWN
    assert not CheckIn.objects.filter(player=p["Xaver"], cancelled_at__isnull=True).exists()
    assert status_of(p["Walter"]) == Status.REGISTERED


def test_waiting_list_moves_up_in_order_of_registration(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)
    services.mark_no_show(tournament=small, actor=desk, player_id=p["Yvonne"].pk)
    assert [status_of(p[n]) for n in ("Walter", "Ulla", "Theo")] == [
        Status.REGISTERED,
        Status.REGISTERED,
        Status.WAITING,
    ]
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Zora"].pk)
    assert status_of(p["Theo"]) == Status.REGISTERED
    promoted = AuditEntry.objects.filter(tournament=small, action="player_moved_up").order_by("pk")
    assert [entry.detail["player"] for entry in promoted] == [p["Walter"].pk, p["Ulla"].pk, p["Theo"].pk]


def test_leaving_the_waiting_list_promotes_nobody(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Walter"].pk)
    services.mark_no_show(tournament=small, actor=desk, player_id=p["Ulla"].pk)
    assert status_of(p["Theo"]) == Status.WAITING
    assert selectors.desk_counters(small).registered == 3
    assert not AuditEntry.objects.filter(tournament=small, action="player_moved_up").exists()


def test_no_show_of_a_checked_in_player_is_refused(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    check_in(small, desk, p["Xaver"])
    state = snapshot(small)
    with pytest.raises(services.ServiceError):
        services.mark_no_show(tournament=small, actor=desk, player_id=p["Xaver"].pk)
    assert snapshot(small) == state


def test_reinstating_when_full_puts_the_player_on_the_waiting_list(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)  # Walter moves up: full again

    player = services.reinstate_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)

    assert player.status == Status.WAITING
    assert status_of(p["Xaver"]) == Status.WAITING
    assert selectors.desk_counters(small).registered == 3


def test_a_reinstated_player_joins_the_end_of_the_waiting_list(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    """Withdrawing gives the place up: back on the list, the player queues behind
    those already waiting, however early the first registration was."""
    p = full_with_waiting
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)  # Walter moves up
    services.reinstate_player(tournament=small, actor=desk, player_id=p["Xaver"].pk)

    assert [w.name for w in selectors.waiting_list(small)] == ["Ulla", "Theo", "Xaver"]
    services.withdraw_player(tournament=small, actor=desk, player_id=p["Yvonne"].pk)
    assert status_of(p["Ulla"]) == Status.REGISTERED
    assert status_of(p["Xaver"]) == Status.WAITING


def test_reinstating_with_a_free_place_registers_the_player(small, desk):  # type: ignore[no-untyped-def]
    anna = register(small, desk, "Anna").player
    services.withdraw_player(tournament=small, actor=desk, player_id=anna.pk)
    assert services.reinstate_player(tournament=small, actor=desk, player_id=anna.pk).status == Status.REGISTERED
    with pytest.raises(services.ServiceError):
        services.reinstate_player(tournament=small, actor=desk, player_id=anna.pk)


def test_raising_the_capacity_moves_the_waiting_list_up(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    p = full_with_waiting
    services.update_tournament(tournament=small, actor=desk, capacity=5)
    assert [status_of(p[n]) for n in ("Walter", "Ulla", "Theo")] == [
        Status.REGISTERED,
        Status.REGISTERED,
        Status.WAITING,
    ]


# --- CSV import ---------------------------------------------------------------------------


def test_parse_comma_file_without_header() -> None:
    report = services.parse_player_csv(
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
    report = services.parse_player_csv(text, existing_keys=set())
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
    report = services.parse_player_csv(f"{header}\nGiulia Rossi;Circolo UNO;giulia@example.it\n", set())
    assert report.errors == []
    assert [(r.line, r.name, r.club, r.contact) for r in report.rows] == [
        (2, "Giulia Rossi", "Circolo UNO", "giulia@example.it")
    ]


def test_parse_header_gives_the_column_order() -> None:
    report = services.parse_player_csv("Verein,Name\nTSV Nord,Anna\n", set())
    assert report.errors == []
    assert [(r.name, r.club, r.contact) for r in report.rows] == [("Anna", "TSV Nord", "")]


def test_parse_header_after_a_blank_first_line() -> None:
    report = services.parse_player_csv("\nName;Verein\nAnna;TSV Nord\n", set())
    assert report.errors == []
    assert [(r.line, r.name, r.club) for r in report.rows] == [(3, "Anna", "TSV Nord")]


def test_parse_unknown_header_column_is_reported() -> None:
    report = services.parse_player_csv("Name;Shoe size\nAnna;42\n", set())
    assert report.rows == []
    assert report.bad_lines == [1]


BAD_FILE = "\n".join(
    [
        "Name;Verein;Kontakt",  # 1 header
        "Anna Berger;TSV Nord;anna@example.org",  # 2 good
        ";TSV Nord;nobody@example.org",  # 3 name missing
        "Bernd;TSV Nord;bernd@example.org;extra",  # 4 too many columns
        "x" * (services.NAME_MAX + 1) + ";;",  # 5 name too long
        "",  # 6 blank: skipped, still counted
        "  anna   BERGER ;;",  # 7 same name as line 2
        "Existing Player;;",  # 8 already registered
        "Carla;;",  # 9 good
    ]
)


def test_parse_reports_every_bad_row_with_its_line() -> None:
    report = services.parse_player_csv(BAD_FILE, existing_keys={services.name_key("Existing Player")})

    errors = dict(report.errors)
    assert report.bad_lines == [3, 4, 5, 7, 8]
    assert len(report.errors) == 5
    assert "missing" in errors[3]
    assert "columns" in errors[4]
    assert str(services.NAME_MAX) in errors[5]
    assert "line 2" in errors[7]
    assert "already registered" in errors[8]
    assert [(r.line, r.name) for r in report.rows] == [(2, "Anna Berger"), (9, "Carla")]


def test_parse_gives_the_first_line_of_a_row_with_a_multiline_cell() -> None:
    report = services.parse_player_csv('Anna,"Club\nwith two lines",x\n,no name,\nBernd,,\n', set())
    assert [(r.line, r.name, r.club) for r in report.rows] == [(1, "Anna", "Club\nwith two lines"), (4, "Bernd", "")]
    assert report.bad_lines == [3]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_parse_any_line_ending(newline: str) -> None:
    """Excel for Mac's "CSV (Macintosh)" ends lines with a lone CR."""
    text = newline.join(["Name;Verein", "Anna;TSV Nord", ";no name", "Bernd;"]) + newline
    report = services.parse_player_csv(text, set())
    assert [(r.line, r.name, r.club) for r in report.rows] == [(2, "Anna", "TSV Nord"), (4, "Bernd", "")]
    assert report.bad_lines == [3]


def test_an_unreadable_file_is_an_error_and_imports_nothing(tournament, desk):  # type: ignore[no-untyped-def]
    """A quote left open swallows the rest of the file into one huge cell."""
    text = 'Anna;TSV\nBernd;TSV\n"Carla;' + "x" * 200_000 + "\nDora;TSV\n"
    state = snapshot(tournament)
    report = services.import_players_csv(tournament=tournament, actor=desk, text=text, skip_bad_rows=True)
    assert report.applied is False
    assert report.rows == []
    assert report.bad_lines == [3]
    assert snapshot(tournament) == state


@pytest.fixture
def with_existing(tournament, desk):  # type: ignore[no-untyped-def]
    return register(tournament, desk, "Existing Player").player


def test_import_with_bad_rows_imports_nothing(tournament, desk, with_existing):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)

    report = services.import_players_csv(tournament=tournament, actor=desk, text=BAD_FILE)

    assert report.applied is False
    assert report.imported == 0
    assert report.bad_lines == [3, 4, 5, 7, 8]
    assert snapshot(tournament) == state


def test_import_skipping_bad_rows_imports_only_the_good_rows(tournament, desk, with_existing):  # type: ignore[no-untyped-def]
    before = version(tournament)

    report = services.import_players_csv(tournament=tournament, actor=desk, text=BAD_FILE, skip_bad_rows=True)

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
    report = services.import_players_csv(tournament=tournament, actor=desk, text="Anna;X\nBernd;Y\nCarla;Z\n")
    assert (report.applied, report.imported, report.errors) == (True, 3, [])
    assert Player.objects.filter(tournament=tournament, status=Status.REGISTERED).count() == 3


def test_import_past_capacity_fills_the_waiting_list(small, desk):  # type: ignore[no-untyped-def]
    register(small, desk, "Already Here")
    text = "\n".join(["Anna", "Bernd", "Carla", "Dora", "Emil"])

    report = services.import_players_csv(tournament=small, actor=desk, text=text)

    assert (report.imported, report.waitlisted) == (5, 3)
    assert set(Player.objects.filter(tournament=small, status=Status.REGISTERED).values_list("name", flat=True)) == {
        "Already Here",
        "Anna",
        "Bernd",
    }
    assert [p.name for p in selectors.waiting_list(small)] == ["Carla", "Dora", "Emil"]


@pytest.mark.parametrize("text", ["", "   \n\n  ", "\ufeff", "\ufeff\r\n"])
def test_import_of_an_empty_file_is_an_error(tournament, desk, text):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    report = services.import_players_csv(tournament=tournament, actor=desk, text=text, skip_bad_rows=True)
    assert report.applied is False
    assert report.rows == []
    assert len(report.errors) == 1
    assert "empty" in report.errors[0][1]
    assert snapshot(tournament) == state


def test_import_of_a_header_only_file_is_an_error(tournament, desk):  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    report = services.import_players_csv(tournament=tournament, actor=desk, text="Name;Verein;Kontakt\n;;\n")
    assert report.applied is False
    assert report.errors and report.rows == []
    assert snapshot(tournament) == state


# --- check-in -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "fragment"),
    [(Status.WITHDRAWN, "withdrawn"), (Status.NO_SHOW, "no-show"), (Status.WAITING, "waiting list")],
)
def test_check_in_is_refused_for_players_without_a_place(tournament, desk, status, fragment):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament, status=status, name="Otto Absent")
    tick_all(player)
    state = snapshot(tournament)

    with pytest.raises(services.ServiceError) as caught:
        check_in(tournament, desk, player, override=True)

    assert not isinstance(caught.value, services.NeedsConfirmation)
    assert "Otto Absent" in caught.value.message
    assert fragment in caught.value.message
    assert snapshot(tournament) == state


def test_check_in_with_everything_ticked(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    for item in tournament.checklist_items.all():
        services.set_check(tournament=tournament, actor=desk, player_id=player.pk, item_id=item.pk, done=True)

    result = check_in(tournament, desk, player)

    assert result.open_items == []
    assert result.start_number_assigned is False
    assert status_of(player) == Status.CHECKED_IN
    live = CheckIn.objects.get(player=player, cancelled_at__isnull=True)
    assert (live.override, live.open_items, live.checked_in_by) == (False, [], desk)
    assert selectors.overrides(tournament) == []


def test_open_checklist_items_need_an_override(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    licence = tournament.checklist_items.get(label="Diving licence (OWD)")
    services.set_check(tournament=tournament, actor=desk, player_id=player.pk, item_id=licence.pk, done=True)
    state = snapshot(tournament)

    with pytest.raises(services.NeedsConfirmation) as caught:
        check_in(tournament, desk, player)

    assert caught.value.kind == "override"
    assert "Medical certificate" in caught.value.message
    assert "Diving licence" not in caught.value.message
    assert snapshot(tournament) == state


def test_override_records_open_items_who_and_when(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    licence = tournament.checklist_items.get(label="Diving licence (OWD)")
    services.set_check(tournament=tournament, actor=desk, player_id=player.pk, item_id=licence.pk, done=True)
    started = timezone.now()

    result = check_in(tournament, desk, player, override=True)

    assert result.open_items == ["Medical certificate"]
    assert status_of(player) == Status.CHECKED_IN
    record = CheckIn.objects.get(player=player)
    assert record.override is True
    assert record.open_items == ["Medical certificate"]
    assert record.checked_in_by == desk
    assert record.cancelled_at is None
    assert started <= record.checked_in_at <= timezone.now()
    assert selectors.overrides(tournament) == [record]
    entry = AuditEntry.objects.get(tournament=tournament, action="player_checked_in")
    assert entry.detail["override"] is True
    assert entry.detail["open_items"] == ["Medical certificate"]


def test_a_second_check_in_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament, name="Doppelt")
    check_in(tournament, desk, player, override=True)
    state = snapshot(tournament)

    with pytest.raises(services.ServiceError) as caught:
        check_in(tournament, desk, player, override=True)

    assert "already checked in" in caught.value.message
    assert CheckIn.objects.filter(player=player).count() == 1
    assert snapshot(tournament) == state


def test_check_in_of_a_player_of_another_tournament_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    stranger = PlayerFactory(tournament=TournamentFactory(checklist=[]))
    with pytest.raises(services.ServiceError):
        check_in(tournament, desk, stranger)
    assert status_of(stranger) == Status.REGISTERED
    assert not CheckIn.objects.exists()


def test_undo_check_in_before_play(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    check_in(tournament, desk, player, override=True)
    before = version(tournament)

    services.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)

    assert status_of(player) == Status.REGISTERED
    first = CheckIn.objects.get(player=player)
    assert first.cancelled_at is not None
    assert version(tournament) > before
    # The player can be checked in again: the cancelled check-in stays as history.
    check_in(tournament, desk, player, override=True)
    assert CheckIn.objects.filter(player=player).count() == 2
    assert CheckIn.objects.filter(player=player, cancelled_at__isnull=True).count() == 1


def test_undo_check_in_after_play_started_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    check_in(tournament, desk, player, override=True)
    tournament.status = enums.TournamentStatus.RUNNING
    tournament.save()
    state = snapshot(tournament)

    with pytest.raises(services.ServiceError):
        services.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)

    assert status_of(player) == Status.CHECKED_IN
    assert snapshot(tournament) == state


def test_undo_of_a_player_not_checked_in_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    state = snapshot(tournament)
    with pytest.raises(services.ServiceError):
        services.undo_check_in(tournament=tournament, actor=desk, player_id=player.pk)
    assert snapshot(tournament) == state


def test_no_start_number_at_check_in_before_the_draw(tournament, desk):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament)
    result = check_in(tournament, desk, player, override=True)
    assert result.start_number_assigned is False
    assert Player.objects.get(pk=player.pk).start_number is None


def test_late_check_in_after_the_draw_gets_the_next_number(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 4)
    services.draw_start_numbers(tournament=tournament, actor=desk, seed=7)
    late, later = PlayerFactory.create_batch(2, tournament=tournament)

    first = check_in(tournament, desk, late, override=True)
    second = check_in(tournament, desk, later, override=True)

    assert first.start_number_assigned is True
    assert Player.objects.get(pk=late.pk).start_number == 5
    assert Player.objects.get(pk=later.pk).start_number == 6
    assert second.player.start_number == 6


def test_late_check_in_never_reuses_a_withdrawn_players_number(tournament, desk):  # type: ignore[no-untyped-def]
    players = checked_in_players(tournament, desk, 3)
    services.draw_start_numbers(tournament=tournament, actor=desk, seed=11)
    highest = max(players, key=lambda p: Player.objects.get(pk=p.pk).start_number or 0)
    services.withdraw_player(tournament=tournament, actor=desk, player_id=highest.pk)
    late = PlayerFactory(tournament=tournament)

    check_in(tournament, desk, late, override=True)

    numbers = [n for n in numbers_of(tournament).values() if n is not None]
    assert Player.objects.get(pk=late.pk).start_number == 4
    assert len(numbers) == len(set(numbers))


# --- start-number draw ----------------------------------------------------------------------


def test_draw_without_checked_in_players_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    PlayerFactory.create_batch(3, tournament=tournament)
    state = snapshot(tournament)

    with pytest.raises(services.ServiceError):
        services.draw_start_numbers(tournament=tournament, actor=desk, seed=1)

    assert not StartNumberDraw.objects.exists()
    assert set(numbers_of(tournament).values()) == {None}
    assert snapshot(tournament) == state


def test_draw_numbers_only_checked_in_players_one_to_n(tournament, desk):  # type: ignore[no-untyped-def]
    present = checked_in_players(tournament, desk, 7)
    registered = PlayerFactory(tournament=tournament)
    waiting = PlayerFactory(tournament=tournament, status=Status.WAITING)
    gone = PlayerFactory(tournament=tournament, status=Status.WITHDRAWN)
    before = version(tournament)

    draw = services.draw_start_numbers(tournament=tournament, actor=desk)

    numbers = numbers_of(tournament)
    assert sorted(numbers[p.pk] for p in present) == list(range(1, 8))  # type: ignore[type-var]
    assert numbers[registered.pk] is None and numbers[waiting.pk] is None and numbers[gone.pk] is None
    assert draw.result == [[pk, numbers[pk]] for pk in sorted(numbers, key=lambda pk: numbers[pk] or 0) if numbers[pk]]
    assert version(tournament) > before
    assert [p.pk for p in selectors.draw_result(tournament)] == [pk for pk, _number in draw.result]


def test_draw_stores_seed_and_algorithm_and_can_be_recomputed(tournament, desk):  # type: ignore[no-untyped-def]
    present = checked_in_players(tournament, desk, 9)

    draw = services.draw_start_numbers(tournament=tournament, actor=desk)

    stored = StartNumberDraw.objects.get(pk=draw.pk)
    assert stored.tournament == tournament
    assert stored.algorithm == draws.START_NUMBER_ALGORITHM
    assert stored.drawn_by == desk
    recomputed = dict(draws.draw_start_numbers([p.pk for p in present], stored.seed))
    assert recomputed == {pk: n for pk, n in numbers_of(tournament).items() if n is not None}
    assert [tuple(pair) for pair in stored.result] == sorted(recomputed.items(), key=lambda pair: pair[1])
    entry = AuditEntry.objects.get(tournament=tournament, action="start_numbers_drawn")
    assert entry.detail == {"seed": stored.seed, "players": 9}


def test_same_seed_same_players_same_numbers(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 12)

    first = services.draw_start_numbers(tournament=tournament, actor=desk, seed=424242)
    numbers_first = numbers_of(tournament)
    services.draw_start_numbers(tournament=tournament, actor=desk, seed=99)
    numbers_other = numbers_of(tournament)
    again = services.draw_start_numbers(tournament=tournament, actor=desk, seed=424242)

    assert numbers_of(tournament) == numbers_first
    assert again.result == first.result
    assert numbers_other != numbers_first  # 12! orders: another seed gives another draw
    assert (first.seed, again.seed) == (424242, 424242)


def test_drawing_again_before_play_replaces_the_numbers(tournament, desk):  # type: ignore[no-untyped-def]
    players = checked_in_players(tournament, desk, 5)
    services.draw_start_numbers(tournament=tournament, actor=desk, seed=1)
    late = PlayerFactory(tournament=tournament)
    check_in(tournament, desk, late, override=True)  # gets number 6
    services.undo_check_in(tournament=tournament, actor=desk, player_id=players[0].pk)

    second = services.draw_start_numbers(tournament=tournament, actor=desk, seed=2)

    numbers = numbers_of(tournament)
    drawn = [*players[1:], late]
    assert sorted(numbers[p.pk] for p in drawn) == list(range(1, 6))  # type: ignore[type-var]
    assert numbers[players[0].pk] is None  # no longer checked in: the old number is gone
    assert numbers == {**{p.pk: None for p in players}, **dict(draws.draw_start_numbers([p.pk for p in drawn], 2))}
    assert StartNumberDraw.objects.filter(tournament=tournament).count() == 2
    assert selectors.latest_draw(tournament) == second


def test_drawing_again_after_play_started_is_refused(tournament, desk):  # type: ignore[no-untyped-def]
    checked_in_players(tournament, desk, 4)
    services.draw_start_numbers(tournament=tournament, actor=desk, seed=5)
    tournament.status = enums.TournamentStatus.RUNNING
    tournament.save()
    state = snapshot(tournament)

    with pytest.raises(services.ServiceError) as caught:
        services.draw_start_numbers(tournament=tournament, actor=desk, seed=6)

    assert "Play has started" in caught.value.message
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
        with pytest.raises(services.ServiceError) as caught:
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


# --- audit trail and version --------------------------------------------------------------

# Each case prepares what the service needs and returns (the call, the audit action).
Call = Callable[[], object]
Case = Callable[[Tournament, Any], tuple[Call, str]]


def _player(t: Tournament, **kwargs: Any) -> Player:
    return PlayerFactory(tournament=t, **kwargs)


def _checked_in(t: Tournament, actor: Any) -> Player:
    player = _player(t)
    check_in(t, actor, player, override=True)
    return player


def _deck_handed_in(t: Tournament, actor: Any) -> tuple[Player, ChecklistItem]:
    player = _player(t)
    deck = ChecklistItem.objects.create(tournament=t, label="Own deck", position=9, returnable=True)
    services.set_check(tournament=t, actor=actor, player_id=player.pk, item_id=deck.pk, done=True)
    return player, deck


def case_register_player(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(register, t, a, "Neu"), "player_registered"


def case_import_players_csv(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(services.import_players_csv, tournament=t, actor=a, text="Anna\nBernd\n"), "players_imported"


def case_set_check(t: Tournament, a: Any) -> tuple[Call, str]:
    item = t.checklist_items.all()[0]
    call = partial(services.set_check, tournament=t, actor=a, player_id=_player(t).pk, item_id=item.pk, done=True)
    return call, "check_ticked"


def case_set_check_undone(t: Tournament, a: Any) -> tuple[Call, str]:
    player, deck = _deck_handed_in(t, a)
    call = partial(services.set_check, tournament=t, actor=a, player_id=player.pk, item_id=deck.pk, done=False)
    return call, "check_unticked"


def case_set_returned(t: Tournament, a: Any) -> tuple[Call, str]:
    player, deck = _deck_handed_in(t, a)
    call = partial(services.set_returned, tournament=t, actor=a, player_id=player.pk, item_id=deck.pk, returned=True)
    return call, "equipment_returned"


def case_check_in_player(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(check_in, t, a, _player(t), override=True), "player_checked_in"


def case_undo_check_in(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(services.undo_check_in, tournament=t, actor=a, player_id=_checked_in(t, a).pk), "check_in_undone"


def case_withdraw_player(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(services.withdraw_player, tournament=t, actor=a, player_id=_player(t).pk), "player_withdrawn"


def case_mark_no_show(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(services.mark_no_show, tournament=t, actor=a, player_id=_player(t).pk), "player_no_show"


def case_reinstate_player(t: Tournament, a: Any) -> tuple[Call, str]:
    player = _player(t, status=Status.WITHDRAWN)
    return partial(services.reinstate_player, tournament=t, actor=a, player_id=player.pk), "player_reinstated"


def case_draw_start_numbers(t: Tournament, a: Any) -> tuple[Call, str]:
    _checked_in(t, a)
    return partial(services.draw_start_numbers, tournament=t, actor=a), "start_numbers_drawn"


def case_add_checklist_item(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(services.add_checklist_item, tournament=t, actor=a, label="Entry fee paid"), "checklist_item_added"


def case_remove_checklist_item(t: Tournament, a: Any) -> tuple[Call, str]:
    item = t.checklist_items.all()[0]
    return partial(services.remove_checklist_item, tournament=t, actor=a, item_id=item.pk), "checklist_item_removed"


def case_add_registration_window(t: Tournament, a: Any) -> tuple[Call, str]:
    now = timezone.now()
    call = partial(
        services.add_registration_window,
        tournament=t,
        actor=a,
        opens_at=now,
        closes_at=now + datetime.timedelta(hours=2),
    )
    return call, "registration_window_added"


def case_update_tournament(t: Tournament, a: Any) -> tuple[Call, str]:
    return partial(services.update_tournament, tournament=t, actor=a, venue="Stadthalle"), "tournament_updated"


def case_add_staff(t: Tournament, a: Any) -> tuple[Call, str]:
    call = partial(
        services.add_staff, tournament=t, actor=a, username="new-referee", role=enums.Role.REFEREE, password="pw-123456"
    )
    return call, "staff_added"


def case_remove_staff(t: Tournament, a: Any) -> tuple[Call, str]:
    staff = StaffRole.objects.create(tournament=t, user=UserFactory(), role=enums.Role.REFEREE)
    return partial(services.remove_staff, tournament=t, actor=a, staff_id=staff.pk), "staff_removed"


SERVICES: dict[str, Case] = {
    name.removeprefix("case_"): case for name, case in globals().items() if name.startswith("case_")
}


def test_every_service_has_an_audit_case() -> None:
    """A new public service in services.py must get a case above."""
    public = {
        name
        for name, value in vars(services).items()
        if callable(value)
        and not name.startswith("_")
        and getattr(value, "__module__", "") == services.__name__
        and not isinstance(value, type)
    }
    # pure, or tested on their own (below; the refusal trace in test_result_entry.py)
    helpers = {"name_key", "parse_player_csv", "create_tournament", "audit_refusal", "refusals_audited"}
    covered = {name.removesuffix("_undone") for name in SERVICES}
    assert public - helpers - covered == set()


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    call, action = SERVICES[service](tournament, desk)
    before_version = version(tournament)
    before_entries = set(AuditEntry.objects.values_list("pk", flat=True))

    call()

    assert version(tournament) > before_version
    new = AuditEntry.objects.exclude(pk__in=before_entries)
    assert new.filter(tournament=tournament, action=action, actor=desk).count() == 1
    assert all(entry.tournament_id == tournament.pk for entry in new)


def test_create_tournament_writes_an_audit_entry_and_makes_the_creator_organiser(make_user):  # type: ignore[no-untyped-def]
    user = make_user("creator")
    now = timezone.now()
    created = services.create_tournament(
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
        windows=[services.WindowInput(opens_at=now, closes_at=now + datetime.timedelta(hours=1))],
    )
    assert created.name == "Stadtmeisterschaft"
    assert [(i.label, i.returnable) for i in created.checklist_items.all()] == [
        ("Entry fee paid", False),
        ("Own deck checked", True),
    ]
    assert created.registration_windows.count() == 1
    assert StaffRole.objects.filter(tournament=created, user=user, role=enums.Role.ORGANISER).exists()
    assert AuditEntry.objects.filter(tournament=created, action="tournament_created", actor=user).count() == 1


def test_moving_up_is_audited_and_bumps_once_per_action(small, desk, full_with_waiting):  # type: ignore[no-untyped-def]
    before = version(small)
    services.withdraw_player(tournament=small, actor=desk, player_id=full_with_waiting["Xaver"].pk)
    assert version(small) == before + 1
    actions = list(AuditEntry.objects.filter(tournament=small).order_by("pk").values_list("action", flat=True))
    assert actions[-2:] == ["player_withdrawn", "player_moved_up"]


# --- the check-in search (desk selector) -----------------------------------------------------


def test_search_by_start_number_finds_the_player_even_in_a_large_field(tournament, desk):  # type: ignore[no-untyped-def]
    """Typing a start number finds that player first, even when more than a
    page of names also contain the digits."""
    players = [
        PlayerFactory(tournament=tournament, name=f"Spieler 7{i:02d}") for i in range(selectors.CHECKIN_LIST_LIMIT + 5)
    ]
    target = PlayerFactory(tournament=tournament, name="Zacharias Zett")
    Player.objects.filter(pk=target.pk).update(start_number=7)

    found, total = selectors.search_players(tournament, "7")

    assert total == len(players) + 1
    assert len(found) == selectors.CHECKIN_LIST_LIMIT
    assert found[0].pk == target.pk


@pytest.mark.parametrize("query", ["²", "99999999999999999999999", "007"])
def test_search_with_odd_digits_does_not_crash(tournament, query):  # type: ignore[no-untyped-def]
    player = PlayerFactory(tournament=tournament, name=f"Agent {query}")
    found, total = selectors.search_players(tournament, query)
    assert [p.pk for p in found] == [player.pk]
    assert total == 1
