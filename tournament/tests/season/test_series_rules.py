"""Properties of the pure series scoring (``tournament.season.series_rules``).

Small seasons (2-6 events, 6-30 people, every setting): the standings are a pure function of the
events (any order of events and placings, a correction and its reversal), agree with a plain
recomputation (totals, places by pairwise comparison), and keep best N and the minimum honest.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import date, timedelta
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.season import series_rules as sr

pytestmark = pytest.mark.core

START = date(2025, 9, 1)


@st.composite
def events(draw: st.DrawFn, min_events: int = 2, max_events: int = 6) -> list[sr.Event]:
    """A season: 6-30 people, each event a random part of them plus players linked to nobody,
    ranked with ties (competition places: 1, 2, 2, 4)."""
    people = draw(st.integers(min_value=6, max_value=30))
    count = draw(st.integers(min_value=min_events, max_value=max_events))
    rnd = draw(st.randoms(use_true_random=False))
    season = []
    for index in range(count):
        present = rnd.sample(range(1, people + 1), rnd.randint(3, people))
        field = present + [-(n + 1) for n in range(rnd.randint(0, 4))]  # not linked to a person
        rnd.shuffle(field)
        places, place = {}, 1
        for position, pid in enumerate(field, start=1):
            if position > 1 and rnd.random() < 0.2:
                places[pid] = place  # ties the one above
            else:
                place = position
                places[pid] = place
        linked = {pid: p for pid, p in places.items() if pid > 0}
        # Some events share a day (ordered by id then).
        held_on = START + timedelta(days=7 * (index // 2 if rnd.random() < 0.3 else index))
        season.append(sr.Event(id=100 + index, held_on=held_on, field_size=len(field), placings=sr.placings_of(linked)))
    return season


@st.composite
def scorings(draw: st.DrawFn) -> sr.Scoring:
    """Every setting: each preset, a non-growing table, best N, a minimum, any tie-break order."""
    preset = draw(st.sampled_from(sr.PRESETS))
    table = ()
    if preset == sr.PRESET_TABLE:
        values = draw(st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=12))
        table = tuple(sorted(values, reverse=True))
    tie_breaks = draw(st.permutations(sr.TIE_BREAKS))
    return sr.Scoring(
        preset=preset,
        table=table,
        best_n=draw(st.none() | st.integers(min_value=1, max_value=6)),
        minimum_events=draw(st.integers(min_value=0, max_value=4)),
        tie_breaks=tuple(tie_breaks[: draw(st.integers(min_value=0, max_value=len(tie_breaks)))]),
    )


def _shuffled(season: list[sr.Event], seed: int) -> list[sr.Event]:
    rnd = random.Random(seed)
    shuffled = [dataclasses.replace(e, placings=tuple(rnd.sample(e.placings, len(e.placings)))) for e in season]
    rnd.shuffle(shuffled)
    return shuffled


# --- a plain recomputation (the oracle) ---------------------------------------------------------


def _results(season: list[sr.Event], scoring: sr.Scoring) -> dict[int, list[tuple[sr.Event, int, int]]]:
    """Each person's (event, place, points), events in the order held."""
    found: dict[int, list[tuple[sr.Event, int, int]]] = {}
    for event in sorted(season, key=lambda e: (e.held_on, e.id)):
        for placing in event.placings:
            points = sr.points_for(scoring, placing.place, event.field_size)
            found.setdefault(placing.person, []).append((event, placing.place, points))
    return found


def _oracle_total(points: list[int], best_n: int | None) -> int:
    ordered = sorted(points, reverse=True)
    return sum(ordered if best_n is None else ordered[:best_n])


def _compare(a: int, b: int, season: list[sr.Event], scoring: sr.Scoring) -> int:
    """-1 when ``a`` ranks above ``b``, 1 below, 0 tied: the rules written out pair by pair."""
    results = _results(season, scoring)
    ra, rb = results[a], results[b]
    qa, qb = len(ra) >= scoring.minimum_events, len(rb) >= scoring.minimum_events
    if qa != qb:
        return -1 if qa else 1
    ta = _oracle_total([p for *_x, p in ra], scoring.best_n)
    tb = _oracle_total([p for *_x, p in rb], scoring.best_n)
    if ta != tb:
        return -1 if ta > tb else 1
    for code in scoring.tie_breaks:
        if code == sr.MORE_WINS:
            va, vb = -sum(pl == 1 for _e, pl, _p in ra), -sum(pl == 1 for _e, pl, _p in rb)
        elif code == sr.BETTER_BEST_PLACE:
            va, vb = min(pl for _e, pl, _p in ra), min(pl for _e, pl, _p in rb)
        elif code == sr.MORE_EVENTS:
            va, vb = -len(ra), -len(rb)
        else:
            va = vb = 0
            for event in sorted(season, key=lambda e: (e.held_on, e.id), reverse=True):
                pa = next((pl for e, pl, _p in ra if e.id == event.id), None)
                pb = next((pl for e, pl, _p in rb if e.id == event.id), None)
                if pa != pb:
                    va, vb = (pa or 10**9), (pb or 10**9)
                    break
        if va != vb:
            return -1 if va < vb else 1
    return 0


