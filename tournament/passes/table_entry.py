"""Players record their own table (issue 32, item 4): the writes a player makes with the pass at
the table where they sit, while it plays, where ``Tournament.table_entry`` lets players enter.

- ``enter``: the player enters a game exactly as a referee would (``Format.result_entry``: the
  winner with the calculator's card points, or the loser). The entry is tried through the format's
  own recorder in a savepoint that is rolled back (every check a referee's tap meets, nothing kept),
  then kept as a pending game (``GameStatus.PENDING``) that counts nowhere until a table-mate
  confirms it (``play.pending.confirm_entry``). Idempotency key and table version as on a tablet:
  a retry with the same key answers the entry already kept (``replayed``).
- ``confirm`` / ``reject``: another player at the table confirms it, or says "Not right" (the
  entry is voided and the table calls a referee); the enterer cannot confirm their own.
- ``call_referee``: "Call a referee"; ``set_dealer``: who drew the highest card.

Every service checks the pass first under the tournament lock (``_seated``: a live pass, players
may enter in this tournament, its player seated at this table, still in play, the table playing in
a running round), acts as ``writes.PassHolder`` (audited as the player) and leaves an
``entry_refused`` trace of a refusal, written as the player after the rollback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game, GameStatus
from tournament import enums
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.record import Recorded
from tournament.models import PlayerPass, Seat, Table, Tournament
from tournament.passes.services import replaced_message
from tournament.play import pending, results
from tournament.play.core import lock_table
from tournament.writes import REFUSED, PassHolder, audit_by_player, bump, lock_tournament

Service = TypeVar("Service", bound=Callable[..., Any])

# The posted fields an entry keeps to be posted again when it is confirmed (the format's form).
KEPT_FIELDS = ("winner", "loser")
KEPT_PREFIXES = ("points_", "hand_")
MAX_KEPT = 120


@dataclass(frozen=True)
class Seated:
    """A pass checked under the tournament lock: its player sits at the table, which plays."""

    tournament: Tournament
    player_pass: PlayerPass
    seat: Seat

    @property
    def actor(self) -> PassHolder:
        return PassHolder(self.player_pass.player_id)

    @property
    def player_id(self) -> int:
        return self.player_pass.player_id


def _seated(pass_id: int, table_id: int | None) -> Seated:
    """Lock the pass's tournament and check that the pass may act at ``table_id`` (see the module)."""
    holder = PlayerPass.objects.filter(pk=pass_id).values_list("player__tournament_id", flat=True).first()
    if holder is None:
        raise ServiceError(replaced_message())
    tournament = lock_tournament(holder)
    player_pass = PlayerPass.objects.filter(pk=pass_id).first()
    if player_pass is None or player_pass.revoked_at is not None:
        raise ServiceError(replaced_message())
    if not tournament.players_enter:
        raise ServiceError(_("In this tournament the referees enter the results: ask a referee at your table."))
    seat = (
        Seat.objects.filter(table_id=table_id, player_id=player_pass.player_id, table__round__tournament=tournament)
        .select_related("table__round", "player")
        .first()
        if table_id
        else None
    )
    if seat is None:
        raise ServiceError(_("You do not sit at this table. Your pass shows the table you are called to."))
    table = seat.table
    if table.status != enums.TableStatus.PLAYING or table.round.status != enums.RoundStatus.RUNNING:
        raise ServiceError(_("This table no longer plays: its games can no longer be entered here."))
    if seat.out_order is not None:
        raise ServiceError(_("You are out at this table: the players still in play enter and confirm its games."))
    return Seated(tournament=tournament, player_pass=player_pass, seat=seat)


def _traced(attempt: str) -> Callable[[Service], Service]:
    """Leave an ``entry_refused`` trace of each refusal, written as the pass's player once the
    refused write is rolled back (the tables' services do the same for staff)."""

    def decorate(service: Service) -> Service:
        @functools.wraps(service)
        def wrapper(**kwargs: Any) -> Any:
            try:
                return service(**kwargs)
            except ServiceError as error:
                if error.is_refusal:
                    _trace(attempt, error.message, kwargs.get("pass_id"), kwargs.get("table_id"))
                raise

        return wrapper  # type: ignore[return-value]

    return decorate


def _trace(attempt: str, reason: str, pass_id: int | None, table_id: int | None) -> None:
    player = PlayerPass.objects.filter(pk=pass_id).select_related("player__tournament").first()
    if player is None:
        return  # no pass: nobody to name (a guessed token never gets this far)
    tournament = player.player.tournament
    # The table was posted, not checked: named only when it is the tournament's own.
    table = Table.objects.filter(pk=table_id, round__tournament=tournament).values_list("pk", flat=True).first()
    audit_by_player(tournament, player.player_id, REFUSED, attempt=attempt, table=table, reason=reason)


def kept_fields(data: Mapping[str, Any]) -> dict[str, str]:
    """What of a posted entry is kept to be posted again at its confirmation (nothing else)."""
    kept = {
        str(key): str(value)[:12]
        for key, value in data.items()
        if key in KEPT_FIELDS or (str(key).startswith(KEPT_PREFIXES) and str(value).strip() not in ("", "0"))
    }
    return dict(list(kept.items())[:MAX_KEPT])


