"""Format A: knockout tables, a lucky-loser round and a points final. Pure.

Source: the underwater UNO championship (rules/README.md, format A).

- A table is won by the first player to win ``wins_needed`` games (fewer at a
  table of the largest size: 3, or 2 at a 4-player table). Places 2-4 at a
  table: games won, then the lower start number.
- Round 1 seats everyone. All round-1 losers play a lucky-loser round; its
  table winners join the round-1 winners in round 2. From then on only table
  winners advance until at most ``largest`` and at least ``final_size``
  players remain; they play the final.
- Final: played to points or to wins (``final_target_kind``: the rules leave
  it to the day). To points, each game's winner scores the card points left in
  the others' hands; to wins, no card points are counted. The first to the
  target wins the final; the others are placed by points (or games won), and
  players tied on them play duels (``duel_wins_needed`` games, one by default)
  for their order: see ``duel_plan``. A tie is never decided by start number.
- Where the plain rule cannot go on (a count that does not split, or no split
  leading to a final of exactly ``final_size``) the plan returns options for
  the organiser (tables one larger or smaller, a runner-up moving up, a final
  of another size, a plain round, dropping the weakest lucky losers last);
  nothing outside the rule happens without the organiser's choice.

Everything here takes frozen snapshots and returns plain values; the service
layer reads them from the database and writes the results back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournament import seating
from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec, rank_by
from tournament.seating import SeatingOption
from tournament.seating import explain_impossible as explain_impossible

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (
    *SEATING_SETTINGS,
    CLUBS_APART,
    "wins_needed",
    "wins_needed_large_table",
    "final_size",
    "final_target_kind",
    "final_points_target",
    "final_wins_target",
    "duel_wins_needed",
    "scoring_table",
)
SPEC = FormatSpec(slug="knockout", stages=("main", "lucky_loser", "final"), min_players=2, settings_used=SETTINGS)

MAIN, LUCKY_LOSER, FINAL = "main", "lucky_loser", "final"
# Games to win a duel unless the tournament says otherwise (``duel_wins_needed``).
DUEL_WINS_NEEDED = 1
# What the final is played to (``Tournament.final_target_kind``).
FINAL_TO_POINTS, FINAL_TO_WINS = "points", "wins"

# Choices the organiser can make when a player count does not split.
ONE_MORE_ADVANCES = seating.ONE_MORE_ADVANCES
MORE_PLAYERS = seating.MORE_PLAYERS
ONE_FEWER = seating.ONE_FEWER
FEWER_PLAYERS = seating.FEWER_PLAYERS
LARGER_TABLE = seating.LARGER_TABLE
SMALLER_TABLE = seating.SMALLER_TABLE
FINAL_OF_ALL = seating.FINAL_OF_ALL
PLAIN_ROUND = seating.PLAIN_ROUND


@dataclass(frozen=True)
class KnockoutSettings:
    preferred: int = 3
    largest: int = 4
    final_size: int = 3
    wins_needed: int = 3
    wins_needed_large_table: int = 2
    points_target: int = 500
    final_target_kind: str = FINAL_TO_POINTS
    final_wins_target: int = 3
    duel_wins_needed: int = DUEL_WINS_NEEDED


def wins_needed_at(table_size: int, *, wins_needed: int, wins_needed_large_table: int, largest: int) -> int:
    """Games a player must win to take a table of ``table_size`` players.

    The rules: three games, two at a four-player table (the largest size).
    """
    if table_size < 2:
        raise FormatError("table_too_small", size=table_size)
    return wins_needed_large_table if table_size >= largest and largest > 2 else wins_needed


def table_places(wins: Mapping[int, int], start_numbers: Mapping[int, int]) -> list[int]:
    """Player ids in table order: most games won first, then lower start number."""
    return sorted(wins, key=lambda pid: (-wins[pid], start_numbers[pid]))


def table_winner(wins: Mapping[int, int], needed: int) -> int | None:
    """The player id that reached ``needed`` wins, if any."""
    reached = [pid for pid, count in wins.items() if count >= needed]
    return reached[0] if reached else None


# --- snapshots -----------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    id: int
    start_number: int
    club: str = ""


@dataclass(frozen=True)
class SeatResult:
    """A player's result at a decided table. ``place`` 1 is the table winner; ``points`` the card
    points scored at a final to points (0 elsewhere)."""

    player_id: int
    place: int
    games_won: int
    points: int = 0


@dataclass(frozen=True)
class TableResult:
    """A table's seats. ``points_target``: the final is played to points (None: to wins, and
    every other table). ``duel_for_place``: the final place a duel's winner takes."""

    number: int
    seats: tuple[SeatResult, ...]
    is_duel: bool = False
    points_target: int | None = None
    duel_for_place: int | None = None

    @property
    def winner(self) -> int:
        return min(self.seats, key=lambda seat: seat.place).player_id

    @property
    def losers(self) -> tuple[SeatResult, ...]:
        return tuple(seat for seat in self.seats if seat.place != 1)


