"""The points format's record (see ``tournament.formats.record.build``): its own pages show who
plays the next round, pause a player for it and bring them back, preview the next round's
seating and seat it as shown."""

from __future__ import annotations

from django.urls import path

from tournament import enums
from tournament.formats.base import Entry
from tournament.formats.points import dry_run, rules, selectors, services, settings, views
from tournament.formats.record import build

FIELD = path("t/<int:tournament_id>/points/rounds/<int:number>/players/", views.field, name="points_field")
PAUSE = path("t/<int:tournament_id>/points/players/<int:player_id>/pause/", views.pause, name="points_pause")
RESUME = path("t/<int:tournament_id>/points/players/<int:player_id>/back/", views.resume, name="points_back")

PREVIEW = path("t/<int:tournament_id>/points/rounds/<int:number>/preview/", views.preview, name="points_preview")
SEAT = path("t/<int:tournament_id>/points/rounds/<int:number>/seat/", views.seat_previewed, name="points_seat")

FORMAT = build(
    "points",
    rules=rules,
    services=services,
    selectors=selectors,
    dry_run=dry_run,
    settings=settings,
    label=enums.Format.POINTS.label,
    games=(enums.Game.UNO,),
    entry=Entry.WINNER,
    urlpatterns=(FIELD, PAUSE, RESUME, PREVIEW, SEAT),
)
