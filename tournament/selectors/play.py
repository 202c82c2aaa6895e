"""Reads of play: rounds with their tables and seats, one table with its games.
Each function issues a fixed number of queries, whatever the number of players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from games.models import Game, GameScore
from tournament import enums
from tournament.models import Round, Seat, Table, Tournament


def current_round(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def _tables_with_players() -> Prefetch[Any]:
    return Prefetch(
        "tables",
        queryset=Table.objects.order_by("number").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        ),
    )


def rounds_overview(tournament: Tournament) -> list[Round]:
    """Every round with its tables, seats and players (three queries)."""
    return list(Round.objects.filter(tournament=tournament).order_by("number").prefetch_related(_tables_with_players()))


def round_tables(tournament: Tournament, round_number: int | None = None) -> Round | None:
    """One round (the current one by default) with its tables, seats and players."""
    qs = Round.objects.filter(tournament=tournament).prefetch_related(_tables_with_players())
    if round_number is not None:
        return qs.filter(number=round_number).first()
    return qs.order_by("-number").first()


@dataclass(frozen=True)
class TableView:
    """What a referee's tablet shows for one table."""

    table: Any
    seats: list[Any]
    games: list[Any]
    dealer_position: int | None
    next_game: int

    @property
    def last_game(self) -> Any:
        valid = [g for g in self.games if g.status == "valid"]
        return valid[-1] if valid else None


def table_view(tournament: Tournament, table_id: int) -> TableView:
    """A table with its seats, players and every game (valid and undone) with scores."""
    table = (
        Table.objects.select_related("round")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch(
                "games",
                queryset=Game.objects.select_related("winner", "loser", "entered_by")
                .prefetch_related(Prefetch("scores", queryset=GameScore.objects.select_related("player")))
                .order_by("number", "pk"),
            ),
        )
        .get(pk=table_id, round__tournament=tournament)
    )
    seats = list(table.seats.all())
    games = list(table.games.all())
    valid = sum(1 for g in games if g.status == "valid")
    dealer = None
    if table.first_dealer_position is not None and seats:
        dealer = (table.first_dealer_position + valid) % len(seats)
    return TableView(table=table, seats=seats, games=games, dealer_position=dealer, next_game=valid + 1)


def live_rounds(tournament: Tournament) -> list[Round]:
    """The rounds whose tables the referees' list shows: every running round (main and
    consolation rounds run at once), or the last round when none runs (three queries)."""
    rounds = list(
        Round.objects.filter(tournament=tournament, status=enums.RoundStatus.RUNNING)
        .order_by("number")
        .prefetch_related(_tables_with_players())
    )
    if rounds:
        return rounds
    last = round_tables(tournament)
    return [last] if last is not None else []
