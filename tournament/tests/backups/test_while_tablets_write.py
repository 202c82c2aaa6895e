"""The must-hold: a backup taken while 10 tablets write, restored into a fresh database, equals the
source row for row.

SQLite (``make run``): the real server (``manage.py serve``: gunicorn) on its own SQLite file, 10
referee tablets posting results the way ``test_sqlite_server`` does (its helpers), ``manage.py
backup`` in the middle. The snapshot is checked against the source as it was at that moment (every
result acknowledged before it is in it; every row in it is the source's row; each table's version is
what its games imply; one audit entry per game) and restored into fresh databases (the snapshot
itself, and its portable export) row for row. Runs whatever database the suite uses.

PostgreSQL: a portable export (``manage.py backup``: pg_dump and the export) while 10 threads record
games through the services on their own connections, restored with ``manage.py restore`` into a
fresh SQLite file, compared row for row (every model, every field).
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Game
from tournament import enums, simulation
from tournament.backups import portable
from tournament.formats import registry
from tournament.formats.points import services as points
from tournament.models import Tournament
from tournament.play import results
from tournament.tests.backups.helpers import sqlite_tables
from tournament.tests.helpers import set_settings
from tournament.tests.races import POSTGRES_RACES
from tournament.tests.test_sqlite_server import (
    BASE_DIR,
    REQUEST_TIMEOUT,
    RUN_DEADLINE,
    SUBPROCESS_TIMEOUT,
    Tablet,
    free_port,
    run_command,
    server_env,
    stop_server,
    tablets_for,
    wait_until_healthy,
)

TABLETS = 10
GAMES_PER_ROUND = 50  # no table is decided while the tablets write (each records at most ~40)
RUNS = 4  # each tablet plays its plan again until the backup is done (at most this often)
DATA_TABLES = ("auth_user", "tournament_", "games_")


def manage(env: dict[str, str], *args: str) -> str:
    return run_command(["manage.py", *args], env)


def check_snapshot_consistent(snapshot: Path) -> dict[str, Any]:
    """The snapshot is one moment of the day: every table's version is what its games imply and
    there is one ``game_recorded`` audit entry per game; returns the snapshot's games by key."""
    with closing(sqlite3.connect(f"{snapshot.resolve().as_uri()}?mode=ro", uri=True)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = db.execute(
            "SELECT idempotency_key, table_id, number, table_version FROM games_game ORDER BY table_id, number"
        ).fetchall()
        versions = dict(db.execute("SELECT id, version FROM tournament_table"))
        recorded = db.execute("SELECT count(*) FROM tournament_auditentry WHERE action = 'game_recorded'").fetchone()
        wins = dict(db.execute("SELECT table_id || '-' || player_id, games_won FROM tournament_seat"))
        won = db.execute("SELECT table_id || '-' || winner_id, count(*) FROM games_game GROUP BY 1").fetchall()
    by_table: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for game in games:
        by_table[game[1]].append(game)
    for table_id, table_games in by_table.items():
        assert [game[2] for game in table_games] == list(range(1, len(table_games) + 1))
        stamped = [game[3] for game in table_games]
        assert stamped == sorted(stamped) and stamped[-1] == versions[table_id], (table_id, stamped)
    assert recorded[0] == len(games)
    for seat, count in won:
        assert wins[seat] == count, seat
    return {game[0]: game for game in games}


def rows_of(path: Path, table: str) -> dict[Any, tuple[Any, ...]]:
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        return {row[0]: row for row in db.execute(f'SELECT * FROM "{table}"')}


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.server
def test_sqlite_snapshot_while_ten_tablets_write(tmp_path: Path) -> None:
    env = server_env(tmp_path)
    manage(env, "migrate", "--no-input", "-v", "0")
    script = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('collectstatic', interactive=False, verbosity=0); "
        f"from tournament.tests.test_sqlite_server import setup_day; setup_day({TABLETS}, {TABLETS}, {GAMES_PER_ROUND})"
    )
    day = json.loads(run_command(["-c", script], env).strip().splitlines()[-1])
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    snapshot = tmp_path / "snapshot.sqlite3"
    backup_done = threading.Event()
    try:
        wait_until_healthy(server, port, log)
        tablets = tablets_for(day, port)
        deadline = time.monotonic() + RUN_DEADLINE * RUNS

        def play(tablet: Tablet) -> None:
            for _ in range(RUNS):
                tablet.run(deadline)
                if backup_done.is_set() or tablet.problem:
                    return

        threads = [threading.Thread(target=play, args=(tablet,), daemon=True) for tablet in tablets]
        for thread in threads:
            thread.start()

        def acknowledged() -> set[str]:
            return {post.key for tablet in tablets for post in list(tablet.posts) if tablet.acknowledged_by(post)}

        while len(acknowledged()) < 2 * TABLETS and time.monotonic() < deadline:
            time.sleep(0.05)
        before = acknowledged()
        manage(env, "backup", str(snapshot))  # as a volunteer would, while the tablets go on
        after = acknowledged()
        backup_done.set()
        for thread in threads:
            thread.join(max(deadline - time.monotonic(), 0) + REQUEST_TIMEOUT * 2)
        assert not any(thread.is_alive() for thread in threads)
    finally:
        stop_server(server)
    assert not [tablet.problem for tablet in tablets if tablet.problem], log.read_text()[-4000:]
    final = acknowledged()
    assert len(before) >= 2 * TABLETS and len(final) > len(after), "the backup was not taken in the middle"

    # The snapshot is one consistent moment of the source.
    in_snapshot = check_snapshot_consistent(snapshot)
    source = tmp_path / "day.sqlite3"
    check_snapshot_consistent(source)
    with closing(sqlite3.connect(source)) as db:
        source_keys = {key for (key,) in db.execute("SELECT idempotency_key FROM games_game")}
    assert before <= set(in_snapshot) <= source_keys
    assert len(in_snapshot) < len(source_keys)  # the tablets went on after it
    for table in ("games_game", "games_gamescore", "tournament_auditentry"):  # rows never changed once written
        taken, now = rows_of(snapshot, table), rows_of(source, table)
        assert {key: now.get(key) for key in taken} == taken, table

    # Restored into a fresh database: the snapshot row for row.
    fresh = dict(env, DATABASE_URL=f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    assert "Restored" in manage(fresh, "restore", str(snapshot))
    assert sqlite_tables(tmp_path / "fresh.sqlite3") == sqlite_tables(snapshot)

    # Its portable export, restored into another fresh database: every data row the same.
    copy = dict(env, DATABASE_URL=f"sqlite:///{snapshot}")
    manage(copy, "backup", "--portable", str(tmp_path / "snapshot.json.gz"))
    other = dict(env, DATABASE_URL=f"sqlite:///{tmp_path / 'other.sqlite3'}")
    manage(other, "restore", str(tmp_path / "snapshot.json.gz"))
    assert sqlite_tables(tmp_path / "other.sqlite3", DATA_TABLES) == sqlite_tables(snapshot, DATA_TABLES)


# --- PostgreSQL -----------------------------------------------------------------------------------


def record_games(tournament: Tournament, table_id: int, players: list[int], stop: threading.Event) -> list[str]:
    """Record games at one table through the services (its own connection) until ``stop``; their keys."""
    keys: list[str] = []
    rng = random.Random(table_id)
    record = registry.of(tournament).record_result
    try:
        while not stop.is_set() and len(keys) < GAMES_PER_ROUND - 5:
            version = Tournament.objects.get(pk=tournament.pk).rounds.get(number=1).tables.get(pk=table_id).version
            key = uuid.uuid4().hex
            winner = rng.choice(players)
            record(
                tournament=tournament,
                actor=None,
                table_id=table_id,
                winner_id=winner,
                version=version,
                idempotency_key=key,
                card_points={player: rng.randint(0, 40) for player in players if player != winner},
            )
            keys.append(key)
    finally:
        connection.close()
    return keys


@pytest.mark.slow
@POSTGRES_RACES[0]
@POSTGRES_RACES[1]
@POSTGRES_RACES[2]
def test_postgres_export_while_ten_threads_write_restores_row_for_row(tmp_path: Path) -> None:
    actor = simulation.system_user()
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=4 * TABLETS, seed=3, actor=actor)
    set_settings(tournament, games_per_round=GAMES_PER_ROUND)
    tournament.refresh_from_db()
    first = points.start_round(tournament=tournament, actor=actor, seed=1)
    tables = []
    for table in first.tables.order_by("number")[:TABLETS]:
        players = list(table.seats.order_by("position").values_list("player_id", flat=True))
        results.set_first_dealer(
            tournament=tournament, actor=actor, table_id=table.pk, player_id=players[0], version=table.version
        )
        tables.append((table.pk, players))
    stop = threading.Event()
    recorded: dict[int, list[str]] = {}

    def work(table_id: int, players: list[int]) -> None:
        recorded[table_id] = record_games(tournament, table_id, players, stop)

    threads = [threading.Thread(target=work, args=table, daemon=True) for table in tables]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while Game.objects.filter(table__round=first).count() < 2 * TABLETS and time.monotonic() < deadline:
        time.sleep(0.05)
    call_command("backup", str(tmp_path / "day.dump"))
    stop.set()
    for thread in threads:
        thread.join(60)
    assert len(recorded) == TABLETS

    export = portable.read_portable(tmp_path / "day.json.gz")
    objects: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in export["objects"]:
        objects[item["model"]].append(item)
    games = objects["games.game"]
    assert 2 * TABLETS <= len(games) < Game.objects.count()  # taken in the middle
    versions = {item["pk"]: item["fields"]["version"] for item in objects["tournament.table"]}
    by_table: dict[int, list[int]] = defaultdict(list)
    for game in games:
        by_table[game["fields"]["table"]].append(game["fields"]["table_version"])
    for table_id, stamped in by_table.items():
        assert max(stamped) == versions[table_id]
    recorded_entries = [
        item for item in objects["tournament.auditentry"] if item["fields"]["action"] == "game_recorded"
    ]
    assert len(recorded_entries) == len(games)
    if (tmp_path / "day.dump").exists():
        assert (tmp_path / "day.dump").read_bytes()[:5] == b"PGDMP"

    # Restored into a fresh SQLite database on "another laptop": the export row for row.
    env = server_env(tmp_path)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(tmp_path / "day.json.gz")],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
    )
    assert result.returncode == 0, result.stderr
    manage(env, "backup", "--portable", str(tmp_path / "again.json.gz"))
    again = portable.read_portable(tmp_path / "again.json.gz")
    assert again["objects"] == export["objects"]
