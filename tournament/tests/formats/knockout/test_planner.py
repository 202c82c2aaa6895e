"""The knockout planner to the letter of the rules (issue 12, items 1-4). Pure, no database.

The underwater championship (``/work/shared/rules/uno-underwater-championship.de.txt``):

- "Alle Verlierer der ersten Runde haben in der Lucky-Loser-Runde die Möglichkeit noch
  einmal aufzusteigen": every round-1 loser is seated in the lucky-loser round.
- "Danach steigen immer nur die Sieger auf, bis zum Schluss drei Teilnehmer das Finale
  ... bestreiten": only table winners advance, until three (``final_size``) play the final.
- Losers are ranked "anhand der Spielsiege. Bei Gleichstand gilt die niedrigere
  Startnummer als Vorzug": by games won, then the lower start number, across tables too.

Whole tournaments are played through ``plan_next_round`` with random table results; where
the planner asks, the first option is taken (as the dry run does). The planner must reach a
final of exactly ``final_size`` whenever some plain plan reaches it (computed here
independently), must seat every round-1 loser unless the organiser chose otherwise, and
must move no runner-up into a round without a recorded choice.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.knockout import rules as knockout
from tournament.formats.knockout.rules import (
    FINAL,
    LUCKY_LOSER,
    MAIN,
    Entrant,
    Finished,
    KnockoutSettings,
    NextRound,
    RoundResult,
    SeatResult,
    TableResult,
    plan_next_round,
    table_places,
    wins_needed_at,
)
from tournament.tests.formats.knockout.test_rules import make_entrants

pytestmark = pytest.mark.core

DEFAULT = KnockoutSettings()
MORE_CODES = {knockout.ONE_MORE_ADVANCES, knockout.MORE_PLAYERS}
FEWER_CODES = {knockout.ONE_FEWER, knockout.FEWER_PLAYERS}
SMALLER_CODES = {knockout.ONE_SMALLER_TABLE, knockout.SMALLER_TABLE}
LARGER_CODES = {knockout.ONE_LARGER_TABLE, knockout.LARGER_TABLE}


# --------------------------------------------------------------------------
# What the rules allow, written out independently of the planner
# --------------------------------------------------------------------------


def counts(players: int, smallest: int, largest: int) -> list[int]:
    """Table counts that seat ``players`` at tables of ``smallest``..``largest``."""
    return [t for t in range(1, players + 1) if smallest * t <= players <= largest * t]


@functools.cache
def winners_reach(players: int, rules: KnockoutSettings) -> bool:
    """Only winners advancing, at plain tables, ``players`` can end with exactly ``final_size``."""
    if players == rules.final_size:
        return True
    return players > rules.final_size and any(
        t < players and winners_reach(t, rules) for t in counts(players, rules.preferred, rules.largest)
    )


def plain_plan_exists(n: int, rules: KnockoutSettings) -> bool:
    """Round 1 seats everyone, all its losers play the lucky-loser round, then only winners:
    is there a way of plain splits that ends in a final of exactly ``final_size``?"""
    if n == rules.final_size:
        return True
    return any(
        first < n and winners_reach(first + lucky, rules)
        for first in counts(n, rules.preferred, rules.largest)
        for lucky in counts(n - first, rules.preferred, rules.largest)
    )


# --------------------------------------------------------------------------
# A whole tournament, purely
# --------------------------------------------------------------------------


@dataclass
class Played:
    rules: KnockoutSettings
    entrants: list[Entrant]
    plans: list[NextRound] = field(default_factory=list)
    asked: list[NextRound] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)

    @property
    def start(self) -> dict[int, int]:
        return {e.id: e.start_number for e in self.entrants}


def decided_table(number: int, ids: list[int], rules: KnockoutSettings, start: dict[int, int], rng: random.Random):
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
    seats = [SeatResult(player_id=pid, place=place, games_won=wins[pid]) for place, pid in enumerate(order, 1)]
    rng.shuffle(seats)
    return TableResult(number=number, seats=tuple(seats))


def play(n: int, rng: random.Random, rules: KnockoutSettings = DEFAULT, pick: Callable[[NextRound], str] | None = None):
    """Plan, seat and play every round to the end; the first option wherever the planner asks."""
    game = Played(rules=rules, entrants=make_entrants(n, rng))
    choose = pick or (lambda plan: plan.options[0].code)
    while True:
        assert len(game.rounds) <= 40, "no end"
        plan = plan_next_round(game.entrants, game.rounds, rules)
        if isinstance(plan, Finished):
            return game
        if plan.needs_choice:
            game.asked.append(plan)
            plan = plan_next_round(game.entrants, game.rounds, rules, choose(plan))
            assert isinstance(plan, NextRound) and not plan.needs_choice and plan.choice
        check_round(game, plan)
        game.plans.append(plan)
        ids = list(plan.players)
        rng.shuffle(ids)
        number = len(game.rounds) + 1
        if plan.stage == FINAL:
            seats = tuple(SeatResult(pid, place, 0) for place, pid in enumerate(ids, 1))
            game.rounds.append(RoundResult(number, FINAL, (TableResult(1, seats),), tuple(ids)))
            continue
        tables, at = [], 0
        for size in plan.sizes:
            tables.append(decided_table(len(tables) + 1, ids[at : at + size], rules, game.start, rng))
            at += size
        assert at == len(ids)
        game.rounds.append(RoundResult(number, plan.stage, tuple(tables)))


def ranked(seats: list[SeatResult], start: dict[int, int]) -> list[int]:
    """The rules' order of losers across tables: games won, then the lower start number."""
    return [s.player_id for s in sorted(seats, key=lambda s: (-s.games_won, start[s.player_id]))]


