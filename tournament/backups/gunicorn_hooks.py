"""Gunicorn configuration of ``manage.py serve``: rolling snapshots taken in the gunicorn master.

``serve`` passes this module with ``-c python:tournament.backups.gunicorn_hooks``
and these environment variables (all set, or no snapshots):

- ``SPIELLEITUNG_BACKUP_DATABASE``: the SQLite file to copy;
- ``SPIELLEITUNG_BACKUP_DIR``: where the snapshots go (the workers read it too,
  for the snapshot after each closed round);
- ``SPIELLEITUNG_BACKUP_MINUTES``: minutes between snapshots (0: none);
- ``SPIELLEITUNG_BACKUP_KEEP``: how many rolling snapshots to keep.

Why the master: it is one process for the server's whole life (workers come
and go, there are several of them, and their threads serve requests), it
never touches Django or the database otherwise, and it stops with the
server, so there is no extra process to start, watch or leave behind. The
thread copies with SQLite's backup API (``files.sqlite_snapshot``) and opens
its own short-lived connection, so a worker forked meanwhile inherits no
database handle in use. On shutdown (Ctrl+C) one last snapshot is taken.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tournament.backups.files import RollingSnapshots

_rolling: RollingSnapshots | None = None


def _settings() -> tuple[Path, Path, float, int] | None:
    database = os.environ.get("SPIELLEITUNG_BACKUP_DATABASE", "")
    directory = os.environ.get("SPIELLEITUNG_BACKUP_DIR", "")
    try:
        minutes = float(os.environ.get("SPIELLEITUNG_BACKUP_MINUTES", "0"))
        keep = int(os.environ.get("SPIELLEITUNG_BACKUP_KEEP", "24"))
    except ValueError:
        return None
    if not database or not directory or minutes <= 0:
        return None
    return Path(database), Path(directory), minutes, keep


def when_ready(server: Any) -> None:
    """Gunicorn hook (master, once listening): start the snapshot thread."""
    global _rolling
    found = _settings()
    if found is None or _rolling is not None:
        return
    database, directory, minutes, keep = found
    _rolling = RollingSnapshots(database, directory, minutes=minutes, keep=keep, log=server.log.error).start()
    server.log.info("Snapshots of %s every %g minutes in %s (the newest %d kept)", database, minutes, directory, keep)


def on_exit(server: Any) -> None:
    """Gunicorn hook (master, shutting down): stop the thread and take a last snapshot."""
    if _rolling is not None:
        _rolling.stop(final=True)
