"""Issue 15: clubs apart in every round, whole-schedule lookahead against the best
known (social golfer), the linear path's total work bound. Pure, no database.

Rounds are simulated as the points format seats them: each round from the stored
history only (pairs met, the last round's pairs, short-table seats), with
``rounds_left`` the rounds still to play, this one included.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import schedule, seating
from tournament.seating import (
    SeatingImpossible,
    SeatingPlan,
    SeatingPlayer,
    add_meetings,
    club_conflicts,
    count_repeated_pairs,
    repeat_free_rounds_bound,
    seat_avoiding_repeats,
    seat_players,
    short_size,
    table_pairs,
    table_sizes,
)
from tournament.seating.short_tables import _spread_short_tables

pytestmark = pytest.mark.core

SEEDS = st.integers(min_value=0, max_value=2**32)


def seatable(n: int, preferred: int = 3, largest: int = 4) -> bool:
    try:
        table_sizes(n, preferred, largest)
    except SeatingImpossible:
        return False
    return True


@dataclass
class Played:
    """One simulated round and the history it was seated with."""

    plan: SeatingPlan
    met: dict[frozenset[int], int]
    last: set[frozenset[int]]
    short_seats: dict[int, int]
    rounds_left: int


def play(
    players: Sequence[SeatingPlayer],
    rounds: int,
    seed: int,
    preferred: int = 3,
    largest: int = 4,
    *,
    fair: bool = True,
    keep_clubs_apart: bool = False,
    lookahead: bool = True,
) -> Iterator[Played]:
    """Seat ``rounds`` rounds in sequence, each re-planned from the history alone."""
    met: dict[frozenset[int], int] = {}
    last: set[frozenset[int]] = set()
    short_seats: dict[int, int] = {}
    for number in range(rounds):
        left = rounds - number if lookahead else 1
        plan = seat_avoiding_repeats(
            players,
            seed * 100 + number,
            met,
            last,
            preferred,
            largest,
            short_table_history=short_seats if fair else None,
            keep_clubs_apart=keep_clubs_apart,
            rounds_left=left,
        )
        yield Played(plan, met, last, dict(short_seats), left)
        short = short_size(plan.sizes, preferred)
        for table in plan.tables:
            for pid in table:
                short_seats[pid] = short_seats.get(pid, 0) + (1 if len(table) == short else 0)
        met = add_meetings(met, plan.tables)
        last = table_pairs(plan.tables)


def repeat_free_run(plans: Sequence[SeatingPlan]) -> int:
    """Leading rounds without a repeated pair."""
    count = 0
    for plan in plans:
        if plan.repeated_pairs:
            break
        count += 1
    return count


# --------------------------------------------------------------------------
# The bound on repeat-free rounds, against exhaustive search and design theory
# --------------------------------------------------------------------------


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[frozenset[frozenset[int]]]:
    """Every seating of ``players`` at unlabelled tables of ``sizes``, as a set of pairs."""
    if not sizes:
        yield frozenset()
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        others = list(sizes)
        others.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            table = (first, *mates)
            remaining = [pid for pid in rest if pid not in mates]
            pairs = frozenset(frozenset(pair) for pair in itertools.combinations(table, 2))
            for tail in partitions(remaining, others):
                yield pairs | tail


def most_repeat_free_rounds(n: int) -> int:
    """Exhaustive: the longest run of rounds without a repeated pair (tiny fields only).

    Any two seatings with the same table sizes are the same up to renaming the
    players, so the first round is fixed; then a depth-first search over
    seatings sharing no pair with the rounds before, in increasing index order.
    """
    seatings = sorted(set(partitions(list(range(n)), table_sizes(n))), key=sorted)
    first = seatings[0]
    candidates = [index for index, pairs in enumerate(seatings) if not pairs & first]

    def deepest(used: frozenset[frozenset[int]], start: int) -> int:
        best = 0
        for position in range(start, len(candidates)):
            pairs = seatings[candidates[position]]
            if not pairs & used:
                best = max(best, 1 + deepest(used | pairs, position + 1))
        return best

    return 1 + deepest(first, 0)


@pytest.mark.parametrize(("n", "exact"), [(6, 1), (7, 1), (8, 1), (9, 4), (10, 1)])
def test_bound_against_exhaustive_search(n: int, exact: int) -> None:
    """The bound is sound (never below the true maximum) for 6-10 players at 3-4,
    and equal to it: 6, 7, 8 and 10 (4-3-3: the table of 4 cannot take four players from
    three tables) by the pigeonhole rule, 9 by Kirkman (AG(2, 3))."""
    assert most_repeat_free_rounds(n) == exact
    assert repeat_free_rounds_bound(n) == exact


@pytest.mark.parametrize(
    ("n", "preferred", "largest", "bound"),
    [
        (15, 3, 4, 7),  # Kirkman's schoolgirls
        (21, 3, 4, 10),  # KTS(21)
        (27, 3, 3, 13),  # AG(3, 3)
        (12, 3, 3, 4),  # no NKTS(12)
        (18, 3, 3, 8),  # NKTS(18)
        (16, 4, 5, 5),  # AG(2, 4)
        (28, 4, 4, 9),  # resolvable (28, 4, 1)-design
        (25, 5, 6, 6),  # AG(2, 5)
        (13, 3, 4, 5),  # 4-3-3-3: counting only (78 pairs / 15 a round)
        (20, 4, 4, 6),  # counting only
        (3, 3, 4, 1),
        (0, 3, 4, 0),
    ],
)
def test_bound_known_values(n: int, preferred: int, largest: int, bound: int) -> None:
    assert repeat_free_rounds_bound(n, preferred, largest) == bound


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=3, max_value=400), preferred=st.integers(3, 5), spread=st.integers(0, 2))
def test_bound_below_counting(n: int, preferred: int, spread: int) -> None:
    """Never above the counting bounds (per player; pairs), at least 1 for a seatable field."""
    largest = preferred + spread
    if not seatable(n, preferred, largest):
        with pytest.raises(SeatingImpossible):
            repeat_free_rounds_bound(n, preferred, largest)
        return
    sizes = table_sizes(n, preferred, largest)
    bound = repeat_free_rounds_bound(n, preferred, largest)
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    assert 1 <= bound <= max(1, min((n - 1) // (min(sizes) - 1), n * (n - 1) // 2 // per_round))


@pytest.mark.parametrize(("n", "size"), [(9, 3), (15, 3), (27, 3), (16, 4), (25, 5), (49, 7)])
def test_known_designs_are_resolvable_without_repeats(n: int, size: int) -> None:
    """Every class seats everyone once; no pair twice in the whole design; as many
    classes as the bound says (so the bound is reached there)."""
    classes = schedule.design_classes(n, size)
    assert classes is not None
    seen: set[frozenset[int]] = set()
    for group in classes:
        assert sorted(point for block in group for point in block) == list(range(n))
        assert {len(block) for block in group} == {size}
        pairs = table_pairs(group)
        assert not pairs & seen
        seen |= pairs
    assert len(classes) == repeat_free_rounds_bound(n, size, size)
    assert schedule.design_classes(14, 3) is None


# --------------------------------------------------------------------------
# The lookahead: Kirkman and friends, seated round by round from the history
# --------------------------------------------------------------------------

#: (players, rounds, preferred, largest, fewest repeat-free rounds reached over seeds 0-2), measured.
#: Where the figure equals the bound the planner reaches the best possible (a known design is
#: built in: 9, 15, 16, 25; 12 by search); 21 players reach 7-9 of 10 and 18 players 6-7 of 8
#: (no design built in: local search only, about as good as seating round by round).
LOOKAHEAD_FIGURES = [
    (9, 4, 3, 4, 4),
    (12, 4, 3, 4, 4),
    (15, 7, 3, 4, 7),
    (16, 5, 4, 5, 5),
    (25, 6, 5, 6, 6),
    pytest.param(18, 8, 3, 4, 6, marks=pytest.mark.slow),
    pytest.param(21, 10, 3, 4, 7, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("n", "rounds", "preferred", "largest", "reached"), LOOKAHEAD_FIGURES)
def test_lookahead_reaches_the_recorded_figures(
    n: int, rounds: int, preferred: int, largest: int, reached: int
) -> None:
    """Each round re-planned from the stored history with ``rounds_left`` = rounds, ..., 1:
    at least the recorded run of repeat-free rounds for seeds 0-2 (a regression fails),
    never more than the bound, and the plan's own figure never above its bound."""
    players = [SeatingPlayer(id=pid) for pid in range(n)]
    bound = repeat_free_rounds_bound(n, preferred, largest)
    for seed in range(3):
        played = list(play(players, rounds, seed, preferred, largest))
        run = repeat_free_run([round_.plan for round_ in played])
        assert reached <= run <= bound, (seed, run)
        first = played[0].plan
        assert first.algorithm == f"{seating.LOOKAHEAD_ALGORITHM}:h{min(rounds, schedule.MAX_HORIZON)}"
        assert first.repeat_free_ahead_bound == min(rounds, bound)
        for round_ in played:
            assert round_.plan.repeat_free_ahead <= round_.plan.repeat_free_ahead_bound


