"""Portable exports: the data as gzip'd JSON that any database vendor loads back.

Two kinds of file, one format (``FORMAT``, version ``VERSION``)::

    {"format": "spielleitung-backup", "version": 1, "kind": "database" | "tournament",
     "created_at": "...", "vendor": "postgresql", "tournament": {"id", "name", "date"} | null,
     "migrations": {"tournament": ["0001_initial", ...], ...},
     "objects": [ Django's serialization: {"model": "tournament.player", "pk": 7, "fields": {...}}, ... ]}

- ``database`` (``manage.py backup --portable``): every user and group and every
  row of the ``tournament`` and ``games`` apps, primary keys kept. Sessions,
  the admin's log, content types and permissions are left out (``migrate``
  recreates the last two; references to them are natural keys).
- ``tournament`` (the organiser's download): one tournament and everything
  that hangs off it (players, rounds, tables, seats, games, scores, ledger,
  pool, audit, check-ins, staff roles, ...), found by following each model's
  foreign keys to the tournament (``tournament_path``), plus the users those
  rows reference (without site-wide powers: no superuser or staff flag, no
  groups or permissions), plus its part of the club's register
  (``REGISTER_MODELS``: its club and the people its players are linked to,
  with those they were merged into). A restore matches them to the club and
  people already there (``_restore_register``) or adds them.

Every export is read inside one snapshot (``read_snapshot``), so it is
consistent while tablets write. Datetimes keep their microseconds (Django's
own JSON encoder would cut them to milliseconds), so a restore equals the
source row for row.

``restore_portable`` loads a file in one transaction, checks the foreign keys
and resets PostgreSQL's sequences; it refuses (``BackupError``, nothing
changed) a non-empty database without ``force``, a file from a newer version
of the code, and a tournament whose rows' ids are taken by other data.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import tempfile
import zlib
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model, Prefetch, QuerySet
from django.utils import timezone

from tournament.backups.files import GZIP_MAGIC, BackupError
from tournament.selectors.moment import read_snapshot

FORMAT = "spielleitung-backup"
VERSION = 1
DATABASE = "database"
TOURNAMENT = "tournament"
DATA_APPS = ("tournament", "games")
# Rows kept with a user's account, not with a tournament (a staff member's language): in the
# database file with the users, never in a tournament's file.
ACCOUNT_MODELS = frozenset({"tournament.StaffProfile"})
# The club's register (issue 33): rows of no one tournament. A tournament's file carries its club and the
# people its players are linked to; a restore finds them again or adds them (``_restore_register``).
REGISTER_MODELS = ("tournament.club", "tournament.person")
# The club's series (issue 33, item 2): a tournament's file carries the series it counts in (its
# ``SeriesEvent`` rows hang off the tournament); a restore finds a series again by its public key,
# else adds it to the tournament's club (``_restore_series``).
SERIES_MODEL = "tournament.series"
# How far the people a linked person was merged into are followed for a tournament's file.
MERGED_CHAIN_MAX = 20
# Apps whose migrations decide whether a file fits this code.
SCHEMA_APPS = ("auth", "contenttypes", *DATA_APPS)
# A tournament's file carries its users without site-wide powers.
TOURNAMENT_USER_FIELDS = (
    "password",
    "last_login",
    "username",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "date_joined",
)


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but datetimes and times keep their microseconds."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


# --- the models and how they hang off a tournament ----------------------------------------


def data_models() -> list[type[Model]]:
    """The models of the ``tournament`` and ``games`` apps, each after the models it points to."""
    candidates = [model for label in DATA_APPS for model in apps.get_app_config(label).get_models()]
    members = set(candidates)
    ordered: list[type[Model]] = []
    seen: set[type[Model]] = set()

    def visit(model: type[Model]) -> None:
        if model in seen:
            return
        seen.add(model)
        for related in model._meta.concrete_fields:
            target = related.related_model
            if related.is_relation and target in members and target is not model:
                visit(target)  # type: ignore[arg-type]
        ordered.append(model)

    for model in candidates:
        visit(model)
    return ordered


def tournament_path(model: type[Model]) -> str | None:
    """The lookup from ``model`` to its tournament's id, e.g. ``table__round__tournament`` for a game.

    The shortest chain of foreign keys that cannot be empty (a game's winner
    can be, its table cannot); only when there is none, the shortest through
    nullable ones (an audit entry's tournament). None: the model does not
    belong to a tournament.
    """
    tournament_model = apps.get_model("tournament", "Tournament")
    if model is tournament_model:
        return "pk"
    for allow_null in (False, True):
        queue: deque[tuple[type[Model], list[str]]] = deque([(model, [])])
        seen = {model}
        while queue:
            current, path = queue.popleft()
            for related in current._meta.concrete_fields:
                if not (related.many_to_one or related.one_to_one) or (related.null and not allow_null):
                    continue
                target = related.related_model
                if target is tournament_model:
                    return "__".join([*path, related.name])
                if target._meta.app_label in DATA_APPS and target not in seen:  # type: ignore[union-attr]
                    seen.add(target)  # type: ignore[arg-type]
                    queue.append((target, [*path, related.name]))  # type: ignore[arg-type]
    return None


def _user_fields(model: type[Model]) -> list[str]:
    """The names of ``model``'s foreign keys to the user model."""
    user_model = get_user_model()
    return [
        related.name
        for related in model._meta.concrete_fields
        if related.is_relation and related.related_model is user_model
    ]


# --- export -------------------------------------------------------------------------------


def _serialize(queryset: QuerySet[Any], **options: Any) -> list[dict[str, Any]]:
    return serializers.serialize("python", queryset, **options)  # type: ignore[return-value]


def _migrations(using: str) -> dict[str, list[str]]:
    applied = MigrationRecorder(connections[using]).applied_migrations()
    found: dict[str, list[str]] = defaultdict(list)
    for app_label, name in sorted(applied):
        if app_label in SCHEMA_APPS:
            found[app_label].append(name)
    return dict(found)


def _payload(kind: str, objects: list[dict[str, Any]], using: str, tournament: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "created_at": timezone.now().isoformat(),
        "vendor": connections[using].vendor,
        "tournament": tournament,
        "migrations": _migrations(using),
        "objects": objects,
    }


def export_database(using: str = DEFAULT_DB_ALIAS) -> dict[str, Any]:
    """The whole database's data (users, groups, the tournament and games apps) as one consistent export."""
    from django.contrib.auth.models import Group, Permission

    user_model = get_user_model()
    permissions = Permission.objects.select_related("content_type")
    with read_snapshot(using):
        groups = Group._base_manager.using(using).order_by("pk")
        users = user_model._base_manager.using(using).order_by("pk")
        objects = _serialize(
            groups.prefetch_related(Prefetch("permissions", queryset=permissions)), use_natural_foreign_keys=True
        )
        objects += _serialize(
            users.prefetch_related("groups", Prefetch("user_permissions", queryset=permissions)),
            use_natural_foreign_keys=True,
        )
        for model in data_models():
            objects += _serialize(model._base_manager.using(using).order_by("pk"))
        return _payload(DATABASE, objects, using, None)


def export_tournament(tournament_id: int, using: str = DEFAULT_DB_ALIAS) -> dict[str, Any]:
    """One tournament, everything that hangs off it and the users it references, as one consistent export.

    A constant number of queries whatever the field's size (one per model).
    Raises BackupError when the tournament does not exist.
    """
    tournament_model = apps.get_model("tournament", "Tournament")
    user_model = get_user_model()
    with read_snapshot(using):
        objects: list[dict[str, Any]] = []
        user_ids: set[int] = set()
        for model in data_models():
            path = tournament_path(model)
            if path is None:
                continue
            rows = _serialize(model._base_manager.using(using).filter(**{path: tournament_id}).order_by("pk"))
            for name in _user_fields(model):
                user_ids.update(row["fields"][name] for row in rows if row["fields"].get(name) is not None)
            objects += rows
        label = tournament_model._meta.label_lower
        head = next((row for row in objects if row["model"] == label), None)
        if head is None:
            raise BackupError(f"There is no tournament {tournament_id}.")
        register = _register_rows(head["fields"].get("club"), tournament_id, using)
        register += _serialize(
            apps.get_model(SERIES_MODEL)
            ._base_manager.using(using)
            .filter(events__tournament_id=tournament_id)
            .order_by("pk")
        )
        for row in register:
            user_ids.update(row["fields"].get("organisers", []))
        # In the order of the models, as a database file has them (the club before the tournament).
        order = {model._meta.label_lower: index for index, model in enumerate(data_models())}
        objects = sorted(register + objects, key=lambda row: order[row["model"]])
        users = _serialize(
            user_model._base_manager.using(using).filter(pk__in=user_ids).order_by("pk"),
            fields=TOURNAMENT_USER_FIELDS,
        )
        info = {"id": head["pk"], "name": head["fields"]["name"], "date": head["fields"]["date"]}
        return _payload(TOURNAMENT, users + objects, using, info)


def _register_rows(club_id: int | None, tournament_id: int, using: str) -> list[dict[str, Any]]:
    """A tournament's part of its club's register: the club (with its organisers) and the people its
    players are linked to, with the people those were merged into (a few queries, whatever the field)."""
    if club_id is None:
        return []
    club_model, person_model = (apps.get_model(label) for label in REGISTER_MODELS)
    club = _serialize(club_model._base_manager.using(using).filter(pk=club_id).prefetch_related("organisers"))
    people = person_model._base_manager.using(using)
    found = _serialize(people.filter(players__tournament_id=tournament_id).distinct().order_by("pk"))
    have = {row["pk"] for row in found}
    for _step in range(MERGED_CHAIN_MAX):
        wanted = {row["fields"]["merged_into"] for row in found} - have - {None}
        if not wanted:
            break
        more = _serialize(people.filter(pk__in=wanted).order_by("pk"))
        have.update(row["pk"] for row in more)
        found += more
    return club + found


def encode(payload: dict[str, Any], *, compress: bool = True) -> bytes:
    """The file's bytes: JSON, gzip'd unless ``compress`` is False."""
    text = json.dumps(payload, cls=_Encoder, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return gzip.compress(text, compresslevel=6, mtime=0) if compress else text


def write_portable(payload: dict[str, Any], path: Path) -> int:
    """Write ``payload`` to ``path`` (gzip'd unless it ends in ``.json``) atomically; return the size."""
    data = encode(payload, compress=path.suffix != ".json")
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        raise BackupError(f"Could not write {path}: {error}") from error
    finally:
        Path(temporary).unlink(missing_ok=True)
    return len(data)


# --- reading a file -----------------------------------------------------------------------


def decode(data: bytes, name: str = "the file") -> dict[str, Any]:
    """The payload in ``data`` (gzip'd or plain JSON); BackupError when damaged or not an export."""
    try:
        if data[:2] == GZIP_MAGIC:
            data = gzip.decompress(data)
        payload = json.loads(data.decode("utf-8"))
    except (EOFError, OSError, zlib.error, UnicodeDecodeError, ValueError) as error:
        raise BackupError(f"{name} is damaged or incomplete ({error}); nothing was changed.") from error
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise BackupError(f"{name} is not a Spielleitung export; nothing was changed.")
    if not isinstance(payload.get("version"), int) or payload["version"] > VERSION:
        raise BackupError(f"{name} was written by a newer version of Spielleitung: update this copy first.")
    if payload.get("kind") not in (DATABASE, TOURNAMENT) or not isinstance(payload.get("objects"), list):
        raise BackupError(f"{name} is damaged (no kind or no objects); nothing was changed.")
    if payload["kind"] == TOURNAMENT and not isinstance((payload.get("tournament") or {}).get("id"), int):
        raise BackupError(f"{name} is damaged (no tournament id); nothing was changed.")
    return payload


def read_portable(path: Path) -> dict[str, Any]:
    """The payload of the export file at ``path``; BackupError when missing, damaged or not an export."""
    try:
        data = path.read_bytes()
    except FileNotFoundError as error:
        raise BackupError(f"{path}: no such file.") from error
    except OSError as error:
        raise BackupError(f"Could not read {path}: {error}") from error
    return decode(data, str(path))


# --- restore ------------------------------------------------------------------------------


@dataclass
class Restored:
    """What a restore loaded: rows per model label and the users it created."""

    kind: str
    rows: dict[str, int] = field(default_factory=dict)
    users_created: int = 0
    tournament: str = ""

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def _existing_tables(using: str) -> set[str]:
    with connections[using].cursor() as cursor:
        return set(connections[using].introspection.table_names(cursor))


def database_is_empty(using: str = DEFAULT_DB_ALIAS) -> bool:
    """No user and no row of the tournament and games apps (a database without the tables counts as empty)."""
    tables = _existing_tables(using)
    for model in [get_user_model(), *data_models()]:
        if model._meta.db_table in tables and model._base_manager.using(using).exists():
            return False
    return True


def check_schema(payload: dict[str, Any]) -> None:
    """Refuse a file written by code with migrations this code does not have (a newer version)."""
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    migrations = payload.get("migrations") or {}
    unknown = [
        f"{app_label}.{name}"
        for app_label, names in migrations.items()
        if app_label in SCHEMA_APPS
        for name in names
        if (app_label, name) not in known
    ]
    if unknown:
        raise BackupError(
            "The file was written by a newer version of Spielleitung (unknown migrations: "
            f"{', '.join(unknown[:5])}). Update this copy first; nothing was changed."
        )


def migrate_if_needed(using: str = DEFAULT_DB_ALIAS) -> None:
    """Run ``migrate`` when the database lacks migrations (a fresh database), as ``make run`` would."""
    executor = MigrationExecutor(connections[using])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        call_command("migrate", database=using, interactive=False, verbosity=0)


def with_format_settings(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``objects`` with each tournament's format settings in ``format_settings``: a file written
    before they left their columns (migration 0022) carries them as fields of their own. As the
    migration does: every value of the tournament's own format, another format's where it is not
    the default. Other rows and files of today are returned as they are."""
    from tournament.formats import registry  # (the registry imports the models: not at import time)

    declared = registry.declared_settings()
    upgraded = []
    for item in objects:
        fields = item.get("fields")
        if item.get("model") != "tournament.tournament" or not isinstance(fields, dict) or not declared.keys() & fields:
            upgraded.append(item)
            continue
        kept = {name: value for name, value in fields.items() if name not in declared}
        moved = registry.settings_from_columns(str(fields.get("format", "")), fields)
        upgraded.append(
            {**item, "fields": {**kept, "format_settings": {**moved, **(fields.get("format_settings") or {})}}}
        )
    return upgraded


def _checked(instance: Model) -> None:
    """A restored tournament's format settings hold only declared names with valid values
    (``registry.validate_format_settings``; ValidationError: the restore changes nothing)."""
    from tournament.formats import registry

    if instance._meta.label_lower == "tournament.tournament":
        instance.format_settings = registry.validate_format_settings(instance.format_settings)  # type: ignore[attr-defined]


def _load(objects: list[dict[str, Any]], using: str, restored: Restored) -> None:
    """Save ``objects`` (the python serialization; an older file's tournaments upgraded by
    ``with_format_settings``), check the foreign keys, reset the sequences."""
    connection = connections[using]
    models: set[type[Model]] = set()
    with connection.constraint_checks_disabled():
        deferred = []
        for item in serializers.deserialize(
            "python", with_format_settings(objects), using=using, ignorenonexistent=True, handle_forward_references=True
        ):
            _checked(item.object)
            item.save(using=using)
            model = type(item.object)
            models.add(model)
            restored.rows[model._meta.label_lower] = restored.rows.get(model._meta.label_lower, 0) + 1
            if item.deferred_fields:
                deferred.append(item)
        for item in deferred:
            item.save_deferred_fields(using=using)
    connection.check_constraints(table_names=[model._meta.db_table for model in models])
    reset_sequences(models, using)


def reset_sequences(models: set[type[Model]] | list[type[Model]], using: str = DEFAULT_DB_ALIAS) -> None:
    """Set the id sequences past the highest id (PostgreSQL; nothing to do on SQLite), like ``sqlsequencereset``."""
    connection = connections[using]
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def restore_portable(payload: dict[str, Any], *, force: bool = False, using: str = DEFAULT_DB_ALIAS) -> Restored:
    """Load an export into the database; migrate it first when it is fresh.

    ``database`` files need an empty database (``force``: flush it first).
    ``tournament`` files need a database without that tournament (``force``:
    replace it) whose ids are not taken by other data; users are matched by
    user name (existing ones are kept as they are), missing ones are created.
    All or nothing: BackupError with nothing changed.
    """
    check_schema(payload)
    try:
        if payload["kind"] == DATABASE:
            if not force and not database_is_empty(using):
                raise BackupError(
                    "The database is not empty. Restoring the whole database replaces everything in it: "
                    "run again with --force to do that. Nothing was changed."
                )
            migrate_if_needed(using)
            restored = _restore_database(payload, force=force, using=using)
        else:
            restored = _restore_tournament(payload, force=force, using=using)
    except (DeserializationError, DatabaseError, ValidationError, ObjectDoesNotExist, LookupError, KeyError) as error:
        raise BackupError(f"The file could not be loaded ({error}); nothing was changed.") from error
    # Cached versions and renderings (tournament.versions, tournament.renderings) describe the rows
    # before the restore; forget them so no page or 304 shows what was replaced.
    transaction.on_commit(cache.clear, using=using)
    return restored


def _restore_database(payload: dict[str, Any], *, force: bool, using: str) -> Restored:
    restored = Restored(kind=DATABASE)
    with transaction.atomic(using=using):
        if force:
            call_command("flush", database=using, interactive=False, verbosity=0)
        _load(payload["objects"], using, restored)
    return restored


def _restore_tournament(payload: dict[str, Any], *, force: bool, using: str) -> Restored:
    tournament_model = apps.get_model("tournament", "Tournament")
    user_model = get_user_model()
    info = payload["tournament"]
    tournament_id = info["id"]
    restored = Restored(kind=TOURNAMENT, tournament=f"{info.get('name', '')} ({info.get('date', '')})")
    user_label = user_model._meta.label_lower
    users = [item for item in payload["objects"] if item["model"] == user_label]
    register = [item for item in payload["objects"] if item["model"] in REGISTER_MODELS]
    series = [item for item in payload["objects"] if item["model"] == SERIES_MODEL]
    rows = [item for item in payload["objects"] if item["model"] not in {user_label, SERIES_MODEL, *REGISTER_MODELS}]

    tables = _existing_tables(using)
    existing = None
    if tournament_model._meta.db_table in tables:
        existing = tournament_model._base_manager.using(using).filter(pk=tournament_id).first()
    if existing is not None and not force:
        raise BackupError(
            f"This database already has tournament {tournament_id} ({existing}). "
            "Run again with --force to replace it with the file's. Nothing was changed."
        )
    pks: dict[type[Model], list[Any]] = defaultdict(list)
    for item in rows:
        pks[apps.get_model(item["model"])].append(item["pk"])
    taken = []
    for model, ids in pks.items():
        path = tournament_path(model)
        if path is None:
            raise BackupError(f"The file holds {model._meta.label} rows, which belong to no tournament.")
        if model._meta.db_table not in tables:
            continue
        clash = model._base_manager.using(using).filter(pk__in=ids)
        if existing is not None:
            clash = clash.exclude(**{path: tournament_id})
        count = clash.count()
        if count:
            taken.append(f"{count} {model._meta.verbose_name_plural}")
    if taken:
        raise BackupError(
            "Other data in this database already uses the ids of the file's rows ("
            + ", ".join(taken)
            + "). Restore the file into a fresh database (an empty var/ folder, or another DATABASE_URL). "
            "Nothing was changed."
        )
    migrate_if_needed(using)
    with transaction.atomic(using=using):
        if existing is not None:
            delete_tournament(tournament_id, using)
        mapping = _match_users(users, using, restored)
        clubs, people = _restore_register(register, mapping, using, restored)
        series_ids = _restore_series(series, clubs, using, restored)
        _load(_remapped(rows, list(pks), mapping, clubs, people, series_ids), using, restored)
        reset_sequences([user_model], using)
    return restored


def _remapped(
    rows: list[dict[str, Any]],
    models: list[type[Model]],
    users: dict[Any, Any],
    clubs: dict[int, int],
    people: dict[int, int],
    series: dict[int, int],
) -> list[dict[str, Any]]:
    """The file's rows with this database's ids of their users, club, people and series."""
    user_fields = {model._meta.label_lower: _user_fields(model) for model in models}
    remapped = []
    for item in rows:
        values = dict(item["fields"])
        for name in user_fields[item["model"]]:
            if values.get(name) is not None:
                values[name] = users.get(values[name], values[name])
        _remap_club_rows(item["model"], values, clubs, people, series)
        remapped.append({**item, "fields": values})
    return remapped


def _remap_club_rows(
    model: str, values: dict[str, Any], clubs: dict[int, int], people: dict[int, int], series: dict[int, int]
) -> None:
    """A row's club, person and series as this database has them (``_restore_register``, ``_restore_series``)."""
    if model == "tournament.tournament" and values.get("club") is not None:
        values["club"] = clubs.get(values["club"])
    if model == "tournament.player" and values.get("person") is not None:
        values["person"] = people.get(values["person"])
    if model == "tournament.seriesevent":
        values["series"] = series.get(values["series"], values["series"])


def _restore_register(
    register: list[dict[str, Any]], users: dict[Any, Any], using: str, restored: Restored
) -> tuple[dict[int, int], dict[int, int]]:
    """The file's club and people as rows of this database: (club ids, person ids) from the file's
    to this database's. The club with the file's id is the same club when it has the same name or
    one of the file's organisers (the database the file came from); its people with the file's ids
    are the same people (one merged since the backup stands for the person kept). Anything else is
    added as the file has it (under the file's id where it is free), its organisers matched like
    the other users."""
    club_model, person_model = (apps.get_model(label) for label in REGISTER_MODELS)
    clubs: dict[int, int] = {}
    for item in (row for row in register if row["model"] == REGISTER_MODELS[0]):
        organisers = [users.get(pk, pk) for pk in item["fields"].get("organisers", [])]
        here = club_model._base_manager.using(using).filter(pk=item["pk"]).first()
        if here is not None and (
            here.name == item["fields"].get("name") or here.organisers.filter(pk__in=organisers).exists()  # type: ignore[attr-defined]
        ):
            clubs[item["pk"]] = here.pk
            continue
        existing = list(
            get_user_model()._base_manager.using(using).filter(pk__in=organisers).values_list("pk", flat=True)
        )
        fields = {**item["fields"], "organisers": existing}
        clubs[item["pk"]] = _add_row(item, None if here is not None else item["pk"], fields, using, restored)
    people: dict[int, int] = {}
    added: list[dict[str, Any]] = []
    for item in (row for row in register if row["model"] == REGISTER_MODELS[1]):
        club_id = clubs.get(item["fields"]["club"])
        here = person_model._base_manager.using(using).filter(pk=item["pk"]).first()
        if here is not None and here.club_id == club_id == item["fields"]["club"]:  # type: ignore[attr-defined]
            people[item["pk"]] = _kept(person_model, here, using)
            continue
        # The sign-up's "maybe the same as" mark is a hint for this database's organiser: not carried over.
        fields = {**item["fields"], "club": club_id, "merged_into": None, "maybe_same_as": None}
        people[item["pk"]] = _add_row(item, None if here is not None else item["pk"], fields, using, restored)
        added.append(item)
    for item in added:  # merged as in the file, into the person that stands for the kept one here
        merged_into = people.get(item["fields"].get("merged_into"))  # type: ignore[arg-type]
        if merged_into is not None:
            person_model._base_manager.using(using).filter(pk=people[item["pk"]]).update(merged_into=merged_into)
    if clubs or people:
        reset_sequences([club_model, person_model], using)
    return clubs, people


def _restore_series(
    series: list[dict[str, Any]], clubs: dict[int, int], using: str, restored: Restored
) -> dict[int, int]:
    """The file's series as rows of this database (file's id to this database's): the series with
    the same public key is the same series; any other is added to the tournament's club as the file
    has it (under the file's id where it is free)."""
    model = apps.get_model(SERIES_MODEL)
    found: dict[int, int] = {}
    for item in series:
        manager = model._base_manager.using(using)
        here = manager.filter(public_key=item["fields"]["public_key"]).values_list("pk", flat=True).first()
        if here is not None:
            found[item["pk"]] = here
            continue
        club = clubs.get(item["fields"]["club"])
        if club is None:
            continue
        free = not manager.filter(pk=item["pk"]).exists()
        found[item["pk"]] = _add_row(
            item, item["pk"] if free else None, {**item["fields"], "club": club}, using, restored
        )
    if found:
        reset_sequences([model], using)
    return found


def _add_row(item: dict[str, Any], pk: Any, fields: dict[str, Any], using: str, restored: Restored) -> int:
    """Save the file's row ``item`` with ``fields`` under ``pk`` (None: a new id) as it is (raw); its id here."""
    (new,) = serializers.deserialize("python", [{"model": item["model"], "pk": pk, "fields": fields}], using=using)
    new.save(using=using)
    restored.rows[item["model"]] = restored.rows.get(item["model"], 0) + 1
    return int(new.object.pk)


def _kept(person_model: type[Model], person: Model, using: str) -> int:
    """The id of the person ``person`` was merged into, however often (itself when not merged)."""
    for _step in range(MERGED_CHAIN_MAX):
        target = person.merged_into_id  # type: ignore[attr-defined]
        if target is None:
            break
        person = person_model._base_manager.using(using).get(pk=target)
    return int(person.pk)


def _match_users(users: list[dict[str, Any]], using: str, restored: Restored) -> dict[Any, Any]:
    """Map the file's user ids to this database's: the same user name is the same person (kept as it
    is); a user name not here is created with the file's password hash (and its id, when free)."""
    user_model = get_user_model()
    name_field = user_model.USERNAME_FIELD
    names = [item["fields"][name_field] for item in users]
    here = dict(
        user_model._base_manager.using(using).filter(**{f"{name_field}__in": names}).values_list(name_field, "pk")
    )
    ids = [item["pk"] for item in users]
    taken = set(user_model._base_manager.using(using).filter(pk__in=ids).values_list("pk", flat=True))
    mapping: dict[Any, Any] = {}
    for item in users:
        name = item["fields"][name_field]
        if name in here:
            mapping[item["pk"]] = here[name]
            continue
        fields = {key: value for key, value in item["fields"].items() if key in TOURNAMENT_USER_FIELDS}
        pk = None if item["pk"] in taken else item["pk"]  # the file's id when it is free (a fresh database)
        (new,) = serializers.deserialize(
            "python", [{"model": item["model"], "pk": pk, "fields": fields}], using=using, ignorenonexistent=True
        )
        new.save(using=using)
        mapping[item["pk"]] = new.object.pk
        restored.users_created += 1
    return mapping


def delete_tournament(tournament_id: int, using: str = DEFAULT_DB_ALIAS) -> None:
    """Delete a tournament and every row that hangs off it, children first, in SQL (the
    ``PROTECT`` foreign keys among its own rows would stop Django's cascade). Call inside a
    transaction: the foreign keys are checked when it commits."""
    for model in reversed(data_models()):
        path = tournament_path(model)
        if path is not None:
            model._base_manager.using(using).filter(**{path: tournament_id})._raw_delete(using)


def default_directory() -> Path:
    """Where backups go without a path: ``SPIELLEITUNG_BACKUP_DIR``, else ``backups/`` beside the
    SQLite database, else ``var/backups``."""
    configured = getattr(settings, "SPIELLEITUNG_BACKUP_DIR", "")
    if configured:
        return Path(configured)
    database = sqlite_database()
    if database is not None:
        return database.parent / "backups"
    return Path(settings.BASE_DIR) / "var" / "backups"


def sqlite_database(using: str = DEFAULT_DB_ALIAS) -> Path | None:
    """The file of the SQLite database ``using``; None for another vendor or an in-memory database."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict["NAME"])
    if not name or name == ":memory:" or "mode=memory" in name:
        return None
    return Path(name)
