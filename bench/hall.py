"""A busy hall (issue 16): result posts from many tablets, with and without spectators.

    make bench                 (runs it after bench/run.py)
    .venv/bin/python bench/hall.py

Builds a fresh PostgreSQL database (``spielleitung_hall``) holding a knockout
tournament in play (``BENCH_HALL_PLAYERS`` players, by default 54 per tablet and
at least 200: 2,700 for 50 tablets, whose round 1 has 900 tables of three), one
referee account (with its own session) per tablet, serves it with gunicorn on
127.0.0.1 (2 sync workers sharing one Redis through ``REDIS_URL``, a key prefix
of the run's own, as bench/run.py's throughput cases) and measures, every loop
bounded in count and time:

1. **C**, the baseline: requests per second of ``/healthz`` on the same server,
   ``BENCH_HALL_TABLETS`` client threads, in slices interleaved with part 2's.
2. **Tablets as fast as they can**: ``BENCH_HALL_TABLETS`` (50) tablets, each
   at its own table, post one result after another as
   ``static/js/outbox.js`` does (the form's ``version`` and ``winner``, a fresh
   idempotency ``key``, ``X-CSRFToken``, ``HX-Request``/``HX-Target:
   table-panel``, ``X-Device``; the next entry carries the ``X-Entry-Version``
   of the answer before it; a timeout or a 502-504 is sent again with the same
   key). Posts per second as a ratio to C, latency p50/p95, answers by status.
3. **Paced tablets**: the same tablets, one result every ``BENCH_HALL_PERIOD``
   (2 s) each, for ``BENCH_HALL_SECONDS`` (20 s): latency p50/p95.
4. **Paced tablets and spectators**: part 3 again while ``BENCH_HALL_SPECTATORS``
   (1,000) projectors poll ``/p/<public_key>/screen/`` every
   ``BENCH_HALL_SPECTATOR_PERIOD`` (5 s) each with ``If-None-Match`` of the
   last ETag they got (``static/js/projector.js``) and ``Accept-Encoding: gzip`` (as
   every browser sends it), from a separate process with
   ``BENCH_HALL_SPECTATOR_THREADS`` (64) threads: polls wanted against served,
   200 against 304, their p95, and the tablets' p95 against part 3's (goal:
   within 3x).

Afterwards the database is checked: every accepted post (``X-Entry-Status``
``saved`` or ``replayed``) is applied exactly once (lost = doubled = 0), and each
table holds as many valid games as its tablets had accepted.

A table is decided once a player has won ``BENCH_HALL_WINS`` games (3, the
tournament's default); it then takes no more results. The tablets let the seats
win in turn, so a table of three takes its most games, 3 x 2 + 1 = 7, and a
tablet whose table is decided (the panel in its answer, saved or refused, shows
the decided banner) moves to the next free table of the round, as a referee
walks to the next table (closing the decided one is left out). Hence the field
of nine tables per tablet: 450 tables take 3,150 results, about 1.5 times what a
default run posts on a quiet 2-core machine (50 posts/s flat out for 15 s, then
up to 25/s for 40 s). Many more wins a table would keep the tablets at one
table, but a post reads and shows every game of its table, so tables of 40
games would make each post dearer than in a real hall. Nothing is undone. A
tablet that finds no free table left stops; each part reports how many had
stopped by its end (its figures are then not the hall's), and the run warns.

The field is larger than a hall of 50 tables would hold, so that the tablets do not run
out of tables. The projector's screen shows it in windows (``selectors.screen``: 96
tables and 480 names per rotation): a changed screen is some 110 KB of HTML (8.5 KB as
sent), rendered at most once a second per version (``renderings``).

``BENCH_HALL_RESEND`` (0.02): the share of accepted entries sent once more with
the same key and version, as the outbox does when an answer was lost on the
way; each must be answered ``replayed`` and change nothing (counted apart, not
in the latencies).

The load generator runs on the same machine as the server, PostgreSQL and
Redis: on 2 cores it takes part of the CPU the server would have, and the
figures say so. Results go to ``bench/hall.json`` and are printed as a table.
Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import heapq
import http.client
import json
import multiprocessing
import os
import queue
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("BENCH_HALL_PORT", "8775"))
DATABASE_URL = os.environ.get("BENCH_HALL_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/spielleitung_hall")
DATABASE_NAME = urlparse(DATABASE_URL).path.lstrip("/")
TABLETS = int(os.environ.get("BENCH_HALL_TABLETS", "50"))
SPECTATORS = int(os.environ.get("BENCH_HALL_SPECTATORS", "1000"))
SECONDS = float(os.environ.get("BENCH_HALL_SECONDS", "20"))
# Six tables of three per tablet (42 results each, see the docstring), at least 200 players.
# 18 tables per tablet: on a fast machine 50 tablets flat out decide some 470 tables of 7
# results in the run (1,350 players, 450 tables, ran out there).
PLAYERS = int(os.environ.get("BENCH_HALL_PLAYERS", str(max(200, 54 * TABLETS))))
WINS_NEEDED = int(os.environ.get("BENCH_HALL_WINS", "3"))
RESEND = float(os.environ.get("BENCH_HALL_RESEND", "0.02"))
PERIOD = float(os.environ.get("BENCH_HALL_PERIOD", "2"))
SPECTATOR_PERIOD = float(os.environ.get("BENCH_HALL_SPECTATOR_PERIOD", "5"))
SPECTATOR_THREADS = int(os.environ.get("BENCH_HALL_SPECTATOR_THREADS", "64"))
SLICES = int(os.environ.get("BENCH_HALL_SLICES", "3"))
SLICE_SECONDS = float(os.environ.get("BENCH_HALL_SLICE_SECONDS", "5"))
SLICE_REQUESTS = int(os.environ.get("BENCH_HALL_SLICE_REQUESTS", "20000"))
TIMEOUT = 10.0  # the outbox's SEND_TIMEOUT_MS
TRIES = 3  # sends of one entry (the outbox goes on longer; a bench stops)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
CACHE_PREFIX = f"hall-{secrets.token_hex(4)}"
NOTE = (
    "The load generator (tablet threads, and the spectators' process) runs on the same machine as gunicorn, "
    "PostgreSQL and Redis and shares its CPUs with them."
)
SPECTATOR_NOTE = (
    "At most the spectators' threads are in flight at once: while answers are slow, polls are sent late, "
    "and those not sent by the end are not sent (wanted minus served)."
)

SETUP = """
import json, os
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tournament import desk, enums, simulation
from tournament.errors import NeedsChoice
from tournament.formats.knockout import services as knockout
from tournament.models import Round
from tournament.play import results
players, tablets, wins = (int(os.environ[name]) for name in ("HALL_PLAYERS", "HALL_TABLETS", "HALL_WINS"))
User = get_user_model()
admin = User.objects.create_superuser("hall", password=None)
field = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=16, actor=admin)
field = desk.update_tournament(tournament=field, actor=admin, wins_needed=wins, wins_needed_large_table=wins)
try:
    knockout.generate_next_round(tournament=field, actor=admin, seed=16)
