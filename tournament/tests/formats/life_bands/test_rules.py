"""Properties of the pure life-bands format (``tournament.formats.life_bands.rules``).

No database. The small functions are checked against the rules of format B
(Schocken: 2 life bands, 2 chips a table, 3 in the grand final; a table of 4
is decided when 2 are out, a table of 3 when 1 is). Then whole tournaments are
simulated purely, game by game, the way the day runs:

- the main round is re-seated with ``plan_main`` whenever none of its tables
  is playing, down to its final table, whose 2 winners reach the grand final;
- a player whose first band is cut joins the waiting pool at once, while their
  table plays on; the organiser forms tables from the pool with ``plan_pool``
  at random moments, while other tables play; survivors of a consolation table
  return to the pool; the consolation final table's 2 winners reach the grand
  final; a second cut band ends the tournament for that player;
- the grand final seats the main and consolation winners with 3 chips each;
  the order of elimination gives places 4, 3, 2.

After every game and every organiser step: the pool never holds a player
twice, nobody sits at two tables at once, every player is in exactly one place
(playing, waiting, qualified or out), no chip or band count is negative. At
the end: the tournament terminated, exactly 4 reached the grand final (3 when
only 3 play), and ``rank_players`` gives everyone exactly one place.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournament.formats.base import FormatError
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.life_bands.rules import (
    RULE_GRAND_FINAL,
    RULE_MORE_BANDS,
    RULE_MORE_CHIPS,
    RULE_NOT_IN_GRAND_FINAL,
    RULE_START_NUMBER,
    RULE_STILL_IN_MAIN,
    RULE_WENT_OUT_LATER,
    is_sharp_play,
    plan_main,
    plan_pool,
    players_out_at,
    rank_players,
    table_decided,
)
from tournament.seating import SeatingImpossible, table_sizes

pytestmark = pytest.mark.core

MAIN, CONSOLATION, GRAND_FINAL = "main", "consolation", "grand_final"


# --------------------------------------------------------------------------
# Tables: who is out, when a table is decided, sharp play
# --------------------------------------------------------------------------


class TestPlayersOut:
    def test_the_rules(self) -> None:
        assert players_out_at(4) == 2  # "Bei 4 Spielern am Tisch scheiden immer 2 Spieler aus."
        assert players_out_at(3) == 1  # "Bei 3 Spielern am Tisch scheidet nur 1 Spieler aus."
        assert players_out_at(4, grand_final=True) == 3  # places 4, 3, 2; the last one left wins
        assert players_out_at(3, grand_final=True) == 2

    @given(size=st.integers(min_value=2, max_value=40), grand_final=st.booleans())
    def test_someone_goes_out_and_someone_is_left(self, size: int, grand_final: bool) -> None:
        out = players_out_at(size, grand_final=grand_final)
        assert 1 <= out <= size - 1
        if grand_final:
            assert out == size - 1
        else:
            assert out == (2 if size >= 4 else 1)
            assert size - out >= 1

    @given(size=st.integers(max_value=1), grand_final=st.booleans())
    def test_a_table_needs_two(self, size: int, grand_final: bool) -> None:
        with pytest.raises(FormatError) as error:
            players_out_at(size, grand_final=grand_final)
        assert error.value.code == "table_too_small"


class TestTableDecided:
    @given(size=st.integers(min_value=2, max_value=12), out=st.integers(0, 12), grand_final=st.booleans())
    def test_decided_exactly_from_the_number_out(self, size: int, out: int, grand_final: bool) -> None:
        decided = table_decided(size, out, grand_final=grand_final)
        assert decided == (out >= players_out_at(size, grand_final=grand_final))
        # Monotone: one more player out never "undecides" a table.
        if decided:
            assert table_decided(size, out + 1, grand_final=grand_final)

    def test_the_rules(self) -> None:
        assert not table_decided(4, 1) and table_decided(4, 2)
        assert not table_decided(3, 0) and table_decided(3, 1)
        assert not table_decided(4, 2, grand_final=True) and table_decided(4, 3, grand_final=True)

    @given(size=st.integers(min_value=2, max_value=12), grand_final=st.booleans(), seed=st.integers(0, 2**16))
    def test_games_until_decided(self, size: int, grand_final: bool, seed: int) -> None:
        """Random losers, chips per table: decided after at most chips*(out) + (others' chips - 1) games."""
        rng = random.Random(seed)
        chips_each = 3 if grand_final else 2
        chips = dict.fromkeys(range(size), chips_each)
        out: list[int] = []
        games = 0
        while not table_decided(size, len(out), grand_final=grand_final):
            loser = rng.choice([p for p in chips if p not in out])
            chips[loser] -= 1
            games += 1
            if chips[loser] == 0:
                out.append(loser)
        needed = players_out_at(size, grand_final=grand_final)
        assert len(out) == needed
        assert needed * chips_each <= games <= needed * chips_each + (size - needed) * (chips_each - 1)
        assert all(count >= 0 for count in chips.values())


class TestSharpPlay:
    START = datetime(2026, 6, 14, 17, 0, tzinfo=UTC)

    @given(
        seconds=st.integers(min_value=-3600, max_value=4 * 3600),
        minutes=st.integers(min_value=1, max_value=120),
        grand_final=st.booleans(),
    )
    def test_after_the_minutes_except_in_the_grand_final(self, seconds: int, minutes: int, grand_final: bool) -> None:
        now = self.START + timedelta(seconds=seconds)
        sharp = is_sharp_play(self.START, now, minutes, grand_final=grand_final)
        assert sharp == (not grand_final and seconds >= minutes * 60)

    def test_fifteen_minutes_exactly(self) -> None:
        at = self.START + timedelta(minutes=15)
        assert not is_sharp_play(self.START, at - timedelta(microseconds=1), 15, grand_final=False)
        assert is_sharp_play(self.START, at, 15, grand_final=False)
        assert not is_sharp_play(self.START, at + timedelta(hours=3), 15, grand_final=True)


# --------------------------------------------------------------------------
# plan_main and plan_pool
# --------------------------------------------------------------------------

sizes_settings = st.integers(min_value=2, max_value=6).flatmap(
    lambda preferred: st.tuples(st.just(preferred), st.integers(min_value=preferred, max_value=8))
)


class TestPlanMain:
    @given(count=st.integers(min_value=0, max_value=400), sizes=sizes_settings)
    def test_plan(self, count: int, sizes: tuple[int, int]) -> None:
        preferred, largest = sizes
        survivors = list(range(100, 100 + count))
        plan = plan_main(survivors, preferred, largest)  # never raises: some way to seat them always exists
        filled = [bool(plan.winners), bool(plan.final_table), bool(plan.sizes), bool(plan.options)]
        if count == 0:
            assert filled == [False] * 4
            return
        assert filled.count(True) == 1, plan
        if count <= 2:
            assert plan.winners == tuple(survivors)
        elif count <= 4:
            # The final table: 2 of 3 or 4 are left, whatever the largest table size.
            assert plan.final_table == tuple(survivors)  # the order is kept
            assert count - players_out_at(count) == 2
        elif plan.sizes:
            assert sum(plan.sizes) == count
            assert all(preferred <= size <= largest for size in plan.sizes)
            assert list(plan.sizes) == table_sizes(count, preferred, largest)
        else:
            with pytest.raises(SeatingImpossible):
                table_sizes(count, preferred, largest)
            assert {option.code for option in plan.options} <= {"larger_table", "smaller_table"}
            for option in plan.options:
                chosen = plan_main(survivors, preferred, largest, option.code)
                assert chosen.sizes == option.sizes and sum(chosen.sizes) == count
                size = option.params["size"]
                if option.code == "larger_table":
                    assert all(preferred <= seats <= size for seats in chosen.sizes)
                    assert max(chosen.sizes) == size > largest
                else:
                    assert 3 <= size < preferred
                    assert all(size <= seats <= largest for seats in chosen.sizes)
            # An unknown choice still asks.
            assert plan_main(survivors, preferred, largest, "one_fewer") == plan

    def test_defaults(self) -> None:
        assert plan_main([1, 2], 3, 4).winners == (1, 2)
        assert plan_main([1, 2, 3, 4], 3, 4).final_table == (1, 2, 3, 4)
        assert plan_main(list(range(6)), 3, 4).sizes == (3, 3)
        assert plan_main(list(range(7)), 3, 4).sizes == (4, 3)
        five = plan_main(list(range(5)), 3, 4)
        assert [o.code for o in five.options] == ["larger_table"]  # type: ignore[attr-defined]
        assert plan_main(list(range(5)), 3, 4, "larger_table").sizes == (5,)

    @pytest.mark.parametrize("count", range(3, 301))
    def test_every_main_table_leaves_survivors_that_seat_again(self, count: int) -> None:
        """At 3-4 a main round always shrinks and never gets stuck (5 survivors: one table of 5)."""
        plan = plan_main(list(range(count)), 3, 4)
        if plan.options:
            plan = plan_main(list(range(count)), 3, 4, "larger_table")
        if plan.final_table:
            assert count - players_out_at(count) == 2
            return
        survivors = sum(size - players_out_at(size) for size in plan.sizes)
        assert 2 < survivors < count


class TestPlanPool:
    @given(
        count=st.integers(min_value=0, max_value=120),
        more_coming=st.booleans(),
        sizes=sizes_settings,
    )
    def test_plan(self, count: int, more_coming: bool, sizes: tuple[int, int]) -> None:
        preferred, largest = sizes
        pool = list(range(500, 500 + count))
        plan = plan_pool(pool, more_coming=more_coming, preferred=preferred, largest=largest)
        seated = sum(plan.sizes)
        assert seated <= count
        assert not (plan.sizes and plan.winners)
        if plan.winners:
            # Only when nothing more can arrive: the last 1 or 2 qualify without a table.
            assert not more_coming and 1 <= count <= 2 and plan.winners == tuple(pool)
            return
        if plan.final:
            assert not more_coming
            assert plan.sizes == (count,) and 3 <= count <= min(largest, 4)
            assert count - players_out_at(count) == 2  # its 2 winners reach the grand final
            return
        if not more_coming and count <= 2:
            assert plan.sizes == () and count == 0
            return
        if count < preferred:
            assert plan.sizes == ()  # nobody is seated alone or at a short table
            return
        # Enough wait: at least one table is formed, at once, without waiting for the main round.
        assert plan.sizes
        assert all(preferred <= size <= largest for size in plan.sizes)
        if count <= largest:
            assert plan.sizes == (count,)  # e.g. 4 waiting at 3-4: one table of 4, nobody left to stall
            return
        try:
            assert list(plan.sizes) == table_sizes(count, preferred, largest)
        except SeatingImpossible:
            assert plan.sizes == (preferred,)

    @pytest.mark.parametrize("count", range(0, 40))
    @pytest.mark.parametrize("more_coming", [True, False])
    def test_defaults_leave_fewer_than_a_table_waiting(self, count: int, more_coming: bool) -> None:
        """At 3-4, whatever is left waiting after a tap could not form another table."""
        plan = plan_pool(list(range(count)), more_coming=more_coming)
        left = count - sum(plan.sizes) - len(plan.winners)
        assert left < 3

    def test_defaults(self) -> None:
        assert plan_pool([1, 2], more_coming=True) == life_bands.PoolPlan()
        assert plan_pool([1, 2, 3], more_coming=True).sizes == (3,)
        assert plan_pool([1, 2, 3, 4], more_coming=True).sizes == (4,)
        assert plan_pool([1, 2, 3, 4, 5], more_coming=True).sizes == (3,)  # 2 wait for the survivors
        assert plan_pool(list(range(7)), more_coming=True).sizes == (4, 3)
        assert plan_pool([1, 2], more_coming=False).winners == (1, 2)
        assert plan_pool([1], more_coming=False).winners == (1,)
        assert plan_pool([1, 2, 3], more_coming=False) == life_bands.PoolPlan(sizes=(3,), final=True)
        assert plan_pool([1, 2, 3, 4], more_coming=False) == life_bands.PoolPlan(sizes=(4,), final=True)
        assert plan_pool(list(range(5)), more_coming=False).sizes == (3,)
        assert not plan_pool(list(range(5)), more_coming=False).final
        assert plan_pool([], more_coming=False) == life_bands.PoolPlan()


# --------------------------------------------------------------------------
# rank_players
# --------------------------------------------------------------------------


@st.composite
def ranking_input(draw: st.DrawFn) -> tuple[dict[int, int], list[int], dict[int, int]]:
    n = draw(st.integers(min_value=1, max_value=60))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=n, max_size=n, unique=True))
    numbers = draw(st.permutations(range(1, n + 1)))
    start = dict(zip(ids, numbers, strict=True))
    gf_size = draw(st.integers(min_value=0, max_value=min(4, n)))
    gf_order = list(draw(st.permutations(ids))[:gf_size])
    others = [pid for pid in ids if pid not in gf_order]
    # Some still in play (no out sequence); ties on the sequence are possible.
    out = {pid: draw(st.integers(1, 8)) for pid in others if draw(st.booleans())}
    return start, gf_order, out


