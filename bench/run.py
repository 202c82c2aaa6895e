"""Benchmarks: page latencies as ratios to a trivial view, same stack, same run.

    make bench

Builds a fresh PostgreSQL database (``spielleitung_bench``), fills it with a
200-player knockout tournament in play and a finished 60-player points
tournament, serves it with gunicorn on 127.0.0.1 and times each page with a
bounded number of sequential requests. The baseline is ``/healthz`` (one
trivial query). Figures are medians; the ratio is median / baseline median, so
results compare across machines. Results go to ``bench/results.json`` and are
printed as a table. Traffic goes to 127.0.0.1 only, and every loop is bounded.

Besides the pages, one write: a CSV import of ``BENCH_IMPORT_ROWS`` (10,000)
players uploaded to the import page, once into each of ``BENCH_IMPORT_RUNS``
fresh tournaments (a second import into the same one would only find duplicates);
its figure is the median of those runs. It must stay far below gunicorn's 30 s.

``BENCH_ONLY=import`` (any part of a case's name) times the baseline and the
matching cases only, prints them and leaves ``bench/results.json`` alone.

Throughput (``throughput`` in the results): requests per second of a public page
divided by those of ``/healthz``, same server, same run, interleaved (slices of
``BENCH_SLICE_SECONDS`` each, page and baseline in turn, ``BENCH_SLICES`` of each),
``BENCH_THREADS`` client threads, every slice bounded by ``BENCH_SLICE_REQUESTS``.
The server is the scaled-out setup: gunicorn with 2 workers sharing one Redis
(``REDIS_URL``, a key prefix of the run's own). Cases, on a 50-player knockout in
play: the projector's 304, the projector's miss (its rendering removed from Redis
before every request, one client thread, so each request renders), the phone page
by start number, and ``api.json`` (from the cache, and a miss as the projector's).
Goals (issue 16): the 304 at >= 0.9, the projector's miss at >= 0.25. After them the
miss is taken apart in one process (``bench/miss_parts.py``, ``miss_parts`` in the
results): its parts, the floor any rendering pays on this stack (request handling,
the miss's queries as rows only, the cache writes) and the best ratio that floor leaves.
``BENCH_THROUGHPUT=0`` leaves them out; without Redis they are left out too.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("BENCH_PORT", "8765"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "60"))
TIME_LIMIT = float(os.environ.get("BENCH_SECONDS_PER_PAGE", "20"))
BASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/spielleitung_bench")
DATABASE_NAME = urlparse(BASE_URL).path.lstrip("/")
IMPORT_ROWS = int(os.environ.get("BENCH_IMPORT_ROWS", "10000"))
IMPORT_RUNS = int(os.environ.get("BENCH_IMPORT_RUNS", "3"))
ONLY = os.environ.get("BENCH_ONLY", "")
IMPORT_CASE = f"CSV import of {IMPORT_ROWS} players (upload, 302)"
THROUGHPUT = os.environ.get("BENCH_THROUGHPUT", "1") != "0"
SLICE_SECONDS = float(os.environ.get("BENCH_SLICE_SECONDS", "3"))
SLICES = int(os.environ.get("BENCH_SLICES", "3"))
SLICE_REQUESTS = int(os.environ.get("BENCH_SLICE_REQUESTS", "20000"))
THREADS = int(os.environ.get("BENCH_THREADS", "4"))
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
CACHE_PREFIX = f"bench-{secrets.token_hex(4)}"


def setup_database() -> dict[str, object]:
    """Recreate the bench database and fill it; returns ids and a session cookie."""
    env = {**os.environ, "DATABASE_URL": BASE_URL, "DJANGO_SECRET_KEY": "bench-only", "DJANGO_DEBUG": "0"}
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE_NAME], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DATABASE_NAME], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True)
    script = """