def check_round(game: Played, plan: NextRound) -> None:
    rules, rounds = game.rules, game.rounds
    assert len(set(plan.players)) == len(plan.players)
    assert sum(plan.sizes) == len(plan.players)
    if plan.stage == FINAL:
        assert plan.sizes == (len(plan.players),), "the final is one table of every finalist"
    else:
        low = 2 if plan.choice in SMALLER_CODES else rules.preferred
        high = plan.largest if plan.choice in LARGER_CODES else rules.largest
        assert all(low <= size <= high for size in plan.sizes), plan
        outside = [size for size in plan.sizes if not rules.preferred <= size <= rules.largest]
        if plan.choice in (knockout.ONE_SMALLER_TABLE, knockout.ONE_LARGER_TABLE):
            assert len(outside) == 1, "one table outside the sizes, as the option says"
    # No runner-up moves up and nobody is dropped without the organiser's choice.
    if plan.added:
        assert plan.choice in MORE_CODES
    if plan.dropped:
        assert plan.choice in FEWER_CODES
    if not rounds:
        assert set(plan.players) == set(game.start)
        return
    last = rounds[-1]
    losers = [seat for table in last.tables for seat in table.losers]
    if len(rounds) == 1:
        assert plan.stage == LUCKY_LOSER
        order = ranked(losers, game.start)
        if plan.choice not in FEWER_CODES:
            assert set(plan.players) == set(order), "every round-1 loser plays the lucky-loser round"
        assert list(plan.players) + list(plan.dropped) == order, "the weakest (games won, start number) drop first"
        return
    advancing = [table.winner for table in last.tables]
    if last.stage == LUCKY_LOSER:
        advancing = [table.winner for table in rounds[0].tables] + advancing
    assert set(plan.players) == set(advancing) | set(plan.added)
    assert list(plan.added) == ranked(losers, game.start)[: len(plan.added)], "the best runners-up by games won"