def test_thirteen_players_at_three_and_four() -> None:
    """13 players at 4-3-3-3 (bound 5, counting only). With the short-table rule the four
    at the table of 4 must split over three tables of 3 next round: a repeat is forced in
    round 2 whatever the planner does. Without it, measured: 3-4 repeat-free rounds (seeds 0-2;
    round by round without the lookahead mostly 3)."""
    players = [SeatingPlayer(id=pid) for pid in range(13)]
    fair = [round_.plan for round_ in play(players, 2, 0)]
    assert fair[0].repeated_pairs == 0 and fair[1].repeated_pairs > 0
    free = [repeat_free_run([round_.plan for round_ in play(players, 5, seed, fair=False)]) for seed in range(3)]
    assert 3 <= min(free) <= max(free) <= repeat_free_rounds_bound(13) == 5


def test_kirkman_beats_round_by_round() -> None:
    """Without the lookahead (``rounds_left=1``) Kirkman's 15 run out of fresh tables early."""
    players = [SeatingPlayer(id=pid) for pid in range(15)]
    alone = [repeat_free_run([r.plan for r in play(players, 7, seed, lookahead=False)]) for seed in range(3)]
    ahead = [repeat_free_run([r.plan for r in play(players, 7, seed)]) for seed in range(3)]
    assert ahead == [7, 7, 7]
    assert max(alone) < 7


