"""Registration: one player at a time or a CSV list; past capacity the waiting list.

Contract: ``tournament.writes``. A CSV list is read in three steps: ``decode_player_csv``
(the uploaded bytes to text, or a refusal), ``parse_player_csv`` (every row checked,
nothing written) and ``import_players_csv`` (the good rows written in bulk).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import enums, folding
from tournament.desk import register
from tournament.desk.players import active_count, lock_player, name_key, record_fee
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.middleware import current_origin
from tournament.models import AuditEntry, Person, Player, Tournament
from tournament.writes import User, acting_user, audit, bump, lock_tournament

NAME_MAX = Player._meta.get_field("name").max_length or 120

CLUB_MAX = Player._meta.get_field("club").max_length or 120

CONTACT_MAX = Player._meta.get_field("contact").max_length or 200

# Players in one CSV file at most (the header and blank lines not counted): far more than any
# tournament has, small enough that an import ends well inside the server's 30 s per request.
MAX_IMPORT_ROWS = 20_000


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
    online: bool = False,
    person_id: int | None = None,
    suggested_id: int | None = None,
) -> Registration:
    """Register one player. Past capacity the player joins the waiting list.

    A second registration with the same name, or one outside every
    registration window, raises ``NeedsConfirmation`` unless confirmed.

    ``online``: the player signs up on the public page (``passes.signup``), with no one to ask:
    refused instead (nothing saved) when the organiser has not allowed online sign-up, the
    tournament is under way, no registration window is open, the contact is missing, or a player
    with the same folded name and club is registered (``name_key`` of both; a namesake of another
    club is a different person). The player is marked ``signed_up_online``.

    The player is linked to a person of the tournament's club's register (issue 33): at the desk the
    one chosen from the suggestions (``person_id``), else the person of the same folded name and
    club, else a new one (``register.person_for_desk``); online only where the e-mail matches the
    suggestion picked (``suggested_id``) or the person of the same name and club
    (``register.person_for_sign_up``).
    """
    name, club, contact = name.strip(), club.strip(), contact.strip()
    _validate_player_fields(name, club, contact)
    if online and not contact:
        raise ServiceError(_("Give an e-mail address or a phone number, so the organiser can reach you."))
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.status == enums.TournamentStatus.FINISHED:
            raise ServiceError(_("The tournament is finished; no more registrations."))
        if online:
            _refuse_online(locked, name, club)
        if not confirm_outside_window and not _window_open(locked):
            raise NeedsConfirmation(_("No registration window is open now. Register anyway?"), kind="outside_window")
        key = name_key(name)
        if not confirm_same_name and Player.objects.filter(tournament=locked, name_key=key).exists():
            raise NeedsConfirmation(
                _("A player named “%(name)s” is already registered. Register a second player with this name?")
                % {"name": name},
                kind="same_name",
            )
        if online:
            person = register.person_for_sign_up(
                locked, name=name, team=club, contact=contact, suggested_id=suggested_id
            )
        else:
            person = register.person_for_desk(locked, name=name, team=club, contact=contact, person_id=person_id)
        player = _create_player(locked, actor, name, club, contact, online=online, person=person)
        bump(locked)
    return Registration(player=player, waitlisted=player.status == enums.PlayerStatus.WAITING)


def _refuse_online(tournament: Tournament, name: str, club: str) -> None:
    """Why an online sign-up cannot be taken now, as a ``ServiceError`` (see ``register_player``)."""
    if not tournament.online_signup:
        raise ServiceError(_("Online sign-up is not open for this tournament. Ask the organiser."))
    if tournament.status != enums.TournamentStatus.REGISTRATION:
        raise ServiceError(_("The tournament is under way; sign up at the desk."))
    if not _window_open(tournament):
        raise ServiceError(_("Registration is closed now. Sign-up is open only while a registration window is."))
    club_key = name_key(club)
    for other_club in Player.objects.filter(tournament=tournament, name_key=name_key(name)).values_list(
        "club", flat=True
    ):
        if name_key(other_club) == club_key:
            raise ServiceError(
                _(
                    "“%(name)s” is already signed up for this tournament. If that is you, open your pass; "
                    "if you lost it, ask the desk for a new one."
                )
                % {"name": name}
            )


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


def _create_player(
    tournament: Tournament,
    actor: User | None,
    name: str,
    club: str,
    contact: str,
    *,
    online: bool = False,
    person: Person | None = None,
) -> Player:
    full = active_count(tournament) >= tournament.capacity
    status = enums.PlayerStatus.WAITING if full else enums.PlayerStatus.REGISTERED
    player = Player.objects.create(
        tournament=tournament,
        name=name,
        club=club,
        contact=contact,
        status=status,
        name_key=name_key(name),
        signed_up_online=online,
        person=person,
    )
    if online:
        audit(tournament, actor, "player_registered", player=player.pk, name=name, waiting=full, online=True)
    else:
        audit(tournament, actor, "player_registered", player=player.pk, name=name, waiting=full)
    return player


def set_fee_paid(*, tournament: Tournament, actor: User, player_id: int, paid: bool) -> Player:
    """The desk took the entry fee (``paid``) or takes the mark back (a mistake). Audited
    (``fee_paid`` / ``fee_paid_undone``). Where the fee fixes a place (``fee_fixes_place``) a paid
    player on the waiting list takes a provisional place at once (``players.paid_first``). The
    checklist's "Entry fee paid" follows (``players.record_fee``)."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        if not record_fee(locked, actor, player, paid=paid):
            return player
        bump(locked)
    player.refresh_from_db(fields=["status", "status_changed_at"])
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


