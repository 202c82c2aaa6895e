"""The throwaway format's reads."""

from __future__ import annotations

from typing import Any

from tournament.formats.record import START_NUMBER_RULE, Label, PublicExtras, RatedOrder, RatedTable, Standing
from tournament.models import Round, Table, Tournament

# Plain words: a throwaway format adds nothing to the translations.
RANKING_TITLE = "Final ranking"
RANKING_COLUMNS = ("games_won",)
LIVE_STANDINGS = False
RULE_LABELS: dict[str, Label] = {"wins": "more games won", **START_NUMBER_RULE}


def ranking(tournament: Tournament) -> list[Standing]:
    return []


def rounds_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    return {}


def table_context(tournament: Tournament, view: Any) -> dict[str, Any]:
    return {"calculator": False, "penalties": False, "open_duels": [], "tied_players": set(), "can_call_time": False}


def public_extras(tournament: Tournament) -> PublicExtras:
    return PublicExtras()


def default_checklist() -> list[str]:
    return ["Entry fee paid"]


def counts_card_points(table: Table) -> bool:
    return False


def rating_order(table: RatedTable) -> RatedOrder | None:
    return None
