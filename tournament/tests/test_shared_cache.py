"""More than one process: a shared cache (Redis, ``REDIS_URL``) keeps their polls true.

- ``REDIS_URL`` (or ``CACHE_URL``) switches ``CACHES`` to Django's Redis backend; without
  it each process keeps its own cache (LocMem), as ``make run`` does.
- Two gunicorn servers on one PostgreSQL database and one Redis: a result entered on
  one is seen on the other's next poll (the staff's at once, the projector's after the
  one-second window of ``tournament.renderings``), never a stale 304.

Redis runs at 127.0.0.1:6379 here; each test keeps to keys of its own prefix
(``DJANGO_CACHE_PREFIX``), so parallel runs do not meet. Skipped when no Redis answers.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.urls import reverse

from tournament import enums, renderings, simulation
from tournament.tests.helpers import refreshed, seated
from tournament.tests.views.test_polling import play_a_little

BASE_DIR = Path(settings.BASE_DIR)
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def redis_answers() -> bool:
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def settings_with(env: dict[str, str]) -> dict[str, object]:
    """CACHES and SHARED_CACHE as config.settings makes them from ``env`` (a fresh interpreter)."""
    script = (
        "import json; from config import settings as s; "
        "print(json.dumps({'backend': s.CACHES['default']['BACKEND'], 'shared': s.SHARED_CACHE, "
        "'location': s.CACHES['default'].get('LOCATION'), "
        "'sessions': getattr(s, 'SESSION_ENGINE', 'django.contrib.sessions.backends.db')}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CACHE_URL")}
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env={**base, "DJANGO_SECRET_KEY": "x", **env},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_redis_url_switches_to_the_shared_cache_and_without_it_each_process_keeps_its_own():
    own = settings_with({})
    assert own["backend"] == "django.core.cache.backends.locmem.LocMemCache"
    assert own["shared"] is False
    # Sessions in the database only: a cache per process would keep a logged-out session alive elsewhere.
    assert own["sessions"] == "django.contrib.sessions.backends.db"
    shared = settings_with({"REDIS_URL": "redis://127.0.0.1:6379/3"})
    assert shared == {
        "backend": "config.cache.ReusedClientRedisCache",
        "shared": True,
        "location": "redis://127.0.0.1:6379/3",
        "sessions": "django.contrib.sessions.backends.cached_db",
    }
    assert settings_with({"CACHE_URL": "redis://127.0.0.1:6379/4"})["location"] == "redis://127.0.0.1:6379/4"


def test_the_redis_backend_keeps_one_client_and_behaves_as_djangos():
    """config.cache: Django's Redis backend, its client made once per pool, not on every call."""
    if not redis_answers():
        pytest.skip("no Redis at 127.0.0.1:6379")
    from django.core.cache.backends.redis import RedisCache

    from config.cache import ReusedClientRedisCache

    prefix = f"shared-cache-test-{os.getpid()}"
    cache = ReusedClientRedisCache(f"redis://{REDIS_HOST}:{REDIS_PORT}/5", {"KEY_PREFIX": prefix})
    assert isinstance(cache, RedisCache)
    assert cache._cache.get_client(write=True) is cache._cache.get_client(write=False)
    try:
        assert cache.add("a", {"x": 1}, 30) is True and cache.add("a", 2, 30) is False
        cache.set_many({"b": 2, "c": [3]}, 30)
        assert cache.get_many(["a", "b", "c"]) == {"a": {"x": 1}, "b": 2, "c": [3]}
        assert cache.incr("b") == 3
        cache.delete_many(["a", "b"])
        assert cache.get("a") is None and cache.get("c") == [3]
    finally:
        cache.delete_many(["a", "b", "c"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One gunicorn server (one worker: one process of its own) of the test database."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", "1"],
            cwd=BASE_DIR,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def wait_until_up(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1).read()
                return
            except OSError:
                assert self.process.poll() is None, "gunicorn stopped"
                time.sleep(0.2)
        raise AssertionError("gunicorn did not answer within 30 s")

    def get(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def post(self, path: str, data: dict[str, object], headers: dict[str, str]) -> int:
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=body, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two gunicorn servers on the test database (PostgreSQL) and one Redis, a prefix of their own."""
    if connection.vendor != "postgresql":
        pytest.skip("two servers share one PostgreSQL database")
    if not redis_answers():
        pytest.skip("no Redis at 127.0.0.1:6379")
    (tmp_path / "shared_cache_settings.py").write_text(
        "from config.settings import *  # noqa: F403\n\n"
        "# Templates render without collectstatic's manifest.\n"
        'STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}\n'
    )
    db = connection.settings_dict
    env = {name: value for name, value in os.environ.items() if not name.startswith(("DJANGO_", "REDIS_", "CACHE_"))}
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=f"redis://{REDIS_HOST}:{REDIS_PORT}/0",
        DJANGO_CACHE_PREFIX=f"test-{uuid.uuid4().hex}",
        DJANGO_SECRET_KEY=settings.SECRET_KEY,  # the session made here must read there
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="shared_cache_settings",
        PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), str(BASE_DIR), os.environ.get("PYTHONPATH", "")])),
    )
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    servers = (Server(env), Server(env))
    try:
        for server in servers:
            server.wait_until_up()
        yield servers
    finally:
        for server in servers:
            server.stop()
        connection.close()  # (the servers' connections are gone; the test database can be flushed)


@pytest.mark.server
@pytest.mark.slow
@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_result_entered_on_one_server_is_seen_on_the_other_s_next_poll(two_servers, staff_user):
    first, second = two_servers
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=2)
    table = play_a_little(tournament)
    referee = staff_user(tournament, enums.Role.REFEREE)
    session = SessionStore()
    session.update(
        {
            "_auth_user_id": str(referee.pk),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
            "_auth_user_hash": referee.get_session_auth_hash(),
        }
    )
    session.create()
    token = uuid.uuid4().hex  # 32 alphanumerics: the CSRF cookie and header compared
    cookie = {"Cookie": f"sessionid={session.session_key}; csrftoken={token}"}
    tables_path = reverse("tournament:referee_tables", args=[tournament.pk])
    region = {**cookie, "HX-Request": "true", "HX-Target": "tables-list"}
    screen_path = reverse("tournament:projector_screen", args=[tournament.public_key])

    # Both servers know the tournament as it is: the second answers 304 to what the first sent.
    status, headers, _ = first.get(tables_path, region)
    assert status == 200
    staff_etag = headers["ETag"]
    status, headers, before = first.get(screen_path, {})
    assert status == 200
    screen_etag = headers["ETag"]
    assert second.get(tables_path, {**region, "If-None-Match": staff_etag})[0] == 304
    assert second.get(screen_path, {"If-None-Match": screen_etag})[0] == 304

    # A result entered on the first server...
    ids = seated(table)
    answer = first.post(
        reverse("tournament:record_game", args=[tournament.pk, table.pk]),
        {"winner": ids[1], "version": refreshed(table).version, "key": uuid.uuid4().hex},
        {**cookie, "X-CSRFToken": token, "HX-Request": "true", "HX-Target": "table-panel"},
    )
    assert answer == 200
    # ...is seen on the second's next poll: the staff's at once,
    status, headers, _ = second.get(tables_path, {**region, "If-None-Match": staff_etag})
    assert status == 200 and headers["ETag"] != staff_etag
    # the projector's once the one-second window of the last rendering has passed (its next poll).
    time.sleep(renderings.FRESH_SECONDS + 0.1)
    status, headers, after = second.get(screen_path, {"If-None-Match": screen_etag})
    assert status == 200 and headers["ETag"] != screen_etag
    tournament.refresh_from_db()
    assert f"-{tournament.version}-" in headers["ETag"]
    assert after != before
    # And the first server now answers the second's ETag with a 304 (one shared rendering).
    assert first.get(screen_path, {"If-None-Match": headers["ETag"]})[0] == 304
