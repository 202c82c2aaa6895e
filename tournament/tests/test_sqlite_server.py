"""A busy day on the embedded SQLite database, through the real server.

``manage.py serve`` (what ``make run`` starts: gunicorn, 2 workers with
threads) runs on its own SQLite file; 20 referee tablets, each at its own
table with its own session, post results as fast as they can, as plain form
posts. Like a real day, every tablet re-sends some posts with the same key (an
answer lost on bad Wi-Fi: once right away, while the first is still in flight,
and once much later) and sends a few with a version it should have refreshed.

The contract checked: no answer is a server error; a 302 back to the table is
an acknowledged write, stored exactly once however often it was sent; a 409 is
a refusal that stored nothing; each table holds exactly its acknowledged games.

pytest-django's test database is not used: the server, the setup and the
checks all work on a SQLite file in ``tmp_path``.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.server

BASE_DIR = Path(__file__).resolve().parents[2]
TABLETS = 20
GAMES_PER_ROUND = 15  # more than a tablet records (10), so no table is decided during the run
# One tablet's posts: 8 games, 2 games sent twice at once, 1 late re-send, 2 stale: 15 posts, 300 in all.
PLAN = ["game"] * 8 + ["double"] * 2 + ["late_retry"] + ["stale"] * 2
REQUEST_TIMEOUT = 25.0  # longer than the busy timeout (20 s): a request waiting for the lock still gets its answer
RUN_DEADLINE = 45.0  # seconds for all tablets together; far above a normal run
SUBPROCESS_TIMEOUT = 120.0
VERSION_RE = re.compile(r'name="version" value="(\d+)"')


def setup_day(tables: int, sessions: int, games_per_round: int) -> None:
    """Set up the day through the real services; print JSON for the tablets.

    Runs in a subprocess with Django set up on the server's database. Prints
    ``{"tournament": id, "tables": [{"id", "version", "players"}], "sessions": [keys]}``
    with ``tables`` seated tables of round 1 (first dealer set) and
    ``sessions`` logged-in sessions of one referee.
    """
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from tournament import enums, simulation
    from tournament.formats.points import services as points
    from tournament.models import StaffRole
    from tournament.play import results
    from tournament.tests.helpers import set_settings

    tournament = simulation.create_field(fmt="points", players=80, seed=1)
    set_settings(tournament, games_per_round=games_per_round)
    tournament.refresh_from_db()
    referee = get_user_model().objects.create_user(username="server-test-referee")  # no password: no slow hashing
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    first_round = points.start_round(tournament=tournament, actor=referee, seed=1)
    seated = []
    for table in first_round.tables.order_by("number")[:tables]:
        players = list(table.seats.order_by("position").values_list("player_id", flat=True))
        table = results.set_first_dealer(
            tournament=tournament, actor=referee, table_id=table.pk, player_id=players[0], version=table.version
        )
        seated.append({"id": table.pk, "version": table.version, "players": players})
    keys = []
    for _ in range(sessions):
        # A logged-in session as django.contrib.auth.login leaves it, without the slow password check.
        session = SessionStore()
        session[SESSION_KEY] = str(referee.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = referee.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    print(json.dumps({"tournament": tournament.pk, "tables": seated, "sessions": keys}))


# --- the tablets ----------------------------------------------------------------------


@dataclass
class Post:
    """One POST and its answer; ``status`` None when no answer came (timeout, reset)."""

    table_id: int
    kind: str
    key: str
    status: int | None
    location: str = ""
    page_version: int | None = None  # a 409 shows the table page: the version it shows
    error: str = ""
    seconds: float = 0.0

    @property
    def expected(self) -> int:
        return 409 if self.kind == "stale" else 302


@dataclass
class Tablet:
    """A referee tablet at one table: loads the table page, posts games, follows the redirect."""

    port: int
    tournament_id: int
    table_id: int
    players: list[int]
    session_key: str
    rng: random.Random
    version: int = -1
    csrf_token: str = ""
    posts: list[Post] = field(default_factory=list)
    acknowledged: list[dict[str, str]] = field(default_factory=list)
    problem: str = ""

    @property
    def path(self) -> str:
        return f"/t/{self.tournament_id}/referee/tables/{self.table_id}/"

    def _request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPResponse, str]:
        """One request on a fresh connection (as a tablet after a Wi-Fi gap); returns status, response, body."""
        cookies = f"sessionid={self.session_key}" + (f"; csrftoken={self.csrf_token}" if self.csrf_token else "")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        try:
            connection.request(method, path, body=body, headers={"Cookie": cookies, **(headers or {})})
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            return response.status, response, text
        finally:
            connection.close()

    def load(self) -> None:
        """GET the table page: the CSRF cookie (first time) and the version the next post sends."""
        status, response, text = self._request("GET", self.path)
        if status != 200:
            raise AssertionError(f"GET {self.path} answered {status}")
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie(header)
            if "csrftoken" in cookie:
                self.csrf_token = cookie["csrftoken"].value
        match = VERSION_RE.search(text)
        if not self.csrf_token or match is None:
            raise AssertionError(f"GET {self.path}: no CSRF cookie or no version in the page")
        self.version = int(match.group(1))

    def new_game(self, version: int) -> dict[str, str]:
        """The form of one game: a winner and card points for everyone else."""
        winner = self.rng.choice(self.players)
        fields = {"winner": str(winner), "version": str(version), "key": uuid.uuid4().hex}
        for player in self.players:
            if player != winner:
                fields[f"points_{player}"] = str(self.rng.randint(0, 60))
        return fields

    def post(self, kind: str, fields: dict[str, str]) -> Post:
        """POST a game as the plain form does (no HX-Request); never raises."""
        origin = f"http://127.0.0.1:{self.port}"
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.csrf_token,
            "Origin": origin,
            "Referer": origin + self.path,
        }
        started = time.monotonic()
        result = Post(table_id=self.table_id, kind=kind, key=fields["key"], status=None)
        try:
            status, response, text = self._request("POST", self.path + "game/", urllib.parse.urlencode(fields), headers)
            result.status, result.location = status, response.headers.get("Location", "")
            match = VERSION_RE.search(text) if status == 409 else None
            result.page_version = int(match.group(1)) if match else None
        except (OSError, http.client.HTTPException) as error:
            result.error = repr(error)
        result.seconds = time.monotonic() - started
        return result

    def acknowledged_by(self, post: Post) -> bool:
        """A 302 back to this table's page: the write is stored (a 302 to the login page is not)."""
        return post.status == 302 and urllib.parse.urlsplit(post.location).path == self.path

    def run(self, deadline: float) -> None:
        """Work through the plan (first a plain game, then the rest shuffled) until done or ``deadline``."""
        try:
            self.load()
            rest = PLAN[1:]
            self.rng.shuffle(rest)
            for kind in [PLAN[0], *rest]:
                if time.monotonic() > deadline:
                    self.problem = "deadline reached"
                    return
                self.step(kind)
        except AssertionError as error:
            self.problem = str(error)
        except Exception as error:  # a tablet thread must never die silently
            self.problem = repr(error)

    def step(self, kind: str) -> None:
        """Send one planned post (two for ``double``), then reload the table page as the browser does."""
        resend = kind == "late_retry" and bool(self.acknowledged)
        if resend:  # an earlier answer was lost: the tablet sends that post again, unchanged
            fields = self.rng.choice(self.acknowledged)
        elif kind == "stale":  # a version older than the table's: must be refused
            fields = self.new_game(self.version - 1)
        else:
            fields = self.new_game(self.version)
        # double: no answer yet and the referee taps again, so the same key goes out while the first is in flight
        answers = self._twice_at_once(fields) if kind == "double" else [self.post(kind, fields)]
        self.posts.extend(answers)
        if not resend and any(self.acknowledged_by(answer) for answer in answers):
            self.acknowledged.append(fields)
        if len(answers) == 1 and answers[0].page_version is not None:
            self.version = answers[0].page_version  # a refusal shows the current table
        else:
            self.load()  # the browser follows the redirect (or, after no answer, the referee reloads)

    def _twice_at_once(self, fields: dict[str, str]) -> list[Post]:
        answers: list[Post] = []
        second = threading.Thread(target=lambda: answers.append(self.post("double", fields)), daemon=True)
        second.start()
        answers.append(self.post("double", fields))
        second.join(REQUEST_TIMEOUT + 5)
        return answers


