"""Properties of the pure rating (``tournament.season.rating``): deterministic to the bit whatever
order the tables closed in, a correction and its reversal restore every rating, counts and the
history follow the records; and each format's table result as an order."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.season import rating as r

pytestmark = pytest.mark.core


@st.composite
def seasons(draw: st.DrawFn) -> list[r.TableRecord]:
    """1-5 events of 1-4 rounds, 6-30 people, each round tables of 3 and 4 of the people there with
    ties now and then; some rounds seat a person twice (life bands' consolation round)."""
    people = draw(st.integers(min_value=6, max_value=30))
    rnd = draw(st.randoms(use_true_random=False))
    records = []
    for event in range(draw(st.integers(min_value=1, max_value=5))):
        present = rnd.sample(range(1, people + 1), rnd.randint(6, people))
        for round_number in range(1, rnd.randint(1, 4) + 1):
            rnd.shuffle(present)
            tables = _tables(present, rnd)
            if rnd.random() < 0.2:  # survivors seated again in the same round
                tables.append(rnd.sample(present, 3))
            for key, seated in enumerate(tables, start=1):
                ranks = {pid: (rank if rnd.random() > 0.15 else 1) for rank, pid in enumerate(seated, start=1)}
                records.append(r.TableRecord.of(event * 10, 500 + event, round_number, key, ranks))
    return records


def _tables(present: list[int], rnd: random.Random) -> list[list[int]]:
    """Tables of 3-4 out of ``present`` (a few may wait the round out)."""
    tables, rest = [], list(present)
    while len(rest) >= 3:
        size = 4 if len(rest) >= 4 and rnd.random() < 0.5 else 3
        tables.append(rest[:size])
        rest = rest[size:]
    return tables


def _shuffled(records: list[r.TableRecord], seed: int) -> list[r.TableRecord]:
    """The same tables in another order, each table's seats in another order too."""
    rnd = random.Random(seed)
    shuffled = [dataclasses.replace(rec, ranks=tuple(rnd.sample(rec.ranks, len(rec.ranks)))) for rec in records]
    rnd.shuffle(shuffled)
    return shuffled


def _relabelled_within_rounds(records: list[r.TableRecord], seed: int) -> list[r.TableRecord]:
    """The tables of each round given other keys (closed in another order), where no person sits
    twice in the round: there the order of the tables cannot matter."""
    rnd = random.Random(seed)
    by_round: dict[tuple[int, int], list[r.TableRecord]] = {}
    for rec in records:
        by_round.setdefault((rec.event_order, rec.round_key), []).append(rec)
    out = []
    for tables in by_round.values():
        people = [p for rec in tables for p, _rank in rec.ranks]
        keys = [rec.table_key for rec in tables]
        if len(people) == len(set(people)):
            rnd.shuffle(keys)
        out += [dataclasses.replace(rec, table_key=key) for rec, key in zip(tables, keys, strict=True)]
    return out


@given(seasons(), st.integers(min_value=0, max_value=2**32))
def test_ratings_are_identical_whatever_order_the_tables_came_in(records, seed):
    ratings = r.rate(records)
    assert r.rate(_shuffled(records, seed)) == ratings  # dataclass equality: floats to the bit
    assert r.rate(_relabelled_within_rounds(records, seed)) == ratings


@given(seasons(), st.integers(min_value=0, max_value=2**32))
def test_a_correction_and_its_reversal_restore_every_rating(records, seed):
    before = r.rate(records)
    rnd = random.Random(seed)
    index = rnd.randrange(len(records))
    table = records[index]
    people = [p for p, _rank in table.ranks]
    reversed_ranks = tuple(zip(people, [rank for _p, rank in reversed(table.ranks)], strict=True))
    corrected = [*records[:index], dataclasses.replace(table, ranks=reversed_ranks), *records[index + 1 :]]
    r.rate(corrected)
    restored = [*corrected[:index], table, *corrected[index + 1 :]]
    assert r.rate(restored) == before


@given(seasons())
def test_counts_history_and_provisional_follow_the_records(records):
    ratings = r.rate(records)
    for person, rated in ratings.items():
        tables = [rec for rec in records if any(p == person for p, _rank in rec.ranks)]
        events = sorted({(rec.event_order, rec.event_id) for rec in tables})
        assert rated.tables == len(tables)
        assert rated.events == len(events) == len(rated.history)
        assert [point.event_id for point in rated.history] == [event_id for _order, event_id in events]
        assert rated.provisional == (len(events) < r.PROVISIONAL_EVENTS)
        last = rated.history[-1]
        assert (last.mu, last.sigma, last.display) == (rated.mu, rated.sigma, rated.display)
        assert rated.display == pytest.approx(rated.mu - 3 * rated.sigma)
        assert 0 < rated.sigma <= r.SIGMA + 1


@given(seasons())
def test_a_round_rates_its_tables_from_the_ratings_before_it(records):
    """Where nobody sits twice in a round, each table of it moves only its own people, and by what
    the ratings before the round say: rating the round's tables one by one from those gives the same."""
    first_event = min(rec.event_order for rec in records)
    first_round = [rec for rec in records if rec.event_order == first_event and rec.round_key == 1]
    ratings = r.rate(first_round)
    seated = [p for rec in first_round for p, _rank in rec.ranks]
    for table in first_round:
        if any(seated.count(p) > 1 for p, _rank in table.ranks):
            continue  # seated again in the round: rated after the first table (the test below)
        alone = r.rate([table])
        for person, _rank in table.ranks:
            assert (alone[person].mu, alone[person].sigma) == (ratings[person].mu, ratings[person].sigma)


def test_a_person_seated_twice_in_a_round_is_rated_table_after_table():
    first = r.TableRecord.of(1, 1, 1, 1, {1: 1, 2: 2, 3: 3})
    again = r.TableRecord.of(1, 1, 1, 2, {1: 1, 4: 2, 5: 3})
    both = r.rate([first, again])
    after_first = r.rate([first])[1]
    assert both[1].mu > after_first.mu > r.MU
    assert both[1].tables == 2 and both[1].events == 1


def test_winners_rise_and_ties_are_ties():
    rated = r.rate([r.TableRecord.of(1, 1, 1, 1, {1: 1, 2: 2, 3: 3, 4: 3})])
    assert rated[1].mu > rated[2].mu > r.MU > rated[3].mu  # second of four beat two
    assert rated[3].mu == rated[4].mu and rated[3].sigma == rated[4].sigma


@pytest.mark.parametrize(
    ("records", "code"),
    [
        ([r.TableRecord.of(1, 1, 1, 1, {1: 1})], "table_of_one"),
        ([r.TableRecord(1, 1, 1, 1, ((1, 1), (1, 2)))], "person_twice"),
        ([r.TableRecord.of(1, 1, 1, 1, {1: 0, 2: 1})], "rank_below_one"),
        ([r.TableRecord.of(1, 1, 1, 1, {1: 1, 2: 2}), r.TableRecord.of(1, 1, 1, 1, {3: 1, 4: 2})], "table_twice"),
    ],
)
def test_records_that_are_not_a_table_order_are_refused(records, code):
    with pytest.raises(r.RatingError) as refused:
        r.rate(records)
    assert refused.value.code == code


def test_no_records_no_ratings():
    assert r.rate([]) == {}


# --- each format's table result as an order ------------------------------------------------------


def test_knockout_orders_by_games_won_and_the_final_by_its_places():
    seats = [r.KnockoutSeat(1, 2, 1), r.KnockoutSeat(2, 1, 2), r.KnockoutSeat(3, 1, 3), r.KnockoutSeat(4, 0, 4)]
    # Places 2 and 3 were told apart by start number only: a tie for the rating.
    assert r.knockout_order(seats) == {1: 1, 2: 2, 3: 2, 4: 4}
    final = [r.KnockoutSeat(1, 3, 2), r.KnockoutSeat(2, 4, 1), r.KnockoutSeat(3, 1, 3)]
    assert r.knockout_order(final, final=True) == {2: 1, 1: 2, 3: 3}
    with pytest.raises(r.RatingError):
        r.knockout_order([r.KnockoutSeat(1, 3, None), r.KnockoutSeat(2, 1, 1)], final=True)


def test_points_orders_by_fewer_penalties_then_more_games_won():
    seats = [r.PointsSeat(1, 40, 1), r.PointsSeat(2, 12, 2), r.PointsSeat(3, 40, 2), r.PointsSeat(4, 40, 1)]
    assert r.points_order(seats) == {2: 1, 3: 2, 1: 3, 4: 3}


def test_life_bands_orders_survivors_first_then_the_last_out():
    seats = [r.LifeBandsSeat(1, 1), r.LifeBandsSeat(2, None), r.LifeBandsSeat(3, 2), r.LifeBandsSeat(4, None)]
    assert r.life_bands_order(seats) == {2: 1, 4: 1, 3: 3, 1: 4}
    grand_final = [r.LifeBandsSeat(1, 3), r.LifeBandsSeat(2, None), r.LifeBandsSeat(3, 1), r.LifeBandsSeat(4, 2)]
    assert r.life_bands_order(grand_final) == {2: 1, 1: 2, 4: 3, 3: 4}


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 200)), min_size=2, max_size=5, unique_by=lambda t: t))
def test_format_orders_are_competition_ranks(results):
    seats = [r.PointsSeat(index, points, won) for index, (won, points) in enumerate(results)]
    ranks = r.points_order(seats)
    assert min(ranks.values()) == 1
    for seat in seats:
        better = sum((o.penalty_points, -o.games_won) < (seat.penalty_points, -seat.games_won) for o in seats)
        assert ranks[seat.person] == better + 1