def test_lookahead_only_where_it_can_matter() -> None:
    """One round left, a field above ``LOOKAHEAD_LIMIT``, or a history leaving at most one
    repeat-free round: the seating is exactly the one without lookahead (no new string)."""
    plain = seat_avoiding_repeats(range(61), 3, {})
    many = seat_avoiding_repeats(range(61), 3, {}, rounds_left=5)
    assert (many.tables, many.algorithm, many.planned_rounds) == (plain.tables, plain.algorithm, 1)
    assert plain.algorithm == seating.REPEAT_AVOIDING_ALGORITHM
    assert (plain.repeat_free_ahead, plain.repeat_free_ahead_bound, many.repeat_free_ahead_bound) == (1, 1, 5)
    everybody = {frozenset(pair): 1 for pair in itertools.combinations(range(12), 2)}
    once = seat_avoiding_repeats(range(12), 3, everybody)
    assert seat_avoiding_repeats(range(12), 3, everybody, rounds_left=4) == once
    ahead = seat_avoiding_repeats(range(12), 3, {}, rounds_left=4)
    assert ahead.algorithm == f"{seating.LOOKAHEAD_ALGORITHM}:h4"
    assert (ahead.planned_rounds, ahead.repeat_free_ahead, ahead.repeat_free_ahead_bound) == (4, 4, 4)
    with pytest.raises(ValueError, match="rounds_left"):
        seat_avoiding_repeats(range(12), 3, {}, rounds_left=0)


def test_lookahead_is_fast() -> None:
    """The work bound keeps a lookahead round of 60 players with history well under a second
    (measured about 0.3 s at the most; CPU time, generous for a shared machine)."""
    import time

    players = [SeatingPlayer(id=pid) for pid in range(60)]
    history = list(play(players, 6, 1, lookahead=False))
    met = add_meetings(history[-1].met, history[-1].plan.tables)
    started = time.process_time()
    seat_avoiding_repeats(players, 9, met, table_pairs(history[-1].plan.tables), rounds_left=8)
    assert time.process_time() - started < 1.5


# --------------------------------------------------------------------------
# Properties over 3-400 players and up to 8 rounds
# --------------------------------------------------------------------------


def shuffle_repeats(played: Played, n: int, preferred: int, largest: int) -> int:
    """The baseline: the round cut by a plain seeded shuffle (``seat_players``, same seed),
    its short seats then handed to those with the fewest as the rules demand."""
    shuffle = seat_players([SeatingPlayer(id=pid) for pid in range(n)], played.plan.seed, preferred, largest)
    tables = [list(table) for table in shuffle.tables]
    short = short_size(shuffle.sizes, preferred)
    if short is not None and played.short_seats:
        _spread_short_tables(tables, short, played.short_seats, {})
    return count_repeated_pairs(tables, played.met)