# The first bytes of files uploaded by mistake instead of a CSV: spreadsheets and documents
# (xlsx, ods and docx are zip files; xls and doc OLE2), images, PDF, gzip.
_NOT_CSV_SIGNATURES = (
    b"PK\x03\x04",
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"GIF87a",
    b"GIF89a",
    b"%PDF-",
    b"\x1f\x8b",
)
# Control characters other than tab and line breaks: a text file has none (or a stray one).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _not_csv() -> ServiceError:
    return ServiceError(
        _(
            "This is not a CSV file (perhaps a spreadsheet or an image). In your spreadsheet program "
            "choose “Save as” and the type “CSV”, then upload that file."
        )
    )


def decode_player_csv(raw: bytes) -> str:
    """The text of an uploaded player list; ``ServiceError`` (translated) when it is no text file.

    The encoding, decided in this order:

    1. a byte order mark: UTF-8 (Excel's "CSV UTF-8"), UTF-16 little or big endian
       (Excel's "Unicode text", which is tab separated);
    2. UTF-8 when the bytes are valid UTF-8 (plain ASCII too). Text in a legacy encoding
       is almost never valid UTF-8 by chance: its "ö" is one byte (0xF6) that UTF-8 allows
       only before three continuation bytes, never before a letter;
    3. otherwise a legacy 8-bit file: Mac Roman when its lines end with a lone CR (Excel
       for Mac's "CSV (Macintosh)"), else Windows-1252 (Excel's "CSV" on Windows in
       Western Europe; Latin-1's letters plus „“€ where Latin-1 has invisible controls).

    Refused: known binary formats (xlsx, xls, ods, images, PDF, zip) by their first bytes,
    bytes that are none of these encodings, and text with many control characters (a binary
    file, or UTF-16 without its mark). A stray NUL character is left in the text: the parse
    reports its line (PostgreSQL cannot store it).
    """
    if raw.startswith(_NOT_CSV_SIGNATURES):
        raise _not_csv()
    try:
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            text = raw.decode("utf-16")  # reads the mark, either byte order, and drops it
        elif raw.startswith(b"\xef\xbb\xbf"):
            text = raw.decode("utf-8-sig")
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                legacy = "mac_roman" if b"\r" in raw and b"\n" not in raw else "cp1252"
                text = raw.decode(legacy)
    except UnicodeDecodeError:
        raise _not_csv() from None
    sample = text[:4096]
    if len(_CONTROL.findall(sample)) * 20 > len(sample):  # more than 1 in 20 characters
        raise _not_csv()
    return text


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
    """Check a CSV of players (name, club, contact), comma, semicolon or tab separated
    (whichever the first 4 KB hold most of; a tie goes to tab, then comma).

    A first row whose first cell is a known column name is a header. Every bad
    row is reported with its line number; nothing is written here. A row holding a
    NUL or an unreadable character (U+FFFD) is a bad row; more than ``MAX_IMPORT_ROWS``
    players, or a record the csv module cannot read, make the whole file an error
    (no rows to import).
    """
    report = ImportReport()
    text = text.lstrip("\ufeff")
    if not text.strip():
        report.errors.append((0, _("The file is empty.")))
        return report
    sample = text[:4096]
    # Tab first: names in a tab separated file often hold a comma ("Höller, Josef"), while a comma
    # or semicolon separated file hardly ever holds a tab. Comma before semicolon, as always.
    delimiter = max(("\t", ",", ";"), key=sample.count)  # the first of equal counts
    columns = ["name", "club", "contact"]
    seen: dict[str, int] = {}
    header_possible = True
    rows = 0
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
            header = _header_columns(cells)
            if header is None:
                report.errors.append((line, _("Unknown or repeated column in the header: use name, club, contact.")))
                return report
            columns = header
            continue
        rows += 1
        if rows > MAX_IMPORT_ROWS:
            report.rows.clear()
            report.errors[:] = [(0, _too_many_rows())]
            return report
        problem = _cells_error(cells, columns)
        if problem:
            report.errors.append((line, problem))
            continue
        values = dict(zip(columns, cells, strict=False))
        row = ImportRow(line, values.get("name", ""), values.get("club", ""), values.get("contact", ""))
        _check_row(report, row, existing_keys, seen)
    if not report.rows and not report.errors:
        report.errors.append((0, _("The file holds no players.")))
    return report


