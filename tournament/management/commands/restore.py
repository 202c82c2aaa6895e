"""manage.py restore PATH [--force]

Brings a backup back, e.g. on another laptop after ``make install``:

- an SQLite snapshot (``.sqlite3`` from ``manage.py backup`` or the rolling
  snapshots in ``var/backups/``) becomes the embedded database, copied in with
  SQLite's backup API (a stale ``-wal`` file beside the old database cannot
  mix with it). Refused while a server has the database open, and over a
  database with data unless ``--force``.
- a portable export (``.json.gz``: ``manage.py backup --portable``, the
  PostgreSQL backup's companion) is loaded into the configured database of
  any vendor, migrated first when fresh. Refused over a database with data
  unless ``--force`` (which empties it first).
- a tournament's download ("Download everything (backup)" on the ranking
  page) is added to the database; refused when a tournament with its id is
  there unless ``--force`` (which replaces that tournament), and when other
  data uses its rows' ids.

Every refusal and every damaged or missing file is a one-line error, with nothing changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from tournament.backups import files, portable
from tournament.backups.files import BackupError

PG_DUMP_MAGIC = b"PGDMP"


class Command(BaseCommand):
    help = (
        "Restore a backup: an SQLite snapshot (.sqlite3) becomes the embedded database; a portable export "
        "(.json.gz) is loaded into the configured database (any vendor); a tournament's download adds that "
        "tournament. Refuses to overwrite data without --force."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the backup file")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace the database's data (snapshot, whole export) or the tournament with the same id",
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="database alias (default: default)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"]).expanduser()
        try:
            if not path.is_file():
                raise BackupError(f"{path}: no such file.")
            with path.open("rb") as handle:
                head = handle.read(16)
            if head.startswith(files.SQLITE_HEADER):
                self._snapshot(path, force=options["force"], using=options["database"])
            elif head.startswith(PG_DUMP_MAGIC):
                raise BackupError(
                    f"{path} is a pg_dump file: restore it with pg_restore --clean --dbname=..., or restore the "
                    ".json.gz export written beside it."
                )
            else:
                self._portable(path, force=options["force"], using=options["database"])
        except BackupError as error:
            raise CommandError(str(error)) from error

    def _snapshot(self, path: Path, *, force: bool, using: str) -> None:
        files.check_sqlite_file(path)
        files.check_spielleitung_snapshot(path)
        target = portable.sqlite_database(using)
        if target is None:
            raise BackupError(
                "An SQLite snapshot restores into the embedded SQLite database only; this one is "
                f"{connections[using].vendor}. Restore the portable export (.json.gz) instead."
            )
        if target.exists() and not force and not portable.database_is_empty(using):
            raise BackupError(
                f"{target} holds data. Run again with --force to replace it with the snapshot. Nothing was changed."
            )
        connections.close_all()  # no handle of ours on the file while it is replaced
        files.restore_sqlite_snapshot(path, target)
        self.stdout.write(f"Restored {path} into {target}. Start the server: make run")

    def _portable(self, path: Path, *, force: bool, using: str) -> None:
        payload = portable.read_portable(path)
        restored = portable.restore_portable(payload, force=force, using=using)
        what = f"tournament {restored.tournament}" if restored.kind == portable.TOURNAMENT else "the database"
        users = f", {restored.users_created} users created" if restored.kind == portable.TOURNAMENT else ""
        self.stdout.write(f"Restored {what} from {path}: {restored.total} rows{users}.")
