"""Game rules by a stable slug (the value stored in Tournament.game)."""

from games.rules import schocken, uno
from games.rules.base import GameRules

RULES: dict[str, GameRules] = {rules.slug: rules for rules in (uno.RULES, schocken.RULES)}


def get_rules(slug: str) -> GameRules:
    return RULES[slug]
