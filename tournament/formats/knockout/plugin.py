"""The knockout format's record (see ``tournament.formats.record.build``): the final's target is
set at the final's table too (its own URL)."""

from __future__ import annotations

from django.urls import path

from tournament import enums
from tournament.formats.base import Entry
from tournament.formats.knockout import dry_run, rules, selectors, services, settings, views
from tournament.formats.record import build

FINAL_TARGET = path(
    "t/<int:tournament_id>/referee/tables/<int:table_id>/final-target/", views.final_target, name="final_target"
)

FORMAT = build(
    "knockout",
    rules=rules,
    services=services,
    selectors=selectors,
    dry_run=dry_run,
    settings=settings,
    label=enums.Format.KNOCKOUT.label,
    games=(enums.Game.UNO,),
    entry=Entry.WINNER,
    urlpatterns=(FINAL_TARGET,),
)
