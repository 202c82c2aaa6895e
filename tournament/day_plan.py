"""The expected plan of the day: rounds, their tables and about when they start. Pure.

Players and their families plan their day by it ("Ein voraussichtlicher Turnierplan ist auf
<Homepage> zu finden"; "Spiel-Beginn 10 Uhr, Ende ungefähr 18 Uhr"). Nothing here plans a
round: the rounds come from the formats' own pure planners, driven round by round with made-up
results the way the dry runs drive them (``knockout.rules.plan_next_round``,
``life_bands.rules.plan_main`` / ``plan_pool``, ``points.rules.plan_tables``); this module only
chains them and puts times on the result.

Decisions (what the rules do not say):

- Where a planner asks the organiser (a count that does not split), the plan takes its first
  option, as the dry runs do, and marks the round ``chosen``: the organiser may choose otherwise
  on the day, and the plan then follows what was seated.
- A round lasts as long as its slowest table: the expected games at a table (equal players, a
  fair chance each) times the minutes a game takes at its size. A knockout table is a race to
  ``wins_needed`` games; a life-bands table plays until enough players lost all their chips
  (``chips_per_table``, one chip a game); a points table plays ``games_per_round`` games (or
  until the round's time limit). The knockout final to points is taken as a race to the wins
  that make the target at ``POINTS_PER_HAND`` card points left in each other hand.
- Schocken's sharp play: after ``sharp_play_minutes`` a table plays one half instead of two, so
  its games take half as long from then on (never in the grand final).
- Life bands: the consolation round is refilled continuously; the plan plays it in waves beside
  the main rounds (a wave's tables formed by ``plan_pool`` from who waits when a main round
  starts), then wave by wave until its final table. Its table counts are "about".
- Play-offs, duels for a tied final place and corrections are not planned: they come when they
  come, and the times after them move.
- During the day the minutes per game follow this tournament's measured games: the median of
  each game's length divided by its typical length at its table size (``pace``), once
  ``MEASURED_ENOUGH`` games are measured. A median, so one slow table does not move the day; games
  typed in within a minute of the one before are not measured (a paper slip entered at once), and
  the pace stays within ``PACE_BOUNDS``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tournament.formats.knockout import rules as knockout
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.points import rules as points

# A knockout final to points: card points the winner takes from each other hand, on average.
POINTS_PER_HAND = 25
# Measured games before the measured pace replaces the settings' game length.
MEASURED_ENOUGH = 3
# A game measured shorter than this is not a game's length: games typed in together from a paper
# slip, or after the table was decided, follow each other within seconds. Left out.
SHORTEST_GAME_MINUTES = 1.0
# The measured pace is kept within these bounds of the settings' game length (a first hour of a
# few games must not put the final at lunchtime or at midnight).
PACE_BOUNDS = (0.25, 4.0)
# A life-bands plan stops after this many waves (never reached: every wave seats or ends someone).
MOST_WAVES = 500

MAIN, LUCKY_LOSER, FINAL = knockout.MAIN, knockout.LUCKY_LOSER, knockout.FINAL
CONSOLATION, GRAND_FINAL = "consolation", "grand_final"


# --- expected games at one table ----------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _race(wins: tuple[int, ...], needed: int) -> float:
    if max(wins) >= needed:
        return 0.0
    size = len(wins)
    total = 0.0
    for i in range(size):
        after = tuple(sorted((*wins[:i], wins[i] + 1, *wins[i + 1 :])))
        total += _race(after, needed)
    return 1.0 + total / size


def race_games(size: int, needed: int) -> float:
    """Expected games until one of ``size`` equally strong players has won ``needed``."""
    if size < 1 or needed < 1:
        return 0.0
    return _race((0,) * size, needed)


@functools.lru_cache(maxsize=4096)
def _elimination(chips: tuple[int, ...], out_left: int) -> float:
    if out_left <= 0 or len(chips) <= 1:
        return 0.0
    total = 0.0
    for i, held in enumerate(chips):
        rest = chips[:i] + chips[i + 1 :]
        if held == 1:
            total += _elimination(rest, out_left - 1)
        else:
            total += _elimination(tuple(sorted((*rest, held - 1))), out_left)
    return 1.0 + total / len(chips)


def elimination_games(size: int, chips: int, out: int) -> float:
    """Expected games until ``out`` of ``size`` players have lost all ``chips`` (a game's loser, any
    player still in with an equal chance, hands in one chip)."""
    if size < 2 or chips < 1 or out < 1:
        return 0.0
    return _elimination((chips,) * size, min(out, size - 1))


# --- the plan -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanRound:
    """A round of the plan: ``stage`` and its ``number`` in the stage, its table ``sizes`` (largest
    first), the expected games at a table of each size (``games``: (size, games) pairs), whether
    the planner asked the organiser here (``chosen``: the plan took the first option), whether
    its tables switch to sharp play (``sharp``) and the round's time limit in minutes."""

    stage: str
    number: int
    sizes: tuple[int, ...]
    games: tuple[tuple[int, float], ...]
    chosen: bool = False
    sharp: bool = False
    limit_minutes: int | None = None

    @property
    def tables(self) -> int:
        return len(self.sizes)

    @property
    def players(self) -> int:
        return sum(self.sizes)


