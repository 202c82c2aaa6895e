"""The season's pages: the club's organisers see and change its series; everyone else is refused;
the public page and the projector show names without contact data; bad settings are refused with
a message and nothing saved (never a 500); the CSV's cells are spreadsheet-safe; the pass links
to "my season"."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournament.models import AuditEntry, Club, Person, Series, Tournament
from tournament.passes import services as pass_services
from tournament.tests.helpers import built_for_the_module
from tournament.tests.season.helpers import club_with_people, evening, series_of

pytestmark = [pytest.mark.django_db]


def _two_evenings_and_their_series() -> dict[str, Any]:
    organiser = get_user_model().objects.create_user(username="club-organiser", password="pw-for-tests-123")
    club, people = club_with_people(7)
    club.organisers.add(organiser)
    Person.objects.filter(pk=people[0].pk).update(email="secret@example.org", name="=HYPERLINK(1)")
    events = [evening(club, people, seed=seed, week=week) for week, seed in enumerate((21, 22))]
    series = series_of(club, events)
    return {
        "organiser": organiser.pk,
        "club": club.pk,
        "people": [person.pk for person in people],
        "events": [event.pk for event in events],
        "series": series.pk,
    }


@pytest.fixture(scope="module")
def season_ids(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """Two evenings and their series, played once for the module (each test's writes are rolled back)."""
    with built_for_the_module(django_db_blocker, _two_evenings_and_their_series) as ids:
        yield ids


@pytest.fixture
def organiser(season_ids):  # type: ignore[no-untyped-def]
    return get_user_model().objects.get(pk=season_ids["organiser"])


@pytest.fixture
def season(season_ids):  # type: ignore[no-untyped-def]
    """The club, its people, its evenings and its series, read afresh for each test."""
    people = Person.objects.in_bulk(season_ids["people"])
    events = Tournament.objects.in_bulk(season_ids["events"])
    return (
        Club.objects.get(pk=season_ids["club"]),
        [people[pk] for pk in season_ids["people"]],
        [events[pk] for pk in season_ids["events"]],
        Series.objects.select_related("club").get(pk=season_ids["series"]),
    )


def _pages(club, series, person) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        reverse("tournament:series_list", args=[club.pk]),
        reverse("tournament:series_create", args=[club.pk]),
        reverse("tournament:series", args=[club.pk, series.pk]),
        reverse("tournament:series_edit", args=[club.pk, series.pk]),
        reverse("tournament:series_csv", args=[club.pk, series.pk]),
        reverse("tournament:series_print", args=[club.pk, series.pk]),
        reverse("tournament:person_history", args=[club.pk, person.pk]),
    ]


def test_the_organiser_sees_every_page(client, organiser, season) -> None:  # type: ignore[no-untyped-def]
    club, people, _, series = season
    client.force_login(organiser)
    for url in _pages(club, series, people[1]):
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(reverse("tournament:series", args=[club.pk, series.pk])).content.decode()
    assert "Regular 2" in page and "Why this place" in page
    history = client.get(reverse("tournament:person_history", args=[club.pk, people[1].pk])).content.decode()
    assert "<svg" in history and "values" in history


def test_others_are_refused(client, make_user, season) -> None:  # type: ignore[no-untyped-def]
    club, people, _, series = season
    for url in _pages(club, series, people[1]):
        assert client.get(url).status_code == 302  # the login page
    client.force_login(make_user("outsider"))
    for url in _pages(club, series, people[1]):
        assert client.get(url).status_code == 403, url


def test_public_pages_show_no_contact_data(client, season) -> None:  # type: ignore[no-untyped-def]
    _, _, _, series = season
    for name in ("series_public", "series_screen"):
        response = client.get(reverse(f"tournament:{name}", args=[series.public_key]))
        assert response.status_code == 200
        assert b"secret@example.org" not in response.content
        assert client.get(reverse(f"tournament:{name}", args=[series.public_key]) + "?part=1").status_code == 200
    assert client.get("/s/unknownkey12345/").status_code == 404


def test_the_csv_is_spreadsheet_safe(client, organiser, season) -> None:  # type: ignore[no-untyped-def]
    club, _, _, series = season
    client.force_login(organiser)
    body = b"".join(client.get(reverse("tournament:series_csv", args=[club.pk, series.pk])).streaming_content)
    text = body.decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in text and ";=HYPERLINK" not in text


GOOD = {
    "name": "Spring",
    "points_preset": "club_classic",
    "points_table": "",
    "best_n": "",
    "minimum_events": "0",
    "tie_break_1": "more_wins",
}
BAD = [
    {"name": ""},
    {"points_preset": "nonsense"},
    {"points_preset": "table", "points_table": ""},
    {"points_preset": "table", "points_table": "1, 5, 3"},
    {"points_preset": "table", "points_table": "10, -1"},
    {"points_preset": "table", "points_table": "ten, eight"},
    {"points_preset": "table", "points_table": "9" * 50},
    {"best_n": "0"},
    {"best_n": "x"},
    {"minimum_events": "-1"},
    {"minimum_events": "99999999999999999999"},
    {"tie_break_1": "more_wins", "tie_break_2": "more_wins"},
    {"tie_break_1": "coin_toss"},
    {"tournaments": ["999999"]},
    {"tournaments": ["abc"]},
    {"name": "x\x00y"},
]


@pytest.mark.parametrize("bad", BAD)
def test_bad_settings_are_refused_with_nothing_saved(client, organiser, season, bad) -> None:  # type: ignore[no-untyped-def]
    club, _, _, series = season
    client.force_login(organiser)
    count, version = Series.objects.count(), series.version
    response = client.post(reverse("tournament:series_create", args=[club.pk]), {**GOOD, **bad})
    assert response.status_code in (400, 422), response.status_code
    response = client.post(reverse("tournament:series_edit", args=[club.pk, series.pk]), {**GOOD, **bad})
    assert response.status_code in (400, 422)
    assert Series.objects.count() == count
    assert Series.objects.get(pk=series.pk).version == version


def test_a_good_series_is_saved_audited_and_moves_its_version(client, organiser, season) -> None:  # type: ignore[no-untyped-def]
    club, _, events, series = season
    client.force_login(organiser)
    response = client.post(reverse("tournament:series_create", args=[club.pk]), {**GOOD, "tournaments": [events[0].pk]})
    assert response.status_code == 302
    created = Series.objects.get(name="Spring")
    assert list(created.events.values_list("tournament_id", flat=True)) == [events[0].pk]
    response = client.post(
        reverse("tournament:series_edit", args=[club.pk, series.pk]),
        {**GOOD, "name": "Winter", "best_n": "1", "tournaments": [e.pk for e in events]},
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.name, series.best_n, series.version) == ("Winter", 1, 2)
    assert AuditEntry.objects.filter(action__in=["series_created", "series_changed"]).count() == 2


def test_the_pass_links_to_my_season(client, season) -> None:  # type: ignore[no-untyped-def]
    _, people, events, _ = season
    player = events[1].players.get(person=people[1])
    _, token = pass_services.issue_pass(tournament=events[1], actor=None, player_id=player.pk)
    page = client.get(reverse("tournament:pass", args=[token]))
    season_url = reverse("tournament:pass_season", args=[token])
    assert season_url.encode() in page.content
    response = client.get(season_url)
    assert response.status_code == 200
    assert b"Regular 2" in response.content and b"secret@example.org" not in response.content
