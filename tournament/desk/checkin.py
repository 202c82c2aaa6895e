"""Check-in: the eligibility checklist, checking in (with a recorded override),
withdrawals, no-shows, and handing equipment back.

Contract: ``tournament.writes``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, GameStatus
from tournament import enums
from tournament.desk.players import ACTIVE_STATUSES, active_count, lock_player, promote_from_waiting_list, record_fee
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import (
    CheckIn,
    ChecklistItem,
    Player,
    PlayerCheck,
    Seat,
    Tournament,
    checklist_label,
    is_fee_item,
)
from tournament.writes import User, acting_user, audit, audit_by_player, bump, lock_tournament


def set_check(*, tournament: Tournament, actor: User, player_id: int, item_id: int, done: bool) -> Player:
    """Tick or untick one checklist item for a player; "Entry fee paid" also sets or clears the
    player's "Fee paid" (``players.record_fee``)."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        item = ChecklistItem.objects.filter(tournament=locked, pk=item_id).first()
        if item is None:
            raise ServiceError(_("This checklist item does not exist."))
        if player.status in (enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW):
            if player.status == enums.PlayerStatus.WITHDRAWN:
                raise ServiceError(_("%(name)s has withdrawn; reinstate the player first.") % {"name": player.name})
            raise ServiceError(_("%(name)s is marked as no-show; reinstate the player first.") % {"name": player.name})
        existing = PlayerCheck.objects.filter(player=player, item=item).first()
        if done and existing is None:
            PlayerCheck.objects.create(player=player, item=item, checked_by=acting_user(actor))
        elif not done and existing is not None:
            existing.delete()
        if is_fee_item(item.label):
            # The same fact as the row's "Fee paid": both follow (players.record_fee).
            record_fee(locked, actor, player, paid=done)
        bump(locked)
        audit(locked, actor, "check_ticked" if done else "check_unticked", player=player.pk, item=item.label)
    return player


