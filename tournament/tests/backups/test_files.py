"""SQLite snapshots as files (``tournament.backups.files``): consistent copy, names, retention, the
rolling thread, and restoring a snapshot into a database file."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from tournament.backups import files
from tournament.backups.files import BackupError
from tournament.tests.backups.helpers import make_sqlite, sqlite_tables

pytestmark = pytest.mark.core

DB = Path("spielleitung.sqlite3")


def touch(directory: Path, name: str) -> Path:
    path = directory / name
    path.write_bytes(b"")
    return path


def test_prune_keeps_the_newest_rolling_snapshots_and_every_other_file(tmp_path: Path) -> None:
    rolling = [touch(tmp_path, f"spielleitung-auto-2026112{day}T10000{n}Z.sqlite3") for day in (1, 2) for n in (0, 1)]
    others = [
        touch(tmp_path, "spielleitung-20261120T090000Z.sqlite3"),  # by hand
        touch(tmp_path, "spielleitung-round-t1-r1-20261120T090000Z.sqlite3"),  # a closed round
        touch(tmp_path, "other-auto-20261120T090000Z.sqlite3"),  # another database's
        touch(tmp_path, "spielleitung-auto-notes.txt"),
    ]
    removed = files.prune(tmp_path, DB, keep=3)
    assert removed == [rolling[0]]
    assert sorted(tmp_path.iterdir()) == sorted([*rolling[1:], *others])
    assert files.prune(tmp_path, DB, keep=1) == rolling[1:3]
    assert files.rolling_files(tmp_path, DB) == [rolling[3]]


def test_prune_removes_only_stale_temporary_files(tmp_path: Path) -> None:
    stale = touch(tmp_path, ".spielleitung-auto-20261121T100000Z.sqlite3.abc.tmp")
    fresh = touch(tmp_path, ".spielleitung-auto-20261121T100001Z.sqlite3.def.tmp")
    old = time.time() - files.STALE_TEMP_SECONDS - 10
    os.utime(stale, (old, old))
    files.prune(tmp_path, DB, keep=24)
    assert not stale.exists() and fresh.exists()


def test_snapshot_names_never_collide(tmp_path: Path) -> None:
    first = files.snapshot_path(tmp_path, DB, files.AUTO)
    first.write_bytes(b"")
    second = files.snapshot_path(tmp_path, DB, files.AUTO)
    assert first != second and second.name.startswith(first.stem)
    assert files.snapshot_path(tmp_path, DB, files.ROUND, "t3-r2").name.startswith("spielleitung-round-t3-r2-")


def test_snapshot_is_one_checked_file_while_another_connection_writes(tmp_path: Path) -> None:
    source = make_sqlite(tmp_path / "day.sqlite3", rows=1000)
    stop = threading.Event()

    def write() -> None:
        with closing(sqlite3.connect(source, timeout=20)) as db:
            while not stop.is_set():
                db.execute("INSERT INTO item (name) VALUES ('x')")
                db.commit()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        target = tmp_path / "backups" / "snap.sqlite3"
        size = files.sqlite_snapshot(source, target)
    finally:
        stop.set()
        writer.join(10)
    assert size == target.stat().st_size > 0
    files.check_sqlite_file(target)
    assert not Path(f"{target}-wal").exists()
    with closing(sqlite3.connect(target)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("SELECT count(*) FROM item").fetchone()[0] >= 1000
    assert [path.name for path in target.parent.iterdir()] == ["snap.sqlite3"]  # no temporary file left


def test_snapshot_of_a_missing_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="does not exist"):
        files.sqlite_snapshot(tmp_path / "missing.sqlite3", tmp_path / "snap.sqlite3")
    assert not (tmp_path / "snap.sqlite3").exists()


def test_check_refuses_truncated_and_foreign_files(tmp_path: Path) -> None:
    source = make_sqlite(tmp_path / "day.sqlite3", rows=5000)
    files.sqlite_snapshot(source, tmp_path / "snap.sqlite3")
    data = (tmp_path / "snap.sqlite3").read_bytes()
    (tmp_path / "truncated.sqlite3").write_bytes(data[: len(data) // 2])
    (tmp_path / "text.sqlite3").write_text("hello")
    with pytest.raises(BackupError, match="damaged"):
        files.check_sqlite_file(tmp_path / "truncated.sqlite3")
    with pytest.raises(BackupError, match="not an SQLite database"):
        files.check_sqlite_file(tmp_path / "text.sqlite3")
    with pytest.raises(BackupError, match="no such file"):
        files.check_sqlite_file(tmp_path / "nothing.sqlite3")
    with pytest.raises(BackupError, match="not one of Spielleitung"):
        files.check_spielleitung_snapshot(tmp_path / "snap.sqlite3")


def test_rolling_snapshots_thread_keeps_the_newest(tmp_path: Path) -> None:
    source = make_sqlite(tmp_path / "day.sqlite3")
    directory = tmp_path / "backups"
    problems: list[str] = []
    rolling = files.RollingSnapshots(source, directory, minutes=0.1 / 60, keep=2, log=problems.append).start()
    deadline = time.monotonic() + 10
    while len(list(directory.glob("day-auto-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # a few more rounds of the thread: the older ones are pruned
    rolling.stop(final=True)
    kept = files.rolling_files(directory, source)
    assert len(kept) == 2 and problems == []
    for path in kept:
        files.check_sqlite_file(path)


def test_rolling_snapshot_failure_is_logged_and_the_thread_goes_on(tmp_path: Path) -> None:
    problems: list[str] = []
    rolling = files.RollingSnapshots(tmp_path / "missing.sqlite3", tmp_path, minutes=1, keep=2, log=problems.append)
    assert rolling.take() is None
    assert problems and "does not exist" in problems[0]


def test_restore_snapshot_into_a_file_and_refuse_while_open(tmp_path: Path) -> None:
    source = make_sqlite(tmp_path / "day.sqlite3", rows=7)
    files.sqlite_snapshot(source, tmp_path / "snap.sqlite3")
    target = make_sqlite(tmp_path / "other.sqlite3", rows=2)
    with closing(sqlite3.connect(target)) as server:  # a server's open connection, in WAL mode
        server.execute("SELECT count(*) FROM item").fetchone()
        with pytest.raises(BackupError, match="stop it"):
            files.restore_sqlite_snapshot(tmp_path / "snap.sqlite3", target)
        assert server.execute("SELECT count(*) FROM item").fetchone()[0] == 2
    files.restore_sqlite_snapshot(tmp_path / "snap.sqlite3", target)
    assert sqlite_tables(target) == sqlite_tables(source)
    with closing(sqlite3.connect(target)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
