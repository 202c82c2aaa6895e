"""Properties of the pure knockout format (``tournament.formats.knockout.rules``).

No database: whole tournaments are simulated on the format's snapshots. The
simulation seats every planned round with ``tournament.seating.table_sizes``
(one table for the final), invents table results that follow the rules
(the winner reached the wins needed, places by games won then start number),
picks one of the organiser's options wherever a count does not split, and goes
on until ``plan_next_round`` returns ``Finished``. Every step is checked
against the rules of format A, written out here independently of the code.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.base import FormatError
from tournament.formats.knockout import rules as knockout
from tournament.formats.knockout.rules import (
    FINAL,
    LUCKY_LOSER,
    MAIN,
    Entrant,
    FinalState,
    Finished,
    KnockoutSettings,
    NextRound,
    RoundResult,
    SeatResult,
    TableResult,
    final_state,
    plan_next_round,
    resolve_final_order,
    table_places,
    wins_needed_at,
)
from tournament.seating import SeatingImpossible, table_sizes

pytestmark = pytest.mark.core

DEFAULT = KnockoutSettings()
MORE_CODES = {knockout.ONE_MORE_ADVANCES, knockout.MORE_PLAYERS}
FEWER_CODES = {knockout.ONE_FEWER, knockout.FEWER_PLAYERS}
SMALLER_CODES = {knockout.ONE_SMALLER_TABLE, knockout.SMALLER_TABLE}
LARGER_CODES = {knockout.ONE_LARGER_TABLE, knockout.LARGER_TABLE}

# Picks one of the organiser's options (hypothesis draws it, or a fixed rule).
Chooser = Callable[[tuple[str, ...]], str]


# --------------------------------------------------------------------------
# A whole tournament, purely
# --------------------------------------------------------------------------


@dataclass
class Tournament:
    settings: KnockoutSettings
    entrants: list[Entrant]
    plans: list[NextRound] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)
    finished: Finished | None = None

    @property
    def start(self) -> dict[int, int]:
        return {e.id: e.start_number for e in self.entrants}


def make_entrants(n: int, rng: random.Random) -> list[Entrant]:
    """Ids unrelated to the start numbers (a drawn permutation), in a shuffled order."""
    numbers = list(range(1, n + 1))
    rng.shuffle(numbers)
    entrants = [Entrant(id=1000 + 7 * index, start_number=numbers[index]) for index in range(n)]
    rng.shuffle(entrants)
    return entrants


def seat(plan: NextRound, rules: KnockoutSettings, rng: random.Random) -> list[list[int]]:
    """The planned split (``plan.sizes``: the look-ahead may choose fewer, larger tables than
    ``table_sizes``); the final is one table of every finalist."""
    players = list(plan.players)
    rng.shuffle(players)
    if plan.stage == FINAL:
        assert plan.sizes == (len(players),)
        return [players]
    tables, at = [], 0
    for size in plan.sizes:
        tables.append(players[at : at + size])
        at += size
    return tables


def play_table(
    number: int, ids: list[int], rules: KnockoutSettings, start: dict[int, int], rng: random.Random
) -> TableResult:
    """A decided table: the winner reached the wins needed, the others fewer."""
    needed = wins_needed_at(
        len(ids),
        wins_needed=rules.wins_needed,
        wins_needed_large_table=rules.wins_needed_large_table,
        largest=rules.largest,
    )
    winner = rng.choice(ids)
    wins = {pid: rng.randrange(needed) for pid in ids}
    wins[winner] = needed
    order = table_places(wins, start)
    seats = [SeatResult(player_id=pid, place=place, games_won=wins[pid]) for place, pid in enumerate(order, start=1)]
    rng.shuffle(seats)  # the database hands seats over in seat order, not by place
    return TableResult(number=number, seats=tuple(seats))


def play_final(number: int, ids: list[int], rng: random.Random) -> RoundResult:
    """The final: a random order; sometimes a decided duel table beside it (players 2 and 3 were tied
    on what the final counts: the ranking names the duel as what decided their order)."""
    order = list(ids)
    rng.shuffle(order)
    won = {pid: rng.randrange(6) for pid in order}
    dueled = len(order) >= 3 and rng.random() < 0.5
    if dueled:
        won[order[2]] = won[order[1]]
    seats = [SeatResult(player_id=pid, place=place, games_won=won[pid]) for place, pid in enumerate(order, 1)]
    rng.shuffle(seats)
    tables = [TableResult(number=1, seats=tuple(seats))]
    if dueled:
        duel = (SeatResult(order[1], 1, 9), SeatResult(order[2], 2, 0))
        tables.append(TableResult(number=2, seats=duel, is_duel=True))
    return RoundResult(number=number, stage=FINAL, tables=tuple(tables), final_order=tuple(order))


def round_limit(n: int) -> int:
    return int(2 * math.log2(max(n, 2))) + 6


def simulate(n: int, rng: random.Random, choose: Chooser, rules: KnockoutSettings = DEFAULT) -> Tournament:
    """Play a tournament of ``n`` entrants to its end, checking every step."""
    game = Tournament(settings=rules, entrants=make_entrants(n, rng))
    while True:
        assert len(game.rounds) <= round_limit(n), f"no end after {len(game.rounds)} rounds for {n} players"
        plan = plan_next_round(game.entrants, game.rounds, rules)
        if isinstance(plan, Finished):
            game.finished = plan
            check_ranking(game)
            return game
        if plan.needs_choice:
            plan = choose_option(game, plan, choose)
        check_plan(game, plan)
        game.plans.append(plan)
        number = len(game.rounds) + 1
        tables = seat(plan, rules, rng)
        assert sorted(pid for table in tables for pid in table) == sorted(plan.players)
        if plan.stage == FINAL:
            game.rounds.append(play_final(number, tables[0], rng))
        else:
            results = tuple(play_table(i, ids, rules, game.start, rng) for i, ids in enumerate(tables, start=1))
            game.rounds.append(RoundResult(number=number, stage=plan.stage, tables=results))


def choose_option(game: Tournament, plan: NextRound, choose: Chooser) -> NextRound:
    rules = game.settings
    codes = tuple(option.code for option in plan.options)
    assert codes and len(set(codes)) == len(codes)
    assert not plan.added and not plan.dropped and not plan.choice
    if plan.reason == knockout.NO_SPLIT:  # the reason the options are offered
        with pytest.raises(SeatingImpossible):
            table_sizes(len(plan.players), rules.preferred, rules.largest)
    else:
        assert plan.reason == knockout.FINAL_SIZE
    if not game.rounds:
        assert not set(codes) & (MORE_CODES | FEWER_CODES), "round 1 seats everyone: no one added or dropped"
    elif plan.stage == LUCKY_LOSER:
        assert not set(codes) & (MORE_CODES | {knockout.FINAL_OF_ALL}), "no one moves up into the lucky-loser round"
        assert codes[0] not in FEWER_CODES, "every round-1 loser plays unless the organiser drops some"
    else:
        assert not set(codes) & FEWER_CODES, "a table winner is never dropped"
    code = choose(codes)
    option = next(option for option in plan.options if option.code == code)
    chosen = plan_next_round(game.entrants, game.rounds, rules, code)
    assert isinstance(chosen, NextRound)
    assert not chosen.needs_choice and chosen.choice == code and chosen.option == option
    assert len(chosen.players) == option.params["players"]
    assert chosen.sizes == option.sizes
    assert tuple(sorted(len(t) for t in seat(chosen, rules, random.Random(0)))) == tuple(sorted(option.sizes))
    if code in MORE_CODES:
        assert len(chosen.added) == option.params["extra"]
        assert chosen.players == plan.players + chosen.added
    elif code in FEWER_CODES:
        assert len(chosen.dropped) == option.params["fewer"]
        assert chosen.players + chosen.dropped == plan.players
    elif code == knockout.FINAL_OF_ALL:
        assert chosen.stage == FINAL and chosen.players == plan.players
    else:
        assert chosen.stage == plan.stage and chosen.players == plan.players
        assert (chosen.largest > rules.largest) if code in LARGER_CODES else chosen.largest == rules.largest
    return chosen


def strength_order(seats: Sequence[SeatResult], start: dict[int, int]) -> list[int]:
    """Losers best first across tables, as the rules rank them ("anhand der Spielsiege"):
    games won, then the lower start number (not the place at their table first)."""
    return [s.player_id for s in sorted(seats, key=lambda s: (-s.games_won, start[s.player_id]))]


def check_plan(game: Tournament, plan: NextRound) -> None:
    """The players of the next round are exactly the ones the rules send there."""
    rules, start, rounds = game.settings, game.start, game.rounds
    players = set(plan.players)
    assert len(players) == len(plan.players), "a player seated twice in one round"
    assert players <= set(start)
    if plan.choice in LARGER_CODES:  # one more, or (when nothing else seats everyone) more
        assert plan.largest > rules.largest and max(plan.sizes) > rules.largest
    else:
        assert plan.largest == rules.largest
    if plan.stage != FINAL:
        low = 2 if plan.choice in SMALLER_CODES else rules.preferred
        assert all(low <= size <= plan.largest for size in plan.sizes)
    assert not (set(plan.added) & set(plan.dropped))
    if not rounds:
        assert players == set(start), "round 1 seats everyone"
        assert not plan.added and not plan.dropped
        straight = len(start) == rules.final_size or plan.choice == knockout.FINAL_OF_ALL
        assert plan.stage == (FINAL if straight else MAIN)
        return
    last = rounds[-1]
    winners = [table.winner for table in last.tables]
    losers = [seat for table in last.tables for seat in table.losers]
    if len(rounds) == 1:
        # The lucky-loser round: every round-1 loser, minus the weakest where the organiser dropped some.
        assert plan.stage == LUCKY_LOSER
        assert not plan.added
        assert not plan.dropped or plan.choice in FEWER_CODES, "a loser is dropped only by the organiser's choice"
        ranked = strength_order(losers, start)
        assert players | set(plan.dropped) == set(ranked)
        assert list(plan.players) == ranked[: len(plan.players)]
        assert list(plan.dropped) == ranked[len(plan.players) :]
        return
    advancing = list(winners)
    if last.stage == LUCKY_LOSER:
        advancing = [table.winner for table in rounds[0].tables] + advancing
    assert not plan.dropped, "a table winner is never dropped"
    assert players == set(advancing) | set(plan.added)
    assert list(plan.added) == strength_order(losers, start)[: len(plan.added)], "the best runners-up move up"
    assert not plan.added or plan.choice in MORE_CODES, "a runner-up moves up only by the organiser's choice"
    if len(advancing) == rules.final_size:
        assert plan.stage == FINAL and not plan.added and not plan.choice
    elif plan.stage == FINAL:
        # Another number of winners plays the final only by the organiser's choice (all of
        # them, or with runners-up moved up to the final's size).
        assert plan.choice == knockout.FINAL_OF_ALL or len(plan.players) == rules.final_size
        assert plan.choice
    else:
        assert plan.stage == MAIN


def check_ranking(game: Tournament) -> None:
    assert game.finished is not None
    ranking = game.finished.ranking
    start, n = game.start, len(game.entrants)
    final = game.rounds[-1]
    assert final.stage == FINAL
    assert [r.stage for r in game.rounds].count(FINAL) == 1
    straight = game.rounds[0].stage == FINAL
    assert [r.stage for r in game.rounds].count(LUCKY_LOSER) == (0 if straight else 1)
    finalists = final.final_order
    # "bis zum Schluss drei Teilnehmer das Finale": another final size only by the organiser's choice.
    assert len(finalists) == game.settings.final_size or game.plans[-1].choice == knockout.FINAL_OF_ALL

    assert sorted(e.player_id for e in ranking) == sorted(start), "not a permutation of the entrants"
    assert [e.place for e in ranking] == list(range(1, n + 1))
    assert [e.player_id for e in ranking if e.place == 1] == [finalists[0]], "exactly one champion"
    assert tuple(e.player_id for e in ranking[: len(finalists)]) == finalists, "finalists first, in final order"
    assert [e.final_place for e in ranking[: len(finalists)]] == list(range(1, len(finalists) + 1))
    assert all(e.final_place is None for e in ranking[len(finalists) :])
    # The duel for place 2 (play_final): its winner won it, the other lost it; nobody else dueled.
    duels = {e.player_id: (e.duel_for_place, e.duel_won) for e in ranking if e.duel_for_place is not None}
    if any(table.is_duel for table in final.tables):
        assert duels == {finalists[1]: (2, True), finalists[2]: (2, False)}
    else:
        assert duels == {}
    assert all(e.final_points is None for e in ranking)  # a final to wins counts no points

    # How far each player got (the last round they sat in, duels aside) and their games won there.
    reached: dict[int, tuple[int, str, int]] = {}
    for rnd in game.rounds:
        for table in rnd.tables:
            if not table.is_duel:
                for s in table.seats:
                    reached[s.player_id] = (rnd.number, rnd.stage, s.games_won)
    assert set(reached) == set(start), "someone never played"
    for entry in ranking:
        number, stage, won = reached[entry.player_id]
        assert (entry.reached_round, entry.reached, entry.games_won) == (number, stage, won)
        assert entry.start_number == start[entry.player_id]

    for above, below in itertools.pairwise(ranking):
        a, b = reached[above.player_id], reached[below.player_id]
        if below.final_place is not None:
            dueled = any(
                table.is_duel and {above.player_id, below.player_id} <= {seat.player_id for seat in table.seats}
                for table in final.tables
            )
            assert below.decided_by == (knockout.RULE_DUEL if dueled else knockout.RULE_FINAL_PLACE)
            continue
        assert (-a[0], -a[2], above.start_number) < (-b[0], -b[2], below.start_number), (above, below)
        if a[0] != b[0]:
            expected = knockout.RULE_ROUND_REACHED
        elif a[2] != b[2]:
            expected = knockout.RULE_GAMES_WON
        else:
            expected = knockout.RULE_START_NUMBER
        assert below.decided_by == expected, (above, below)
    assert ranking[0].decided_by == ""
    assert all(e.decided_by for e in ranking[1:]), "only place 1 is decided by nothing"


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


def drawn_choice(data: st.DataObject) -> Chooser:
    return lambda codes: data.draw(st.sampled_from(codes), label="choice")


@settings(max_examples=300, deadline=None)
@given(n=st.integers(min_value=2, max_value=400), seed=st.integers(0, 2**32), data=st.data())
def test_any_field_plays_to_one_champion(n: int, seed: int, data: st.DataObject) -> None:
    simulate(n, random.Random(seed), drawn_choice(data))


@pytest.mark.parametrize("pick", ["first", "last"])
def test_every_field_up_to_200(pick: str) -> None:
    """Deterministic sweep over every field size with both ends of the options."""
    choose: Chooser = (lambda codes: codes[0]) if pick == "first" else (lambda codes: codes[-1])
    for n in range(2, 201):
        for seed in range(3):
            simulate(n, random.Random(n * 1000 + seed), choose)


@st.composite
def knockout_settings(draw: st.DrawFn) -> KnockoutSettings:
    """Settings within the form's bounds (table sizes 2-8, largest >= preferred,
    final_size 2-8 but at most the largest table size, wins 1-20)."""
    preferred = draw(st.integers(2, 8))
    largest = draw(st.integers(preferred, 8))
    return KnockoutSettings(
        preferred=preferred,
        largest=largest,
        final_size=draw(st.integers(2, largest)),
        wins_needed=draw(st.integers(1, 20)),
        wins_needed_large_table=draw(st.integers(1, 20)),
        points_target=draw(st.integers(1, 1000)),
    )


@settings(max_examples=300, deadline=None)
@given(rules=knockout_settings(), n=st.integers(min_value=2, max_value=200), seed=st.integers(0, 2**32), data=st.data())
def test_any_settings_play_to_one_champion(rules: KnockoutSettings, n: int, seed: int, data: st.DataObject) -> None:
    """Every field plays to its end: where round 1 does not split (e.g. 7 players at tables of
    exactly 2) the organiser may seat everyone at larger (or smaller) tables or, for a field of
    at most one more than the largest table, play the final at once."""
    simulate(n, random.Random(seed), drawn_choice(data), rules)


@pytest.mark.parametrize(
    ("n", "first", "last"),
    [
        (2, 1, 1),
        (3, 1, 1),
        (4, 3, 3),  # asked: round 1 at one table, the lucky-loser round and a runner-up up; or two tables of 2
        (5, 3, 1),  # the last option: all five play the final
        (6, 3, 3),
        (7, 3, 3),
        (12, 4, 4),
        (27, 4, 4),
        (50, 5, 5),
        (200, 6, 6),
        (400, 6, 6),
    ],
)
def test_number_of_rounds(n: int, first: int, last: int) -> None:
    """A field of the final's size plays the final at once; otherwise round 1, the lucky-loser
    round, main rounds and the final, far below the generous bound above. ``first`` and
    ``last``: the rounds played when the organiser takes the first or the last option."""
    for seed in range(3):
        for pick, rounds in ((0, first), (-1, last)):
            assert len(simulate(n, random.Random(seed), lambda codes, pick=pick: codes[pick]).rounds) == rounds


def test_too_few_players() -> None:
    with pytest.raises(FormatError) as caught:
        plan_next_round([Entrant(id=1, start_number=1)], [], DEFAULT)
    assert caught.value.code == "too_few_players"


def test_five_players_need_the_organisers_choice() -> None:
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 6)]
    plan = plan_next_round(entrants, [], DEFAULT)
    assert isinstance(plan, NextRound) and plan.needs_choice
    # Tables of 3 and 2 lead to three finalists (2 winners and the lucky-loser table's
    # winner); a final of five now is the other choice. One table of five (a runner-up moving up
    # later) departs as much and is not offered, but is still planned by its code.
    assert [o.code for o in plan.options] == [knockout.ONE_SMALLER_TABLE, knockout.FINAL_OF_ALL]
    chosen = plan_next_round(entrants, [], DEFAULT, knockout.ONE_LARGER_TABLE)
    assert isinstance(chosen, NextRound)
    assert (chosen.stage, chosen.players, chosen.largest, chosen.sizes) == (MAIN, (1, 2, 3, 4, 5), 5, (5,))
    smaller = plan_next_round(entrants, [], DEFAULT, knockout.ONE_SMALLER_TABLE)
    assert isinstance(smaller, NextRound) and smaller.sizes == (3, 2) and smaller.largest == 4


def test_an_unknown_choice_still_asks() -> None:
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 6)]
    plan = plan_next_round(entrants, [], DEFAULT, "whatever")
    assert isinstance(plan, NextRound) and plan.needs_choice and not plan.choice


# --------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------


class TestWinsNeeded:
    @pytest.mark.parametrize(
        ("size", "expected"),
        [(2, 3), (3, 3), (4, 2), (5, 2)],  # 5: a table one larger than allowed, by the organiser's choice
    )
    def test_championship(self, size: int, expected: int) -> None:
        assert wins_needed_at(size, wins_needed=3, wins_needed_large_table=2, largest=4) == expected

    def test_all_tables_of_one_size(self) -> None:
        # Largest == preferred == 3: every table is "the largest"; the large-table rule applies.
        assert wins_needed_at(3, wins_needed=3, wins_needed_large_table=2, largest=3) == 2

    def test_tables_of_two_keep_the_normal_count(self) -> None:
        assert wins_needed_at(2, wins_needed=3, wins_needed_large_table=2, largest=2) == 3

    @pytest.mark.parametrize("size", [0, 1, -3])
    def test_too_small(self, size: int) -> None:
        with pytest.raises(FormatError) as caught:
            wins_needed_at(size, wins_needed=3, wins_needed_large_table=2, largest=4)
        assert caught.value.code == "table_too_small"


class TestTablePlaces:
    def test_games_won_then_lower_start_number(self) -> None:
        wins = {10: 1, 11: 3, 12: 1, 13: 0}
        start = {10: 7, 11: 9, 12: 2, 13: 1}
        assert table_places(wins, start) == [11, 12, 10, 13]

    def test_ties_everywhere(self) -> None:
        assert table_places({1: 0, 2: 0, 3: 0}, {1: 3, 2: 1, 3: 2}) == [2, 3, 1]

    @given(st.dictionaries(st.integers(1, 50), st.integers(0, 5), min_size=2, max_size=5), st.randoms())
    def test_is_a_sorted_permutation(self, wins: dict[int, int], rnd: random.Random) -> None:
        numbers = list(range(1, len(wins) + 1))
        rnd.shuffle(numbers)
        start = dict(zip(wins, numbers, strict=True))
        order = table_places(wins, start)
        assert sorted(order) == sorted(wins)
        keys = [(-wins[p], start[p]) for p in order]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)

    def test_table_winner(self) -> None:
        assert knockout.table_winner({1: 2, 2: 3}, 3) == 2
        assert knockout.table_winner({1: 2, 2: 2}, 3) is None


class TestFinalState:
    START = {1: 4, 2: 3, 3: 2, 4: 1}

    def test_not_decided_below_target(self) -> None:
        assert final_state({1: 499, 2: 300, 3: 0}, 500, self.START) == FinalState(winner=None)

    def test_decided_at_target_exactly(self) -> None:
        state = final_state({1: 120, 2: 500, 3: 30}, 500, self.START)
        assert state == FinalState(winner=2, order=(2, 1, 3), ties=())

    def test_tie_grouped_lower_start_number_first(self) -> None:
        state = final_state({1: 80, 2: 80, 3: 520}, 500, self.START)
        assert state.winner == 3
        assert state.order == (3, 2, 1)  # 2 has the lower start number
        assert state.ties == ((2, 1),)

    def test_two_tie_groups(self) -> None:
        state = final_state({1: 10, 2: 10, 3: 40, 4: 40, 5: 600}, 500, {**self.START, 5: 5})
        assert state.order == (5, 4, 3, 2, 1)
        assert state.ties == ((4, 3), (2, 1))

    def test_three_way_tie(self) -> None:
        state = final_state({1: 0, 2: 0, 3: 0, 4: 505}, 500, self.START)
        assert state.order == (4, 3, 2, 1) and state.ties == ((3, 2, 1),)

    def test_everyone_else_scoreless_is_a_tie(self) -> None:
        state = final_state({1: 500, 2: 0}, 500, self.START)
        assert state.ties == () and state.order == (1, 2)

    def test_target_must_be_positive(self) -> None:
        with pytest.raises(FormatError) as caught:
            final_state({1: 0, 2: 0}, 0, self.START)
        assert caught.value.code == "points_target_too_small"

    @given(
        points=st.lists(st.integers(0, 700), min_size=2, max_size=6),
        target=st.integers(1, 600),
    )
    def test_properties(self, points: list[int], target: int) -> None:
        ids = list(range(1, len(points) + 1))
        score = dict(zip(ids, points, strict=True))
        start = {pid: len(ids) + 1 - pid for pid in ids}
        state = final_state(score, target, start)
        if max(points) < target:
            assert state == FinalState(winner=None)
            return
        assert state.winner is not None and score[state.winner] == max(points)
        assert state.order[0] == state.winner and sorted(state.order) == ids
        others = state.order[1:]
        assert [score[p] for p in others] == sorted((score[p] for p in others), reverse=True)
        grouped = [p for group in state.ties for p in group]
        assert len(grouped) == len(set(grouped))
        for group in state.ties:
            assert len(group) > 1 and len({score[p] for p in group}) == 1
            first = others.index(group[0])
            assert others[first : first + len(group)] == group, "a tie group is consecutive in the order"
        tied_points = {score[p] for p in others if sum(score[q] == score[p] for q in others) > 1}
        assert {score[g[0]] for g in state.ties} == tied_points


class TestResolveFinalOrder:
    def test_no_ties(self) -> None:
        assert resolve_final_order(FinalState(winner=1, order=(1, 2, 3)), []) == (1, 2, 3)

    def test_duel_order_replaces_the_group(self) -> None:
        state = FinalState(winner=5, order=(5, 4, 3, 2, 1), ties=((4, 3), (2, 1)))
        assert resolve_final_order(state, [[3, 4], [2, 1]]) == (5, 3, 4, 2, 1)

    def test_three_way_duel(self) -> None:
        state = FinalState(winner=4, order=(4, 3, 2, 1), ties=((3, 2, 1),))
        assert resolve_final_order(state, [(1, 3, 2)]) == (4, 1, 3, 2)

    def test_duel_with_other_players_refused(self) -> None:
        state = FinalState(winner=3, order=(3, 2, 1), ties=((2, 1),))
        with pytest.raises(FormatError) as caught:
            resolve_final_order(state, [[2, 3]])
        assert caught.value.code == "duel_players_mismatch"

    def test_a_duel_per_tie(self) -> None:
        state = FinalState(winner=3, order=(3, 2, 1), ties=((2, 1),))
        with pytest.raises(ValueError, match="zip"):
            resolve_final_order(state, [])


class TestRankingOfTheFinal:
    """What the ranking says of the finalists: the final's points (a final to points) and the duel
    that decided a tie, the last one a finalist played (``rank_players``, ``final_duels``)."""

    @staticmethod
    def final(
        points: dict[int, int], order: tuple[int, ...], duels: Sequence[tuple[int | None, dict[int, int]]]
    ) -> list[knockout.RankEntry]:
        """Players 1..4 straight in a final to 100 points with ``points``; ``duels``: (its place or None,
        {player: place at the duel, 0 while it plays}); ``order`` the final's order."""
        seats = tuple(SeatResult(pid, order.index(pid) + 1, 1, points[pid]) for pid in points)
        tables = [TableResult(number=1, seats=seats, points_target=100)]
        for number, (place, players) in enumerate(duels, start=2):
            duel_seats = tuple(SeatResult(pid, at, 1 if at == 1 else 0) for pid, at in players.items())
            tables.append(TableResult(number=number, seats=duel_seats, is_duel=True, duel_for_place=place))
        entrants = [Entrant(id=pid, start_number=pid) for pid in points]
        final = RoundResult(number=1, stage=FINAL, tables=tuple(tables), final_order=order)
        return knockout.rank_players(entrants, [final])

    def test_points_and_no_duel(self) -> None:
        ranking = self.final({1: 120, 2: 40, 3: 30}, (1, 2, 3), [])
        assert [(e.player_id, e.final_points, e.duel_for_place) for e in ranking] == [
            (1, 120, None),
            (2, 40, None),
            (3, 30, None),
        ]
        assert [e.decided_by for e in ranking] == ["", knockout.RULE_FINAL_PLACE, knockout.RULE_FINAL_PLACE]

    def test_a_three_way_tie_decided_by_two_duels(self) -> None:
        # 2, 3 and 4 tied on 30: 3 wins the duel for place 2; then 4 beats 2 in the duel for place 3.
        duels = [(2, {2: 2, 3: 1, 4: 3}), (3, {2: 2, 4: 1})]
        ranking = self.final({1: 110, 2: 30, 3: 30, 4: 30}, (1, 3, 4, 2), duels)
        assert [(e.player_id, e.duel_for_place, e.duel_won) for e in ranking] == [
            (1, None, None),
            (3, 2, True),
            (4, 3, True),
            (2, 3, False),
        ]
        duel, place = knockout.RULE_DUEL, knockout.RULE_FINAL_PLACE
        assert [e.decided_by for e in ranking] == ["", place, duel, duel]

    def test_a_duel_still_playing_and_a_duel_without_its_place(self) -> None:
        playing = self.final({1: 110, 2: 30, 3: 30}, (1, 2, 3), [(2, {2: 0, 3: 0})])
        assert [(e.duel_for_place, e.duel_won) for e in playing] == [(None, None), (2, None), (2, None)]
        unplaced = self.final({1: 110, 2: 30, 3: 30}, (1, 3, 2), [(None, {2: 2, 3: 1})])
        assert [(e.duel_for_place, e.duel_won) for e in unplaced] == [(None, None), (2, True), (2, False)]

    def test_a_duel_between_players_no_longer_tied_decides_nothing(self) -> None:
        # The final was corrected after the duel: 2 and 3 are no longer tied; the duel stays, with its games.
        ranking = self.final({1: 110, 2: 50, 3: 30}, (1, 2, 3), [(2, {2: 2, 3: 1})])
        assert [(e.duel_for_place, e.duel_won) for e in ranking] == [(None, None)] * 3
        assert [e.decided_by for e in ranking] == ["", knockout.RULE_FINAL_PLACE, knockout.RULE_FINAL_PLACE]
