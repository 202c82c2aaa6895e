"""The series' kept standings equal a recomputation from scratch after any sequence of results,
corrections and merges (issue 33, "Must hold"), at the Django level: small seasons of real
evenings (played by the dry run), the regulars linked at random, random scoring settings, and
corrections through the organiser's correction service (``play.corrections``) and merges through
the register's (``desk.register.merge_persons``). The kept standings are read before each step, so
a standing kept under a stale key would show; the recomputation reads every event afresh and calls
the pure ``series_rules.standings`` without the cache."""

from __future__ import annotations

import contextlib

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import enums
from tournament.desk import register as register_services
from tournament.errors import ServiceError
from tournament.models import Person, Player, Seat, Table, Tournament
from tournament.season import series_rules
from tournament.selectors import season as season_selectors
from tournament.tests.season.helpers import club_with_people, correct, evening, fresh, from_scratch, series_of

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EVENTS = 4
PLAYERS = 12

scorings = st.fixed_dictionaries(
    {
        "points_preset": st.sampled_from(series_rules.PRESETS),
        "points_table": st.lists(st.integers(0, 30), min_size=1, max_size=8).map(lambda t: sorted(t, reverse=True)),
        "best_n": st.none() | st.integers(1, 4),
        "minimum_events": st.integers(0, 3),
        "tie_breaks": st.permutations(series_rules.TIE_BREAKS).flatmap(
            lambda order: st.integers(0, len(order)).map(lambda k: list(order[:k]))
        ),
    }
)
# A correction: which event, which closed table, which seat wins, the others' card points; or a merge.
corrections = st.tuples(st.integers(0, EVENTS - 1), st.integers(0, 99), st.integers(0, 3), st.integers(0, 10**6))
# A merge: a regular's duplicate entry (the desk added them again) into the regular, or any two entries.
merges = st.tuples(st.booleans(), st.integers(0, PLAYERS - 1), st.integers(0, PLAYERS - 1))
steps = st.lists(
    st.one_of(corrections.map(lambda c: ("correct", c)), merges.map(lambda m: ("merge", m))), min_size=1, max_size=4
)


@st.composite
def seasons(draw: st.DrawFn) -> dict[str, object]:
    events = draw(st.integers(2, EVENTS))
    people = draw(st.integers(6, PLAYERS))
    seatings = [draw(st.permutations(range(PLAYERS))) for _ in range(events)]
    absent = [draw(st.sets(st.integers(0, people - 1), max_size=3)) for _ in range(events)]
    # Those who came as a new entry of the register that evening (a duplicate the organiser may merge).
    doubled = [draw(st.sets(st.integers(0, people - 1), max_size=2)) for _ in range(events)]
    return {
        "events": events,
        "people": people,
        "links": [
            [_entry(index, people, gone, twice) for index in seating]
            for seating, gone, twice in zip(seatings, absent, doubled, strict=True)
        ],
        "scoring": draw(scorings),
        "steps": draw(steps),
    }


def _entry(index: int, people: int, absent: set[int], doubled: set[int]) -> int | None:
    """The register entry a seat is linked to: a regular, their duplicate (``PLAYERS + index``), or nobody."""
    if index >= people or index in absent:
        return None
    return PLAYERS + index if index in doubled else index


def _link(events: list[Tournament], people: list[Person], links: list[list[int | None]]) -> None:
    """Each event's players linked to the people its draw names (a person at most once an event)."""
    for event, chosen in zip(events, links, strict=True):
        players = list(event.players.order_by("pk").values_list("pk", flat=True))
        Player.objects.filter(tournament=event).update(person=None)
        for player, index in zip(players, chosen, strict=False):
            if index is not None:
                Player.objects.filter(pk=player).update(person=people[index])


def _correct(events: list[Tournament], step: tuple[int, int, int, int]) -> None:
    """A correction of a closed main-round table's last game: a drawn seat wins, the others hold drawn card points."""
    which, table_index, seat_index, seed = step
    event = Tournament.objects.get(pk=events[which % len(events)].pk)
    tables = list(
        Table.objects.filter(
            round__tournament=event, round__stage=enums.Stage.MAIN, status=enums.TableStatus.CLOSED
        ).order_by("round__number", "number")
    )
    table = tables[table_index % len(tables)]
    seated = list(Seat.objects.filter(table=table).order_by("position").values_list("player_id", flat=True))
    winner = seated[seat_index % len(seated)]
    points = {pid: (seed >> (8 * n)) % 90 for n, pid in enumerate(seated) if pid != winner}
    with contextlib.suppress(ServiceError):  # a refused correction changes nothing: nor must the standings
        correct(event, table, winner=winner, card_points=points)


def _merge(club, organiser, people: list[Person], step: tuple[bool, int, int]) -> None:  # type: ignore[no-untyped-def]
    """A regular's duplicate merged into the regular, or any two entries (often refused)."""
    its_duplicate, first, second = step
    if its_duplicate:
        duplicate, keep = people[PLAYERS + first].pk, people[first].pk
    else:
        duplicate, keep = people[first].pk, people[second].pk
    with contextlib.suppress(ServiceError):  # itself, merged already, or two who played in one event
        register_services.merge_persons(club=club, actor=organiser, duplicate_id=duplicate, keep_id=keep)


def test_kept_series_standings_equal_a_recomputation_after_results_corrections_and_merges(make_user) -> None:  # type: ignore[no-untyped-def]
    organiser = make_user("season-property")
    club, people = club_with_people(PLAYERS)
    people += [Person.objects.create(club=club, name=f"{person.name} (again)") for person in people]
    club.organisers.add(organiser)
    events = [
        evening(club, [], seed=seed, week=week, players=PLAYERS) for week, seed in enumerate(range(31, 31 + EVENTS))
    ]

    @settings(
        max_examples=15,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(season=seasons())
    def run(season: dict) -> None:  # type: ignore[type-arg]
        cache.clear()  # each example starts from the records: a rolled-back example's versions come back
        with transaction.atomic():
            chosen = events[: season["events"]]
            _link(chosen, people, season["links"])
            series = series_of(club, chosen, **season["scoring"])
            assert season_selectors.standings(series) == from_scratch(series)
            for kind, step in season["steps"]:
                if kind == "correct":
                    _correct(chosen, step)
                else:
                    _merge(club, organiser, people, step)
                series = fresh(series)  # read again as a page would
                assert season_selectors.standings(series) == from_scratch(series), (kind, step)
            transaction.set_rollback(True)

    run()