def conflict_degree(players: Sequence[SeatingPlayer], met: dict[frozenset[int], int], clubs: bool) -> int:
    """The largest number of players someone must not sit with (met before, or club mates)."""
    avoid: dict[int, set[int]] = {player.id: set() for player in players}
    for pair in met:
        first, second = tuple(pair)
        avoid[first].add(second)
        avoid[second].add(first)
    if clubs:
        for a, b in itertools.combinations(players, 2):
            if a.club and a.club == b.club:
                avoid[a.id].add(b.id)
                avoid[b.id].add(a.id)
    return max((len(others) for others in avoid.values()), default=0)


@st.composite
def fields(draw: st.DrawFn, low: int, high: int) -> list[SeatingPlayer]:
    n = draw(st.integers(min_value=low, max_value=high).filter(seatable))
    clubs = draw(st.integers(min_value=0, max_value=12))
    labels = draw(st.lists(st.integers(0, max(clubs - 1, 0)), min_size=n, max_size=n))
    share = draw(st.floats(min_value=0, max_value=1))
    return [
        SeatingPlayer(id=pid, club=f"club {label}" if clubs and index < share * n else "")
        for index, (pid, label) in enumerate(zip(range(n), labels, strict=True))
    ]


def check_rounds(players: list[SeatingPlayer], rounds: int, seed: int, fair: bool, clubs: bool) -> None:
    """What every round seated in sequence must satisfy.

    * Tables only of the sizes ``table_sizes`` gives; everyone seated once.
    * Repeated pairs never above the shuffle baseline, round by round, when clubs are
      not kept apart (with clubs apart a club pair outweighs any repeat, so repeats
      may exceed a shuffle that ignores clubs).
    * 0 repeats (and 0 club pairs) wherever a repeat-free round provably exists: by
      the Hajnal-Szemerédi theorem a graph of largest degree d has an equitable colouring
      with any k >= d + 1 colours; the tables of ``table_sizes`` (3-4) are such classes,
      so when everyone has fewer players to avoid (met, or club mates with the flag)
      than there are tables, a seating without any exists. Asserted where the short
      seats are free (no short-table history or all tables alike): handing them to given
      players can force repeats (13 players, see above).
    * Short-table spread at most 1 with history; clubs at ``club_floor`` when the flag
      is on, every club fits (no more players than tables) and the short seats are free.
    * The plan's figure of repeat-free rounds ahead never above its bound; the
      algorithm string fits the round's column (40); reproducible in any input order.
    """
    n = len(players)
    sizes = table_sizes(n)
    club_sizes: dict[str, int] = {}
    for player in players:
        if player.club:
            club_sizes[player.club] = club_sizes.get(player.club, 0) + 1
    fits = all(size <= len(sizes) for size in club_sizes.values())
    for played in play(players, rounds, seed, fair=fair, keep_clubs_apart=clubs):
        plan = played.plan
        assert sorted(plan.player_ids) == list(range(n))
        assert sorted(plan.sizes, reverse=True) == sizes
        assert plan.repeated_pairs == count_repeated_pairs(plan.tables, played.met)
        assert plan.club_conflicts == club_conflicts(plan.tables, {p.id: p.club for p in players})
        if not clubs:
            assert plan.repeated_pairs <= shuffle_repeats(played, n, 3, 4)
        shorts_free = not fair or short_size(plan.sizes, 3) is None or not played.short_seats
        if shorts_free and conflict_degree(players, played.met, clubs) + 1 <= len(sizes):
            assert plan.repeated_pairs == 0
            assert not clubs or plan.club_conflicts == 0
        if fair:
            assert plan.short_table_spread <= 1
        if clubs and fits and shorts_free:
            assert plan.club_conflicts == plan.club_floor == 0
        assert plan.repeat_free_ahead <= plan.repeat_free_ahead_bound <= played.rounds_left
        assert len(plan.algorithm) <= 40
        assert plan.algorithm.endswith(seating.CLUBS_SUFFIX) == clubs
        again = seat_avoiding_repeats(
            list(reversed(players)),
            plan.seed,
            played.met,
            played.last,
            short_table_history=played.short_seats if fair else None,
            keep_clubs_apart=clubs,
            rounds_left=played.rounds_left,
        )
        assert again == plan


