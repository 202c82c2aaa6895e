"""Staff and public pages at 5,000 players: time, size and queries of each page (a measurement, not a test).

Not collected by the suite (the file name does not start with ``test_``); run it by name::

    DATABASE_URL=... pytest -q -s tournament/tests/views/measure_staff_pages.py

It prints one line per page: queries, median time of three GETs through the test client,
and the size of the answer. Also a referee's tap: queries in all and queries under the
tournament row lock. Figures go into the bench's README, never into a timed test. The
process's garbage collector is set as a gunicorn worker's (``config.wsgi.settle_heap``).
"""

from __future__ import annotations

import statistics
import time
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import enums, fragments
from tournament.formats import registry
from tournament.models import Round, Table
from tournament.tests.helpers import refreshed, set_dealer, url
from tournament.tests.views.test_query_counts import decide_fast, knockout_round, playing_tables, quick_field

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SIZE = 5000


def timed(client, path: str) -> tuple[int, float, int, float, float | None]:  # type: ignore[no-untyped-def]
    """Queries, median milliseconds of three GETs, bytes of ``path`` (streamed answers read in full),
    the first GET's milliseconds and, for a streamed answer, the median milliseconds to its first
    piece. The public pages (``/p/``) are measured on a miss: the cache is emptied before each GET;
    the first GET also starts without the pieces of earlier screens (``tournament.fragments``: a
    new round), the others with them (a result in play)."""
    times: list[float] = []
    firsts: list[float] = []  # a streamed answer's first piece
    size = queries = 0
    for attempt in range(3):
        if path.startswith("/p/"):
            cache.clear()
            if attempt == 0:
                fragments.memo.clear()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(path)
            if response.streaming:
                pieces = iter(response.streaming_content)
                body = next(pieces, b"")
                firsts.append((time.perf_counter() - start) * 1000)
                body += b"".join(pieces)
            else:
                body = response.content
            times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        size, queries = len(body), len(captured)
    return queries, statistics.median(times), size, times[0], statistics.median(firsts) if firsts else None


def report(client, tournament, names: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    for name, path in names.items():
        queries, ms, size, first, piece = timed(client, path)
        line = f"  {tournament.format:10} {name:28} {queries:3d} q {ms:8.1f} ms {size / 1024:9.1f} KB"
        streamed = f", streamed: first piece after {piece:.0f} ms" if piece is not None else ""
        print(f"{line} (first {first:.0f} ms{streamed})")


def tap(tournament, table: Table) -> None:  # type: ignore[no-untyped-def]
    """Queries of one result entry, and how many of them run under the tournament row lock."""
    ids = set_dealer(tournament, table)
    version = refreshed(table).version
    fmt = registry.of(tournament)
    # A format that counts card points needs them for every player but the winner.
    card_points = dict.fromkeys(ids[1:], 5) if fmt.counts_card_points(table) else None
    with CaptureQueriesContext(connection) as captured:
        fmt.record_result(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            winner_id=ids[0],
            version=version,
            idempotency_key=uuid.uuid4().hex,
            card_points=card_points,
        )
    sqls = [q["sql"] for q in captured.captured_queries]
    locked_at = next(
        (i for i, sql in enumerate(sqls) if "FOR UPDATE" in sql and 'FROM "tournament_tournament"' in sql), None
    )
    under = len(sqls) - locked_at if locked_at is not None else 0
    print(f"  tap (service): {len(sqls)} queries, {under} under the tournament lock")


def tap_view(client, tournament, table: Table) -> None:  # type: ignore[no-untyped-def]
    """Queries of one tap through the referee's view (htmx: the answer is the table's panel)."""
    ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
    data = {"winner": ids[0], "version": refreshed(table).version, "key": uuid.uuid4().hex}
    if registry.of(tournament).counts_card_points(table):
        data.update({f"points_{pid}": 5 for pid in ids[1:]})
    path = reverse("tournament:record_game", args=[tournament.pk, table.pk])
    with CaptureQueriesContext(connection) as captured:
        response = client.post(path, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="table-panel")
    assert response.status_code == 200, response.status_code
    sqls = [q["sql"] for q in captured.captured_queries]
    locked_at = next(i for i, sql in enumerate(sqls) if "FOR UPDATE" in sql and 'FROM "tournament_tournament"' in sql)
    audit_at = max(i for i, sql in enumerate(sqls) if 'INSERT INTO "tournament_auditentry"' in sql)
    print(f"  tap (view): {len(sqls)} queries, {audit_at - locked_at + 1} under the tournament lock")


def pages(tournament, rnd: Round) -> dict[str, str]:  # type: ignore[no-untyped-def]
    n = rnd.number
    return {
        "rounds": url("rounds", tournament),
        "ranking": url("ranking", tournament),
        "referee_tables": url("referee_tables", tournament),
        "table_cards (referee)": url("table_cards", tournament, n),
        "print table cards": url("print_table_cards", tournament, n),
        "print seating": url("print_seating", tournament, n),
        "print seating by name": url("print_seating_by_name", tournament, n),
        "print result slips": url("print_result_slips", tournament, n),
        "print ranking": url("print_ranking", tournament),
        "print cards": url("print_cards", tournament),
        "print players": url("print_players", tournament),
        "export games": url("export_games", tournament),
        "export standings": url("export_standings", tournament),
        "check-in": url("check_in", tournament),
        "check-in ?q=Player 4": url("check_in", tournament) + "?q=Player+4",
        "projector page (miss)": reverse("tournament:projector", args=[tournament.public_key]),
        "projector screen (miss)": reverse("tournament:projector_screen", args=[tournament.public_key]),
        "phone find ?q=Player 4 (miss)": reverse("tournament:find", args=[tournament.public_key]) + "?q=Player+4",
        "phone find ?q=17 (miss)": reverse("tournament:find", args=[tournament.public_key]) + "?q=17",
        "api.json (miss)": reverse("tournament:api", args=[tournament.public_key]),
    }


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.POINTS])
def test_measure(client, staff_user, fmt):  # type: ignore[no-untyped-def]
    from config.wsgi import settle_heap  # importing it settles this process as a worker's

    settle_heap()  # again: what the first test built is frozen too (it lives as long as the run)
    tournament = quick_field(fmt, SIZE)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    if fmt == enums.Format.KNOCKOUT:
        knockout_round(tournament)
        decide_fast(tournament, playing_tables(tournament))
        rnd = knockout_round(tournament)
    else:
        from tournament.formats.points import services as points_services

        points_services.start_round(tournament=tournament, actor=None, seed=1)
        decide_fast(tournament, playing_tables(tournament))
        rnd = points_services.start_round(tournament=tournament, actor=None, seed=2)
    assert rnd is not None
    tournament.refresh_from_db()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would have by the time a hall is in play
    print(f"\n{fmt}: {SIZE} players, round {rnd.number} with {rnd.tables.count()} tables")
    report(client, tournament, pages(tournament, rnd))
    first = rnd.tables.order_by("number").first()
    assert first is not None
    tap(tournament, first)
    tap_view(client, tournament, first)
    print("  one round's fragment:", reverse("tournament:rounds", args=[tournament.pk]) + "?round=1")
