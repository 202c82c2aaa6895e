"""A table's state is recomputed from its valid games after every change, never edited by hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils import timezone

from games.models import Game, GameStatus
from tournament import enums
from tournament.models import Seat, Table, Tournament
from tournament.writes import bump


@dataclass
class Tally:
    """A table's seats (seat order, players loaded), valid games and what they add up to."""

    seats: list[Seat]
    games: list[Game]
    wins: dict[int, int]
    points: dict[int, int]
    start_numbers: dict[int, int]


def tally(table: Table) -> Tally:
    """Games won and card points per player over the table's valid games (three queries).

    No query when ``table`` carries its seats (players loaded) and every game (scores loaded)
    already, as a result entry hands them over (``play.results.TableRead.prime_locked_table``): read before
    the tournament lock and checked against the table's version under it."""
    known = getattr(table, "_prefetched_objects_cache", {})
    if "seats" in known and "games" in known:
        seats = sorted(table.seats.all(), key=lambda seat: seat.position)
        games = sorted((g for g in table.games.all() if g.status == GameStatus.VALID), key=lambda g: g.number)
    else:
        seats = list(table.seats.select_related("player").order_by("position"))
        games = list(table.games.filter(status=GameStatus.VALID).order_by("number").prefetch_related("scores"))
    wins = {seat.player_id: 0 for seat in seats}
    points = {seat.player_id: 0 for seat in seats}
    for game in games:
        if game.winner_id is not None:
            wins[game.winner_id] += 1
        for score in game.scores.all():
            points[score.player_id] += score.points
    start = {seat.player_id: seat.player.start_number or 0 for seat in seats}
    return Tally(seats=seats, games=games, wins=wins, points=points, start_numbers=start)


def save_tally(table: Table, result: Tally, places: Mapping[int, int], *, decided: bool) -> None:
    """Store the tallies and places on the seats (the winner, place 1, advances) and the table's outcome.

    Only the seats whose figures changed are written (a game usually changes one seat's wins): one
    plain UPDATE for a single seat, one bulk update for more, none when nothing changed."""
    fields = ("games_won", "points", "place", "advances")
    changed: list[Seat] = []
    for seat in result.seats:
        before = tuple(getattr(seat, name) for name in fields)
        seat.games_won = result.wins[seat.player_id]
        seat.points = result.points[seat.player_id]
        seat.place = places.get(seat.player_id)
        seat.advances = (seat.place == 1) if decided else None
        if tuple(getattr(seat, name) for name in fields) != before:
            changed.append(seat)
    if len(changed) == 1:
        seat = changed[0]
        Seat.objects.filter(pk=seat.pk).update(**{name: getattr(seat, name) for name in fields})
    elif changed:
        Seat.objects.bulk_update(changed, list(fields))


def save_outcome(tournament: Tournament, table: Table, *, decided: bool) -> None:
    """The table is decided or still playing; its version moves on (tablets that saw the old one
    are refused) and so does the tournament's (public pages update)."""
    table.status = enums.TableStatus.DECIDED if decided else enums.TableStatus.PLAYING
    table.decided_at = timezone.now() if decided else None
    table.version += 1
    table.save(update_fields=["status", "decided_at", "version"])
    bump(tournament)