@dataclass(frozen=True)
class RoundResult:
    """A finished round. For the final, ``final_order`` lists every finalist by place."""

    number: int
    stage: str
    tables: tuple[TableResult, ...]
    final_order: tuple[int, ...] = ()


@dataclass(frozen=True)
class NextRound:
    """The next round to seat, or the options when the rules alone cannot go on.

    ``players`` are the ids to seat, ``sizes`` the table sizes (largest first;
    the final is one table of every finalist). ``largest`` is the table size
    limit (one more than the setting when the organiser chose a larger table).
    ``added`` moved up and ``dropped`` left by the organiser's choice
    (``choice``, its words in ``option``). ``options`` is non-empty only when a
    choice is needed and none was given; ``reason`` says why (``NO_SPLIT``:
    the count does not split into tables; ``FINAL_SIZE``: no split leads to a
    final of exactly ``final_size`` players).
    """

    stage: str
    players: tuple[int, ...]
    largest: int
    added: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()
    options: tuple[SeatingOption, ...] = ()
    choice: str = ""
    sizes: tuple[int, ...] = ()
    option: SeatingOption | None = None
    reason: str = ""

    @property
    def needs_choice(self) -> bool:
        return bool(self.options)


@dataclass(frozen=True)
class Finished:
    """The tournament is decided; ``ranking`` places everyone."""

    ranking: tuple[RankEntry, ...]


# --- the next round ----------------------------------------------------------------

# Why the organiser is asked (``NextRound.reason``).
NO_SPLIT = "no_split"
FINAL_SIZE = "final_size"


def plan_next_round(
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundResult],
    settings: KnockoutSettings,
    choice: str = "",
) -> NextRound | Finished:
    """What comes after ``rounds`` (all decided): the next round or the end.

    The rules, to the letter: round 1 seats everyone; every round-1 loser plays
    the lucky-loser round; then only table winners advance "until three players
    play the final" (``final_size``). Where several splits into tables of
    ``preferred``..``largest`` exist, the one whose winners (looking ahead over
    the rounds: a round's winners are its tables) reach a final of exactly
    ``final_size`` is taken, the most tables first. Where none does, or the
    count does not split, the organiser chooses (``options``); ``choice`` is
    one of their codes. Nothing outside the plain rule happens without a choice.
    """
    start = {e.id: e.start_number for e in entrants}
    if not rounds:
        ids = tuple(sorted(start, key=start.__getitem__))
        if len(ids) < 2:
            raise FormatError("too_few_players", players=len(ids), needed=2)
        return _plan_first(ids, settings, choice)

    last = rounds[-1]
    if last.stage == FINAL:
        return Finished(ranking=tuple(rank_players(entrants, rounds)))
    stages = [r.stage for r in rounds]
    if last.stage == MAIN and LUCKY_LOSER not in stages and len([s for s in stages if s == MAIN]) == 1:
        losers = _by_strength([seat for table in last.tables for seat in table.losers], start)
        winners = len(last.tables)
        return _plan_lucky_losers(tuple(s.player_id for s in losers), winners, settings, choice)

    advancing = [table.winner for table in last.tables]
    if last.stage == LUCKY_LOSER:
        first_main = next(r for r in rounds if r.stage == MAIN)
        advancing = [table.winner for table in first_main.tables] + advancing
    runners_up = tuple(
        s.player_id for s in _by_strength([seat for table in last.tables for seat in table.losers], start)
    )
    return _plan_main(tuple(advancing), runners_up, settings, choice)