def _header_columns(cells: list[str]) -> list[str] | None:
    """The columns a header row names, in its order; None when one is unknown or repeated, or
    none is the name."""
    mapped = [HEADER_ALIASES.get(cell.casefold()) for cell in cells]
    if None in mapped or len(set(mapped)) != len(mapped) or "name" not in mapped:
        return None
    return [str(column) for column in mapped]


def _too_many_rows() -> str:
    """Why a file of more than ``MAX_IMPORT_ROWS`` players is refused whole, and what to do."""
    return _(
        "The file holds more than %(max)d players. Split it into smaller files and import them one after the other."
    ) % {"max": MAX_IMPORT_ROWS}


def _cells_error(cells: list[str], columns: list[str]) -> str:
    """Why a row's cells cannot be a player whatever they say ("" when they can): a character that
    is not text, or more cells than columns."""
    if any("\x00" in cell or "\ufffd" in cell for cell in cells):
        # PostgreSQL cannot store NUL; U+FFFD is a character lost in decoding (or a NUL that went
        # through the page's hidden field).
        return _(
            "This line holds a character that is not text (a NUL byte or an unreadable character). "
            "Correct the line, or save the file again as CSV (UTF-8)."
        )
    if len(cells) > len(columns):
        return ngettext(
            "%(count)d columns, at most %(max)d expected.",
            "%(count)d columns, at most %(max)d expected.",
            len(columns),
        ) % {"count": len(cells), "max": len(columns)}
    return ""


def _check_row(report: ImportReport, row: ImportRow, existing_keys: set[str], seen: dict[str, int]) -> None:
    """A row into ``report``: a player to import, or its line's errors (the name and the club as
    registration checks them, a name already registered or seen earlier in the file: ``seen``)."""
    line = row.line
    row_errors = _player_field_errors(row.name, row.club, row.contact)
    if "\n" in row.name or "\r" in row.name:
        # A name never runs over lines: a quote left open swallowed the lines after it.
        row_errors.append(_("The name runs over several lines: is a quote left open?"))
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
    case the good rows are. Past capacity imported players join the waiting list,
    in the file's order. Each player gets the ``player_registered`` audit entry a
    single registration gets, and the import one ``players_imported`` entry.

    Written in bulk, so the number of queries does not grow with the rows (on
    SQLite ``bulk_create`` splits the inserts to stay under its limit of variables
    per query): one lock, one read of the names already registered, one count of
    the places taken, the people of the club's register (``register.people_for_import``: the
    club's lock, the people found, the new ones, the contacts filled, the register's version),
    the players, their audit entries, one version bump.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.status == enums.TournamentStatus.FINISHED:
            report = ImportReport()
            report.errors.append((0, _("The tournament is finished; no more registrations.")))
            return report
        existing = set(Player.objects.filter(tournament=locked).values_list("name_key", flat=True))
        report = parse_player_csv(text, existing)
        if (report.errors and not skip_bad_rows) or not report.rows:
            return report
        free = max(locked.capacity - active_count(locked), 0)
        # Linked to the club's register as the desk links one registration (no suggestion picked).
        people = register.people_for_import(locked, [(row.name, row.club, row.contact) for row in report.rows])
        players = [
            Player(
                tournament=locked,
                name=row.name,
                club=row.club,
                contact=row.contact,
                name_key=name_key(row.name),
                folded=folding.search_text(row.name, row.club),  # bulk_create does not call save()
                status=enums.PlayerStatus.REGISTERED if index < free else enums.PlayerStatus.WAITING,
                person=person,
            )
            for index, (row, person) in enumerate(zip(report.rows, people, strict=True))
        ]
        # In the file's order: the primary keys (and registration times) order the waiting list.
        Player.objects.bulk_create(players)
        _audit_registered(locked, actor, players)
        report.imported = len(players)
        report.waitlisted = sum(player.status == enums.PlayerStatus.WAITING for player in players)
        report.applied = True
        bump(locked)
        audit(locked, actor, "players_imported", count=report.imported, skipped_lines=report.bad_lines)
    return report


