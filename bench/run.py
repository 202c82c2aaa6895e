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
"""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
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
ids = {"knockout": field.pk, "public_key": field.public_key, "points": points.pk, "table": tables[-1].pk}
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


def main() -> None:
    ids = setup_database()
    env = {
        **os.environ,
        "DATABASE_URL": BASE_URL,
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
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
        if ONLY in IMPORT_CASE:  # after the pages: the import fills the database
            results[IMPORT_CASE] = time_import(ids["imports"], cookie["Cookie"])
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    baseline = results["baseline /healthz"]["median_ms"]
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "requests_per_page": REQUESTS,
        "baseline_ms": round(baseline, 2),
        "pages": {
            name: {"ratio": round(r["median_ms"] / baseline, 2), "median_ms": round(r["median_ms"], 2), "n": r["n"]}
            for name, r in results.items()
        },
    }
    if not ONLY:
        (ROOT / "bench" / "results.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    width = max(len(name) for name in results)
    print(f"{'page'.ljust(width)}  ratio  median ms")
    for name, row in report["pages"].items():
        print(f"{name.ljust(width)}  {row['ratio']:5.2f}  {row['median_ms']:8.2f}")


if __name__ == "__main__":
    main()