@dataclass(frozen=True)
class PlanSlot:
    """Rounds played at the same time (life bands: a main round and a consolation wave); one round
    in the other formats. The slot lasts as long as its longest round."""

    rounds: tuple[PlanRound, ...]

    @property
    def lead(self) -> PlanRound:
        return self.rounds[0]


@dataclass(frozen=True)
class ExpectedPlan:
    """The slots of the day for ``players``; empty where too few players for the format."""

    players: int
    slots: tuple[PlanSlot, ...]


def _slot(*rounds: PlanRound) -> PlanSlot:
    return PlanSlot(tuple(rounds))


def _games_by_size(sizes: Iterable[int], games_at: object) -> tuple[tuple[int, float], ...]:
    assert callable(games_at)
    return tuple((size, float(games_at(size))) for size in sorted(set(sizes), reverse=True))


# --- knockout -------------------------------------------------------------------------------


def _knockout_games(stage: str, size: int, settings: knockout.KnockoutSettings) -> float:
    if stage == FINAL:
        if settings.final_target_kind == knockout.FINAL_TO_WINS:
            return race_games(size, settings.final_wins_target)
        wins = math.ceil(settings.points_target / (POINTS_PER_HAND * max(1, size - 1)))
        return race_games(size, wins)
    needed = knockout.wins_needed_at(
        size,
        wins_needed=settings.wins_needed,
        wins_needed_large_table=settings.wins_needed_large_table,
        largest=settings.largest,
    )
    return race_games(size, needed)


def knockout_rounds(players: int, settings: knockout.KnockoutSettings) -> tuple[tuple[PlanRound, ...], int]:
    """The rounds ``knockout.rules.plan_next_round`` seats for ``players``, from round 1 to the
    final, with made-up results (every table won by its first seat; counts, not names, decide the
    next round). Where it asks, the first option is taken. Returns the rounds and how many
    choices were taken."""
    entrants = [knockout.Entrant(id=i, start_number=i) for i in range(1, players + 1)]
    played: list[knockout.RoundResult] = []
    found: list[PlanRound] = []
    numbers: dict[str, int] = {}
    choices = 0
    while True:
        step = knockout.plan_next_round(entrants, played, settings)
        if isinstance(step, knockout.Finished):
            break
        chosen = step.needs_choice
        if chosen:
            choices += 1
            step = knockout.plan_next_round(entrants, played, settings, step.options[0].code)
            assert isinstance(step, knockout.NextRound)
        numbers[step.stage] = numbers.get(step.stage, 0) + 1
        sizes = tuple(sorted(step.sizes, reverse=True))
        found.append(
            PlanRound(
                step.stage,
                numbers[step.stage],
                sizes,
                _games_by_size(sizes, lambda size, stage=step.stage: _knockout_games(stage, size, settings)),
                chosen=chosen,
            )
        )
        if step.stage == FINAL:
            break
        played.append(_made_up_round(len(played) + 1, step))
    return tuple(found), choices


def _made_up_round(number: int, step: knockout.NextRound) -> knockout.RoundResult:
    """``step`` seated in order and decided: at each table the first seat wins, the others by seat."""
    tables = []
    at = 0
    for table_number, size in enumerate(step.sizes, 1):
        ids = step.players[at : at + size]
        at += size
        seats = tuple(
            knockout.SeatResult(player_id=pid, place=place, games_won=max(0, 3 - place))
            for place, pid in enumerate(ids, 1)
        )
        tables.append(knockout.TableResult(number=table_number, seats=seats))
    return knockout.RoundResult(number=number, stage=step.stage, tables=tuple(tables))


def knockout_plan(players: int, settings: knockout.KnockoutSettings) -> ExpectedPlan:
    """The knockout's expected plan: one round a slot."""
    if players < max(knockout.SPEC.min_players, 3):
        return ExpectedPlan(players, ())
    rounds, _choices = knockout_rounds(players, settings)
    return ExpectedPlan(players, tuple(_slot(r) for r in rounds))