def _audit_registered(tournament: Tournament, actor: User, players: list[Player]) -> None:
    """The ``player_registered`` entries of ``players`` (saved, with their keys), the same as
    ``tournament.writes.audit`` writes for one registration, in one bulk insert."""
    origin = current_origin()
    AuditEntry.objects.bulk_create(
        AuditEntry(
            tournament=tournament,
            actor=acting_user(actor),
            action="player_registered",
            detail={"player": player.pk, "name": player.name, "waiting": player.status == enums.PlayerStatus.WAITING},
            player_id=player.pk,
            source=origin.source if origin is not None else "",
            device=origin.device_line if origin is not None else "",
        )
        for player in players
    )


#: The highest table number the desk accepts for a fixed seat (a hall's numbers, not a typo's).
FIXED_TABLE_MAX = 999


def set_fixed_seat(*, tournament: Tournament, actor: User, player_id: int, number: int | None, need: str) -> Player:
    """The desk's marker for a player who needs a fixed or accessible table: ``number`` is the
    organiser's table (a place in the hall, kept in every round the player plays:
    ``seating.place_fixed``, ``play.rounds.number_tables``), ``need`` says why
    (``enums.SeatNeed``; "" for none). ``number=None`` clears the fixed seat (and the need).

    Refused, nothing saved: a number below 1 or above ``FIXED_TABLE_MAX``, an unknown need, a
    need without a number, and a number already fixed for as many players (registered, waiting
    or checked in) as the largest table seats. Audited (``fixed_seat_set``, old and new); a change
    between rounds applies from the next round seated (tables seated stay as they are)."""
    if need not in enums.SeatNeed.values:
        raise ServiceError(_("Choose the player's need from the list."))
    if number is not None and not 1 <= number <= FIXED_TABLE_MAX:
        raise ServiceError(_("A table number is a whole number from 1 to %(max)d.") % {"max": FIXED_TABLE_MAX})
    if number is None and need:
        raise ServiceError(_("Give the table number the player keeps, or choose “No particular need”."))
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        if number is not None:
            others = (
                Player.objects.filter(tournament=locked, fixed_table=number)
                .exclude(pk=player.pk)
                .exclude(status__in=(enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW))
                .count()
            )
            if others + 1 > locked.table_size_max:
                raise ServiceError(
                    _(
                        "Table %(number)d already keeps %(count)d fixed seats, as many as the largest table seats "
                        "(%(max)d). Choose another table number."
                    )
                    % {"number": number, "count": others, "max": locked.table_size_max}
                )
        old = (player.fixed_table, player.seat_need)
        if old == (number, need):
            return player
        player.fixed_table, player.seat_need = number, need
        player.save(update_fields=["fixed_table", "seat_need"])
        bump(locked)
        audit(
            locked,
            actor,
            "fixed_seat_set",
            player=player.pk,
            name=player.name,
            # Not ``table=``: that names the audit entry's table (``writes.audit``).
            fixed_table=number,
            need=need,
            old_fixed_table=old[0],
            old_need=old[1],
        )
    return player
