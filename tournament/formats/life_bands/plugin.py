"""The life-bands format's record (see ``tournament.formats.record.build``): Schocken games are
entered by their loser, main and consolation rounds play at once, and the half tracker is its own page."""

from __future__ import annotations

from django.urls import path

from tournament import enums
from tournament.formats.base import Entry
from tournament.formats.life_bands import dry_run, rules, selectors, services, settings, views
from tournament.formats.record import build

HALF_TRACKER = path(
    "t/<int:tournament_id>/referee/tables/<int:table_id>/half-tracker/", views.half_tracker, name="half_tracker"
)

FORMAT = build(
    "life_bands",
    rules=rules,
    services=services,
    selectors=selectors,
    dry_run=dry_run,
    settings=settings,
    label=enums.Format.LIFE_BANDS.label,
    games=(enums.Game.SCHOCKEN,),
    entry=Entry.LOSER,
    parallel_rounds=True,
    urlpatterns=(HALF_TRACKER,),
)