# --- points ---------------------------------------------------------------------------------


def points_rounds(
    players: int, *, preferred: int, largest: int, rounds: int, games_per_round: int, limit_minutes: int | None = None
) -> tuple[PlanRound, ...]:
    """``rounds`` rounds of every player, each seated as ``points.rules.plan_tables`` seats the
    count (its first option where it asks); each table plays ``games_per_round`` games."""
    plan = points.plan_tables(players, preferred, largest)
    chosen = bool(plan.options)
    if chosen:
        plan = points.plan_tables(players, preferred, largest, plan.options[0].code)
    sizes = tuple(sorted(plan.sizes, reverse=True))
    games = _games_by_size(sizes, lambda size: games_per_round)
    return tuple(
        PlanRound(MAIN, number, sizes, games, chosen=chosen, limit_minutes=limit_minutes)
        for number in range(1, rounds + 1)
    )


def points_plan(
    players: int, *, preferred: int, largest: int, rounds: int, games_per_round: int, limit_minutes: int | None = None
) -> ExpectedPlan:
    if players < points.SMALLEST_TABLE:
        return ExpectedPlan(players, ())
    found = points_rounds(
        players,
        preferred=preferred,
        largest=largest,
        rounds=rounds,
        games_per_round=games_per_round,
        limit_minutes=limit_minutes,
    )
    return ExpectedPlan(players, tuple(_slot(r) for r in found))


# --- life bands -----------------------------------------------------------------------------


def life_bands_main_rounds(players: int, *, preferred: int, largest: int) -> tuple[tuple[int, ...], ...]:
    """The table sizes of each main round ``life_bands.rules.plan_main`` seats for ``players``,
    its final table last: a table's survivors are its size less ``players_out_at``."""
    found: list[tuple[int, ...]] = []
    left = players
    while left > life_bands.WINNERS_PER_FINAL_TABLE:
        plan = life_bands.plan_main(tuple(range(left)), preferred, largest)
        if plan.options:
            plan = life_bands.plan_main(tuple(range(left)), preferred, largest, plan.options[0].code)
        if plan.final_table:
            found.append((len(plan.final_table),))
            break
        sizes = tuple(sorted(plan.sizes, reverse=True))
        found.append(sizes)
        left -= sum(life_bands.players_out_at(size) for size in sizes)
    return tuple(found)


def life_bands_plan(
    players: int, *, preferred: int, largest: int, bands: int, chips: int, chips_grand_final: int
) -> ExpectedPlan:
    """Main rounds (``plan_main``) with the consolation round played in waves beside them
    (``plan_pool``, see the module's decisions), then the consolation's last waves, then the
    grand final of whoever reached it."""
    if players < life_bands.SPEC.min_players:
        return ExpectedPlan(players, ())

    def games(size: int) -> float:
        return elimination_games(size, chips, life_bands.players_out_at(size))

    main = list(life_bands_main_rounds(players, preferred=preferred, largest=largest))
    main_chosen = _life_bands_choices(players, preferred, largest)
    pool: list[int] = []  # bands left of each player waiting, oldest first
    finalists = 0 if main else min(players, life_bands.WINNERS_PER_FINAL_TABLE)
    slots: list[PlanSlot] = []
    consolation_number = 0
    consolation_done = bands < 2
    for wave in range(MOST_WAVES):
        if not main and (consolation_done or not pool):
            break
        rounds: list[PlanRound] = []
        main_losers = 0
        if main:
            sizes = main.pop(0)
            main_round, main_losers, reached = _life_bands_main_round(
                wave + 1, sizes, last=not main, chosen=wave + 1 in main_chosen, games=games
            )
            finalists += reached
            rounds.append(main_round)
        returning: list[int] = []
        if not consolation_done:
            played = _consolation_wave(
                pool,
                more_coming=bool(rounds),
                number=consolation_number + 1,
                preferred=preferred,
                largest=largest,
                games=games,
            )
            if played.round is not None:
                consolation_number += 1
                rounds.append(played.round)
            pool, returning, consolation_done = list(played.pool), list(played.returning), played.done
            finalists += played.finalists
        if bands > 1:
            returning += [bands - 1] * main_losers
        pool += returning
        if rounds:
            slots.append(PlanSlot(tuple(rounds)))
        elif not main:
            break
    if finalists >= 2:
        slots.append(_slot(_life_bands_grand_final(finalists, chips_grand_final)))
    return ExpectedPlan(players, tuple(slots))


