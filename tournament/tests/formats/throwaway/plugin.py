"""The throwaway format's record (``tournament.formats.record.build``), as a fourth format writes it."""

from __future__ import annotations

from tournament import enums
from tournament.formats.base import Entry
from tournament.formats.record import build
from tournament.tests.formats.throwaway import dry_run, rules, selectors, services, settings

FORMAT = build(
    "throwaway",
    rules=rules,
    services=services,
    selectors=selectors,
    dry_run=dry_run,
    settings=settings,
    label="First to two wins",
    games=(enums.Game.UNO,),
    entry=Entry.WINNER,
)
