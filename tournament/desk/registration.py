"""Registration: one player at a time or a CSV list; past capacity the waiting list.

Contract: ``tournament.writes``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import enums
from tournament.desk.players import active_count, name_key
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import Player, Tournament
from tournament.writes import User, audit, bump, lock_tournament

NAME_MAX = Player._meta.get_field("name").max_length or 120

CLUB_MAX = Player._meta.get_field("club").max_length or 120

CONTACT_MAX = Player._meta.get_field("contact").max_length or 200


@dataclass(frozen=True)
class Registration:
    player: Player
    waitlisted: bool


def register_player(
    *,
    tournament: Tournament,
    actor: User,
    name: str,
    club: str = "",
    contact: str = "",
    confirm_same_name: bool = False,
    confirm_outside_window: bool = False,
) -> Registration:
    """Register one player. Past capacity the player joins the waiting list.

    A second registration with the same name, or one outside every
    registration window, raises ``NeedsConfirmation`` unless confirmed.
    """
    name, club, contact = name.strip(), club.strip(), contact.strip()
    _validate_player_fields(name, club, contact)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.status == enums.TournamentStatus.FINISHED:
            raise ServiceError(_("The tournament is finished; no more registrations."))
        if not confirm_outside_window and not _window_open(locked):
            raise NeedsConfirmation(_("No registration window is open now. Register anyway?"), kind="outside_window")
        key = name_key(name)
        if not confirm_same_name and Player.objects.filter(tournament=locked, name_key=key).exists():
            raise NeedsConfirmation(
                _("A player named “%(name)s” is already registered. Register a second player with this name?")
                % {"name": name},
                kind="same_name",
            )
        player = _create_player(locked, actor, name, club, contact)
        bump(locked)
    return Registration(player=player, waitlisted=player.status == enums.PlayerStatus.WAITING)


def _window_open(tournament: Tournament) -> bool:
    windows = list(tournament.registration_windows.all())
    if not windows:
        return True
    now = timezone.now()
    return any(w.opens_at <= now <= w.closes_at for w in windows)


def _validate_player_fields(name: str, club: str, contact: str) -> None:
    for message in _player_field_errors(name, club, contact):
        raise ServiceError(message)


def _player_field_errors(name: str, club: str, contact: str) -> list[str]:
    errors = []
    if not name:
        errors.append(_("The name is missing."))
    elif len(name) > NAME_MAX:
        errors.append(_("The name is longer than %(max)d characters.") % {"max": NAME_MAX})
    if len(club) > CLUB_MAX:
        errors.append(_("The club is longer than %(max)d characters.") % {"max": CLUB_MAX})
    if len(contact) > CONTACT_MAX:
        errors.append(_("The contact is longer than %(max)d characters.") % {"max": CONTACT_MAX})
    return errors


def _create_player(tournament: Tournament, actor: User | None, name: str, club: str, contact: str) -> Player:
    full = active_count(tournament) >= tournament.capacity
    status = enums.PlayerStatus.WAITING if full else enums.PlayerStatus.REGISTERED
    player = Player.objects.create(
        tournament=tournament, name=name, club=club, contact=contact, status=status, name_key=name_key(name)
    )
    audit(tournament, actor, "player_registered", player=player.pk, name=name, waiting=full)
    return player


@dataclass
class ImportRow:
    line: int
    name: str
    club: str
    contact: str


@dataclass
class ImportReport:
    """What a CSV import found. ``errors`` are (line, message) pairs."""

    rows: list[ImportRow] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    imported: int = 0
    waitlisted: int = 0
    applied: bool = False

    @property
    def bad_lines(self) -> list[int]:
        return sorted({line for line, _message in self.errors})


HEADER_ALIASES = {
    "name": "name",
    "nome": "name",
    "giocatore": "name",
    "spieler": "name",
    "club": "club",
    "verein": "club",
    "società": "club",
    "circolo": "club",
    "contact": "contact",
    "kontakt": "contact",
    "contatto": "contact",
    "email": "contact",
    "e-mail": "contact",
    "telefon": "contact",
    "phone": "contact",
    "telefono": "contact",
}


def parse_player_csv(text: str, existing_keys: set[str]) -> ImportReport:
    """Check a CSV of players (name, club, contact), comma or semicolon separated.

    A first row whose first cell is a known column name is a header. Every bad
    row is reported with its line number; nothing is written here.
    """
    report = ImportReport()
    text = text.lstrip("\ufeff")
    if not text.strip():
        report.errors.append((0, _("The file is empty.")))
        return report
    sample = text[:4096]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    columns = ["name", "club", "contact"]
    seen: dict[str, int] = {}
    header_possible = True
    for line, raw_cells in _csv_records(text, delimiter):
        if raw_cells is None:
            report.rows.clear()
            message = _("The file cannot be read from this line on: a cell is far too long (is a quote left open?).")
            report.errors.append((line, message))
            return report
        cells = [cell.strip() for cell in raw_cells]
        if not any(cells):
            continue
        first_row, header_possible = header_possible, False
        if first_row and cells[0].casefold() in HEADER_ALIASES:
            mapped = [HEADER_ALIASES.get(cell.casefold()) for cell in cells]
            if None in mapped or len(set(mapped)) != len(mapped) or "name" not in mapped:
                report.errors.append((line, _("Unknown or repeated column in the header: use name, club, contact.")))
                return report
            columns = [str(column) for column in mapped]
            continue
        if len(cells) > len(columns):
            report.errors.append(
                (
                    line,
                    ngettext(
                        "%(count)d columns, at most %(max)d expected.",
                        "%(count)d columns, at most %(max)d expected.",
                        len(columns),
                    )
                    % {"count": len(cells), "max": len(columns)},
                )
            )
            continue
        values = dict(zip(columns, cells, strict=False))
        row = ImportRow(line, values.get("name", ""), values.get("club", ""), values.get("contact", ""))
        row_errors = _player_field_errors(row.name, row.club, row.contact)
        key = name_key(row.name)
        if row.name and key in existing_keys:
            row_errors.append(_("“%(name)s” is already registered.") % {"name": row.name})
        elif row.name and key in seen:
            row_errors.append(_("Same name as line %(line)d.") % {"line": seen[key]})
        if row_errors:
            report.errors.extend((line, message) for message in row_errors)
        else:
            seen[key] = line
            report.rows.append(row)
    if not report.rows and not report.errors:
        report.errors.append((0, _("The file holds no players.")))
    return report


def _csv_records(text: str, delimiter: str) -> Iterator[tuple[int, list[str] | None]]:
    """(first line, cells) of every record; any line ending (also a lone CR).
    Cells are None for a record the csv module cannot read, which ends the file."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    previous = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:
            yield previous + 1, None
            return
        yield previous + 1, cells
        previous = reader.line_num


def import_players_csv(*, tournament: Tournament, actor: User, text: str, skip_bad_rows: bool = False) -> ImportReport:
    """Import players from CSV text.

    With bad rows nothing is imported unless ``skip_bad_rows`` is set, in which
    case the good rows are. Past capacity imported players join the waiting list.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        existing = set(Player.objects.filter(tournament=locked).values_list("name_key", flat=True))
        report = parse_player_csv(text, existing)
        if (report.errors and not skip_bad_rows) or not report.rows:
            return report
        for row in report.rows:
            player = _create_player(locked, actor, row.name, row.club, row.contact)
            report.imported += 1
            report.waitlisted += player.status == enums.PlayerStatus.WAITING
        report.applied = True
        bump(locked)
        audit(locked, actor, "players_imported", count=report.imported, skipped_lines=report.bad_lines)
    return report
