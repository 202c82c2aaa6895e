"""Tournaments: creating one, its settings, checklist and registration windows.

Contract: ``tournament.writes``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as date_type
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from games.models import GameScore, GameStatus
from games.rules import uno
from tournament import enums
from tournament.desk import register
from tournament.desk.players import name_key, promote_from_waiting_list
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.formats import registry
from tournament.models import ChecklistItem, RegistrationWindow, StaffRole, Tournament, new_public_key
from tournament.writes import User, acting_user, audit, bump, lock_tournament


@dataclass(frozen=True)
class WindowInput:
    opens_at: datetime
    closes_at: datetime


# Dates a tournament and its registration windows may have. A typing slip such as the year 0001 would be
# stored as a BC timestamp that no page could show again (Python's datetime stops at year 1).
FIRST_YEAR, LAST_YEAR = 2000, 2099


def date_problem(value: date_type | datetime | None) -> str:
    """A translated refusal for a date outside ``FIRST_YEAR``..``LAST_YEAR``, or ""."""
    if value is None or FIRST_YEAR <= value.year <= LAST_YEAR:
        return ""
    return _("Enter a date between %(first)d and %(last)d.") % {"first": FIRST_YEAR, "last": LAST_YEAR}


def _check_window(opens_at: datetime, closes_at: datetime) -> None:
    problem = date_problem(opens_at) or date_problem(closes_at)
    if problem:
        raise ServiceError(problem)
    if closes_at <= opens_at:
        raise ServiceError(_("A registration window must close after it opens."))


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
    club_id: int | None = None,
    new_club: str = "",
) -> Tournament:
    """Create a tournament with its checklist and registration windows; the
    creator becomes its organiser. It belongs to one of the creator's clubs (``club_id``), a new
    club named ``new_club``, or by default their first club, else a new one named after them
    (``register.club_for``; no club for a tournament made without a user, as the demo's)."""
    _refuse_new(name=name, game=game, format=format, capacity=capacity, date=date, windows=windows)
    labels = _clean_labels(checklist)
    with transaction.atomic():
        club = None
        if acting_user(actor) is not None:
            club = register.club_for(actor=actor, club_id=club_id, new_name=new_club)
        tournament = Tournament.objects.create(
            club=club,
            name=name.strip(),
            date=date,
            venue=venue.strip(),
            game=game,
            format=format,
            capacity=capacity,
            entry_fee=entry_fee,
            created_by=acting_user(actor),
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
        if acting_user(actor) is not None:
            StaffRole.objects.create(tournament=tournament, user=actor, role=enums.Role.ORGANISER)
        audit(tournament, actor, "tournament_created", name=tournament.name)
    return tournament


def _refuse_new(
    *, name: str, game: str, format: str, capacity: int, date: date_type, windows: Sequence[WindowInput]
) -> None:
    """Why a tournament cannot be created as asked, as a ``ServiceError`` (nothing is saved yet)."""
    if not name.strip():
        raise ServiceError(_("A tournament needs a name."))
    if game not in enums.Game.values:
        raise ServiceError(_("Unknown game."))
    if format not in registry.FORMATS:
        raise ServiceError(_("Unknown format."))
    record = registry.get(format)
    if game not in record.games:
        games = ", ".join(str(enums.Game(slug).label) for slug in record.games)
        raise ServiceError(_("%(format)s is played with %(games)s.") % {"format": record.label, "games": games})
    if capacity < 3:
        raise ServiceError(_("Capacity must be at least 3 players."))
    if date_problem(date):
        raise ServiceError(date_problem(date))
    for window in windows:
        _check_window(window.opens_at, window.closes_at)


def _clean_labels(labels: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    clean: list[str] = []
    for label in labels:
        label = label.strip()
        if label and name_key(label) not in seen:
            seen.add(name_key(label))
            clean.append(label[:120])
    return clean


def add_checklist_item(
    *, tournament: Tournament, actor: User, label: str, returnable: bool = False, kind: str = ""
) -> ChecklistItem:
    label = label.strip()
    if not label:
        raise ServiceError(_("A checklist item needs a label."))
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if any(name_key(i.label) == name_key(label) for i in locked.checklist_items.all()):
            raise ServiceError(_("“%(label)s” is already on the checklist.") % {"label": label})
        position = (locked.checklist_items.aggregate(m=Max("position"))["m"] or 0) + 1
        item = ChecklistItem.objects.create(
            tournament=locked,
            label=label[:120],
            position=position,
            returnable=returnable,
            kind=kind if kind in ChecklistItem.Kind.values else ChecklistItem.Kind.DESK,
        )
        bump(locked)
        audit(locked, actor, "checklist_item_added", label=label)
    return item


def remove_checklist_item(*, tournament: Tournament, actor: User, item_id: int) -> None:
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        item = ChecklistItem.objects.filter(tournament=locked, pk=item_id).first()
        if item is None:
            raise ServiceError(_("This checklist item does not exist."))
        if item.checks.exists():
            raise ServiceError(_("“%(label)s” is already ticked for players and stays.") % {"label": item.label})
        item.delete()
        bump(locked)
        audit(locked, actor, "checklist_item_removed", label=item.label)


def add_registration_window(
    *, tournament: Tournament, actor: User, opens_at: datetime, closes_at: datetime
) -> RegistrationWindow:
    _check_window(opens_at, closes_at)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        window = RegistrationWindow.objects.create(tournament=locked, opens_at=opens_at, closes_at=closes_at)
        bump(locked)
        audit(locked, actor, "registration_window_added", opens_at=opens_at.isoformat())
    return window


@dataclass(frozen=True)
class SettingsSaved:
    """The saved tournament and what the change carried to what was already seated, in words."""

    tournament: Tournament
    carried: list[str]


def save_settings(*, tournament: Tournament, actor: User, **values: Any) -> SettingsSaved:
    """Change settings. Table sizes and capacity are checked; a capacity raise moves the waiting
    list up. A change of ``listed`` takes effect at once (the old public addresses by number read
    it on every request); its audit entry says which way. The format carries a change to what is
    already seated, or refuses it with nothing saved (``Format.settings_saved``: the knockout's
    seated final takes a new target until its first game)."""
    if date_problem(values.get("date")):
        raise ServiceError(date_problem(values.get("date")))
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        for key, value in values.items():
            setattr(locked, key, value)
        if locked.table_size_max < locked.table_size:
            raise ServiceError(_("The largest table size cannot be below the preferred size."))
        if locked.play_started and values.get("format", locked.format) != tournament.format:
            raise ServiceError(_("The format cannot change once play has started."))
        locked.save()
        carried = registry.of(locked).settings_saved(locked, actor, frozenset(values))
        promote_from_waiting_list(locked, actor)
        bump(locked)
        detail: dict[str, Any] = {"fields": sorted(values)}
        if "listed" in values:
            detail["listed"] = bool(locked.listed)
        audit(locked, actor, "tournament_updated", **detail)
    locked.refresh_from_db()
    return SettingsSaved(tournament=locked, carried=carried)


def update_tournament(*, tournament: Tournament, actor: User, **values: Any) -> Tournament:
    """``save_settings`` for callers that need only the saved tournament."""
    return save_settings(tournament=tournament, actor=actor, **values).tournament


def renew_public_key(*, tournament: Tournament, actor: User, confirmed: bool = False) -> Tournament:
    """Give the tournament a new public link (``Tournament.public_key``): the old one, on the
    projector, the phones and printed QR codes, stops working at once.

    Raises ``NeedsConfirmation`` (kind "new_public_key", saying what stops working) unless
    ``confirmed``. The version is bumped, so no cached public page outlives the old key."""
    if not confirmed:
        raise NeedsConfirmation(
            _(
                "The current public link and its QR codes stop working at once: the projector, the players' "
                "phones and printed player lists that use it show “not found”. Open the projector again and "
                "print the player list again with the new link."
            ),
            kind="new_public_key",
        )
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        locked.public_key = new_public_key()
        locked.save(update_fields=["public_key"])
        bump(locked)
        audit(locked, actor, "public_key_renewed")
    locked.refresh_from_db()
    return locked


def set_scoring_table(*, tournament: Tournament, actor: User, values: Mapping[str, object]) -> Tournament:
    """Change the card scoring table; locked once any card points are recorded."""
    try:
        clean = uno.validate_scoring_table(values)
    except uno.InvalidScoringTable:
        raise ServiceError(_("Every action card needs a value of 0 or more.")) from None
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if scoring_locked(locked):
            raise ServiceError(_("Card points have been recorded: the scoring table is locked."))
        locked.scoring_table = clean
        locked.save(update_fields=["scoring_table"])
        bump(locked)
        audit(locked, actor, "scoring_table_changed", values=clean)
    return locked


def scoring_locked(tournament: Tournament) -> bool:
    """As ``set_scoring_table`` decides: card points of a valid game lock the table."""
    return GameScore.objects.filter(game__table__round__tournament=tournament, game__status=GameStatus.VALID).exists()
