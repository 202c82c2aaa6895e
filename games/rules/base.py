"""The GameRules record: a game's stable slug and its name.

Pure Python: no Django imports. How a game's result is entered at a table is the
format's (``tournament.formats.record.Format.entry`` and ``result_entry``), not the
game's: the same UNO game is entered by its winner in every format that plays it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameRules:
    slug: str
    name: str
