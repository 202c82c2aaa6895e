"""A rating per person for tables of 3-4: openskill's Plackett-Luce over the tables' orders. Pure
(apart from openskill, itself pure arithmetic).

Pairwise ratings (Elo, Glicko) fit two players; a table of 3 or 4 gives a whole order, which the
Plackett-Luce model (Weng and Lin's Bayesian approximation, as openskill keeps it) takes at once:
each person has ``mu`` (the skill believed) and ``sigma`` (how unsure that is); a table's order
moves every seated person's ``mu`` and narrows their ``sigma``.

The input: the closed tables as records (``TableRecord``): the event (its order in the season and
its id), the round's key, the table's key in its round and the table's order as a rank per person
(1 best; equal ranks tie). The round's key orders each person's tables as they were played:
``Round.number`` in knockout and points (their rounds follow one another); in life bands, whose
consolation round runs beside the later main rounds (it is opened, and numbered, when the first
band is cut), the stage first: ``FormatSpec.stages.index(stage) * 1000 + Round.number`` (main
rounds, then the consolation round, then the grand final). A person never goes back from the
consolation round to the main round, so every table comes after the tables its people played
before it, and the ratings are those of the order of play. The format decides a table's order;
the caller turns a table's stored result into it with the helpers below, from what ``Seat`` keeps:

- knockout (``knockout_order(seats, final=...)``): ``KnockoutSeat(person, games_won, place)``, from
  ``Seat.games_won`` and ``Seat.place``. A table of a main or lucky-loser round ranks by games
  won, equal games won tie: the table's places there break that tie by start number, a draw, and a
  rating must not learn from a draw. The final's table (``final=True``) ranks by its places, which
  the final decided by play (points or games to its target, then the duels). Leave out the duel
  tables (``Table.is_duel``): their outcome is already in the final's places, and counting it
  twice would weigh it twice. Feed the final once its duels are closed (its places are provisional
  before).
- points (``points_order``): ``PointsSeat(person, penalty_points, games_won)``, from ``Seat.points``
  (the round's penalty points at the table) and ``Seat.games_won``: fewer points better, then more
  games won, then a tie (the table's places end with the start number: not used here). A play-off
  table is a real game of the tied players: feed it too (its points never count in the totals,
  but it was played).
- life bands (``life_bands_order``): ``LifeBandsSeat(person, out_order)``, from ``Seat.out_order``
  (None: never went out, a survivor): the order of going out, the last out best; the survivors of a
  table tie at the top. The grand final's order is the same (its places are its order of going out).

Processing order is fixed by the records, never by when a table closed: events by (order, id),
then rounds by key, then tables by key. The tables of one round are rated against the ratings
from before the round, so their order within it does not matter. Where one person sits at several
tables of one round (life bands' consolation round: survivors go back to the pool and are seated
again, and table numbers are reused), the round's tables are taken in order of their keys in
sittings (``_sittings``): each table joins the first sitting after the last one holding any of its
players. The key must then follow the seating order: give the table's id (tables are created as
they are seated), not its number.

The output per person (``PersonRating``): mu, sigma, a display value (``mu - 3 sigma``: what we are
fairly sure the skill is at least; 0 for a newcomer, rising as results come in and sigma narrows),
tables and events played, ``provisional`` while fewer than ``PROVISIONAL_EVENTS`` events, and the
history: the values after each event played, for the chart.

Deterministic: the same records give identical floats, in whatever order the records, the seats of
a table or the tables of a round are given (each table is handed to openskill in one canonical
order: by rank, then person id). A correction is a change of records; its reversal gives the same
records back and so, recomputed, the same ratings to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from openskill.models import PlackettLuce

# The model's parameters, pinned here rather than left to the library's defaults (a new default in
# a later openskill would otherwise move every rating silently). These are openskill 6.2's defaults.
MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
KAPPA = 0.0001
TAU = MU / 300
# Events below which a rating is marked provisional.
PROVISIONAL_EVENTS = 3
# How many sigmas the display value keeps below mu.
DISPLAY_SIGMAS = 3


class RatingError(ValueError):
    """Records that cannot be rated (a person twice at a table, a table of one, a key used twice)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class TableRecord:
    """A closed table: its event (``event_order`` sorts the season, ``event_id`` names the event),
    its round's key, its key in the round (see the module docstring) and ``ranks``: each seated
    person's rank at the table, as ``(person, rank)`` pairs, 1 best, equal ranks tied."""

    event_order: int
    event_id: int
    round_key: int
    table_key: int
    ranks: tuple[tuple[int, int], ...]

    @classmethod
    def of(
        cls, event_order: int, event_id: int, round_key: int, table_key: int, ranks: Mapping[int, int]
    ) -> TableRecord:
        """A record of a mapping person -> rank."""
        return cls(event_order, event_id, round_key, table_key, tuple(sorted(ranks.items())))

    @property
    def position(self) -> tuple[int, int, int, int]:
        """Where the table stands in the processing order."""
        return (self.event_order, self.event_id, self.round_key, self.table_key)


