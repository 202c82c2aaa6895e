"""The club's register, part two (issue 33, item 1): an entry edited by the organiser (history kept),
the club's organisers added and removed (never the last), the CSV import linked to the register as
the desk links, the sign-up's suggestion picked (linked only on the e-mail, else marked a possible
duplicate), the possible duplicates, and what the public suggestions may show."""

from __future__ import annotations

import pytest

from tournament import desk, enums
from tournament.desk import register, registration
from tournament.desk.register import PersonFields
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Club, Person, Player, Tournament
from tournament.passes import signup
from tournament.selectors import register as register_selectors
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


def played(club: Club, person: Person, name: str = "January evening") -> Player:
    """``person`` played (checked in) in a finished event of ``club``."""
    finished = event(club, name, status=enums.TournamentStatus.FINISHED)
    return PlayerFactory(tournament=finished, name=person.name, person=person, status=enums.PlayerStatus.CHECKED_IN)


def register_state() -> tuple[object, ...]:
    return (
        list(Person.objects.order_by("pk").values_list("pk", "name", "team", "member_number", "email", "phone")),
        list(Player.objects.order_by("pk").values_list("pk", "name", "person")),
        AuditEntry.objects.count(),
        list(Club.objects.order_by("pk").values_list("pk", "register_version")),
    )


# --- editing an entry ----------------------------------------------------------------------------


def test_an_edit_changes_the_register_not_the_past_and_is_audited(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    person = Person.objects.create(club=club, name="Georg Mayer", team="TSV Nord")
    player = played(club, person)
    version = Club.objects.get(pk=club.pk).register_version
    fields = PersonFields(" Georg Meyer ", "TSV Nord", "117", "georg@example.org", "+49 171 2345678")
    edited = register.edit_person(club=club, actor=organiser, person_id=person.pk, fields=fields)
    person.refresh_from_db()
    assert (person.name, person.member_number, person.email, person.phone) == (
        "Georg Meyer",
        "117",
        "georg@example.org",
        "+49 171 2345678",
    )
    assert edited.pk == person.pk
    assert person.identity == "georg meyer|tsv nord" and person.folded.startswith("georg meyer")
    player.refresh_from_db()
    assert player.name == "Georg Mayer"  # the tournament's list keeps the name as registered
    assert Club.objects.get(pk=club.pk).register_version > version
    entry = AuditEntry.objects.get(action="person_edited")
    assert entry.tournament is None and entry.actor == organiser
    assert entry.detail == {
        "club": club.pk,
        "person": person.pk,
        "name": "Georg Meyer",
        "old_name": "Georg Mayer",
        "fields": ["name", "member_number", "email", "phone"],
    }
    assert register_selectors.club_log(club)[0] == entry
    # The desk finds the corrected identity now; saving the same again writes nothing.
    assert register_selectors.search_people(club, "meyer")[0][0].pk == person.pk
    register.edit_person(club=club, actor=organiser, person_id=person.pk, fields=fields)
    assert AuditEntry.objects.filter(action="person_edited").count() == 1


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("no_name", "The name is missing"),
        ("long_name", "At most 120 characters"),
        ("long_number", "At most 40 characters"),
        ("bad_email", "not valid"),
        ("bad_phone", "digits, spaces"),
        ("taken_number", "belongs to Anna Höller already"),
        ("taken_number_case", "belongs to Anna Höller already"),
        ("merged", "merged into another"),
        ("other_club", "not in this club's register"),
        ("missing", "not in this club's register"),
        ("not_organiser", "Only the club's organisers"),
    ],
)
def test_edit_refusals_say_why_and_save_nothing(club: Club, organiser, case: str, message: str) -> None:  # type: ignore[no-untyped-def]
    Person.objects.create(club=club, name="Anna Höller", member_number="A17")
    person = Person.objects.create(club=club, name="Georg Meyer")
    actor, person_id = organiser, person.pk
    fields = {"name": "Georg Meyer", "team": "", "member_number": "", "email": "", "phone": ""}
    if case == "no_name":
        fields["name"] = "   "
    elif case == "long_name":
        fields["name"] = "x" * 121
    elif case == "long_number":
        fields["member_number"] = "9" * 41
    elif case == "bad_email":
        fields["email"] = "georg at example"
    elif case == "bad_phone":
        fields["phone"] = "call me"
    elif case == "taken_number":
        fields["member_number"] = "A17"
    elif case == "taken_number_case":
        fields["member_number"] = " a17 "
    elif case == "merged":
        Person.objects.filter(pk=person.pk).update(merged_into=Person.objects.create(club=club, name="Kept"))
    elif case == "other_club":
        person_id = Person.objects.create(club=Club.objects.create(name="Other"), name="Eve").pk
    elif case == "missing":
        person_id = 10**9
    elif case == "not_organiser":
        actor = UserFactory(username="someone-else")
    before = register_state()
    with pytest.raises(ServiceError, match=message):
        register.edit_person(club=club, actor=actor, person_id=person_id, fields=PersonFields(**fields))
    assert register_state() == before


