"""The season at the Django level: the kept series standings and ratings equal a recomputation from
scratch, a correction in event 2 (through the real correction service) moves the series at once,
and a correction followed by its reversal gives every rating back to the last bit."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.models import GameScore
from tournament import enums
from tournament.formats import registry
from tournament.models import Club, Person, Seat, Tournament
from tournament.season import series_rules
from tournament.selectors import season as season_selectors
from tournament.tests.helpers import built_for_the_module
from tournament.tests.season.helpers import (
    club_with_people,
    correct,
    evening,
    fresh,
    from_scratch,
    last_round_table,
    ratings_from_scratch,
    series_of,
)

pytestmark = [pytest.mark.django_db]


def _three_evenings() -> tuple[int, list[int], list[int]]:
    club, people = club_with_people(7)
    events = [evening(club, people, seed=seed, week=week) for week, seed in enumerate((11, 12, 13))]
    return club.pk, [person.pk for person in people], [event.pk for event in events]


@pytest.fixture(scope="module")
def season_ids(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """Three evenings played once for the module (each test's writes are rolled back)."""
    with built_for_the_module(django_db_blocker, _three_evenings) as ids:
        yield ids


@pytest.fixture
def season(season_ids):  # type: ignore[no-untyped-def]
    """The club, its people and its evenings, read afresh for each test."""
    club_id, person_ids, event_ids = season_ids
    people = Person.objects.in_bulk(person_ids)
    events = Tournament.objects.in_bulk(event_ids)
    return Club.objects.get(pk=club_id), [people[pk] for pk in person_ids], [events[pk] for pk in event_ids]


def _winner_of(tournament: Tournament) -> int:
    rows = registry.of(tournament).ranking(tournament)
    return rows[0].player.pk


def _swing(event: Tournament) -> tuple[int, dict[int, int], int, dict[int, int]]:
    """A correction that puts event's winner at the bottom: at the winner's last table, another
    player wins the last game and the winner holds 300 card points. Returns it and its reversal."""
    leader = _winner_of(event)
    table = last_round_table(event, leader)
    game = table.games.filter(status="valid").order_by("-number").first()
    assert game is not None
    original = dict(GameScore.objects.filter(game=game).values_list("player_id", "points"))
    other = next(pid for pid in Seat.objects.filter(table=table).values_list("player_id", flat=True) if pid != leader)
    points = {pid: (300 if pid == leader else 0) for pid in original if pid != other}
    return other, points, game.winner_id, {pid: pts for pid, pts in original.items() if pid != game.winner_id}


def test_standings_equal_a_recomputation_and_a_correction_in_event_two_moves_them(season) -> None:  # type: ignore[no-untyped-def]
    club, people, events = season
    series = series_of(club, events, points_preset=series_rules.PRESET_CLUB_CLASSIC, best_n=2)
    before = season_selectors.standings(series)
    assert before == from_scratch(series)
    assert {row.person for row in before} <= {person.pk for person in people}

    second = events[1]
    winner, points, _, _ = _swing(second)
    leader_player = _winner_of(second)
    correct(second, last_round_table(second, leader_player), winner=winner, card_points=points)

    after = season_selectors.standings(fresh(series))  # read again as a page would: the event's version moved
    assert after == from_scratch(series)
    assert after != before
    person = Tournament.objects.get(pk=second.pk).players.get(pk=leader_player).person_id
    if person is not None:
        place_before = next(s.place for r in before if r.person == person for s in r.scores if s.event == second.pk)
        place_after = next(s.place for r in after if r.person == person for s in r.scores if s.event == second.pk)
        assert place_after > place_before


@pytest.mark.parametrize("preset", series_rules.PRESETS)
def test_every_preset_matches_the_recomputation(season, preset: str) -> None:  # type: ignore[no-untyped-def]
    club, _, events = season
    table = [12, 10, 8, 6, 4, 2, 1] if preset == series_rules.PRESET_TABLE else []
    series = series_of(club, events, points_preset=preset, points_table=table, minimum_events=3)
    assert season_selectors.standings(series) == from_scratch(series)


def test_an_unfinished_event_is_not_counted_and_is_named(season) -> None:  # type: ignore[no-untyped-def]
    club, _, events = season
    Tournament.objects.filter(pk=events[2].pk).update(status=enums.TournamentStatus.RUNNING, version=99)
    series = series_of(club, events)
    page = season_selectors.series_page(series)
    assert [event.id for event in page.waiting] == [events[2].pk]
    assert all(score.event != events[2].pk for row in page.rows for score in row.row.scores)


def test_ratings_are_deterministic_and_a_reversed_correction_restores_them(season) -> None:  # type: ignore[no-untyped-def]
    club, people, events = season
    first = ratings_from_scratch(club)
    assert ratings_from_scratch(club) == first
    assert set(first) >= {person.pk for person in people if first.get(person.pk)}
    assert any(pk < 0 for pk in first)  # the unlinked players are rated as stand-ins

    second = events[1]
    leader = _winner_of(second)
    table = last_round_table(second, leader)
    winner, points, old_winner, old_points = _swing(second)
    correct(second, table, winner=winner, card_points=points)
    changed = ratings_from_scratch(club)
    assert changed != first
    correct(second, table, winner=old_winner, card_points=old_points)
    assert ratings_from_scratch(club) == first


def test_the_kept_rating_moves_with_a_correction(season) -> None:  # type: ignore[no-untyped-def]
    club, _, events = season
    kept = season_selectors.club_rating(club)
    second = events[1]
    leader = _winner_of(second)
    winner, points, _, _ = _swing(second)
    correct(second, last_round_table(second, leader), winner=winner, card_points=points)
    club.refresh_from_db()
    again = season_selectors.club_rating(club)
    assert again != kept
    cache.clear()
    assert season_selectors.club_rating(club) == again