def final_size(game: Played) -> int:
    return len(game.rounds[-1].final_order)


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=3, max_value=400), seed=st.integers(0, 2**32))
def test_final_has_its_size_whenever_a_plan_reaches_it(n: int, seed: int) -> None:
    game = play(n, random.Random(seed))
    if plain_plan_exists(n, DEFAULT):
        assert not game.asked, "the rules alone reach the final: nothing to ask"
        assert final_size(game) == DEFAULT.final_size
    if final_size(game) != DEFAULT.final_size:
        assert any(plan.choice == knockout.FINAL_OF_ALL for plan in game.plans), "a final of another size is a choice"


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=3, max_value=400), seed=st.integers(0, 2**32), data=st.data())
def test_any_choice_keeps_the_rules(n: int, seed: int, data: st.DataObject) -> None:
    """Whatever the organiser chooses, every round keeps the rules (``check_round``) and the
    tournament ends with one final."""
    game = play(n, random.Random(seed), pick=lambda plan: data.draw(st.sampled_from([o.code for o in plan.options])))
    assert [plan.stage for plan in game.plans].count(FINAL) == 1


@st.composite
def knockout_settings(draw: st.DrawFn) -> KnockoutSettings:
    preferred = draw(st.integers(2, 6))
    largest = draw(st.integers(preferred, 7))
    return KnockoutSettings(
        preferred=preferred,
        largest=largest,
        final_size=draw(st.integers(2, largest)),
        wins_needed=draw(st.integers(1, 5)),
        wins_needed_large_table=draw(st.integers(1, 5)),
    )


@settings(max_examples=200, deadline=None)
@given(rules=knockout_settings(), n=st.integers(min_value=3, max_value=400), seed=st.integers(0, 2**32))
def test_other_settings_reach_their_final_size(rules: KnockoutSettings, n: int, seed: int) -> None:
    try:
        game = play(n, random.Random(seed), rules)
    except knockout.FormatError as error:
        # Only round 1 may be unseatable (nobody may be added or dropped there).
        assert error.code == "no_seating_possible"
        assert not counts(n, rules.preferred, rules.largest)
        return
    if plain_plan_exists(n, rules):
        assert not game.asked
        assert final_size(game) == rules.final_size


def outside(sizes: tuple[int, ...], rules: KnockoutSettings = DEFAULT) -> list[int]:
    """The tables outside preferred..largest ("im Normalfall drei ..., bei Notwendigkeit bis zu vier")."""
    return [size for size in sizes if not rules.preferred <= size <= rules.largest]


def keeps_to_one_outside(option: knockout.SeatingOption) -> bool:
    """Every round of the option's forecast (the final aside) has at most one table outside 3 to 4."""
    return all(len(outside(r.sizes)) <= 1 for r in option.forecast if r.stage != FINAL)


def test_every_field_from_3_to_400() -> None:
    """Deterministic sweep (every count to 200, then a few larger ones; the property tests
    below draw from the whole range): the first option everywhere; the final's size as the rules want
    wherever a plain plan gets there; never more than one table outside 3 to 4 in a round
    (issue 26: 14 players once got seven tables of 2 as the first option)."""
    for n in [*range(3, 201), 250, 317, 400]:
        game = play(n, random.Random(n))
        if plain_plan_exists(n, DEFAULT):
            assert not game.asked and final_size(game) == 3, n
        for plan in game.plans:
            if plan.stage != FINAL:
                assert len(outside(plan.sizes)) <= 1, (n, plan.stage, plan.sizes)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=3, max_value=400), seed=st.integers(0, 2**32), data=st.data())
