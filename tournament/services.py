"""Every write of the tournament layer.

Contract for every function here:
- keyword-only arguments, the acting user passed as ``actor``;
- runs in ``transaction.atomic`` and locks the rows it changes with
  ``select_for_update`` in a fixed order (tournament, player, round, table),
  so two desk tablets writing at once are serialised by the database;
- bumps ``Tournament.version`` (public pages derive their ETag from it) and
  writes an ``AuditEntry``;
- raises ``ServiceError`` with a translated message for anything the user can
  fix, and changes nothing in that case.
"""

from __future__ import annotations

import csv
import functools
import io
import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date as date_type
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import draws, enums
from tournament.models import (
    AuditEntry,
    CheckIn,
    ChecklistItem,
    Player,
    PlayerCheck,
    RegistrationWindow,
    StaffRole,
    StartNumberDraw,
    Table,
    Tournament,
)

User = AbstractBaseUser | AnonymousUser
logger = logging.getLogger(__name__)
ServiceFunction = TypeVar("ServiceFunction", bound=Callable[..., Any])

ACTIVE_STATUSES = (enums.PlayerStatus.REGISTERED, enums.PlayerStatus.CHECKED_IN)
# Order of joining the waiting list: a reinstated player queues behind those already waiting.
WAITING_LIST_ORDER = ("status_changed_at", "registered_at", "pk")
NAME_MAX = Player._meta.get_field("name").max_length or 120
CLUB_MAX = Player._meta.get_field("club").max_length or 120
CONTACT_MAX = Player._meta.get_field("contact").max_length or 200


class ServiceError(Exception):
    """A problem the user can fix; ``message`` is translated and shown as is."""

    # A question back to the user (confirm, choose) is not a refusal and is not audited as one.
    is_refusal = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NeedsConfirmation(ServiceError):
    """The action is allowed only after the user confirms; ``kind`` says what
    ("same_name", "outside_window", "override")."""

    is_refusal = False

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


# --- helpers ----------------------------------------------------------------


