"""The register's pages and forms (issue 33): the desk's suggestions and a pick, the register page,
"Merge into…", "Copy players from…", the tournament's club, the club's name; every form's bad inputs
answer with a message, save nothing and never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournament import enums
from tournament.desk import register
from tournament.models import AuditEntry, Club, Person, Player, Tournament
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import url

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def scene(client: Client, staff_user):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(name="April evening")
    organiser = staff_user(tournament, enums.Role.ORGANISER)
    club = register.create_club(actor=organiser, name="Schockfreunde")
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    tournament.refresh_from_db()
    client.force_login(organiser)
    meyer = Person.objects.create(club=club, name="Georg Meyer", team="TSV Nord", email="georg@example.org")
    hoeller = Person.objects.create(club=club, name="Anna Höller", team="", member_number="17")
    return {"tournament": tournament, "club": club, "organiser": organiser, "meyer": meyer, "hoeller": hoeller}


def state() -> tuple[object, ...]:
    return (
        list(Player.objects.order_by("pk").values_list("pk", "person")),
        list(Person.objects.order_by("pk").values_list("pk", "name", "merged_into", "member_number", "email")),
        list(Club.objects.order_by("pk").values_list("pk", "name")),
        list(Tournament.objects.order_by("pk").values_list("pk", "club")),
        AuditEntry.objects.exclude(action="entry_refused").count(),
    )


def test_the_desk_suggests_as_a_name_is_typed_and_a_pick_fills_and_links(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    t = scene["tournament"]
    desk_page = client.get(url("desk", t)).content.decode()
    assert f'hx-get="{url("register_suggest", t)}"' in desk_page and 'id="person-suggestions"' in desk_page
    found = client.get(url("register_suggest", t), {"name": "Mayer"}).content.decode()
    assert "Georg Meyer" in found and f"?person={scene['meyer'].pk}" in found
    assert "Höller" in client.get(url("register_suggest", t), {"name": "hoeller"}).content.decode()
    nobody = client.get(url("register_suggest", t), {"name": "Xaver"}).content.decode()
    assert "registering adds this person" in nobody
    picked = client.get(url("desk", t), {"person": scene["meyer"].pk}).content.decode()
    assert 'value="Georg Meyer"' in picked and 'value="TSV Nord"' in picked and 'value="georg@example.org"' in picked
    assert "From the club's register" in picked
    response = client.post(
        url("register", t), {"name": "Georg Meyer", "club": "TSV Nord", "contact": "", "person": scene["meyer"].pk}
    )
    assert response.status_code == 302
    assert Player.objects.get(tournament=t).person_id == scene["meyer"].pk


@pytest.mark.parametrize("person", ["abc", "-1", "0", str(10**30), "\x00", ""])
def test_the_desk_with_a_bad_person_says_so_or_adds_one(client: Client, scene, person: str) -> None:  # type: ignore[no-untyped-def]
    t = scene["tournament"]
    other = Person.objects.create(club=Club.objects.create(name="Other"), name="Stranger")
    for value in (person, str(other.pk)):
        # Ignored: an empty form (a NUL character anywhere is the middleware's 400).
        assert client.get(url("desk", t), {"person": value}).status_code in (200, 400)
    before = state()
    response = client.post(url("register", t), {"name": "Stranger", "person": str(other.pk)})
    assert response.status_code == 422 and "not in this club" in response.content.decode()
    assert state() == before
    response = client.post(url("register", t), {"name": "Xaver", "person": person})
    if person in ("abc", "\x00", ""):  # no number: a new person
        assert response.status_code in (302, 400)
    else:
        assert response.status_code == 422 and state() == before


def test_the_register_page_lists_searches_and_pages(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    club = scene["club"]
    page = client.get(reverse("tournament:club_register", args=[club.pk])).content.decode()
    assert "Georg Meyer" in page and "Anna Höller" in page and "2 people" in page
    assert (
        "Georg Meyer"
        in client.get(reverse("tournament:club_register", args=[club.pk]), {"q": "mayer"}).content.decode()
    )
    assert (
        "Anna Höller" in client.get(reverse("tournament:club_register", args=[club.pk]), {"q": "17"}).content.decode()
    )
    for value in ("x", "-5", "0", str(10**30), "\x00"):
        response = client.get(reverse("tournament:club_register", args=[club.pk]), {"page": value, "q": value})
        assert response.status_code in (200, 400)


@pytest.mark.parametrize("name", ["", "   ", "x" * 201])
def test_renaming_the_club_with_a_bad_name_says_so_and_saves_nothing(client: Client, scene, name: str) -> None:  # type: ignore[no-untyped-def]
    before = state()
    response = client.post(reverse("tournament:rename_club", args=[scene["club"].pk]), {"name": name})
    assert response.status_code == 422 and 'class="errorlist' in response.content.decode()
    assert state() == before


def test_renaming_the_club_is_audited_and_shown(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    response = client.post(reverse("tournament:rename_club", args=[scene["club"].pk]), {"name": "Schockfreunde Nord"})
    assert response.status_code == 302
    page = client.get(reverse("tournament:club_register", args=[scene["club"].pk])).content.decode()
    assert "Schockfreunde Nord" in page and "renamed from" in page


def test_merge_into_moves_the_history_and_the_log_says_so(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    club, meyer = scene["club"], scene["meyer"]
    mayer = Person.objects.create(club=club, name="Georg Mayer", team="TSV Nord")
    PlayerFactory(tournament=TournamentFactory(club=club), person=mayer)
    path = reverse("tournament:merge_person", args=[club.pk, mayer.pk])
    page = client.get(path).content.decode()
    assert "Georg Meyer" in page and f'value="{meyer.pk}"' in page  # the person alike offered to keep
    response = client.post(path, {"keep": meyer.pk})
    assert response.status_code == 302
    assert Player.objects.get(person=meyer)
    register_page = client.get(reverse("tournament:club_register", args=[club.pk])).content.decode()
    assert "Georg Mayer merged into Georg Meyer" in register_page


@pytest.mark.parametrize("keep", ["", "abc", "0", "-3", str(10**30), "self", "other_club"])
def test_merge_into_with_a_bad_choice_says_why_and_saves_nothing(client: Client, scene, keep: str) -> None:  # type: ignore[no-untyped-def]
    club, meyer = scene["club"], scene["meyer"]
    if keep == "self":
        keep = str(meyer.pk)
    elif keep == "other_club":
        keep = str(Person.objects.create(club=Club.objects.create(name="Other"), name="X").pk)
    before = state()
    response = client.post(reverse("tournament:merge_person", args=[club.pk, meyer.pk]), {"keep": keep})
    assert response.status_code == 409 and 'role="alert"' in response.content.decode()
    assert state() == before


def test_merge_of_another_clubs_person_is_not_found(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    stranger = Person.objects.create(club=Club.objects.create(name="Other"), name="X")
    before = state()
    path = reverse("tournament:merge_person", args=[scene["club"].pk, stranger.pk])
    assert client.get(path).status_code == 404
    assert client.post(path, {"keep": scene["meyer"].pk}).status_code == 404
    assert state() == before


def test_copy_players_from_an_earlier_event(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    t, club = scene["tournament"], scene["club"]
    earlier = TournamentFactory(club=club, name="March evening")
    PlayerFactory(tournament=earlier, name="Georg Meyer", person=scene["meyer"])
    assert "Copy players from" in client.get(url("desk", t)).content.decode()
    page = client.get(url("copy_players", t)).content.decode()
    assert "March evening" in page
    response = client.post(url("copy_players", t), {"source": earlier.pk})
    assert response.status_code == 302
    assert Player.objects.get(tournament=t).person_id == scene["meyer"].pk
    assert "Copy players from" not in client.get(url("desk", t)).content.decode()  # only into an empty list
    assert "already has 1 player" in client.get(url("copy_players", t)).content.decode()


@pytest.mark.parametrize("source", ["", "abc", "0", str(10**30), "own", "foreign"])
def test_copy_players_with_a_bad_choice_says_why_and_saves_nothing(client: Client, scene, source: str) -> None:  # type: ignore[no-untyped-def]
    t = scene["tournament"]
    if source == "own":
        source = str(t.pk)
    elif source == "foreign":
        foreign = TournamentFactory(club=Club.objects.create(name="Other"))
        PlayerFactory(tournament=foreign)
        source = str(foreign.pk)
    before = state()
    response = client.post(url("copy_players", t), {"source": source})
    assert response.status_code == 409 and "Choose an earlier tournament" in response.content.decode()
    assert state() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose one of your clubs"),
        ({"club": "abc"}, "Select a valid choice"),
        ({"club": str(10**30)}, "Select a valid choice"),
        ({"new_club": "x" * 201}, "at most 200"),
        ({"club": "", "new_club": "   "}, "Choose one of your clubs"),
    ],
)
def test_the_tournaments_club_with_bad_input_says_so_and_saves_nothing(client: Client, scene, data, message) -> None:  # type: ignore[no-untyped-def]
    before = state()
    response = client.post(url("set_club", scene["tournament"]), data)
    assert response.status_code == 422 and message in response.content.decode()
    assert state() == before


def test_the_tournaments_club_changes_on_the_settings_page(client: Client, scene) -> None:  # type: ignore[no-untyped-def]
    t = scene["tournament"]
    page = client.get(url("settings", t)).content.decode()
    assert "Organising club" in page and reverse("tournament:club_register", args=[scene["club"].pk]) in page
    response = client.post(url("set_club", t), {"new_club": "UNO-Liga"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.club is not None and t.club.name == "UNO-Liga"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"club": "abc"}, "Select a valid choice"),
        ({"new_club": "x" * 201}, "at most 200"),
    ],
)
def test_the_create_forms_club_with_bad_input_says_so_and_saves_nothing(client: Client, scene, data, message) -> None:  # type: ignore[no-untyped-def]
    form = {
        "name": "May",
        "date": "2026-05-01",
        "game": "uno",
        "format": "knockout",
        "capacity": "20",
        "entry_fee": "0",
    }
    before = state()
    response = client.post(reverse("tournament:create"), {**form, **data})
    assert response.status_code == 200 and message in response.content.decode()
    assert state() == before
    created = client.post(reverse("tournament:create"), {**form, "club": str(scene["club"].pk)})
    assert created.status_code == 302
    assert Tournament.objects.order_by("-pk").first().club_id == scene["club"].pk  # type: ignore[union-attr]
