"""The register's pages, part two (issue 33, item 1): "Edit" a person, the club's organisers, the
possible duplicates with their one-tap merge, and the public sign-up's suggestions (privacy, the
picked suggestion, the rate per address); every form's bad inputs answer with a message, save
nothing and never a 500; the new pages' queries pinned equal at 20 and 500 people."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import enums
from tournament.desk import register
from tournament.models import AuditEntry, Club, Person, Player, Tournament
from tournament.selectors import register as register_selectors
from tournament.tests.factories import PlayerFactory, TournamentFactory, UserFactory

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def fresh_limits():  # type: ignore[no-untyped-def]
    cache.clear()  # the rate per address lives in the cache
    yield
    cache.clear()


@pytest.fixture
def scene(client: Client):  # type: ignore[no-untyped-def]
    organiser = UserFactory(username="register-boss")
    organiser.save()  # the factory sets the password after saving: keep the session's hash valid
    club = register.create_club(actor=organiser, name="Schockfreunde")
    client.force_login(organiser)
    meyer = Person.objects.create(club=club, name="Georg Meyer", team="TSV Nord", email="georg@example.org")
    hoeller = Person.objects.create(
        club=club, name="Anna Höller", team="TSV Nord", member_number="M-17", email="anna@example.org", phone="0171 99"
    )
    finished = TournamentFactory(club=club, name="January", status=enums.TournamentStatus.FINISHED)
    PlayerFactory(tournament=finished, name="Anna Höller", person=hoeller, status=enums.PlayerStatus.CHECKED_IN)
    tonight = TournamentFactory(club=club, name="April", online_signup=True)
    return {"organiser": organiser, "club": club, "meyer": meyer, "hoeller": hoeller, "tonight": tonight}


def state() -> tuple[object, ...]:
    return (
        list(Person.objects.order_by("pk").values_list("pk", "name", "team", "member_number", "email", "phone")),
        list(Player.objects.order_by("pk").values_list("pk", "name", "person")),
        list(Club.objects.order_by("pk").values_list("pk", "name", "organisers")),
        AuditEntry.objects.exclude(action="entry_refused").count(),
    )


def club_url(name: str, club: Club, *more: int) -> str:
    return reverse(f"tournament:{name}", args=[club.pk, *more])


# --- editing a person ------------------------------------------------------------------------------


def test_each_row_has_edit_and_an_edit_saves_without_rewriting_history(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    club, hoeller = scene["club"], scene["hoeller"]
    page = client.get(club_url("club_register", club)).content.decode()
    assert club_url("edit_person", club, hoeller.pk) in page
    form = client.get(club_url("edit_person", club, hoeller.pk)).content.decode()
    assert 'value="Anna Höller"' in form and 'value="M-17"' in form and 'value="0171 99"' in form
    assert "Past tournaments keep the names as they were registered" in form
    data = {"name": "Anna Höller-Berg", "team": "TSV Nord", "member_number": "18", "email": "", "phone": "0171 99"}
    response = client.post(club_url("edit_person", club, hoeller.pk), data)
    assert response.status_code == 302
    hoeller.refresh_from_db()
    assert (hoeller.name, hoeller.member_number, hoeller.email) == ("Anna Höller-Berg", "18", "")
    assert Player.objects.get(person=hoeller).name == "Anna Höller"  # the January list is as it was
    page = client.get(club_url("club_register", club)).content.decode()
    assert "Anna Höller-Berg" in page and "“Anna Höller” edited, now “Anna Höller-Berg”" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": ""}, "The name is missing."),
        ({"name": "x" * 121}, "At most 120 characters."),
        ({"name": "x" * 3000}, "at most 2000 characters"),
        ({"team": "y" * 121}, "At most 120 characters."),
        ({"member_number": "m-17"}, "belongs to Anna Höller already"),
        ({"member_number": "9" * 41}, "At most 40 characters."),
        ({"email": "georg"}, "This e-mail address is not valid"),
        ({"email": "a@b@c"}, "This e-mail address is not valid"),
        ({"phone": "ring me"}, "digits, spaces and"),
        ({"phone": "0" * 201}, "At most 200 characters."),
        ({"name": "Georg\x00"}, ""),
    ],
)
def test_an_edit_with_bad_input_says_why_and_saves_nothing(client: Client, scene, data, message: str) -> None:  # type: ignore[no-untyped-def]
    club, meyer = scene["club"], scene["meyer"]
    form = {"name": "Georg Meyer", "team": "TSV Nord", "member_number": "", "email": "", "phone": "", **data}
    before = state()
    response = client.post(club_url("edit_person", club, meyer.pk), form)
    if "\x00" in data.get("name", ""):
        assert response.status_code in (400, 422)  # a NUL anywhere is the middleware's 400
    else:
        body = response.content.decode()
        assert response.status_code == 422 and message in body
        assert 'class="errorlist' in body or 'role="alert"' in body
    assert state() == before


def test_editing_another_clubs_or_no_person_is_not_found(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    stranger = Person.objects.create(club=Club.objects.create(name="Other"), name="Eve")
    before = state()
    for pk in (stranger.pk, 10**9):
        path = club_url("edit_person", scene["club"], pk)
        assert client.get(path).status_code == 404
        assert client.post(path, {"name": "Mallory"}).status_code == 404
    assert state() == before


# --- the club's organisers ---------------------------------------------------------------------


def test_organisers_are_added_and_removed_on_the_register_page(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    club, boss = scene["club"], scene["organiser"]
    helper = UserFactory(username="kassenwart")
    page = client.get(club_url("club_register", club)).content.decode()
    assert "register-boss" in page and club_url("add_organiser", club) in page
    assert club_url("remove_organiser", club) not in page  # the only organiser: no Remove
    response = client.post(club_url("add_organiser", club), {"username": "kassenwart"}, follow=True)
    assert "kassenwart now runs this club too." in response.content.decode()
    assert "kassenwart added as organiser" in response.content.decode()
    assert register.runs_club(helper, club)
    response = client.post(club_url("remove_organiser", club), {"user": str(helper.pk)})
    assert response.status_code == 302 and not register.runs_club(helper, club)
    # Removing oneself (with another left) leads to the start page: the register is no longer theirs.
    register.add_organiser(club=club, actor=boss, username="kassenwart")
    response = client.post(club_url("remove_organiser", club), {"user": str(boss.pk)})
    assert response.status_code == 302 and response["Location"] == reverse("tournament:home")
    assert client.get(club_url("club_register", club)).status_code == 403


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": ""}, "This field is required."),
        ({"username": "ghost"}, "There is no account with the user name “ghost”"),
        ({"username": "register-boss"}, "register-boss already runs this club."),
        ({"username": "x" * 151}, "at most 150 characters"),
        ({}, "This field is required."),
    ],
)
def test_adding_an_organiser_with_bad_input_says_why_and_saves_nothing(client: Client, scene, data, message) -> None:  # type: ignore[no-untyped-def]
    before = state()
    response = client.post(club_url("add_organiser", scene["club"]), data)
    assert response.status_code == 422 and message in response.content.decode()
    assert state() == before


@pytest.mark.parametrize("user", ["", "abc", "0", str(10**30), "last", "stranger"])
def test_removing_an_organiser_with_a_bad_choice_says_why_and_saves_nothing(client: Client, scene, user: str) -> None:  # type: ignore[no-untyped-def]
    if user == "last":
        user = str(scene["organiser"].pk)
    elif user == "stranger":
        user = str(UserFactory(username="stranger").pk)
    before = state()
    response = client.post(club_url("remove_organiser", scene["club"]), {"user": user})
    body = response.content.decode()
    assert response.status_code == 409
    assert "does not run this club" in body or "only organiser: add another organiser first" in body
    assert state() == before


# --- possible duplicates -------------------------------------------------------------------------


def test_the_possible_duplicates_link_to_the_merge_with_the_entry_to_keep_offered_first(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    club, meyer = scene["club"], scene["meyer"]
    twin = Person.objects.create(club=club, name="georg  MEYER", team="TSV Nord")
    page = client.get(club_url("club_register", club)).content.decode()
    preset = club_url("merge_person", club, twin.pk) + f"?keep={meyer.pk}"
    assert "Possible duplicates" in page and preset in page
    merge = client.get(preset).content.decode()
    assert merge.index(f'data-person="{meyer.pk}" class="is-preset"') < merge.index("</tbody>")
    assert client.post(preset, {"keep": meyer.pk}).status_code == 302
    assert "Possible duplicates" not in client.get(club_url("club_register", club)).content.decode()
    # A bad preset is ignored: the page as without it.
    for value in ("abc", "0", str(10**30), str(twin.pk)):
        assert client.get(club_url("merge_person", club, meyer.pk), {"keep": value}).status_code == 200


def test_a_sign_up_that_picked_a_suggestion_with_another_e_mail_is_listed_for_the_organiser(  # type: ignore[no-untyped-def]
    client: Client, scene
) -> None:
    club, hoeller, tonight = scene["club"], scene["hoeller"], scene["tonight"]
    public = Client()
    data = {
        "name": "Anna H.",  # picked, then typed shorter
        "club": "TSV Nord",
        "contact": "anna.new@example.org",
        "rules_accepted": "on",
        "suggested": str(hoeller.pk),
    }
    assert public.post(reverse("tournament:sign_up", args=[tonight.public_key]), data).status_code == 200
    new = Player.objects.get(tournament=tonight).person
    assert new is not None and new.pk != hoeller.pk and new.maybe_same_as_id == hoeller.pk
    page = client.get(club_url("club_register", club)).content.decode()
    assert "signed up online, picked “Anna Höller”" in page
    assert club_url("merge_person", club, new.pk) + f"?keep={hoeller.pk}" in page
    response = client.post(club_url("dismiss_duplicate", club, new.pk))
    assert response.status_code == 302
    assert "Possible duplicates" not in client.get(club_url("club_register", club)).content.decode()
    for bad in ("abc", str(10**9)):
        assert client.post(f"/clubs/{club.pk}/register/{bad}/not-a-duplicate/").status_code == 404
    # With the e-mail of the person picked: linked to them.
    other = TournamentFactory(club=club, name="May", online_signup=True)
    linked = {**data, "contact": "ANNA@example.org"}
    assert public.post(reverse("tournament:sign_up", args=[other.public_key]), linked).status_code == 200
    assert Player.objects.get(tournament=other).person_id == hoeller.pk
    # Picked with the same name and club but another e-mail: a twin of the same identity, which only a
    # merge or an edited name settles ("Not the same person" is not offered: it would still be listed).
    third = TournamentFactory(club=club, name="June", online_signup=True)
    twin = {**data, "name": "Anna Höller"}
    assert public.post(reverse("tournament:sign_up", args=[third.public_key]), twin).status_code == 200
    twin_person = Player.objects.get(tournament=third).person
    assert twin_person is not None
    page = client.get(club_url("club_register", club)).content.decode()
    assert club_url("merge_person", club, twin_person.pk) + f"?keep={hoeller.pk}" in page
    assert club_url("dismiss_duplicate", club, twin_person.pk) not in page
    assert club_url("edit_person", club, twin_person.pk) in page


# --- the public sign-up's suggestions ------------------------------------------------------------


def suggest(client: Client, tournament: Tournament, name: str):  # type: ignore[no-untyped-def]
    return client.get(reverse("tournament:sign_up_suggest", args=[tournament.public_key]), {"name": name})


def test_the_sign_up_suggests_regulars_by_name_and_team_only(scene) -> None:  # type: ignore[no-untyped-def]
    tonight, hoeller, meyer = scene["tonight"], scene["hoeller"], scene["meyer"]
    public = Client()
    page = public.get(reverse("tournament:sign_up", args=[tonight.public_key])).content.decode()
    assert reverse("tournament:sign_up_suggest", args=[tonight.public_key]) in page
    assert 'id="signup-suggestions"' in page and 'name="suggested"' in page
    response = suggest(public, tonight, "Anna Hoeler")
    body = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert 'data-fill-name="Anna Höller"' in body and 'data-fill-team="TSV Nord"' in body
    for secret in (hoeller.email, hoeller.phone, "M-17", "anna@"):
        assert secret not in body.replace(f'data-person="{hoeller.pk}"', ""), secret
    # Georg Meyer never played a finished event: never suggested, whatever is typed.
    for typed in ("Georg Meyer", "Mayer", "TSV Nord", "georg@example.org"):
        assert "Meyer" not in suggest(public, tonight, typed).content.decode()
    assert meyer.pk
    for typed in ("", "An", "\x00" * 3, "x" * 5000, "%", "_", "'; --"):
        assert suggest(public, tonight, typed).status_code in (200, 400)


def test_the_suggestions_are_none_without_a_club_or_online_sign_up(scene) -> None:  # type: ignore[no-untyped-def]
    public = Client()
    clubless = TournamentFactory(online_signup=True)
    assert "Höller" not in suggest(public, clubless, "Höller").content.decode()
    closed = TournamentFactory(club=scene["club"], online_signup=False)
    assert "Höller" not in suggest(public, closed, "Höller").content.decode()
    assert public.get("/p/nosuchkeyatall/sign-up/suggest/", {"name": "Höller"}).status_code == 404


@override_settings(SIGNUP_SUGGESTIONS_RATE="3/m")
def test_the_suggestions_are_limited_per_address(scene) -> None:  # type: ignore[no-untyped-def]
    public = Client(REMOTE_ADDR="203.0.113.7")
    answers = [suggest(public, scene["tonight"], "Höller").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert suggest(Client(REMOTE_ADDR="203.0.113.8"), scene["tonight"], "Höller").status_code == 200


# --- queries: the same at 20 and at 500 people -------------------------------------------------------


def pages_at(client: Client, size: int) -> dict[str, int]:
    organiser = UserFactory(username=f"register2-{size}")
    organiser.save()
    club = register.create_club(actor=organiser, name=f"Club {size}")
    people = Person.objects.bulk_create(
        Person(club=club, name=f"Person {n:04d}", team="TSV", folded=f"person {n:04d} | tsv", identity=f"p{n}")
        for n in range(size)
    )
    finished = TournamentFactory(club=club, name="Old", status=enums.TournamentStatus.FINISHED, checklist=[])
    Player.objects.bulk_create(
        Player(
            tournament=finished,
            name=p.name,
            club="TSV",
            name_key=p.name.lower(),
            folded=p.folded,
            person=p,
            status=enums.PlayerStatus.CHECKED_IN,
        )
        for p in people
    )
    # Possible duplicates of both kinds: more than are shown, so the section is full at both sizes.
    Person.objects.bulk_create(
        Person(
            club=club, name=p.name, team="TSV", folded=p.folded, identity=p.identity, maybe_same_as=p if n % 2 else None
        )
        for n, p in enumerate(people[:20])
    )
    tonight = TournamentFactory(club=club, name="Tonight", online_signup=True, checklist=[])
    client.force_login(organiser)
    club.refresh_from_db()
    register_selectors.person_index(club)  # the index of this register version, as after the first keystroke
    paths = {
        "club_register": club_url("club_register", club),
        "edit_person": club_url("edit_person", club, people[7].pk),
        "merge_preset": club_url("merge_person", club, people[7].pk) + f"?keep={people[8].pk}",
        "sign_up_suggest": reverse("tournament:sign_up_suggest", args=[tonight.public_key]) + "?name=Persn 0007",
        "sign_up": reverse("tournament:sign_up", args=[tonight.public_key]),
    }
    counts = {}
    public = Client()  # the sign-up's pages as the public opens them: no session
    for name, path in paths.items():
        with CaptureQueriesContext(connection) as queries:
            response = (public if name.startswith("sign_up") else client).get(path)
        assert response.status_code == 200, path
        counts[name] = len(queries)
        if name == "sign_up_suggest":
            assert "Person 0007" in response.content.decode()
        if name == "club_register":
            assert response.content.decode().count("?keep=") == register_selectors.DUPLICATES_SHOWN
    return counts


REGISTER2_PINNED = {
    "club_register": 10,  # session, user, club, its organiser, count, page, log, the marked, the twins, organisers
    "edit_person": 5,  # session, user, club, its organiser, the person with their events
    "merge_preset": 9,  # the merge page's, and the entry to keep
    "sign_up_suggest": 3,  # the tournament with its club, the match, the people alike
    "sign_up": 2,  # the tournament, its windows
}


def test_the_new_register_pages_cost_the_same_at_20_and_500_people(client: Client) -> None:
    small, large = pages_at(client, 20), pages_at(client, 500)
    assert small == large, f"queries at 20 vs 500 people: {small} {large}"
    assert small == REGISTER2_PINNED
