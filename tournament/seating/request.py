"""What a re-seated round is asked to seat (``SeatingRequest``) and the field prepared from it
once for every path (``_Field``: ids, sizes, the history as pair counts and weights, the bounds,
the clubs, the fixed seats).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournament import schedule
from tournament.seating.bounds import further_rounds_bound
from tournament.seating.linear import LINEAR_SWAP_WORK
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
)
from tournament.seating.plan import SeatingPlayer
from tournament.seating.short_tables import short_size
from tournament.seating.sizes import table_sizes
from tournament.seating.swaps import DEFAULT_ATTEMPTS, DEFAULT_WORK_LIMIT


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
    (0: unbounded); the algorithm is ``LINEAR_ALGORITHM`` when the bound was not
    reached (then the seating is exactly the unbounded search's) and
    ``LINEAR_CAPPED_ALGORITHM`` when it cut the search short, so that the
    algorithm string stored with a round says which search seated it. Up to
    ``LINEAR_FROM`` the same seed gives the same seating, so stored rounds stay
    reproducible under their version string.

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