def test_the_first_option_departs_least(n: int, seed: int, data: st.DataObject) -> None:
    """Issue 26: wherever the organiser is asked (after any choices before), the first option keeps
    to one table outside 3 to 4 in every round of its forecast whenever some option does; it is
    the one ticked on the page unless it seats several tables outside the sizes in a round or
    leaves players out; and its forecast begins with the round it seats."""
    game = play(n, random.Random(seed), pick=lambda plan: data.draw(st.sampled_from([o.code for o in plan.options])))
    for plan in game.asked:
        first = plan.options[0]
        if any(keeps_to_one_outside(option) for option in plan.options):
            assert keeps_to_one_outside(first), (n, [(o.code, o.forecast) for o in plan.options])
        for option in plan.options:
            assert option.preselect == (keeps_to_one_outside(option) and option.code not in FEWER_CODES)
            assert option.forecast[0].sizes == option.sizes
            assert option.forecast[-1].stage == FINAL
        assert len({option.code for option in plan.options}) == len(plan.options)


# --------------------------------------------------------------------------
# The measured deviations of issue 12
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [*range(17, 28), *range(49, 61)])
def test_no_final_of_four_where_three_is_reachable(n: int) -> None:
    """Item 1: 22-26 players got a final of four; every one of these fields reaches three."""
    assert plain_plan_exists(n, DEFAULT)
    for seed in range(3):
        game = play(n, random.Random(seed))
        assert not game.asked and final_size(game) == 3


@pytest.mark.parametrize("n", [8])
def test_a_final_of_four_only_by_choice(n: int) -> None:
    """8 players cannot reach three finalists by the rules: the organiser is asked, and a final of
    four (every table of 3 to 4) comes before three tables of 2 and a runner-up moving up."""
    assert not plain_plan_exists(n, DEFAULT)
    game = play(n, random.Random(1))
    assert game.asked[-1].options[0].code == knockout.FINAL_OF_ALL
    assert final_size(game) == 4


def test_twenty_three_players_round_two_at_three_tables_of_four() -> None:
    game = play(23, random.Random(7))
    second_main = [plan for plan in game.plans if plan.stage == MAIN][1]
    assert len(second_main.players) == 12 and second_main.sizes == (4, 4, 4)
    assert final_size(game) == 3 and not game.asked


@pytest.mark.parametrize("n", [5, 12, 13, 14, 15, 16, 33, 40, 48])
def test_no_runner_up_without_a_choice(n: int) -> None:
    """Item 2: where two winners would remain the organiser is asked; a runner-up only by choice."""
    for seed in range(5):
        game = play(n, random.Random(seed), pick=lambda plan: plan.options[-1].code)
        for plan in game.plans:
            assert not plan.added or plan.choice in MORE_CODES


def test_two_winners_ask_for_a_runner_up_or_a_final_of_two() -> None:
    rules = DEFAULT
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 6)]
    first = plan_next_round(entrants, [], rules, knockout.ONE_LARGER_TABLE)
    assert isinstance(first, NextRound) and first.sizes == (5,)
    wins = {1: 2, 2: 1, 3: 1, 4: 0, 5: 0}
    round_one = RoundResult(1, MAIN, (TableResult(1, tuple(SeatResult(p, p, wins[p]) for p in range(1, 6))),))
    asked = plan_next_round(entrants, [round_one], rules)
    # Two tables of 2 would reach three finalists, but two tables outside the sizes in one round
    # come after a table of 4 whose winner meets round 1's with a runner-up moving up.
    assert isinstance(asked, NextRound)
    assert [o.code for o in asked.options] == [knockout.PLAIN_ROUND, knockout.SMALLER_TABLE]
    assert [o.preselect for o in asked.options] == [True, False]
    lucky = plan_next_round(entrants, [round_one], rules, knockout.PLAIN_ROUND)
    assert isinstance(lucky, NextRound) and lucky.players == (2, 3, 4, 5) and lucky.sizes == (4,)
    lucky_seats = (SeatResult(4, 1, 2), SeatResult(2, 2, 1), SeatResult(3, 3, 0), SeatResult(5, 4, 0))
    lucky_round = RoundResult(2, LUCKY_LOSER, (TableResult(1, lucky_seats),))
    plan = plan_next_round(entrants, [round_one, lucky_round], rules)
    assert isinstance(plan, NextRound) and plan.needs_choice and not plan.added
    assert [o.code for o in plan.options] == [knockout.ONE_MORE_ADVANCES, knockout.FINAL_OF_ALL]
    up = plan_next_round(entrants, [round_one, lucky_round], rules, knockout.ONE_MORE_ADVANCES)
    assert isinstance(up, NextRound) and up.stage == FINAL and up.added == (2,) and up.players == (1, 4, 2)
    two = plan_next_round(entrants, [round_one, lucky_round], rules, knockout.FINAL_OF_ALL)
    assert isinstance(two, NextRound) and two.stage == FINAL and two.players == (1, 4) and not two.added


