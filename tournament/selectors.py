"""Every read used by views. Each function issues a fixed number of queries,
whatever the number of players (tests prove it at two sizes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, Count, F, Prefetch, Q, QuerySet, Value, When

from games.models import Game, GameScore
from tournament import enums
from tournament.formats import knockout
from tournament.models import (
    AuditEntry,
    CheckIn,
    Player,
    PlayerCheck,
    Round,
    Seat,
    StaffRole,
    StartNumberDraw,
    Table,
    Tournament,
)
from tournament.services import REFUSED

CHECKIN_LIST_LIMIT = 60


def tournaments_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """Tournaments the user has a role in (every tournament for a superuser)."""
    qs = Tournament.objects.all()
    if not getattr(user, "is_superuser", False):
        qs = qs.filter(staff__user=user).distinct()
    return qs.order_by("-date", "name")


def roles_of(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> set[str]:
    if not user.is_authenticated:
        return set()
    roles = set(StaffRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True))
    if getattr(user, "is_superuser", False):
        roles.add(enums.Role.ORGANISER)
    return roles


@dataclass(frozen=True)
class DeskCounters:
    registered: int
    checked_in: int
    waiting: int
    missing: int
    withdrawn: int
    no_show: int
    capacity: int

    @property
    def free_places(self) -> int:
        return max(0, self.capacity - self.registered)


def desk_counters(tournament: Tournament) -> DeskCounters:
    """Registered (holding a place), checked in, waiting, missing (registered, not yet here)."""
    status = enums.PlayerStatus
    counts = Player.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk", filter=Q(status__in=[status.REGISTERED, status.CHECKED_IN])),
        checked_in=Count("pk", filter=Q(status=status.CHECKED_IN)),
        waiting=Count("pk", filter=Q(status=status.WAITING)),
        missing=Count("pk", filter=Q(status=status.REGISTERED)),
        withdrawn=Count("pk", filter=Q(status=status.WITHDRAWN)),
        no_show=Count("pk", filter=Q(status=status.NO_SHOW)),
    )
    return DeskCounters(capacity=tournament.capacity, **counts)


def _with_desk_details(qs: QuerySet[Player]) -> QuerySet[Player]:
    return qs.prefetch_related(
        Prefetch("checks", queryset=PlayerCheck.objects.only("pk", "player_id", "item_id", "returned_at")),
        Prefetch(
            "check_ins",
            queryset=CheckIn.objects.filter(cancelled_at__isnull=True).select_related("checked_in_by"),
            to_attr="live_check_ins",
        ),
    )


def search_players(
    tournament: Tournament, query: str = "", limit: int = CHECKIN_LIST_LIMIT
) -> tuple[list[Player], int]:
    """Players matching a name fragment or a start number, for the check-in screen.

    Returns at most ``limit`` players (exact start number first, then by name)
    and how many matched in all.
    """
    qs = Player.objects.filter(tournament=tournament)
    query = query.strip()
    order: list[Any] = ["name", "pk"]
    # isdecimal, not isdigit: int() refuses digits such as "²".
    if query.isdecimal():
        number = int(query)
        qs = qs.filter(Q(start_number=number) | Q(name__icontains=query))
        # Sorted in the database, so the exact number is never cut off by the limit.
        order.insert(0, Case(When(start_number=number, then=Value(0)), default=Value(1)))
    elif query:
        for word in query.split():
            qs = qs.filter(name__icontains=word)
    total = qs.count()
    players = list(_with_desk_details(qs.order_by(*order))[:limit])
    return players, total


def desk_player(tournament: Tournament, player_id: int) -> Player:
    """One player with what the check-in row shows."""
    return _with_desk_details(Player.objects.filter(tournament=tournament, pk=player_id)).get()


def players_for_print(tournament: Tournament, *, checked_in_only: bool = False) -> list[Player]:
    qs = Player.objects.filter(tournament=tournament).exclude(
        status__in=[enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW]
    )
    if checked_in_only:
        qs = qs.filter(status=enums.PlayerStatus.CHECKED_IN)
    return list(_with_desk_details(qs).order_by(*(("start_number", "name") if checked_in_only else ("name",))))


def all_players(tournament: Tournament) -> list[Player]:
    """Every player, waiting list in its order at the end, for the printable list."""
    return list(_with_desk_details(Player.objects.filter(tournament=tournament)).order_by("name", "pk"))


def latest_draw(tournament: Tournament) -> StartNumberDraw | None:
    return tournament.draws.select_related("drawn_by").first()


def draw_result(tournament: Tournament) -> list[Player]:
    """Checked-in players in start-number order, for the draw result list."""
    return list(
        Player.objects.filter(tournament=tournament, start_number__isnull=False)
        .exclude(status__in=[enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW])
        .order_by("start_number")
    )


def waiting_list(tournament: Tournament) -> list[Player]:
    return list(
        # The order in which services moves players up (services.WAITING_LIST_ORDER).
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.WAITING).order_by(
            "status_changed_at", "registered_at", "pk"
        )
    )


def staff_of(tournament: Tournament) -> list[StaffRole]:
    return list(
        StaffRole.objects.filter(tournament=tournament).select_related("user").order_by("role", "user__username")
    )


def overrides(tournament: Tournament) -> list[CheckIn]:
    """Check-ins made over open checklist items, newest first."""
    return list(
        CheckIn.objects.filter(player__tournament=tournament, override=True)
        .select_related("player", "checked_in_by")
        .order_by("-checked_in_at")
    )


# --- play -------------------------------------------------------------------------------


def knockout_entrants(tournament: Tournament) -> list[knockout.Entrant]:
    """Snapshot of the checked-in players for the knockout format."""
    players = Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    return [knockout.Entrant(id=p.pk, start_number=p.start_number or 0, club=p.club) for p in players]


def knockout_rounds(tournament: Tournament) -> list[knockout.RoundResult]:
    """Snapshot of every round's table results (two queries, whatever the size)."""
    results = []
    rounds = Round.objects.filter(tournament=tournament).order_by("number").prefetch_related("tables__seats")
    for rnd in rounds:
        tables = tuple(
            knockout.TableResult(
                number=table.number,
                is_duel=table.is_duel,
                seats=tuple(
                    knockout.SeatResult(player_id=seat.player_id, place=seat.place or 0, games_won=seat.games_won)
                    for seat in table.seats.all()
                ),
            )
            for table in rnd.tables.all()
        )
        final_order: tuple[int, ...] = ()
        if rnd.stage == enums.Stage.FINAL:
            main = next((t for t in rnd.tables.all() if not t.is_duel), None)
            if main is not None:
                final_order = tuple(s.player_id for s in sorted(main.seats.all(), key=lambda s: s.place or 99))
        results.append(
            knockout.RoundResult(number=rnd.stage_number, stage=rnd.stage, tables=tables, final_order=final_order)
        )
    return results


