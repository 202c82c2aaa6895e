"""Snapshots of the embedded SQLite database as files: taking, checking, naming and pruning them.

Only the standard library: the gunicorn master (``tournament.backups.gunicorn_hooks``)
imports this module without setting Django up.

A snapshot is taken with SQLite's online backup API in one step: SQLite copies
the pages of one read transaction, so the copy is consistent while the server
writes (in WAL mode a reader never blocks a writer, and the writers never block
the copy). The copy is written to a temporary file beside the target, checked
with ``PRAGMA integrity_check``, switched to a plain rollback journal (one
self-contained file, no ``-wal``), synced and renamed into place: a snapshot
file is complete or absent, never half written.

File names (UTC timestamps sort by name):

- ``<db>-<stamp>.sqlite3``: ``manage.py backup`` (kept until deleted by hand);
- ``<db>-auto-<stamp>.sqlite3``: the rolling snapshots of ``manage.py serve`` (the newest N kept);
- ``<db>-round-t<tournament>-r<round>-<stamp>.sqlite3``: after each closed round (always kept).
"""

from __future__ import annotations

import datetime
import logging
import os
import re
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

logger = logging.getLogger("tournament.backups")

SQLITE_HEADER = b"SQLite format 3\x00"
GZIP_MAGIC = b"\x1f\x8b"
AUTO = "auto"
ROUND = "round"
STAMP_FORMAT = "%Y%m%dT%H%M%SZ"
# Seconds a snapshot waits for a busy database (a writer checkpointing) before giving up.
BUSY_TIMEOUT = 20.0
# Temporary files older than this (a snapshot killed half way) are removed when pruning.
STALE_TEMP_SECONDS = 3600


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do (shown as is)."""


def utc_stamp(now: datetime.datetime | None = None) -> str:
    """``20261121T143015Z``: a UTC timestamp for file names (sorts in time order)."""
    return (now or datetime.datetime.now(datetime.UTC)).astimezone(datetime.UTC).strftime(STAMP_FORMAT)


def snapshot_path(directory: Path, database: Path, kind: str = "", detail: str = "") -> Path:
    """A new file name in ``directory`` for a snapshot of ``database``: ``<db>[-kind][-detail]-<stamp>.sqlite3``.

    Never an existing file: a second snapshot within the same second gets ``-2``, ``-3``, ...
    """
    parts = [database.stem, kind, detail, utc_stamp()]
    stem = "-".join(part for part in parts if part)
    candidate = directory / f"{stem}.sqlite3"
    counter = 2
    while candidate.exists():
        candidate = directory / f"{stem}-{counter}.sqlite3"
        counter += 1
    return candidate


def is_sqlite_file(path: Path) -> bool:
    """True when ``path`` starts with SQLite's file header."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def check_sqlite_file(path: Path) -> None:
    """Raise BackupError unless ``path`` is a readable, intact SQLite database (``PRAGMA integrity_check``)."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file.")
    if not is_sqlite_file(path):
        raise BackupError(f"{path} is not an SQLite database.")
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT)) as db:
            result = [row[0] for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is damaged ({error}).") from error
    if result != ["ok"]:
        raise BackupError(f"{path} is damaged: {'; '.join(str(line) for line in result[:5])}")


def _fsync_directory(directory: Path) -> None:
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def sqlite_snapshot(source: Path, target: Path) -> int:
    """Copy the live SQLite database ``source`` consistently to the new file ``target``; return its size.

    Safe while the server writes: SQLite's backup API copies every page in one
    step, inside one read transaction (one consistent moment). The copy is
    checked (``PRAGMA integrity_check``), made a self-contained file
    (``journal_mode=DELETE``), synced and renamed into place. Raises
    BackupError (the source missing or unreadable, the copy damaged, the disk full).
    """
    if not source.is_file():
        raise BackupError(f"The database {source} does not exist.")
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(descriptor)
    temporary = Path(temporary_name)
    try:
        with (
            closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT)) as live,
            closing(sqlite3.connect(temporary, timeout=BUSY_TIMEOUT)) as copy,
        ):
            live.backup(copy)  # pages=-1: every page in one step, one consistent read
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            result = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            if result != ["ok"]:
                raise BackupError(f"The snapshot of {source} failed its integrity check: {result[:3]}")
            copy.commit()
        with temporary.open("rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        _fsync_directory(target.parent)
        return target.stat().st_size
    except sqlite3.Error as error:
        raise BackupError(f"Could not copy {source}: {error}") from error
    except OSError as error:
        raise BackupError(f"Could not write {target}: {error}") from error
    finally:
        temporary.unlink(missing_ok=True)


def rolling_files(directory: Path, database: Path) -> list[Path]:
    """The rolling (``-auto-``) snapshots of ``database`` in ``directory``, oldest first."""
    pattern = re.compile(rf"^{re.escape(database.stem)}-{AUTO}-\d{{8}}T\d{{6}}Z(-\d+)?\.sqlite3$")
    if not directory.is_dir():
        return []
    return sorted(path for path in directory.iterdir() if pattern.match(path.name))


def prune(directory: Path, database: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` rolling snapshots of ``database``; return the deleted files.

    Snapshots taken by hand and those of closed rounds are never deleted.
    Leftover temporary files of a snapshot killed half way (older than an
    hour) go too.
    """
    removed = []
    files = rolling_files(directory, database)
    for path in files[: max(len(files) - max(keep, 0), 0)]:
        path.unlink(missing_ok=True)
        removed.append(path)
    if directory.is_dir():
        cutoff = time.time() - STALE_TEMP_SECONDS
        for path in directory.glob(f".{database.stem}-*.tmp"):
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink(missing_ok=True)
            except OSError:
                pass
    return removed


