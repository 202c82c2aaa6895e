"""The club's rating list: the organisers see every rated person of the register best first, with
the uncertainty and the provisional mark; players without a person are rated but never shown; the
page's cost does not grow with the club (pinned, equal at two sizes); everyone else is refused."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Person
from tournament.selectors import ratings as ratings_selectors
from tournament.selectors import season as season_selectors
from tournament.tests.season.helpers import club_with_people, evening

pytestmark = [pytest.mark.django_db]


def _club(organiser, people: int, players: int, evenings: int = 2):  # type: ignore[no-untyped-def]
    club, register = club_with_people(people)
    club.organisers.add(organiser)
    for week in range(evenings):
        evening(club, register, seed=31 + week, week=week, players=players)
    return club, register


def test_the_list_is_best_first_with_shared_places_and_only_the_registers_people(make_user) -> None:  # type: ignore[no-untyped-def]
    organiser = make_user("rating-organiser")
    club, register = _club(organiser, people=6, players=9)
    listing = ratings_selectors.rating_list(club)
    shown = [row.person for row in listing.rows]
    assert set(shown) == {person.pk for person in register}  # the 3 players without a person are not shown
    values = [round(row.rating.display, 1) for row in listing.rows]
    assert values == sorted(values, reverse=True)
    for before, after in zip(listing.rows, listing.rows[1:], strict=False):
        shared = round(before.rating.display, 1) == round(after.rating.display, 1)
        assert (after.place == before.place) if shared else (after.place == listing.rows.index(after) + 1)
    assert all(row.rating.provisional for row in listing.rows)  # two events: below three
    ratings = season_selectors.club_rating(club)
    assert all(ratings[row.person] == row.rating for row in listing.rows)


def test_the_page_shows_the_rating_its_uncertainty_and_links_the_history(client: Client, make_user) -> None:  # type: ignore[no-untyped-def]
    organiser = make_user("rating-organiser")
    club, register = _club(organiser, people=4, players=9)
    Person.objects.filter(pk=register[0].pk).update(email="secret@example.org")
    client.force_login(organiser)
    page = client.get(reverse("tournament:club_ratings", args=[club.pk])).content.decode()
    best = ratings_selectors.rating_list(club).rows[0]
    assert f"{best.rating.mu:.1f} ± {best.rating.sigma:.1f}" in page
    assert reverse("tournament:person_history", args=[club.pk, best.person]) in page
    assert "provisional" in page and "secret@example.org" not in page
    german = client.get(reverse("tournament:club_ratings", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Wertungszahlen" in german.content.decode()


def test_a_club_without_a_finished_tournament_says_so(client: Client, make_user) -> None:  # type: ignore[no-untyped-def]
    organiser = make_user("rating-organiser")
    club, _register = club_with_people(3)
    club.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournament:club_ratings", args=[club.pk]), {"page": "x"}).content.decode()
    assert "No finished tournament of this club yet" in page


@pytest.mark.parametrize("who", ["anonymous", "outsider", "superuser"])
def test_only_the_clubs_organisers_see_it(client: Client, make_user, who: str) -> None:  # type: ignore[no-untyped-def]
    organiser = make_user("rating-organiser")
    club, _register = club_with_people(2)
    club.organisers.add(organiser)
    expected = {"anonymous": 302, "outsider": 403, "superuser": 200}[who]
    if who == "outsider":
        client.force_login(make_user("someone-else"))
    elif who == "superuser":
        client.force_login(make_user("root", is_superuser=True, is_staff=True))
    assert client.get(reverse("tournament:club_ratings", args=[club.pk])).status_code == expected


def test_the_pages_cost_is_equal_at_two_sizes(make_user) -> None:  # type: ignore[no-untyped-def]
    """Warm (the ratings kept under the club's versions): the club, the events, the names of a page."""
    counts = {}
    for size, players in ((6, 9), (40, 45)):
        organiser = make_user(f"rating-organiser-{size}")
        club, _register = _club(organiser, people=size, players=players)
        client = Client()
        client.force_login(organiser)
        url = reverse("tournament:club_ratings", args=[club.pk])
        assert client.get(url).status_code == 200
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts[size] = len(captured)
    assert counts[6] == counts[40] == RATINGS_PAGE, counts


# The session and its user, the club, whether the user runs it, the club's events, the names shown.
RATINGS_PAGE = 6