def seven_players_round_one() -> tuple[list[Entrant], RoundResult]:
    """Item 4's field: start number 4 won a game, 6 and 7 none."""
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 8)]
    table_one = (SeatResult(1, 1, 2), SeatResult(2, 2, 1), SeatResult(3, 3, 1), SeatResult(4, 4, 1))
    table_two = (SeatResult(5, 1, 3), SeatResult(6, 2, 0), SeatResult(7, 3, 0))
    return entrants, RoundResult(1, MAIN, (TableResult(1, table_one), TableResult(2, table_two)))


def test_seven_players_every_loser_plays_the_lucky_loser_round() -> None:
    """Item 3: five round-1 losers; the first option seats all of them, dropping comes last."""
    entrants, round_one = seven_players_round_one()
    plan = plan_next_round(entrants, [round_one], DEFAULT)
    assert isinstance(plan, NextRound) and plan.needs_choice
    codes = [o.code for o in plan.options]
    assert codes == [knockout.ONE_LARGER_TABLE, knockout.ONE_FEWER]
    # 3 + 2 leads to a final of 4 with as many tables outside the sizes: not offered, still planned by code.
    first = plan_next_round(entrants, [round_one], DEFAULT, codes[0])
    assert isinstance(first, NextRound) and set(first.players) == {2, 3, 4, 6, 7} and not first.dropped
    assert first.sizes == (5,)
    smaller = plan_next_round(entrants, [round_one], DEFAULT, knockout.ONE_SMALLER_TABLE)
    assert isinstance(smaller, NextRound) and smaller.sizes == (3, 2) and not smaller.dropped


def test_losers_are_compared_across_tables_by_games_won() -> None:
    """Item 4: dropping the weakest drops 7 (no game won, the higher start number), not 4."""
    entrants, round_one = seven_players_round_one()
    plan = plan_next_round(entrants, [round_one], DEFAULT, knockout.ONE_FEWER)
    assert isinstance(plan, NextRound)
    assert plan.players == (2, 3, 4, 6) and plan.dropped == (7,)


def test_choices_are_recorded_with_their_words() -> None:
    entrants, round_one = seven_players_round_one()
    plan = plan_next_round(entrants, [round_one], DEFAULT, knockout.ONE_LARGER_TABLE)
    assert isinstance(plan, NextRound) and plan.option is not None and plan.option.code == knockout.ONE_LARGER_TABLE
    assert plan.option.params["finalists"] == 3
    assert [(r.stage, r.sizes) for r in plan.option.forecast] == [(LUCKY_LOSER, (5,)), (FINAL, (3,))]


def test_four_players_are_asked_about_a_final_of_four() -> None:
    """Round 1 at one table of 4 and the lucky-loser round of 3 leave two winners: a runner-up moves
    up into a final of 3 (the rules' way with one departure) before a final of four at once; two
    tables of 2 come last and are not ticked."""
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 5)]
    plan = plan_next_round(entrants, [], DEFAULT)
    assert isinstance(plan, NextRound) and plan.needs_choice
    assert [o.code for o in plan.options] == [knockout.PLAIN_ROUND, knockout.FINAL_OF_ALL, knockout.SMALLER_TABLE]
    assert [o.preselect for o in plan.options] == [True, True, False]
    assert [(r.stage, r.sizes, r.moved_up) for r in plan.options[0].forecast] == [
        (MAIN, (4,), 0),
        (LUCKY_LOSER, (3,), 0),
        (FINAL, (3,), 1),
    ]
    final = plan_next_round(entrants, [], DEFAULT, knockout.FINAL_OF_ALL)
    assert isinstance(final, NextRound) and final.stage == FINAL and final.sizes == (4,)