def _life_bands_main_round(
    number: int, sizes: tuple[int, ...], *, last: bool, chosen: bool, games: Callable[[int], float]
) -> tuple[PlanRound, int, int]:
    """A main round of the plan, the players it sends out (a band lost) and the finalists it makes
    (the last main round, one table small enough to be the final table: its survivors)."""
    out = sum(life_bands.players_out_at(size) for size in sizes)
    final_table = last and len(sizes) == 1 and sizes[0] <= life_bands.FINAL_TABLE_MAX
    planned = PlanRound(MAIN, number, sizes, _games_by_size(sizes, games), chosen=chosen, sharp=True)
    return planned, out, sizes[0] - out if final_table else 0


@dataclass(frozen=True)
class _ConsolationWave:
    """A wave of the consolation round in the plan: its round (None where nobody is seated), who
    waits after it and who returns to the pool (bands left each), the finalists it makes, and
    whether the consolation round is over."""

    round: PlanRound | None
    pool: tuple[int, ...]
    returning: tuple[int, ...]
    finalists: int
    done: bool


def _consolation_wave(
    pool: list[int], *, more_coming: bool, number: int, preferred: int, largest: int, games: Callable[[int], float]
) -> _ConsolationWave:
    """The pool seated as ``plan_pool`` would (``pool``: bands left of each player waiting, oldest
    first); at each table the first seats lose a band (the weakest-looking players lose)."""
    pool_plan = life_bands.plan_pool(
        tuple(range(len(pool))), more_coming=more_coming, preferred=preferred, largest=largest
    )
    if pool_plan.winners:
        return _ConsolationWave(None, (), (), len(pool_plan.winners), True)
    if not pool_plan.sizes:
        return _ConsolationWave(None, tuple(pool), (), 0, False)
    seated = sum(pool_plan.sizes)
    at_tables, waiting = pool[:seated], pool[seated:]
    sizes = tuple(sorted(pool_plan.sizes, reverse=True))
    planned = PlanRound(CONSOLATION, number, sizes, _games_by_size(sizes, games), sharp=True)
    returning: list[int] = []
    finalists = 0
    at = 0
    for size in pool_plan.sizes:
        table = at_tables[at : at + size]
        at += size
        out = life_bands.players_out_at(size)
        if pool_plan.final:
            finalists += size - out
            continue
        returning += table[out:]
        returning += [left - 1 for left in table[:out] if left > 1]
    if pool_plan.final:
        return _ConsolationWave(planned, (), tuple(returning), finalists, True)
    return _ConsolationWave(planned, tuple(waiting), tuple(returning), finalists, False)


def _life_bands_grand_final(finalists: int, chips_grand_final: int) -> PlanRound:
    """The grand final of everyone who reached it, played until one is left."""
    return PlanRound(
        GRAND_FINAL,
        1,
        (finalists,),
        ((finalists, elimination_games(finalists, chips_grand_final, finalists - 1)),),
    )


def _life_bands_choices(players: int, preferred: int, largest: int) -> frozenset[int]:
    """The main rounds (by number) where ``plan_main`` asks the organiser."""
    asked = set()
    left = players
    number = 0
    while left > life_bands.WINNERS_PER_FINAL_TABLE:
        number += 1
        plan = life_bands.plan_main(tuple(range(left)), preferred, largest)
        if plan.options:
            asked.add(number)
            plan = life_bands.plan_main(tuple(range(left)), preferred, largest, plan.options[0].code)
        if plan.final_table:
            break
        left -= sum(life_bands.players_out_at(size) for size in plan.sizes)
    return frozenset(asked)


# --- times ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """What a game takes: ``minutes_preferred`` at a table of ``preferred`` players,
    ``minutes_largest`` at one of ``largest`` (other sizes on the line through both, at least a
    minute), times ``pace`` (the measured median against these; 1 before the day); the break
    between slots; sharp play after ``sharp_play_minutes`` (None: never)."""

    preferred: int
    largest: int
    minutes_preferred: float
    minutes_largest: float
    break_minutes: float = 5
    sharp_play_minutes: int | None = None
    pace: float = 1.0

    def typical(self, size: int) -> float:
        """A game's typical minutes at ``size`` from the settings (no pace)."""
        if self.largest == self.preferred:
            return max(1.0, self.minutes_preferred)
        slope = (self.minutes_largest - self.minutes_preferred) / (self.largest - self.preferred)
        return max(1.0, self.minutes_preferred + slope * (size - self.preferred))

    def game_minutes(self, size: int) -> float:
        return self.typical(size) * self.pace


def table_minutes(games: float, game_minutes: float, sharp_after: int | None) -> float:
    """A table's minutes: ``games`` of ``game_minutes``; after ``sharp_after`` minutes the games
    left take half as long (one half instead of two). Grows with ``game_minutes``."""
    full = games * game_minutes
    if sharp_after is None or full <= sharp_after:
        return full
    return sharp_after + (full - sharp_after) / 2