def set_returned(*, tournament: Tournament, actor: User, player_id: int, item_id: int, returned: bool) -> None:
    """Mark returnable equipment (own deck) as handed back to the player."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        check = PlayerCheck.objects.filter(player=player, item_id=item_id, item__returnable=True).first()
        if check is None:
            raise ServiceError(_("Nothing of this kind was handed in by this player."))
        check.returned_at = timezone.now() if returned else None
        check.save(update_fields=["returned_at"])
        bump(locked)
        audit(locked, actor, "equipment_returned" if returned else "equipment_return_undone", player=player.pk)


@dataclass(frozen=True)
class CheckInResult:
    player: Player
    open_items: list[str]
    start_number_assigned: bool


OVERRIDE_REASON_MAX = 200


def check_in_player(
    *,
    tournament: Tournament,
    actor: User,
    player_id: int,
    override: bool = False,
    override_reason: str = "",
    all_checked: bool = False,
    by_player: int | None = None,
) -> CheckInResult:
    """Check a player in.

    ``by_player``: the player checks themselves in with their pass (``passes.services.self_check_in``,
    issue 32, item 3): ``actor`` is None and the entry is audited as that player.

    Refused for a withdrawn, no-show or waiting player and for one already
    checked in. ``all_checked``: the desk has seen every checklist item, so the
    open ones are ticked in the same step (one tap at the desk). Otherwise a
    player with open checklist items is checked in only with ``override`` and a
    reason (at most 200 characters), recorded with who and when. Refused once
    the tournament is finished.

    A late arrival (checked in after the draw, also while a round plays) gets the
    next free start number (``_next_start_number``) and is seated from the next
    round the format seats (points: the next round; the standings say "joined in
    round N"). A new check-in ends a pause (``Player.paused_from_round``).
    """
    override_reason = " ".join(override_reason.split())
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        _refuse_check_in(locked, player)
        open_items = _open_items(locked, player, actor, all_checked)
        _ask_override(open_items, override, override_reason)
        CheckIn.objects.create(
            player=player,
            checked_in_by=acting_user(actor),
            override=bool(open_items),
            open_items=open_items,
            override_reason=override_reason if open_items else "",
        )
        assigned = _mark_checked_in(locked, player)
        bump(locked)
        detail: dict[str, object] = {"override": bool(open_items), "open_items": open_items}
        if open_items:
            detail["reason"] = override_reason
        if by_player is not None:
            audit_by_player(
                locked, by_player, "player_checked_in", player=player.pk, start_number=player.start_number, **detail
            )
        else:
            audit(locked, actor, "player_checked_in", player=player.pk, start_number=player.start_number, **detail)
    return CheckInResult(player=player, open_items=open_items, start_number_assigned=assigned)


def _refuse_check_in(locked: Tournament, player: Player) -> None:
    """Refuse a check-in the tournament's or the player's state does not allow."""
    if locked.status == enums.TournamentStatus.FINISHED:
        raise ServiceError(_("The tournament is finished; nobody can check in any more."))
    if player.status == enums.PlayerStatus.CHECKED_IN:
        raise ServiceError(_("%(name)s is already checked in.") % {"name": player.name})
    if player.status == enums.PlayerStatus.WITHDRAWN:
        raise ServiceError(_("%(name)s has withdrawn; reinstate the player first.") % {"name": player.name})
    if player.status == enums.PlayerStatus.NO_SHOW:
        raise ServiceError(_("%(name)s is marked as no-show; reinstate the player first.") % {"name": player.name})
    if player.status == enums.PlayerStatus.WAITING:
        raise ServiceError(_("%(name)s is on the waiting list; the tournament is full.") % {"name": player.name})


def _open_items(locked: Tournament, player: Player, actor: User, all_checked: bool) -> list[str]:
    """The labels of the player's checklist items still open (as stored; shown translated); none
    when the desk has seen them all (``all_checked``: ticked now, and audited)."""
    ticked = set(PlayerCheck.objects.filter(player=player).values_list("item_id", flat=True))
    open_checks = [item for item in locked.checklist_items.all() if item.pk not in ticked]
    if all_checked and open_checks:
        PlayerCheck.objects.bulk_create(
            PlayerCheck(player=player, item=item, checked_by=acting_user(actor)) for item in open_checks
        )
        audit(locked, actor, "checks_all_ticked", player=player.pk, items=[item.label for item in open_checks])
        open_checks = []
    return [item.label for item in open_checks]


def _ask_override(open_items: list[str], override: bool, override_reason: str) -> None:
    """With items open, ask for an override with its reason; refuse a reason too long."""
    if open_items and not (override and override_reason):
        # Asked again (not refused) when the reason is missing, so the desk can type it and tap once more.
        question = _("Open checklist items: %(items)s. Check in only with an override.") % {
            "items": ", ".join(checklist_label(label) for label in open_items)
        }
        if override:
            question += " " + _("Give the reason for the override, for example “certificate comes by e-mail”.")
        raise NeedsConfirmation(question, kind="override")
    if len(override_reason) > OVERRIDE_REASON_MAX:
        raise ServiceError(_("The reason is longer than %(max)d characters.") % {"max": OVERRIDE_REASON_MAX})


def _mark_checked_in(locked: Tournament, player: Player) -> bool:
    """The player checked in (a pause ended); a late arrival after the draw given the next free
    start number. Whether a number was given."""
    assigned = False
    if player.start_number is None and locked.draws.exists():
        player.start_number = _next_start_number(locked)
        assigned = True
    player.status = enums.PlayerStatus.CHECKED_IN
    player.status_changed_at = timezone.now()
    player.paused_from_round = None
    player.save(update_fields=["status", "status_changed_at", "start_number", "paused_from_round"])
    return assigned


def _next_start_number(tournament: Tournament) -> int:
    """A late arrival's start number: the next free one, one above the highest given.

    The desk's rule: the draw (``start_numbers.draw_start_numbers``) gives 1..n by lot to
    everyone checked in at that moment; whoever checks in later takes the next free number
    in the order of check-in (one by one there is nobody to draw against). A withdrawn
    player keeps their number, so numbers are never given twice and stay without gaps.
    """
    highest = Player.objects.filter(tournament=tournament).aggregate(m=Max("start_number"))["m"]
    return (highest or 0) + 1


def undo_check_in(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Take back a check-in made by mistake (before play starts)."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        if player.status != enums.PlayerStatus.CHECKED_IN:
            raise ServiceError(_("%(name)s is not checked in.") % {"name": player.name})
        if locked.play_started:
            raise ServiceError(_("Play has started; withdraw the player instead."))
        CheckIn.objects.filter(player=player, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
        player.status = enums.PlayerStatus.REGISTERED
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at"])
        bump(locked)
        audit(locked, actor, "check_in_undone", player=player.pk)
    return player


def _leave(
    tournament: Tournament, actor: User, player_id: int, status: str, action: str, *, confirmed: bool = True
) -> Player:
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        if player.status == status:
            if status == enums.PlayerStatus.WITHDRAWN:
                raise ServiceError(_("%(name)s has already withdrawn.") % {"name": player.name})
            raise ServiceError(_("%(name)s is already marked as no-show.") % {"name": player.name})
        if status == enums.PlayerStatus.NO_SHOW and player.status == enums.PlayerStatus.CHECKED_IN:
            raise ServiceError(_("%(name)s is checked in; withdraw the player instead.") % {"name": player.name})
        if not confirmed:
            raise NeedsConfirmation(_withdraw_consequence(player), kind="withdraw")
        was_holding_place = player.status in ACTIVE_STATUSES
        CheckIn.objects.filter(player=player, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
        player.status = status
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at"])
        audit(locked, actor, action, player=player.pk, name=player.name)
        if was_holding_place:
            promote_from_waiting_list(locked, actor)
        bump(locked)
    return player


def withdraw_player(*, tournament: Tournament, actor: User, player_id: int, confirmed: bool = False) -> Player:
    """Withdraw a player; the first on the waiting list moves up.

    Raises ``NeedsConfirmation`` (kind "withdraw", with ``_withdraw_consequence``'s
    words) unless ``confirmed``; refusals (already withdrawn, unknown player) come
    first. In play the rules stay: the player's seats and games are kept, a table
    still playing plays on as seated, and no later round seats the player.
    """
    return _leave(tournament, actor, player_id, enums.PlayerStatus.WITHDRAWN, "player_withdrawn", confirmed=confirmed)


def _withdraw_consequence(player: Player) -> str:
    """What withdrawing ``player`` means, in words: the table still playing they sit at, or
    the games they played, or (not yet in play) the plain question."""
    seat = (
        Seat.objects.filter(player=player, table__status=enums.TableStatus.PLAYING)
        .select_related("table__round")
        .order_by("-table__round__number")
        .first()
    )
    if seat is not None:
        return _(
            "%(name)s sits at table %(table)d of %(round)s, which is still playing: the games recorded there stay "
            "and the table plays on as seated. %(name)s will not be seated in any later round."
        ) % {"name": player.name, "table": seat.table.number, "round": seat.table.round}
    if Seat.objects.filter(player=player).exists():
        games = Game.objects.filter(table__seats__player=player, status=GameStatus.VALID).count()
        return ngettext(
            "%(name)s has played %(count)d game: it stays recorded. %(name)s will not be seated in any later round.",
            "%(name)s has played %(count)d games: they stay recorded. %(name)s will not be seated in any later round.",
            games,
        ) % {"name": player.name, "count": games}
    return _("Withdraw %(name)s?") % {"name": player.name}


def mark_no_show(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Mark a registered player who did not come; the waiting list moves up."""
    return _leave(tournament, actor, player_id, enums.PlayerStatus.NO_SHOW, "player_no_show")


def reinstate_player(*, tournament: Tournament, actor: User, player_id: int) -> Player:
    """Bring a withdrawn or no-show player back: registered, or waiting if full."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        player = lock_player(locked, player_id)
        if player.status not in (enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW):
            raise ServiceError(_("%(name)s has not withdrawn.") % {"name": player.name})
        full = active_count(locked) >= locked.capacity
        player.status = enums.PlayerStatus.WAITING if full else enums.PlayerStatus.REGISTERED
        player.status_changed_at = timezone.now()
        player.save(update_fields=["status", "status_changed_at"])
        bump(locked)
        audit(locked, actor, "player_reinstated", player=player.pk, waiting=full)
    return player
