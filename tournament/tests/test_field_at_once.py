"""``helpers.field_at_once`` writes what ``simulation.create_field`` writes through the desk's services
(one registration and one check-in per player), so the query-count tests may build their big fields
with it: the same players, check-ins, audit entries, start numbers and tournament version."""

from __future__ import annotations

import pytest

from tournament import simulation
from tournament.models import AuditEntry, CheckIn, Player, Tournament
from tournament.tests.helpers import field_at_once
from tournament.tests.views.scenarios import FORMATS

pytestmark = [pytest.mark.django_db, pytest.mark.core]


def written(tournament: Tournament) -> dict[str, object]:
    """What a field's build wrote, with the players named by their place in the field (not their pk)."""
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    index = {player.pk: number for number, player in enumerate(players)}

    def named(value: object) -> object:
        return {key: (index[item] if key == "player" else item) for key, item in value.items()}  # type: ignore[attr-defined]

    entries = AuditEntry.objects.filter(tournament=tournament).order_by("pk")
    fresh = Tournament.objects.get(pk=tournament.pk)
    return {
        "players": [
            (p.name, p.club, p.contact, p.status, p.name_key, p.start_number, p.signed_up_online, p.person_id)
            for p in players
        ],
        "check_ins": [
            (index[c.player_id], c.checked_in_by_id, c.override, c.open_items, c.override_reason)
            for c in CheckIn.objects.filter(player__tournament=tournament).order_by("pk")
        ],
        "audit": [
            (e.action, named(e.detail) if "player" in e.detail else e.detail, e.player_id and index[e.player_id])
            for e in entries
        ],
        "tournament": (fresh.format, fresh.game, fresh.capacity, fresh.status, fresh.version, fresh.club_id),
    }


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("players", [3, 7, 23])
def test_the_field_at_once_writes_what_the_services_write(fmt: str, players: int) -> None:
    by_services = written(simulation.create_field(fmt=fmt, players=players, seed=players + 5))
    at_once = written(field_at_once(fmt=fmt, players=players, seed=players + 5))
    assert by_services == at_once
    assert len(at_once["players"]) == players  # type: ignore[arg-type]