# --- the club's organisers -----------------------------------------------------------------------


def test_organisers_are_added_by_user_name_and_removed_but_never_the_last(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    helper = UserFactory(username="kassenwart")
    added = register.add_organiser(club=club, actor=organiser, username=" kassenwart ")
    assert added == helper and register.runs_club(helper, club)
    assert [u.username for u in register_selectors.organisers_of(club)] == ["club-organiser", "kassenwart"]
    register.remove_organiser(club=club, actor=helper, user_id=organiser.pk)  # they may remove each other
    assert not register.runs_club(organiser, club)
    actions = list(AuditEntry.objects.filter(tournament=None).order_by("pk").values_list("action", "detail__user"))
    assert actions[-2:] == [("organiser_added", "kassenwart"), ("organiser_removed", "club-organiser")]
    before = list(club.organisers.values_list("pk", flat=True)), AuditEntry.objects.count()
    with pytest.raises(ServiceError, match="only organiser: add another organiser first"):
        register.remove_organiser(club=club, actor=helper, user_id=helper.pk)
    assert (list(club.organisers.values_list("pk", flat=True)), AuditEntry.objects.count()) == before


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("nobody", "no account with the user name"),
        ("empty", "Type the user name"),
        ("inactive", "no account with the user name"),
        ("already", "already runs this club"),
        ("not_organiser", "Only the club's organisers"),
    ],
)
def test_adding_an_organiser_refused_says_why_and_saves_nothing(club: Club, organiser, case: str, message: str) -> None:  # type: ignore[no-untyped-def]
    actor, username = organiser, "ghost"
    if case == "empty":
        username = "  "
    elif case == "inactive":
        UserFactory(username="ghost", is_active=False)
    elif case == "already":
        username = organiser.username
    elif case == "not_organiser":
        actor = UserFactory(username="someone-else")
        UserFactory(username="ghost")
    before = list(club.organisers.values_list("pk", flat=True)), AuditEntry.objects.count()
    with pytest.raises(ServiceError, match=message):
        register.add_organiser(club=club, actor=actor, username=username)
    assert (list(club.organisers.values_list("pk", flat=True)), AuditEntry.objects.count()) == before


