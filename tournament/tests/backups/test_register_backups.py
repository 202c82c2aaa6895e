"""Backups carry the club's register (issue 33, item 5): a tournament's file holds its club and the
people its players are linked to; a restore finds them again or adds them; files written before the
register restore as they did (no club, no people)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournament.backups import portable
from tournament.desk import register
from tournament.models import Club, Person, Player, Tournament
from tournament.tests.backups.helpers import played_tournament, rows

pytestmark = [pytest.mark.django_db]

REGISTER_FIELDS = ("name", "team", "member_number", "email", "phone", "created_at", "folded", "identity")


def register_of(tournament: Tournament) -> dict[str, object]:
    """The tournament's club and each player's person, as comparable values."""
    tournament.refresh_from_db()
    club = Club.objects.get(pk=tournament.club_id)
    people = {
        player.pk: None if player.person is None else tuple(getattr(player.person, name) for name in REGISTER_FIELDS)
        for player in Player.objects.filter(tournament=tournament).select_related("person")
    }
    return {"club": (club.pk, club.name, sorted(club.organisers.values_list("username", flat=True))), "people": people}


def without_register(payload: dict) -> dict:  # type: ignore[type-arg]
    """The file as written before the register: no club or person rows, no club or person fields."""
    objects = []
    for item in payload["objects"]:
        if item["model"] in portable.REGISTER_MODELS:
            continue
        fields = {name: value for name, value in item["fields"].items() if name not in {"club", "person"}}
        objects.append({**item, "fields": fields})
    return {**payload, "objects": objects}


@pytest.fixture
def played(db) -> Tournament:  # type: ignore[no-untyped-def]
    tournament = played_tournament(players=7, seed=11)
    assert tournament.club_id is not None
    assert not Player.objects.filter(tournament=tournament, person__isnull=True).exists()
    return tournament


def test_the_tournament_file_carries_its_club_and_the_linked_people(played: Tournament) -> None:
    other = Person.objects.create(club=played.club, name="Not in this event")
    payload = portable.export_tournament(played.pk)
    clubs = [item for item in payload["objects"] if item["model"] == "tournament.club"]
    people = {item["pk"] for item in payload["objects"] if item["model"] == "tournament.person"}
    assert [item["pk"] for item in clubs] == [played.club_id]
    assert clubs[0]["fields"]["organisers"]  # with its organisers, who are among the file's users
    users = {item["pk"] for item in payload["objects"] if item["model"] == "auth.user"}
    assert set(clubs[0]["fields"]["organisers"]) <= users
    assert people == set(Player.objects.filter(tournament=played).values_list("person_id", flat=True))
    assert other.pk not in people  # only the tournament's part of the register


def test_a_tournament_file_restores_its_club_and_people_into_a_database_without_them(
    played: Tournament, tmp_path: Path
) -> None:
    before, register_before = rows(tournament_id=played.pk), register_of(played)
    path = tmp_path / "t.json.gz"
    portable.write_portable(portable.export_tournament(played.pk), path)
    club_id = played.club_id
    portable.delete_tournament(played.pk)
    Person.objects.filter(club_id=club_id).delete()
    Club.objects.filter(pk=club_id).delete()
    call_command("restore", str(path))
    restored = Tournament.objects.get(pk=played.pk)
    assert rows(tournament_id=played.pk) == before
    assert register_of(restored) == register_before


def test_a_restore_into_the_same_database_keeps_the_register_as_it_is_now(played: Tournament, tmp_path: Path) -> None:
    """A person merged since the backup: the restored players belong to the person kept."""
    path = tmp_path / "t.json.gz"
    portable.write_portable(portable.export_tournament(played.pk), path)
    player = Player.objects.filter(tournament=played).order_by("pk").first()
    assert player is not None and player.person is not None
    kept = Person.objects.create(club=played.club, name=player.name + " (kept)")
    organiser = played.club.organisers.first()
    register.merge_persons(club=played.club, actor=organiser, duplicate_id=player.person_id, keep_id=kept.pk)
    people = Person.objects.count()
    call_command("restore", str(path), "--force")
    assert Person.objects.count() == people and Club.objects.count() == 1  # nothing added twice
    assert Player.objects.get(pk=player.pk).person_id == kept.pk


def test_a_tournament_file_into_a_database_where_its_club_id_is_another_club_adds_the_club(
    played: Tournament, tmp_path: Path
) -> None:
    payload = portable.export_tournament(played.pk)
    club_id = played.club_id
    portable.delete_tournament(played.pk)
    Person.objects.filter(club_id=club_id).delete()
    Club.objects.filter(pk=club_id).update(name="Another club")
    Club.objects.get(pk=club_id).organisers.clear()
    path = tmp_path / "t.json.gz"
    portable.write_portable(payload, path)
    call_command("restore", str(path))
    restored = Tournament.objects.get(pk=played.pk)
    assert restored.club_id != club_id and restored.club is not None
    assert restored.club.name != "Another club"
    assert not Player.objects.filter(tournament=restored, person__isnull=True).exists()
    assert set(Player.objects.filter(tournament=restored).values_list("person__club", flat=True)) == {restored.club_id}


def test_a_tournament_file_from_before_the_register_restores_without_club_or_people(
    played: Tournament, tmp_path: Path
) -> None:
    path = tmp_path / "old.json.gz"
    portable.write_portable(without_register(portable.export_tournament(played.pk)), path)
    portable.delete_tournament(played.pk)
    call_command("restore", str(path))
    restored = Tournament.objects.get(pk=played.pk)
    assert restored.club_id is None
    assert Player.objects.filter(tournament=restored).count() == 7
    assert not Player.objects.filter(tournament=restored, person__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_a_database_file_carries_the_register_and_an_old_one_restores(tmp_path: Path) -> None:
    tournament = played_tournament(players=7, seed=12)
    Person.objects.filter(players__tournament=tournament).update(member_number="")
    before = rows()
    assert before["tournament.club"] and before["tournament.person"]
    organisers = sorted(get_user_model().objects.filter(clubs__isnull=False).values_list("username", flat=True))
    path = tmp_path / "all.json.gz"
    call_command("backup", str(path))
    call_command("restore", str(path), "--force")
    assert rows() == before
    assert sorted(get_user_model().objects.filter(clubs__isnull=False).values_list("username", flat=True)) == organisers
    old = tmp_path / "old.json.gz"
    portable.write_portable(without_register(portable.read_portable(path)), old)
    call_command("restore", str(old), "--force")
    assert not Club.objects.exists() and not Person.objects.exists()
    assert Tournament.objects.get(pk=tournament.pk).club_id is None
    assert Player.objects.filter(tournament_id=tournament.pk).count() == 7
