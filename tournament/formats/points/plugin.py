"""The points format's record (see ``tournament.formats.record.build``)."""

from __future__ import annotations

from tournament import enums
from tournament.formats.record import build

FORMAT = build("points", label=enums.Format.POINTS.label, games=(enums.Game.UNO,), entry="winner")
