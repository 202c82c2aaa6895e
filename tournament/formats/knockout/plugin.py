"""The knockout format's record (see ``tournament.formats.record.build``)."""

from __future__ import annotations

from tournament import enums
from tournament.formats.record import build

FORMAT = build("knockout", label=enums.Format.KNOCKOUT.label, games=(enums.Game.UNO,), entry="winner")
