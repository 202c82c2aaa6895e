"""Benchmark: the search that forgives typos at 20,000 players, as ratios to /healthz (same run).

    python bench/search.py          (make bench runs it after bench/run.py)

Builds a fresh PostgreSQL database (``BENCH_SEARCH_DATABASE_URL``, default
``spielleitung_bench_search``) with one tournament of ``BENCH_SEARCH_PLAYERS`` (20,000)
checked-in players, serves it with gunicorn (one worker: the name index is per process) on
127.0.0.1:``BENCH_PORT`` and times, with bounded sequential requests (``bench/run.py``'s
``time_page``), the desk's check-in search and the phone page:

- found by the folded match ("hoeller"-like: a right spelling), which also looks for names alike
  when it finds fewer than a page;
- a typo, the name index warm (built once per tournament version in the process);
- a typo right after a write (every request after the tournament's version was bumped: the index
  is built again from the 20,000 ``(id, folded)`` rows);
- the phone page with a typo and a part of a number (another search each request: its rendering
  is per search).

Results go to ``bench/search.json`` and are printed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import PORT, REQUESTS, ratios, time_page  # bench/run.py's loop, settings and ratios

ROOT = Path(__file__).resolve().parent.parent
URL = os.environ.get("BENCH_SEARCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/spielleitung_bench_search")
DATABASE_NAME = urlparse(URL).path.lstrip("/")
PLAYERS = int(os.environ.get("BENCH_SEARCH_PLAYERS", "20000"))
FIRST = ["Anna", "Maria", "Niccolò", "Thomas", "Rüdiger", "Giulia", "Lukas", "Sophie", "Marco", "Eva", "Franz"]
LAST = ["Höller", "Bianchi", "Groß", "Oberhofer", "Weiß", "Pichler", "Rossi", "Gruber", "Ferrari", "Huber", "Kofler"]
# Typos of the surnames above (one letter dropped, changed, swapped): each request asks another one.
TYPOS = ["holer", "hoeler", "bianci", "bainchi", "gros", "oberhofr", "obrehofer", "weis", "picler", "rosi", "gruer"]


def setup() -> dict[str, object]:
    env = {**os.environ, "DATABASE_URL": URL, "DJANGO_SECRET_KEY": "bench-only", "DJANGO_DEBUG": "0"}
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE_NAME], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DATABASE_NAME], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True)
    script = f"""
import datetime, json, random
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tournament import desk, enums, folding
from tournament.models import Player
user = get_user_model().objects.create_superuser("bench", password="bench-pw-123456")
t = desk.create_tournament(actor=user, name="Search bench", date=datetime.date.today(), venue="", game=enums.Game.UNO,
    format=enums.Format.KNOCKOUT, capacity={PLAYERS}, entry_fee=0)
rng = random.Random(1)
first, last = {FIRST!r}, {LAST!r}
rows = []
for n in range({PLAYERS}):
    name = f"{{rng.choice(first)}} {{rng.choice(last)}}"
    name = f"{{name}}-{{n:05d}}" if n % 50 else name
    rows.append(Player(tournament=t, name=name, name_key=name.lower(), folded=folding.search_text(name),
        status=enums.PlayerStatus.CHECKED_IN, start_number=n + 1))
Player.objects.bulk_create(rows, batch_size=2000)
session = SessionStore()
session["_auth_user_id"] = str(user.pk)
session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
session["_auth_user_hash"] = user.get_session_auth_hash()
session.create()
print(json.dumps({{"id": t.pk, "key": t.public_key, "session": session.session_key}}))
"""
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def time_each(paths: list[str], headers: dict[str, str], before: object = None) -> dict[str, float]:
    """Median of one request per path (``before()`` first, untimed)."""
    samples = []
    for path in paths:
        if callable(before):
            before()
        t0 = time.perf_counter()
        with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", headers=headers)) as r:
            r.read()
        samples.append(time.perf_counter() - t0)
    return {"median_ms": statistics.median(samples) * 1000, "n": len(samples)}


def main() -> None:
    ids = setup()
    env = {**os.environ, "DATABASE_URL": URL, "DJANGO_SECRET_KEY": "bench-only", "DJANGO_DEBUG": "0"}
    env["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1"
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{PORT}", "--workers", "1"]
    server = subprocess.Popen([*command, "--log-level", "warning"], cwd=ROOT, env=env)
    import psycopg

    def bump() -> None:  # a write elsewhere: the tournament's version moves on, the index is stale
        with psycopg.connect(URL, autocommit=True) as connection:
            connection.execute("UPDATE tournament_tournament SET version = version + 1 WHERE id = %s", [ids["id"]])

    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.2)
        cookie = {"Cookie": f"sessionid={ids['session']}"}
        desk, find = f"/t/{ids['id']}/check-in/?q=", f"/p/{ids['key']}/find/?q="
        rng = random.Random(0)
        typos = [rng.choice(TYPOS) for _ in range(REQUESTS)]
        results = {
            "baseline /healthz": time_page("/healthz", {}),
            "desk search, found as typed (hoeller)": time_page(desk + "hoeller", cookie),
            "desk search, a typo (holer), index warm": time_page(desk + "holer", cookie),
            "desk search, a typo after a write (index built)": time_each(
                [desk + quote(typo) for typo in typos[:20]], cookie, before=bump
            ),
            "phone page, a typo each request": time_each(
                # "holer 0123": a typo and a part of a name's number, another search (and rendering) each time.
                [find + quote(f"{typo} {n * 7 + 101:04d}") for n, typo in enumerate(typos)],
                {},
            ),
        }
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    baseline, cases = ratios(results)
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "players": PLAYERS,
        "baseline_ms": round(baseline, 2),
        "cases": cases,
    }
    (Path(__file__).resolve().parent / "search.json").write_text(json.dumps(report, indent=2) + "\n")
    width = max(map(len, report["cases"]))
    print(f"{'case'.ljust(width)}  ratio  median ms  n   ({PLAYERS} players)")
    for name, row in report["cases"].items():
        print(f"{name.ljust(width)}  {row['ratio']:5.2f}  {row['median_ms']:9.2f}  {row['n']}")


if __name__ == "__main__":
    main()