class TestRankPlayers:
    @given(data=ranking_input())
    def test_properties(self, data: tuple[dict[int, int], list[int], dict[int, int]]) -> None:
        start, gf_order, out = data
        entries = rank_players(start, gf_order, out)
        assert sorted(e.player_id for e in entries) == sorted(start), "not a permutation"
        assert [e.place for e in entries] == list(range(1, len(start) + 1))
        assert [e.player_id for e in entries[: len(gf_order)]] == gf_order, "grand finalists first, in order"
        assert [e.grand_final_place for e in entries[: len(gf_order)]] == list(range(1, len(gf_order) + 1))
        rest = entries[len(gf_order) :]
        assert all(e.grand_final_place is None for e in rest)
        for e in entries:
            assert e.out_sequence == out.get(e.player_id)

        def key(pid: int) -> tuple[int, int]:
            seq = out.get(pid)
            return (-(seq if seq is not None else 10**9), start[pid])

        assert [e.player_id for e in rest] == sorted((e.player_id for e in rest), key=key)
        assert entries[0].decided_by == ""
        for above, below in itertools.pairwise(entries):
            if below.grand_final_place is not None:
                expected = RULE_GRAND_FINAL
            elif above.grand_final_place is not None:
                # The first below the grand finalists: it was reaching the grand final that decided.
                expected = RULE_NOT_IN_GRAND_FINAL
            elif above.out_sequence != below.out_sequence:
                expected = RULE_WENT_OUT_LATER
                if above.out_sequence is not None and below.out_sequence is not None:
                    assert above.out_sequence > below.out_sequence
                else:
                    assert above.out_sequence is None  # still playing ranks above out
            else:
                expected = RULE_START_NUMBER
                assert start[above.player_id] < start[below.player_id]
            assert below.decided_by == expected, (above, below)

    def test_example(self) -> None:
        start = {10: 1, 11: 2, 12: 3, 13: 4, 14: 5, 15: 6, 16: 7}
        entries = rank_players(start, [13, 10, 16, 11], {12: 5, 14: 9, 15: 5})
        assert [(e.place, e.player_id, e.decided_by) for e in entries] == [
            (1, 13, ""),
            (2, 10, RULE_GRAND_FINAL),
            (3, 16, RULE_GRAND_FINAL),
            (4, 11, RULE_GRAND_FINAL),
            (5, 14, RULE_NOT_IN_GRAND_FINAL),
            (6, 12, RULE_WENT_OUT_LATER),
            (7, 15, RULE_START_NUMBER),
        ]