def _by_strength(seats: Sequence[SeatResult], start: Mapping[int, int]) -> list[SeatResult]:
    """Losers best first, across tables as the rules rank them: games won, then the lower start number."""
    return sorted(seats, key=lambda seat: (-seat.games_won, start[seat.player_id]))


# --- table splits and the look-ahead ------------------------------------------------


def table_counts(players: int, smallest: int, largest: int) -> list[int]:
    """Every number of tables that seats ``players`` at tables of ``smallest``..``largest``, most first."""
    if smallest < 1 or players < smallest:
        return []
    return [t for t in range(players // smallest, 0, -1) if players <= largest * t]


def split_into(players: int, tables: int, preferred: int, smallest: int, largest: int) -> tuple[int, ...] | None:
    """``players`` at exactly ``tables`` tables of ``smallest``..``largest`` (largest first), as many
    as possible of the ``preferred`` size, the others as even as possible; None if impossible."""
    if tables < 1 or not smallest * tables <= players <= largest * tables:
        return None
    extra = players - preferred * tables
    if extra == 0:
        return (preferred,) * tables
    if extra > 0:
        step, sign = largest - preferred, 1
    else:
        step, sign, extra = preferred - smallest, -1, -extra
    changed = -(-extra // step)
    base, rest = divmod(extra, changed)
    sizes = (
        [preferred + sign * (base + 1)] * rest
        + [preferred + sign * base] * (changed - rest)
        + [preferred] * (tables - changed)
    )
    return tuple(sorted(sizes, reverse=True))


@functools.lru_cache(maxsize=8192)
def reaches_final(players: int, preferred: int, largest: int, final_size: int) -> bool:
    """Whether ``players`` table winners, advancing by the plain rule (tables of
    ``preferred``..``largest``, only winners go on), can end in a final of exactly ``final_size``."""
    if players == final_size:
        return True
    if players < final_size:
        return False
    return any(
        reaches_final(t, preferred, largest, final_size)
        for t in table_counts(players, preferred, largest)
        if t < players
    )


def _reaches(settings: KnockoutSettings, players: int) -> bool:
    return reaches_final(players, settings.preferred, settings.largest, settings.final_size)


def _plain_tables(players: int, settings: KnockoutSettings) -> list[int]:
    return table_counts(players, settings.preferred, settings.largest)


@dataclass(frozen=True)
class _Way:
    """One option the organiser may choose and the round it leads to."""

    option: SeatingOption
    plan: NextRound
    reaches: bool


def _final(players: tuple[int, ...], settings: KnockoutSettings, **extra: Any) -> NextRound:
    return NextRound(stage=FINAL, players=players, largest=settings.largest, sizes=(len(players),), **extra)


def _table_ways(
    stage: str,
    players: tuple[int, ...],
    settings: KnockoutSettings,
    after: Callable[[int], bool],
    *,
    fallback: Callable[[int], bool],
) -> list[_Way]:
    """Tables larger (``larger_table``) or smaller (``smaller_table``) than the settings allow.

    One size more (or less) where a split with it has winners that ``after`` accepts (reaching
    the final size). Otherwise, only when the count does not split at all, the nearest size that
    seats everyone with a table count ``fallback`` accepts (the round after it can be played):
    up to one table of everyone, down to tables of 2."""
    count = len(players)
    splits_plainly = bool(_plain_tables(count, settings))
    ways = []
    larger = [(settings.preferred, size) for size in range(settings.largest + 1, max(count, settings.largest + 1) + 1)]
    smaller = [(size, settings.largest) for size in range(settings.preferred - 1, 1, -1)]
    for code, ranges in ((LARGER_TABLE, larger), (SMALLER_TABLE, smaller)):
        found: tuple[int, int, int, bool] | None = None
        if ranges:
            low, high = ranges[0]
            reaching = [t for t in table_counts(count, low, high) if after(t)]
            if reaching:
                found = (low, high, reaching[0], True)
        if found is None and not splits_plainly:
            for low, high in ranges:
                tables = table_counts(count, low, high)
                if tables and fallback(tables[0]):
                    found = (low, high, tables[0], False)
                    break
        if found is None:
            continue
        low, high, chosen, reaches = found
        sizes = split_into(count, chosen, settings.preferred, low, high)
        assert sizes is not None
        beyond = [size for size in sizes if not settings.preferred <= size <= settings.largest]
        option = SeatingOption(
            code,
            sizes,
            {
                "players": count,
                "size": high if code == LARGER_TABLE else low,
                "count": len(beyond),
                "tables": chosen,
                "finalists": settings.final_size if reaches else 0,
            },
        )
        ways.append(_Way(option, NextRound(stage=stage, players=players, largest=high, sizes=sizes), reaches))
    return ways


def _plain_way(stage: str, players: tuple[int, ...], settings: KnockoutSettings, min_tables: int = 1) -> _Way | None:
    """Go on by the plain rule although the final will not have ``final_size`` players (a main
    round needs ``min_tables`` 2: one table leaves one winner)."""
    tables = _plain_tables(len(players), settings)
    if not tables or tables[0] < min_tables:
        return None
    sizes = split_into(len(players), tables[0], settings.preferred, settings.preferred, settings.largest)
    assert sizes is not None
    option = SeatingOption(
        PLAIN_ROUND, sizes, {"players": len(players), "tables": tables[0], "final_size": settings.final_size}
    )
    return _Way(option, NextRound(stage=stage, players=players, largest=settings.largest, sizes=sizes), False)


def _final_way(players: tuple[int, ...], settings: KnockoutSettings) -> _Way | None:
    """Every remaining player plays the final now (a final of another size than the setting)."""
    if not 2 <= len(players) <= settings.largest + 1 or len(players) == settings.final_size:
        return None
    option = SeatingOption(
        FINAL_OF_ALL, (len(players),), {"players": len(players), "final_size": settings.final_size, "final": 1}
    )
    return _Way(option, _final(players, settings), False)


def _decide(
    stage: str,
    players: tuple[int, ...],
    settings: KnockoutSettings,
    ways: Sequence[_Way | None],
    choice: str,
) -> NextRound:
    """The organiser's choice among ``ways``, or the question. The options in order: ways that
    reach the final size, a final of all at one table within the largest size, the other ways,
    a final of all beyond the largest size, a plain round, dropping players last. A plain round
    as the only way is no deviation: it is seated as it is."""
    found = [way for way in ways if way is not None]

    def rank(way: _Way) -> int:
        code = way.option.code
        if code in (ONE_FEWER, FEWER_PLAYERS):
            return 5
        if way.reaches:
            return 0
        if code == FINAL_OF_ALL:
            return 1 if len(players) <= settings.largest else 3
        return 4 if code == PLAIN_ROUND else 2

    found.sort(key=rank)
    if not found:
        raise FormatError("no_seating_possible", players=len(players))
    if len(found) == 1 and found[0].option.code == PLAIN_ROUND:
        return found[0].plan
    chosen = next((way for way in found if way.option.code == choice), None)
    if chosen is None:
        reason = FINAL_SIZE if _plain_tables(len(players), settings) or len(players) <= settings.largest else NO_SPLIT
        return NextRound(
            stage=stage,
            players=players,
            largest=settings.largest,
            options=tuple(way.option for way in found),
            reason=reason,
        )
    return replace(chosen.plan, choice=choice, option=chosen.option)


def _plain(stage: str, players: tuple[int, ...], settings: KnockoutSettings, tables: int) -> NextRound:
    sizes = split_into(len(players), tables, settings.preferred, settings.preferred, settings.largest)
    assert sizes is not None
    return NextRound(stage=stage, players=players, largest=settings.largest, sizes=sizes)


def _plan_first(ids: tuple[int, ...], settings: KnockoutSettings, choice: str) -> NextRound:
    """Round 1 seats everyone: its table count is chosen so that, with a plain lucky-loser
    round, the winners reach the final size. Nobody is added or dropped."""
    count = len(ids)
    if count == settings.final_size:
        return _final(ids, settings)

    def after(tables: int) -> bool:
        losers = count - tables
        return tables < count and any(_reaches(settings, tables + t) for t in _plain_tables(losers, settings))

    reaching = [t for t in _plain_tables(count, settings) if after(t)]
    if reaching:
        return _plain(MAIN, ids, settings, reaching[0])
    ways: list[_Way | None] = [*_table_ways(MAIN, ids, settings, after, fallback=lambda t: count - t >= 2)]
    ways += [_final_way(ids, settings), _plain_way(MAIN, ids, settings)]
    return _decide(MAIN, ids, settings, ways, choice)


def _plan_lucky_losers(losers: tuple[int, ...], winners: int, settings: KnockoutSettings, choice: str) -> NextRound:
    """Every round-1 loser (``losers``, best first) plays the lucky-loser round; its table count is
    chosen so that with the ``winners`` of round 1 the final size is reached. Where the count does
    not split, a larger or smaller table seats them all; dropping the weakest is offered last."""

    def after(tables: int) -> bool:
        return _reaches(settings, winners + tables)

    reaching = [t for t in _plain_tables(len(losers), settings) if after(t)]
    if reaching:
        return _plain(LUCKY_LOSER, losers, settings, reaching[0])
    ways: list[_Way | None] = [*_table_ways(LUCKY_LOSER, losers, settings, after, fallback=lambda t: t >= 1)]
    ways.append(_plain_way(LUCKY_LOSER, losers, settings))
    if not _plain_tables(len(losers), settings):
        ways.append(_drop_way(losers, settings, after))
    return _decide(LUCKY_LOSER, losers, settings, ways, choice)


def _drop_way(losers: tuple[int, ...], settings: KnockoutSettings, after: Callable[[int], bool]) -> _Way | None:
    """The weakest losers (fewest games won, then the higher start number) stay out: the fewest
    that lets the rest split (reaching the final size if a few more do that)."""
    fits = [k for k in range(1, len(losers)) if _plain_tables(len(losers) - k, settings)]
    if not fits:
        return None
    reaching = [k for k in fits if any(after(t) for t in _plain_tables(len(losers) - k, settings))]
    fewer = reaching[0] if reaching and reaching[0] <= fits[0] + 1 else fits[0]
    keep = len(losers) - fewer
    tables = _plain_tables(keep, settings)
    chosen = next((t for t in tables if after(t)), tables[0])
    sizes = split_into(keep, chosen, settings.preferred, settings.preferred, settings.largest)
    assert sizes is not None
    code = ONE_FEWER if fewer == 1 else FEWER_PLAYERS
    option = SeatingOption(code, sizes, {"players": keep, "fewer": fewer, "tables": chosen})
    plan = NextRound(
        stage=LUCKY_LOSER,
        players=losers[:keep],
        largest=settings.largest,
        sizes=sizes,
        dropped=losers[keep:],
    )
    return _Way(option, plan, after(chosen))


def _plan_main(
    advancing: tuple[int, ...], runners_up: tuple[int, ...], settings: KnockoutSettings, choice: str
) -> NextRound:
    """Only table winners go on. ``final_size`` of them play the final; more play a round whose
    table count leads there. Otherwise the organiser chooses: a runner-up moves up, a table of
    another size, a final of another size, or a plain round."""
    count = len(advancing)
    if count == settings.final_size:
        return _final(advancing, settings)

    def after(tables: int) -> bool:
        return tables < count and _reaches(settings, tables)

    reaching = [t for t in _plain_tables(count, settings) if after(t)]
    if reaching:
        return _plain(MAIN, advancing, settings, reaching[0])
    ways: list[_Way | None] = [*_table_ways(MAIN, advancing, settings, after, fallback=lambda t: t >= 2)]
    ways += [_up_way(advancing, runners_up, settings), _final_way(advancing, settings)]
    ways.append(_plain_way(MAIN, advancing, settings, min_tables=2))
    return _decide(MAIN, advancing, settings, ways, choice)


def _up_way(advancing: tuple[int, ...], runners_up: tuple[int, ...], settings: KnockoutSettings) -> _Way | None:
    """The best runners-up (most games won, then the lower start number) move up: the fewest
    that make a final of exactly ``final_size`` reachable (at most ``final_size - 1`` of them),
    or, when the winners do not split at all, the fewest that let them split."""
    count = len(advancing)
    most = min(len(runners_up), max(1, settings.final_size - 1))

    def reaching(total: int) -> list[int]:
        return [t for t in _plain_tables(total, settings) if t < total and _reaches(settings, t)]

    extra = next((k for k in range(1, most + 1) if count + k == settings.final_size or reaching(count + k)), 0)
    reaches = bool(extra)
    if not extra and not _plain_tables(count, settings):
        extra = next(
            (k for k in range(1, len(runners_up) + 1) if any(t >= 2 for t in _plain_tables(count + k, settings))), 0
        )
    if not extra:
        return None
    players = advancing + runners_up[:extra]
    code = ONE_MORE_ADVANCES if extra == 1 else MORE_PLAYERS
    if len(players) == settings.final_size:
        option = SeatingOption(code, (len(players),), {"players": len(players), "extra": extra, "final": 1})
        return _Way(option, _final(players, settings, added=runners_up[:extra]), True)
    tables = reaching(len(players)) or _plain_tables(len(players), settings)
    sizes = split_into(len(players), tables[0], settings.preferred, settings.preferred, settings.largest)
    assert sizes is not None
    params = {"players": len(players), "extra": extra, "tables": tables[0]}
    params["finalists"] = settings.final_size if reaches else 0
    option = SeatingOption(code, sizes, params)
    plan = NextRound(stage=MAIN, players=players, largest=settings.largest, sizes=sizes, added=runners_up[:extra])
    return _Way(option, plan, reaches)


# --- the final -----------------------------------------------------------------------


@dataclass(frozen=True)
class FinalState:
    """Where a final stands (to points or to wins: the same rule on other numbers).

    ``winner`` reached the target (None while playing). ``order`` lists the
    winner, then the others by points (games won); within a tie group the lower
    start number comes first only as a provisional seat order: ``ties`` groups
    the players whose order duels must decide (``duel_plan``).
    """

    winner: int | None
    order: tuple[int, ...] = ()
    ties: tuple[tuple[int, ...], ...] = ()


def final_state(points: Mapping[int, int], target: int, start_numbers: Mapping[int, int]) -> FinalState:
    """The final is decided once a player has at least ``target`` points.

    ``points`` are card points (a final to points) or games won (a final to
    wins). Only a game's winner scores, so at most one player crosses the
    target per game; the highest total is the winner.
    """
    if target < 1:
        raise FormatError("points_target_too_small", target=target)
    leader = max(points, key=lambda pid: (points[pid], -start_numbers[pid]))
    if points[leader] < target:
        return FinalState(winner=None)
    others = sorted((pid for pid in points if pid != leader), key=lambda pid: (-points[pid], start_numbers[pid]))
    ties: list[tuple[int, ...]] = []
    for pid in others:
        group = tuple(p for p in others if points[p] == points[pid])
        if len(group) > 1 and group not in ties:
            ties.append(group)
    return FinalState(winner=leader, order=(leader, *others), ties=tuple(ties))


def resolve_final_order(state: FinalState, duels: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The final's order once each tie group is replaced by the order its duels decided
    (one sequence per tie group, best first: ``DuelPlan.group_orders``)."""
    order = list(state.order)
    for group, duel_order in zip(state.ties, duels, strict=True):
        if sorted(group) != sorted(duel_order):
            raise FormatError("duel_players_mismatch")
        first = order.index(group[0])
        order[first : first + len(group)] = list(duel_order)
    return tuple(order)


@dataclass(frozen=True)
class DuelResult:
    """A duel table of the final: its players and, once decided, its winner."""

    players: tuple[int, ...]
    winner: int | None = None


@dataclass(frozen=True)
class DuelNeeded:
    """A duel to seat now: ``players`` (in the final's provisional order) play for ``place``."""

    players: tuple[int, ...]
    place: int


@dataclass(frozen=True)
class DuelPlan:
    """What the duels of a decided final stand at.

    ``needed`` are the duels to seat now; ``wanted`` the player sets (sorted) of
    every duel that belongs to the plan (played, playing or needed): a duel
    table with other players is stale. ``group_orders`` gives each tie group's
    order, best first, once all of its duels are decided; ``order`` the whole
    final's order once every tie is decided (else None). ``standing`` is the
    order as far as play has decided it: the places duels have given, the
    players still to duel after them (provisionally by start number).
    """

    needed: tuple[DuelNeeded, ...]
    wanted: frozenset[tuple[int, ...]]
    group_orders: tuple[tuple[int, ...], ...]
    order: tuple[int, ...] | None
    standing: tuple[int, ...] = ()


def duel_plan(state: FinalState, duels: Sequence[DuelResult]) -> DuelPlan:
    """The duels that decide the tied places of a decided final, one place at a time.

    *Decided*: "bei Gleichstand gibt es ein direktes Duell". All players of a
    tie group play one duel table; its winner (the first to the duel's number
    of wins) takes the highest place of the group. The others then play a new
    duel for the next place (a further duel table, seated once the previous
    duel is decided), until the last duel between two decides both remaining
    places. Every place of a tie is thus decided by play, never by start
    number and never by games won in a duel someone else won. Ties are
    independent: the groups' duels can be played at the same time.
    """
    if state.winner is None:
        return DuelPlan(needed=(), wanted=frozenset(), group_orders=(), order=None)
    by_players = {tuple(sorted(duel.players)): duel for duel in duels}
    needed: list[DuelNeeded] = []
    wanted: set[tuple[int, ...]] = set()
    orders: list[tuple[int, ...]] = []
    partial: list[tuple[int, ...]] = []
    for group in state.ties:
        first_place = state.order.index(group[0]) + 1
        remaining = list(group)
        placed: list[int] = []
        while len(remaining) > 1:
            key = tuple(sorted(remaining))
            wanted.add(key)
            duel = by_players.get(key)
            if duel is None:
                needed.append(DuelNeeded(players=tuple(remaining), place=first_place + len(placed)))
                break
            if duel.winner is None:
                break
            if duel.winner not in remaining:
                raise FormatError("duel_players_mismatch")
            placed.append(duel.winner)
            remaining.remove(duel.winner)
        if len(remaining) == 1:
            orders.append((*placed, remaining[0]))
        partial.append((*placed, *remaining))
    complete = len(orders) == len(state.ties)
    return DuelPlan(
        needed=tuple(needed),
        wanted=frozenset(wanted),
        group_orders=tuple(orders) if complete else (),
        order=resolve_final_order(state, orders) if complete else None,
        standing=resolve_final_order(state, partial),
    )


# --- the final ranking -------------------------------------------------------------


RULE_FINAL_PLACE = "final_place"
RULE_DUEL = "duel"
RULE_ROUND_REACHED = "round_reached"
RULE_GAMES_WON = "games_won"
RULE_START_NUMBER = "start_number"


@dataclass(frozen=True)
class RankEntry:
    """A place in the final ranking; ``decided_by`` names the rule that put this
    player below the one above (empty for the first place).

    ``games_won`` counts at the table where the player went out (the final for
    finalists). A finalist of a final to points has ``final_points``; one who
    played a duel for a tied place has ``duel_for_place`` (the place their last
    duel was for) and ``duel_won`` (None while that duel is playing)."""

    place: int
    player_id: int
    reached: str
    reached_round: int
    games_won: int
    start_number: int
    decided_by: str = ""
    final_place: int | None = field(default=None)
    final_points: int | None = None
    duel_for_place: int | None = None
    duel_won: bool | None = None


@dataclass(frozen=True)
class DuelPlayed:
    """A finalist's last duel: the place it was for and whether they won it (None: playing)."""

    for_place: int
    won: bool | None


def _depth(stage: str, number: int, main_index: int) -> int:
    # Round 1 < lucky-loser round < round 2 < round 3 ... < final
    if stage == FINAL:
        return 10_000
    if stage == LUCKY_LOSER:
        return 3
    return 2 * main_index


def tied_duels(final: Sequence[TableResult]) -> list[TableResult]:
    """The duels of the final round's tables ``final`` whose players are tied in the final (on
    points, or games won in a final to wins). A correction of the final can leave a duel with
    games whose players are no longer tied: it decides nothing."""
    main = next((table for table in final if not table.is_duel), None)
    if main is None:
        return []
    to_points = main.points_target is not None
    score = {seat.player_id: seat.points if to_points else seat.games_won for seat in main.seats}

    def tied(table: TableResult) -> bool:
        scores = [score.get(seat.player_id) for seat in table.seats]
        return None not in scores and len(set(scores)) == 1

    return [table for table in final if table.is_duel and tied(table)]


def final_duels(final: Sequence[TableResult], final_place: Mapping[int, int]) -> dict[int, DuelPlayed]:
    """Each finalist's last duel (the one for the lowest place: after a duel for place 2 its
    losers play for place 3), from the final round's tables ``final`` and the final's places.
    A duel without its place stored is for the best place among its players."""
    last: dict[int, DuelPlayed] = {}
    for table in tied_duels(final):
        decided = any(seat.place == 1 for seat in table.seats)
        for_place = table.duel_for_place or min(final_place.get(seat.player_id, 0) for seat in table.seats)
        for seat in table.seats:
            known = last.get(seat.player_id)
            if known is None or for_place > known.for_place:
                last[seat.player_id] = DuelPlayed(for_place=for_place, won=seat.place == 1 if decided else None)
    return last


def rank_players(entrants: Sequence[Entrant], rounds: Sequence[RoundResult]) -> list[RankEntry]:
    """Everyone, by how far they got, then games won at their last table, then
    start number. Finalists come first in the final's order."""
    start = {e.id: e.start_number for e in entrants}
    last_seen: dict[int, tuple[int, str, int, int]] = {}  # id -> (depth, stage, round number, games won)
    main_index = 0
    final_order: tuple[int, ...] = ()
    final_tables: tuple[TableResult, ...] = ()
    for rnd in rounds:
        if rnd.stage == MAIN:
            main_index += 1
        if rnd.stage == FINAL:
            final_order = rnd.final_order
            final_tables = rnd.tables
        depth = _depth(rnd.stage, rnd.number, main_index)
        for table in rnd.tables:
            if table.is_duel:
                continue
            for seat in table.seats:
                last_seen[seat.player_id] = (depth, rnd.stage, rnd.number, seat.games_won)
    final_place = {pid: index for index, pid in enumerate(final_order, start=1)}
    duels = final_duels(final_tables, final_place)
    final_table = next((table for table in final_tables if not table.is_duel), None)
    final_points = (
        {seat.player_id: seat.points for seat in final_table.seats}
        if final_table is not None and final_table.points_target is not None
        else {}
    )
    # Players tied in the final who played a duel: it decided their order.
    duel_players = [{seat.player_id for seat in table.seats} for table in tied_duels(final_tables)]

    def seen(pid: int) -> tuple[int, str, int, int]:
        return last_seen.get(pid, (0, "", 0, 0))

    def final_rule(above: int, below: int) -> str:
        return RULE_DUEL if any({above, below} <= players for players in duel_players) else RULE_FINAL_PLACE

    ranked = rank_by(
        start,
        [
            (RULE_ROUND_REACHED, lambda pid: -seen(pid)[0]),
            (final_rule, lambda pid: final_place.get(pid, 0)),
            (RULE_GAMES_WON, lambda pid: -seen(pid)[3]),
            (RULE_START_NUMBER, lambda pid: start[pid]),
        ],
    )
    return [
        RankEntry(
            place=place,
            player_id=pid,
            reached=seen(pid)[1],
            reached_round=seen(pid)[2],
            games_won=seen(pid)[3],
            start_number=start[pid],
            decided_by=decided_by,
            final_place=final_place.get(pid),
            final_points=final_points.get(pid),
            duel_for_place=duels[pid].for_place if pid in duels else None,
            duel_won=duels[pid].won if pid in duels else None,
        )
        for place, pid, decided_by in ranked
    ]