def name_key(name: str) -> str:
    """Fold case, accents' composition and inner spaces, to spot a second registration."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return re.sub(r"\s+", " ", folded).strip()


def _actor(user: User | None) -> Any:
    return user if user is not None and user.is_authenticated else None


def _audit(tournament: Tournament | None, actor: User | None, action: str, **detail: Any) -> None:
    AuditEntry.objects.create(tournament=tournament, actor=_actor(actor), action=action, detail=detail)


REFUSED = "entry_refused"
# What a refused entry tried, kept in the audit entry (never the tournament or the actor object).
_ATTEMPT_FIELDS = ("winner_id", "loser_id", "player_id", "version", "idempotency_key", "card_points", "hands")


def refusals_audited(attempt: str) -> Callable[[ServiceFunction], ServiceFunction]:
    """Decorate a table service so that every refusal leaves a trace.

    When the service raises a ``ServiceError`` (its transaction rolled back,
    nothing saved), an ``entry_refused`` audit entry is written after the
    rollback, outside it: who (``actor``), which table (id, number, round),
    what was tried (``attempt`` and the submitted values) and why (the message
    shown). Then the error is raised again unchanged. Questions back to the
    user (``is_refusal = False``) are not audited. The service must take
    ``tournament``, ``actor`` and ``table_id`` as keyword arguments.
    """

    def decorator(service: ServiceFunction) -> ServiceFunction:
        @functools.wraps(service)
        def wrapper(**kwargs: Any) -> Any:
            try:
                return service(**kwargs)
            except ServiceError as error:
                if error.is_refusal:
                    _audit_refusal(attempt, error, kwargs)
                raise

        return wrapper  # type: ignore[return-value]

    return decorator


def audit_refusal(
    attempt: str, reason: str, *, tournament: Tournament, actor: User | None, table_id: int | None, **tried: Any
) -> None:
    """Write the ``entry_refused`` audit entry of one refused attempt (see ``refusals_audited``).

    Also for refusals decided before any service runs (a form that cannot be
    read). ``tried`` holds the submitted values; empty ones are left out. Never
    raises: a trace that cannot be written goes to the server log, and the
    person still sees the refusal itself.
    """
    detail: dict[str, Any] = {"attempt": attempt, "table": table_id, "reason": reason}
    detail.update({name: value for name, value in tried.items() if value not in (None, {}, "")})
    try:
        tables = Table.objects.filter(pk=table_id, round__tournament=tournament)
        where = tables.values("number", "round__number").first()
        if where is not None:
            detail.update(table_number=where["number"], round=where["round__number"])
        _audit(tournament, actor, REFUSED, **detail)
    except Exception:
        logger.exception("Could not audit a refused %s at table %s", attempt, table_id)


def _audit_refusal(attempt: str, error: ServiceError, kwargs: dict[str, Any]) -> None:
    tried = {name: kwargs.get(name) for name in _ATTEMPT_FIELDS}
    audit_refusal(
        attempt,
        error.message,
        tournament=kwargs["tournament"],
        actor=kwargs.get("actor"),
        table_id=kwargs.get("table_id"),
        **tried,
    )


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


def _lock_tournament(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def _lock_player(tournament: Tournament, player_id: int) -> Player:
    try:
        return Player.objects.select_for_update().get(pk=player_id, tournament=tournament)
    except Player.DoesNotExist:
        raise ServiceError(_("This player is not registered for this tournament.")) from None


def _active_count(tournament: Tournament) -> int:
    return Player.objects.filter(tournament=tournament, status__in=ACTIVE_STATUSES).count()


def _promote_from_waiting_list(tournament: Tournament, actor: User | None) -> list[Player]:
    """Move waiting players up while there is room. Caller holds the tournament lock."""
    free = tournament.capacity - _active_count(tournament)
    if free <= 0:
        return []
    promoted = list(
        Player.objects.select_for_update()
        .filter(tournament=tournament, status=enums.PlayerStatus.WAITING)
        .order_by(*WAITING_LIST_ORDER)[:free]
    )
    now = timezone.now()
    for player in promoted:
        player.status = enums.PlayerStatus.REGISTERED
        player.status_changed_at = now
        player.save(update_fields=["status", "status_changed_at"])
        _audit(tournament, actor, "player_moved_up", player=player.pk, name=player.name)
    return promoted


# --- tournaments and staff ----------------------------------------------------


@dataclass(frozen=True)
class WindowInput:
    opens_at: datetime
    closes_at: datetime


def create_tournament(
    *,
    actor: User,
    name: str,
    date: date_type,
    venue: str,
    game: str,
    format: str,
    capacity: int,
    entry_fee: Decimal,
    checklist: Sequence[str] = (),
    returnable: Sequence[str] = (),
    windows: Sequence[WindowInput] = (),
) -> Tournament:
    """Create a tournament with its checklist and registration windows; the
    creator becomes its organiser."""
    if not name.strip():
        raise ServiceError(_("A tournament needs a name."))
    if game not in enums.Game.values:
        raise ServiceError(_("Unknown game."))
    if format not in enums.Format.values:
        raise ServiceError(_("Unknown format."))
    if game == enums.Game.SCHOCKEN and format != enums.Format.LIFE_BANDS:
        raise ServiceError(_("Schocken is played with life bands and chips."))
    if game == enums.Game.UNO and format == enums.Format.LIFE_BANDS:
        raise ServiceError(_("Life bands and chips are a Schocken format."))
    if capacity < 3:
        raise ServiceError(_("Capacity must be at least 3 players."))
    for window in windows:
        if window.closes_at <= window.opens_at:
            raise ServiceError(_("A registration window must close after it opens."))
    labels = _clean_labels(checklist)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip(),
            date=date,
            venue=venue.strip(),
            game=game,
            format=format,
            capacity=capacity,
            entry_fee=entry_fee,
            created_by=_actor(actor),
        )
        returnable_keys = {name_key(label) for label in returnable}
        ChecklistItem.objects.bulk_create(
            ChecklistItem(
                tournament=tournament, label=label, position=index, returnable=name_key(label) in returnable_keys
            )
            for index, label in enumerate(labels)
        )
        RegistrationWindow.objects.bulk_create(
            RegistrationWindow(tournament=tournament, opens_at=w.opens_at, closes_at=w.closes_at) for w in windows
        )
        if _actor(actor) is not None:
            StaffRole.objects.create(tournament=tournament, user=actor, role=enums.Role.ORGANISER)
        _audit(tournament, actor, "tournament_created", name=tournament.name)
    return tournament


def _clean_labels(labels: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    clean: list[str] = []
    for label in labels:
        label = label.strip()
        if label and name_key(label) not in seen:
            seen.add(name_key(label))
            clean.append(label[:120])
    return clean


def add_checklist_item(*, tournament: Tournament, actor: User, label: str, returnable: bool = False) -> ChecklistItem:
    label = label.strip()
    if not label:
        raise ServiceError(_("A checklist item needs a label."))
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        if any(name_key(i.label) == name_key(label) for i in locked.checklist_items.all()):
            raise ServiceError(_("“%(label)s” is already on the checklist.") % {"label": label})
        position = (locked.checklist_items.aggregate(m=Max("position"))["m"] or 0) + 1
        item = ChecklistItem.objects.create(
            tournament=locked, label=label[:120], position=position, returnable=returnable
        )
        _bump(locked)
        _audit(locked, actor, "checklist_item_added", label=label)
    return item


def remove_checklist_item(*, tournament: Tournament, actor: User, item_id: int) -> None:
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        item = ChecklistItem.objects.filter(tournament=locked, pk=item_id).first()
        if item is None:
            raise ServiceError(_("This checklist item does not exist."))
        if item.checks.exists():
            raise ServiceError(_("“%(label)s” is already ticked for players and stays.") % {"label": item.label})
        item.delete()
        _bump(locked)
        _audit(locked, actor, "checklist_item_removed", label=item.label)


def add_registration_window(
    *, tournament: Tournament, actor: User, opens_at: datetime, closes_at: datetime
) -> RegistrationWindow:
    if closes_at <= opens_at:
        raise ServiceError(_("A registration window must close after it opens."))
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        window = RegistrationWindow.objects.create(tournament=locked, opens_at=opens_at, closes_at=closes_at)
        _bump(locked)
        _audit(locked, actor, "registration_window_added", opens_at=opens_at.isoformat())
    return window


def update_tournament(*, tournament: Tournament, actor: User, **values: Any) -> Tournament:
    """Change settings. Table sizes and capacity are checked; a capacity raise
    moves the waiting list up."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        for key, value in values.items():
            setattr(locked, key, value)
        if locked.table_size_max < locked.table_size:
            raise ServiceError(_("The largest table size cannot be below the preferred size."))
        if locked.play_started and values.get("format", locked.format) != tournament.format:
            raise ServiceError(_("The format cannot change once play has started."))
        locked.save()
        _promote_from_waiting_list(locked, actor)
        _bump(locked)
        _audit(locked, actor, "tournament_updated", fields=sorted(values))
    locked.refresh_from_db()
    return locked