@dataclass(frozen=True)
class HistoryPoint:
    """A person's rating after an event they played."""

    event_id: int
    mu: float
    sigma: float
    display: float


@dataclass(frozen=True)
class PersonRating:
    """A person's rating after every record (see the module docstring)."""

    person: int
    mu: float
    sigma: float
    display: float
    tables: int
    events: int
    provisional: bool
    history: tuple[HistoryPoint, ...]


def display_value(mu: float, sigma: float) -> float:
    """The value shown: ``mu - 3 sigma`` (conservative: the skill is fairly surely above it)."""
    return mu - DISPLAY_SIGMAS * sigma


def model() -> PlackettLuce:
    """The model with the pinned parameters."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)


# --- a format's table result as an order --------------------------------------------------------


def competition_ranks(keys: Mapping[int, tuple[int, ...]]) -> dict[int, int]:
    """Ranks 1.. by ascending key, equal keys sharing a rank (1, 1, 3)."""
    ordered = sorted(keys.values())
    return {person: ordered.index(key) + 1 for person, key in keys.items()}


@dataclass(frozen=True)
class KnockoutSeat:
    """A knockout seat's result: games won at the table and the table's place (None: not placed)."""

    person: int
    games_won: int
    place: int | None = None


def knockout_order(seats: Iterable[KnockoutSeat], *, final: bool = False) -> dict[int, int]:
    """The order of a knockout table: by games won (equal games tie); the final by its places."""
    seats = list(seats)
    if final:
        if any(seat.place is None for seat in seats):
            raise RatingError("final_not_placed")
        return competition_ranks({seat.person: (seat.place or 0,) for seat in seats})
    return competition_ranks({seat.person: (-seat.games_won,) for seat in seats})


@dataclass(frozen=True)
class PointsSeat:
    """A points-format seat's result: the penalty points at the table and the games won there."""

    person: int
    penalty_points: int
    games_won: int = 0


def points_order(seats: Iterable[PointsSeat]) -> dict[int, int]:
    """The order of a points table: fewer penalty points, then more games won; else a tie."""
    return competition_ranks({seat.person: (seat.penalty_points, -seat.games_won) for seat in seats})


@dataclass(frozen=True)
class LifeBandsSeat:
    """A life-bands seat's result: when the person went out (1 first; None: still in, a survivor)."""

    person: int
    out_order: int | None


def life_bands_order(seats: Iterable[LifeBandsSeat]) -> dict[int, int]:
    """The order of a life-bands table: survivors tie at the top, then the last out first."""
    return competition_ranks(
        {seat.person: ((0,) if seat.out_order is None else (1, -seat.out_order)) for seat in seats}
    )


# --- the rating ---------------------------------------------------------------------------------


@dataclass
class _State:
    """A person's running rating and counts while the records are processed."""

    mu: float = MU
    sigma: float = SIGMA
    tables: int = 0
    events: list[int] = field(default_factory=list)
    history: list[HistoryPoint] = field(default_factory=list)