def round_minutes(planned: PlanRound, timing: Timing) -> float:
    """The round's minutes: its slowest table's, never beyond its time limit."""
    sharp_after = timing.sharp_play_minutes if planned.sharp else None
    longest = max(
        (table_minutes(games, timing.game_minutes(size), sharp_after) for size, games in planned.games), default=0.0
    )
    if planned.limit_minutes is not None:
        longest = min(longest, float(planned.limit_minutes))
    return longest


def slot_minutes(slot: PlanSlot, timing: Timing) -> float:
    return max((round_minutes(r, timing) for r in slot.rounds), default=0.0)


@dataclass(frozen=True)
class TimedSlot:
    """A slot with ``offset`` (minutes from the plan's start) and ``minutes``; ``start`` the time of
    day where a start is known; ``started`` where it is under way or done (its start is real)."""

    slot: PlanSlot
    offset: float
    minutes: float
    start: datetime | None
    started: bool = False

    @property
    def end(self) -> datetime | None:
        return None if self.start is None else self.start + timedelta(minutes=self.minutes)


def schedule(
    plan: ExpectedPlan,
    timing: Timing,
    start: datetime | None,
    *,
    anchor: tuple[int, datetime] | None = None,
    now: datetime | None = None,
) -> tuple[TimedSlot, ...]:
    """The slots of ``plan`` one after the other with ``timing.break_minutes`` between them, from
    ``start``. ``anchor`` (slot index, when it started) puts the slot under way at its real start;
    the slots before it are done (their offsets kept). Where the slot under way should have ended
    before ``now``, it is taken to end ``now``: the next starts after it, not in the past."""
    timed: list[TimedSlot] = []
    offset = 0.0
    at = start
    for index, slot in enumerate(plan.slots):
        minutes = slot_minutes(slot, timing)
        started = False
        if anchor is not None and index <= anchor[0]:
            started = True
            if index == anchor[0]:
                at = anchor[1]
                if start is not None:
                    offset = (anchor[1] - start).total_seconds() / 60
                if now is not None and at + timedelta(minutes=minutes) < now:
                    minutes = (now - at).total_seconds() / 60
        timed.append(TimedSlot(slot, offset, minutes, at, started))
        offset += minutes + timing.break_minutes
        if at is not None:
            at = at + timedelta(minutes=minutes + timing.break_minutes)
    return tuple(timed)


def rounded(moment: datetime, step: int = 5) -> datetime:
    """``moment`` to the nearest ``step`` minutes ("about 17:40")."""
    base = moment.replace(second=0, microsecond=0)
    minutes = base.minute + moment.second / 60 + moment.microsecond / 60_000_000
    near = round(minutes / step) * step
    return base.replace(minute=0) + timedelta(minutes=near)


# --- measured games -------------------------------------------------------------------------


def median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True)
class MeasuredGame:
    """One recorded game: its table, the table's size, when the table started and when the game
    was entered."""

    table: int
    size: int
    table_started: datetime | None
    entered: datetime


def game_lengths(games: Iterable[MeasuredGame]) -> list[tuple[int, float]]:
    """Each game's (table size, minutes): from the game before it at its table, or the table's
    start for its first game. A game whose start is unknown, or shorter than
    ``SHORTEST_GAME_MINUTES``, is left out."""
    by_table: dict[int, list[MeasuredGame]] = {}
    for game in games:
        by_table.setdefault(game.table, []).append(game)
    found: list[tuple[int, float]] = []
    for table_games in by_table.values():
        table_games.sort(key=lambda game: game.entered)
        before = table_games[0].table_started
        for game in table_games:
            if before is not None:
                minutes = (game.entered - before).total_seconds() / 60
                if minutes >= SHORTEST_GAME_MINUTES:
                    found.append((game.size, minutes))
            before = game.entered
    return found


def measured_pace(lengths: Sequence[tuple[int, float]], timing: Timing) -> float | None:
    """The median of each measured game's minutes over its typical minutes at its size, within
    ``PACE_BOUNDS``; None before ``MEASURED_ENOUGH`` games."""
    if len(lengths) < MEASURED_ENOUGH:
        return None
    found = median([minutes / timing.typical(size) for size, minutes in lengths])
    if found is None:
        return None
    return min(max(found, PACE_BOUNDS[0]), PACE_BOUNDS[1])


def with_pace(timing: Timing, pace: float | None) -> Timing:
    return timing if pace is None else replace(timing, pace=pace)
