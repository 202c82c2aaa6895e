"""manage.py backup [PATH] [--portable]

A consistent backup while the server is running (tablets may write meanwhile):

- embedded SQLite (``make run``): a snapshot with SQLite's online backup API,
  checked with ``PRAGMA integrity_check`` and written atomically; default
  ``backups/<db>-<UTC time>.sqlite3`` beside the database (``var/backups/``);
- PostgreSQL: ``pg_dump --format=custom`` (``<db>-<UTC time>.dump``) when
  ``pg_dump`` is on the PATH, and always the portable export beside it
  (``.json.gz``, the same name), which needs no PostgreSQL tools to restore;
- ``--portable``, or a PATH ending in ``.json.gz`` / ``.json``: the portable
  export only (every user and the tournament and games data, gzip'd JSON, read
  in one snapshot), which ``manage.py restore`` loads into any database.

Prints each file written and its size. ``manage.py restore`` brings a backup back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from tournament.backups import files, portable
from tournament.backups.files import BackupError

PG_DUMP_TIMEOUT = 600


def human_size(size: int) -> str:
    """``532 KiB``, ``3.1 MiB``."""
    if size < 1024 * 1024:
        return f"{max(size, 1) / 1024:.0f} KiB" if size >= 1024 else f"{size} bytes"
    return f"{size / 1024 / 1024:.1f} MiB"


def pg_dump(target: Path, using: str = DEFAULT_DB_ALIAS) -> int:
    """Dump the PostgreSQL database ``using`` with ``pg_dump --format=custom`` to ``target``
    (atomically); return the size. BackupError when pg_dump fails."""
    config = connections[using].settings_dict
    env = dict(os.environ)
    for variable, key in (("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER"), ("PGPASSWORD", "PASSWORD")):
        if config.get(key):
            env[variable] = str(config[key])
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(descriptor)
    try:
        result = subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", "--file", temporary, "--dbname", str(config["NAME"])],
            env=env,
            capture_output=True,
            text=True,
            timeout=PG_DUMP_TIMEOUT,
            check=False,
        )
        if result.returncode != 0:
            raise BackupError(f"pg_dump failed: {result.stderr.strip()[:500]}")
        os.replace(temporary, target)
        return target.stat().st_size
    except (OSError, subprocess.SubprocessError) as error:
        raise BackupError(f"pg_dump failed: {error}") from error
    finally:
        Path(temporary).unlink(missing_ok=True)


class Command(BaseCommand):
    help = (
        "Write a consistent backup while the server runs. SQLite: a snapshot (online backup API, integrity "
        "checked) to PATH or backups/<db>-<time>.sqlite3 beside the database. PostgreSQL: pg_dump (custom "
        "format) when pg_dump is on the PATH, and always also the portable export (.json.gz) beside it. "
        "--portable (or PATH ending in .json.gz/.json): only the portable export (users, tournaments, games; "
        "gzip'd JSON) that 'manage.py restore' loads into any database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", help="the file (or folder) to write; default: the backups folder")
        parser.add_argument("--portable", action="store_true", help="write the portable export (.json.gz) only")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="database alias (default: default)")

    def handle(self, *args: Any, **options: Any) -> None:
        using: str = options["database"]
        path = Path(options["path"]).expanduser() if options["path"] else None
        vendor = connections[using].vendor
        portable_only = options["portable"] or (path is not None and path.name.endswith((".json", ".json.gz")))
        try:
            if portable_only:
                self._portable(self._target(path, ".json.gz", using), using)
            elif vendor == "sqlite":
                self._sqlite(path, using)
            elif vendor == "postgresql":
                self._postgresql(path, using)
            else:
                self._portable(self._target(path, ".json.gz", using), using)
        except BackupError as error:
            raise CommandError(str(error)) from error

    def _target(self, path: Path | None, suffix: str, using: str) -> Path:
        """PATH as given; a folder or nothing: a new ``<db>-<UTC time><suffix>`` file in it (or the default folder)."""
        if path is not None and not path.is_dir():
            return path
        directory = path if path is not None else portable.default_directory()
        name = Path(str(connections[using].settings_dict["NAME"]) or "database")
        return files.snapshot_path(directory, name).with_suffix(suffix)

    def _written(self, what: str, path: Path, size: int) -> None:
        self.stdout.write(f"{what}: {path} ({human_size(size)})")

    def _portable(self, target: Path, using: str) -> None:
        size = portable.write_portable(portable.export_database(using), target)
        self._written("Portable export", target, size)

    def _sqlite(self, path: Path | None, using: str) -> None:
        database = portable.sqlite_database(using)
        if database is None:
            raise CommandError("The SQLite database is in memory: there is no file to back up.")
        target = self._target(path, ".sqlite3", using)
        if target.exists():
            raise CommandError(f"{target} exists already: choose another name.")
        self._written("Snapshot", target, files.sqlite_snapshot(database, target))

    def _postgresql(self, path: Path | None, using: str) -> None:
        target = self._target(path, ".dump", using)
        export = target.with_name(target.name.removesuffix(".dump") + ".json.gz")
        if shutil.which("pg_dump"):
            try:
                self._written("pg_dump (restore with pg_restore)", target, pg_dump(target, using))
            except BackupError as error:  # the portable export below still makes a complete backup
                self.stderr.write(f"{error}\nWriting the portable export only.")
        else:
            self.stderr.write("pg_dump is not on the PATH: writing the portable export only.")
        self._portable(export, using)
