"""Helpers of the points-format tests (services here, exports in ``tests/views``):
a field, a round, one game, a whole round played, the valid points per player."""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping

from django.db.models import Sum

from games.models import Game, GameScore, GameStatus
from tournament import enums, simulation
from tournament.formats.points import services as points_services
from tournament.models import Round, Table, Tournament
from tournament.tests.helpers import field_at_once, refreshed, seated, set_dealer, set_settings, undo


def points_field(players: int = 12, seed: int = 1, **settings: object) -> Tournament:
    """A points tournament: ``players`` checked in, start numbers drawn, no round yet."""
    tournament = field_at_once(fmt=enums.Format.POINTS, players=players, seed=seed)
    if settings:
        set_settings(tournament, **settings)
        tournament.refresh_from_db()
    return tournament


def start(tournament: Tournament, seed: int = 7) -> Round:
    return points_services.start_round(tournament=tournament, actor=None, seed=seed)


def record(
    tournament: Tournament,
    table: Table,
    winner: int,
    *,
    points: Mapping[int, int] | None = None,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    key: str | None = None,
    version: int | None = None,
) -> Game:
    """One game; without points or hands every other player holds 5 points."""
    if points is None and hands is None:
        points = {pid: 5 for pid in seated(table) if pid != winner}
    return points_services.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=winner,
        version=refreshed(table).version if version is None else version,
        idempotency_key=key or uuid.uuid4().hex,
        card_points=points,
        hands=hands,
    )


def play_round(tournament: Tournament, rnd: Round, seed: int = 1) -> None:
    rng = random.Random(seed)
    for table in rnd.tables.order_by("number"):
        simulation.play_table(tournament, table, rng, None)


def valid_points(tournament: Tournament) -> dict[int, int]:
    rows = (
        GameScore.objects.filter(game__table__round__tournament=tournament, game__status=GameStatus.VALID)
        .values("player_id")
        .annotate(total=Sum("points"))
    )
    return {row["player_id"]: row["total"] for row in rows}


def round_two_under_way() -> tuple[Tournament, Table]:
    """Round 1 of 12 players played; in round 2 table 1 has a valid and an undone game.
    Returns the tournament and that table."""
    tournament = points_field(players=12, seed=8)
    play_round(tournament, start(tournament, seed=1))
    second = start(tournament, seed=2)
    table = second.tables.order_by("number").first()
    assert table is not None
    a, b, c = set_dealer(tournament, table)
    record(tournament, table, a, points={b: 7, c: 11})
    record(tournament, table, b, hands={a: {"wild": 1}, c: {"4": 1}})
    undo(tournament, table)
    return tournament, refreshed(table)


def play_playoffs(tournament: Tournament, seed: int = 1) -> list[Round]:
    """Seat and play every play-off the settings ask for (a tie in one makes the next due)."""
    from tournament.formats.points import selectors as points_selectors

    rng = random.Random(seed)
    seated_rounds = []
    while points_selectors.due_playoffs(tournament):
        playoff = points_services.seat_playoff(tournament=tournament, actor=None)
        for table in playoff.tables.order_by("number"):
            simulation.play_table(tournament, table, rng, None)
        seated_rounds.append(playoff)
    return seated_rounds


def finish(tournament: Tournament, *, confirmed: bool = False) -> Tournament:
    """Play the play-offs due, then finish the tournament."""
    play_playoffs(tournament)
    return points_services.finish(tournament=tournament, actor=None, confirmed=confirmed)
