"""``seat_avoiding_repeats``: the points format's re-seated round. A ``SeatingRequest`` says
what to seat; the field is prepared once (weights, bounds, clubs, pins), one path seats it
(the linear seating, a known design, the lookahead, or the swap search with or without fixed
seats), then the short-table repair and the plan's figures.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournament import schedule
from tournament.seating.bounds import unavoidable_repeats
from tournament.seating.dense import REPEAT_AVOIDING_ALGORITHM, _seat_dense, _seat_dense_fixed
from tournament.seating.design import _seat_by_design
from tournament.seating.draw import seat_players
from tournament.seating.fixed import FixedPlacement, place_fixed
from tournament.seating.linear import (
    LINEAR_ALGORITHM,
    LINEAR_CAPPED_ALGORITHM,
    LINEAR_FROM,
    LINEAR_SWAP_WORK,
    _seat_linear,
)
from tournament.seating.lookahead import LOOKAHEAD_ALGORITHM, _seat_ahead
from tournament.seating.pairs import (
    MetInput,
    club_conflicts,
    table_pairs,
)
from tournament.seating.plan import SeatingPlan, SeatingPlayer
from tournament.seating.request import SeatingRequest, _Field, _prepare
from tournament.seating.short_tables import (
    SHORT_FAIR_SUFFIX,
    SHUFFLE_SUFFIX,
    _seating_cost,
    _spread_short_tables,
    short_table_spread,
)
from tournament.seating.swaps import DEFAULT_ATTEMPTS, DEFAULT_WORK_LIMIT

#: Suffix of ``algorithm`` when ``seat_avoiding_repeats`` keeps clubs apart.
CLUBS_SUFFIX = "+clubs"
#: Suffix of ``algorithm`` when ``seat_avoiding_repeats`` kept fixed seats (``place_fixed``).
FIXED_SUFFIX = "+fixed"


def seat_avoiding_repeats(
    players: Iterable[SeatingPlayer | int],
    seed: int,
    met: MetInput,
    last_round_pairs: Iterable[Iterable[int]] = (),
    preferred: int = 3,
    largest: int = 4,
    attempts: int = DEFAULT_ATTEMPTS,
    *,
    work_limit: int = DEFAULT_WORK_LIMIT,
    short_table_history: Mapping[int, int] | None = None,
    keep_clubs_apart: bool = False,
    rounds_left: int = 1,
    lookahead_work: int = schedule.LOOKAHEAD_WORK,
    linear_swap_work: int = LINEAR_SWAP_WORK,
    history_rounds: Sequence[Iterable[Iterable[int]]] = (),
    fixed: Mapping[int, int] | None = None,
) -> SeatingPlan:
    """``seat_round`` of a ``SeatingRequest`` with these fields (see there): the keyword form
    the tests and scripts seat by hand with."""
    return seat_round(
        SeatingRequest(
            players=tuple(players),
            seed=seed,
            met=met,
            last_round_pairs=tuple(last_round_pairs),
            preferred=preferred,
            largest=largest,
            attempts=attempts,
            work_limit=work_limit,
            short_table_history=short_table_history,
            keep_clubs_apart=keep_clubs_apart,
            rounds_left=rounds_left,
            lookahead_work=lookahead_work,
            linear_swap_work=linear_swap_work,
            history_rounds=history_rounds,
            fixed=fixed,
        )
    )


def seat_round(request: SeatingRequest) -> SeatingPlan:
    """Seat every player at tables of ``table_sizes``, keeping those who met apart
    (``SeatingRequest`` says how). Deterministic for the same request, whatever the order of
    the players."""
    field = _prepare(request)
    seated = _seat_field(request, field)
    _repair_short_tables(request, field, seated)
    if request.keep_clubs_apart:
        seated.algorithm += CLUBS_SUFFIX
    if seated.placement is not None:
        seated.algorithm += FIXED_SUFFIX
    for table in seated.tables:
        seated.rng.shuffle(table)
    return _plan(request, field, seated)


@dataclass
class _Seated:
    """A path's seating: ids per table, the generator the seat shuffle continues, the algorithm
    string so far, the rounds planned, the repeat-free rounds ahead (None: count this round)
    and the fixed seats' placement."""

    tables: list[list[int]]
    rng: random.Random
    algorithm: str
    planned: int = 1
    ahead: int | None = None
    placement: FixedPlacement | None = None


def _seat_field(request: SeatingRequest, field: _Field) -> _Seated:
    """The one path that seats this field: the linear seating above ``LINEAR_FROM``, else a
    known design, else the lookahead, else the swap search (with fixed seats or without)."""
    ids, pins = field.ids, field.pins
    if len(ids) > LINEAR_FROM:
        return _seat_large(request, field)
    horizon = 1 if pins else min(request.rounds_left, field.further, schedule.MAX_HORIZON)
    # A known design for the field (all tables of one size): the rounds left from its classes.
    design_horizon = min(request.rounds_left, field.further)
    designed = None
    # The last round too when the history is given (the design's last class is left for it).
    if not pins and (design_horizon > 1 or (design_horizon and request.history_rounds)) and len(set(field.sizes)) == 1:
        designed = _seat_by_design(request, field, design_horizon)
    if designed is not None:
        tables, rng = designed
        algorithm = f"{LOOKAHEAD_ALGORITHM}:h{design_horizon}{_lookahead_suffix(request)}"
        return _Seated(tables, rng, algorithm, planned=design_horizon, ahead=design_horizon)
    if horizon > 1 and len(ids) <= schedule.LOOKAHEAD_LIMIT:
        return _seat_looking_ahead(request, field, horizon)
    suffix = _search_suffix(request, ":")
    if pins:
        tables, rng, placement = _seat_dense_fixed(request, field)
        return _Seated(tables, rng, REPEAT_AVOIDING_ALGORITHM + suffix, placement=placement)
    tables, rng = _seat_dense(ids, field.sizes, field.weights, request.seed, request.attempts, request.work_limit)
    return _Seated(tables, rng, REPEAT_AVOIDING_ALGORITHM + suffix)