def add_staff(*, tournament: Tournament, actor: User, username: str, role: str, password: str = "") -> StaffRole:
    """Give a user a role; creates the account when a password is given for a new name."""
    username = username.strip()
    if role not in enums.Role.values:
        raise ServiceError(_("Unknown role."))
    if not username:
        raise ServiceError(_("Enter a user name."))
    user_model = get_user_model()
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        user = user_model.objects.filter(username=username).first()
        if user is None:
            if len(password) < 8:
                raise ServiceError(
                    _("There is no user “%(name)s”. Give a password of at least 8 characters to create one.")
                    % {"name": username}
                )
            user = user_model.objects.create_user(username=username, password=password)
        if StaffRole.objects.filter(tournament=locked, user=user, role=role).exists():
            raise ServiceError(_("%(name)s already has this role.") % {"name": username})
        staff = StaffRole.objects.create(tournament=locked, user=user, role=role)
        _bump(locked)
        _audit(locked, actor, "staff_added", user=username, role=role)
    return staff


def remove_staff(*, tournament: Tournament, actor: User, staff_id: int) -> None:
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        staff = StaffRole.objects.filter(tournament=locked, pk=staff_id).select_related("user").first()
        if staff is None:
            raise ServiceError(_("This role does not exist."))
        if (
            staff.role == enums.Role.ORGANISER
            and StaffRole.objects.filter(tournament=locked, role=enums.Role.ORGANISER).count() == 1
        ):
            raise ServiceError(_("A tournament keeps at least one organiser."))
        staff.delete()
        _bump(locked)
        _audit(locked, actor, "staff_removed", user=staff.user.get_username(), role=staff.role)


