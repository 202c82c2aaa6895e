"""Properties of the pure tombola draw (``tournament.draws``): reproducible from its seed and pool,
never an absent, excluded or absent-marked player, one prize per player unless allowed, and a
redraw for an absent winner keeps every other prize's winner.

No database. Player counts from 0 to 120, tombolas of up to 40 steps; small ``max_examples``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import draws

pytestmark = pytest.mark.core

SEEDS = st.integers(min_value=0, max_value=10**9)


@st.composite
def field(draw: st.DrawFn) -> tuple[list[int], list[int], list[int]]:
    """(present, not present, excluded ⊆ present): distinct ids spread over a large range."""
    count = draw(st.integers(min_value=0, max_value=120))
    others = draw(st.integers(min_value=0, max_value=20))
    rnd = draw(st.randoms(use_true_random=False))
    ids = rnd.sample(range(1, 10**9), count + others)
    present, away = ids[:count], ids[count:]
    excluded = rnd.sample(present, min(len(present), draw(st.integers(min_value=0, max_value=3))))
    return present, away, excluded


@st.composite
def steps(draw: st.DrawFn, prizes: int) -> list[tuple[str, int, int]]:
    """An organiser's taps: draws of the prizes in order, absent marks of drawn ones in between."""
    taps: list[tuple[str, int, int]] = []
    for _ in range(draw(st.integers(min_value=0, max_value=40))):
        if draw(st.booleans()) and draw(st.integers(0, 3)) == 0:
            taps.append(("absent", draw(st.integers(0, prizes - 1)), 0))
        else:
            taps.append(("draw", draw(st.integers(0, prizes - 1)), draw(SEEDS)))
    return taps


@settings(max_examples=60, deadline=None)
@given(data=field(), seed=SEEDS, shuffler=st.randoms(use_true_random=False))
def test_a_draw_is_reproducible_from_its_seed_and_pool_in_any_order(
    data: tuple[list[int], list[int], list[int]], seed: int, shuffler: random.Random
) -> None:
    present, _away, _excluded = data
    winner = draws.draw_tombola_winner(present, seed)
    messy = present + present[:5]
    shuffler.shuffle(messy)
    assert draws.draw_tombola_winner(messy, seed) == winner
    assert (winner is None) == (not present)
    if winner is not None:
        assert winner in present


def test_different_seeds_spread_the_prize() -> None:
    """Not a constant: over 200 seeds every one of 5 players wins the prize at least once."""
    winners = {draws.draw_tombola_winner([10, 20, 30, 40, 50], seed) for seed in range(200)}
    assert winners == {10, 20, 30, 40, 50}


@settings(max_examples=60, deadline=None)
@given(data=field(), prizes=st.integers(min_value=1, max_value=12), repeat=st.booleans(), taps=st.data())
def test_a_tombola_never_draws_the_absent_and_gives_one_prize_each_unless_allowed(
    data: tuple[list[int], list[int], list[int]], prizes: int, repeat: bool, taps: st.DataObject
) -> None:
    present, away, excluded = data
    plan = taps.draw(steps(prizes))
    winners, made = draws.run_tombola(present, plan, excluded=excluded, repeat_allowed=repeat)

    marked_absent = set()
    held: dict[int, int] = {}
    for drawn in made:  # replay the record: each draw from its own pool
        assert set(drawn.pool) <= set(present) - set(excluded), "only players present and not excluded"
        assert not set(drawn.pool) & set(away)
        if drawn.winner is not None:
            assert drawn.winner in drawn.pool
    for kind, prize, seed in plan:
        if kind == "absent" and prize in held:
            marked_absent.add(held.pop(prize))
        elif kind == "draw" and prize not in held:
            pool = draws.tombola_pool(
                present, winners=held.values(), absent=marked_absent, excluded=excluded, repeat_allowed=repeat
            )
            winner = draws.draw_tombola_winner(pool, seed)
            assert winner not in marked_absent, "a player marked absent is never drawn again"
            if winner is not None:
                held[prize] = winner
    assert held == winners, "the reference replays step by step to the same winners"
    assert not set(winners.values()) & set(excluded)
    if not repeat:
        assert len(set(winners.values())) == len(winners), "one prize per player"
        # With repeats a player marked absent for one prize keeps a prize won before (marked on its own).
        assert not set(winners.values()) & marked_absent


@settings(max_examples=60, deadline=None)
@given(
    data=field(),
    prizes=st.integers(min_value=2, max_value=10),
    seeds=st.lists(SEEDS, min_size=12, max_size=12),
    which=st.integers(min_value=0, max_value=9),
    again=SEEDS,
)
def test_a_redraw_for_an_absent_winner_keeps_the_other_results(
    data: tuple[list[int], list[int], list[int]], prizes: int, seeds: list[int], which: int, again: int
) -> None:
    present, _away, excluded = data
    absent_prize = which % prizes
    plan = [("draw", prize, seeds[prize]) for prize in range(prizes)]
    before, _made = draws.run_tombola(present, plan, excluded=excluded)
    if absent_prize not in before:
        return  # nobody was there to win it
    gone = before[absent_prize]
    after, made = draws.run_tombola(
        present, [*plan, ("absent", absent_prize, 0), ("draw", absent_prize, again)], excluded=excluded
    )
    assert {p: w for p, w in after.items() if p != absent_prize} == {
        p: w for p, w in before.items() if p != absent_prize
    }, "every other prize keeps its winner"
    assert after.get(absent_prize) != gone
    assert gone not in made[-1].pool
    left = set(present) - set(excluded) - set(before.values())
    assert (absent_prize in after) == bool(left), "drawn again among the players who hold no prize"
    if absent_prize in after:
        assert after[absent_prize] in left


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=1, max_value=30), prizes=st.integers(min_value=1, max_value=40), seed=SEEDS)
def test_more_prizes_than_players_stop_without_repeats_and_go_on_with_them(count: int, prizes: int, seed: int) -> None:
    present = list(range(1, count + 1))
    plan = [("draw", prize, seed + prize) for prize in range(prizes)]
    once, _ = draws.run_tombola(present, plan)
    assert len(once) == min(count, prizes)
    assert sorted(once) == list(range(min(count, prizes))), "the prizes in order, until nobody is left"
    repeated, _ = draws.run_tombola(present, plan, repeat_allowed=True)
    assert len(repeated) == prizes