# --- the server -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_command(args: list[str], env: dict[str, str]) -> str:
    """Run a Python command in the project directory; its stdout, or a failure with its output."""
    result = subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(f"{' '.join(args[:2])} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def server_env(tmp_path: Path) -> dict[str, str]:
    """The environment of ``make run`` on a fresh SQLite file.

    The settings are ``config.settings`` with only STATIC_ROOT moved into
    ``tmp_path``, so collectstatic does not write into the checkout's var/.
    """
    static_root = tmp_path / "static"
    (tmp_path / "server_test_settings.py").write_text(
        f"from config.settings import *  # noqa: F403\n\nSTATIC_ROOT = {str(static_root)!r}\n"
    )
    env = {name: value for name, value in os.environ.items() if not name.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'day.sqlite3'}",
        DJANGO_SECRET_KEY="server-test-secret-key",
        DJANGO_DEBUG="0",
        DJANGO_SETTINGS_MODULE="server_test_settings",
        PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), str(BASE_DIR), os.environ.get("PYTHONPATH", "")])),
        PYTHONUNBUFFERED="1",
    )
    return env


def wait_until_healthy(server: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the server exited with {server.returncode}:\n{log.read_text()}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.1)
    pytest.fail(f"the server did not answer /healthz within 30 s:\n{log.read_text()}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to gunicorn's master (graceful); SIGKILL to its process group if it hangs."""
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=5)