import json, random
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tournament import enums, simulation
from tournament.formats.knockout import services as knockout
from tournament.models import Round
user = get_user_model().objects.create_superuser("bench", password="bench-pw-123456")
field = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=200, seed=1, actor=user)
knockout.generate_next_round(tournament=field, actor=user, seed=1)
rng = random.Random(1)
tables = list(Round.objects.get(tournament=field).tables.order_by("number"))
for table in tables[: len(tables) // 2]:
    simulation.play_table(field, table, rng, user)
points = simulation.create_field(fmt=enums.Format.POINTS, players=60, seed=2, actor=user)
simulation.simulate(points, seed=2, actor=user)
# Empty tournaments (200 places) for the CSV import, one per run.
import datetime, os
from tournament import desk
imports = [
    desk.create_tournament(
        actor=user, name=f"Import {n}", date=datetime.date.today(), venue="", game=enums.Game.UNO,
        format=enums.Format.KNOCKOUT, capacity=200, entry_fee=0,
    ).pk
    for n in range(int(os.environ.get("BENCH_IMPORT_RUNS", "3")))
]
session = SessionStore()
session["_auth_user_id"] = str(user.pk)
session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
session["_auth_user_hash"] = user.get_session_auth_hash()
session.create()
# The throughput cases: a 50-player knockout in play (half its tables decided).
small = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=50, seed=3, actor=user)
knockout.generate_next_round(tournament=small, actor=user, seed=3)
small_tables = list(Round.objects.get(tournament=small).tables.order_by("number"))
for table in small_tables[: len(small_tables) // 2]:
    simulation.play_table(small, table, rng, user)
ids = {"knockout": field.pk, "public_key": field.public_key, "points": points.pk, "table": tables[-1].pk}
ids["small"], ids["small_key"] = small.pk, small.public_key
ids["imports"] = imports
print(json.dumps({**ids, "session": session.session_key}))
"""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def ratios(results: dict[str, dict[str, float]]) -> tuple[float, dict[str, dict[str, float]]]:
    """Each timed case as its ratio to ``/healthz`` timed in the same run (the figures the README
    keeps), with its median and count: (the baseline's median in ms, the cases)."""
    baseline = results["baseline /healthz"]["median_ms"]
    return baseline, {
        name: {"ratio": round(r["median_ms"] / baseline, 2), "median_ms": round(r["median_ms"], 2), "n": r["n"]}
        for name, r in results.items()
    }


def time_page(path: str, headers: dict[str, str], expect: int = 200) -> dict[str, float]:
    url = f"http://127.0.0.1:{PORT}{path}"
    samples: list[float] = []
    started = time.monotonic()
    for _ in range(REQUESTS):
        if time.monotonic() - started > TIME_LIMIT:
            break
        request = urllib.request.Request(url, headers=headers)
        t0 = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        samples.append(time.perf_counter() - t0)
        if status != expect:
            raise RuntimeError(f"{path}: HTTP {status}, expected {expect}")
    return {"median_ms": statistics.median(samples) * 1000, "n": len(samples)}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Answer the redirect itself (as an HTTPError), not the page it points to."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def import_file(rows: int) -> bytes:
    """A player list as the desk uploads it: header, name;club;contact, distinct names."""
    lines = [f"Spieler {n:05d};Verein {n % 40};spieler{n}@example.org\n" for n in range(rows)]
    return ("Name;Verein;Kontakt\n" + "".join(lines)).encode()


def time_import(tournaments: list[int], cookie: str) -> dict[str, float]:
    """Upload ``import_file(IMPORT_ROWS)`` to the import page of each tournament (one run each),
    as a browser posts the form (multipart, CSRF cookie and token); each must answer 302."""
    token = secrets.token_hex(16)  # any 32 alphanumerics: Django compares the cookie and the header
    boundary = f"bench{token}"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="players.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()
    body += import_file(IMPORT_ROWS) + f"\r\n--{boundary}--\r\n".encode()
    headers = {
        "Cookie": f"{cookie}; csrftoken={token}",
        "X-CSRFToken": token,
        "Content-Type": f"multipart/form-data; boundary={boundary}",
    }
    opener = urllib.request.build_opener(_NoRedirect)
    samples: list[float] = []
    for tournament in tournaments:
        request = urllib.request.Request(
            f"http://127.0.0.1:{PORT}/t/{tournament}/import/", data=body, headers=headers, method="POST"
        )
        t0 = time.perf_counter()
        try:
            with opener.open(request, timeout=60) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        samples.append(time.perf_counter() - t0)
        if status != 302:
            raise RuntimeError(f"import into tournament {tournament}: HTTP {status}, expected 302")
    return {"median_ms": statistics.median(samples) * 1000, "n": len(samples)}


def with_etag(path: str, headers: dict[str, str]) -> dict[str, str]:
    """``headers`` plus the ETag the region answers with now (its next poll is a 304)."""
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return {**headers, "If-None-Match": response.headers["ETag"]}


def redis_answers() -> bool:
    host, port = urlparse(REDIS_URL).hostname or "127.0.0.1", urlparse(REDIS_URL).port or 6379
    try:
        with socket.create_connection((host, port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def rate(path: str, headers: dict[str, str], expect: int, threads: int, before: Callable[[], None] | None) -> float:
    """Requests per second of ``path`` for one slice: ``threads`` clients, each request in turn,
    bounded by SLICE_SECONDS and SLICE_REQUESTS; ``before()`` runs before each request, and the
    time it takes is not counted (it prepares the case: the server is idle meanwhile)."""
    url = f"http://127.0.0.1:{PORT}{path}"
    done = [0]
    preparing = [0.0]  # seconds spent in before(), all clients together
    lock = threading.Lock()
    stop = time.monotonic() + SLICE_SECONDS
    errors: list[str] = []

    def client() -> None:
        while time.monotonic() < stop:
            with lock:
                if done[0] >= SLICE_REQUESTS:
                    return
            if before is not None:
                prepared_at = time.monotonic()
                before()
                with lock:
                    preparing[0] += time.monotonic() - prepared_at
            try:
                with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
                    response.read()
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            if status != expect:
                errors.append(f"{path}: HTTP {status}, expected {expect}")
                return
            with lock:
                done[0] += 1

    started = time.monotonic()
    workers = [threading.Thread(target=client) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise RuntimeError(errors[0])
    return done[0] / (time.monotonic() - started - preparing[0] / threads)


def throughput(
    path: str, headers: dict[str, str], expect: int, threads: int, before: Callable[[], None] | None = None
) -> dict[str, float]:
    """The page's requests per second against /healthz's, slices interleaved (median of each)."""
    page: list[float] = []
    base: list[float] = []
    for _ in range(SLICES):
        base.append(rate("/healthz", {}, 200, threads, None))
        page.append(rate(path, headers, expect, threads, before))
    page_rps, base_rps = statistics.median(page), statistics.median(base)
    return {"ratio": round(page_rps / base_rps, 3), "page_rps": round(page_rps, 1), "healthz_rps": round(base_rps, 1)}


def throughput_cases(ids: dict[str, object]) -> dict[str, dict[str, float]]:
    """The public pages' throughput ratios (see the module docstring)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    key, small = ids["small_key"], ids["small"]
    screen = f"/p/{key}/screen/"
    etag = urllib.request.urlopen(f"http://127.0.0.1:{PORT}{screen}").headers["ETag"]

    def forget(name: str) -> Callable[[], None]:
        # Django's key: prefix, cache version, then tournament.renderings' own key.
        return lambda: client.delete(f"{CACHE_PREFIX}:1:rn3:{small}:{name}")

    cases = {
        "projector poll, unchanged (304), 50 players": (screen, {"If-None-Match": etag}, 304, THREADS, None),
        "projector poll, miss (full render), 50 players": (screen, {}, 200, 1, forget("screen:en")),
        "phone page by start number, 50 players": (f"/p/{key}/find/?q=7", {}, 200, THREADS, None),
        "api.json, 50 players": (f"/p/{key}/api.json", {}, 200, THREADS, None),
        "api.json, miss, 50 players": (f"/p/{key}/api.json", {}, 200, 1, forget("api:en")),
    }
    results = {}
    for name, (path, headers, expect, threads, before) in cases.items():
        if ONLY and ONLY not in name:
            continue
        results[name] = {**throughput(path, headers, expect, threads, before), "threads": threads}
    return results


MISS_PARTS_CASE = "projector miss, its parts"


def miss_parts(ids: dict[str, object], env: dict[str, str], rates: dict[str, dict[str, float]]) -> dict[str, object]:
    """The projector's miss taken apart in one process on the same database and Redis
    (``bench/miss_parts.py``), with the ceiling over HTTP from this run's single-thread
    ``/healthz`` rate (the miss case's baseline)."""
    miss = rates.get("projector poll, miss (full render), 50 players", {})
    command = [sys.executable, str(ROOT / "bench" / "miss_parts.py"), str(ids["small"])]
    if miss:
        command += ["--http-rps", str(miss["healthz_rps"])]
    out = subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ids = setup_database()
    env = {
        **os.environ,
        "DATABASE_URL": BASE_URL,
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    shared = THROUGHPUT and redis_answers()
    if shared:  # the scaled-out setup: the workers share one Redis (README, "Production")
        env.update(REDIS_URL=REDIS_URL, DJANGO_CACHE_PREFIX=CACHE_PREFIX)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.2)
        cookie = {"Cookie": f"sessionid={ids['session']}"}
        k, p, table = ids["knockout"], ids["points"], ids["table"]
        key = ids["public_key"]  # the public pages live under the tournament's public key
        etag = urllib.request.urlopen(f"http://127.0.0.1:{PORT}/p/{key}/screen/").headers["ETag"]
        # A staff page's region, polled by the page itself (tournament/polling.py).
        table_path, tables_path, rounds_path = f"/t/{k}/referee/tables/{table}/", f"/t/{k}/referee/", f"/t/{k}/rounds/"
        table_poll = {**cookie, "HX-Request": "true", "HX-Target": "table-panel"}
        tables_poll = {**cookie, "HX-Request": "true", "HX-Target": "tables-list"}
        rounds_poll = {**cookie, "HX-Request": "true", "HX-Target": "rounds-body"}
        pages = [
            ("baseline /healthz", "/healthz", {}, 200),
            ("projector page (200 players)", f"/p/{key}/", {}, 200),
            ("projector poll, unchanged (304)", f"/p/{key}/screen/", {"If-None-Match": etag}, 304),
            ("public JSON", f"/p/{key}/api.json", {}, 200),
            ("find my table", f"/p/{key}/find/?q=17", {}, 200),
            ("check-in screen", f"/t/{k}/check-in/", cookie, 200),
            ("referee table", f"/t/{k}/referee/tables/{table}/", cookie, 200),
            ("rounds page", f"/t/{k}/rounds/", cookie, 200),
            ("points standings (60 players, 4 rounds)", f"/t/{p}/ranking/", cookie, 200),
            ("referee table poll, region (200)", table_path, table_poll, 200),
            ("referee table poll, unchanged (304)", table_path, with_etag(table_path, table_poll), 304),
            ("referee tables poll, unchanged (304)", tables_path, with_etag(tables_path, tables_poll), 304),
            ("rounds poll, region (200)", rounds_path, rounds_poll, 200),
            ("rounds poll, unchanged (304)", rounds_path, with_etag(rounds_path, rounds_poll), 304),
        ]
        if ONLY:
            pages = [page for page in pages if page[0].startswith("baseline") or ONLY in page[0]]
        rng = random.Random(0)
        rng.shuffle(pages[1:])  # order effects do not favour one page
        results = {name: time_page(path, headers, expect) for name, path, headers, expect in pages}
        rates = throughput_cases(ids) if shared else {}
        parts = miss_parts(ids, env, rates) if shared and (not ONLY or ONLY in MISS_PARTS_CASE) else {}
        if ONLY in IMPORT_CASE:  # after the pages: the import fills the database
            results[IMPORT_CASE] = time_import(ids["imports"], cookie["Cookie"])
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    baseline, pages = ratios(results)
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "requests_per_page": REQUESTS,
        "baseline_ms": round(baseline, 2),
        "pages": pages,
        "throughput": rates,
        "miss_parts": parts,
    }
    if not ONLY:
        (ROOT / "bench" / "results.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    width = max(len(name) for name in results)
    print(f"{'page'.ljust(width)}  ratio  median ms")
    for name, row in report["pages"].items():
        print(f"{name.ljust(width)}  {row['ratio']:5.2f}  {row['median_ms']:8.2f}")
    if rates:
        width = max(len(name) for name in rates)
        print(f"\n{'throughput (page req/s / healthz req/s)'.ljust(width)}  ratio  page/s  healthz/s  threads")
        for name, row in rates.items():
            print(
                f"{name.ljust(width)}  {row['ratio']:5.3f}  {row['page_rps']:6.1f}  {row['healthz_rps']:9.1f}  "
                f"{row['threads']:7d}"
            )
    if parts:
        print(f"\n{MISS_PARTS_CASE} (ms in the process; bench/miss_parts.py)")
        for name, ms in parts["ms"].items():
            print(f"  {name.ljust(34)} {ms:7.3f}")
        print(f"  floor {parts['floor_ms']} ms; best ratio any rendering could reach: {parts.get('ceiling_ratio')}")


if __name__ == "__main__":
    main()
