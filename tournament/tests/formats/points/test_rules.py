"""Properties of the points format's scoring and standings, pure (no database).

``games.rules.uno`` prices hands with a scoring table; ``tournament.formats.points.rules``
turns hands into a game's penalty points (the winner takes 0) and games into
standings: total ascending, then games won (more is better), then the lowest
single-round total (the default criteria), each row naming the rule that decided
its place; players still tied share a place (on the podium: until a play-off),
never split by the start number. The rules are written out here independently of the
code (``reference_key``) and compared with it on random tournaments.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import uno
from games.rules.uno import (
    ACTION_CARDS,
    CARD_KINDS,
    HOUSE_RULES_SCORING,
    NUMBER_CARDS,
    SCORING_PRESETS,
    STANDARD_SCORING,
    InvalidScoringTable,
    card_value,
    hand_points,
    validate_scoring_table,
)
from tournament.formats.base import FormatError
from tournament.formats.points import rules as points
from tournament.formats.points.rules import (
    RULE_BEST_ROUND,
    RULE_GAMES_WON,
    RULE_PLAYOFF_DUE,
    RULE_SHARED,
    RULE_TOTAL,
    GameResult,
    game_penalties,
    met_pairs,
    standings,
    table_decided,
)

pytestmark = pytest.mark.core

# --------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------

VALUES = st.integers(min_value=0, max_value=500)
SCORING_TABLES = st.fixed_dictionaries(dict.fromkeys(ACTION_CARDS, VALUES)) | st.sampled_from(
    [dict(table) for table in SCORING_PRESETS.values()]
)
HANDS = st.dictionaries(st.sampled_from(CARD_KINDS), st.integers(min_value=0, max_value=12), max_size=len(CARD_KINDS))


@st.composite
def tables_and_hands(draw: st.DrawFn) -> tuple[list[int], int, dict[int, dict[str, int]]]:
    """A table of 2-4 player ids, its winner, and a hand for each other player."""
    players = draw(st.lists(st.integers(min_value=1, max_value=10_000), min_size=2, max_size=4, unique=True))
    winner = draw(st.sampled_from(players))
    hands = {pid: draw(HANDS) for pid in players if pid != winner}
    return players, winner, hands


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[dict[int, int], list[GameResult]]:
    """Players with distinct start numbers and the games of up to 4 rounds at
    tables of 3-4 (plus games of players not in the field: ignored)."""
    count = draw(st.integers(min_value=1, max_value=14))
    ids = draw(st.lists(st.integers(min_value=1, max_value=10**6), min_size=count, max_size=count, unique=True))
    numbers = draw(st.permutations(range(1, count + 1)))
    start = dict(zip(ids, numbers, strict=True))
    games: list[GameResult] = []
    # Small point values make ties on the total (and further down) common.
    small = st.integers(min_value=0, max_value=6) | st.integers(min_value=0, max_value=200)
    for round_number in range(1, draw(st.integers(min_value=0, max_value=4)) + 1):
        pool = draw(st.permutations([*ids, -1, -2]))  # -1, -2: players not in the standings
        for first in range(0, len(pool) - 2, 4):
            table = pool[first : first + draw(st.integers(min_value=3, max_value=4))]
            if len(table) < 3:
                continue
            for _game in range(draw(st.integers(min_value=0, max_value=3))):
                winner = draw(st.sampled_from(table))
                cards = {pid: draw(small) for pid in table if pid != winner}
                games.append(GameResult(round_number, winner, game_penalties(winner, cards)))
    return start, games


# --------------------------------------------------------------------------
# References
# --------------------------------------------------------------------------


def reference_points(hand: Mapping[str, int], scoring: Mapping[str, int]) -> int:
    """Number cards count their face value, action cards their table value."""
    return sum(count * (int(kind) if kind.isdigit() else scoring[kind]) for kind, count in hand.items())


def reference_tallies(
    start: Mapping[int, int], games: list[GameResult]
) -> tuple[dict[int, int], dict[int, int], dict[int, dict[int, int]], dict[int, int]]:
    """Totals, games won, per-round totals and games played, summed game by game."""
    totals = dict.fromkeys(start, 0)
    won = dict.fromkeys(start, 0)
    played = dict.fromkeys(start, 0)
    rounds: dict[int, dict[int, int]] = {pid: {} for pid in start}
    for game in games:
        if game.winner in won:
            won[game.winner] += 1
        for pid, value in game.points.items():
            if pid in totals:
                totals[pid] += value
                played[pid] += 1
                rounds[pid][game.round_number] = rounds[pid].get(game.round_number, 0) + value
    return totals, won, rounds, played


def reference_key(
    pid: int,
    start: Mapping[int, int],
    totals: Mapping[int, int],
    won: Mapping[int, int],
    rounds: Mapping[int, Mapping[int, int]],
    played: Mapping[int, int],
) -> tuple[tuple[str, object], ...]:
    """The ranking rules in order as (rule, value), smaller is better.

    A player without a game has no total yet and comes after everyone who played.
    """
    best = min(rounds[pid].values()) if rounds[pid] else math.inf  # no round played: worst
    return (
        (RULE_TOTAL, (played[pid] == 0, totals[pid])),
        (RULE_GAMES_WON, -won[pid]),
        (RULE_BEST_ROUND, best),
    )


# --------------------------------------------------------------------------
# Hands and scoring tables
# --------------------------------------------------------------------------


def test_presets_price_the_wild_draw_four() -> None:
    assert STANDARD_SCORING == {"draw_two": 20, "reverse": 20, "skip": 20, "wild": 50, "wild_draw_four": 50}
    assert HOUSE_RULES_SCORING["wild_draw_four"] == 70
    assert {k: v for k, v in HOUSE_RULES_SCORING.items() if k != "wild_draw_four"} == {
        k: v for k, v in STANDARD_SCORING.items() if k != "wild_draw_four"
    }
    assert SCORING_PRESETS["standard"]["wild_draw_four"] == 50
    assert SCORING_PRESETS["house_rules"]["wild_draw_four"] == 70
    for table in SCORING_PRESETS.values():
        assert validate_scoring_table(table) == dict(table)
    hand = {"wild_draw_four": 2, "7": 1}
    assert hand_points(hand, SCORING_PRESETS["standard"]) == 107
    assert hand_points(hand, SCORING_PRESETS["house_rules"]) == 147


@given(hand=HANDS, scoring=SCORING_TABLES)
def test_hand_points_never_negative_and_priced_by_the_table(hand: dict[str, int], scoring: dict[str, int]) -> None:
    value = hand_points(hand, scoring)
    assert value >= 0
    assert value == reference_points(hand, scoring)
    # The empty hand (the winner's) is worth nothing; one more card never lowers the value.
    assert hand_points({}, scoring) == 0
    for kind in CARD_KINDS:
        more = {**hand, kind: hand.get(kind, 0) + 1}
        assert hand_points(more, scoring) == value + card_value(kind, scoring)


@given(hand=HANDS, drawn=HANDS, scoring=SCORING_TABLES)
def test_cards_drawn_from_a_last_plus_two_or_four_add_up(
    hand: dict[str, int], drawn: dict[str, int], scoring: dict[str, int]
) -> None:
    """A +2 / +4 played as the last card: the cards drawn count like the hand."""
    together = {kind: hand.get(kind, 0) + drawn.get(kind, 0) for kind in set(hand) | set(drawn)}
    assert hand_points(together, scoring) == hand_points(hand, scoring) + hand_points(drawn, scoring)


def test_card_values() -> None:
    for kind in NUMBER_CARDS:
        assert card_value(kind, STANDARD_SCORING) == int(kind)
    assert [card_value(kind, HOUSE_RULES_SCORING) for kind in ACTION_CARDS] == [20, 20, 20, 50, 70]
    with pytest.raises(KeyError):
        card_value("joker", STANDARD_SCORING)
    with pytest.raises(KeyError):
        hand_points({"joker": 1}, STANDARD_SCORING)
    with pytest.raises(ValueError, match="negative count"):
        hand_points({"7": -1}, STANDARD_SCORING)


@given(scoring=st.fixed_dictionaries(dict.fromkeys(ACTION_CARDS, VALUES)))
def test_valid_scoring_table_returns_a_clean_copy(scoring: dict[str, int]) -> None:
    clean = validate_scoring_table(scoring)
    assert clean == scoring
    assert clean is not scoring
    assert list(clean) == list(ACTION_CARDS)


@settings(max_examples=200)
@given(
    scoring=st.fixed_dictionaries(dict.fromkeys(ACTION_CARDS, VALUES)),
    kind=st.sampled_from(ACTION_CARDS),
    how=st.sampled_from(["missing", "negative", "none", "text", "float", "bool"]),
    negative=st.integers(max_value=-1),
)
def test_scoring_table_with_a_bad_value_is_rejected(
    scoring: dict[str, object], kind: str, how: str, negative: int
) -> None:
    bad: dict[str, object] = dict(scoring)
    if how == "missing":
        del bad[kind]
    else:
        bad[kind] = {"negative": negative, "none": None, "text": "20", "float": 20.0, "bool": True}[how]
    with pytest.raises(InvalidScoringTable):
        validate_scoring_table(bad)


@given(
    scoring=st.fixed_dictionaries(dict.fromkeys(ACTION_CARDS, VALUES)),
    unknown=st.text(min_size=1, max_size=12).filter(lambda key: key not in ACTION_CARDS),
    value=VALUES,
)
def test_scoring_table_with_an_unknown_key_is_rejected(scoring: dict[str, int], unknown: str, value: int) -> None:
    with pytest.raises(InvalidScoringTable):
        validate_scoring_table({**scoring, unknown: value})


def test_scoring_table_rejects_number_cards_and_empty_tables() -> None:
    with pytest.raises(InvalidScoringTable):
        validate_scoring_table({})
    with pytest.raises(InvalidScoringTable):
        validate_scoring_table({**STANDARD_SCORING, "7": 7})  # number cards always count face value
    with pytest.raises(InvalidScoringTable, match="wild_draw_four"):
        validate_scoring_table({**STANDARD_SCORING, "wild_draw_four": -1})
    assert issubclass(InvalidScoringTable, ValueError)
    assert uno.RULES.slug == "uno"


# --------------------------------------------------------------------------
# A game's penalty points
# --------------------------------------------------------------------------


@given(table=tables_and_hands(), scoring=SCORING_TABLES)
def test_game_winner_scores_zero_and_everyone_else_their_cards(
    table: tuple[list[int], int, dict[int, dict[str, int]]], scoring: dict[str, int]
) -> None:
    players, winner, hands = table
    cards = {pid: hand_points(hand, scoring) for pid, hand in hands.items()}
    penalties = game_penalties(winner, cards)
    assert set(penalties) == set(players)
    assert penalties[winner] == 0
    assert all(value >= 0 for value in penalties.values())
    for pid in players:
        if pid != winner:
            assert penalties[pid] == reference_points(hands[pid], scoring)


@given(table=tables_and_hands(), typed=VALUES)
def test_cards_typed_for_the_winner_are_ignored(table: tuple[list[int], int, dict[int, object]], typed: int) -> None:
    players, winner, _hands = table
    cards = dict.fromkeys(players, 5)
    cards[winner] = typed
    penalties = game_penalties(winner, cards)
    assert penalties[winner] == 0
    assert sum(penalties.values()) == 5 * (len(players) - 1)


def test_negative_card_points_rejected() -> None:
    with pytest.raises(FormatError) as caught:
        game_penalties(1, {2: 10, 3: -1})
    assert caught.value.code == "negative_points"


# --------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------


@settings(max_examples=300)
@given(field=tournaments())
def test_standings_follow_the_rules(field: tuple[dict[int, int], list[GameResult]]) -> None:
    start, games = field
    rows = standings(start, games)
    totals, won, rounds, played = reference_tallies(start, games)

    # A permutation of the field.
    assert sorted(row.player_id for row in rows) == sorted(start)

    for row in rows:
        pid = row.player_id
        # Totals are the sum of the player's game points, also round by round.
        assert row.total == totals[pid] == sum(value for _number, value in row.round_totals)
        assert row.total >= 0
        assert row.games_won == won[pid]
        assert row.games_played == played[pid]
        assert dict(row.round_totals) == rounds[pid]
        assert row.best_round == (min(rounds[pid].values()) if rounds[pid] else None)

    keys = [reference_key(row.player_id, start, totals, won, rounds, played) for row in rows]
    values = [tuple(value for _rule, value in key) for key in keys]
    # Ordered by the rules; only the rows of one shared place by the start number.
    assert [(value, start[row.player_id]) for value, row in zip(values, rows, strict=True)] == sorted(
        (value, start[row.player_id]) for value, row in zip(values, rows, strict=True)
    )
    for index, row in enumerate(rows):
        # The place: one more than the players strictly ahead (4, 4, 6).
        assert row.place == 1 + sum(1 for value in values if value < values[index])
        tied = values.count(values[index]) > 1
        if tied:
            # A tie on the podium waits for its play-off; elsewhere the place is shared.
            due = row.place <= points.PODIUM and played[row.player_id] > 0
            assert row.decided_by == (RULE_PLAYOFF_DUE if due else RULE_SHARED)
        elif index == 0:
            assert row.decided_by == ""
        else:
            first_difference = next(
                rule for (rule, a), (_r, b) in zip(keys[index - 1], keys[index], strict=True) if a != b
            )
            assert row.decided_by == first_difference


@given(field=tournaments())
def test_sum_of_standings_is_the_sum_of_all_games(field: tuple[dict[int, int], list[GameResult]]) -> None:
    start, games = field
    rows = standings(start, games)
    in_field = sum(value for game in games for pid, value in game.points.items() if pid in start)
    assert sum(row.total for row in rows) == in_field
    assert sum(row.games_won for row in rows) == sum(1 for game in games if game.winner in start)


@given(field=tournaments(), order=st.randoms(use_true_random=False))
def test_the_standings_of_summed_games_in_any_order_are_the_standings(
    field: tuple[dict[int, int], list[GameResult]], order: random.Random
) -> None:
    """The database sums a player's games per round (``reads.round_totals``) and returns the sums
    in no particular order: the standings of the sums are those of the games."""
    start, games = field
    summed = points.round_totals(games)
    assert len({(row.player_id, row.round_number) for row in summed}) == len(summed)  # each once
    assert sum(row.games for row in summed) == sum(len(game.points) for game in games)
    assert sum(row.won for row in summed) == len(games)
    order.shuffle(summed)
    assert points.standings_of_totals(start, summed) == standings(start, games)
    # As plain rows (what the database gives) too.
    assert points.standings_of_totals(start, [tuple(row) for row in summed]) == standings(start, games)


def test_each_tie_break_named() -> None:
    start = {1: 4, 2: 3, 3: 2, 4: 1, 5: 5}
    games = [
        # Round 1: 1 and 2 tie on 10 points; 1 won a game, 2 did not.
        GameResult(1, 1, {1: 0, 2: 5, 3: 5, 4: 3}),
        GameResult(1, 3, {1: 10, 2: 5, 3: 0, 4: 7}),
        # Round 2: 3 and 4 tie on the total and games won; 4's best round is lower.
        GameResult(2, 4, {3: 5, 4: 0, 5: 40}),
        GameResult(2, 3, {3: 0, 4: 5, 5: 40}),
    ]
    rows = standings(start, games)
    by_player = {row.player_id: row for row in rows}
    assert {pid: row.total for pid, row in by_player.items()} == {1: 10, 2: 10, 3: 10, 4: 15, 5: 80}
    order = [row.player_id for row in rows]
    # 3 won two games, 1 one, 2 none: all on 10 points.
    assert order == [3, 1, 2, 4, 5]
    assert [row.decided_by for row in rows] == ["", RULE_GAMES_WON, RULE_GAMES_WON, RULE_TOTAL, RULE_TOTAL]


def test_best_round_breaks_ties_and_the_start_number_never_does() -> None:
    start = {10: 2, 20: 1, 30: 3, 40: 4}
    games = [
        GameResult(1, 10, {10: 0, 20: 8, 30: 2}),
        GameResult(2, 20, {10: 8, 20: 0, 30: 6}),
        GameResult(1, 40, {40: 0, 30: 0}),
        GameResult(2, 30, {40: 10, 30: 0}),
    ]
    # 10: total 8, won 1, rounds {1: 0, 2: 8}, best 0; 20: total 8, won 1, best 0;
    # 30: total 8, won 1, rounds {1: 2, 2: 6}, best 2; 40: total 10.
    rows = standings(start, games)
    # 10 and 20 tie on first place: listed by start number, but both on place 1 until a play-off.
    assert [(row.place, row.player_id) for row in rows] == [(1, 20), (1, 10), (3, 30), (4, 40)]
    assert [row.decided_by for row in rows] == [RULE_PLAYOFF_DUE, RULE_PLAYOFF_DUE, RULE_BEST_ROUND, RULE_TOTAL]


def test_player_without_games_ranks_last() -> None:
    """A late arrival with no game yet does not lead the standings with 0 points."""
    rows = standings({1: 2, 2: 1, 3: 3}, [GameResult(1, 3, {3: 0, 1: 7, 9: 12})])
    assert [(row.player_id, row.total, row.games_played, row.best_round) for row in rows] == [
        (3, 0, 1, 0),
        (1, 7, 1, 7),
        (2, 0, 0, None),
    ]
    assert [row.decided_by for row in rows] == ["", RULE_TOTAL, RULE_TOTAL]
    assert standings({}, []) == []


def test_table_decided_and_met_pairs() -> None:
    assert not table_decided(2, 3)
    assert table_decided(3, 3)
    assert table_decided(4, 3)
    met = met_pairs([[[1, 2, 3], [4, 5, 6]], [[1, 2, 4], [3, 5, 6]]])
    assert met[frozenset((1, 2))] == 2
    assert met[frozenset((5, 6))] == 2
    assert met[frozenset((1, 4))] == 1
    assert frozenset((1, 5)) not in met
    assert sum(met.values()) == 12
    assert points.SPEC.slug == "points" and points.SPEC.min_players == 3


def test_short_table_counts_count_the_minority_size_of_each_round() -> None:
    """Round 1: a table of 4 among tables of 3 (the 4 is short: fewer seats); round 2: all tables of 3."""
    rounds = [[[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]], [[1, 5, 8], [2, 6, 9], [3, 7, 10]]]
    assert points.short_table_counts(rounds, preferred=3) == {1: 1, 2: 1, 3: 1, 4: 1}
    assert points.short_table_counts([], preferred=3) == {}


@given(st.integers(7, 60), st.integers(2, 6), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_the_short_tables_rotate_over_the_rounds(players: int, rounds: int, seed: int) -> None:
    """Nobody sits at a short table a second time before everyone has once: after each round
    the short-table counts of all players differ by at most 1."""
    from tournament.seating import seat_avoiding_repeats

    history: list[list[list[int]]] = []
    for number in range(rounds):
        plan = seat_avoiding_repeats(
            list(range(players)),
            seed + number,
            points.met_pairs(history),
            short_table_history=points.short_table_counts(history, 3),
        )
        history.append([list(table) for table in plan.tables])
        counts = points.short_table_counts(history, 3)
        if counts:
            values = [counts.get(pid, 0) for pid in range(players)]
            assert max(values) - min(values) <= 1, (number, values)
