"""A player's entry waiting for a table-mate's confirmation (issue 32, item 4), and a table's call
for a referee: the services every actor shares, a referee, the organiser or a player with their
pass (``passes.table_entry`` checks the pass first and acts as ``writes.PassHolder``).

A pending entry (``GameStatus.PENDING``) counts nowhere: the tallies, rankings and public pages
read valid games only. Confirming it posts what the player posted again through the format's own
entry (``Format.result_entry``: the winner with the calculator's card points, or the loser), with
the pending game's idempotency key: ``play.results.start_entry`` hands the recorder the pending
row, which becomes valid in place, and the table is refreshed as after a referee's tap (a decided
table decides). Rejecting it voids it with the reason; a player's "Not right" calls a referee.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, GameStatus
from tournament import enums
from tournament.errors import ServiceError
from tournament.formats.record import Format, Recorded
from tournament.models import Table, Tournament
from tournament.play.core import check_writable, lock_table
from tournament.play.results import clear_referee_call
from tournament.writes import PassHolder, User, acting_user, audit, bump, lock_tournament, refusals_audited


def _player_of(actor: User) -> int | None:
    """The player acting with their pass, or None for staff."""
    return actor.player_id if isinstance(actor, PassHolder) else None


def no_longer_waiting() -> str:
    return _("This entry no longer waits for confirmation: the table shows what counts now.")


def _pending(table: Table, game_id: int | None) -> Game:
    game = (
        Game.objects.select_for_update().filter(pk=game_id, table=table, status=GameStatus.PENDING).first()
        if game_id
        else None
    )
    if game is None:
        raise ServiceError(no_longer_waiting())
    return game


def _already_confirmed(table: Table, game_id: int | None, actor: User) -> Game | None:
    """The game this actor confirmed already (a second tap on "Confirm"): answered, nothing new."""
    player_id = _player_of(actor)
    if player_id is None and acting_user(actor) is None:
        return None
    games = Game.objects.filter(pk=game_id, table=table, status=GameStatus.VALID, confirmed_at__isnull=False)
    if player_id is not None:
        games = games.filter(confirmed_by_player_id=player_id)
    else:
        games = games.filter(confirmed_by=acting_user(actor))
    game = games.select_related("winner", "loser").first() if game_id else None
    if game is not None:
        game.replayed = True
    return game


@refusals_audited("confirm_entry")
def confirm_entry(
    *, tournament: Tournament, fmt: Format, actor: User, table_id: int, game_id: int | None, version: int
) -> Recorded:
    """Confirm the pending entry ``game_id`` at the table (the page saw the table at ``version``):
    it is recorded through the format's own entry (``fmt``, the tournament's format: the caller
    passes it, the play core never looks a format up), the same row made valid, and counts. A player
    cannot confirm their own entry; a second "Confirm" by the same person answers the game again
    (``replayed``). Audited ``entry_confirmed``."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        done = _already_confirmed(table, game_id, actor)
        if done is not None:
            return Recorded(game=done, notice=_("Already confirmed: game %(number)d.") % {"number": done.number})
        pending = _pending(table, game_id)
        player_id = _player_of(actor)
        if player_id is not None and pending.entered_by_player_id == player_id:
            raise ServiceError(
                _("You entered this game yourself: another player at your table confirms it on their own phone.")
            )
        posted = {**pending.entry.get("posted", {}), "version": str(version), "key": pending.idempotency_key or ""}
        entry = fmt.result_entry
        recorded = entry.enter(tournament=locked, actor=actor, table_id=table_id, data=posted)
        game = recorded.game
        game.confirmed_at = timezone.now()
        game.confirmed_by = acting_user(actor)
        game.confirmed_by_player_id = player_id
        game.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_player"])
        audit(
            locked, actor, "entry_confirmed", table=table_id, game=game.number, entered_by=pending.entered_by_player_id
        )
        bump(locked)
    return recorded


@refusals_audited("reject_entry")
def reject_entry(*, tournament: Tournament, actor: User, table_id: int, game_id: int | None, reason: str = "") -> Game:
    """ "Not right": the pending entry ``game_id`` is voided with ``reason`` (nothing counted). A
    table-mate's "Not right" calls a referee (a disagreement); the player who entered it takes it
    back without a call; a referee's or the organiser's rejection answers the table's call.
    Audited ``entry_rejected``."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        check_writable(table, None)
        pending = _pending(table, game_id)
        player_id = _player_of(actor)
        own = player_id is not None and pending.entered_by_player_id == player_id
        pending.status = GameStatus.VOIDED
        pending.voided_at = timezone.now()
        pending.voided_by = acting_user(actor)
        pending.void_reason = reason.strip()[:300] or (_("taken back") if own else _("not right"))
        pending.save(update_fields=["status", "voided_at", "voided_by", "void_reason"])
        # The entry changed what the table shows: a page that saw it must read the table again.
        table.version += 1
        table.save(update_fields=["version"])
        if player_id is not None and not own:
            _call(locked, table, actor, player_id, enums.RefereeCall.DISAGREEMENT)
        elif player_id is None and table.referee_called_at is not None:
            clear_referee_call(locked, table, actor, why="rejected")
        audit(locked, actor, "entry_rejected", table=table_id, game=pending.number, reason=pending.void_reason)
        bump(locked)
    return pending


def _call(tournament: Tournament, table: Table, actor: User, player_id: int, reason: str) -> bool:
    """Call a referee to the locked ``table`` (kept as the first call while one is open; a
    disagreement outweighs a plain call). Audited ``referee_called``; False when already called."""
    if table.referee_called_at is not None and not (
        reason == enums.RefereeCall.DISAGREEMENT and table.referee_call_reason != reason
    ):
        return False
    table.referee_called_at = table.referee_called_at or timezone.now()
    table.referee_called_by_id = player_id
    table.referee_call_reason = reason
    table.save(update_fields=["referee_called_at", "referee_called_by", "referee_call_reason"])
    audit(tournament, actor, "referee_called", table=table.pk, reason=reason)
    return True


@refusals_audited("call_referee")
def call_referee(*, tournament: Tournament, actor: User, table_id: int) -> bool:
    """A player at the table taps "Call a referee" (``actor`` their ``PassHolder``): the table goes
    to the top of the referees' list. A second tap changes nothing (False)."""
    player_id = _player_of(actor)
    if player_id is None:
        raise ServiceError(_("Only a player at the table calls a referee."))
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        check_writable(table, None)
        called = _call(locked, table, actor, player_id, enums.RefereeCall.ASKED)
        if called:
            bump(locked)
    return called


@refusals_audited("clear_referee_call")
def clear_call(*, tournament: Tournament, actor: User, table_id: int) -> Table:
    """A referee at the table says "Handled": the call is answered (nothing when there is none)."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        if table.referee_called_at is not None:
            clear_referee_call(locked, table, actor, why="handled")
            bump(locked)
    return table