@given(events(), scorings(), st.integers(min_value=0, max_value=2**32))
def test_standings_are_a_pure_function_of_the_events(season, scoring, seed):
    rows = sr.standings(season, scoring)
    assert sr.standings(_shuffled(season, seed), scoring) == rows
    # A correction in one event (two places swapped) and its reversal: the same rows again.
    event = season[seed % len(season)]
    first, second = event.placings[0], event.placings[-1]
    swapped = tuple(
        dataclasses.replace(p, place=second.place if p is first else first.place if p is second else p.place)
        for p in event.placings
    )
    corrected = [dataclasses.replace(e, placings=swapped) if e is event else e for e in season]
    sr.standings(corrected, scoring)
    reverted = [dataclasses.replace(e, placings=event.placings) if e.id == event.id else e for e in corrected]
    assert sr.standings(reverted, scoring) == rows


@given(events(max_events=4), scorings())
def test_standings_agree_with_a_pairwise_recomputation(season, scoring):
    rows = sr.standings(season, scoring)
    people = [row.person for row in rows]
    assert sorted(people) == sorted(_results(season, scoring))
    for row in rows:
        better = sum(_compare(other, row.person, season, scoring) < 0 for other in people)
        assert row.place == better + 1
    for above, row in pairwise(rows):
        tied = _compare(above.person, row.person, season, scoring) == 0
        assert (row.reason.rule == sr.RULE_SHARED) == tied
        assert _compare(above.person, row.person, season, scoring) <= 0


@given(events(), scorings())
def test_totals_are_the_best_n_and_dropping_never_adds(season, scoring):
    rows = sr.standings(season, scoring)
    every = {row.person: row for row in sr.standings(season, dataclasses.replace(scoring, best_n=None))}
    for row in rows:
        points = [score.points for score in row.scores]
        assert row.total == _oracle_total(points, scoring.best_n) == sum(s.points for s in row.counted)
        assert len(row.counted) == (len(points) if scoring.best_n is None else min(scoring.best_n, len(points)))
        assert all(min(s.points for s in row.counted) >= d.points for d in row.dropped)
        assert row.total <= every[row.person].total


@given(events(min_events=3), scorings())
def test_one_more_event_never_lowers_a_total_when_all_count(season, scoring):
    scoring = dataclasses.replace(scoring, best_n=None)
    ordered = sorted(season, key=lambda e: (e.held_on, e.id))
    before = {row.person: row.total for row in sr.standings(ordered[:-1], scoring)}
    after = {row.person: row.total for row in sr.standings(ordered, scoring)}
    assert all(after[person] >= total for person, total in before.items())


@given(events(), scorings())
def test_places_run_from_one_with_shared_places_and_the_minimum_holds(season, scoring):
    rows = sr.standings(season, scoring)
    assert rows[0].place == 1 and rows[0].reason == sr.Reason(sr.RULE_FIRST)
    for index, (above, row) in enumerate(pairwise(rows), start=2):
        assert row.place == (above.place if row.reason.rule == sr.RULE_SHARED else index)
    qualified = [row.qualified for row in rows]
    assert qualified == sorted(qualified, reverse=True)  # the qualified first
    assert all(row.qualified == (row.events_played >= scoring.minimum_events) for row in rows)


def test_presets_and_the_table_beyond_its_end():
    classic = sr.Scoring(preset=sr.PRESET_CLUB_CLASSIC)
    assert [sr.points_for(classic, place, 20) for place in (1, 2, 8, 9, 20)] == [10, 8, 1, 1, 1]
    f1 = sr.Scoring(preset=sr.PRESET_F1_LIKE)
    assert [sr.points_for(f1, place, 20) for place in (1, 10, 11, 20)] == [25, 1, 0, 0]
    field = sr.Scoring(preset=sr.PRESET_FIELD_SIZE)
    assert [sr.points_for(field, place, 12) for place in (1, 12)] == [12, 1]
    own = sr.Scoring(preset=sr.PRESET_TABLE, table=(5, 3, 0))
    assert [sr.points_for(own, place, 9) for place in (1, 2, 3, 9)] == [5, 3, 0, 0]


