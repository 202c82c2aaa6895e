"""``seat_avoiding_repeats``: the points format's re-seated round. A ``SeatingRequest`` says
what to seat; the field is prepared once (weights, bounds, clubs, pins), one path seats it
(the linear seating, a known design, the lookahead, or the swap search with or without fixed
seats), then the short-table repair and the plan's figures.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournament import schedule
from tournament.seating.bounds import further_rounds_bound, unavoidable_repeats
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
    _CLUB_WEIGHT,
    _LAST_ROUND_WEIGHT,
    _MET_WEIGHT,
    _REPEAT_WEIGHT,
    MetInput,
    _check_unique,
    _club_lower_bound,
    _met_counts,
    _player_id,
    club_conflicts,
    table_pairs,
)
from tournament.seating.plan import SeatingPlan, SeatingPlayer
from tournament.seating.short_tables import (
    SHORT_FAIR_SUFFIX,
    SHUFFLE_SUFFIX,
    _seating_cost,
    _spread_short_tables,
    short_size,
    short_table_spread,
)
from tournament.seating.sizes import table_sizes
from tournament.seating.swaps import DEFAULT_ATTEMPTS, DEFAULT_WORK_LIMIT

#: Suffix of ``algorithm`` when ``seat_avoiding_repeats`` keeps clubs apart.
CLUBS_SUFFIX = "+clubs"
#: Suffix of ``algorithm`` when ``seat_avoiding_repeats`` kept fixed seats (``place_fixed``).
FIXED_SUFFIX = "+fixed"


@dataclass(frozen=True)
class SeatingRequest:
    """A re-seated round to seat (``seat_round``): the players, the seed, the history, the options.

    ``players`` are ids or ``SeatingPlayer`` records (the club counts with ``keep_clubs_apart``);
    ``met``, ``last_round_pairs`` and ``history_rounds`` the history; ``preferred`` and
    ``largest`` the table sizes; ``attempts``, ``work_limit``, ``lookahead_work`` and
    ``linear_swap_work`` the bounds of the searches; ``short_table_history``,
    ``keep_clubs_apart``, ``rounds_left`` and ``fixed`` the options. What each does:

    ``fixed`` (player id -> table number): players kept at their table (``place_fixed``: one
    table per number, the lowest numbers first). A resolvable design cannot hold two fixed
    players at different tables (every pair meets once), so with a fixed player in the field the
    round is seated round by round, without the design and the lookahead: up to ``LINEAR_FROM``
    each try's greedy start has the fixed players moved to their tables and the swap search
    moves only the others (``_SwapSearch.pinned``); above it the linear seating is followed by
    ``place_fixed``. The short-table repair never moves a fixed player. The plan's ``numbers``
    give each table's fixed number and ``unkept`` the seats not kept; ``algorithm`` ends in
    ``FIXED_SUFFIX``. Without fixed players (or none in the field) the seating is unchanged.

    ``met`` maps a pair (``frozenset({a, b})``) to how often the two sat at one
    table before, or is an iterable of such pairs; ``last_round_pairs`` are the
    pairs of the last round (counted as met even if missing from ``met``).
    Pairs with players not in ``players`` are ignored.

    The objective, in order: fewest repeated pairs (pairs at one table who met
    before), then fewest of them from the last round, then fewest earlier
    meetings of the repeated pairs in total; for fields of up to
    ``TRIANGLE_LIMIT`` players a last tie-break keeps the most chances for
    repeat-free later rounds (see the code). Up to ``attempts`` tries, each a
    seeded greedy construction (most-met players first, each to the open table
    where they met fewest) followed by an iterated local search of swaps
    between tables (descend, kick two random swaps, keep the best); all tries
    share ``work_limit`` units of work (swap evaluations and row updates), counted
    rather than timed so that the seating does not depend on the machine. It stops early at a
    repeat-free seating. The best seating found wins; ties keep the earlier.

    Deterministic for the same seed, set of players and history, whatever the
    input order. The plan reports ``repeated_pairs`` and
    ``repeats_from_last_round``. ``algorithm`` is ``REPEAT_AVOIDING_ALGORITHM``,
    with the attempts and work limit appended when they are not the defaults.

    Fields of more than ``LINEAR_FROM`` players are seated by ``_seat_linear``
    instead (``attempts`` and ``work_limit`` do not apply): the search above
    needs time and memory growing with the square of the field. Its swap phase
    evaluates at most ``linear_swap_work`` partners per player in total
    (0: unbounded, the first version); the algorithm is ``LINEAR_ALGORITHM``
    when the bound was not reached (then the seating is exactly the first
    version's) and ``LINEAR_CAPPED_ALGORITHM`` when it cut the search short.
    Up to ``LINEAR_FROM`` the seating is the same as before for the same seed,
    so stored rounds stay reproducible under their version string.

    ``short_table_history`` maps a player id to how often they sat at a short
    table (``short_size``) before (missing: 0). When it is given and not all
    equal, the short seats go to the players with the fewest
    (``_spread_short_tables``; ``SHORT_FAIR_SUFFIX`` is appended to
    ``algorithm`` when that moved anyone). Up to ``LINEAR_FROM`` players the seating
    is then never worse than a seeded fair shuffle with the same repair: where that
    is better (``_seating_cost``) it is taken, and ``SHUFFLE_SUFFIX`` appended. The plan reports
    ``unavoidable_repeats`` and ``short_table_spread``.

    ``keep_clubs_apart``: players of one (non-empty) club (``SeatingPlayer.club``)
    at one table weigh above any repeated pair, on every path; the plan's
    ``club_conflicts`` is then as a rule ``club_floor`` (the fewest possible
    when clubs are spread as evenly as the tables allow). ``CLUBS_SUFFIX`` is
    appended to ``algorithm`` whenever the flag is on.

    ``history_rounds``: the earlier rounds as tables of player ids, oldest first (optional; the pairs
    in them must be in ``met``). Where a known design (``schedule.design_classes``) fits a field
    of one table size and ``min(rounds_left, further_rounds_bound(...))`` is more than one, the
    design relabelled so that the history lies on classes left out seats this round
    (``schedule.plan_from_design``; with ``history_rounds`` the rounds are embedded whole, a history
    seated from the design is found again): every round left is then repeat-free
    (``repeat_free_ahead`` counts them all, beyond ``MAX_HORIZON``), for any field up to
    ``LINEAR_FROM``; ``algorithm`` is ``LOOKAHEAD_ALGORITHM`` with ``:h<rounds>``.

    ``rounds_left`` (this round included): with more than one, at most
    ``LOOKAHEAD_LIMIT`` players and history leaving room for more than one
    further repeat-free round, the next ``h = min(rounds_left,
    further_rounds_bound(...), MAX_HORIZON)`` rounds are planned jointly
    (``schedule.plan_schedule``, bounded by ``lookahead_work``) and this round
    is the schedule's first, unless it has a repeat or more club pairs than
    ``club_floor`` and the round-by-round search above does better (the plan's
    ``repeat_free_ahead`` then counts this round only). ``algorithm`` is then
    ``LOOKAHEAD_ALGORITHM`` with ``:h<h>`` (and ``w<lookahead_work>`` when not the
    default); without the lookahead the seating is the same as with
    ``rounds_left=1``.
    """

    players: Sequence[SeatingPlayer | int]
    seed: int
    met: MetInput
    last_round_pairs: Sequence[Iterable[int]] = ()
    preferred: int = 3
    largest: int = 4
    attempts: int = DEFAULT_ATTEMPTS
    work_limit: int = DEFAULT_WORK_LIMIT
    short_table_history: Mapping[int, int] | None = None
    keep_clubs_apart: bool = False
    rounds_left: int = 1
    lookahead_work: int = schedule.LOOKAHEAD_WORK
    linear_swap_work: int = LINEAR_SWAP_WORK
    history_rounds: Sequence[Iterable[Iterable[int]]] = ()
    fixed: Mapping[int, int] | None = None


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
class _Field:
    """The field prepared once for every path: ids sorted, table sizes, the history as pair
    counts and as weights (by index and by id), the bounds, the clubs and the fixed seats."""

    ids: list[int]
    sizes: list[int]
    index_of: dict[int, int]
    #: Every player's non-empty club; ``apart`` the same when clubs are kept apart, else None.
    clubs: dict[int, str]
    apart: dict[int, str] | None
    counts: dict[frozenset[int], int]
    last: set[frozenset[int]]
    #: Pair weights by index (club pairs included when kept apart); ``by_id`` without them.
    weights: list[dict[int, int]]
    by_id: dict[int, dict[int, int]]
    further: int
    club_floor: int
    short: int | None
    history: dict[int, int]
    pins: dict[int, int]


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


def _prepare(request: SeatingRequest) -> _Field:
    if request.attempts < 1:
        raise ValueError("attempts must be at least 1")
    if request.rounds_left < 1:
        raise ValueError("rounds_left must be at least 1")
    given = list(request.players)
    ids = sorted(_player_id(player) for player in given)
    _check_unique(ids)
    sizes = table_sizes(len(ids), request.preferred, request.largest)
    index_of = {pid: index for index, pid in enumerate(ids)}
    clubs = {player.id: player.club for player in given if isinstance(player, SeatingPlayer) and player.club}

    counts = _met_counts(request.met)
    last = {key for key in (frozenset(pair) for pair in request.last_round_pairs) if len(key) == 2}
    for pair in last:
        counts.setdefault(pair, 1)
    weights, met_pairs = _pair_weights(ids, index_of, counts, last)
    # The same weights by player id, for the linear seating and the short-table repair.
    by_id: dict[int, dict[int, int]] = {
        ids[index]: {ids[other]: weight for other, weight in row.items()} for index, row in enumerate(weights) if row
    }
    further = further_rounds_bound(
        len(ids), sizes, [len(row) for row in weights], met_pairs, request.preferred, request.largest
    )
    members: dict[str, list[int]] = {}
    for pid in ids:
        if pid in clubs:
            members.setdefault(clubs[pid], []).append(index_of[pid])
    club_floor = _club_lower_bound((len(group) for group in members.values()), len(sizes))
    apart = clubs if request.keep_clubs_apart and clubs else None
    if apart is not None:
        for group in members.values():
            for a, b in itertools.combinations(group, 2):
                weights[a][b] = weights[a].get(b, 0) + _CLUB_WEIGHT
                weights[b][a] = weights[a][b]
    return _Field(
        ids=ids,
        sizes=sizes,
        index_of=index_of,
        clubs=clubs,
        apart=apart,
        counts=counts,
        last=last,
        weights=weights,
        by_id=by_id,
        further=further,
        club_floor=club_floor,
        short=short_size(sizes, request.preferred),
        history=dict(request.short_table_history or {}),
        pins={pid: number for pid, number in (request.fixed or {}).items() if pid in index_of},
    )


def _pair_weights(
    ids: Sequence[int], index_of: Mapping[int, int], counts: Mapping[frozenset[int], int], last: set[frozenset[int]]
) -> tuple[list[dict[int, int]], int]:
    """The weight of every pair of present players who met (by index, both ways) and how many
    such pairs there are."""
    weights: list[dict[int, int]] = [{} for _ in ids]
    met_pairs = 0
    for pair, count in counts.items():
        first, second = sorted(pair)
        if first not in index_of or second not in index_of:
            continue
        met_pairs += 1
        weight = _REPEAT_WEIGHT + (_LAST_ROUND_WEIGHT if pair in last else 0) + count * _MET_WEIGHT
        a, b = index_of[first], index_of[second]
        weights[a][b] = weight
        weights[b][a] = weight
    return weights, met_pairs


def _seat_field(request: SeatingRequest, field: _Field) -> _Seated:
    """The one path that seats this field: the linear seating above ``LINEAR_FROM``, else a
    known design, else the lookahead, else the swap search (with fixed seats or without)."""
    ids, pins = field.ids, field.pins
    horizon = 1 if pins else min(request.rounds_left, field.further, schedule.MAX_HORIZON)
    # A known design for the field (all tables of one size): the rounds left from its classes.
    design_horizon = min(request.rounds_left, field.further)
    designed = None
    # The last round too when the history is given (the design's last class is left for it).
    if (
        not pins
        and len(ids) <= LINEAR_FROM
        and (design_horizon > 1 or (design_horizon and request.history_rounds))
        and len(set(field.sizes)) == 1
    ):
        designed = _seat_by_design(
            ids,
            field.sizes[0],
            design_horizon,
            field.counts,
            field.apart,
            request.seed,
            request.lookahead_work,
            request.history_rounds,
        )
    if len(ids) > LINEAR_FROM:
        return _seat_large(request, field)
    if designed is not None:
        tables, rng = designed
        algorithm = f"{LOOKAHEAD_ALGORITHM}:h{design_horizon}{_lookahead_suffix(request)}"
        return _Seated(tables, rng, algorithm, planned=design_horizon, ahead=design_horizon)
    if horizon > 1 and len(ids) <= schedule.LOOKAHEAD_LIMIT:
        return _seat_looking_ahead(request, field, horizon)
    suffix = _search_suffix(request, ":")
    if pins:
        tables, rng, placement = _seat_dense_fixed(
            ids,
            field.sizes,
            field.weights,
            request.seed,
            request.attempts,
            request.work_limit,
            pins,
            field.counts,
            field.apart,
        )
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
    tables, rng, ahead = _seat_ahead(
        field.ids,
        field.sizes,
        field.weights,
        request.seed,
        horizon,
        field.last,
        field.counts,
        field.apart,
        field.club_floor,
        field.short,
        field.history,
        request.lookahead_work,
        (request.attempts, request.work_limit),
        field.by_id,
    )
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
