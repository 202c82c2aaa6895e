"""Schocken, pure: a game's loser hands in a chip (throw ranking comes with the format's issue)."""

from games.rules.base import GameRules, ResultKind

LIDS_PER_HALF = 13

RULES = GameRules(slug="schocken", name="Schocken", result_kinds=(ResultKind.LOSER,))