def test_removing_someone_who_does_not_run_the_club_is_refused(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    stranger = UserFactory(username="stranger")
    for actor, user_id, message in (
        (organiser, stranger.pk, "does not run this club"),
        (organiser, 10**9, "does not run this club"),
        (stranger, organiser.pk, "Only the club's organisers"),
    ):
        with pytest.raises(ServiceError, match=message):
            register.remove_organiser(club=club, actor=actor, user_id=user_id)
    assert list(club.organisers.all()) == [organiser]


# --- the CSV import links like the desk ----------------------------------------------------------


def test_the_csv_import_links_each_player_as_the_desk_does(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    hoeller = Person.objects.create(club=club, name="Anna Höller", team="TSV Nord")
    merged = Person.objects.create(club=club, name="Bert Brandt", team="", merged_into=hoeller)
    tournament = event(club)
    text = "name;club;contact\nanna hoeller;TSV  Nord;anna@example.org\nCarla Neu;;0171 2345678\nBert Brandt;;\n"
    report = registration.import_players_csv(tournament=tournament, actor=organiser, text=text)
    assert report.imported == 3
    players = {p.name: p for p in Player.objects.filter(tournament=tournament).select_related("person")}
    assert players["anna hoeller"].person_id == hoeller.pk  # the same identity: that person
    hoeller.refresh_from_db()
    assert hoeller.email == "anna@example.org"  # what the register lacked
    carla = players["Carla Neu"].person
    assert carla is not None and (carla.club_id, carla.phone, carla.identity) == (club.pk, "0171 2345678", "carla neu|")
    bert = players["Bert Brandt"].person
    assert bert is not None and bert.pk != merged.pk  # a merged entry is never linked: a new person
    # Imported again into the next event: the same people, none added.
    count = Person.objects.count()
    registration.import_players_csv(tournament=event(club, "April"), actor=organiser, text=text)
    assert Person.objects.count() == count
    again = Player.objects.filter(tournament__name="April").values_list("name", "person")
    assert dict(again) == {name: p.person_id for name, p in players.items()}
    # The desk finds them too, by name and club.
    at_desk = desk.register_player(
        tournament=event(club, "May"), actor=organiser, name="Carla Neu", confirm_same_name=True
    ).player
    assert at_desk.person_id == carla.pk


def test_a_linked_import_takes_the_same_queries_for_50_rows_as_for_2000(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(count: int, known: int) -> int:
        # Half of the rows are people the register knows already (one without an e-mail, filled in).
        Person.objects.bulk_create(
            Person(club=club, name=f"Row {count} {n}", folded=f"row {count} {n}", identity=f"row {count} {n}|")
            for n in range(known)
        )
        text = "".join(f"Row {count} {n};;r{n}@example.org\n" for n in range(count))
        with CaptureQueriesContext(connection) as captured:
            report = registration.import_players_csv(tournament=event(club, f"Of {count}"), actor=organiser, text=text)
        assert report.imported == count
        linked = Player.objects.filter(tournament__name=f"Of {count}", person__isnull=False).count()
        assert linked == count and Person.objects.filter(name__startswith=f"Row {count} ").count() == count
        return len(captured.captured_queries)

    assert queries(50, 25) == queries(2000, 1000)


def test_a_file_with_one_person_twice_adds_them_once_and_no_club_links_nobody(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    tournament = event(club)
    registration.import_players_csv(tournament=tournament, actor=organiser, text="Dora Dörn\nDora Doern\n")
    assert Person.objects.filter(club=club).count() == 1
    assert Player.objects.filter(tournament=tournament).values("person").distinct().count() == 1
    clubless = TournamentFactory(club=None)
    registration.import_players_csv(tournament=clubless, actor=organiser, text="Emil\n")
    assert Player.objects.get(tournament=clubless).person is None
    assert Person.objects.count() == 1


# --- the sign-up's suggestion picked ------------------------------------------------------------


def test_a_picked_suggestion_links_on_its_e_mail_else_marks_a_possible_duplicate(club: Club) -> None:  # type: ignore[no-untyped-def]
    rita = Person.objects.create(club=club, name="Rita Koch", team="UNO Süd", email="rita@example.org")
    played(club, rita)

    def sign_up(name: str, contact: str, suggested: int | None, tournament_name: str) -> Player:
        return signup.sign_up(
            tournament=event(club, tournament_name, online_signup=True),
            name=name,
            club="UNO Süd",
            contact=contact,
            rules_accepted=True,
            suggested_id=suggested,
        ).player

    # Picked and the e-mail matches: linked, even with the name typed another way after the pick.
    assert sign_up("Rita Koch-Maier", "RITA@example.org", rita.pk, "One").person_id == rita.pk
    # Picked, another e-mail: a new person, marked for the organiser.
    other = sign_up("Rita Koch", "rk@example.org", rita.pk, "Two").person
    assert other is not None and other.pk != rita.pk and other.maybe_same_as_id == rita.pk
    # A number the public would never be shown (no finished event played) links nobody and marks nothing.
    hidden = Person.objects.create(club=club, name="Hanna Still", team="Kegelclub", email="hanna@example.org")
    forged = sign_up("Hanna Still", "hanna@example.org", hidden.pk, "Three").person
    assert forged is not None and forged.pk != hidden.pk and forged.maybe_same_as_id is None
    # The register page lists the marked one (also the same identity: said once, as marked) and
    # two entries of one name and club.
    twin = Person.objects.create(club=club, name="hanna  STILL", team="UNO Sued")
    pairs = {(p["duplicate"].pk, p["keep"].pk, p["marked"]) for p in register_selectors.possible_duplicates(club)}
    assert pairs == {(other.pk, rita.pk, True), (twin.pk, forged.pk, False)}


def test_a_merge_settles_the_mark_and_not_the_same_person_takes_it_off(club: Club, organiser) -> None:  # type: ignore[no-untyped-def]
    keep = Person.objects.create(club=club, name="Rita Koch")
    first = Person.objects.create(club=club, name="Rita K.", maybe_same_as=keep)
    second = Person.objects.create(club=club, name="R. Koch", maybe_same_as=first)
    register.merge_persons(club=club, actor=organiser, duplicate_id=first.pk, keep_id=keep.pk)
    second.refresh_from_db()
    assert second.maybe_same_as_id == keep.pk  # the mark follows the merge
    assert [p["duplicate"].pk for p in register_selectors.possible_duplicates(club)] == [second.pk]
    register.dismiss_duplicate(club=club, actor=organiser, person_id=second.pk)
    assert register_selectors.possible_duplicates(club) == []
    entry = AuditEntry.objects.get(action="duplicate_dismissed")
    assert entry.tournament is None and entry.detail["other"] == "Rita Koch"
    with pytest.raises(ServiceError, match="Only the club's organisers"):
        register.dismiss_duplicate(club=club, actor=UserFactory(username="x"), person_id=second.pk)


# --- what the public suggestions may show --------------------------------------------------------


def test_the_public_suggestions_show_only_players_of_finished_events_by_name_and_team(club: Club) -> None:  # type: ignore[no-untyped-def]
    regular = Person.objects.create(
        club=club, name="Anna Höller", team="TSV Nord", email="anna@example.org", phone="0171", member_number="17"
    )
    played(club, regular)
    unplayed = Person.objects.create(club=club, name="Anna Holler", team="TSV Nord")
    PlayerFactory(tournament=event(club, "Tonight"), person=unplayed, status=enums.PlayerStatus.CHECKED_IN)
    no_show = Person.objects.create(club=club, name="Anna Hollerbach")
    finished = event(club, "Old", status=enums.TournamentStatus.FINISHED)
    PlayerFactory(tournament=finished, person=no_show, status=enums.PlayerStatus.NO_SHOW)
    elsewhere = Person.objects.create(club=Club.objects.create(name="Other"), name="Anna Höller")
    played(elsewhere.club, elsewhere)
    tournament = event(club, "Next", online_signup=True)
    for typed in ("Hoeler", "anna höll", "Höller"):
        found = register_selectors.public_suggestions(tournament, typed)
        assert found == [{"pk": regular.pk, "name": "Anna Höller", "team": "TSV Nord"}], typed
    assert register_selectors.public_suggestions(tournament, "17") == []  # never by member number
    assert register_selectors.public_suggestions(tournament, "An") == []  # three letters at least
    off = event(club, "Closed", online_signup=False)
    assert register_selectors.public_suggestions(off, "Höller") == []
    running = event(club, "Running", online_signup=True, status=enums.TournamentStatus.RUNNING)
    assert register_selectors.public_suggestions(running, "Höller") == []