# --- registration ---------------------------------------------------------------


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
        locked = _lock_tournament(tournament.pk)
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
        _bump(locked)
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
    full = _active_count(tournament) >= tournament.capacity
    status = enums.PlayerStatus.WAITING if full else enums.PlayerStatus.REGISTERED
    player = Player.objects.create(
        tournament=tournament, name=name, club=club, contact=contact, status=status, name_key=name_key(name)
    )
    _audit(tournament, actor, "player_registered", player=player.pk, name=name, waiting=full)
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
        locked = _lock_tournament(tournament.pk)
        existing = set(Player.objects.filter(tournament=locked).values_list("name_key", flat=True))
        report = parse_player_csv(text, existing)
        if (report.errors and not skip_bad_rows) or not report.rows:
            return report
        for row in report.rows:
            player = _create_player(locked, actor, row.name, row.club, row.contact)
            report.imported += 1
            report.waitlisted += player.status == enums.PlayerStatus.WAITING
        report.applied = True
        _bump(locked)
        _audit(locked, actor, "players_imported", count=report.imported, skipped_lines=report.bad_lines)
    return report


# --- check-in ---------------------------------------------------------------------


def set_check(*, tournament: Tournament, actor: User, player_id: int, item_id: int, done: bool) -> Player:
    """Tick or untick one checklist item for a player."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        player = _lock_player(locked, player_id)
        item = ChecklistItem.objects.filter(tournament=locked, pk=item_id).first()
        if item is None:
            raise ServiceError(_("This checklist item does not exist."))
        if player.status in (enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW):
            if player.status == enums.PlayerStatus.WITHDRAWN:
                raise ServiceError(_("%(name)s has withdrawn; reinstate the player first.") % {"name": player.name})
            raise ServiceError(_("%(name)s is marked as no-show; reinstate the player first.") % {"name": player.name})
        existing = PlayerCheck.objects.filter(player=player, item=item).first()
        if done and existing is None:
            PlayerCheck.objects.create(player=player, item=item, checked_by=_actor(actor))
        elif not done and existing is not None:
            existing.delete()
        _bump(locked)
        _audit(locked, actor, "check_ticked" if done else "check_unticked", player=player.pk, item=item.label)
    return player


def set_returned(*, tournament: Tournament, actor: User, player_id: int, item_id: int, returned: bool) -> None:
    """Mark returnable equipment (own deck) as handed back to the player."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        player = _lock_player(locked, player_id)
        check = PlayerCheck.objects.filter(player=player, item_id=item_id, item__returnable=True).first()
        if check is None:
            raise ServiceError(_("Nothing of this kind was handed in by this player."))
        check.returned_at = timezone.now() if returned else None
        check.save(update_fields=["returned_at"])
        _bump(locked)
        _audit(locked, actor, "equipment_returned" if returned else "equipment_return_undone", player=player.pk)


@dataclass(frozen=True)
class CheckInResult:
    player: Player
    open_items: list[str]
    start_number_assigned: bool


