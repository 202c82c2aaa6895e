"""``helpers.field_at_once`` writes what ``simulation.create_field`` writes through the desk's services
(one registration and one check-in per player), so the query-count tests may build their big fields
with it: the same players, check-ins, audit entries, start numbers and tournament version."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models

from tournament import simulation
from tournament.models import AuditEntry, CheckIn, Player, Tournament
from tournament.tests.helpers import field_at_once
from tournament.tests.views.scenarios import FORMATS

pytestmark = [pytest.mark.django_db, pytest.mark.core]


# Columns that differ between two builds however they are written: the keys, the tournament's random
# public key, and every moment of writing.
KEYS = {"id", "tournament_id", "public_key"}
MOMENTS = (models.DateTimeField, models.DateField)


def columns(instance: models.Model, named: dict[int, int]) -> dict[str, object]:
    """Every column of ``instance`` but keys and moments; player ids as the player's place in the
    field (``named``), also inside the JSON ``detail``."""
    row: dict[str, object] = {}
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname)
        if field.attname in KEYS or isinstance(field, MOMENTS):
            continue
        if field.attname in {"player_id", "actor_player_id"} and value is not None:
            value = named[value]
        if field.attname == "detail" and "player" in value:
            value = {**value, "player": named[value["player"]]}
        row[field.attname] = value
    return row


def written(tournament: Tournament) -> dict[str, object]:
    """What a field's build wrote: every column of the players, their check-ins, the audit entries
    and the tournament, keys and moments left out, players named by their place in the field."""
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    named = {player.pk: number for number, player in enumerate(players)}
    fresh = Tournament.objects.get(pk=tournament.pk)
    return {
        "players": [columns(player, named) for player in players],
        "check_ins": [
            columns(check_in, named)
            for check_in in CheckIn.objects.filter(player__tournament=tournament).order_by("pk")
        ],
        "audit": [columns(entry, named) for entry in AuditEntry.objects.filter(tournament=tournament).order_by("pk")],
        "tournament": columns(fresh, named),
    }


def rows_per_table() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("players", [3, 7, 23])
def test_the_field_at_once_writes_what_the_services_write(fmt: str, players: int) -> None:
    before = rows_per_table()
    by_services = written(simulation.create_field(fmt=fmt, players=players, seed=players + 5))
    between = rows_per_table()
    at_once = written(field_at_once(fmt=fmt, players=players, seed=players + 5))
    after = rows_per_table()
    # No table gets a row from one way that the other does not write.
    assert {label: between[label] - before[label] for label in before} == {
        label: after[label] - between[label] for label in before
    }
    assert by_services == at_once
    assert len(at_once["players"]) == players  # type: ignore[arg-type]
