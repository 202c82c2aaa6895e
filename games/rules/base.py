"""The GameRules contract: what the tournament layer needs from a game.

Pure Python: no Django imports. A game's rules say how a table's games are
recorded (a winner per game, a loser per game, or card points) so the
referee tablet can offer the right buttons.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ResultKind(enum.Enum):
    """What a referee records after each game."""

    WINNER = "winner"  # UNO knockout tables: who went out first
    LOSER = "loser"  # Schocken: who lost the game (hands in a chip)
    CARD_POINTS = "card_points"  # UNO finals and points tournaments: cards left in hands


@dataclass(frozen=True)
class GameRules:
    slug: str
    name: str
    result_kinds: tuple[ResultKind, ...]