def _lookahead_suffix(request: SeatingRequest) -> str:
    """``w<lookahead_work>`` after ``:h<rounds>`` when the lookahead's bound is not the default."""
    return f"w{request.lookahead_work}" if request.lookahead_work != schedule.LOOKAHEAD_WORK else ""


def _search_suffix(request: SeatingRequest, separator: str) -> str:
    """``a<attempts>w<work_limit>`` when the swap search's bounds are not the defaults."""
    if request.attempts != DEFAULT_ATTEMPTS or request.work_limit != DEFAULT_WORK_LIMIT:
        return f"{separator}a{request.attempts}w{request.work_limit}"
    return ""


def _seat_large(request: SeatingRequest, field: _Field) -> _Seated:
    """Above ``LINEAR_FROM``: the linear seating, then the fixed players moved to their tables."""
    rng = random.Random(request.seed)
    swap_work = request.linear_swap_work * len(field.ids)
    tables, capped = _seat_linear(field.ids, field.sizes, field.by_id, rng, field.apart, swap_work)
    seated = _Seated(tables, rng, LINEAR_CAPPED_ALGORITHM if capped else LINEAR_ALGORITHM)
    if field.pins:
        seated.placement = place_fixed(tables, field.pins, met=field.counts, clubs=field.apart)
        seated.tables = [list(table) for table in seated.placement.tables]
    return seated


def _seat_looking_ahead(request: SeatingRequest, field: _Field, horizon: int) -> _Seated:
    """The next ``horizon`` rounds planned together (``_seat_ahead``); this round is their first."""
    tables, rng, ahead = _seat_ahead(request, field, horizon)
    algorithm = f"{LOOKAHEAD_ALGORITHM}:h{horizon}{_lookahead_suffix(request)}{_search_suffix(request, '')}"
    return _Seated(tables, rng, algorithm, planned=horizon, ahead=ahead)


def _repair_short_tables(request: SeatingRequest, field: _Field, seated: _Seated) -> None:
    """Hand the short seats to those who sat short least often (``_spread_short_tables``);
    up to ``LINEAR_FROM`` players never seat worse than a fair shuffle with the same repair."""
    short, history = field.short, field.history
    pinned = seated.placement.pinned if seated.placement is not None else frozenset()
    if short is None or not history:
        return
    if not _spread_short_tables(seated.tables, short, history, field.by_id, field.apart, pinned):
        return
    seated.algorithm += SHORT_FAIR_SUFFIX
    if len(field.ids) > LINEAR_FROM or seated.placement is not None:
        return
    # The repair and its polish are local: in a small field they can end with more repeats than
    # a fair shuffle (seeded, the same repair) finds (10 players, fourth round: 5 against 4).
    # Never seat worse than that: the shuffle is taken where it is better (above LINEAR_FROM
    # the field leaves the search room: no repeat in six rounds).
    players = [SeatingPlayer(id=pid) for pid in field.ids]
    plain = seat_players(players, request.seed, request.preferred, request.largest)
    shuffled = [list(table) for table in plain.tables]
    _spread_short_tables(shuffled, short, history, {}, field.apart)
    mine = _seating_cost(seated.tables, field.counts, field.last, field.apart)
    if _seating_cost(shuffled, field.counts, field.last, field.apart) < mine:
        seated.tables = shuffled
        seated.algorithm += SHUFFLE_SUFFIX


def _plan(request: SeatingRequest, field: _Field, seated: _Seated) -> SeatingPlan:
    """The plan of the seated round with its figures (repeats, bounds, spread, clubs, numbers)."""
    tables = seated.tables
    pairs = table_pairs(tables)
    repeated = sum(1 for pair in pairs if pair in field.counts)
    ahead = seated.ahead
    if ahead is None or repeated:
        ahead = 0 if repeated else 1
    placement = seated.placement
    return SeatingPlan(
        tables=tuple(tuple(table) for table in tables),
        seed=request.seed,
        algorithm=seated.algorithm,
        club_conflicts=club_conflicts(tables, field.clubs),
        repeated_pairs=repeated,
        repeats_from_last_round=sum(1 for pair in pairs if pair in field.last),
        unavoidable_repeats=unavoidable_repeats(field.ids, field.counts, field.sizes, field.last),
        short_table_spread=short_table_spread(tables, field.short, field.history),
        club_floor=field.club_floor,
        planned_rounds=seated.planned,
        repeat_free_ahead=ahead,
        repeat_free_ahead_bound=min(request.rounds_left, field.further),
        numbers=placement.numbers if placement is not None else (),
        unkept=placement.unkept if placement is not None else (),
    )
