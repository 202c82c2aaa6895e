"""Reads of play: rounds with their tables and seats, one table with its games.
Each function issues a fixed number of queries, whatever the number of players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, Max, OuterRef, Prefetch, Q, prefetch_related_objects
from django.utils.translation import gettext as _

from games.models import Game, GameScore, GameStatus, number_after
from tournament import enums
from tournament.models import Round, Seat, Table, Tournament
from tournament.selectors.moment import read_snapshot


def current_round(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def _tables_with_players(first: int = 1, count: int | None = None) -> Prefetch[Any]:
    """The tables numbered from ``first`` (``count`` of them; all with None), seats and players."""
    tables = Table.objects.filter(number__gte=first).order_by("number", "pk")
    if count is not None:
        tables = tables.filter(number__lt=first + count)
    return Prefetch(
        "tables",
        queryset=tables.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        ),
    )


def rounds_overview(tournament: Tournament) -> list[Round]:
    """Every round with its tables, seats and players (three queries)."""
    return list(Round.objects.filter(tournament=tournament).order_by("number").prefetch_related(_tables_with_players()))


def _no_tables(rnd: Round) -> None:
    """Mark ``rnd`` collapsed: its tables read as none (a page never queries them one round at a time)."""
    rnd.collapsed = True  # type: ignore[attr-defined]
    queryset = rnd.tables.none()
    queryset._result_cache = []
    queryset._prefetch_done = True
    if not hasattr(rnd, "_prefetched_objects_cache"):
        rnd._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    rnd._prefetched_objects_cache["tables"] = queryset  # type: ignore[attr-defined]


def rounds_page(
    tournament: Tournament, opened: int | None = None, first: int = 1, count: int | None = None
) -> list[Round]:
    """Every round, each with ``table_count``, ``playing_count`` (tables still playing) and
    ``last_number`` (its highest table number); only the rounds a page shows in full carry their
    tables, seats and players: the running rounds (main and consolation rounds run at once), or
    the last round when none runs, and the round ``opened`` (a number; one that does not exist
    opens nothing), each only its tables numbered from ``first`` (``count`` of them; all with
    None). The others are ``collapsed`` and have no tables. Four queries (one without rounds).

    The cost follows what is shown: an earlier round's thousands of seats are read only when the
    organiser opens it, and a round of 1,000 tables is read a page at a time."""
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables"),
            playing_count=Count("tables", filter=Q(tables__status=enums.TableStatus.PLAYING)),
            last_number=Max("tables__number"),
        )
        .order_by("number")
    )
    shown = {rnd.number for rnd in rounds if rnd.status == enums.RoundStatus.RUNNING}
    if rounds and not shown:
        shown.add(rounds[-1].number)
    always = set(shown)
    if opened is not None:
        shown.add(opened)
    full = [rnd for rnd in rounds if rnd.number in shown]
    prefetch_related_objects(full, _tables_with_players(first, count))
    for rnd in rounds:
        rnd.opened = rnd.number == opened and opened not in always  # type: ignore[attr-defined]
        if rnd.number in shown:
            rnd.collapsed = False  # type: ignore[attr-defined]
        else:
            _no_tables(rnd)
    return rounds


def playing_tables(rnd: Round, limit: int) -> list[Table]:
    """The first ``limit`` tables of ``rnd`` still playing, by number (one query)."""
    return list(
        Table.objects.filter(round=rnd, status=enums.TableStatus.PLAYING)
        .only("pk", "number", "is_duel", "round_id")
        .order_by("number")[:limit]
    )


def round_tables(
    tournament: Tournament, round_number: int | None = None, first: int = 1, count: int | None = None
) -> Round | None:
    """One round (the current one by default) with ``last_number`` (its highest table number) and
    its tables numbered from ``first`` (``count`` of them; all with None), seats and players."""
    tables = Table.objects.filter(number__gte=first).order_by("number", "pk")
    if count is not None:
        tables = tables.filter(number__lt=first + count)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    qs = (
        Round.objects.filter(tournament=tournament)
        .annotate(last_number=Max("tables__number"))
        .prefetch_related(Prefetch("tables", queryset=tables.prefetch_related(seats)))
    )
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

    @property
    def pending(self) -> Any:
        """A player's entry waiting for a table-mate's confirmation (``passes.table_entry``), or None."""
        return next((g for g in self.games if g.status == GameStatus.PENDING), None)

    @property
    def pending_line(self) -> str:
        """The pending entry in words ("Anna entered: Ben won game 3 (points: Carl 5, Dora 5)."), or ""."""
        return pending_line(self.pending, self.seats) if self.pending is not None else ""


def table_view(tournament: Tournament, table_id: int) -> TableView:
    """A table with its seats, players and every game (valid and undone) with scores, read in one
    moment (``read_snapshot``): the version its forms post belongs to the games they show."""
    with read_snapshot():
        table = _table_with_games(tournament, table_id)
        return _table_view(table, list(table.seats.all()), list(table.games.all()))


def _table_with_games(tournament: Tournament, table_id: int) -> Table:
    return (
        Table.objects.select_related("round")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch(
                "games",
                queryset=Game.objects.select_related("winner", "loser", "entered_by", "confirmed_by")
                .prefetch_related(
                    Prefetch("scores", queryset=GameScore.objects.select_related("player").order_by("pk"))
                )
                .order_by("number", "pk"),
            ),
        )
        .get(pk=table_id, round__tournament=tournament)
    )


def table_view_after_entry(table: Table, actor: Any) -> TableView:
    """The view of a table a result entry has just written, from what the entry held in memory
    (``play.results``: the locked table with its round, its seats and players as refreshed, every
    game with its scores, the new one included), so the answer to a tap reads the table no second
    time. The names the panel shows are filled in from the seats; who entered each game from
    ``actor``, else one query when another tablet entered games at this table. What it renders is
    exactly what ``table_view`` would read (tested)."""
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    games = sorted(table.games.all(), key=lambda game: (game.number, game.pk))
    players = {seat.player_id: seat.player for seat in seats}
    others = {game.entered_by_id for game in games} - {None, getattr(actor, "pk", None)}
    users = {actor.pk: actor} if getattr(actor, "pk", None) is not None else {}
    if others:
        users.update(get_user_model().objects.in_bulk(others))
    for game in games:
        # Only what is known is set (setting None would clear the id); anything else is read when shown.
        for relation, known in (("winner", players), ("loser", players), ("entered_by", users)):
            found = known.get(getattr(game, f"{relation}_id"))
            if found is not None:
                setattr(game, relation, found)
        scores = sorted(game.scores.all(), key=lambda score: score.pk)  # as table_view orders them
        for score in scores:
            if score.player_id in players:
                score.player = players[score.player_id]
        game.scores.all()._result_cache[:] = scores  # type: ignore[attr-defined]
    return _table_view(table, seats, games)


def _table_view(table: Table, seats: list[Any], games: list[Any]) -> TableView:
    valid = sum(1 for g in games if g.status == "valid")
    dealer = None
    if table.first_dealer_position is not None and seats:
        dealer = (table.first_dealer_position + valid) % len(seats)
    return TableView(table=table, seats=seats, games=games, dealer_position=dealer, next_game=number_after(games))


# Tables a page of the referees' list shows, per round: a range of table numbers.
TABLES_PER_PAGE = 60


def table_range(number: int | None) -> int:
    """The first table number of the page that holds table ``number`` (1 for None)."""
    if number is None or number < 1:
        return 1
    return (number - 1) // TABLES_PER_PAGE * TABLES_PER_PAGE + 1


def live_rounds(tournament: Tournament, first: int = 1, count: int | None = None) -> list[Round]:
    """The rounds whose tables the referees' list shows: every running round (main and
    consolation rounds run at once), or the last round when none runs; each with
    ``table_count`` and ``last_number`` and, with seats and players, only its tables numbered
    from ``first`` (``count`` of them; all with None). Four queries at most."""
    rounds = list(
        Round.objects.filter(tournament=tournament, status=enums.RoundStatus.RUNNING)
        .annotate(table_count=Count("tables"), last_number=Max("tables__number"))
        .order_by("number")
    )
    if not rounds:
        last = (
            Round.objects.filter(tournament=tournament)
            .annotate(table_count=Count("tables"), last_number=Max("tables__number"))
            .order_by("-number")
            .first()
        )
        rounds = [last] if last is not None else []
    tables = Table.objects.filter(number__gte=first).order_by("number", "pk")
    if count is not None:
        tables = tables.filter(number__lt=first + count)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    prefetch_related_objects(rounds, Prefetch("tables", queryset=tables.prefetch_related(seats)))
    return rounds


def pending_line(game: Any, seats: list[Any]) -> str:
    """A pending player's entry in words, its names read from the table's ``seats`` (players loaded):
    "Anna entered: Ben won game 3 (points: Carl 5, Dora 5)." or "Anna entered: game 3, Ben hands in a chip."."""
    names = {seat.player_id: seat.player.name for seat in seats}
    by = names.get(game.entered_by_player_id, "?")
    if game.loser_id is not None:
        return _("%(by)s entered: game %(number)d, %(name)s hands in a chip.") % {
            "by": by,
            "number": game.number,
            "name": names.get(game.loser_id, "?"),
        }
    scores = [(int(pid), points) for pid, points in (game.entry or {}).get("scores", {}).items() if points]
    words = {"by": by, "number": game.number, "name": names.get(game.winner_id, "?")}
    if not scores:
        return _("%(by)s entered: %(name)s won game %(number)d.") % words
    listed = ", ".join(f"{names.get(pid, '?')} {points}" for pid, points in scores)
    return _("%(by)s entered: %(name)s won game %(number)d (points: %(points)s).") % {**words, "points": listed}


# The tables the referees' list and the rounds page put first, at most.
ATTENTION_SHOWN = 30


@dataclass(frozen=True)
class Attention:
    """A playing table a referee is wanted at: a player called (``called``: its reason, who) or a
    player's entry waits for confirmation there (``pending``)."""

    table: Table
    pending: bool

    @property
    def called(self) -> bool:
        return self.table.referee_called_at is not None


def attention(tournament: Tournament, rounds: list[Round]) -> list[Attention]:
    """The playing tables of the running ``rounds`` that called a referee (the longest waiting first)
    and then those where a player's entry waits for confirmation, by number (one query; none where
    only referees enter, ``Tournament.table_entry``: no player calls or enters there)."""
    running = [rnd.pk for rnd in rounds if rnd.status == enums.RoundStatus.RUNNING]
    if tournament.table_entry == enums.TableEntry.REFEREES or not running:
        return []
    waiting = Exists(Game.objects.filter(table=OuterRef("pk"), status=GameStatus.PENDING))
    tables = (
        Table.objects.filter(round_id__in=running, status=enums.TableStatus.PLAYING)
        .annotate(waiting=waiting)
        .filter(Q(referee_called_at__isnull=False) | Q(waiting=True))
        .select_related("round", "referee_called_by")
        .order_by(F("referee_called_at").asc(nulls_last=True), "number")[:ATTENTION_SHOWN]
    )
    return [Attention(table=table, pending=table.waiting) for table in tables]  # type: ignore[attr-defined]