@dataclass(frozen=True)
class RankingRow:
    place: int
    player: Player
    reached: str
    reached_round: int
    games_won: int
    decided_by: str
    final_place: int | None


def final_ranking(tournament: Tournament) -> list[RankingRow]:
    """Everyone ranked (knockout): how far they got, games won, start number."""
    entrants = knockout_entrants(tournament)
    entries = knockout.rank_players(entrants, knockout_rounds(tournament))
    players = {p.pk: p for p in Player.objects.filter(pk__in=[e.id for e in entrants])}
    return [
        RankingRow(
            place=e.place,
            player=players[e.player_id],
            reached=e.reached,
            reached_round=e.reached_round,
            games_won=e.games_won,
            decided_by=e.decided_by,
            final_place=e.final_place,
        )
        for e in entries
    ]


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


def returnable_checks(tournament: Tournament) -> list[PlayerCheck]:
    """Handed-in equipment (own decks) with its player, not yet returned first."""
    return list(
        PlayerCheck.objects.filter(player__tournament=tournament, item__returnable=True)
        .select_related("player", "item")
        .order_by(F("returned_at").asc(nulls_first=True), "player__name")
    )


AUDIT_PAGE_SIZE = 100


@dataclass(frozen=True)
class AuditPage:
    """One page of a tournament's audit log, newest first, with the players its entries name."""

    entries: list[AuditEntry]
    players: dict[int, Player]
    page: int
    has_next: bool
    refused_total: int


def refused_count(tournament: Tournament) -> int:
    """How many entries the tournament's services refused (one query)."""
    return AuditEntry.objects.filter(tournament=tournament, action=REFUSED).count()


def audit_page(tournament: Tournament, *, refused_only: bool = False, page: int = 1) -> AuditPage:
    """Audit entries of ``tournament`` (``refused_only``: the refused entries), 100 a page (three queries)."""
    page = max(page, 1)
    entries_qs = AuditEntry.objects.filter(tournament=tournament).select_related("actor").order_by("-created_at", "-pk")
    if refused_only:
        entries_qs = entries_qs.filter(action=REFUSED)
    start = (page - 1) * AUDIT_PAGE_SIZE
    entries = list(entries_qs[start : start + AUDIT_PAGE_SIZE + 1])
    has_next = len(entries) > AUDIT_PAGE_SIZE
    entries = entries[:AUDIT_PAGE_SIZE]
    ids = {
        value
        for entry in entries
        for key in ("player", "winner", "loser", "player_id", "winner_id", "loser_id")
        if isinstance(value := entry.detail.get(key), int)
    }
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament, pk__in=ids)} if ids else {}
    return AuditPage(
        entries=entries, players=players, page=page, has_next=has_next, refused_total=refused_count(tournament)
    )
