"""The expected plan of the day (``tournament.day_plan``), pure: for every count from 3 to 120 and
every format it is what the formats' planners seat, round by round (driven here with results
drawn at random: counts, not winners, decide the next round), and its times grow with the
length of a game and never run backwards."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import day_plan
from tournament.formats.knockout import rules as knockout
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.points import rules as points

COUNTS = range(3, 121)
START = dt.datetime(2026, 5, 16, 10, 0, tzinfo=dt.UTC)


def _knockout_seated(players: int, settings: knockout.KnockoutSettings, rng: random.Random) -> list[tuple[str, tuple]]:
    """What ``plan_next_round`` seats round by round for ``players`` with random results (the
    organiser taking the first option where asked), as (stage, sizes largest first)."""
    numbers = list(range(1, players + 1))
    rng.shuffle(numbers)
    entrants = [knockout.Entrant(id=100 + i, start_number=number) for i, number in enumerate(numbers)]
    played: list[knockout.RoundResult] = []
    seated: list[tuple[str, tuple]] = []
    while True:
        step = knockout.plan_next_round(entrants, played, settings)
        if isinstance(step, knockout.Finished):
            break
        if step.needs_choice:
            step = knockout.plan_next_round(entrants, played, settings, step.options[0].code)
        seated.append((step.stage, tuple(sorted(step.sizes, reverse=True))))
        if step.stage == knockout.FINAL:
            break
        ids = list(step.players)
        rng.shuffle(ids)
        tables, at = [], 0
        for number, size in enumerate(step.sizes, 1):
            table = ids[at : at + size]
            at += size
            wins = [3, *sorted((rng.randrange(3) for _ in table[1:]), reverse=True)]
            seats = tuple(
                knockout.SeatResult(player_id=pid, place=place, games_won=won)
                for place, (pid, won) in enumerate(zip(table, wins, strict=True), 1)
            )
            tables.append(knockout.TableResult(number=number, seats=seats))
        played.append(knockout.RoundResult(number=len(played) + 1, stage=step.stage, tables=tuple(tables)))
    return seated


def _life_bands_main(players: int, preferred: int, largest: int, rng: random.Random) -> list[tuple[int, ...]]:
    """The main rounds ``plan_main`` seats, random players going out at each table."""
    survivors = list(range(1, players + 1))
    seated = []
    while True:
        plan = life_bands.plan_main(survivors, preferred, largest)
        if plan.options:
            plan = life_bands.plan_main(survivors, preferred, largest, plan.options[0].code)
        if plan.winners:
            break
        if plan.final_table:
            seated.append((len(plan.final_table),))
            break
        seated.append(tuple(sorted(plan.sizes, reverse=True)))
        rng.shuffle(survivors)
        left, at = [], 0
        for size in plan.sizes:
            table = survivors[at : at + size]
            at += size
            left += table[life_bands.players_out_at(size) :]
        survivors = sorted(left)
    return seated


def _stages(plan: day_plan.ExpectedPlan, *stages: str) -> list[tuple[str, tuple[int, ...]]]:
    return [(r.stage, r.sizes) for slot in plan.slots for r in slot.rounds if r.stage in stages]


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32), final_size=st.sampled_from([3, 4]))
def test_the_knockout_plan_is_what_the_planner_seats_for_every_count(seed: int, final_size: int) -> None:
    rng = random.Random(seed)
    settings_ = knockout.KnockoutSettings(final_size=final_size)
    for players in COUNTS:
        plan = day_plan.knockout_plan(players, settings_)
        assert [(slot.lead.stage, slot.lead.sizes) for slot in plan.slots] == _knockout_seated(
            players, settings_, rng
        ), players
        assert plan.slots[-1].lead.stage == knockout.FINAL
        assert all(len(slot.rounds) == 1 for slot in plan.slots)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32), sizes=st.sampled_from([(3, 4), (3, 3), (4, 4), (3, 5)]))
def test_the_life_bands_plan_is_what_the_planner_seats_for_every_count(seed: int, sizes: tuple[int, int]) -> None:
    rng = random.Random(seed)
    preferred, largest = sizes
    for players in COUNTS:
        plan = day_plan.life_bands_plan(
            players, preferred=preferred, largest=largest, bands=2, chips=2, chips_grand_final=3
        )
        main = [sizes for stage, sizes in _stages(plan, day_plan.MAIN)]
        assert main == _life_bands_main(players, preferred, largest, rng), players
        # Main rounds come one a slot, in order; the grand final last, of at most 4.
        numbers = [r.number for slot in plan.slots for r in slot.rounds if r.stage == day_plan.MAIN]
        assert numbers == list(range(1, len(numbers) + 1))
        grand = plan.slots[-1].lead
        assert grand.stage == day_plan.GRAND_FINAL and 2 <= grand.sizes[0] <= life_bands.GRAND_FINAL_SIZE, players
        # The consolation seats whom plan_pool seats: tables of the settings' sizes (its final up to 4).
        for _stage, table_sizes in _stages(plan, day_plan.CONSOLATION):
            assert all(2 <= size <= max(largest, 4) for size in table_sizes)


@settings(max_examples=3, deadline=None)
@given(rounds=st.integers(1, 8), sizes=st.sampled_from([(3, 4), (4, 4), (3, 5)]))
def test_the_points_plan_is_what_the_planner_seats_for_every_count(rounds: int, sizes: tuple[int, int]) -> None:
    preferred, largest = sizes
    for players in COUNTS:
        plan = day_plan.points_plan(players, preferred=preferred, largest=largest, rounds=rounds, games_per_round=3)
        seated = points.plan_tables(players, preferred, largest)
        if seated.options:
            seated = points.plan_tables(players, preferred, largest, seated.options[0].code)
        assert [slot.lead.sizes for slot in plan.slots] == [tuple(sorted(seated.sizes, reverse=True))] * rounds
        assert sum(plan.slots[0].lead.sizes) == players


def _plans(players: int) -> list[day_plan.ExpectedPlan]:
    return [
        day_plan.knockout_plan(players, knockout.KnockoutSettings()),
        day_plan.life_bands_plan(players, preferred=3, largest=4, bands=2, chips=2, chips_grand_final=3),
        day_plan.points_plan(players, preferred=3, largest=4, rounds=4, games_per_round=3, limit_minutes=40),
    ]


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 120),
    minutes=st.tuples(st.integers(1, 30), st.integers(1, 30)),
    longer=st.integers(0, 20),
    pace=st.floats(0.3, 3),
    sharp=st.sampled_from([None, 15]),
)
def test_expected_times_grow_with_the_game_length(
    players: int, minutes: tuple[int, int], longer: int, pace: float, sharp: int | None
) -> None:
    short = day_plan.Timing(3, 4, minutes[0], minutes[1], 5, sharp, pace)
    long = day_plan.Timing(3, 4, minutes[0] + longer, minutes[1] + longer, 5, sharp, pace * 1.5)
    for plan in _plans(players):
        before = day_plan.schedule(plan, short, START)
        after = day_plan.schedule(plan, long, START)
        for quick, slow in zip(before, after, strict=True):
            assert quick.start is not None and slow.start is not None and quick.end and slow.end
            assert quick.start <= slow.start and quick.end <= slow.end
            assert quick.minutes <= slow.minutes
        # One slot after the other, with the break between them.
        for earlier, later in itertools.pairwise(after):
            assert earlier.end is not None and later.start == earlier.end + dt.timedelta(minutes=5)


def test_a_table_plays_as_many_games_as_equal_players_take() -> None:
    assert day_plan.race_games(1, 3) == 3
    assert 3 < day_plan.race_games(3, 3) < 7  # first to 3 of 3: 3 to 7 games
    assert day_plan.race_games(4, 2) < day_plan.race_games(3, 3)  # 2 wins at a table of 4 is quicker
    assert day_plan.elimination_games(3, 2, 1) == pytest.approx(2 + 2 / 3 + 2 / 9)  # 2 to 4 games until one lost 2
    assert 2 <= day_plan.elimination_games(4, 2, 2) <= 7
    assert day_plan.elimination_games(4, 3, 3) > day_plan.elimination_games(4, 2, 3)


def test_the_measured_pace_is_a_median_one_slow_table_does_not_move() -> None:
    timing = day_plan.Timing(3, 4, 6, 8)
    at = START
    games = []
    for table in range(1, 6):
        for number in range(1, 4):
            length = 60 if table == 5 else 9  # table 5 is very slow
            games.append(day_plan.MeasuredGame(table, 3, at, at + dt.timedelta(minutes=length * number)))
    lengths = day_plan.game_lengths(games)
    assert len(lengths) == 15
    assert day_plan.measured_pace(lengths, timing) == 9 / 6
    assert day_plan.measured_pace(lengths[:2], timing) is None  # too few games to go by


def test_the_game_under_way_anchors_the_rest_and_never_ends_in_the_past() -> None:
    plan = day_plan.knockout_plan(23, knockout.KnockoutSettings())
    timing = day_plan.Timing(3, 4, 6, 8, 5)
    late = START + dt.timedelta(minutes=50)
    now = late + dt.timedelta(minutes=200)
    timed = day_plan.schedule(plan, timing, START, anchor=(1, late), now=now)
    assert timed[0].started and timed[1].started and not timed[2].started
    assert timed[1].start == late and timed[1].end == now
    assert timed[2].start == now + dt.timedelta(minutes=5)


def test_rounded_to_five_minutes() -> None:
    assert day_plan.rounded(dt.datetime(2026, 5, 16, 17, 38, 40)).strftime("%H:%M") == "17:40"
    assert day_plan.rounded(dt.datetime(2026, 5, 16, 17, 57, 31)).strftime("%H:%M") == "18:00"
    assert day_plan.rounded(dt.datetime(2026, 5, 16, 23, 58)).strftime("%d %H:%M") == "17 00:00"


def test_games_typed_in_at_once_are_no_measure_and_the_pace_stays_within_bounds() -> None:
    timing = day_plan.Timing(3, 4, 6, 8)
    # A paper slip typed in after the table ended: one long "game", then games seconds apart.
    slip = [
        day_plan.MeasuredGame(1, 3, START, START + dt.timedelta(minutes=40, seconds=seconds))
        for seconds in (0, 10, 20, 30)
    ]
    assert day_plan.game_lengths(slip) == [(3, 40.0)]
    fast = [(3, 1.0)] * 5
    slow = [(3, 300.0)] * 5
    assert day_plan.measured_pace(fast, timing) == day_plan.PACE_BOUNDS[0]
    assert day_plan.measured_pace(slow, timing) == day_plan.PACE_BOUNDS[1]