# --------------------------------------------------------------------------
# A whole tournament, purely
# --------------------------------------------------------------------------


@dataclass
class SimTable:
    id: int
    stage: str
    is_final: bool
    players: tuple[int, ...]
    chips: dict[int, int]
    out: list[int] = field(default_factory=list)

    @property
    def alive(self) -> list[int]:
        return [pid for pid in self.players if pid not in self.out]

    @property
    def decided(self) -> bool:
        return table_decided(len(self.players), len(self.out), grand_final=self.stage == GRAND_FINAL)


@dataclass
class Rules:
    preferred: int = 3
    largest: int = 4
    bands: int = 2
    chips: int = 2
    chips_grand_final: int = 3


class Stalled(AssertionError):
    """Nothing plays and the organiser can do nothing: the tournament is stuck."""


@dataclass
class Sim:
    """One tournament of ``n`` players; every step checked against the rules."""

    n: int
    rng: random.Random
    rules: Rules = field(default_factory=Rules)
    organiser_eagerness: float = 0.3
    start: dict[int, int] = field(default_factory=dict)
    bands: dict[int, int] = field(default_factory=dict)
    cut_at_consolation_final: set[int] = field(default_factory=set)
    pool: list[int] = field(default_factory=list)
    playing: dict[int, SimTable] = field(default_factory=dict)
    seat_of: dict[int, int] = field(default_factory=dict)  # player -> playing table they are still in
    main_rounds: int = 0
    main_open: set[int] = field(default_factory=set)
    main_waiting: list[int] = field(default_factory=list)
    main_final_seated: bool = False
    main_done: bool = False
    main_winners: list[int] = field(default_factory=list)
    consolation_tables: int = 0
    consolation_final_seated: bool = False
    consolation_winners: list[int] = field(default_factory=list)
    grand_final: SimTable | None = None
    grand_final_order: list[int] = field(default_factory=list)
    out_sequence: dict[int, int] = field(default_factory=dict)
    rank_live: bool = False  # check the live ranking after every step (``check_live_ranking``)
    games: int = 0
    tables: int = 0
    steps: int = 0
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Ids unrelated to the start numbers (a drawn permutation).
        numbers = list(range(1, self.n + 1))
        self.rng.shuffle(numbers)
        self.start = {1000 + 7 * index: number for index, number in enumerate(numbers)}
        self.bands = dict.fromkeys(self.start, self.rules.bands)

    # --- what the rules say -----------------------------------------------------------

    @property
    def consolation_playing(self) -> bool:
        return any(t.stage == CONSOLATION for t in self.playing.values())

    @property
    def more_coming(self) -> bool:
        return not self.main_done or self.consolation_playing

    @property
    def consolation_done(self) -> bool:
        return self.main_done and not self.pool and not self.consolation_playing

    @property
    def finished(self) -> bool:
        return bool(self.grand_final_order)

    def pool_plan(self) -> life_bands.PoolPlan:
        return plan_pool(
            self.pool, more_coming=self.more_coming, preferred=self.rules.preferred, largest=self.rules.largest
        )

    def organiser_steps(self) -> list[Callable[[], None]]:
        steps: list[Callable[[], None]] = []
        if self.grand_final is not None:
            return steps
        if not self.main_done and not self.main_open:
            steps.append(self.next_main_round)
        plan = self.pool_plan()
        if plan.sizes or plan.winners:
            steps.append(self.form_pool_tables)
        if self.main_done and self.consolation_done:
            steps.append(self.seat_grand_final)
        return steps

    # --- organiser --------------------------------------------------------------------

    def seat(self, stage: str, players: list[int], *, is_final: bool, chips: int) -> SimTable:
        assert len(players) >= 2, f"a table of {len(players)}"
        for pid in players:
            assert pid not in self.seat_of, f"{pid} seated while still playing at table {self.seat_of.get(pid)}"
            assert pid not in self.pool, f"{pid} seated while still waiting in the pool"
            assert self.bands[pid] > 0, f"{pid} seated without a band"
        self.tables += 1
        table = SimTable(self.tables, stage, is_final, tuple(players), dict.fromkeys(players, chips))
        self.playing[table.id] = table
        for pid in players:
            self.seat_of[pid] = table.id
        return table

    def next_main_round(self) -> None:
        assert not self.main_open and not self.main_done
        if self.main_rounds == 0:
            survivors = sorted(self.start, key=self.start.__getitem__)
        else:
            survivors = sorted(self.main_waiting, key=self.start.__getitem__)
        self.main_waiting = []
        plan = plan_main(survivors, self.rules.preferred, self.rules.largest)
        if plan.options:
            # The organiser's choice; the first option, as the dry run takes it.
            assert {o.code for o in plan.options} <= {"larger_table", "smaller_table"}
            plan = plan_main(survivors, self.rules.preferred, self.rules.largest, plan.options[0].code)
        self.main_rounds += 1
        self.log.append(f"main round {self.main_rounds}: {len(survivors)} players, {plan}")
        if plan.winners:
            self.main_winners, self.main_done = list(plan.winners), True
            return
        if plan.final_table:
            assert sorted(plan.final_table) == sorted(survivors)
            assert not self.main_final_seated
            self.main_final_seated = True
            table = self.seat(MAIN, list(plan.final_table), is_final=True, chips=self.rules.chips)
            self.main_open = {table.id}
            return
        assert sum(plan.sizes) == len(survivors)
        shuffled = list(survivors)
        self.rng.shuffle(shuffled)
        at = 0
        for size in plan.sizes:
            table = self.seat(MAIN, shuffled[at : at + size], is_final=False, chips=self.rules.chips)
            self.main_open.add(table.id)
            at += size

    def form_pool_tables(self) -> None:
        plan = self.pool_plan()
        self.log.append(f"pool {len(self.pool)} (more coming: {self.more_coming}): {plan}")
        if plan.winners:
            assert plan.winners == tuple(self.pool)
            assert not self.consolation_final_seated, "qualified from the pool after the consolation final"
            self.consolation_winners += plan.winners
            self.pool = []
            return
        assert plan.sizes
        assert not self.consolation_final_seated, "a consolation table after the consolation final"
        waiting = self.pool[: sum(plan.sizes)]
        self.pool = self.pool[sum(plan.sizes) :]
        if plan.final:
            assert len(plan.sizes) == 1 and not self.pool
            self.consolation_final_seated = True
        at = 0
        for size in plan.sizes:
            group = waiting[at : at + size]
            at += size
            self.rng.shuffle(group)
            self.seat(CONSOLATION, group, is_final=plan.final, chips=self.rules.chips)
            self.consolation_tables += 1

    def seat_grand_final(self) -> None:
        players = self.main_winners + [p for p in self.consolation_winners if p not in self.main_winners]
        assert len(players) == len(set(self.main_winners)) + len(set(self.consolation_winners))
        self.log.append(f"grand final: {players}")
        self.grand_final = self.seat(GRAND_FINAL, players, is_final=True, chips=self.rules.chips_grand_final)

    # --- a game at a table ------------------------------------------------------------

    def play_game(self, table: SimTable) -> bool:
        """One game lost by a random player still in; True when someone went out."""
        assert not table.decided
        self.games += 1
        loser = self.rng.choice(table.alive)
        table.chips[loser] -= 1
        if table.chips[loser] > 0:
            return False
        table.out.append(loser)
        del self.seat_of[loser]
        if table.stage != GRAND_FINAL:
            self.bands[loser] -= 1  # the band is cut
            # Losing at the consolation final ends the tournament, whatever bands are left.
            consolation_final = table.stage == CONSOLATION and table.is_final
            if self.bands[loser] > 0 and not consolation_final:
                assert loser not in self.pool
                self.pool.append(loser)  # joins the pool at once, the table plays on
            else:
                self.out_sequence[loser] = self.games  # out of the tournament
                if self.bands[loser] > 0:
                    self.cut_at_consolation_final.add(loser)
        if not table.decided:
            return True
        del self.playing[table.id]
        survivors = table.alive
        for pid in survivors:
            del self.seat_of[pid]
        if table.stage == GRAND_FINAL:
            assert len(survivors) == 1
            self.grand_final_order = survivors + table.out[::-1]
        elif table.stage == MAIN:
            self.main_open.discard(table.id)
            if table.is_final:
                assert not self.main_open
                self.main_winners, self.main_done = survivors, True
            else:
                self.main_waiting += survivors
        elif table.is_final:
            self.consolation_winners += survivors
        else:
            for pid in survivors:
                assert pid not in self.pool
                self.pool.append(pid)  # back to the pool
        return True

    # --- the loop ---------------------------------------------------------------------

    def step_limit(self) -> int:
        return 40 * self.n + 200

    def run(self) -> Sim:
        self.check()
        while not self.finished:
            self.steps += 1
            assert self.steps <= self.step_limit(), f"no end after {self.steps} steps"
            options = self.organiser_steps()
            if options and (not self.playing or self.rng.random() < self.organiser_eagerness):
                self.rng.choice(options)()
            elif self.playing:
                table = self.rng.choice(list(self.playing.values()))
                if not self.play_game(table):
                    self.check_table(table)
                    continue
            else:
                raise Stalled(f"{self.n} players: nothing plays and nothing can be seated\n" + "\n".join(self.log))
            self.check()
        self.check_end()
        return self

    def check_table(self, table: SimTable) -> None:
        """After a game: the table's own counts."""
        most = max(self.rules.chips, self.rules.chips_grand_final)
        assert all(0 <= c <= most for c in table.chips.values()), "a negative chip count"
        assert all(table.chips[pid] == 0 for pid in table.out)
        assert all(self.seat_of.get(pid) == table.id for pid in table.alive) or table.decided

    def check(self) -> None:
        """After every organiser step and every player out: where everyone is."""
        pool = set(self.pool)
        assert len(pool) == len(self.pool), "the pool holds a player twice"
        at_tables = [pid for t in self.playing.values() for pid in t.alive]
        seated = set(at_tables)
        assert len(seated) == len(at_tables), "a player sits at two tables at once"
        assert seated == self.seat_of.keys()
        assert min(self.bands.values()) >= 0 and max(self.bands.values()) <= self.rules.bands
        # Everyone is in exactly one place.
        gf = set(self.grand_final.players) if self.grand_final else set()
        groups = [
            self.start.keys() if self.main_rounds == 0 else (),
            seated - gf,
            pool,
            self.main_waiting,
            () if gf else self.main_winners,
            () if gf else self.consolation_winners,
            gf,
            self.out_sequence.keys(),
        ]
        assert sum(len(g) for g in groups) == self.n, [len(g) for g in groups]
        assert set().union(*groups) == self.start.keys()
        assert all(self.bands[pid] >= 1 for pid in pool)
        assert all(self.bands[pid] == 0 or pid in self.cut_at_consolation_final for pid in self.out_sequence)
        if self.rank_live:
            self.check_live_ranking()

    def check_live_ranking(self) -> None:
        """The ranking while play goes on (what the ranking page shows): grand finalists first
        (still in it above those placed), then still in the main round, more bands, more chips,
        later out; a start number decides only where every other count ties."""
        finalists: dict[int, int | None] = {}
        if self.grand_final is not None:
            size = len(self.grand_final.players)
            finalists = dict.fromkeys(self.grand_final.players)
            for index, pid in enumerate(self.grand_final.out, start=1):
                finalists[pid] = life_bands.grand_final_place(size, index)
        else:
            finalists = dict.fromkeys(self.main_winners + self.consolation_winners)
        chips = {pid: self.playing[table].chips[pid] for pid, table in self.seat_of.items()}
        in_main = {pid for pid, left in self.bands.items() if left == self.rules.bands}
        entries = rank_players(self.start, finalists, self.out_sequence, in_main=in_main, bands=self.bands, chips=chips)
        assert [e.place for e in entries] == list(range(1, self.n + 1))
        assert sorted(e.player_id for e in entries) == sorted(self.start)
        ids = [e.player_id for e in entries]
        assert set(ids[: len(finalists)]) == set(finalists), "the grand finalists first"
        alive = [pid for pid in ids if pid not in finalists and pid not in self.out_sequence]
        out = [pid for pid in ids if pid in self.out_sequence]
        assert ids == ids[: len(finalists)] + alive + out, "those still in above those out"
        bands = [self.bands[pid] for pid in alive]
        assert bands == sorted(bands, reverse=True), "more bands never below fewer"
        places = [finalists[pid] or 0 for pid in ids[: len(finalists)]]
        assert places == sorted(places), "still in the grand final above those placed, then by place"

        def counts(pid: int) -> tuple[object, ...]:
            is_alive = pid not in finalists and pid not in self.out_sequence
            in_gf = pid in finalists and finalists[pid] is None
            return (
                pid in finalists,
                finalists.get(pid),
                is_alive and pid in in_main,
                self.bands[pid] if is_alive else 0,
                chips.get(pid, 0) if is_alive or in_gf else 0,
                self.out_sequence.get(pid),
            )

        for above, below in itertools.pairwise(entries):
            if below.decided_by == RULE_START_NUMBER:
                assert counts(above.player_id) == counts(below.player_id), (above, below)
                assert self.start[above.player_id] < self.start[below.player_id]
            else:
                assert counts(above.player_id) != counts(below.player_id), (above, below)
            if below.decided_by == RULE_MORE_BANDS:
                assert counts(above.player_id)[3] > counts(below.player_id)[3]
            if below.decided_by == RULE_MORE_CHIPS:
                assert chips.get(above.player_id, 0) > chips.get(below.player_id, 0)
            if below.decided_by == RULE_STILL_IN_MAIN:
                assert above.player_id in in_main and below.player_id not in in_main

    def check_end(self) -> None:
        assert self.grand_final is not None and not self.playing and not self.pool
        gf_size = len(self.grand_final.players)
        if self.n >= 4:
            assert len(self.main_winners) == 2 and len(self.consolation_winners) == 2
            assert gf_size == 4, f"{gf_size} in the grand final of {self.n} players"
        else:
            assert gf_size == self.n
        assert not set(self.main_winners) & set(self.consolation_winners)
        assert set(self.out_sequence) == set(self.start) - set(self.grand_final.players)
        ranking = rank_players(self.start, self.grand_final_order, self.out_sequence)
        assert sorted(e.player_id for e in ranking) == sorted(self.start), "the ranking is not a permutation"
        assert [e.place for e in ranking] == list(range(1, self.n + 1))
        assert [e.player_id for e in ranking[:gf_size]] == self.grand_final_order
        # Later out ranks higher; the same game cannot knock out two players.
        sequences = [e.out_sequence for e in ranking[gf_size:]]
        assert sequences == sorted(sequences, reverse=True)  # type: ignore[type-var]
        assert len(set(sequences)) == len(sequences)