except NeedsChoice as needs:
    knockout.generate_next_round(tournament=field, actor=admin, choice=needs.options[0].code, seed=16)
tables = []
for table in Round.objects.get(tournament=field).tables.order_by("number").prefetch_related("seats"):
    seats = [seat.player_id for seat in sorted(table.seats.all(), key=lambda seat: seat.position)]
    # The dealer pick is the tablet's first tap at a table; done here, so every post is a result.
    table = results.set_first_dealer(
        tournament=field, actor=admin, table_id=table.pk, player_id=seats[0], version=table.version
    )
    tables.append({"id": table.pk, "number": table.number, "version": table.version, "seats": seats})
sessions = []
for n in range(tablets):
    user = User.objects.create_user(f"referee{n + 1}", password=None)
    desk.add_staff(tournament=field, actor=admin, username=user.username, role=enums.Role.REFEREE)
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    sessions.append(session.session_key)
print(json.dumps({"tournament": field.pk, "public_key": field.public_key, "tables": tables, "sessions": sessions}))
"""

# Every entry the tablets made has a fate: accepted (200 saved or replayed), refused (answered as not
# recorded: 409, 500, ...) or unknown (no answer after TRIES sends). Lost: accepted, no valid game.
# Doubled: a key recorded twice, or an entry answered as not recorded that was recorded all the same.
# Tables off: tables whose valid games differ from the entries accepted there (an unknown fate that
# was applied shows here too, and under unknown_fate_applied: not an error of the server).
VERIFY = """
import json, os
from collections import Counter
from games.models import Game, GameStatus
sent = json.load(open(os.environ["HALL_SENT"]))
fates = {key: (table, fate) for key, table, fate in sent["keys"]}
rows = list(Game.objects.filter(table_id__in=sent["tables"]).values_list("table_id", "idempotency_key", "status"))
valid = [(table, key) for table, key, status in rows if status == GameStatus.VALID]
seen = Counter(key for _table, key in valid)
accepted = {key: table for key, (table, fate) in fates.items() if fate == "accepted"}
per_table = Counter(table for _key, table in accepted.items())
games = Counter(table for table, _key in valid)
print(json.dumps({
    "accepted": len(accepted),
    "valid_games": len(valid),
    "lost": sum(1 for key in accepted if seen[key] == 0),
    "doubled": sum(count - 1 for count in seen.values() if count > 1)
    + sum(1 for key in seen if fates.get(key, (0, ""))[1] == "refused"),
    "wrong_table": sum(1 for table, key in valid if key in accepted and accepted[key] != table),
    "never_sent": sum(1 for key in seen if key not in fates),
    "unknown_fate_applied": sum(1 for key in seen if fates.get(key, (0, ""))[1] == "unknown"),
    "tables_off": sum(1 for table in set(games) | set(per_table) if games[table] != per_table[table]),
}))
"""


def manage(script: str, **extra: str) -> dict[str, Any]:
    """Run ``script`` in ``manage.py shell`` on the hall database; its last line of output is JSON."""
    env = {
        **os.environ,
        **extra,
        "DATABASE_URL": DATABASE_URL,
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_DEBUG": "0",
    }
    env.pop("REDIS_URL", None)  # the setup's writes need no shared cache; the server gets its own prefix
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def setup_database() -> dict[str, Any]:
    """Recreate the hall database: a knockout in play, every table's dealer picked, one referee per tablet."""
    env = {**os.environ, "DATABASE_URL": DATABASE_URL, "DJANGO_SECRET_KEY": "bench-only", "DJANGO_DEBUG": "0"}
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE_NAME], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DATABASE_NAME], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True)
    return manage(SETUP, HALL_PLAYERS=str(PLAYERS), HALL_TABLETS=str(TABLETS), HALL_WINS=str(WINS_NEEDED))


