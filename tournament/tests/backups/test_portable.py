"""Portable exports and ``manage.py backup`` / ``restore`` in the test database (any vendor):
round trips row for row, every refusal with nothing changed, the snapshot after a closed round."""

from __future__ import annotations

import gzip
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournament import enums, simulation
from tournament.backups import files, portable
from tournament.formats import registry
from tournament.formats.points import services as points
from tournament.models import AuditEntry, Tournament
from tournament.play import rounds
from tournament.tests.backups.helpers import make_sqlite, played_tournament, rows
from tournament.tests.helpers import built_for_the_module

pytestmark = [pytest.mark.core, pytest.mark.django_db]


@pytest.fixture(scope="module")
def played_id(django_db_setup, django_db_blocker) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """The played tournament, played once for the module (each test's writes are rolled back; the
    test of a whole database's file, which commits, is in ``test_portable_database``)."""
    with built_for_the_module(django_db_blocker, lambda: played_tournament().pk) as pk:
        yield pk


@pytest.fixture
def played(played_id: int) -> Tournament:
    return Tournament.objects.get(pk=played_id)


def test_every_model_of_the_apps_belongs_to_a_tournament() -> None:
    """A new model without a way to its tournament would be missing from the organiser's download."""
    paths = {model._meta.label: portable.tournament_path(model) for model in portable.data_models()}
    accounts = {label: paths.pop(label) for label in portable.ACCOUNT_MODELS}
    register = {label: path for label, path in paths.items() if label.lower() in portable.REGISTER_MODELS}
    assert set(register.values()) == {None} and len(register) == 2, register  # the club's, carried apart
    assert paths.pop("tournament.Series") is None  # the club's series, carried apart (SERIES_MODEL)
    paths = {label: path for label, path in paths.items() if label not in register}
    assert None not in paths.values(), paths
    assert set(accounts.values()) == {None}, accounts  # a user's own row, in no tournament's file
    assert paths["games.Game"] == "table__round__tournament"  # not through the (nullable) winner
    assert paths["tournament.AuditEntry"] == "tournament"


def test_tournament_file_holds_the_whole_tournament_and_its_users(played: Tournament) -> None:
    other = played_tournament(players=7, seed=5)
    payload = portable.decode(portable.encode(portable.export_tournament(played.pk)))
    assert payload["kind"] == portable.TOURNAMENT and payload["tournament"]["id"] == played.pk
    labels = {item["model"] for item in payload["objects"]}
    for label in ["tournament.player", "tournament.round", "tournament.table", "tournament.seat", "games.game"]:
        assert label in labels
    for label in ["tournament.ledgerentry", "tournament.poolentry", "tournament.auditentry"]:
        assert label in labels
    for label in ["tournament.checkin", "tournament.staffrole", "tournament.playercheck", "auth.user"]:
        assert label in labels
    counts = {label: len(found) for label, found in rows(tournament_id=played.pk).items()}
    in_file = {label: sum(item["model"] == label for item in payload["objects"]) for label in counts}
    assert in_file == counts
    assert other.pk not in {item["pk"] for item in payload["objects"] if item["model"] == "tournament.tournament"}
    users = [item for item in payload["objects"] if item["model"] == "auth.user"]
    assert {item["fields"]["username"] for item in users} == {"organiser-2", "referee-2"}
    assert all("is_superuser" not in item["fields"] for item in users)


def test_tournament_file_restores_row_for_row_into_a_database_without_it(played: Tournament, tmp_path: Path) -> None:
    before = rows(tournament_id=played.pk)
    path = tmp_path / "t.json.gz"
    portable.write_portable(portable.export_tournament(played.pk), path)
    portable.delete_tournament(played.pk)
    assert not Tournament.objects.filter(pk=played.pk).exists()
    call_command("restore", str(path))
    assert rows(tournament_id=played.pk) == before