def simulate(
    n: int, seed: int, rules: Rules | None = None, eagerness: float | None = None, *, rank_live: bool = False
) -> Sim:
    rng = random.Random(seed)
    eager = rng.choice([0.02, 0.3, 0.95]) if eagerness is None else eagerness
    return Sim(n=n, rng=rng, rules=rules or Rules(), organiser_eagerness=eager, rank_live=rank_live).run()


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=40),
    seed=st.integers(0, 2**32),
    eagerness=st.sampled_from([0.0, 0.3, 1.0]),
    bands=st.sampled_from([2, 3]),
)
@example(n=11, seed=0, eagerness=0.3, bands=2)
def test_the_live_ranking_counts_bands_and_chips(n: int, seed: int, eagerness: float, bands: int) -> None:
    """After every game and every organiser step of a whole tournament, the ranking the page
    shows (``Sim.check_live_ranking``) orders by what the format counts."""
    simulate(n, seed, Rules(bands=bands), eagerness=eagerness, rank_live=True)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=300),
    seed=st.integers(0, 2**32),
    eagerness=st.sampled_from([0.0, 0.02, 0.3, 0.95, 1.0]),
)
@example(n=3, seed=0, eagerness=0.0)
@example(n=4, seed=0, eagerness=1.0)
@example(n=5, seed=0, eagerness=0.3)
def test_any_field_plays_to_a_grand_final_of_four(n: int, seed: int, eagerness: float) -> None:
    simulate(n, seed, eagerness=eagerness)