def check_in_player(*, tournament: Tournament, actor: User, player_id: int, override: bool = False) -> CheckInResult:
    """Check a player in.

    Refused for a withdrawn, no-show or waiting player and for one already
    checked in. A player with open checklist items is checked in only with
    ``override``, which is recorded with who and when. After the draw a late
    arrival gets the next free start number.
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        player = _lock_player(locked, player_id)
        if player.status == enums.PlayerStatus.CHECKED_IN:
            raise ServiceError(_("%(name)s is already checked in.") % {"name": player.name})
        if player.status == enums.PlayerStatus.WITHDRAWN:
            raise ServiceError(_("%(name)s has withdrawn; reinstate the player first.") % {"name": player.name})
        if player.status == enums.PlayerStatus.NO_SHOW:
            raise ServiceError(_("%(name)s is marked as no-show; reinstate the player first.") % {"name": player.name})
        if player.status == enums.PlayerStatus.WAITING:
            raise ServiceError(_("%(name)s is on the waiting list; the tournament is full.") % {"name": player.name})
        ticked = set(PlayerCheck.objects.filter(player=player).values_list("item_id", flat=True))
        open_items = [item.label for item in locked.checklist_items.all() if item.pk not in ticked]
        if open_items and not override:
            raise NeedsConfirmation(
                _("Open checklist items: %(items)s. Check in only with an override.")
                % {"items": ", ".join(open_items)},
                kind="override",
            )
        CheckIn.objects.create(
            player=player, checked_in_by=_actor(actor), override=bool(open_items), open_items=open_items
        )
        assigned = False
        if player.start_number is None and locked.draws.exists():
            player.start_number = _next_start_number(locked)
            assigned = True
        player.status = enums.PlayerStatus.CHECKED_IN
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at", "start_number"])
        _bump(locked)
        _audit(
            locked,
            actor,
            "player_checked_in",
            player=player.pk,
            override=bool(open_items),
            open_items=open_items,
            start_number=player.start_number,
        )
    return CheckInResult(player=player, open_items=open_items, start_number_assigned=assigned)


def _next_start_number(tournament: Tournament) -> int:
    highest = Player.objects.filter(tournament=tournament).aggregate(m=Max("start_number"))["m"]
    return (highest or 0) + 1


def undo_check_in(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Take back a check-in made by mistake (before play starts)."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        player = _lock_player(locked, player_id)
        if player.status != enums.PlayerStatus.CHECKED_IN:
            raise ServiceError(_("%(name)s is not checked in.") % {"name": player.name})
        if locked.play_started:
            raise ServiceError(_("Play has started; withdraw the player instead."))
        CheckIn.objects.filter(player=player, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
        player.status = enums.PlayerStatus.REGISTERED
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at"])
        _bump(locked)
        _audit(locked, actor, "check_in_undone", player=player.pk)
    return player


def _leave(tournament: Tournament, actor: User, player_id: int, status: str, action: str) -> Player:
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        player = _lock_player(locked, player_id)
        if player.status == status:
            if status == enums.PlayerStatus.WITHDRAWN:
                raise ServiceError(_("%(name)s has already withdrawn.") % {"name": player.name})
            raise ServiceError(_("%(name)s is already marked as no-show.") % {"name": player.name})
        if status == enums.PlayerStatus.NO_SHOW and player.status == enums.PlayerStatus.CHECKED_IN:
            raise ServiceError(_("%(name)s is checked in; withdraw the player instead.") % {"name": player.name})
        was_holding_place = player.status in ACTIVE_STATUSES
        CheckIn.objects.filter(player=player, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
        player.status = status
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at"])
        _audit(locked, actor, action, player=player.pk, name=player.name)
        if was_holding_place:
            _promote_from_waiting_list(locked, actor)
        _bump(locked)
    return player


def withdraw_player(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Withdraw a player; the first on the waiting list moves up."""
    return _leave(tournament, actor, player_id, enums.PlayerStatus.WITHDRAWN, "player_withdrawn")


def mark_no_show(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Mark a registered player who did not come; the waiting list moves up."""
    return _leave(tournament, actor, player_id, enums.PlayerStatus.NO_SHOW, "player_no_show")


def reinstate_player(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Bring a withdrawn or no-show player back: registered, or waiting if full."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        player = _lock_player(locked, player_id)
        if player.status not in (enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW):
            raise ServiceError(_("%(name)s has not withdrawn.") % {"name": player.name})
        full = _active_count(locked) >= locked.capacity
        player.status = enums.PlayerStatus.WAITING if full else enums.PlayerStatus.REGISTERED
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at"])
        _bump(locked)
        _audit(locked, actor, "player_reinstated", player=player.pk, waiting=full)
    return player


# --- start numbers ------------------------------------------------------------------


def draw_start_numbers(*, tournament: Tournament, actor: User, seed: int | None = None) -> StartNumberDraw:
    """Draw start numbers by lot among checked-in players.

    Seeded and reproducible (``tournament.draws.draw_start_numbers``); the seed
    is stored. Drawing again replaces the numbers and is refused once play has
    started.
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        if locked.play_started or locked.rounds.exists():
            raise ServiceError(_("Play has started; start numbers can no longer be drawn again."))
        player_ids = list(
            Player.objects.select_for_update()
            .filter(tournament=locked, status=enums.PlayerStatus.CHECKED_IN)
            .values_list("pk", flat=True)
        )
        if not player_ids:
            raise ServiceError(_("No player is checked in yet; check players in before drawing start numbers."))
        seed = draws.new_seed() if seed is None else seed
        result = draws.draw_start_numbers(player_ids, seed)
        # Clear first so the unique constraint never sees two players on one number.
        Player.objects.filter(tournament=locked).update(start_number=None)
        numbers = dict(result)
        players = list(Player.objects.filter(pk__in=numbers))
        for player in players:
            player.start_number = numbers[player.pk]
        Player.objects.bulk_update(players, ["start_number"])
        draw = StartNumberDraw.objects.create(
            tournament=locked,
            seed=seed,
            algorithm=draws.START_NUMBER_ALGORITHM,
            drawn_by=_actor(actor),
            result=[list(pair) for pair in result],
        )
        _bump(locked)
        _audit(locked, actor, "start_numbers_drawn", seed=seed, players=len(result))
    return draw
