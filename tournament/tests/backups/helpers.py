"""Shared parts of the backup tests: a played tournament, every row of the database, file helpers."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model

from tournament import enums, simulation
from tournament.backups import portable
from tournament.models import ChecklistItem, PlayerCheck, StaffRole, Tournament


def played_tournament(players: int = 13, seed: int = 2) -> Tournament:
    """A whole life-bands tournament played through the services by its organiser (every table of
    the day filled: players, checks, check-ins, draws, rounds, tables, seats, games, scores, ledger,
    pool, audit), with a referee on the staff."""
    user_model = get_user_model()
    organiser = user_model.objects.create_user(username=f"organiser-{seed}", password="pw-for-tests-123")
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=players, seed=seed, actor=organiser)
    referee = user_model.objects.create_user(username=f"referee-{seed}", password="pw-for-tests-123")
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    item = ChecklistItem.objects.create(tournament=tournament, label="Fee paid")
    PlayerCheck.objects.create(player=tournament.players.first(), item=item, checked_by=organiser)
    simulation.simulate(tournament, seed=seed, actor=organiser)
    tournament.refresh_from_db()
    return tournament


def rows(*, tournament_id: int | None = None, using: str = "default") -> dict[str, list[dict[str, Any]]]:
    """Every row, every field of the users and of the tournament and games apps (only one
    tournament's rows when ``tournament_id`` is given, then no users and no rows of the club's
    register, which belong to no one tournament), in id order."""
    models = (
        [
            model
            for model in portable.data_models()
            if model._meta.label not in portable.ACCOUNT_MODELS
            and model._meta.label_lower not in {*portable.REGISTER_MODELS, portable.SERIES_MODEL}
        ]
        if tournament_id is not None
        else [get_user_model(), *portable.data_models()]
    )
    found = {}
    for model in models:
        queryset = model._base_manager.using(using).order_by("pk")
        if tournament_id is not None:
            queryset = queryset.filter(**{portable.tournament_path(model): tournament_id})  # type: ignore[misc]
        found[model._meta.label_lower] = list(queryset.values(*[f.attname for f in model._meta.concrete_fields]))
    return found


def sqlite_tables(path: Path, prefixes: tuple[str, ...] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of an SQLite file (only tables starting with ``prefixes`` when given)."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {
            name: db.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall()
            for name in names
            if not prefixes or name.startswith(prefixes)
        }


def make_sqlite(path: Path, rows: int = 3) -> Path:
    """A small SQLite database file in WAL mode (as the server's) with ``rows`` rows."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
        db.executemany("INSERT INTO item (name) VALUES (?)", [(f"item {n}",) for n in range(rows)])
        db.commit()
    return path
