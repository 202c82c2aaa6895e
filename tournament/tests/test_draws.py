"""Properties of the pure start-number draw (``tournament.draws``).

No database: the draw is a pure function of the set of player ids and a seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import draws

pytestmark = pytest.mark.core

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def player_ids(draw: st.DrawFn, max_players: int = 500) -> list[int]:
    """Distinct positive ids for 0..max_players players, spread over a large range
    (the count is drawn first so large fields are as likely as small ones)."""
    count = draw(st.integers(min_value=0, max_value=max_players))
    rnd = draw(st.randoms(use_true_random=False))
    return rnd.sample(range(1, 10**12), count)


def _check_valid(result: list[tuple[int, int]], ids: list[int]) -> None:
    players = [player for player, _number in result]
    numbers = [number for _player, number in result]
    assert numbers == list(range(1, len(set(ids)) + 1)), "start numbers are exactly 1..n, in order"
    assert len(players) == len(set(players)), "every player is drawn once"
    assert set(players) == set(ids), "every player and only the given players are drawn"


@settings(max_examples=100, deadline=None)
@given(ids=player_ids(), seed=SEEDS)
def test_numbers_are_exactly_one_to_n_and_each_player_once(ids: list[int], seed: int) -> None:
    _check_valid(draws.draw_start_numbers(ids, seed), ids)


@settings(max_examples=80, deadline=None)
@given(ids=player_ids(), seed=SEEDS, shuffler=st.randoms(use_true_random=False), data=st.data())
def test_result_ignores_input_order_and_duplicates(
    ids: list[int], seed: int, shuffler: random.Random, data: st.DataObject
) -> None:
    expected = draws.draw_start_numbers(ids, seed)
    repeated = data.draw(st.lists(st.sampled_from(ids), max_size=50)) if ids else []
    messy = ids + repeated
    shuffler.shuffle(messy)
    result = draws.draw_start_numbers(messy, seed)
    assert result == expected
    _check_valid(result, messy)


@settings(max_examples=80, deadline=None)
@given(ids=player_ids(), seed=SEEDS)
def test_same_seed_gives_same_result(ids: list[int], seed: int) -> None:
    # A generator (not a list) as input, as the service may pass a queryset.
    assert draws.draw_start_numbers(iter(ids), seed) == draws.draw_start_numbers(list(ids), seed)


def test_every_player_count_from_0_to_500() -> None:
    """Not left to chance: every field size the product supports is drawn once."""
    rnd = random.Random(20261121)
    for count in range(501):
        ids = rnd.sample(range(1, 10**9), count)
        _check_valid(draws.draw_start_numbers(ids, rnd.randrange(2**63)), ids)


def test_the_draw_is_actually_random() -> None:
    """Different seeds give different orders; the order is not simply by id."""
    ids = list(range(1, 21))
    results = {tuple(draws.draw_start_numbers(ids, seed)) for seed in range(50)}
    assert len(results) >= 45
    identity = tuple((player, player) for player in ids)
    assert identity not in results


@settings(max_examples=100, deadline=None)
@given(ids=player_ids(max_players=60), seed=SEEDS)
def test_a_different_seed_usually_changes_the_order(ids: list[int], seed: int) -> None:
    if len(ids) < 12:  # 12! orders: a collision of two seeds is too unlikely to flake
        return
    other = (seed + 1) % 2**63
    assert draws.draw_start_numbers(ids, seed) != draws.draw_start_numbers(ids, other)


def test_new_seed_fits_the_seed_column_and_varies() -> None:
    seeds = [draws.new_seed() for _ in range(200)]
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) > 190
