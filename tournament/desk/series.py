"""A club's series (issue 33, item 2): made, its settings saved, its tournaments chosen.

Contract: ``tournament.writes``; the club is locked (``desk.register.lock_club``), the write audited
without a tournament (the club's id in the detail, as the register's), and ``Series.version``
raised: the kept standings are then stale (``selectors.season``). Only the club's organisers write.
Refusals are ``ServiceError`` with nothing saved.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.desk.register import lock_club, runs_club
from tournament.errors import ServiceError
from tournament.models import Club, Series, SeriesEvent, Tournament
from tournament.writes import User, audit

SETTINGS = ("name", "points_preset", "points_table", "best_n", "minimum_events", "tie_breaks")


def _checked(series: Series) -> None:
    """The series' settings as the pure rules accept them, or the first refusal in words."""
    if not series.name.strip():
        raise ServiceError(_("The series needs a name."))
    try:
        series.clean()
    except ValidationError as error:
        raise ServiceError(error.messages[0]) from error


def _refuse_outsider(actor: User, club: Club) -> None:
    if not runs_club(actor, club):
        raise ServiceError(_("Only the club's organisers can change its series."))


def _set_events(series: Series, tournament_ids: Iterable[int]) -> list[int]:
    """The series' tournaments become ``tournament_ids`` (each one of the club's); the ids kept."""
    wanted = sorted(set(tournament_ids))
    found = set(Tournament.objects.filter(club_id=series.club_id, pk__in=wanted).values_list("pk", flat=True))
    if len(found) != len(wanted):
        raise ServiceError(_("Choose the series' tournaments among this club's tournaments."))
    SeriesEvent.objects.filter(series=series).exclude(tournament_id__in=wanted).delete()
    have = set(SeriesEvent.objects.filter(series=series).values_list("tournament_id", flat=True))
    SeriesEvent.objects.bulk_create(SeriesEvent(series=series, tournament_id=pk) for pk in wanted if pk not in have)
    return wanted


def create_series(*, club: Club, actor: User, settings: dict[str, Any], tournament_ids: Iterable[int] = ()) -> Series:
    """A new series of ``club`` with its settings (``SETTINGS``) and tournaments. Audited ``series_created``."""
    _refuse_outsider(actor, club)
    series = Series(club=club, **{name: settings[name] for name in SETTINGS if name in settings})
    _checked(series)
    with transaction.atomic():
        lock_club(club.pk)
        series.save()
        events = _set_events(series, tournament_ids)
        audit(None, actor, "series_created", club=club.pk, series=series.pk, name=series.name, events=events)
    return series


def update_series(*, series: Series, actor: User, settings: dict[str, Any], tournament_ids: Iterable[int]) -> Series:
    """The series' settings and tournaments saved; its version raised. Audited ``series_changed``."""
    _refuse_outsider(actor, series.club)
    with transaction.atomic():
        lock_club(series.club_id)
        locked = Series.objects.select_for_update().select_related("club").get(pk=series.pk)
        for name in SETTINGS:
            if name in settings:
                setattr(locked, name, settings[name])
        _checked(locked)
        locked.save(update_fields=list(SETTINGS))
        events = _set_events(locked, tournament_ids)
        Series.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        audit(None, actor, "series_changed", club=locked.club_id, series=locked.pk, name=locked.name, events=events)
    locked.refresh_from_db(fields=["version"])
    return locked