@pytest.mark.long
@settings(max_examples=15, deadline=None)
@given(
    players=fields(3, 60),
    rounds=st.integers(min_value=1, max_value=8),
    seed=SEEDS,
    fair=st.booleans(),
    clubs=st.booleans(),
)
def test_small_fields_in_sequence(
    players: list[SeatingPlayer], rounds: int, seed: int, fair: bool, clubs: bool
) -> None:
    """3-60 players (the lookahead's range), up to 8 rounds: ``check_rounds``."""
    check_rounds(players, rounds, seed, fair, clubs)


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(
    players=fields(61, 200),
    rounds=st.integers(min_value=1, max_value=8),
    seed=SEEDS,
    fair=st.booleans(),
    clubs=st.booleans(),
)
def test_large_fields_in_sequence(
    players: list[SeatingPlayer], rounds: int, seed: int, fair: bool, clubs: bool
) -> None:
    """61-200 players, up to 8 rounds: ``check_rounds``."""
    check_rounds(players, rounds, seed, fair, clubs)


# --------------------------------------------------------------------------
# Clubs
# --------------------------------------------------------------------------


def test_club_pair_weighs_above_a_repeat() -> None:
    """6 players, 2 tables: 0 and 1 share a club; every other pair already met. Keeping the
    club apart costs repeats, and the plan pays them."""
    players = [SeatingPlayer(id=pid, club="Blau-Weiß" if pid < 2 else "") for pid in range(6)]
    met = {frozenset(pair): 1 for pair in itertools.combinations(range(6), 2) if pair != (0, 1)}
    together = seat_avoiding_repeats(players, 1, met)
    apart = seat_avoiding_repeats(players, 1, met, keep_clubs_apart=True)
    assert together.club_conflicts == 1 and together.repeated_pairs == 5
    assert apart.club_conflicts == 0 and apart.repeated_pairs == 6
    assert apart.club_floor == together.club_floor == 0
    assert apart.algorithm == seating.REPEAT_AVOIDING_ALGORITHM + seating.CLUBS_SUFFIX


def test_club_floor_when_a_club_is_larger_than_the_tables() -> None:
    """7 of one club at 3 tables of 9 players: spread 3 + 2 + 2 at best, 3 + 1 + 1 = 5 pairs;
    the floor (``_club_lower_bound``) is reported and reached, with the lookahead too."""
    players = [SeatingPlayer(id=pid, club="A" if pid < 7 else "") for pid in range(9)]
    plan = seat_avoiding_repeats(players, 4, {}, keep_clubs_apart=True, rounds_left=3)
    assert plan.club_floor == 5
    assert plan.club_conflicts == 5


def test_clubs_on_the_linear_path() -> None:
    """Above ``LINEAR_FROM``: clubs as large as the table count stay apart, with history."""
    n = seating.LINEAR_FROM + 50
    tables = len(table_sizes(n))
    players = [SeatingPlayer(id=pid, club=f"club {pid % 5}" if pid < 5 * tables else "") for pid in range(n)]
    first = seat_avoiding_repeats(players, 2, {}, keep_clubs_apart=True)
    met = add_meetings({}, first.tables)
    plan = seat_avoiding_repeats(players, 3, met, table_pairs(first.tables), keep_clubs_apart=True)
    assert plan.algorithm == seating.LINEAR_ALGORITHM + seating.CLUBS_SUFFIX
    assert (plan.club_conflicts, plan.club_floor, plan.repeated_pairs) == (0, 0, 0)
    assert seat_avoiding_repeats(players, 3, met, table_pairs(first.tables)).club_conflicts > 0


# --------------------------------------------------------------------------
# The linear path's total work bound
# --------------------------------------------------------------------------


def test_linear_work_bound_changes_nothing_until_reached() -> None:
    """Below the bound the seating is the first version's (``linear_swap_work=0``: unbounded);
    once reached, the plan says so with ``LINEAR_CAPPED_ALGORITHM``."""
    n = seating.LINEAR_FROM + 20
    rng = random.Random(5)
    met = {frozenset(rng.sample(range(n), 2)): 1 for _ in range(40 * n)}
    bounded = seat_avoiding_repeats(range(n), 7, met)
    unbounded = seat_avoiding_repeats(range(n), 7, met, linear_swap_work=0)
    assert bounded == unbounded
    assert bounded.algorithm == seating.LINEAR_ALGORITHM
    # 200 players who all met: more than the tables, so repeats stay and the swaps run.
    crowded = {frozenset(pair): 1 for pair in itertools.combinations(range(200), 2)}
    cut = seat_avoiding_repeats(range(n), 7, crowded, linear_swap_work=1)
    assert cut.algorithm == seating.LINEAR_CAPPED_ALGORITHM
    assert sorted(cut.player_ids) == list(range(n))
    full = seat_avoiding_repeats(range(n), 7, crowded, linear_swap_work=0)
    assert full.algorithm == seating.LINEAR_ALGORITHM
    assert full.unavoidable_repeats <= full.repeated_pairs <= cut.repeated_pairs