def _event(event_id: int, day: int, places: dict[int, int], field: int | None = None) -> sr.Event:
    return sr.Event(event_id, START + timedelta(days=day), field or len(places), sr.placings_of(places))


def test_reasons_name_the_deciding_rule_and_both_values():
    season = [
        _event(1, 0, {1: 1, 2: 2, 3: 3, 4: 4}),
        _event(2, 7, {1: 4, 2: 1, 3: 2, 4: 3}),
        _event(3, 14, {5: 1, 6: 2, 7: 3}),
    ]
    scoring = sr.Scoring(preset=sr.PRESET_TABLE, table=(3, 2, 1, 0), minimum_events=2, tie_breaks=(sr.MORE_WINS,))
    rows = sr.standings(season, scoring)
    by_person = {row.person: row for row in rows}
    # 1 and 2 both have 3 + 0 / 2 + 3 = ... 1: 3 + 0 = 3; 2: 2 + 3 = 5; 3: 1 + 2 = 3; 4: 0 + 1 = 1.
    assert [row.person for row in rows[:4]] == [2, 1, 3, 4]
    assert by_person[1].reason == sr.Reason(sr.RULE_TOTAL, own=3, above=5)
    assert by_person[3].reason == sr.Reason(sr.MORE_WINS, own=0, above=1)
    assert by_person[5].reason == sr.Reason(sr.RULE_MINIMUM_EVENTS, own=1, above=2)
    assert not by_person[5].qualified and by_person[5].place == 5
    last = sr.standings(season, dataclasses.replace(scoring, tie_breaks=(sr.BETTER_LAST_RESULT,)))
    assert {row.person: row.reason for row in last}[1] == sr.Reason(sr.BETTER_LAST_RESULT, own=4, above=2, event=2)
    shared = sr.standings(season, dataclasses.replace(scoring, tie_breaks=()))
    assert [(row.place, row.person, row.reason.rule) for row in shared[:3]] == [
        (1, 2, sr.RULE_FIRST),
        (2, 1, sr.RULE_TOTAL),
        (2, 3, sr.RULE_SHARED),
    ]


def test_best_n_drops_the_older_of_equal_results():
    season = [_event(1, 0, {1: 1}, field=3), _event(2, 7, {1: 1}, field=3), _event(3, 14, {1: 3}, field=3)]
    (row,) = sr.standings(season, sr.Scoring(best_n=1))
    assert [(score.event, score.counted) for score in row.scores] == [(1, False), (2, True), (3, False)]
    assert row.total == 3 and [s.event for s in row.dropped] == [1, 3]


@pytest.mark.parametrize(
    ("scoring", "code"),
    [
        (sr.Scoring(preset="nonsense"), "unknown_preset"),
        (sr.Scoring(preset=sr.PRESET_TABLE), "empty_table"),
        (sr.Scoring(preset=sr.PRESET_TABLE, table=(3, -1)), "negative_points"),
        (sr.Scoring(preset=sr.PRESET_TABLE, table=(3, 4)), "table_grows"),
        (sr.Scoring(best_n=0), "best_n_too_small"),
        (sr.Scoring(minimum_events=-1), "negative_minimum"),
        (sr.Scoring(tie_breaks=("coin_toss",)), "unknown_tie_break"),
        (sr.Scoring(tie_breaks=(sr.MORE_WINS, sr.MORE_WINS)), "repeated_tie_break"),
    ],
)
def test_settings_the_series_cannot_score_are_refused(scoring, code):
    with pytest.raises(sr.SeriesError) as refused:
        sr.standings([], scoring)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("season", "code"),
    [
        ([_event(1, 0, {1: 1}), _event(1, 7, {2: 1})], "repeated_event"),
        ([sr.Event(1, START, 2, (sr.Placing(1, 1), sr.Placing(1, 2)))], "person_twice"),
        ([sr.Event(1, START, 1, (sr.Placing(1, 1), sr.Placing(2, 1)))], "field_too_small"),
        ([sr.Event(1, START, 2, (sr.Placing(1, 3),))], "place_outside_field"),
        ([sr.Event(1, START, 2, (sr.Placing(1, 0),))], "place_outside_field"),
    ],
)
def test_events_that_are_not_rankings_are_refused(season, code):
    with pytest.raises(sr.SeriesError) as refused:
        sr.standings(season, sr.Scoring())
    assert refused.value.code == code
