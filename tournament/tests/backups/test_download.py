"""The organiser's "Download everything (backup)": who may, what the file holds, that it restores,
and its cost (the same number of queries at 20 and at 500 players)."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from tournament import enums, simulation
from tournament.backups import portable
from tournament.formats.points import services as points
from tournament.models import Tournament
from tournament.tests.backups.helpers import played_tournament, rows
from tournament.tests.test_sqlite_server import BASE_DIR, server_env

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def download_url(tournament: Tournament) -> str:
    return reverse("tournament:export_tournament", args=[tournament.pk])


def test_organiser_downloads_the_tournament_and_it_restores(client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = played_tournament(players=7, seed=6)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    before = rows(tournament_id=tournament.pk)
    response = client.get(download_url(tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    name = f"{slugify(tournament.name)}-{timezone.localdate().isoformat()}.json.gz"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    payload = json.loads(gzip.decompress(response.content))
    assert payload["kind"] == portable.TOURNAMENT and payload["tournament"]["id"] == tournament.pk
    portable.delete_tournament(tournament.pk)
    portable.restore_portable(portable.decode(response.content))
    assert rows(tournament_id=tournament.pk) == before


def test_the_ranking_page_links_the_download(client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = played_tournament(players=7, seed=8)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.get(reverse("tournament:ranking", args=[tournament.pk])).content.decode()
    assert download_url(tournament) in page and "Download everything (backup)" in page


@pytest.mark.parametrize("who", ["referee", "desk", "no_role", "organiser_elsewhere"])
def test_others_are_refused(client, login_as, tournament, who) -> None:  # type: ignore[no-untyped-def]
    login_as(who, tournament)
    assert client.get(download_url(tournament)).status_code == 403


def test_anonymous_is_sent_to_log_in(client, tournament) -> None:  # type: ignore[no-untyped-def]
    response = client.get(download_url(tournament))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def field_under_way(size: int) -> Tournament:
    """A points tournament of ``size`` players, round 1 seated, one table played to its end."""
    from tournament.tests.views.test_query_counts import quick_field

    tournament = quick_field(enums.Format.POINTS, size)
    actor = simulation.system_user()
    first = points.start_round(tournament=tournament, actor=actor, seed=1)
    simulation.play_table(tournament, first.tables.order_by("number").first(), random.Random(1), actor)
    return tournament


@pytest.mark.slow
def test_download_costs_the_same_queries_at_20_and_500_players(client, staff_user) -> None:  # type: ignore[no-untyped-def]
    counts = []
    for size in (20, 500):
        tournament = field_under_way(size)
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        with CaptureQueriesContext(connection) as queries:
            response = client.get(download_url(tournament))
        assert response.status_code == 200
        assert (
            sum(item["model"] == "tournament.player" for item in portable.decode(response.content)["objects"]) == size
        )
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


@pytest.mark.slow
def test_the_download_restores_into_a_fresh_sqlite_database(client, staff_user, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On another laptop: ``manage.py restore`` of the downloaded file into a fresh embedded database."""
    tournament = played_tournament(players=7, seed=7)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    path = tmp_path / "download.json.gz"
    path.write_bytes(client.get(download_url(tournament)).content)
    env = server_env(tmp_path)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"

    def manage(*args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert "Restored tournament" in manage("restore", str(path))
    manage("backup", "--portable", str(tmp_path / "again.json.gz"))
    again = portable.read_portable(tmp_path / "again.json.gz")
    source = portable.read_portable(path)
    users = [item for item in again["objects"] if item["model"] == "auth.user"]
    assert [item for item in again["objects"] if item["model"] != "auth.user"] == source["objects"][len(users) :]
    fields = portable.TOURNAMENT_USER_FIELDS
    assert [{"pk": item["pk"], **{name: item["fields"][name] for name in fields}} for item in users] == [
        {"pk": item["pk"], **item["fields"]} for item in source["objects"][: len(users)]
    ]
    second = manage_error(env, "restore", str(path))
    assert "already has tournament" in second


def manage_error(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    return result.stderr