def test_tournament_file_over_the_same_tournament_needs_force(played: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "t.json.gz"
    portable.write_portable(portable.export_tournament(played.pk), path)
    before = rows()
    AuditEntry.objects.filter(tournament=played).delete()  # a change the file undoes
    changed = rows()
    with pytest.raises(CommandError, match=f"already has tournament {played.pk}.*--force"):
        call_command("restore", str(path))
    assert rows() == changed
    call_command("restore", str(path), "--force")
    assert rows() == before


def test_tournament_file_whose_ids_are_taken_is_refused(played: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "t.json.gz"
    payload = portable.export_tournament(played.pk)
    payload["tournament"]["id"] = 10**9  # as if another database's tournament whose rows' ids are in use here
    for item in payload["objects"]:
        if item["model"] == "tournament.tournament":
            item["pk"] = 10**9
    portable.write_portable(payload, path)
    before = rows()
    with pytest.raises(CommandError, match="already uses the ids"):
        call_command("restore", str(path))
    assert rows() == before


def test_bad_files_are_clear_errors_and_change_nothing(played: Tournament, tmp_path: Path) -> None:
    before = rows()
    path = tmp_path / "t.json.gz"
    portable.write_portable(portable.export_tournament(played.pk), path)
    data = path.read_bytes()
    (tmp_path / "truncated.json.gz").write_bytes(data[: len(data) // 2])
    (tmp_path / "plain.json").write_text(json.dumps([{"model": "auth.user", "pk": 1, "fields": {}}]))
    (tmp_path / "text.txt").write_text("not a backup")
    broken = json.loads(gzip.decompress(data))
    broken["objects"].append({"model": "tournament.nosuchmodel", "pk": 1, "fields": {}})
    (tmp_path / "unknown.json").write_text(json.dumps(broken))
    newer = json.loads(gzip.decompress(data))
    newer["migrations"]["tournament"].append("9999_from_the_future")
    (tmp_path / "newer.json").write_text(json.dumps(newer))
    source = make_sqlite(tmp_path / "day.sqlite3", rows=3000)
    files.sqlite_snapshot(source, tmp_path / "snap.sqlite3")
    snapshot = (tmp_path / "snap.sqlite3").read_bytes()
    (tmp_path / "truncated.sqlite3").write_bytes(snapshot[: len(snapshot) // 2])
    expected = {
        "missing.json.gz": "no such file",
        "truncated.json.gz": "damaged or incomplete",
        "plain.json": "not a Spielleitung export",
        "text.txt": "damaged or incomplete",
        "unknown.json": "could not be loaded",
        "newer.json": "newer version",
        "truncated.sqlite3": "damaged",
        "snap.sqlite3": "not one of Spielleitung",
    }
    portable.delete_tournament(played.pk)  # so that only the file's problem can stop the restore
    emptied = rows()
    for name, message in expected.items():
        with pytest.raises(CommandError, match=message):
            call_command("restore", str(tmp_path / name))
        assert rows() == emptied, name
    call_command("restore", str(path))
    assert rows() == before


def test_backup_command_prints_the_file_and_its_size(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    played_tournament(players=7, seed=4)
    call_command("backup", str(tmp_path), "--portable")
    out = capsys.readouterr().out
    (written,) = tmp_path.glob("*.json.gz")
    assert f"Portable export: {written} (" in out
    assert portable.read_portable(written)["kind"] == portable.DATABASE


# --- the snapshot after a closed round ------------------------------------------------------


def close_first_round() -> Tournament:
    """A points tournament whose round 1 is played; seating round 2 closes round 1."""
    actor = simulation.system_user()
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=1, actor=actor)
    first = points.start_round(tournament=tournament, actor=actor, seed=1)
    for table in first.tables.all():
        simulation.play_table(tournament, table, random.Random(1), actor)
    points.start_round(tournament=tournament, actor=actor, seed=2)
    return tournament


def join_snapshot_threads() -> None:
    for thread in threading.enumerate():
        if thread.name == "round-snapshot":
            thread.join(30)


def test_closing_a_round_keeps_a_snapshot_when_enabled(settings, tmp_path: Path, django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    settings.SPIELLEITUNG_BACKUP_DIR = str(tmp_path)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = close_first_round()
    join_snapshot_threads()
    (snapshot,) = tmp_path.glob(f"*-round-t{tournament.pk}-r1-*")
    payload = portable.read_portable(snapshot)
    assert payload["kind"] == portable.TOURNAMENT and payload["tournament"]["id"] == tournament.pk


def test_no_snapshot_unless_enabled(settings, tmp_path: Path, django_capture_on_commit_callbacks):  # type: ignore[no-untyped-def]
    settings.SPIELLEITUNG_BACKUP_DIR = ""
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        close_first_round()
    assert callbacks  # the hook ran and did nothing
    assert list(tmp_path.iterdir()) == []


def test_a_failing_snapshot_never_fails_the_round(
    settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks, caplog
):  # type: ignore[no-untyped-def]
    settings.SPIELLEITUNG_BACKUP_DIR = str(tmp_path)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(portable, "export_tournament", broken)
    monkeypatch.setattr(files, "sqlite_snapshot", broken)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = close_first_round()
    join_snapshot_threads()
    assert tournament.rounds.filter(number=1, status=enums.RoundStatus.FINISHED).exists()
    assert "failed" in caplog.text


def test_round_snapshot_of_the_embedded_database_is_a_file_snapshot(settings, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """With the SQLite file of ``make run``: an SQLite snapshot taken in a thread."""
    database = make_sqlite(tmp_path / "day.sqlite3")
    settings.SPIELLEITUNG_BACKUP_DIR = str(tmp_path / "backups")
    monkeypatch.setattr(portable, "sqlite_database", lambda using="default": database)
    from tournament import backups

    thread = backups.snapshot_after_round(tournament_id=4, round_number=2)
    assert thread is not None
    thread.join(30)
    (snapshot,) = (tmp_path / "backups").glob("day-round-t4-r2-*.sqlite3")
    files.check_sqlite_file(snapshot)


def test_close_round_registers_the_snapshot_after_commit(django_capture_on_commit_callbacks, monkeypatch):  # type: ignore[no-untyped-def]
    called: list[dict[str, int]] = []
    from tournament import backups

    monkeypatch.setattr(backups, "snapshot_after_round", lambda **kwargs: called.append(kwargs))
    with django_capture_on_commit_callbacks(execute=True):
        tournament = close_first_round()
    assert {"tournament_id": tournament.pk, "round_number": 1} in called
    assert rounds.close_round is not None


# The 19 columns the formats' own settings had before migration 0022, with their defaults.
OLD_SETTING_COLUMNS = {
    "wins_needed": 3,
    "wins_needed_large_table": 2,
    "final_size": 3,
    "final_points_target": 500,
    "final_target_kind": "points",
    "final_wins_target": 3,
    "duel_wins_needed": 1,
    "life_bands": 2,
    "chips_per_table": 2,
    "chips_grand_final": 3,
    "sharp_play_minutes": 15,
    "schocken_street": "any_roll",
    "rounds_planned": 4,
    "games_per_round": 3,
    "round_time_limit_minutes": None,
    "points_tie_breaks": "games_won,best_round",
    "points_tie_places": "podium",
    "points_tie_resolution": "playoff",
    "points_missed_rounds": "round_highest",
}


def old_shape(payload: dict, tournament_id: int, **columns: object) -> dict:
    """``payload`` as a file written before migration 0022: the tournament's format settings as
    fields of their own (the defaults, ``columns`` changed), no ``format_settings``."""
    for item in payload["objects"]:
        if item["model"] == "tournament.tournament" and item["pk"] == tournament_id:
            item["fields"].pop("format_settings")
            item["fields"].update({**OLD_SETTING_COLUMNS, **columns})
    return payload


def test_a_file_from_before_the_format_settings_moved_restores_them(played: Tournament) -> None:
    """A backup with the 19 settings as fields of the tournament still restores: its own format's
    values all kept, another format's only where set (migration 0022's rule)."""
    assert played.format == enums.Format.LIFE_BANDS
    payload = portable.decode(portable.encode(portable.export_tournament(played.pk)))
    old_shape(payload, played.pk, chips_per_table=4, schocken_street="first_roll", rounds_planned=7)
    portable.delete_tournament(played.pk)
    portable.restore_portable(payload)
    restored = Tournament.objects.get(pk=played.pk)
    assert restored.chips_per_table == 4 and restored.schocken_street == "first_roll"
    assert restored.rounds_planned == 7 and restored.wins_needed == 3  # the default: not stored
    own = set(registry.get(played.format).settings_form.base_fields)
    assert set(restored.format_settings) == own | {"rounds_planned"}
    assert restored.format_settings["sharp_play_minutes"] == 15


@pytest.mark.parametrize(
    "bad", [{"rounds_planned": 0}, {"points_tie_places": "the top ten"}, {"no_such_setting": 1}], ids=str
)
def test_a_file_with_a_bad_format_setting_is_refused_with_nothing_changed(played: Tournament, bad: dict) -> None:
    payload = portable.decode(portable.encode(portable.export_tournament(played.pk)))
    for item in payload["objects"]:
        if item["model"] == "tournament.tournament":
            item["fields"]["format_settings"] = {**item["fields"]["format_settings"], **bad}
    portable.delete_tournament(played.pk)
    before = rows()
    with pytest.raises(files.BackupError, match=next(iter(bad))):
        portable.restore_portable(payload)
    assert rows() == before
    assert not Tournament.objects.filter(pk=played.pk).exists()
