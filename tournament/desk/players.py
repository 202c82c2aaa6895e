"""Players as the desk sees them: who holds a place, the waiting list, name matching.

Shared by registration and check-in; every function expects the caller to hold
the tournament lock (``tournament.writes.lock_tournament``).
"""

from __future__ import annotations

import re
import unicodedata

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import Player, Tournament
from tournament.writes import User, audit

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


def promote_from_waiting_list(tournament: Tournament, actor: User | None) -> list[Player]:
    """Move waiting players up while there is room. Caller holds the tournament lock."""
    free = tournament.capacity - active_count(tournament)
    if free <= 0:
        return []
    promoted = list(
        Player.objects.select_for_update()
        .filter(tournament=tournament, status=enums.PlayerStatus.WAITING)
        .order_by(*WAITING_LIST_ORDER)[:free]
    )
    now = timezone.now()
    for player in promoted:
        player.status = enums.PlayerStatus.REGISTERED
        player.status_changed_at = now
        player.save(update_fields=["status", "status_changed_at"])
        audit(tournament, actor, "player_moved_up", player=player.pk, name=player.name)
    return promoted
