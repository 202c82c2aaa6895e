"""Self check-in (issue 32, item 3): the player taps "I'm here" on their pass, or at the entrance
page by name where the organiser allows it.

The check-in itself is the desk's (``desk.checkin.check_in_player``, audited as the player): there
is one check-in path. This module only decides whether the player may check themselves in, ticks
the items the player declares (``ChecklistItem.Kind.SELF``) and, where an item is still open (one
the desk must see, or a declaration the player did not make), puts the player on the desk's
"arrived, needs the desk" list (``SelfArrival``) instead of checking them in.

Why by name needs a setting of its own: without the pass, whoever stands at the entrance could
check in anyone by typing a name seen on a list; the pass is the proof that it is the player.
The organiser turns it on only where the desk sees the door (a club evening).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournament import enums
from tournament.desk.checkin import check_in_player
from tournament.desk.players import lock_player
from tournament.errors import ServiceError
from tournament.models import ChecklistItem, Player, PlayerCheck, PlayerPass, SelfArrival, Tournament, checklist_label
from tournament.passes.services import replaced_message
from tournament.writes import audit_by_player, bump, lock_tournament

CHECKED_IN = "checked_in"
NEEDS_DESK = "needs_desk"
ALREADY = "already"


@dataclass(frozen=True)
class SelfCheckIn:
    """What "I'm here" did: ``CHECKED_IN``, ``NEEDS_DESK`` (the items still open, shown) or ``ALREADY``."""

    outcome: str
    player: Player
    open_items: list[str]


def check_in_open(tournament: Tournament) -> bool:
    """Self check-in takes place while the desk checks in (``desk.checkin``: until the tournament
    is finished; a late arrival during play gets the next start number there too)."""
    return tournament.status != enums.TournamentStatus.FINISHED


def refusal_for(tournament: Tournament, player: Player | None = None) -> str:
    """Why this tournament (and player) cannot check in by themselves now, or "" when they can.
    The same words on the pages (before a tap) and in the service (after one)."""
    if not tournament.self_check_in:
        return _("Players do not check themselves in at this tournament: please check in at the desk.")
    if not check_in_open(tournament):
        return _("Check-in is closed: the tournament is finished.")
    if player is None:
        return ""
    status = enums.PlayerStatus
    if player.status == status.WAITING:
        return _("You are on the waiting list; the desk calls you when a place frees up.")
    if player.status == status.WITHDRAWN:
        return _("You have withdrawn from this tournament. Ask at the desk if this is wrong.")
    if player.status == status.NO_SHOW:
        return _("You are marked as not come. Please go to the desk.")
    return ""


def self_check_in(
    *, tournament_id: int, pass_id: int | None, player_id: int | None, declared: Sequence[int | None]
) -> SelfCheckIn:
    """The player says "I'm here": with their pass (``pass_id``), or by name at the entrance
    (``pass_id`` None, ``player_id`` the player they said they are; only with
    ``Tournament.check_in_by_name``). ``declared``: the ids of the self-declared items they
    ticked (None for a value that was no number).

    Refused, nothing saved: a revoked or unknown pass, a pass of another tournament, the setting
    off, check-in closed, a waiting, withdrawn or no-show player, an item that is not a
    self-declared item of this tournament. A player already checked in: ``ALREADY``, nothing
    written (a double tap checks in once). Nothing open after the declarations: checked in by the
    desk's service, audited as the player. Otherwise the declarations are kept and the player is on
    the desk's list (``NEEDS_DESK``; a second tap finds the same arrival)."""
    with transaction.atomic():
        locked = lock_tournament(tournament_id)
        player_pass = None
        if pass_id is not None:
            player_pass = PlayerPass.objects.filter(pk=pass_id, player__tournament=locked).first()
            if player_pass is None or player_pass.revoked_at is not None:
                raise ServiceError(replaced_message())
            player_id = player_pass.player_id
        elif not locked.check_in_by_name:
            raise ServiceError(
                _("Check-in by name is not offered here: open your pass (the QR code on your start card).")
            )
        if player_id is None:
            raise ServiceError(_("This player is not registered for this tournament."))
        player = lock_player(locked, player_id)
        if refused := refusal_for(locked, player):
            raise ServiceError(refused)
        if player.status == enums.PlayerStatus.CHECKED_IN:
            return SelfCheckIn(ALREADY, player, [])
        items = list(ChecklistItem.objects.filter(tournament=locked).order_by("position", "pk"))
        wanted = _declared_items(items, declared)
        ticked = set(PlayerCheck.objects.filter(player=player).values_list("item_id", flat=True))
        new = [item for item in wanted if item.pk not in ticked]
        if new:
            PlayerCheck.objects.bulk_create(PlayerCheck(player=player, item=item) for item in new)
            audit_by_player(locked, player.pk, "checks_declared", player=player.pk, items=[i.label for i in new])
            ticked |= {item.pk for item in new}
        still_open = [item for item in items if item.pk not in ticked]
        if not still_open:
            SelfArrival.objects.filter(player=player).delete()
            result = check_in_player(tournament=locked, actor=None, player_id=player.pk, by_player=player.pk)
            return SelfCheckIn(CHECKED_IN, result.player, [])
        _arrival, arrived = SelfArrival.objects.get_or_create(player=player, defaults={"player_pass": player_pass})
        if arrived:
            audit_by_player(
                locked, player.pk, "arrived_needs_desk", player=player.pk, open_items=[i.label for i in still_open]
            )
        if arrived or new:
            bump(locked)
    return SelfCheckIn(NEEDS_DESK, player, [checklist_label(item.label) for item in still_open])


def _declared_items(items: list[ChecklistItem], declared: Sequence[int | None]) -> list[ChecklistItem]:
    """The self-declared items of ``items`` the player ticked; refused for any other value."""
    mine = {item.pk: item for item in items if item.kind == ChecklistItem.Kind.SELF}
    chosen: dict[int, ChecklistItem] = {}
    for item_id in declared:
        if item_id is None or item_id not in mine:
            raise ServiceError(_("This checklist item cannot be ticked here."))
        chosen[item_id] = mine[item_id]
    return list(chosen.values())
