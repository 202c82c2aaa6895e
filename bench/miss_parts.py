"""The projector's miss taken apart in the process, and the ceiling it leaves any rendering.

    python bench/miss_parts.py TOURNAMENT_ID    (bench/run.py runs it on its 50-player knockout)

Times, in one process with the server's settings (``DATABASE_URL``, ``REDIS_URL``) and a
worker's garbage collector, each part of a projector poll that misses the shared cache,
against ``/healthz`` through the same Django stack (the test client, no HTTP):

- ``healthz``: the trivial view;
- ``miss``: the poll with its rendering removed from the cache first (what the HTTP case
  ``projector poll, miss`` measures);
- ``served from the cache``: the same poll with the rendering kept (request handling,
  the version's and the rendering's reads);
- ``queries, rows only``: the miss's own SQL (captured once) sent again through a cursor:
  the database's round trips and rows without the ORM building a query or an object;
- ``cache writes``: the rendering's lock taken, the rendering stored, the lock let go;
- the parts of rendering: the screen's read through the ORM, its pieces, the template
  and the compression.

``floor`` is what any rendering of this screen costs on this stack before it does
anything of its own: served from the cache + the queries' rows + the cache writes. Its
``ceiling_ratio`` is the best throughput ratio to ``/healthz`` a miss could reach over
HTTP, given the HTTP overhead per request that the run measured (``--http-rps``: the
single-thread ``/healthz`` rate of the throughput case). Prints JSON.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEATS = int(os.environ.get("BENCH_PARTS_REPEATS", "300"))


def timed(action: Callable[[], object]) -> float:
    """Median milliseconds of ``action`` over five batches of ``REPEATS // 5`` (after a warm-up)."""
    for _ in range(20):
        action()
    batches = []
    per_batch = max(1, REPEATS // 5)
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(per_batch):
            action()
        batches.append((time.perf_counter() - started) / per_batch * 1000)
    return statistics.median(batches)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tournament", type=int)
    parser.add_argument("--http-rps", type=float, default=0.0, help="/healthz req/s over HTTP, one client")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from config.wsgi import settle_heap
    from tournament import renderings
    from tournament.models import Tournament
    from tournament.selectors import screen as screen_selectors
    from tournament.views.display import screen_context

    settle_heap()
    tournament = Tournament.objects.get(pk=args.tournament)
    client = Client(HTTP_ACCEPT_ENCODING="gzip", HTTP_HOST="127.0.0.1")
    path = f"/p/{tournament.public_key}/screen/"
    key = f"{renderings.KEY_PREFIX}{tournament.pk}:screen:en"

    def miss() -> None:
        cache.delete(key)
        assert client.get(path).status_code == 200

    def served() -> None:
        assert client.get(path).status_code == 200

    with CaptureQueriesContext(connection) as captured:
        miss()
    statements = [query["sql"] for query in captured.captured_queries]

    def rows_only() -> None:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
                cursor.fetchall()

    stored = cache.get(key)
    lock = key + ":parts-lock"

    def cache_writes() -> None:
        cache.add(lock, 1, renderings.LOCK_SECONDS)
        cache.set(key + ":parts", stored, 60)
        cache.delete(lock)

    with translation.override("en"):
        snap = screen_selectors.read(tournament, 0)
        context = screen_context(snap)
        html = render_to_string("tournament/display/_screen.html", context).encode()
        parts = {
            "healthz": timed(lambda: client.get("/healthz")),
            "miss": timed(miss),
            "served from the cache": timed(served),
            "queries, rows only": timed(rows_only),
            "cache writes": timed(cache_writes),
            "tournament and screen read (ORM)": timed(
                lambda: screen_selectors.read(Tournament.objects.get(pk=tournament.pk), 0)
            ),
            "pieces (kept)": timed(lambda: screen_context(snap)),
            "template": timed(lambda: render_to_string("tournament/display/_screen.html", context)),
            "compression": timed(lambda: gzip.compress(html, compresslevel=6, mtime=0)),
        }
    cache.delete(key + ":parts")
    floor = parts["served from the cache"] + parts["queries, rows only"] + parts["cache writes"]
    report: dict[str, object] = {
        "queries": len(statements),
        "ms": {name: round(ms, 3) for name, ms in parts.items()},
        "floor_ms": round(floor, 3),
    }
    if args.http_rps > 0:
        # Over HTTP a request costs what it costs in the process plus the server's and the
        # client's share, which /healthz shows: 1 / its rate minus its time in the process.
        overhead = max(0.0, 1000 / args.http_rps - parts["healthz"])
        healthz_over_http = parts["healthz"] + overhead
        report["http_overhead_ms"] = round(overhead, 3)
        report["ceiling_ratio"] = round(healthz_over_http / (floor + overhead), 3)
        report["miss_ratio_estimate"] = round(healthz_over_http / (parts["miss"] + overhead), 3)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