def _checked(records: Iterable[TableRecord]) -> list[TableRecord]:
    """The records in processing order; refused where one is not a table's order."""
    ordered = sorted(records, key=lambda record: record.position)
    for before, after in pairwise(ordered):
        if before.position == after.position:
            raise RatingError("table_twice", position=after.position)
    for record in ordered:
        people = [person for person, _rank in record.ranks]
        if len(people) < 2:
            raise RatingError("table_of_one", position=record.position)
        if len(set(people)) != len(people):
            raise RatingError("person_twice", position=record.position)
        if any(rank < 1 for _person, rank in record.ranks):
            raise RatingError("rank_below_one", position=record.position)
    return ordered


def _groups(records: Sequence[TableRecord], depth: int) -> list[list[TableRecord]]:
    """The ordered records grouped by the first ``depth`` parts of their position (2: by event,
    3: by event and round)."""
    grouped: list[list[TableRecord]] = []
    for record in records:
        if grouped and grouped[-1][0].position[:depth] == record.position[:depth]:
            grouped[-1].append(record)
        else:
            grouped.append([record])
    return grouped


def _sittings(tables: Sequence[TableRecord]) -> list[list[TableRecord]]:
    """A round's tables (in key order) in sittings no person appears twice in: each table joins
    the first sitting after the last one holding any of its players."""
    sittings: list[list[TableRecord]] = []
    last_sitting: dict[int, int] = {}
    for table in tables:
        people = [person for person, _rank in table.ranks]
        index = max((last_sitting[person] + 1 for person in people if person in last_sitting), default=0)
        if index == len(sittings):
            sittings.append([])
        sittings[index].append(table)
        for person in people:
            last_sitting[person] = index
    return sittings


def _rate_table(
    rater: PlackettLuce, table: TableRecord, before: Mapping[int, _State]
) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of the table's people from their ratings ``before`` the sitting."""
    # One canonical order (rank, person): the same table gives the same floats however it came.
    seated = sorted(table.ranks, key=lambda pair: (pair[1], pair[0]))
    teams = [[rater.create_rating([before[person].mu, before[person].sigma])] for person, _rank in seated]
    rated = rater.rate(teams, ranks=[float(rank) for _person, rank in seated])
    return {person: (team[0].mu, team[0].sigma) for (person, _rank), team in zip(seated, rated, strict=True)}


def _close_event(states: Mapping[int, _State], event_id: int, played: Iterable[int]) -> None:
    """Note the event in the history of everyone who played in it."""
    for person in sorted(set(played)):
        state = states[person]
        state.events.append(event_id)
        state.history.append(HistoryPoint(event_id, state.mu, state.sigma, display_value(state.mu, state.sigma)))


def _rate_sitting(rater: PlackettLuce, sitting: Sequence[TableRecord], states: dict[int, _State]) -> None:
    """Rate the sitting's tables, each from the ratings before the sitting, and keep the new ones."""
    for table in sitting:
        for person, _rank in table.ranks:
            states.setdefault(person, _State())
    updates = [_rate_table(rater, table, states) for table in sitting]
    for update in updates:
        for person, (mu, sigma) in update.items():
            state = states[person]
            state.mu, state.sigma, state.tables = mu, sigma, state.tables + 1


def rate(records: Iterable[TableRecord]) -> dict[int, PersonRating]:
    """Every person's rating after ``records`` (see the module docstring)."""
    rater = model()
    states: dict[int, _State] = {}
    for event_tables in _groups(_checked(records), depth=2):
        for round_tables in _groups(event_tables, depth=3):
            for sitting in _sittings(round_tables):
                _rate_sitting(rater, sitting, states)
        played = (person for table in event_tables for person, _rank in table.ranks)
        _close_event(states, event_tables[0].event_id, played)
    return {person: _result(person, state) for person, state in sorted(states.items())}


def _result(person: int, state: _State) -> PersonRating:
    """The person's rating as shown."""
    events = tuple(state.events)
    return PersonRating(
        person=person,
        mu=state.mu,
        sigma=state.sigma,
        display=display_value(state.mu, state.sigma),
        tables=state.tables,
        events=len(events),
        provisional=len(events) < PROVISIONAL_EVENTS,
        history=tuple(state.history),
    )