def rolling_snapshot(database: Path, directory: Path, keep: int) -> Path:
    """Take one rolling snapshot of ``database`` into ``directory`` and prune to the newest ``keep``."""
    target = snapshot_path(directory, database, AUTO)
    sqlite_snapshot(database, target)
    prune(directory, database, keep)
    return target


class RollingSnapshots:
    """A daemon thread that takes a rolling snapshot every ``minutes`` (in the gunicorn master).

    ``stop()`` ends the thread (and with ``final=True`` takes a last
    snapshot). A failed snapshot is logged through ``log`` and the thread
    goes on: a full disk must not stop the server.
    """

    def __init__(
        self, database: Path, directory: Path, *, minutes: float, keep: int, log: Callable[[str], None] | None = None
    ) -> None:
        self.database, self.directory, self.keep = database, directory, keep
        self.interval = minutes * 60
        self.log = log or logger.warning
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rolling-snapshots", daemon=True)

    def start(self) -> RollingSnapshots:
        self._thread.start()
        return self

    def take(self) -> Path | None:
        """One snapshot now; None (logged) when it failed."""
        try:
            return rolling_snapshot(self.database, self.directory, self.keep)
        except BackupError as error:
            self.log(f"Snapshot failed: {error}")
        except Exception as error:  # never let the thread die: the next interval tries again
            self.log(f"Snapshot failed: {error!r}")
        return None

    def _run(self) -> None:
        while not self._stopped.wait(self.interval):
            self.take()

    def stop(self, *, final: bool = False) -> None:
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join(BUSY_TIMEOUT + 5)
        if final:
            self.take()


def check_spielleitung_snapshot(path: Path) -> None:
    """Raise BackupError unless the SQLite file ``path`` is a Spielleitung database (migrated, with tournaments)."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT)) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is damaged ({error}).") from error
    if not {"django_migrations", "tournament_tournament"} <= tables:
        raise BackupError(f"{path} is an SQLite database, but not one of Spielleitung.")


def restore_sqlite_snapshot(snapshot: Path, target: Path) -> None:
    """Copy the checked snapshot into the database file ``target`` with SQLite's backup API.

    Through SQLite, not as a file copy: a stale ``-wal`` beside the old
    database is taken care of instead of being replayed onto the new one.
    BackupError when a server still has ``target`` open (SQLite cannot leave
    WAL mode then): stop it first.
    """
    busy = f"A server is using {target}: stop it (Ctrl+C) and run the restore again. Nothing was changed."
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with (
            closing(sqlite3.connect(f"{snapshot.resolve().as_uri()}?mode=ro", uri=True)) as source,
            closing(sqlite3.connect(target, timeout=1)) as live,
        ):
            mode = live.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
            if str(mode).lower() != "delete":
                raise BackupError(busy)
            source.backup(live)
            live.execute("PRAGMA journal_mode=WAL")
            result = [row[0] for row in live.execute("PRAGMA integrity_check")]
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise BackupError(busy) from error
        raise BackupError(f"Could not restore into {target}: {error}") from error
    except sqlite3.DatabaseError as error:
        raise BackupError(f"Could not restore into {target}: {error}") from error
    if result != ["ok"]:
        raise BackupError(f"The restored database {target} failed its integrity check: {result[:3]}")
