"""Backups carry the club's series (issue 33, item 5): a tournament's file holds the series it counts
in, and a restored backup recomputes to the same series standings and ratings."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tournament.backups import portable
from tournament.models import Club, Series, SeriesEvent
from tournament.selectors import season as season_selectors
from tournament.tests.season.helpers import club_with_people, evening, series_of

pytestmark = [pytest.mark.django_db(transaction=False)]


def _computed(series_id: int, club_id: int) -> tuple[object, object]:
    cache.clear()
    series = Series.objects.select_related("club").get(pk=series_id)
    club = Club.objects.get(pk=club_id)
    return season_selectors.standings(series), season_selectors.club_rating(club)


def test_tournament_files_restore_to_the_same_standings_and_ratings() -> None:
    club, people = club_with_people(6)
    events = [evening(club, people, seed=seed, week=week) for week, seed in enumerate((31, 32, 33))]
    series = series_of(club, events, best_n=2)
    before = _computed(series.pk, club.pk)
    assert before[0]
    payloads = [portable.export_tournament(event.pk) for event in events]
    assert all(any(item["model"] == "tournament.series" for item in payload["objects"]) for payload in payloads)
    for event in events:
        portable.delete_tournament(event.pk)
    assert not SeriesEvent.objects.filter(series=series).exists()
    for payload in payloads:
        portable.restore_portable(payload)
    assert SeriesEvent.objects.filter(series=series).count() == 3
    assert _computed(series.pk, club.pk) == before


def test_a_series_gone_from_the_database_comes_back_with_its_key() -> None:
    club, people = club_with_people(4)
    event = evening(club, people, seed=41, week=0, players=6)
    series = series_of(club, [event], minimum_events=1)
    before = _computed(series.pk, club.pk)
    payload = portable.export_tournament(event.pk)
    key = series.public_key
    portable.delete_tournament(event.pk)
    series.delete()
    portable.restore_portable(payload)
    restored = Series.objects.get(public_key=key)
    assert restored.minimum_events == 1
    assert _computed(restored.pk, club.pk) == before


def test_the_database_file_carries_series_and_events() -> None:
    club, people = club_with_people(4)
    event = evening(club, people, seed=42, week=0, players=6)
    series_of(club, [event])
    labels = {item["model"] for item in portable.export_database()["objects"]}
    assert {"tournament.series", "tournament.seriesevent"} <= labels