def test_three_players_play_the_final_at_once() -> None:
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 4)]
    plan = plan_next_round(entrants, [], DEFAULT)
    assert isinstance(plan, NextRound) and plan.stage == FINAL and not plan.needs_choice and plan.sizes == (3,)


@pytest.mark.parametrize(
    ("players", "tables", "expected"),
    [(12, 3, (4, 4, 4)), (12, 4, (3, 3, 3, 3)), (13, 4, (4, 3, 3, 3)), (15, 4, (4, 4, 4, 3)), (7, 3, None)],
)
def test_split_into(players: int, tables: int, expected: tuple[int, ...] | None) -> None:
    assert knockout.split_into(players, tables, 3, 3, 4) == expected


def test_split_with_a_smaller_table() -> None:
    assert knockout.split_into(7, 3, 3, 2, 4) == (3, 2, 2)
    assert knockout.split_into(5, 2, 3, 2, 4) == (3, 2)


def test_reaches_final() -> None:
    reachable = [m for m in range(1, 60) if knockout.reaches_final(m, 3, 4, 3)]
    assert reachable == [3, *range(9, 13), *range(27, 49)]


# --------------------------------------------------------------------------
# The plain rule's fast case (a field of thousands is seated without the search)
# --------------------------------------------------------------------------


def searched(plan: NextRound, search: Callable[[], NextRound]) -> None:
    """Where the plain rule reaches the final, the search seats the same round with the same forecast."""
    if plan.needs_choice:
        return
    found = search()
    assert not found.needs_choice
    assert (found.stage, found.sizes, found.forecast) == (plan.stage, plan.sizes, plan.forecast)


@settings(max_examples=60, deadline=None)
@given(rules=knockout_settings(), n=st.integers(min_value=3, max_value=400))
def test_the_fast_case_is_what_the_search_finds(rules: KnockoutSettings, n: int) -> None:
    ids = tuple(range(1, n + 1))
    entrants = [Entrant(id=pid, start_number=pid) for pid in ids]
    try:
        plan = plan_next_round(entrants, [], rules)
    except knockout.FormatError:
        return
    assert isinstance(plan, NextRound)
    if plan.stage == FINAL:
        return
    searched(plan, lambda: knockout._search_first(ids, rules, ""))
    winners = len(plan.sizes)
    losers = tuple(ids[winners:])
    if len(losers) >= 2:
        lucky = knockout._plan_lucky_losers(losers, winners, rules, "")
        searched(lucky, lambda: knockout._search_lucky_losers(losers, winners, rules, ""))
    main = knockout._plan_main(ids, (), rules, "", main_number=2)
    if main.stage != FINAL:
        searched(main, lambda: knockout._search_main(ids, (), rules, "", 2))


def test_five_thousand_players_are_planned_without_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain rule's way is found without the search (which took 28 s at 5,000 players)."""

    def no_search(*args: object) -> NextRound:
        raise AssertionError("the search ran")

    monkeypatch.setattr(knockout, "_search_first", no_search)
    entrants = [Entrant(id=pid, start_number=pid) for pid in range(1, 5001)]
    plan = plan_next_round(entrants, [], DEFAULT)
    assert isinstance(plan, NextRound) and not plan.needs_choice
    assert [r.stage for r in plan.forecast][:2] == [MAIN, LUCKY_LOSER] and plan.forecast[-1].sizes == (3,)
    assert all(not outside(r.sizes) for r in plan.forecast)
