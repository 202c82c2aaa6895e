"""UNO card scoring, pure.

Scoring tables map card kinds to points; number cards always count their face
value. A hand is a count per card kind; ``hand_points`` prices it with a table.
Presets come from the rule documents: "standard" (championship, Italian club
rules, braille wiki) and "house rules" (Rosenfeld: wild +4 counts 70).
"""

from __future__ import annotations

from collections.abc import Mapping

from games.rules.base import GameRules

NUMBER_CARDS: tuple[str, ...] = tuple(str(n) for n in range(10))
ACTION_CARDS: tuple[str, ...] = ("draw_two", "reverse", "skip", "wild", "wild_draw_four")
CARD_KINDS: tuple[str, ...] = NUMBER_CARDS + ACTION_CARDS
# A deck has 108 cards; a hand or a typed total beyond these is a typing slip (and would overflow the
# database's integer columns long before any real game could).
MAX_CARDS_OF_A_KIND = 108
MAX_CARD_POINTS = 9_999

STANDARD_SCORING: Mapping[str, int] = {"draw_two": 20, "reverse": 20, "skip": 20, "wild": 50, "wild_draw_four": 50}
HOUSE_RULES_SCORING: Mapping[str, int] = {**STANDARD_SCORING, "wild_draw_four": 70}
SCORING_PRESETS: Mapping[str, Mapping[str, int]] = {"standard": STANDARD_SCORING, "house_rules": HOUSE_RULES_SCORING}

RULES = GameRules(slug="uno", name="UNO")


class InvalidScoringTable(ValueError):
    """A scoring table misses an action card or prices one below zero."""


def validate_scoring_table(table: Mapping[str, object]) -> dict[str, int]:
    """Return a clean copy of ``table`` or raise InvalidScoringTable."""
    clean: dict[str, int] = {}
    for kind in ACTION_CARDS:
        value = table.get(kind)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidScoringTable(kind)
        clean[kind] = value
    unknown = set(table) - set(ACTION_CARDS)
    if unknown:
        raise InvalidScoringTable(", ".join(sorted(unknown)))
    return clean


def card_value(kind: str, scoring: Mapping[str, int]) -> int:
    """Points of one card: number cards face value, action cards from ``scoring``."""
    if kind in NUMBER_CARDS:
        return int(kind)
    if kind in ACTION_CARDS:
        return scoring[kind]
    raise KeyError(kind)


def hand_points(hand: Mapping[str, int], scoring: Mapping[str, int]) -> int:
    """Points of a hand given as {card kind: count}. Counts must be >= 0."""
    total = 0
    for kind, count in hand.items():
        if count < 0:
            raise ValueError(f"negative count for {kind}")
        total += card_value(kind, scoring) * count
    return total
