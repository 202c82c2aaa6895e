"""Shared helpers of the desk service tests (``tournament.tests.desk``).

Shortcuts for the desk services the tests call over and over, readers of the
state a service may change (``snapshot`` proves that a refused action changed
nothing: no rows, no audit entry, no version bump), and the audit matrix: each
test module defines ``case_<service>`` functions for the services of its source
module, and ``assert_audited`` checks one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournament.desk import checkin, registration
from tournament.models import AuditEntry, CheckIn, Player, PlayerCheck, StartNumberDraw, Tournament
from tournament.tests.factories import PlayerFactory


def register(tournament: Tournament, actor: Any, name: str, **kwargs: Any) -> registration.Registration:
    return registration.register_player(tournament=tournament, actor=actor, name=name, **kwargs)


def check_in(tournament: Tournament, actor: Any, player: Player, **kwargs: Any) -> checkin.CheckInResult:
    """Check in as the desk would; an override comes with a reason (the service requires one)."""
    if kwargs.get("override"):
        kwargs.setdefault("override_reason", "certificate comes by e-mail")
    return checkin.check_in_player(tournament=tournament, actor=actor, player_id=player.pk, **kwargs)


def version(tournament: Tournament) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)


def status_of(player: Player) -> str:
    return Player.objects.values_list("status", flat=True).get(pk=player.pk)


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """Everything a desk action may change, to prove a refused action changed nothing."""
    return {
        "version": version(tournament),
        "players": list(
            Player.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("pk", "name", "status", "start_number", "status_changed_at")
        ),
        "check_ins": list(
            CheckIn.objects.filter(player__tournament=tournament)
            .order_by("pk")
            .values_list("pk", "player_id", "override", "cancelled_at")
        ),
        "checks": list(PlayerCheck.objects.filter(player__tournament=tournament).order_by("pk").values_list("pk")),
        "draws": list(StartNumberDraw.objects.filter(tournament=tournament).values_list("pk", "seed")),
        "audit": AuditEntry.objects.filter(tournament=tournament).count(),
    }


def numbers_of(tournament: Tournament) -> dict[int, int | None]:
    return dict(Player.objects.filter(tournament=tournament).values_list("pk", "start_number"))


def checked_in_players(tournament: Tournament, actor: Any, count: int) -> list[Player]:
    players = PlayerFactory.create_batch(count, tournament=tournament)
    for player in players:
        check_in(tournament, actor, player, override=True)
    return players


# --- audit trail and version --------------------------------------------------------------

# Each case prepares what the service needs and returns (the call, the audit action).
Call = Callable[[], object]
Case = Callable[[Tournament, Any], tuple[Call, str]]


def audit_cases(namespace: dict[str, Any]) -> dict[str, Case]:
    """The ``case_<service>`` functions of a test module, by service name
    (``<service>_undone`` for a second case of the same service)."""
    return {name.removeprefix("case_"): case for name, case in namespace.items() if name.startswith("case_")}


def assert_audited(case: Case, tournament: Tournament, actor: Any) -> None:
    """The service of ``case`` writes exactly one audit entry of its action, by
    ``actor`` in ``tournament`` (and none elsewhere), and bumps the version."""
    call, action = case(tournament, actor)
    before_version = version(tournament)
    before_entries = set(AuditEntry.objects.values_list("pk", flat=True))

    call()

    assert version(tournament) > before_version
    new = AuditEntry.objects.exclude(pk__in=before_entries)
    assert new.filter(tournament=tournament, action=action, actor=actor).count() == 1
    assert all(entry.tournament_id == tournament.pk for entry in new)
