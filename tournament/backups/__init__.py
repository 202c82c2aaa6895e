"""Backups a volunteer can use: snapshots, portable exports, restore.

- ``files``: consistent snapshots of the embedded SQLite database (SQLite's
  online backup API), their names and the rolling retention. Standard library
  only: the gunicorn master imports it.
- ``portable``: gzip'd JSON exports of the whole database or of one
  tournament, loadable into any database vendor, and their restore.
- ``gunicorn_hooks``: the gunicorn config module ``manage.py serve`` passes
  with ``-c``: a thread in the gunicorn master takes a rolling snapshot every
  few minutes and keeps the newest N.
- ``snapshot_after_round`` (here): the snapshot ``play.rounds.close_round``
  asks for once a round's close is committed.

The commands are ``manage.py backup`` and ``manage.py restore``; the organiser
downloads one tournament from the ranking page (``views.exports.export_tournament``).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS

logger = logging.getLogger("tournament.backups")


def snapshot_after_round(*, tournament_id: int, round_number: int) -> threading.Thread | None:
    """Keep a snapshot of the moment round ``round_number`` of tournament ``tournament_id`` closed.

    Does nothing unless snapshots are on (``settings.SPIELLEITUNG_BACKUP_DIR``,
    set by ``manage.py serve``). On the embedded SQLite database: a file
    snapshot ``<db>-round-t<id>-r<n>-<stamp>.sqlite3``, taken in a thread (the
    returned one) so the organiser's page does not wait. On another database:
    a portable export of the tournament, ``...json.gz``, written at once.
    Round snapshots are never pruned. Never raises: a failure is logged, the
    round stays closed. Call it after the commit (``transaction.on_commit``).
    """
    try:
        directory = getattr(settings, "SPIELLEITUNG_BACKUP_DIR", "")
        if not directory:
            return None
        from tournament.backups import files, portable

        detail = f"t{tournament_id}-r{round_number}"
        database = portable.sqlite_database(DEFAULT_DB_ALIAS)
        if database is not None:
            target = files.snapshot_path(Path(directory), database, files.ROUND, detail)
            thread = threading.Thread(
                target=_take_round_snapshot, args=(database, target), name="round-snapshot", daemon=True
            )
            thread.start()
            return thread
        name = Path(str(settings.DATABASES[DEFAULT_DB_ALIAS]["NAME"]) or "database")
        target = files.snapshot_path(Path(directory), name, files.ROUND, detail).with_suffix(".json.gz")
        portable.write_portable(portable.export_tournament(tournament_id), target)
    except Exception:
        logger.exception("The snapshot after round %s of tournament %s failed", round_number, tournament_id)
    return None


def _take_round_snapshot(database: Path, target: Path) -> None:
    from tournament.backups import files

    try:
        files.sqlite_snapshot(database, target)
    except Exception:
        logger.exception("The snapshot %s failed", target)
