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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournament import seating
from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec, rank_by
from tournament.seating import PlannedRound, SeatingOption
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
ONE_LARGER_TABLE = seating.ONE_LARGER_TABLE
ONE_SMALLER_TABLE = seating.ONE_SMALLER_TABLE
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
    final of exactly ``final_size`` players). ``forecast`` is the way this round
    leads to the final (this round first), as counts can tell: a departure in a
    later round is asked when it comes.
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
    forecast: tuple[PlannedRound, ...] = ()

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

    The rules, to the letter: round 1 seats everyone ("im Normalfall drei
    Teilnehmer pro Tisch, bei Notwendigkeit bis zu vier"); every round-1 loser
    plays the lucky-loser round; then only table winners advance "until three
    players play the final" (``final_size``). A round's winners are its tables,
    so the counts of every later round follow from the table counts chosen: the
    planner looks ahead to the final. Where tables of ``preferred``..``largest``
    lead to a final of exactly ``final_size``, that round is seated (the most
    tables first). Otherwise the organiser chooses (``options``, each with the
    rounds it leads to), ordered by how far the way departs from the rules
    (``_path``): first ways with at most one table outside the sizes in any round
    that reach the final's size, then fewer such tables, a runner-up moving up
    into the final before a final of another size; several tables outside the
    sizes in one round after all of those, and players left out last.
    ``choice`` is one of the options' codes. Nothing outside the plain rule
    happens without a choice.
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
    main_rounds = stages.count(MAIN)
    if last.stage == MAIN and LUCKY_LOSER not in stages and main_rounds == 1:
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
    return _plan_main(tuple(advancing), runners_up, settings, choice, main_number=main_rounds + 1)


def _by_strength(seats: Sequence[SeatResult], start: Mapping[int, int]) -> list[SeatResult]:
    """Losers best first, across tables as the rules rank them: games won, then the lower start number."""
    return sorted(seats, key=lambda seat: (-seat.games_won, start[seat.player_id]))


# --- table splits --------------------------------------------------------------------


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


@dataclass(frozen=True)
class _Split:
    """A round's tables (largest first); ``odd`` of them are outside preferred..largest."""

    sizes: tuple[int, ...]
    odd: int
    code: str


def _split(players: int, tables: int, settings: KnockoutSettings) -> _Split | None:
    """``players`` at exactly ``tables`` tables, departing least from the sizes: tables of
    ``preferred``..``largest`` (as many of the preferred size as possible); else the fewest
    tables one smaller than the preferred size (never below 2) or one larger than the largest.
    None where neither seats them."""
    low, high = settings.preferred, settings.largest
    if low * tables <= players <= high * tables:
        sizes = split_into(players, tables, low, low, high)
        assert sizes is not None
        return _Split(sizes, 0, PLAIN_ROUND)
    if low - 1 >= 2 and (low - 1) * tables <= players < low * tables:
        odd = low * tables - players
        return _Split((low,) * (tables - odd) + (low - 1,) * odd, odd, ONE_SMALLER_TABLE if odd == 1 else SMALLER_TABLE)
    if high * tables < players <= (high + 1) * tables:
        odd = players - high * tables
        return _Split((high + 1,) * odd + (high,) * (tables - odd), odd, ONE_LARGER_TABLE if odd == 1 else LARGER_TABLE)
    return None


# A round's split with more tables outside the sizes than this is not looked at (``_splits``): such
# ways come after every other, and the fewest of them are the ones worth offering.
SPLIT_OUTSIDE_MOST = 2


def _splits(players: int, settings: KnockoutSettings, *, fewest: int) -> list[tuple[int, _Split]]:
    """Every ``_split`` of ``players`` into at least ``fewest`` and fewer than ``players`` tables with
    at most ``SPLIT_OUTSIDE_MOST`` tables outside the sizes, the most tables first."""
    most = min(players // max(2, settings.preferred - 1), (players + SPLIT_OUTSIDE_MOST) // settings.preferred)
    least = max(fewest, -(-players // (settings.largest + 1)), -(-(players - SPLIT_OUTSIDE_MOST) // settings.largest))
    found = []
    for tables in range(min(most, players - 1), least - 1, -1):
        split = _split(players, tables, settings)
        if split is not None:
            found.append((tables, split))
    return found


def _wide_splits(players: int, settings: KnockoutSettings, *, fewest: int) -> list[tuple[int, _Split]]:
    """Where no table count departs by one size at most (unusual settings): the nearest sizes that
    seat everyone, down to tables of 2 or up to larger ones."""
    for step in range(2, players + 1):
        found = []
        for low, high in ((settings.preferred - step, settings.largest), (settings.preferred, settings.largest + step)):
            if low < 2:
                continue
            for tables in table_counts(players, low, high):
                if fewest <= tables < players:
                    sizes = split_into(players, tables, settings.preferred, low, high)
                    assert sizes is not None
                    odd = sum(1 for size in sizes if not settings.preferred <= size <= settings.largest)
                    found.append(
                        (tables, _Split(sizes, odd, SMALLER_TABLE if low < settings.preferred else LARGER_TABLE))
                    )
        if found:
            return found
    return []


# --- ways to the final and how far they depart from the rules -------------------------


@dataclass(frozen=True)
class _Path:
    """A way from a round to the final: ``round``, then ``rest`` (None after the final).

    ``odd`` counts the tables outside preferred..largest on the way (a final of another size
    outside them too), ``many`` whether some round has more than one, ``dropped`` the players
    left out; ``final_size`` and ``moved_up`` describe the final it ends in (runners-up who move
    up into it); ``reaches`` whether that is a final of exactly ``final_size`` of table winners.
    Linked, so that extending a way costs nothing however long it is; ``key`` and ``kind`` come with it (``_path``)."""

    round: PlannedRound
    rest: _Path | None
    odd: int
    many: bool
    final_size: int
    moved_up: int
    dropped: int
    reaches: bool
    key: tuple[int, ...]
    kind: tuple[int, ...]

    def then(self, stage: str, split: _Split, dropped: int = 0) -> _Path:
        """A round of ``split`` seated before this way."""
        if not split.odd and not dropped:  # the same departure: only the round is new
            return replace(self, round=PlannedRound(stage, 0, split.sizes), rest=self)
        return _path(
            PlannedRound(stage, 0, split.sizes),
            self,
            odd=self.odd + split.odd,
            many=self.many or split.odd > 1,
            final_size=self.final_size,
            moved_up=self.moved_up,
            dropped=self.dropped + dropped,
            reaches=self.reaches,
            distance=self.key[5],
        )

    def rounds(self) -> tuple[PlannedRound, ...]:
        found: list[PlannedRound] = []
        path: _Path | None = self
        while path is not None:
            found.append(path.round)
            path = path.rest
        return tuple(found)


def _path(
    round_: PlannedRound,
    rest: _Path | None,
    *,
    odd: int,
    many: bool,
    final_size: int,
    moved_up: int,
    dropped: int,
    reaches: bool,
    distance: int,
) -> _Path:
    """A way with its ``key``: how far it departs from the rules, smaller first. Players left out
    (the rules seat every round-1 loser); several tables outside the sizes in one round; not reaching a final of exactly
    ``final_size`` by table winners; the tables outside the sizes; a runner-up moving up before
    a final of another size, the nearer size first. Its ``kind`` is what it amounts to, its final
    and whether players stay out: the best way of each kind is kept (one option each; a way with
    more tables outside the sizes to the same final is never better)."""
    end = 0 if reaches else 1 if moved_up else 2
    key = (int(dropped > 0), int(many), int(not reaches), odd, end, distance, moved_up, dropped)
    kind = (int(dropped > 0), final_size, moved_up)
    return _Path(round_, rest, odd, many, final_size, moved_up, dropped, reaches, key, kind)


def _final_path(players: int, settings: KnockoutSettings, moved_up: int = 0) -> _Path:
    """The final of ``players`` (``moved_up`` of them runners-up); a final of another size than
    ``final_size`` outside preferred..largest counts as a table outside the sizes."""
    outside = players != settings.final_size and not settings.preferred <= players <= settings.largest
    return _path(
        PlannedRound(FINAL, 0, (players,), moved_up),
        None,
        odd=int(outside),
        many=False,
        final_size=players,
        moved_up=moved_up,
        dropped=0,
        reaches=players == settings.final_size and not moved_up,
        distance=abs(players - settings.final_size),
    )


def _keep_best(found: dict[tuple[int, ...], _Path], path: _Path) -> None:
    known = found.get(path.kind)
    if known is None or path.key < known.key:
        found[path.kind] = path


@functools.lru_cache(maxsize=8192)
def _main_paths(players: int, settings: KnockoutSettings) -> tuple[_Path, ...]:
    """The best way from ``players`` table winners to the final, one of each kind: main rounds of
    at least two tables, only winners advancing; a final of exactly ``final_size``, of all of
    them (another size, at most one table larger than the largest), or with runners-up moved up
    to ``final_size``."""
    if players == settings.final_size:
        return (_final_path(players, settings),)
    found: dict[tuple[int, ...], _Path] = {}
    if players < settings.final_size:
        _keep_best(found, _final_path(settings.final_size, settings, settings.final_size - players))
    if 2 <= players <= settings.largest + 1:
        _keep_best(found, _final_path(players, settings))
    if players > settings.final_size:
        splits = _splits(players, settings, fewest=2) or ([] if found else _wide_splits(players, settings, fewest=2))
        for tables, split in splits:
            for after in _main_paths(tables, settings):
                _keep_best(found, after.then(MAIN, split))
    return tuple(sorted(found.values(), key=lambda path: path.key))


@functools.lru_cache(maxsize=8192)
def _lucky_loser_paths(winners: int, losers: int, settings: KnockoutSettings) -> tuple[tuple[_Split, _Path], ...]:
    """The lucky-loser round of all ``losers`` (its split) and the way after it, where its table
    winners join round 1's ``winners``: the best of each kind for each option code."""
    if losers < 2:
        return ()
    found: dict[tuple[str, tuple[int, ...]], tuple[_Split, _Path]] = {}
    for tables, split in _splits(losers, settings, fewest=1) or _wide_splits(losers, settings, fewest=1):
        for after in _main_paths(winners + tables, settings):
            path = after.then(LUCKY_LOSER, split)
            known = found.get((split.code, path.kind))
            if known is None or path.key < known[1].key:
                found[(split.code, path.kind)] = (split, path)
    return tuple(found.values())


# --- the organiser's options ------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    """A way to go on: the round it seats now (``plan``, under the option ``code``) and where it leads."""

    code: str
    plan: NextRound
    path: _Path


def _seated(stage: str, players: tuple[int, ...], split: _Split, settings: KnockoutSettings, **extra: Any) -> NextRound:
    largest = max(settings.largest, *split.sizes)
    return NextRound(stage=stage, players=players, largest=largest, sizes=split.sizes, **extra)


def _final(players: tuple[int, ...], settings: KnockoutSettings, **extra: Any) -> NextRound:
    return NextRound(stage=FINAL, players=players, largest=settings.largest, sizes=(len(players),), **extra)


def _final_candidates(players: tuple[int, ...], settings: KnockoutSettings) -> list[_Candidate]:
    """Every remaining player plays the final now (another size than ``final_size``)."""
    if not 2 <= len(players) <= settings.largest + 1 or len(players) == settings.final_size:
        return []
    return [_Candidate(FINAL_OF_ALL, _final(players, settings), _final_path(len(players), settings))]


def _plain_counts(players: int, settings: KnockoutSettings) -> list[int]:
    """Table counts of the sizes that seat ``players`` at tables of two or more, the most first."""
    return [tables for tables in table_counts(players, settings.preferred, settings.largest) if tables < players]


def _plain_round(stage: str, players: int, tables: int, settings: KnockoutSettings) -> PlannedRound:
    sizes = split_into(players, tables, settings.preferred, settings.preferred, settings.largest)
    assert sizes is not None
    return PlannedRound(stage, 0, sizes)


def _plain_rest(players: int, settings: KnockoutSettings) -> tuple[PlannedRound, ...] | None:
    """The rounds from ``players`` table winners to a final of exactly ``final_size`` by the plain
    rule (tables of the sizes, the most tables whose winners still get there), or None. The search
    of ``_decide`` would find the same way first; this is its fast case (a field of thousands)."""
    if players == settings.final_size:
        return (PlannedRound(FINAL, 0, (players,)),)
    for tables in _plain_counts(players, settings):
        if reaches_final(tables, settings.preferred, settings.largest, settings.final_size):
            rest = _plain_rest(tables, settings)
            assert rest is not None
            return (_plain_round(MAIN, players, tables, settings), *rest)
    return None


def _plain_plan(
    stage: str,
    players: tuple[int, ...],
    rounds: tuple[PlannedRound, ...],
    settings: KnockoutSettings,
    *,
    main_number: int,
) -> NextRound:
    """The round the plain rule seats (the first of ``rounds``), with ``rounds`` as its forecast."""
    return NextRound(
        stage=stage,
        players=players,
        largest=settings.largest,
        sizes=rounds[0].sizes,
        forecast=_numbered(rounds, main_number),
    )


def _plan_first(ids: tuple[int, ...], settings: KnockoutSettings, choice: str) -> NextRound:
    """Round 1 seats everyone; every loser plays the lucky-loser round after it. Nobody is added or
    dropped."""
    count = len(ids)
    if count == settings.final_size:
        return _final(ids, settings)
    for tables in _plain_counts(count, settings):  # the plain rule reaches the final: no search
        for lucky in _plain_counts(count - tables, settings):
            rest = _plain_rest(tables + lucky, settings)
            if rest is not None:
                first = _plain_round(MAIN, count, tables, settings)
                second = _plain_round(LUCKY_LOSER, count - tables, lucky, settings)
                return _plain_plan(MAIN, ids, (first, second, *rest), settings, main_number=1)
    return _search_first(ids, settings, choice)


def _search_first(ids: tuple[int, ...], settings: KnockoutSettings, choice: str) -> NextRound:
    """Round 1 by the search of every way (``_decide``)."""
    count = len(ids)
    candidates = _final_candidates(ids, settings)
    splits = _splits(count, settings, fewest=1)
    for tables, split in splits or _wide_splits(count, settings, fewest=1):
        plan = _seated(MAIN, ids, split, settings)
        best: dict[tuple[int, ...], _Path] = {}
        for _lucky_split, after in _lucky_loser_paths(tables, count - tables, settings):
            _keep_best(best, after.then(MAIN, split))
        candidates += [_Candidate(split.code, plan, path) for path in best.values()]
    return _decide(MAIN, ids, settings, candidates, choice, main_number=1)


def _plan_lucky_losers(losers: tuple[int, ...], winners: int, settings: KnockoutSettings, choice: str) -> NextRound:
    """Every round-1 loser (``losers``, best first) plays the lucky-loser round; its table winners join
    the ``winners`` of round 1. Where the count does not split into tables of the sizes, leaving the
    weakest out is offered last."""
    for tables in _plain_counts(len(losers), settings):  # the plain rule reaches the final: no search
        rest = _plain_rest(winners + tables, settings)
        if rest is not None:
            lucky = _plain_round(LUCKY_LOSER, len(losers), tables, settings)
            return _plain_plan(LUCKY_LOSER, losers, (lucky, *rest), settings, main_number=2)
    return _search_lucky_losers(losers, winners, settings, choice)


def _search_lucky_losers(losers: tuple[int, ...], winners: int, settings: KnockoutSettings, choice: str) -> NextRound:
    """The lucky-loser round by the search of every way (``_decide``)."""
    candidates = [
        _Candidate(split.code, _seated(LUCKY_LOSER, losers, split, settings), path)
        for split, path in _lucky_loser_paths(winners, len(losers), settings)
    ]
    if not table_counts(len(losers), settings.preferred, settings.largest):
        candidates += _drop_candidates(losers, winners, settings)
    return _decide(LUCKY_LOSER, losers, settings, candidates, choice, main_number=2)


def _drop_candidates(losers: tuple[int, ...], winners: int, settings: KnockoutSettings) -> list[_Candidate]:
    """The weakest losers (fewest games won, then the higher start number) stay out: the fewest that
    let the rest split into tables of the sizes, or one more."""
    fits = [k for k in range(1, len(losers) - 1) if table_counts(len(losers) - k, settings.preferred, settings.largest)]
    candidates = []
    for fewer in fits[:2]:
        keep = len(losers) - fewer
        for tables, split in _splits(keep, settings, fewest=1):
            if split.odd:
                continue
            code = ONE_FEWER if fewer == 1 else FEWER_PLAYERS
            plan = _seated(LUCKY_LOSER, losers[:keep], split, settings, dropped=losers[keep:])
            candidates += [
                _Candidate(code, plan, after.then(LUCKY_LOSER, split, dropped=fewer))
                for after in _main_paths(winners + tables, settings)
            ]
    return candidates


def _plan_main(
    advancing: tuple[int, ...], runners_up: tuple[int, ...], settings: KnockoutSettings, choice: str, main_number: int
) -> NextRound:
    """Only table winners go on; ``final_size`` of them play the final. Fewer: the best runners-up
    (most games won, then the lower start number) may move up into the final, or the winners play
    a final of their own number. More: a main round leads there."""
    count = len(advancing)
    if count == settings.final_size:
        return _final(advancing, settings)
    rest = _plain_rest(count, settings)
    if rest is not None:  # the plain rule reaches the final: no search
        return _plain_plan(MAIN, advancing, rest, settings, main_number=main_number)
    return _search_main(advancing, runners_up, settings, choice, main_number)


def _search_main(
    advancing: tuple[int, ...], runners_up: tuple[int, ...], settings: KnockoutSettings, choice: str, main_number: int
) -> NextRound:
    """A main round (or the final) by the search of every way (``_decide``)."""
    count = len(advancing)
    candidates = _final_candidates(advancing, settings)
    extra = settings.final_size - count
    if 0 < extra <= len(runners_up):
        code = ONE_MORE_ADVANCES if extra == 1 else MORE_PLAYERS
        plan = _final(advancing + runners_up[:extra], settings, added=runners_up[:extra])
        candidates.append(_Candidate(code, plan, _final_path(settings.final_size, settings, extra)))
    if count > settings.final_size:
        splits = _splits(count, settings, fewest=2) or ([] if candidates else _wide_splits(count, settings, fewest=2))
        for tables, split in splits:
            plan = _seated(MAIN, advancing, split, settings)
            after_it = _main_paths(tables, settings)
            candidates += [_Candidate(split.code, plan, after.then(MAIN, split)) for after in after_it]
    return _decide(MAIN, advancing, settings, candidates, choice, main_number=main_number)


def _decide(
    stage: str,
    players: tuple[int, ...],
    settings: KnockoutSettings,
    candidates: Sequence[_Candidate],
    choice: str,
    *,
    main_number: int,
) -> NextRound:
    """The round to seat, or the question.

    The ways are ordered by their key (``_path``). Where the best seats tables of the sizes now and
    reaches ``final_size`` with tables of the sizes all the way, it is the plain rule: seated
    without a question. Otherwise the options are, in that order, the best way of each kind (what
    the final will be, and whether players stay out) where it seats this round otherwise than an
    option before it: a way that only adds
    tables outside the sizes to a better one of the same kind is not offered, and one that seats
    this round as an option before it is chosen later, when its round comes. Each has its
    forecast. Where the only option seats the usual tables now, it is seated: the departure comes
    in a later round, and the question with it. ``choice`` picks an option by code
    (any code this round allows: a choice recorded before is planned again the same way)."""
    best: dict[tuple[str, tuple[int, ...]], _Candidate] = {}
    for candidate in candidates:
        known = best.get((candidate.code, candidate.path.kind))
        if known is None or candidate.path.key < known.path.key:
            best[(candidate.code, candidate.path.kind)] = candidate
    ranked = sorted(best.values(), key=lambda candidate: candidate.path.key)
    if not ranked:
        raise FormatError("no_seating_possible", players=len(players))
    first = ranked[0]
    forecast = _forecast(first.path, main_number)
    if first.code == PLAIN_ROUND and first.path.key[:4] == (0, 0, 0, 0):
        return replace(first.plan, forecast=forecast)
    best_of_kind: dict[tuple[int, ...], _Candidate] = {}
    for candidate in ranked:
        best_of_kind.setdefault(candidate.path.kind, candidate)
    offered: list[_Candidate] = []
    for candidate in best_of_kind.values():  # in the order of their keys
        # The final now (of everyone left, or with a runner-up moving up) is always a choice of its own.
        outdone = candidate.plan.stage != FINAL and _outdone(candidate.path, offered)
        if candidate.code not in {known.code for known in offered} and not outdone:
            offered.append(candidate)
    if [candidate.code for candidate in offered] == [PLAIN_ROUND]:
        return replace(first.plan, forecast=forecast)
    chosen = next((c for c in offered if c.code == choice), None) or next((c for c in ranked if c.code == choice), None)
    if chosen is None and choice in _EARLIER_CODES:  # an audited choice from when its code also meant one such table
        chosen = next((c for c in ranked if c.code == _EARLIER_CODES[choice]), None)
    if chosen is None:
        reason = FINAL_SIZE if table_counts(len(players), settings.preferred, settings.largest) else NO_SPLIT
        options = tuple(_option(candidate, settings, main_number) for candidate in offered)
        return NextRound(stage=stage, players=players, largest=settings.largest, options=options, reason=reason)
    option = _option(chosen, settings, main_number)
    return replace(chosen.plan, choice=choice, option=option, forecast=option.forecast)


# A choice recorded when "larger_table" / "smaller_table" also meant a single such table: planned
# again (``services._downstream``) it finds that way when no round of several such tables exists.
_EARLIER_CODES = {LARGER_TABLE: ONE_LARGER_TABLE, SMALLER_TABLE: ONE_SMALLER_TABLE}


def _outdone(path: _Path, offered: Sequence[_Candidate]) -> bool:
    """An option before it reaches the final's size by table winners with no more departures from
    the sizes (players left out, several tables outside them in a round, their count): a way to
    another final (a runner-up moving up, another size) that departs as much or more is no choice."""
    return any(
        known.path.reaches
        and known.path.dropped <= path.dropped
        and known.path.many <= path.many
        and known.path.odd <= path.odd
        for known in offered
    )


def _forecast(path: _Path, main_number: int) -> tuple[PlannedRound, ...]:
    """The rounds of ``path`` with the main rounds numbered from ``main_number``."""
    return _numbered(path.rounds(), main_number)


def _numbered(rounds: Sequence[PlannedRound], main_number: int) -> tuple[PlannedRound, ...]:
    """``rounds`` with the main rounds numbered from ``main_number``."""
    forecast = []
    for planned in rounds:
        if planned.stage == MAIN:
            planned = replace(planned, number=main_number)
            main_number += 1
        forecast.append(planned)
    return tuple(forecast)


def _option(candidate: _Candidate, settings: KnockoutSettings, main_number: int) -> SeatingOption:
    """The option in words' terms: what it seats now (``params``) and the rounds it leads to."""
    plan, path = candidate.plan, candidate.path
    outside = [size for size in plan.sizes if not settings.preferred <= size <= settings.largest]
    params = {
        "players": len(plan.players),
        "tables": len(plan.sizes),
        "preferred": settings.preferred,
        "largest": settings.largest,
        "final_size": settings.final_size,
        "finalists": path.final_size if path.final_size == settings.final_size and not path.moved_up else 0,
        "final": int(plan.stage == FINAL),
        "size": outside[0] if outside else 0,
        "count": len(outside),
        "extra": len(plan.added),
        "fewer": len(plan.dropped),
    }
    return SeatingOption(
        candidate.code,
        plan.sizes,
        params,
        forecast=_forecast(path, main_number),
        preselect=not (path.many or path.dropped),
    )


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


@dataclass(frozen=True)
class _Reached:
    """How far each player got, and the final's order and tables, read from the rounds."""

    last_seen: dict[int, tuple[int, str, int, int]]  # id -> (depth, stage, round number, games won)
    final_order: tuple[int, ...]
    final_tables: tuple[TableResult, ...]


def _reached(rounds: Sequence[RoundResult]) -> _Reached:
    """Walk the rounds in order: each player's last table (not a duel), and the final's order and tables."""
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
    return _Reached(last_seen=last_seen, final_order=final_order, final_tables=final_tables)


def _final_points(final_tables: tuple[TableResult, ...]) -> dict[int, int]:
    """Each finalist's points at the final's table, where the final is played to a points target."""
    final_table = next((table for table in final_tables if not table.is_duel), None)
    return (
        {seat.player_id: seat.points for seat in final_table.seats}
        if final_table is not None and final_table.points_target is not None
        else {}
    )


def rank_players(entrants: Sequence[Entrant], rounds: Sequence[RoundResult]) -> list[RankEntry]:
    """Everyone, by how far they got, then games won at their last table, then
    start number. Finalists come first in the final's order."""
    start = {e.id: e.start_number for e in entrants}
    reached = _reached(rounds)
    last_seen = reached.last_seen
    final_place = {pid: index for index, pid in enumerate(reached.final_order, start=1)}
    duels = final_duels(reached.final_tables, final_place)
    final_points = _final_points(reached.final_tables)
    # Players tied in the final who played a duel: it decided their order.
    duel_players = [{seat.player_id for seat in table.seats} for table in tied_duels(reached.final_tables)]

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