def test_every_field_from_3_to_120_and_larger_ones_to_300() -> None:
    """Deterministic sweep: every field size to 120 and a few larger ones; a slow, an eager and a
    middling organiser in turn."""
    for n in [*range(3, 121), 150, 199, 250, 300]:
        sim = simulate(n, seed=n, eagerness=(0.0, 1.0, 0.3)[n % 3])
        assert sim.steps <= sim.step_limit()


@pytest.mark.parametrize("n", [4, 5, 7, 13, 23, 50, 120])
def test_the_sizes_of_the_issue(n: int) -> None:
    for seed in range(20):
        sim = simulate(n, seed)
        assert sim.main_rounds >= 1
        assert sim.consolation_tables >= (1 if n > 4 else 0)  # 4 players: the 2 out qualify directly
        assert len(sim.grand_final.players) == 4  # type: ignore[union-attr]


def test_three_players_make_a_grand_final_of_three() -> None:
    for seed in range(20):
        sim = simulate(3, seed)
        assert len(sim.grand_final.players) == 3  # type: ignore[union-attr]
        assert len(sim.consolation_winners) == 1 and sim.consolation_tables == 0


@settings(max_examples=100, deadline=None)
@given(
    sizes=st.sampled_from([(2, 2), (2, 3), (2, 4), (2, 6), (3, 3), (3, 4), (3, 5), (3, 6), (3, 8), (4, 6), (5, 8)]),
    n=st.integers(min_value=3, max_value=120),
    seed=st.integers(0, 2**32),
)
def test_other_table_sizes_still_give_a_grand_final_of_four(sizes: tuple[int, int], n: int, seed: int) -> None:
    """Table sizes of the settings (2 life bands): never a final table of 5 or more.

    A count that does not split (5 players at tables of exactly 3) is seated at the
    organiser's choice (the first option here): every field plays to its grand final.
    """
    preferred, largest = sizes
    sim = Sim(n=n, rng=random.Random(seed), rules=Rules(preferred=preferred, largest=largest))
    sim.run()
    assert len(sim.main_winners) == 2


