"""Reads of the audit log: who did what, and the refused entries."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import AuditEntry, Player, Tournament
from tournament.writes import REFUSED

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
