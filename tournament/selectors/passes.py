"""Reads of the player pass: the pass a token names, the player's page ("my tournament") and, for
the organiser's rounds page, who has not said "I'm at my table" yet.

Every read costs the same number of queries whatever the size of the field (tests pin them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber

from tournament import enums
from tournament.models import PlayerPass, Round, Seat, Tournament
from tournament.passes import tokens
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
class PassPage:
    player_pass: PlayerPass
    lookup: public.PlayerLookup
    call: Call | None

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
    seat = (
        Seat.objects.filter(
            player=player,
            table__status=enums.TableStatus.PLAYING,
            table__round__status=enums.RoundStatus.RUNNING,
            out_order__isnull=True,
        )
        .select_related("table__round", "arrival")
        .order_by("-pk")
        .first()
    )
    call = None
    if seat is not None:
        arrived = hasattr(seat, "arrival")
        call = Call(seat=seat, round_label=str(seat.table.round), arrived=arrived)
    return PassPage(player_pass=player_pass, lookup=found, call=call)


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