def tablets_for(day: dict[str, Any], port: int) -> list[Tablet]:
    """One tablet per table of the day, each logged in with its referee's session."""
    return [
        Tablet(
            port=port,
            tournament_id=day["tournament"],
            table_id=table["id"],
            players=table["players"],
            session_key=session_key,
            rng=random.Random(index),
        )
        for index, (table, session_key) in enumerate(zip(day["tables"], day["sessions"], strict=True))
    ]


@pytest.mark.long
def test_twenty_tablets_post_at_once_and_no_tap_is_lost(tmp_path: Path) -> None:
    begun = time.monotonic()
    env = server_env(tmp_path)
    run_command(["manage.py", "migrate", "--no-input", "-v", "0"], env)
    # One more process (not one per step): collectstatic as make run does it, then the day's setup.
    script = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('collectstatic', interactive=False, verbosity=0); "
        f"from tournament.tests.test_sqlite_server import setup_day; setup_day({TABLETS}, {TABLETS}, {GAMES_PER_ROUND})"
    )
    day = json.loads(run_command(["-c", script], env).strip().splitlines()[-1])
    assert len(day["tables"]) == TABLETS

    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as output:  # a file, not a pipe: a full pipe would stall the server
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so a hung server can be killed with its workers
        )
    try:
        wait_until_healthy(server, port, log)
        setup_seconds = time.monotonic() - begun
        tablets = tablets_for(day, port)
        started = time.monotonic()
        deadline = started + RUN_DEADLINE
        # Daemon threads: a tablet stuck past every timeout must not keep pytest from exiting.
        threads = [threading.Thread(target=tablet.run, args=(deadline,), daemon=True) for tablet in tablets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(deadline - time.monotonic(), 0) + REQUEST_TIMEOUT * 2)
        duration = time.monotonic() - started
        hung = sum(thread.is_alive() for thread in threads)
    finally:
        stopping = time.monotonic()
        stop_server(server)
        stop_seconds = time.monotonic() - stopping

    posts = [post for tablet in tablets for post in tablet.posts]
    acknowledged = [post for tablet in tablets for post in tablet.posts if tablet.acknowledged_by(post)]
    refused = [post for post in posts if post.status == 409]
    failed = [post for post in posts if post.status is None or post.status >= 500]
    unexpected = [post for post in posts if post.status != post.expected]
    seconds = sorted(post.seconds for post in posts) or [0.0]
    print(
        f"\nposts {len(posts)}, acknowledged {len(acknowledged)}, refused {len(refused)}, "
        f"retries {len(posts) - len({post.key for post in posts})}, "
        f"server errors or no answer {len(failed)}, duration {duration:.1f} s, "
        f"slowest post {seconds[-1]:.2f} s, median {seconds[len(seconds) // 2]:.3f} s; "
        f"answers {dict(Counter(post.status for post in posts))}; "
        f"setup {setup_seconds:.1f} s, server stop {stop_seconds:.1f} s"
    )
    server_log = log.read_text(errors="replace")
    assert not failed, f"{len(failed)} posts got a server error or no answer: {failed[:5]}\n{server_log[-8000:]}"
    assert hung == 0 and not [tablet.problem for tablet in tablets if tablet.problem], (
        [tablet.problem for tablet in tablets if tablet.problem],
        server_log[-4000:],
    )
    assert len(posts) == TABLETS * (len(PLAN) + PLAN.count("double"))
    assert not unexpected, (unexpected[:10], server_log[-4000:])

    with closing(sqlite3.connect(tmp_path / "day.sqlite3")) as database:
        stored = Counter(key for (key,) in database.execute("SELECT idempotency_key FROM games_game"))
        per_table = Counter(table for (table,) in database.execute("SELECT table_id FROM games_game"))
    acknowledged_keys = {post.key for post in acknowledged}
    assert {key: stored[key] for key in acknowledged_keys if stored[key] != 1} == {}
    assert [post.key for post in refused if stored[post.key]] == []
    for tablet in tablets:
        assert per_table[tablet.table_id] == len({post.key for post in tablet.posts if tablet.acknowledged_by(post)})