class _Tried(Exception):
    """Rolls the trial entry back, carrying what it recorded."""

    def __init__(self, game: Game, scores: dict[str, int]) -> None:
        super().__init__("trial")
        self.game = game
        self.scores = scores


def _trial(seated: Seated, table_id: int, data: Mapping[str, Any]) -> _Tried:
    """Record the entry through the format's own entry in a savepoint and roll it back: every
    check of a referee's tap (a stale version, a decided table, the winner at the table, the
    first dealer, the card points) refuses it here; what it would record is returned."""
    fmt = registry.of(seated.tournament)
    try:
        with transaction.atomic():
            recorded = fmt.result_entry.enter(
                tournament=seated.tournament, actor=seated.actor, table_id=table_id, data=data
            )
            scores = {str(score.player_id): score.points for score in recorded.game.scores.all()}
            raise _Tried(recorded.game, scores)
    except _Tried as tried:
        return tried
    raise AssertionError("the trial entry always rolls back")  # pragma: no cover


def _replayed(key: str, table_id: int) -> Game | None:
    """The game this key already made (a phone's retry): answered as it is, nothing new."""
    if not key or len(key) > 64:
        raise ServiceError(_("The form is incomplete; reload the page."))
    game = Game.objects.filter(idempotency_key=key).select_related("winner", "loser").first()
    if game is not None and game.table_id != table_id:
        raise ServiceError(_("The form is incomplete; reload the page."))
    if game is not None:
        game.replayed = True
    return game


@_traced("player_entry")
def enter(*, pass_id: int, table_id: int, data: Mapping[str, Any]) -> Recorded:
    """A seated player enters a game: kept as pending, counted once a table-mate confirms it.
    Refused, nothing saved, like a referee's tap (and while another entry waits). Audited
    ``entry_pending`` as the player."""
    with transaction.atomic():
        seated = _seated(pass_id, table_id)
        replay = _replayed(str(data.get("key", "")), table_id)
        if replay is not None:
            return Recorded(game=replay, notice=_("Already sent: game %(number)d.") % {"number": replay.number})
        tried = _trial(seated, table_id, data)
        table = lock_table(seated.tournament, table_id)  # as the rollback left it
        game = Game.objects.create(
            table=table,
            number=tried.game.number,
            status=GameStatus.PENDING,
            winner_id=tried.game.winner_id,
            loser_id=tried.game.loser_id,
            idempotency_key=str(data.get("key", "")),
            entered_by_player_id=seated.player_id,
            entry={"posted": kept_fields(data), "scores": tried.scores},
        )
        # What the table shows changed: a page (or a queued entry) that saw it before is stale.
        table.version += 1
        table.save(update_fields=["version"])
        game.table_version = table.version
        game.save(update_fields=["table_version"])
        audit_by_player(
            seated.tournament,
            seated.player_id,
            "entry_pending",
            table=table.pk,
            game=game.number,
            winner=game.winner_id,
            loser=game.loser_id,
        )
        bump(seated.tournament)
    return Recorded(
        game=game, notice=_("Sent: game %(number)d waits for a table-mate's confirmation.") % {"number": game.number}
    )


@_traced("confirm_entry")
def confirm(*, pass_id: int, table_id: int, game_id: int | None, version: int) -> Recorded:
    """Another player at the table confirms the pending entry: it counts (``play.pending``)."""
    with transaction.atomic():
        seated = _seated(pass_id, table_id)
        return pending.confirm_entry(
            tournament=seated.tournament,
            fmt=registry.of(seated.tournament),
            actor=seated.actor,
            table_id=table_id,
            game_id=game_id,
            version=version,
        )


@_traced("reject_entry")
def reject(*, pass_id: int, table_id: int, game_id: int | None, reason: str = "") -> Game:
    """ "Not right" (a table-mate: the table calls a referee) or "Take back" (the enterer)."""
    with transaction.atomic():
        seated = _seated(pass_id, table_id)
        return pending.reject_entry(
            tournament=seated.tournament, actor=seated.actor, table_id=table_id, game_id=game_id, reason=reason
        )


@_traced("call_referee")
def call_referee(*, pass_id: int, table_id: int) -> bool:
    """ "Call a referee" from a seated player's phone (a second tap changes nothing)."""
    with transaction.atomic():
        seated = _seated(pass_id, table_id)
        return pending.call_referee(tournament=seated.tournament, actor=seated.actor, table_id=table_id)


@_traced("set_first_dealer")
def set_dealer(*, pass_id: int, table_id: int, player_id: int, version: int) -> Table:
    """Who drew the highest card, tapped on a player's phone (``results.set_first_dealer``: it
    needs no confirmation; it can change until the first game counts, and a referee can change it)."""
    with transaction.atomic():
        seated = _seated(pass_id, table_id)
        if registry.of(seated.tournament).records_loser:
            raise ServiceError(_("This game has no first dealer to pick: enter who lost the game."))
        return results.set_first_dealer(
            tournament=seated.tournament, actor=seated.actor, table_id=table_id, player_id=player_id, version=version
        )
