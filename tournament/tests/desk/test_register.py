"""The club's register (issue 33, item 1): a registration links to a person (chosen, found by name
and club, or made once), the online sign-up links only on name, club and e-mail, duplicates merge
with their history (audited, refusals in words), "Copy players from…", the suggestions (folded and
typo-tolerant), and the data migration's clubs."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from functools import partial
from importlib import import_module

import pytest
from django.apps import apps as live_apps
from django.utils import timezone

from tournament import desk, enums
from tournament.desk import register
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Club, Person, Player, StaffRole, Tournament
from tournament.passes import signup
from tournament.selectors import register as register_selectors
from tournament.tests.desk.helpers import assert_audited, audit_cases
from tournament.tests.factories import PlayerFactory, TournamentFactory, UserFactory

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def organiser():  # type: ignore[no-untyped-def]
    return UserFactory(username="club-organiser")


@pytest.fixture
def club(organiser) -> Club:  # type: ignore[no-untyped-def]
    return register.create_club(actor=organiser, name="Schockfreunde Nord")


def event(club: Club, name: str = "March evening", **fields: object) -> Tournament:
    return TournamentFactory(club=club, name=name, **fields)


def registered(tournament: Tournament, actor: object, name: str, club: str = "", contact: str = "", **kw: object):  # type: ignore[no-untyped-def]
    return desk.register_player(
        tournament=tournament, actor=actor, name=name, club=club, contact=contact, confirm_same_name=True, **kw
    ).player


# --- linking -----------------------------------------------------------------------------------


def test_a_new_name_adds_a_person_once_and_the_next_event_finds_them(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    first = registered(event(club), organiser, "Anna Höller", "TSV Nord", "anna@example.org")
    assert first.person is not None and first.person.club == club
    assert (first.person.email, first.person.phone) == ("anna@example.org", "")
    # The desk types it without the umlaut and confirms a new person: the same person, not a second.
    again = registered(event(club, "April evening"), organiser, "anna hoeller", "TSV  Nord")
    assert again.person_id == first.person_id
    assert Person.objects.filter(club=club).count() == 1
    # Another club's namesake is another entry; a tournament without a club links nobody.
    other = registered(event(club, "May"), organiser, "Anna Höller", "Kegelclub")
    assert other.person_id != first.person_id
    assert registered(TournamentFactory(), organiser, "Anna Höller").person is None


def test_the_chosen_suggestion_is_linked_and_fills_what_the_register_lacked(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    person = Person.objects.create(club=club, name="Georg Meyer", team="TSV Nord")
    player = registered(event(club), organiser, "Georg Meyer", "TSV Nord", "0171 2345678", person_id=person.pk)
    assert player.person_id == person.pk
    person.refresh_from_db()
    assert person.phone == "0171 2345678"
    # A merged entry chosen (an old link) stands for the person kept.
    kept = Person.objects.create(club=club, name="Georg Meyer jr")
    Person.objects.filter(pk=person.pk).update(merged_into=kept)
    assert registered(event(club, "Later"), organiser, "Georg", person_id=person.pk).person_id == kept.pk


def test_a_person_of_another_club_is_refused_with_nothing_saved(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    stranger = Person.objects.create(club=register.create_club(actor=organiser, name="Other"), name="Eve")
    tournament = event(club)
    before = (Player.objects.count(), Person.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ServiceError, match="not in this club's register"):
        registered(tournament, organiser, "Eve", person_id=stranger.pk)
    assert (Player.objects.count(), Person.objects.count(), AuditEntry.objects.count()) == before


def test_the_online_sign_up_links_only_on_name_club_and_e_mail(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    known = Person.objects.create(club=club, name="Rita Koch", team="UNO Süd", email="rita@example.org")
    tournament = event(club, online_signup=True)
    same = signup.sign_up(
        tournament=tournament, name="rita koch", club="UNO Sued", contact="RITA@example.org", rules_accepted=True
    )
    assert same.player.person_id == known.pk
    other = event(club, "Next", online_signup=True)
    guess = signup.sign_up(
        tournament=other, name="Rita Koch", club="UNO Süd", contact="someone@example.org", rules_accepted=True
    )
    assert guess.player.person_id not in (None, known.pk)  # a new entry: the organiser may merge it
    by_phone = signup.sign_up(
        tournament=event(club, "Third", online_signup=True),
        name="Rita Koch",
        club="UNO Süd",
        contact="0171 1234567",
        rules_accepted=True,
    )
    assert by_phone.player.person_id != known.pk


# --- merging -----------------------------------------------------------------------------------


def test_a_merge_moves_the_history_marks_the_duplicate_and_is_audited(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    meyer = registered(event(club, "One"), organiser, "Georg Meyer", "TSV", "georg@example.org").person
    mayer = registered(event(club, "Two"), organiser, "Georg Mayer", "TSV").person
    earlier = Person.objects.create(club=club, name="G. Mayer", merged_into=mayer)
    Person.objects.filter(pk=mayer.pk).update(member_number="117")
    merged = register.merge_persons(club=club, actor=organiser, duplicate_id=mayer.pk, keep_id=meyer.pk)
    assert merged.players == 1
    assert set(Player.objects.filter(person=meyer).values_list("tournament__name", flat=True)) == {"One", "Two"}
    mayer.refresh_from_db()
    meyer.refresh_from_db()
    assert mayer.merged_into_id == meyer.pk and Person.objects.filter(pk=mayer.pk).exists()  # kept, marked
    assert meyer.member_number == "117" and mayer.member_number == ""
    assert Person.objects.get(pk=earlier.pk).merged_into_id == meyer.pk
    entry = AuditEntry.objects.get(action="person_merged")
    assert entry.tournament is None and entry.actor == organiser
    assert entry.detail == {
        "club": club.pk,
        "kept": meyer.pk,
        "kept_name": "Georg Meyer",
        "merged": mayer.pk,
        "merged_name": "Georg Mayer",
        "players": 1,
    }
    assert register_selectors.club_log(club)[0] == entry
    found, _total = register_selectors.search_people(club, "")
    assert [p.pk for p in found] == [meyer.pk] and found[0].events == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("itself", "cannot be merged into themselves"),
        ("other_club", "not in this club's register"),
        ("already", "already merged"),
        ("kept_merged", "choose the entry that was kept"),
        ("same_event", "both played in"),
        ("not_organiser", "Only the club's organisers"),
        ("missing", "not in this club's register"),
    ],
)
def test_merge_refusals_say_why_and_change_nothing(club: Club, organiser, case: str, message: str) -> None:  # type: ignore[no-untyped-def]
    a = Person.objects.create(club=club, name="Anna")
    b = Person.objects.create(club=club, name="Anne")
    actor, duplicate, keep = organiser, a.pk, b.pk
    if case == "itself":
        keep = a.pk
    elif case == "other_club":
        keep = Person.objects.create(club=Club.objects.create(name="Other"), name="Anna").pk
    elif case == "already":
        Person.objects.filter(pk=a.pk).update(merged_into=Person.objects.create(club=club, name="x"))
    elif case == "kept_merged":
        Person.objects.filter(pk=b.pk).update(merged_into=Person.objects.create(club=club, name="y"))
    elif case == "same_event":
        tournament = event(club)
        PlayerFactory(tournament=tournament, person=a)
        PlayerFactory(tournament=tournament, person=b)
    elif case == "not_organiser":
        actor = UserFactory(username="someone-else")
    elif case == "missing":
        duplicate = 10**9
    before = list(Person.objects.order_by("pk").values_list("pk", "merged_into", "member_number"))
    with pytest.raises(ServiceError, match=message):
        register.merge_persons(club=club, actor=actor, duplicate_id=duplicate, keep_id=keep)
    assert list(Person.objects.order_by("pk").values_list("pk", "merged_into", "member_number")) == before
    assert not AuditEntry.objects.filter(action="person_merged").exists()


# --- copying players ---------------------------------------------------------------------------


def test_copy_players_registers_the_earlier_event_linked_without_numbers_or_fees(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    source = event(club, "February", date=datetime.date(2026, 2, 1))
    linked = registered(source, organiser, "Anna", "TSV")
    unlinked = PlayerFactory(tournament=source, name="Bert", club="", start_number=4, fee_paid_at=timezone.now())
    PlayerFactory(tournament=source, name="Gone", status=enums.PlayerStatus.WITHDRAWN)
    PlayerFactory(tournament=source, name="Carla", status=enums.PlayerStatus.CHECKED_IN, start_number=7)
    target = event(club, "March", capacity=3)
    count = register.copy_players(tournament=target, actor=organiser, source_id=source.pk)
    assert count == 3
    copied = {p.name: p for p in Player.objects.filter(tournament=target)}
    assert set(copied) == {"Anna", "Bert", "Carla"}
    assert copied["Anna"].person_id == linked.person_id
    unlinked.refresh_from_db()
    assert unlinked.person is not None and copied["Bert"].person_id == unlinked.person_id  # linked on the way
    assert all(p.start_number is None and p.fee_paid_at is None for p in copied.values())
    assert {p.status for p in copied.values()} == {enums.PlayerStatus.REGISTERED}
    assert AuditEntry.objects.get(action="players_copied", tournament=target).detail["count"] == 3
    assert [t.pk for t in register_selectors.copy_sources(target)] == [source.pk]


def test_copy_players_past_the_capacity_puts_the_rest_on_the_waiting_list(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    source = event(club, "Big")
    for n in range(5):
        PlayerFactory(tournament=source, name=f"P{n}")
    target = event(club, "Small", capacity=3)
    register.copy_players(tournament=target, actor=organiser, source_id=source.pk)
    statuses = list(Player.objects.filter(tournament=target).values_list("status", flat=True))
    assert sorted(statuses).count(enums.PlayerStatus.WAITING) == 2


@pytest.mark.parametrize("case", ["has_players", "other_club", "itself", "no_club", "missing"])
def test_copy_players_refusals_say_why_and_change_nothing(club: Club, organiser, case: str) -> None:  # type: ignore[no-untyped-def]
    source = event(club, "Source")
    PlayerFactory(tournament=source, name="Anna")
    target = event(club, "Target")
    source_id = source.pk
    if case == "has_players":
        PlayerFactory(tournament=target, name="Already here")
    elif case == "other_club":
        source_id = event(Club.objects.create(name="Other"), "Foreign").pk
    elif case == "itself":
        source_id = target.pk
    elif case == "no_club":
        Tournament.objects.filter(pk=target.pk).update(club=None)
        target.refresh_from_db()
    elif case == "missing":
        source_id = 10**9
    before = (Player.objects.count(), Person.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ServiceError):
        register.copy_players(tournament=target, actor=organiser, source_id=source_id)
    assert (Player.objects.count(), Person.objects.count(), AuditEntry.objects.count()) == before


# --- suggestions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Hoeller", "Anna Höller"),
        ("holler", "Anna Höller"),
        ("Mayer", "Georg Meyer"),
        ("Niccolo", "Niccolò Rossi"),
        ("nicolo", "Niccolò Rossi"),
        ("Ros", "Niccolò Rossi"),
    ],
)
def test_suggestions_are_folded_and_forgive_typos(club: Club, typed: str, found: str) -> None:
    for name in ["Anna Höller", "Georg Meyer", "Niccolò Rossi", "Zoë Weber"]:
        Person.objects.create(club=club, name=name)
    tournament = event(club)
    names = [person.name for person in register_selectors.suggestions(tournament, typed)]
    assert found in names
    assert "Zoë Weber" not in names


def test_suggestions_leave_out_merged_entries_and_other_clubs(club: Club) -> None:
    kept = Person.objects.create(club=club, name="Georg Meyer")
    Person.objects.create(club=club, name="Georg Meier", merged_into=kept)
    Person.objects.create(club=Club.objects.create(name="Other"), name="Georg Meyer")
    found = register_selectors.suggestions(event(club), "Georg")
    assert [person.pk for person in found] == [kept.pk]
    assert register_selectors.suggestions(TournamentFactory(), "Georg") == []


# --- the tournament's club ---------------------------------------------------------------------


def test_a_new_tournament_joins_the_creators_club_or_a_new_one(organiser) -> None:  # type: ignore[no-untyped-def]
    def create(**kw: object) -> Tournament:
        return desk.create_tournament(
            actor=organiser,
            name="Evening",
            date=datetime.date(2026, 5, 1),
            venue="",
            game=enums.Game.UNO,
            format=enums.Format.KNOCKOUT,
            capacity=20,
            entry_fee=0,
            **kw,
        )

    first = create()  # no club yet: one named after the organiser
    assert first.club is not None and first.club.name == "club-organiser"
    assert list(first.club.organisers.all()) == [organiser]
    assert create().club_id == first.club_id  # then their club by default
    named = create(new_club="UNO-Liga West")
    assert named.club.name == "UNO-Liga West"
    foreign = Club.objects.create(name="Not theirs")
    count = Tournament.objects.count()
    with pytest.raises(ServiceError, match="not one of your clubs"):
        create(club_id=foreign.pk)
    assert Tournament.objects.count() == count


def test_set_club_is_refused_while_players_are_in_another_register(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    tournament = event(club)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    registered(tournament, organiser, "Anna")
    with pytest.raises(ServiceError, match="register of another club"):
        register.set_club(tournament=tournament, actor=organiser, club_id=None, new_name="Elsewhere")
    empty = event(club, "Empty")
    moved = register.set_club(tournament=empty, actor=organiser, club_id=None, new_name="Elsewhere")
    assert moved.club is not None and moved.club.name == "Elsewhere"
    assert AuditEntry.objects.filter(action="club_changed", tournament=empty).exists()


def test_the_data_migration_gives_each_owner_a_club(organiser) -> None:  # type: ignore[no-untyped-def]
    migration = import_module("tournament.migrations.0027_clubs_for_owners")
    other = UserFactory(username="second-organiser", first_name="Maria", last_name="Rossi")
    by_creator = TournamentFactory(created_by=organiser)
    by_role = TournamentFactory()
    StaffRole.objects.create(tournament=by_role, user=other, role=enums.Role.ORGANISER)
    orphan = TournamentFactory()
    migration.clubs_for_owners(live_apps, None)
    for tournament in (by_creator, by_role, orphan):
        tournament.refresh_from_db()
    assert by_creator.club is not None and by_creator.club.name == "club-organiser"
    assert by_role.club is not None and by_role.club.name == "Maria Rossi"
    assert list(by_role.club.organisers.all()) == [other]
    assert orphan.club is None


# --- the desk's audit matrix (tests/desk/test_audit.py): the tournament's services of the register ---


def case_set_club(t: Tournament, a: object) -> tuple[Callable[[], object], str]:
    club = Club.objects.create(name="Audit club")
    club.organisers.add(a)  # type: ignore[arg-type]
    return partial(register.set_club, tournament=t, actor=a, club_id=club.pk), "club_changed"


def case_copy_players(t: Tournament, a: object) -> tuple[Callable[[], object], str]:
    club = Club.objects.create(name="Audit club")
    Tournament.objects.filter(pk=t.pk).update(club=club)
    source = TournamentFactory(club=club, name="Earlier")
    PlayerFactory(tournament=source, name="Anna", person=Person.objects.create(club=club, name="Anna"))
    return partial(register.copy_players, tournament=t, actor=a, source_id=source.pk), "players_copied"


AUDIT_CASES = audit_cases(globals())


@pytest.mark.parametrize("service", sorted(AUDIT_CASES))
def test_every_service_writes_an_audit_entry_and_bumps_the_version(tournament, desk, service):  # type: ignore[no-untyped-def]
    assert_audited(AUDIT_CASES[service], tournament, desk)
