"""Small helpers shared by the play, access and concurrency tests."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import pairwise
from typing import Any, TypeVar

from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tournament import desk, enums, simulation
from tournament.desk.players import name_key
from tournament.formats import registry
from tournament.formats.knockout import services as knockout
from tournament.formats.life_bands import services as life_bands
from tournament.models import AuditEntry, CheckIn, Player, Table, Tournament
from tournament.play import results
from tournament.tests.factories import insert_players
from tournament.writes import bump

# Who must be refused on a tournament's staff pages (see the login_as fixture).
OUTSIDERS = ["desk", "referee_elsewhere", "organiser_elsewhere", "no_role"]


Built = TypeVar("Built")


@contextmanager
def built_for_the_module(django_db_blocker: Any, build: Callable[[], Built]) -> Iterator[Built]:
    """What ``build`` makes, made once for a module's tests: in a transaction that each test nests in
    (pytest-django's per-test transaction becomes a savepoint, so each test's writes are rolled back)
    and rolled back at the module's end, so nothing leaks into other modules.

    Hand the tests ids and let a function-scoped fixture read fresh instances: an instance kept from
    the build would carry into the next test what an earlier test did to it in memory."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def field_at_once(*, fmt: str, players: int, seed: int) -> Tournament:
    """``simulation.create_field`` (no actor) written in a few bulk inserts: the same tournament,
    players, check-ins, audit entries and version as one registration and one check-in per player
    through the desk's services, then the real draw of the start numbers.

    For the query-count tests' big fields, where the per-player services took most of the test
    (about 15 ms a player); ``test_field_at_once`` proves both ways write the same rows."""
    tournament = simulation.new_field_tournament(fmt=fmt, players=players, seed=seed)
    checked_in_at = timezone.now()
    names_and_clubs = simulation.field_names(players, seed)
    field = insert_players(
        [
            Player(
                tournament=tournament,
                name=name,
                club=club,
                name_key=name_key(name),
                status=enums.PlayerStatus.CHECKED_IN,
                status_changed_at=checked_in_at,
            )
            for name, club in names_and_clubs
        ]
    )
    CheckIn.objects.bulk_create(CheckIn(player=player) for player in field)
    entries = []
    for player in field:
        entries.append(("player_registered", {"player": player.pk, "name": player.name, "waiting": False}, player))
        detail = {"player": player.pk, "start_number": None, "override": False, "open_items": []}
        entries.append(("player_checked_in", detail, player))
    AuditEntry.objects.bulk_create(
        AuditEntry(tournament=tournament, action=action, detail=detail, player=player)
        for action, detail, player in entries
    )
    # Each registration and each check-in raised the version once; the last raise through ``bump``,
    # which also drops the polls' cached version and publishes the new one, as the services do.
    if players:
        Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 2 * players - 1)
        bump(tournament)
    desk.draw_start_numbers(tournament=tournament, actor=None, seed=seed, confirmed=True)
    tournament.refresh_from_db()
    return tournament


def url(name: str, tournament: Tournament, *args: object) -> str:
    return reverse(f"tournament:{name}", args=[tournament.pk, *args])


def refreshed(table: Table) -> Table:
    table.refresh_from_db()
    return table


def seated(table: Table) -> list[int]:
    """Player ids at the table in seat order."""
    return list(table.seats.order_by("position").values_list("player_id", flat=True))


def undo(tournament: Tournament, table: Table) -> Game:
    """Undo the table's last game as the referee's tablet would (current version), whatever the format."""
    return registry.of(tournament).undo_result(
        tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
    )


def set_dealer(tournament: Tournament, table: Table) -> list[int]:
    """The player in seat 1 drew the highest card; returns the seat order."""
    ids = seated(table)
    results.set_first_dealer(
        tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=refreshed(table).version
    )
    return ids


def record_one_result(tournament: Tournament, table: Table) -> Table:
    """One result at ``table`` through its format's service: seat 1 loses where the format enters
    losers, else wins (card points 7 for the others where the format counts them, the first dealer
    picked first). Returns the table, refreshed."""
    if registry.of(tournament).entry == "loser":
        life_bands.record_loss(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            loser_id=seated(table)[0],
            version=refreshed(table).version,
            idempotency_key=uuid.uuid4().hex,
        )
    else:
        ids = set_dealer(tournament, table)
        points = dict.fromkeys(ids[1:], 7) if registry.of(tournament).counts_card_points(table) else None
        registry.of(tournament).record_result(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            winner_id=ids[0],
            version=refreshed(table).version,
            idempotency_key=uuid.uuid4().hex,
            card_points=points,
        )
    return refreshed(table)


def set_settings(tournament: Tournament, **values: object) -> None:
    """Write ``values`` (columns or a format's own settings) to the tournament's row, leaving the
    instance in hand as it is, as ``QuerySet.update`` would; ``update`` cannot name a format's
    settings (``models.FormatSetting``: they live in ``format_settings``, not in columns)."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    for name, value in values.items():
        setattr(fresh, name, value)
    fresh.save(update_fields=list(values))


def count_queries(client, path: str) -> int:  # type: ignore[no-untyped-def]
    """Queries one GET of ``path`` costs (it must answer 200)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


def tied_final() -> tuple[Tournament, Table, tuple[int, int, int]]:
    """A knockout final of three to 20 points: a wins with 30, b and c are tied on 0 and play a duel."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=3, seed=1)
    set_settings(tournament, final_points_target=20)
    tournament.refresh_from_db()
    started = knockout.generate_next_round(tournament=tournament, actor=None)
    assert started.round is not None
    final = started.round.tables.get()
    a, b, c = seated(final)
    results.set_first_dealer(tournament=tournament, actor=None, table_id=final.pk, player_id=a, version=1)
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=final.pk,
        winner_id=a,
        version=refreshed(final).version,
        idempotency_key="final-1",
        card_points={b: 15, c: 15},
    )
    return tournament, final, (a, b, c)


def assert_places_ranked(places: list[int]) -> None:
    """Places in ranking order as a ranking with shared places writes them (1, 1, 3, 4): the first
    is 1, and each row shares the place above (a tie) or takes its own row number."""
    assert places and places[0] == 1, places
    for row, (above, place) in enumerate(pairwise(places), start=2):
        assert place in (above, row), places