@pytest.mark.parametrize("largest", [5, 6, 8])
def test_a_final_table_never_seats_five(largest: int) -> None:
    """Regression: at a largest table size of 5, 5 survivors (or 5 waiting at the end)
    were one final table, 2 went out and 3 reached the grand final (5 in all)."""
    five = list(range(5))
    main = plan_main(five, 3, largest)
    assert not main.final_table and main.sizes == (5,)  # one more table first; its 3 survivors are the final
    assert plan_main(five[:4], 3, largest).final_table == (0, 1, 2, 3)
    pool = plan_pool(five, more_coming=False, preferred=3, largest=largest)
    assert not pool.final and pool.sizes == (5,)
    assert plan_pool(five[:4], more_coming=False, preferred=3, largest=largest).final


def test_twelve_at_tables_of_exactly_four() -> None:
    """Once a known problem: 12 at tables of exactly 4 leave 6 survivors, which plan_main could
    not seat. Now the organiser chooses (two tables of 3 first, or one of 6)."""
    assert [o.code for o in plan_main(list(range(6)), 4, 4).options] == ["smaller_table", "larger_table"]
    for seed in range(10):
        simulate(12, seed, Rules(preferred=4, largest=4))


KNOWN_PROBLEMS = [
    pytest.param(
        6,
        Rules(bands=1),
        id="one-life-band",
        marks=pytest.mark.xfail(
            raises=AssertionError,
            strict=True,
            reason="with 1 band nobody reaches the consolation round: a grand final of 2 "
            "(the app's note blames a field that is too small)",
        ),
    ),
]


@pytest.mark.parametrize(("n", "rules"), KNOWN_PROBLEMS)
def test_known_problems_of_other_settings(n: int, rules: Rules) -> None:
    """Settings the app accepts whose tournaments break the rules (documented, not fixed)."""
    for seed in range(10):
        simulate(n, seed, rules)


@pytest.mark.parametrize("n", [9, 13, 23])
def test_three_life_bands_still_give_a_grand_final_of_four(n: int) -> None:
    """With more bands, losing at the consolation final still ends the tournament."""
    for seed in range(10):
        simulate(n, seed, Rules(bands=3))
