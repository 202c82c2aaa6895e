"""Reads of the player pass: the pass a token names, the player's page ("my tournament") and, for
the organiser's rounds page, who has not said "I'm at my table" yet.

Every read costs the same number of queries whatever the size of the field (tests pin them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber

from games.models import Game, GameStatus
from tournament import enums
from tournament.models import PlayerPass, Round, Seat, Tournament
from tournament.passes import tokens
from tournament.selectors import play as play_selectors
from tournament.selectors import public

# The names the rounds page lists per round; the rest are counted.
NOT_SEATED_NAMED = 30


def by_token(token: str) -> PlayerPass | None:
    """The pass ``token`` opens, live or revoked, with its player and tournament (one query; none for
    a token that cannot be one)."""
    if not tokens.well_formed(token):
        return None
    return PlayerPass.objects.select_related("player__tournament").filter(token_hash=tokens.hash_of(token)).first()


@dataclass(frozen=True)
class Call:
    """Where the player is called to now: a table in play of a running round."""

    seat: Seat
    round_label: str
    arrived: bool

    @property
    def table(self):  # type: ignore[no-untyped-def]
        return self.seat.table

    @property
    def seat_number(self) -> int:
        return self.seat.position + 1


@dataclass(frozen=True)
class Waiting:
    """A player's entry waiting for confirmation at the pass holder's table, as the pass shows it."""

    game: Game
    line: str
    own: bool


@dataclass(frozen=True)
class PassPage:
    player_pass: PlayerPass
    lookup: public.PlayerLookup
    call: Call | None
    waiting: Waiting | None = None

    @property
    def player(self):  # type: ignore[no-untyped-def]
        return self.player_pass.player

    @property
    def tournament(self) -> Tournament:
        return self.player_pass.player.tournament

    @property
    def call_key(self) -> str:
        """Names the call (the table's id), for the page's script: a new one rings."""
        return str(self.call.seat.table_id) if self.call else ""


def page(player_pass: PlayerPass) -> PassPage:
    """The player's page: the public look-up (where they sat, their place, the format's status)
    and the table they are called to, with whether they said they are there."""
    player = player_pass.player
    tournament = player.tournament
    (found,) = public.lookup(tournament, [player])
    call = call_of(player_pass)
    waiting = waiting_at(player_pass, call) if call is not None and tournament.players_enter else None
    return PassPage(player_pass=player_pass, lookup=found, call=call, waiting=waiting)


def call_of(player_pass: PlayerPass) -> Call | None:
    """The table in play the pass's player is called to, or None (one query)."""
    seat = (
        Seat.objects.filter(
            player_id=player_pass.player_id,
            table__status=enums.TableStatus.PLAYING,
            table__round__status=enums.RoundStatus.RUNNING,
            out_order__isnull=True,
        )
        .select_related("table__round", "arrival")
        .order_by("-pk")
        .first()
    )
    if seat is None:
        return None
    return Call(seat=seat, round_label=str(seat.table.round), arrived=hasattr(seat, "arrival"))


def waiting_at(player_pass: PlayerPass, call: Call) -> Waiting | None:
    """The entry waiting for confirmation at the call's table, in words (one query; two with one)."""
    game = Game.objects.filter(table_id=call.seat.table_id, status=GameStatus.PENDING).first()
    if game is None:
        return None
    seats = list(Seat.objects.filter(table_id=call.seat.table_id).select_related("player"))
    line = play_selectors.pending_line(game, seats)
    return Waiting(game=game, line=line, own=game.entered_by_player_id == player_pass.player_id)


@dataclass(frozen=True)
class TablePage:
    """The pass holder's table on their phone (``views.pass_table``): the table they are called
    to, read as a referee's tablet reads it, and what the player may do there."""

    player_pass: PlayerPass
    call: Call | None
    view: play_selectors.TableView | None

    @property
    def tournament(self) -> Tournament:
        return self.player_pass.player.tournament

    @property
    def pending(self) -> Game | None:
        return self.view.pending if self.view is not None else None

    @property
    def own_pending(self) -> bool:
        return self.pending is not None and self.pending.entered_by_player_id == self.player_pass.player_id

    @property
    def can_enter(self) -> bool:
        """A game can be entered now: the table plays and no entry waits for confirmation."""
        return self.view is not None and self.tournament.players_enter and self.pending is None


def table_page(player_pass: PlayerPass) -> TablePage:
    """The phone's table page: the call (one query) and the table's view (four queries)."""
    call = call_of(player_pass)
    view = None
    if call is not None and player_pass.player.tournament.players_enter:
        view = play_selectors.table_view(player_pass.player.tournament, call.seat.table_id)
    return TablePage(player_pass=player_pass, call=call, view=view)


@dataclass
class NotSeated:
    """The players of a running round at tables in play who have not said they are at their table."""

    round_label: str
    count: int
    names: list[str] = field(default_factory=list)

    @property
    def more(self) -> int:
        return self.count - len(self.names)


def not_seated(rounds: list[Round]) -> list[NotSeated]:
    """Per running round of ``rounds``: how many players at tables in play have no arrival, and the
    first ``NOT_SEATED_NAMED`` of them by start number (one query, none without a running round)."""
    running = {rnd.pk: rnd for rnd in rounds if rnd.status == enums.RoundStatus.RUNNING}
    if not running:
        return []
    by_round = Window(
        RowNumber(),
        partition_by=[F("table__round_id")],
        order_by=[F("player__start_number").asc(nulls_last=True), F("player__name")],
    )
    total = Window(Count("pk"), partition_by=[F("table__round_id")])
    rows = (
        Seat.objects.filter(
            table__round_id__in=list(running),
            table__status=enums.TableStatus.PLAYING,
            arrival__isnull=True,
        )
        .annotate(row=by_round, total=total)
        .filter(Q(row__lte=NOT_SEATED_NAMED))
        .values_list("table__round_id", "player__name", "player__start_number", "total")
        .order_by("table__round_id", "row")
    )
    found: dict[int, NotSeated] = {}
    for round_id, name, number, count in rows:
        entry = found.setdefault(round_id, NotSeated(round_label=str(running[round_id]), count=count))
        entry.names.append(f"{name} ({number})" if number else name)
    return [found[pk] for pk in running if pk in found]
