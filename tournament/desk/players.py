"""Players as the desk sees them: who holds a place, the waiting list, name matching.

Shared by registration and check-in; every function expects the caller to hold
the tournament lock (``tournament.writes.lock_tournament``).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta
from typing import Any

from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import ChecklistItem, Player, PlayerCheck, Tournament, is_fee_item
from tournament.writes import User, acting_user, audit

ACTIVE_STATUSES = (enums.PlayerStatus.REGISTERED, enums.PlayerStatus.CHECKED_IN)
# Order of joining the waiting list: a reinstated player queues behind those already waiting.
WAITING_LIST_ORDER = ("status_changed_at", "registered_at", "pk")


def name_key(name: str) -> str:
    """Fold case, accents' composition and inner spaces, to spot a second registration."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return re.sub(r"\s+", " ", folded).strip()


def lock_player(tournament: Tournament, player_id: int) -> Player:
    """The player row of ``tournament``, locked; a translated refusal for any other id."""
    try:
        return Player.objects.select_for_update().get(pk=player_id, tournament=tournament)
    except Player.DoesNotExist:
        raise ServiceError(_("This player is not registered for this tournament.")) from None


def active_count(tournament: Tournament) -> int:
    """Players holding a place (registered or checked in)."""
    return Player.objects.filter(tournament=tournament, status__in=ACTIVE_STATUSES).count()


def waiting_list_order(tournament: Tournament) -> list[Any]:
    """The waiting list's order: who joined first (``WAITING_LIST_ORDER``); where a place is fixed
    only once the fee is paid (``Tournament.fee_fixes_place``), the players who paid come first."""
    if not tournament.fee_fixes_place:
        return list(WAITING_LIST_ORDER)
    paid = Case(When(fee_paid_at__isnull=False, then=Value(0)), default=Value(1))
    return [paid, *WAITING_LIST_ORDER]


def promote_from_waiting_list(tournament: Tournament, actor: User | None) -> list[Player]:
    """Move waiting players up while there is room, then let paid players take provisional places
    (``paid_first``). Caller holds the tournament lock."""
    free = tournament.capacity - active_count(tournament)
    promoted = []
    if free > 0:
        promoted = list(
            Player.objects.select_for_update()
            .filter(tournament=tournament, status=enums.PlayerStatus.WAITING)
            .order_by(*waiting_list_order(tournament))[:free]
        )
    now = timezone.now()
    for player in promoted:
        player.status = enums.PlayerStatus.REGISTERED
        player.status_changed_at = now
        player.save(update_fields=["status", "status_changed_at"])
        audit(tournament, actor, "player_moved_up", player=player.pk, name=player.name)
    return promoted + paid_first(tournament, actor)


def provisional(tournament: Tournament, player: Player) -> bool:
    """Does ``player`` hold a provisional place: an online sign-up holding a place (not checked in)
    without the fee paid, where the fee fixes a place?"""
    return (
        tournament.fee_fixes_place
        and player.signed_up_online
        and player.fee_paid_at is None
        and player.status == enums.PlayerStatus.REGISTERED
    )


def paid_first(tournament: Tournament, actor: User | None) -> list[Player]:
    """ "Paid ones come first when capacity is short" (``Tournament.fee_fixes_place``; the rules: "Ein
    fixer Teilnahme-Platz besteht, sobald der Betrag dem Verein ausgehändigt wurde und die maximale
    Teilnehmerzahl noch nicht erreicht ist").

    Concretely: while a player who paid waits and an unpaid online sign-up holds a provisional place
    (``provisional``: registered, not checked in), the paid player takes that place and the unpaid
    one moves to the top of the waiting list, behind only the paid players still waiting. The
    latest of the provisional sign-ups gives way first (the earliest keep theirs longest); a paid
    place, a checked-in player and a place taken at the desk are never given up. Audited on both
    players (``place_taken_by_payment``, ``provisional_place_lost``), which their passes show.
    The waiting player's new position: one microsecond before the first waiting player's time of
    joining the waiting list (``WAITING_LIST_ORDER``). Caller holds the tournament lock; returns
    the players moved up."""
    if not tournament.fee_fixes_place:
        return []
    paid_waiting = list(
        Player.objects.select_for_update()
        .filter(tournament=tournament, status=enums.PlayerStatus.WAITING, fee_paid_at__isnull=False)
        .order_by(*WAITING_LIST_ORDER)
    )
    if not paid_waiting:
        return []
    holders = list(
        Player.objects.select_for_update()
        .filter(
            tournament=tournament,
            status=enums.PlayerStatus.REGISTERED,
            signed_up_online=True,
            fee_paid_at__isnull=True,
        )
        .order_by("-registered_at", "-pk")[: len(paid_waiting)]
    )
    moved = []
    for paid, holder in zip(paid_waiting, holders, strict=False):
        first = (
            Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.WAITING)
            .exclude(pk=paid.pk)
            .order_by(*WAITING_LIST_ORDER)
            .values_list("status_changed_at", flat=True)
            .first()
        )
        now = timezone.now()
        holder.status = enums.PlayerStatus.WAITING
        holder.status_changed_at = min(now, first - timedelta(microseconds=1)) if first else now
        holder.save(update_fields=["status", "status_changed_at"])
        paid.status, paid.status_changed_at = enums.PlayerStatus.REGISTERED, now
        paid.save(update_fields=["status", "status_changed_at"])
        audit(tournament, actor, "provisional_place_lost", player=holder.pk, name=holder.name, to_player=paid.pk)
        audit(tournament, actor, "place_taken_by_payment", player=paid.pk, name=paid.name, from_player=holder.pk)
        moved.append(paid)
    return moved


def waiting_place(tournament: Tournament, player: Player) -> int | None:
    """The player's place on the waiting list (1 is next), None when not waiting (one query)."""
    if player.status != enums.PlayerStatus.WAITING:
        return None
    ids = list(
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.WAITING)
        .order_by(*waiting_list_order(tournament))
        .values_list("pk", flat=True)
    )
    return ids.index(player.pk) + 1 if player.pk in ids else None


def record_fee(tournament: Tournament, actor: User, player: Player, *, paid: bool) -> bool:
    """The desk took the fee of the locked ``player`` (``paid``) or takes the mark back: one fact
    kept in two places the desk sees, ``Player.fee_paid_at`` ("Fee paid") and the checklist's
    "Entry fee paid" where the tournament has it, so ticking either sets both. Audited
    (``fee_paid`` / ``fee_paid_undone``); where the fee fixes a place, the waiting list moves
    (``promote_from_waiting_list``). False, nothing written, when it was so already."""
    if (player.fee_paid_at is not None) == paid:
        return False
    player.fee_paid_at = timezone.now() if paid else None
    player.save(update_fields=["fee_paid_at"])
    fee_items = [item.pk for item in ChecklistItem.objects.filter(tournament=tournament) if is_fee_item(item.label)]
    if fee_items and paid:
        ticked = set(PlayerCheck.objects.filter(player=player, item_id__in=fee_items).values_list("item_id", flat=True))
        PlayerCheck.objects.bulk_create(
            PlayerCheck(player=player, item_id=item_id, checked_by=acting_user(actor))
            for item_id in fee_items
            if item_id not in ticked
        )
    elif fee_items:
        PlayerCheck.objects.filter(player=player, item_id__in=fee_items).delete()
    audit(tournament, actor, "fee_paid" if paid else "fee_paid_undone", player=player.pk, name=player.name)
    promote_from_waiting_list(tournament, actor)
    return True
