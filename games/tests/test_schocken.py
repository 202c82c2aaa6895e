"""Schocken rules, pure: throw ranking, lid distribution of a half, game course. No database."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import schocken
from games.rules.schocken import (
    LIDS_PER_HALF,
    GameTracker,
    HalfState,
    InvalidGameStep,
    InvalidRound,
    InvalidThrow,
    Step,
    Throw,
    ThrowKind,
    lid_value,
    parse_throw,
    play_round,
    rank_key,
    ranking,
    throw_from_dice,
    throw_kind,
    turn_order,
)

pytestmark = pytest.mark.core

ALL_DICE: list[tuple[int, int, int]] = [
    (a, b, c) for a, b, c in itertools.product(range(1, 7), repeat=3) if a <= b <= c
]

# The ranking spelled out by hand from the rules, best first (all 56 dice sets, one roll, no ones kept).
REFERENCE_ORDER: list[str] = [
    "111",  # Schock-Out
    *("116", "115", "114", "113", "112"),  # Schock 6..2
    *("666", "555", "444", "333", "222"),  # General
    *("456", "345", "234", "123"),  # Straße
]
_special = {"".join(sorted(label)) for label in REFERENCE_ORDER}
REFERENCE_ORDER += sorted(
    ("".join(map(str, dice)) for dice in ALL_DICE if "".join(map(str, dice)) not in _special),
    key=lambda label: int(label[::-1]),
    reverse=True,
)


@st.composite
def throws(draw: st.DrawFn) -> Throw:
    """Any valid throw, including ones laid aside."""
    dice = draw(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)))
    rolls = draw(st.integers(1, 3))
    kept = 0 if rolls == 1 else draw(st.integers(0, min(2, dice.count(1))))
    return Throw(dice, rolls=rolls, ones_kept=kept)


def random_throw(rng: random.Random) -> Throw:
    """A throw as a table would produce it: random dice, random number of rolls."""
    return Throw((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)), rolls=rng.randint(1, 3))


def check_invariants(state: HalfState) -> None:
    assert state.stock + sum(state.lids) == LIDS_PER_HALF
    assert state.stock >= 0
    assert all(count >= 0 for count in state.lids)


# --- the module's public names ---------------------------------------------------------------------------


def test_existing_names_still_work() -> None:
    assert schocken.LIDS_PER_HALF == 13
    assert schocken.RULES.slug == "schocken"


# --- throws: examples from the rules ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        ("652", "322"),  # simple throws compared as numbers
        ("456", "234"),  # higher Straße
        ("555", "222"),  # higher General
        ("115", "113"),  # higher Schock
        ("111", "116"),  # Schock-Out beats everything
        ("112", "666"),  # Schock > General
        ("222", "456"),  # General > Straße
        ("123", "665"),  # Straße > simple
    ],
)
def test_examples_from_the_rules(higher: str, lower: str) -> None:
    assert rank_key(parse_throw(higher), 1) > rank_key(parse_throw(lower), 0)


@pytest.mark.parametrize(
    ("text", "kind", "lids", "label"),
    [
        ("111", ThrowKind.SCHOCK_OUT, 13, "Schock-Out"),
        ("611", ThrowKind.SCHOCK, 6, "Schock 6"),
        ("121", ThrowKind.SCHOCK, 2, "Schock 2"),
        ("444", ThrowKind.GENERAL, 3, "General 4"),
        ("645", ThrowKind.STRASSE, 2, "Straße 456"),
        ("321", ThrowKind.STRASSE, 2, "Straße 123"),
        ("256", ThrowKind.SIMPLE, 1, "652"),
        ("311", ThrowKind.SCHOCK, 3, "Schock 3"),
    ],
)
def test_kinds_and_lids(text: str, kind: ThrowKind, lids: int, label: str) -> None:
    throw = parse_throw(text)
    assert throw_kind(throw) is kind
    assert throw.kind is kind
    assert lid_value(throw) == lids == throw.lids
    assert throw.label == label


def test_strasse_only_counts_in_one_roll() -> None:
    # "Zählt nur in einem Wurf": a 123 built on a laid-aside one is a simple throw 321.
    assembled = Throw((3, 2, 1), rolls=2, ones_kept=1)
    assert throw_kind(assembled) is ThrowKind.SIMPLE
    assert lid_value(assembled) == 1
    assert throw_kind(Throw((3, 2, 1), rolls=2)) is ThrowKind.STRASSE


def test_fewer_rolls_beat_more_for_the_same_throw() -> None:
    first = Throw((1, 1, 3), rolls=1)
    assert rank_key(first, 5) > rank_key(Throw((1, 1, 3), rolls=2), 0)
    assert rank_key(first, 5) > rank_key(Throw((1, 1, 3), rolls=3), 0)
    # but a better throw in more rolls still beats a worse one in fewer
    assert rank_key(Throw((1, 1, 4), rolls=3), 1) > rank_key(first, 0)


def test_mit_ist_schitt() -> None:
    throw = parse_throw("552", rolls=2)
    assert ranking([throw, throw, throw]) == (0, 1, 2)


@pytest.mark.parametrize("text", ["6 5 2", "6-5-2", "6,5,2", " 652 ", "2/5/6"])
def test_parse_accepts_common_spellings(text: str) -> None:
    assert parse_throw(text) == Throw((2, 5, 6))


@pytest.mark.parametrize("text", ["", "65", "6523", "072", "abc", "6 5 7"])
def test_parse_rejects_nonsense(text: str) -> None:
    with pytest.raises(InvalidThrow):
        parse_throw(text)


@pytest.mark.parametrize(
    ("dice", "rolls", "kept"),
    [
        ((0, 1, 2), 1, 0),
        ((1, 2, 7), 1, 0),
        ((1, 2, 3), 0, 0),
        ((1, 2, 3), 4, 0),
        ((1, 2, 3), 2, 2),  # only one 1 in the throw
        ((1, 1, 1), 3, 3),  # at most two ones are laid aside
        ((1, 1, 2), 1, 1),  # nothing is laid aside before the first roll
        ((2, 3, 4), 2, 1),  # only ones are laid aside
        ((1, 2, 3), 1, -1),
    ],
)
def test_impossible_throws_are_rejected(dice: tuple[int, int, int], rolls: int, kept: int) -> None:
    with pytest.raises(InvalidThrow):
        Throw(dice, rolls=rolls, ones_kept=kept)


def test_throw_from_dice_needs_three_dice() -> None:
    with pytest.raises(InvalidThrow):
        throw_from_dice([1, 2])
    assert throw_from_dice([6, 1, 1], rolls=3) == Throw((1, 1, 6), rolls=3)


def test_ranking_matches_the_hand_written_reference() -> None:
    assert len(REFERENCE_ORDER) == len(ALL_DICE) == 56
    reference = [parse_throw(label) for label in REFERENCE_ORDER]
    shuffled = reference[:]
    random.Random(7).shuffle(shuffled)
    ordered = sorted(shuffled, key=lambda throw: rank_key(throw, 0), reverse=True)
    assert ordered == reference


# --- throws: properties ----------------------------------------------------------------------------------


@given(dice=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)))
def test_dice_are_normalised(dice: tuple[int, int, int]) -> None:
    throw = throw_from_dice(dice)
    assert throw.dice == tuple(sorted(dice))
    assert throw == Throw((dice[2], dice[0], dice[1]))


@given(a=throws(), b=throws(), i=st.integers(0, 10), j=st.integers(0, 10))
def test_kinds_dominate(a: Throw, b: Throw, i: int, j: int) -> None:
    if throw_kind(a) > throw_kind(b):
        assert rank_key(a, i) > rank_key(b, j)


@given(a=throws(), b=throws(), i=st.integers(0, 10), j=st.integers(0, 10))
def test_ranking_is_a_strict_total_order(a: Throw, b: Throw, i: int, j: int) -> None:
    ka, kb = rank_key(a, i), rank_key(b, j)
    if i != j:
        assert ka != kb  # two players' throws never tie
        assert (ka > kb) != (kb > ka)
    if ka == kb:
        assert (a.dice, a.rolls, i) == (b.dice, b.rolls, j)


@given(a=throws(), b=throws(), c=throws())
def test_ranking_is_transitive(a: Throw, b: Throw, c: Throw) -> None:
    ka, kb, kc = rank_key(a, 0), rank_key(b, 1), rank_key(c, 2)
    if ka > kb and kb > kc:
        assert ka > kc


@given(throw=throws(), more=st.integers(1, 2), i=st.integers(0, 10), j=st.integers(0, 10))
def test_fewer_rolls_beat_more_rolls(throw: Throw, more: int, i: int, j: int) -> None:
    if throw.rolls + more > 3:
        return
    slower = Throw(throw.dice, rolls=throw.rolls + more, ones_kept=throw.ones_kept)
    assert rank_key(throw, i) > rank_key(slower, j)


@given(throw=throws(), i=st.integers(0, 10), later=st.integers(1, 10))
def test_earlier_equal_throw_beats_later(throw: Throw, i: int, later: int) -> None:
    assert rank_key(throw, i) > rank_key(throw, i + later)


@given(round_throws=st.lists(throws(), min_size=1, max_size=8))
def test_ranking_is_a_permutation_best_first(round_throws: list[Throw]) -> None:
    order = ranking(round_throws)
    assert sorted(order) == list(range(len(round_throws)))
    keys = [rank_key(round_throws[index], index) for index in order]
    assert keys == sorted(keys, reverse=True)


@given(throw=throws())
def test_lid_values_by_kind(throw: Throw) -> None:
    kind = throw_kind(throw)
    expected = {
        ThrowKind.SIMPLE: 1,
        ThrowKind.STRASSE: 2,
        ThrowKind.GENERAL: 3,
        ThrowKind.SCHOCK: throw.dice[2],
        ThrowKind.SCHOCK_OUT: LIDS_PER_HALF,
    }[kind]
    assert lid_value(throw) == expected
    if kind is ThrowKind.SCHOCK:
        assert 2 <= lid_value(throw) <= 6


# --- a half: examples ------------------------------------------------------------------------------------


def test_stock_phase_moves_lids_from_the_middle() -> None:
    state = HalfState.start(3)
    outcome = play_round(state, [(0, parse_throw("114")), (1, parse_throw("652")), (2, parse_throw("322"))])
    assert (outcome.highest, outcome.receiver, outcome.lids) == (0, 2, 4)
    assert outcome.from_stock == 4 and outcome.from_players == () and outcome.giver is None
    assert outcome.state == HalfState(stock=9, lids=(0, 0, 4))
    assert outcome.half_loser is None and outcome.dropped_out == ()
    assert outcome.next_starter == 2


def test_stock_gives_only_what_is_left() -> None:
    state = HalfState(stock=2, lids=(5, 6, 0))
    outcome = play_round(state, [(2, parse_throw("116")), (0, parse_throw("421")), (1, parse_throw("431"))])
    assert (outcome.receiver, outcome.lids, outcome.from_stock) == (0, 2, 2)
    assert outcome.state == HalfState(stock=0, lids=(7, 6, 0))
    # seat 2 holds no lid once the stock is empty: out of danger for this half
    assert outcome.dropped_out == (2,)
    assert outcome.state.active == (0, 1)


def test_empty_stock_highest_hands_over_own_lids() -> None:
    state = HalfState(stock=0, lids=(4, 7, 2))
    outcome = play_round(state, [(0, parse_throw("555")), (1, parse_throw("653")), (2, parse_throw("421"))])
    assert outcome.giver == 0 and outcome.from_players == ((0, 3),)
    assert outcome.receiver == 2
    assert outcome.state == HalfState(stock=0, lids=(1, 7, 5))


def test_highest_hands_over_at_most_what_it_holds() -> None:
    state = HalfState(stock=0, lids=(2, 11))
    outcome = play_round(state, [(1, parse_throw("532")), (0, parse_throw("116"))])
    assert outcome.lids == 2
    assert outcome.state == HalfState(stock=0, lids=(0, 13))
    assert outcome.half_loser == 1 and outcome.dropped_out == (0,)


@pytest.mark.parametrize("stock", [13, 5, 0])
def test_schock_out_gives_all_lids_to_the_lowest(stock: int) -> None:
    lids = {13: (0, 0, 0), 5: (3, 0, 5), 0: (6, 4, 3)}[stock]
    state = HalfState(stock=stock, lids=lids)
    outcome = play_round(state, {1: parse_throw("111"), 2: parse_throw("222"), 0: parse_throw("321", rolls=3)})
    assert outcome.schock_out and outcome.receiver == 0 and outcome.giver is None
    assert outcome.state == HalfState(stock=0, lids=(13, 0, 0))
    assert outcome.half_loser == 0
    assert outcome.from_stock == stock
    assert outcome.lids == 13 - lids[0]


def test_invalid_rounds() -> None:
    state = HalfState(stock=0, lids=(0, 6, 7))
    throw = parse_throw("642")
    with pytest.raises(InvalidRound):
        play_round(state, [(1, throw)])  # seat 2 missing
    with pytest.raises(InvalidRound):
        play_round(state, [(0, throw), (1, throw), (2, throw)])  # seat 0 is out of danger
    with pytest.raises(InvalidRound):
        play_round(state, [(1, throw), (1, throw), (2, throw)])
    with pytest.raises(InvalidRound):
        play_round(HalfState(stock=0, lids=(0, 13, 0)), [(1, throw)])


@pytest.mark.parametrize(("stock", "lids"), [(13, (0,)), (12, (0, 0)), (-1, (14, 0)), (0, (14, -1)), (13, (1, -1))])
def test_invalid_half_states(stock: int, lids: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        HalfState(stock=stock, lids=lids)


def test_turn_order() -> None:
    state = HalfState(stock=0, lids=(3, 0, 6, 4))
    assert turn_order(state, 2) == (2, 3, 0)
    assert turn_order(HalfState.start(4), 3) == (3, 0, 1, 2)
    with pytest.raises(InvalidRound):
        turn_order(state, 1)


# --- a half: properties ----------------------------------------------------------------------------------


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_half_conserves_lids_and_ends(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = HalfState.start(players)
    order = turn_order(state, rng.randrange(players))
    out_of_danger: set[int] = set()
    for _ in range(1000):
        outcome = play_round(state, [(seat, random_throw(rng)) for seat in order])
        before, state = state, outcome.state
        check_invariants(state)
        assert outcome.receiver != outcome.highest
        assert outcome.lids >= 1
        assert state.lids[outcome.receiver] == before.lids[outcome.receiver] + outcome.lids
        assert outcome.from_stock + sum(count for _, count in outcome.from_players) == outcome.lids
        assert not out_of_danger & set(state.active)  # nobody comes back into a half
        out_of_danger |= set(outcome.dropped_out)
        if state.is_over:
            break
        order = turn_order(state, outcome.next_starter)
    else:
        pytest.fail("a random half did not end within 1000 rounds")
    assert outcome.half_loser == state.loser
    assert state.stock == 0
    assert sorted(state.lids) == [0] * (players - 1) + [LIDS_PER_HALF]
    assert state.active == (state.loser,)


@given(players=st.integers(2, 6), data=st.data())
def test_any_throws_keep_lids_conserved_and_non_negative(players: int, data: st.DataObject) -> None:
    state = HalfState.start(players)
    for _ in range(40):
        if state.is_over:
            break
        order = data.draw(st.permutations(state.active))
        round_throws = [(seat, data.draw(throws())) for seat in order]
        outcome = play_round(state, round_throws)
        top = max(round_throws, key=lambda pair: rank_key(pair[1], round_throws.index(pair)))
        bottom = min(round_throws, key=lambda pair: rank_key(pair[1], round_throws.index(pair)))
        assert (outcome.highest, outcome.receiver) == (top[0], bottom[0])
        if outcome.schock_out:
            assert outcome.state.lids[outcome.receiver] == LIDS_PER_HALF
        elif state.stock > 0:
            assert outcome.lids == min(lid_value(top[1]), state.stock)
        else:
            assert outcome.lids == min(lid_value(top[1]), state.lids[outcome.highest])
        state = outcome.state
        check_invariants(state)
        assert (state.loser is not None) == (LIDS_PER_HALF in state.lids)


# --- the game: GameTracker -------------------------------------------------------------------------------


def test_normal_game_with_decider() -> None:
    game = GameTracker()
    assert game.next_step == "first_half"
    assert Step("first_half") is Step.FIRST_HALF
    game = game.record_half_loser(3)
    assert game.next_step == "second_half" and game.loser is None
    game = game.record_half_loser(1)
    assert game.next_step == "decider" and not game.pitsch_patsch
    assert game.decider_players == (3, 1)  # the first-half loser throws first
    game = game.record_decider_loser(1)
    assert game.next_step == "done" and game.loser == 1


def test_pitsch_patsch() -> None:
    game = GameTracker().record_half_loser(2).record_half_loser(2)
    assert game.pitsch_patsch and game.next_step == "done" and game.loser == 2
    assert game.decider_players is None
    with pytest.raises(InvalidGameStep):
        game.record_decider_loser(2)


def test_sharp_play_is_one_half() -> None:
    game = GameTracker(sharp=True).record_half_loser(4)
    assert game.next_step == "done" and game.loser == 4 and not game.pitsch_patsch
    with pytest.raises(InvalidGameStep):
        game.record_half_loser(4)


def test_tracker_rejects_out_of_step_results() -> None:
    with pytest.raises(InvalidGameStep):
        GameTracker().record_decider_loser(1)
    decider = GameTracker(half_losers=(1, 2))
    with pytest.raises(InvalidGameStep):
        decider.record_half_loser(1)
    with pytest.raises(InvalidGameStep):
        decider.record_decider_loser(3)
    with pytest.raises(InvalidGameStep):
        GameTracker(half_losers=(1, 2, 3))
    with pytest.raises(InvalidGameStep):
        GameTracker(sharp=True, half_losers=(1, 2))
    with pytest.raises(InvalidGameStep):
        GameTracker(half_losers=(1,), decider_loser=1)


def test_tracker_rebuilds_from_stored_results() -> None:
    assert GameTracker(half_losers=(5, 6), decider_loser=5).loser == 5
    assert GameTracker(half_losers=(5, 6), decider_loser=5) == GameTracker().record_half_loser(5).record_half_loser(
        6
    ).record_decider_loser(5)


@given(sharp=st.booleans(), picks=st.lists(st.integers(0, 3), min_size=3, max_size=3))
def test_tracker_properties(sharp: bool, picks: list[int]) -> None:
    game = GameTracker(sharp=sharp)
    steps = 0
    while game.next_step != "done":
        steps += 1
        assert steps <= 3
        assert game.loser is None
        if game.next_step == "decider":
            players = game.decider_players
            assert players is not None
            game = game.record_decider_loser(players[picks[2] % 2])
        else:
            game = game.record_half_loser(picks[len(game.half_losers)])
    assert game.loser is not None
    assert game.loser in game.half_losers
    if sharp:
        assert len(game.half_losers) == 1 and steps == 1
        assert game.loser == game.half_losers[0]
        assert not game.pitsch_patsch
    else:
        assert len(game.half_losers) == 2
        assert game.pitsch_patsch == (game.half_losers[0] == game.half_losers[1])
        if game.pitsch_patsch:
            assert steps == 2 and game.decider_loser is None
        else:
            assert steps == 3 and game.decider_loser == game.loser


@given(players=st.integers(2, 5), sharp=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_whole_game_played_with_random_throws(players: int, sharp: bool, seed: int) -> None:
    rng = random.Random(seed)

    def play_half(seats: tuple[int, ...], starter: int) -> int:
        state = HalfState.start(len(seats))
        order = turn_order(state, starter)
        while True:
            outcome = play_round(state, [(seat, random_throw(rng)) for seat in order])
            state = outcome.state
            if outcome.half_loser is not None:
                return seats[outcome.half_loser]
            order = turn_order(state, outcome.next_starter)

    everyone = tuple(range(players))
    game = GameTracker(sharp=sharp)
    starter = 0
    while game.next_step != "done":
        if game.next_step == "decider":
            pair = game.decider_players
            assert pair is not None
            game = game.record_decider_loser(play_half(pair, 0))
        else:
            loser = play_half(everyone, starter)
            starter = loser
            game = game.record_half_loser(loser)
    assert game.loser in everyone
    assert game.loser in game.half_losers


# --- who begins a game ("Jedes weitere Spiel wird immer vom Verlierer der zuvor gespielten Runde begonnen") ---


def test_the_first_game_keeps_seat_order() -> None:
    assert schocken.game_starter([7, 3, 9], [7, 3, 9], None) == 0
    assert schocken.game_starter([7, 3, 9], [3, 9], None) == 0  # the first seat still in play


def test_the_last_loser_begins_or_the_next_in_seat_order() -> None:
    assert schocken.game_starter([7, 3, 9, 4], [7, 3, 9, 4], 9) == 2
    # 9 went out with that game: 4, next after 9 in seat order, begins (index 2 among 7, 3, 4).
    assert schocken.game_starter([7, 3, 9, 4], [7, 3, 4], 9) == 2
    # 4, the last seat, went out: the order wraps to the first seat still playing.
    assert schocken.game_starter([7, 3, 9, 4], [3, 9], 4) == 0


def test_nobody_in_play_is_refused() -> None:
    with pytest.raises(InvalidGameStep):
        schocken.game_starter([1, 2], [], 1)


@given(
    seats=st.lists(st.integers(1, 99), min_size=2, max_size=5, unique=True),
    data=st.data(),
)
def test_game_starter_properties(seats: list[int], data: st.DataObject) -> None:
    in_play = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    last = data.draw(st.one_of(st.none(), st.sampled_from(seats)))
    order = [player for player in seats if player in in_play]
    index = schocken.game_starter(seats, in_play, last)
    assert 0 <= index < len(order)
    begins = order[index]
    if last is None:
        assert begins == order[0]
    elif last in in_play:
        assert begins == last  # the loser of the game before begins
    else:
        # Nobody still in play sits between the loser (out now) and who begins, in seat order.
        start, end = seats.index(last), seats.index(begins)
        between = [seats[(start + step) % len(seats)] for step in range(1, (end - start) % len(seats))]
        assert not set(between) & set(in_play)
