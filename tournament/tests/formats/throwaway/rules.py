"""PURE: a table is decided when a player has won two games; the ranking by games won."""

from __future__ import annotations

from collections.abc import Mapping

from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatSpec, rank_by

WINS_NEEDED = 2
RULE_WINS = "wins"
RULE_START_NUMBER = "start_number"

SPEC = FormatSpec(
    slug="throwaway", stages=("main",), min_players=3, settings_used=(*SEATING_SETTINGS, CLUBS_APART, "first_to")
)


def table_decided(wins: Mapping[int, int], needed: int = WINS_NEEDED) -> bool:
    """A player has won ``needed`` games (the tournament's ``first_to``)."""
    return any(count >= needed for count in wins.values())


def rank(wins: Mapping[int, int], start_numbers: Mapping[int, int]) -> list[tuple[int, int, str]]:
    """(place, player, rule) by more games won, then the lower start number."""
    return rank_by(
        wins,
        [(RULE_WINS, lambda pid: -wins[pid]), (RULE_START_NUMBER, lambda pid: start_numbers[pid])],
    )
