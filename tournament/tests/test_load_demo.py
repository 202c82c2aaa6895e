"""The demo loader creates one demo tournament through the services, once."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from tournament import enums
from tournament.management.commands.load_demo import DEMO_NAME
from tournament.models import AuditEntry, CheckIn, Player, StaffRole, Tournament

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def run_load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_load_demo_creates_the_demo_once() -> None:
    first = run_load_demo()
    assert "demo / demo-password" in first

    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert tournament.date == timezone.localdate()
    assert tournament.game == enums.Game.UNO
    assert tournament.format == enums.Format.KNOCKOUT
    assert tournament.capacity == 50
    assert tournament.venue == "Hallenbad Eggenberg"
    assert list(tournament.checklist_items.values_list("label", flat=True)) == [
        "Diving licence (OWD)",
        "Medical certificate",
        "Entry fee paid",
        "Own deck checked",
    ]
    window = tournament.registration_windows.get()
    opens, closes = timezone.localtime(window.opens_at), timezone.localtime(window.closes_at)
    assert (opens.date(), opens.time()) == (tournament.date, datetime.time(0, 0))
    assert (closes.date(), closes.time()) == (tournament.date, datetime.time(23, 59))

    players = Player.objects.filter(tournament=tournament)
    assert 18 <= players.count() <= 22
    assert not players.filter(status=enums.PlayerStatus.WAITING).exists()
    checked_in = players.filter(status=enums.PlayerStatus.CHECKED_IN)
    assert 1 <= checked_in.count() < players.count() // 2
    assert CheckIn.objects.filter(player__tournament=tournament, override=True).count() == 0
    item_count = tournament.checklist_items.count()
    fully_ticked = [p for p in players.prefetch_related("checks") if len(p.checks.all()) == item_count]
    assert len(fully_ticked) > checked_in.count()

    roles = {(s.user.get_username(), s.role) for s in StaffRole.objects.filter(tournament=tournament)}
    assert roles == {
        ("demo", enums.Role.ORGANISER),
        ("desk", enums.Role.DESK),
        ("referee", enums.Role.REFEREE),
    }
    users = get_user_model().objects
    for username, password in [("demo", "demo-password"), ("desk", "desk-password"), ("referee", "referee-password")]:
        assert users.get(username=username).check_password(password)
    # Written through the services: every registration and check-in is audited.
    assert AuditEntry.objects.filter(tournament=tournament, action="player_registered").count() == players.count()

    counts = (Tournament.objects.count(), Player.objects.count(), users.count(), AuditEntry.objects.count())
    second = run_load_demo()
    assert "nothing to do" in second
    assert (Tournament.objects.count(), Player.objects.count(), users.count(), AuditEntry.objects.count()) == counts