def redis_answers() -> bool:
    host, port = urlparse(REDIS_URL).hostname or "127.0.0.1", urlparse(REDIS_URL).port or 6379
    try:
        with socket.create_connection((host, port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start_server(shared: bool) -> subprocess.Popen[bytes]:
    """gunicorn with 2 sync workers on 127.0.0.1:PORT, sharing Redis when ``shared``; returns once it answers."""
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "DJANGO_SECRET_KEY": "bench-only",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("REDIS_URL", None)
    if shared:  # the scaled-out setup: the workers share one Redis (README, "Production")
        env.update(REDIS_URL=REDIS_URL, DJANGO_CACHE_PREFIX=CACHE_PREFIX)
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{PORT}"]
    server = subprocess.Popen([*command, "--workers", "2", "--log-level", "warning"], cwd=ROOT, env=env)
    for _ in range(100):
        try:
            if request("GET", "/healthz").status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.send_signal(signal.SIGTERM)
    raise RuntimeError("gunicorn did not answer")


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    seconds: float


def request(method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None) -> Answer:
    """One request to the bench server on a fresh connection (gunicorn's sync workers close each one)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=TIMEOUT)
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return Answer(response.status, response.headers, data, time.perf_counter() - started)
    finally:
        conn.close()


def percentile(samples: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``samples`` by the nearest rank; 0 for none."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# --- the tablets ------------------------------------------------------------------------------


@dataclass
class Seat:
    """A table as a tablet sees it: the version its next entry carries and whose turn it is to win."""

    id: int
    number: int
    version: int
    seats: list[int]
    posted: int = 0


@dataclass
class Record:
    """What the tablets saw, shared by their threads (append under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    fates: list[tuple[str, int, str]] = field(default_factory=list)  # (key, table id, fate) of every entry
    resends: Counter[str] = field(default_factory=Counter)  # answers to entries sent again (same key)
    moves: int = 0
    out_of_tables: int = 0

    def reset(self) -> None:
        """Start a new part's latencies and answer counts (the fates are kept for the check)."""
        with self.lock:
            self.latencies = []
            self.statuses = Counter()


class Tablet:
    """One referee tablet at one table at a time, posting as ``static/js/outbox.js`` does."""

    def __init__(self, number: int, session: str, tournament: int, table: Seat, spare: queue.Queue[Seat]) -> None:
        self.token = secrets.token_hex(16)  # any 32 alphanumerics: Django compares the cookie and the header
        self.headers = {
            "Cookie": f"sessionid={session}; csrftoken={self.token}",
            "X-CSRFToken": self.token,
            "HX-Request": "true",
            "HX-Target": "table-panel",
            "X-Device": f"hall-tablet-{number}",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        self.tournament = tournament
        self.table: Seat | None = table
        self.spare = spare
        self.rng = random.Random(number)

    def post(self, record: Record) -> bool:
        """Enter the next game's winner at this tablet's table; False once no table is left."""
        table = self.table
        if table is None:
            return False
        key = secrets.token_hex(16)
        winner = table.seats[table.posted % len(table.seats)]  # in turn: the table lasts its longest
        path = f"/t/{self.tournament}/referee/tables/{table.id}/game/"
        fate = "unknown"
        for attempt in range(TRIES):
            body = f"version={table.version}&winner={winner}&key={key}"
            try:
                answer = request("POST", path, self.headers, body)
            except (OSError, http.client.HTTPException):
                # A timeout or a lost connection: the fate is unknown, send again with the same key.
                with record.lock:
                    record.statuses["no answer"] += 1
                time.sleep(0.5 * (attempt + 1))
                continue
            status = answer.headers.get("X-Entry-Status") or ""
            with record.lock:
                record.latencies.append(answer.seconds)
                record.statuses[f"{answer.status} {status}".strip()] += 1
            if answer.status in (502, 503, 504, 429):
                time.sleep(0.5 * (attempt + 1))
                continue
            if answer.status == 200 and status in ("saved", "replayed"):
                fate = "accepted"
                table.version = int(answer.headers["X-Entry-Version"])
                table.posted += 1
                if self.rng.random() < RESEND:
                    self.resend(record, path, body)
            else:
                # Not recorded (the outbox shows it as refused, or not saved for a 500): a 409 carries
                # the table's version now (another entry moved it, or the table is decided).
                fate = "refused"
                table.version = int(answer.headers.get("X-Table-Version") or table.version)
            if b"decided-banner" in answer.body:  # the panel, saved or refused, shows the table decided
                self.move(record)
            break
        with record.lock:
            record.fates.append((key, table.id, fate))
        return True

    def resend(self, record: Record, path: str, body: str) -> None:
        """Send an accepted entry again, as the outbox does when its answer was lost: it must be
        answered ``replayed`` and change nothing (the check after the run counts the games)."""
        try:
            answer = request("POST", path, self.headers, body)
            outcome = f"{answer.status} {answer.headers.get('X-Entry-Status') or ''}".strip()
        except (OSError, http.client.HTTPException):
            outcome = "no answer"
        with record.lock:
            record.resends[outcome] += 1

    def move(self, record: Record) -> None:
        """The table is decided: walk to the next free table of the round (none left: stop)."""
        try:
            self.table = self.spare.get_nowait()
        except queue.Empty:
            self.table = None
        with record.lock:
            record.moves += 1
            record.out_of_tables += self.table is None


def flat_out(tablets: list[Tablet], record: Record, seconds: float) -> float:
    """Every tablet posts one result after another for ``seconds`` (at most SLICE_REQUESTS posts in
    all); returns the posts answered within those seconds, per second (the posts still in flight at
    the end are answered, and left out)."""
    stop = time.monotonic() + seconds
    done = [0]
    lock = threading.Lock()

    def run(tablet: Tablet) -> None:
        while time.monotonic() < stop:
            with lock:
                if done[0] >= SLICE_REQUESTS:
                    return
            if not tablet.post(record):
                return
            if time.monotonic() <= stop:
                with lock:
                    done[0] += 1

    threads = [threading.Thread(target=run, args=(tablet,)) for tablet in tablets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0] / seconds


def paced(tablets: list[Tablet], record: Record, seconds: float, seed: int) -> int:
    """Every tablet posts one result every ~PERIOD seconds (a random phase, +-10% each time) for
    ``seconds``; a late answer delays its tablet's next post, it does not bunch them. Returns the posts."""
    started = time.monotonic()
    stop = started + seconds
    done = [0] * len(tablets)  # one slot per thread

    def run(n: int, tablet: Tablet) -> None:
        rng = random.Random(seed * 1000 + n)
        due = started + rng.uniform(0, PERIOD)
        while due < stop:
            time.sleep(max(0.0, due - time.monotonic()))
            if not tablet.post(record):
                return
            done[n] += 1
            due = max(due + PERIOD * rng.uniform(0.9, 1.1), time.monotonic())

    threads = [threading.Thread(target=run, args=(n, tablet)) for n, tablet in enumerate(tablets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done)


def healthz_rate(threads: int, seconds: float) -> float:
    """Requests per second of /healthz with ``threads`` clients, counted as ``flat_out`` counts posts."""
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    done = [0]
    failures: list[int] = []

    def client() -> None:
        while time.monotonic() < stop:
            with lock:
                if done[0] >= SLICE_REQUESTS:
                    return
            answer = request("GET", "/healthz")
            with lock:
                done[0] += time.monotonic() <= stop
                if answer.status != 200:
                    failures.append(answer.status)

    workers = [threading.Thread(target=client) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise RuntimeError(f"/healthz answered {failures[0]}")
    return done[0] / seconds


# --- the spectators ---------------------------------------------------------------------------


def spectate(path: str, etag: str, start: float, stop: float, out: multiprocessing.Queue[dict[str, object]]) -> None:
    """SPECTATORS projectors polling ``path`` every SPECTATOR_PERIOD between ``start`` and ``stop``
    (time.monotonic, shared by the processes on Linux), spread evenly over the period, each with
    the ETag it got last; SPECTATOR_THREADS threads send the polls that are due, late when they
    cannot keep up, and none after ``stop``. Puts a summary in ``out``."""
    due = [(start + n * SPECTATOR_PERIOD / max(SPECTATORS, 1), n) for n in range(SPECTATORS)]
    heapq.heapify(due)
    wanted = sum(1 + int((stop - t - 1e-9) // SPECTATOR_PERIOD) for t, _n in due if t < stop)
    etags = [etag] * SPECTATORS
    lock = threading.Lock()
    latencies: list[float] = []
    lags: list[float] = []
    statuses: Counter[str] = Counter()
    received: Counter[str] = Counter()  # bytes of the bodies, by status
    cap = wanted + SPECTATORS  # a bound on the requests, whatever the clock does

    def poller() -> None:
        while True:
            with lock:
                # A poll that could not be sent within the window is not sent: served counts the window.
                if not due or due[0][0] >= stop or time.monotonic() >= stop or sum(statuses.values()) >= cap:
                    return
                at, n = heapq.heappop(due)
            time.sleep(max(0.0, at - time.monotonic()))
            lag = time.monotonic() - at
            # As a browser asks: the changed screen comes compressed (tournament.renderings).
            headers = {
                "HX-Request": "true",
                "HX-Target": "screen",
                "If-None-Match": etags[n],
                "Accept-Encoding": "gzip",
            }
            try:
                answer = request("GET", path, headers)
            except (OSError, http.client.HTTPException):
                with lock:
                    statuses["no answer"] += 1
                    heapq.heappush(due, (at + SPECTATOR_PERIOD, n))
                continue
            with lock:
                statuses[str(answer.status)] += 1
                received[str(answer.status)] += len(answer.body)
                latencies.append(answer.seconds)
                lags.append(lag)
                etags[n] = answer.headers.get("ETag") or etags[n]
                heapq.heappush(due, (at + SPECTATOR_PERIOD, n))

    threads = [threading.Thread(target=poller) for _ in range(SPECTATOR_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    served = statuses["200"] + statuses["304"]
    out.put(
        {
            "spectators": SPECTATORS,
            "period_s": SPECTATOR_PERIOD,
            "threads": SPECTATOR_THREADS,
            "wanted": wanted,
            "wanted_per_s": round(wanted / (stop - start), 1),
            "served": served,
            "served_per_s": round(served / (stop - start), 1),
            "answers": dict(statuses),
            "kb_per_200": round(received["200"] / max(statuses["200"], 1) / 1024, 1),
            "p50_ms": ms(percentile(latencies, 0.5)),
            "p95_ms": ms(percentile(latencies, 0.95)),
            "start_lag_p95_ms": ms(percentile(lags, 0.95)),
        }
    )


# --- the run ----------------------------------------------------------------------------------


def latency_figures(record: Record) -> dict[str, object]:
    """A part's latencies and answers, and how many tablets had run out of tables by its end."""
    fives = sum(count for status, count in record.statuses.items() if status.startswith("5"))
    return {
        "p50_ms": ms(percentile(record.latencies, 0.5)),
        "p95_ms": ms(percentile(record.latencies, 0.95)),
        "answers": dict(record.statuses),
        "5xx": fives,
        "tablets_out_of_tables": record.out_of_tables,
    }


def main() -> None:
    if TABLETS < 1 or SECONDS <= 0:
        raise SystemExit("BENCH_HALL_TABLETS and BENCH_HALL_SECONDS must be positive")
    load_before = os.getloadavg()[0]
    print(f"setting up {DATABASE_NAME}: {PLAYERS} players, {TABLETS} referees ...", flush=True)
    began = time.monotonic()
    ids = setup_database()
    print(f"set up in {time.monotonic() - began:.0f} s", flush=True)
    tables = [Seat(t["id"], t["number"], t["version"], t["seats"]) for t in ids["tables"]]
    if len(tables) < TABLETS:
        raise SystemExit(f"{len(tables)} tables for {TABLETS} tablets: raise BENCH_HALL_PLAYERS")
    spare: queue.Queue[Seat] = queue.Queue()
    for table in tables[TABLETS:]:
        spare.put(table)
    tournament, sessions = int(ids["tournament"]), ids["sessions"]
    tablets = [Tablet(n + 1, sessions[n], tournament, tables[n], spare) for n in range(TABLETS)]
    screen = f"/p/{ids['public_key']}/screen/"
    shared = redis_answers()
    server = start_server(shared)
    record = Record()
    try:
        # A warm-up: every worker has loaded its code and opened its database connection.
        for _ in range(10):
            request("GET", "/healthz")
        single = [request("GET", "/healthz").seconds for _ in range(30)]

        print(f"1+2. /healthz and flat-out posts, {SLICES} interleaved slices of {SLICE_SECONDS:g} s ...", flush=True)
        base_rates: list[float] = []
        post_rates: list[float] = []
        for _ in range(SLICES):
            base_rates.append(healthz_rate(TABLETS, SLICE_SECONDS))
            post_rates.append(flat_out(tablets, record, SLICE_SECONDS))
        c, posts_per_s = statistics.median(base_rates), statistics.median(post_rates)
        fast = {
            "posts_per_s": round(posts_per_s, 1),
            "ratio_to_c": round(posts_per_s / c, 3),
            "slices_posts_per_s": [round(rate, 1) for rate in post_rates],
            "slices_healthz_per_s": [round(rate, 1) for rate in base_rates],
            **latency_figures(record),
        }

        wanted = round(TABLETS / PERIOD, 1)
        print(f"3. paced tablets (one post every {PERIOD:g} s each) for {SECONDS:g} s ...", flush=True)
        record.reset()
        count = paced(tablets, record, SECONDS, seed=3)
        alone = {
            "posts": count,
            "posts_per_s": round(count / SECONDS, 1),
            "wanted_per_s": wanted,
            **latency_figures(record),
        }

        print(f"4. paced tablets and {SPECTATORS} spectators for {SECONDS:g} s ...", flush=True)
        record.reset()
        first = request("GET", screen)
        etag, screen_bytes = first.headers.get("ETag") or "", len(first.body)
        out: multiprocessing.Queue[dict[str, object]] = multiprocessing.get_context("fork").Queue()
        start = time.monotonic() + 1.0  # the spectators' process is up by then
        spectators = multiprocessing.get_context("fork").Process(
            target=spectate, args=(screen, etag, start, start + SECONDS, out)
        )
        spectators.start()
        try:
            time.sleep(max(0.0, start - time.monotonic()))
            count = paced(tablets, record, SECONDS, seed=4)
            watched = out.get(timeout=SECONDS + 60)
        finally:
            spectators.join(timeout=30)
            if spectators.is_alive():
                spectators.terminate()
        crowded = {
            "posts": count,
            "posts_per_s": round(count / SECONDS, 1),
            "wanted_per_s": wanted,
            **latency_figures(record),
        }
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        forget_cache(shared)

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as sent:
        json.dump({"keys": record.fates, "tables": [table.id for table in tables]}, sent)
    try:
        check = manage(VERIFY, HALL_SENT=sent.name)
    finally:
        os.unlink(sent.name)

    p95_ratio = crowded["p95_ms"] / alone["p95_ms"] if alone["p95_ms"] else 0.0
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "cpu_count": os.cpu_count(),
        "load_average_before": round(load_before, 2),
        "note": NOTE,
        "setup": {
            "players": PLAYERS,
            "tables": len(tables),
            "wins_needed": WINS_NEEDED,
            "tablets": TABLETS,
            "spectators": SPECTATORS,
            "seconds": SECONDS,
            "period_s": PERIOD,
            "slices": SLICES,
            "slice_seconds": SLICE_SECONDS,
            "gunicorn": "2 sync workers" + (", shared Redis" if shared else ", no Redis: a cache per worker"),
        },
        "baseline": {
            "healthz_per_s": round(c, 1),
            "healthz_single_p50_ms": ms(percentile(single, 0.5)),
            "threads": TABLETS,
        },
        "flat_out": fast,
        "paced": alone,
        "paced_with_spectators": {
            **crowded,
            "p95_ratio_to_paced": round(p95_ratio, 2),
            "goal_p95_within_3x": p95_ratio <= 3,
            "spectators": {**watched, "screen_bytes": screen_bytes, "note": SPECTATOR_NOTE},
        },
        "resent_entries": dict(record.resends),
        "tables_moved": record.moves,
        "tablets_out_of_tables": record.out_of_tables,
        "exactly_once": check,
    }
    (ROOT / "bench" / "hall.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print_report(report)


def forget_cache(shared: bool) -> None:
    """Remove this run's keys from Redis (its own prefix), bounded."""
    if not shared:
        return
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = [key for _n, key in zip(range(100_000), client.scan_iter(f"{CACHE_PREFIX}:*", count=1000), strict=False)]
    if keys:
        client.delete(*keys)


def print_report(report: dict[str, Any]) -> None:
    """The figures as a table (the same as bench/hall.json)."""
    setup, base, check = report["setup"], report["baseline"], report["exactly_once"]
    fast, alone, crowded = report["flat_out"], report["paced"], report["paced_with_spectators"]
    watched = crowded["spectators"]
    print(f"\nA busy hall: {setup['tablets']} tablets, {setup['players']} players at {setup['tables']} tables")
    print(f"{report['cpu_count']} CPUs, load average {report['load_average_before']} before the run. {report['note']}")
    print(
        f"C = /healthz with {base['threads']} client threads: {base['healthz_per_s']} req/s "
        f"(one client: p50 {base['healthz_single_p50_ms']} ms)"
    )
    rows = [
        ("tablets flat out", fast, f"{fast['posts_per_s']}/s = {fast['ratio_to_c']} C"),
        ("tablets paced", alone, f"{alone['posts_per_s']}/s ({alone['wanted_per_s']}/s wanted)"),
        ("tablets paced + spectators", crowded, f"{crowded['posts_per_s']}/s ({crowded['wanted_per_s']}/s wanted)"),
    ]
    print(f"\n{'part':28}  {'p50 ms':>7}  {'p95 ms':>7}  {'5xx':>4}  posts")
    for name, row, what in rows:
        if row["tablets_out_of_tables"]:
            what += f", NOT VALID: {row['tablets_out_of_tables']} tablets out of tables"
        print(f"{name:28}  {row['p50_ms']:7.1f}  {row['p95_ms']:7.1f}  {row['5xx']:4d}  {what}")
    goal = "met" if crowded["goal_p95_within_3x"] else "NOT met"
    print(f"tablets' p95 with spectators / without: {crowded['p95_ratio_to_paced']} (goal <= 3: {goal})")
    print(
        f"\nspectators: {watched['spectators']} polling every {watched['period_s']:g} s from "
        f"{watched['threads']} threads: wanted {watched['wanted']} ({watched['wanted_per_s']}/s), "
        f"served {watched['served']} ({watched['served_per_s']}/s)"
    )
    print(
        f"  answers {watched['answers']}, p50 {watched['p50_ms']} ms, p95 {watched['p95_ms']} ms, "
        f"polls sent late by p95 {watched['start_lag_p95_ms']} ms; a changed screen is "
        f"{watched['screen_bytes']} bytes, {watched['kb_per_200']} KB as sent (gzip)"
    )
    print(f"  {watched['note']}")
    print(
        f"\nexactly once: {check['accepted']} entries accepted, {check['valid_games']} valid games; "
        f"lost {check['lost']}, doubled {check['doubled']}, wrong table {check['wrong_table']}, "
        f"tables off {check['tables_off']}, unanswered but applied {check['unknown_fate_applied']}"
    )
    print(
        f"  tablets moved to another table {report['tables_moved']} times; "
        f"accepted entries sent again (same key): {report['resent_entries']}"
    )
    if report["tablets_out_of_tables"]:
        print(f"WARNING: {report['tablets_out_of_tables']} tablets ran out of tables: raise BENCH_HALL_PLAYERS")


if __name__ == "__main__":
    main()
