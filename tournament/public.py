"""What the public sees: one snapshot of a tournament for the projector, the
phone page and the JSON API. No staff data (contacts, checklist, overrides).

Every function issues a fixed number of queries, whatever the field size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from tournament import enums, selectors
from tournament.models import Player, Round, Seat, Table, Tournament

ALPHA_PAGE = 120
TABLES_PAGE = 12


@dataclass
class PublicSeat:
    position: int
    start_number: int | None
    name: str
    club: str
    games_won: int
    points: int
    place: int | None
    player_id: int


@dataclass
class PublicTable:
    number: int
    status: str
    is_duel: bool
    wins_needed: int | None
    points_target: int | None
    seats: list[PublicSeat]


@dataclass
class PublicRound:
    number: int
    stage: str
    stage_label: str
    label: str
    stage_number: int
    status: str
    tables: list[PublicTable]


@dataclass
class Snapshot:
    tournament: Tournament
    rounds: list[PublicRound]
    ranking: list[selectors.RankingRow] = field(default_factory=list)

    @property
    def current(self) -> PublicRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def finished(self) -> bool:
        return self.tournament.status == enums.TournamentStatus.FINISHED

    def seating_alphabetical(self) -> list[tuple[PublicSeat, PublicTable]]:
        if self.current is None:
            return []
        pairs = [(seat, table) for table in self.current.tables for seat in table.seats]
        return sorted(pairs, key=lambda pair: pair[0].name.casefold())


def current_version(tournament_id: int) -> int | None:
    """The tournament's version: one query, the basis of every ETag."""
    return Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()


def snapshot(tournament: Tournament) -> Snapshot:
    """Rounds, tables, seats and players (three queries), plus the ranking when decided."""
    rounds = (
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.order_by("number").prefetch_related(
                    Prefetch(
                        "seats",
                        queryset=Seat.objects.select_related("player")
                        .only(
                            "position",
                            "games_won",
                            "points",
                            "place",
                            "table_id",
                            "player__name",
                            "player__club",
                            "player__start_number",
                        )
                        .order_by("position"),
                    )
                ),
            )
        )
    )
    public_rounds = [
        PublicRound(
            number=rnd.number,
            stage=rnd.stage,
            stage_label=str(rnd.get_stage_display()),
            label=str(rnd),
            stage_number=rnd.stage_number,
            status=rnd.status,
            tables=[
                PublicTable(
                    number=table.number,
                    status=table.status,
                    is_duel=table.is_duel,
                    wins_needed=table.wins_needed,
                    points_target=table.points_target,
                    seats=[
                        PublicSeat(
                            position=seat.position,
                            start_number=seat.player.start_number,
                            name=seat.player.name,
                            club=seat.player.club,
                            games_won=seat.games_won,
                            points=seat.points,
                            place=seat.place,
                            player_id=seat.player_id,
                        )
                        for seat in table.seats.all()
                    ],
                )
                for table in rnd.tables.all()
            ],
        )
        for rnd in rounds
    ]
    ranking: list[selectors.RankingRow] = []
    if tournament.status == enums.TournamentStatus.FINISHED and tournament.format == enums.Format.KNOCKOUT:
        ranking = selectors.final_ranking(tournament)
    return Snapshot(tournament=tournament, rounds=public_rounds, ranking=ranking)


def chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[index : index + size] for index in range(0, len(items), size)] or [[]]


@dataclass(frozen=True)
class PlayerLookup:
    player: Player
    rounds: list[tuple[PublicRound, PublicTable, PublicSeat]]
    rank: selectors.RankingRow | None


def find_players(tournament: Tournament, query: str, limit: int = 8) -> list[Player]:
    """Players by start number or a part of their name (checked in, or playing)."""
    query = query.strip()
    if not query:
        return []
    qs = Player.objects.filter(tournament=tournament).exclude(
        status__in=[enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW, enums.PlayerStatus.WAITING]
    )
    if query.isdecimal():
        return list(qs.filter(start_number=int(query))[:limit])
    for word in query.split():
        qs = qs.filter(name__icontains=word)
    return list(qs.order_by("name")[:limit])


def lookup(snap: Snapshot, player: Player) -> PlayerLookup:
    """Where a player sat in every round, and their place once decided."""
    found = []
    for rnd in snap.rounds:
        for table in rnd.tables:
            for seat in table.seats:
                if seat.player_id == player.pk:
                    found.append((rnd, table, seat))
    rank = next((row for row in snap.ranking if row.player.pk == player.pk), None)
    return PlayerLookup(player=player, rounds=found, rank=rank)


def as_json(snap: Snapshot) -> dict[str, Any]:
    """The read-only API document (see README, "Public JSON")."""
    t = snap.tournament
    return {
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "date": t.date.isoformat(),
            "venue": t.venue,
            "game": t.game,
            "format": t.format,
            "status": t.status,
            "version": t.version,
        },
        "rounds": [
            {
                "number": rnd.number,
                "stage": rnd.stage,
                "stage_number": rnd.stage_number,
                "label": rnd.label,
                "status": rnd.status,
                "tables": [
                    {
                        "number": table.number,
                        "status": table.status,
                        "is_duel": table.is_duel,
                        "wins_needed": table.wins_needed,
                        "points_target": table.points_target,
                        "seats": [
                            {
                                "position": seat.position,
                                "start_number": seat.start_number,
                                "name": seat.name,
                                "club": seat.club,
                                "games_won": seat.games_won,
                                "points": seat.points,
                                "place": seat.place,
                            }
                            for seat in table.seats
                        ],
                    }
                    for table in rnd.tables
                ],
            }
            for rnd in snap.rounds
        ],
        "standings": [
            {
                "place": row.place,
                "start_number": row.player.start_number,
                "name": row.player.name,
                "reached": row.reached,
                "games_won": row.games_won,
                "decided_by": row.decided_by,
            }
            for row in snap.ranking
        ],
    }
