"""Reads of the points format: the seating history, the standings, and what its
pages show beyond the common parts. Fixed query counts."""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import GameScore, GameStatus
from tournament import enums
from tournament.formats.points import rules as points
from tournament.formats.record import START_NUMBER_RULE, Label, PublicExtras, Standing
from tournament.models import Player, Round, Seat, Table, Tournament

# The ranking page's title, the columns it fills beyond place and name, and whether the
# ranking means something while play goes on (the public pages then show it as standings).
RANKING_TITLE = gettext_lazy("Standings")
RANKING_COLUMNS = ("points", "games_won", "games_played", "best_round")
LIVE_STANDINGS = True
RULE_LABELS: dict[str, Label] = {
    points.RULE_TOTAL: gettext_lazy("fewer points"),
    points.RULE_GAMES_WON: gettext_lazy("tie: more games won"),
    points.RULE_BEST_ROUND: gettext_lazy("tie: lower best round"),
    **START_NUMBER_RULE,
}


def history(tournament: Tournament) -> list[list[list[int]]]:
    """Every earlier round's tables as lists of player ids, oldest first."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "player_id")
    )
    for round_number, table_number, pid in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(pid)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def ranking(tournament: Tournament) -> list[Standing]:
    """Standings over every valid game: fewer points, more games won, lower best round, start number.

    A withdrawn player keeps their points and is listed if they played.
    """
    players = {
        p.pk: p
        for p in Player.objects.filter(
            tournament=tournament,
            status__in=[enums.PlayerStatus.CHECKED_IN, enums.PlayerStatus.WITHDRAWN],
        )
    }
    scores = GameScore.objects.filter(
        game__table__round__tournament=tournament, game__status=GameStatus.VALID
    ).values_list("game_id", "game__table__round__number", "game__winner_id", "player_id", "points")
    games: dict[int, tuple[int, int, dict[int, int]]] = {}
    for game_id, round_number, winner, pid, value in scores:
        games.setdefault(game_id, (round_number, winner, {}))[2][pid] = value
    played = {pid for _r, _w, pts in games.values() for pid in pts}
    start = {
        pid: p.start_number or 0
        for pid, p in players.items()
        if p.status == enums.PlayerStatus.CHECKED_IN or pid in played
    }
    rows = points.standings(
        start,
        [points.GameResult(round_number=r, winner=w, points=pts) for r, w, pts in games.values()],
    )
    return [
        Standing.of(
            row,
            players[row.player_id],
            RULE_LABELS,
            points=row.total,
            games_won=row.games_won,
            games_played=row.games_played,
            best_round=row.best_round,
        )
        for row in rows
    ]


def rounds_played(tournament: Tournament) -> int:
    return Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0


def rounds_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    return {"rounds_left": max(tournament.rounds_planned - len(rounds), 0)}


def table_context(tournament: Tournament, view: Any) -> dict[str, Any]:
    """Every game counts card points: the calculator, penalties for the others, time called."""
    return {
        "calculator": True,
        "penalties": True,
        "open_duels": [],
        "tied_players": set(),
        "can_call_time": bool(tournament.round_time_limit_minutes),
    }


def public_extras(tournament: Tournament) -> PublicExtras:
    return PublicExtras()


def default_checklist() -> list[str]:
    return [_("Entry fee paid"), _("Own deck checked")]


def counts_card_points(table: Table) -> bool:
    """Every game counts the cards left in hand as penalty points."""
    return True
