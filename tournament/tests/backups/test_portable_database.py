"""``manage.py backup`` and ``restore`` of a whole database, committed (a transactional test: kept
apart from ``test_portable``, whose tests nest in the transaction of the tournament it plays once)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament.backups import portable
from tournament.tests.backups.helpers import played_tournament, rows

pytestmark = [pytest.mark.core]


@pytest.mark.django_db(transaction=True)
def test_database_file_round_trip_and_force(tmp_path: Path) -> None:
    played_tournament(players=7, seed=3)
    before = rows()
    path = tmp_path / "all.json.gz"
    call_command("backup", str(path))
    payload = portable.read_portable(path)
    assert payload["kind"] == portable.DATABASE
    with pytest.raises(CommandError, match=r"not empty.*--force"):
        call_command("restore", str(path))
    assert rows() == before
    get_user_model().objects.create_user(username="later")  # removed by the restore
    call_command("restore", str(path), "--force")
    assert rows() == before
    user = get_user_model().objects.create_user(username="after-restore")  # the sequences are past the ids
    assert user.pk > max(row["id"] for row in before["auth.user"])
