"""A series (a season, a league): points per place over several events, ranked. Pure.

Each event gives its final ranking (``Event.placings``: a person's place, places may tie) and its
field size (everyone ranked in it, linked to a person or not). The series scores each place with
``Scoring``:

- points per place by a preset or the organiser's own table (``points_for``):

  - ``players_minus_place_plus_one``: the field size − place + 1, computed per event from its own
    field (the winner of an evening of 24 scores 24, its last 1; everyone scores at least 1).
  - ``club_classic``: 10, 8, 6, 5, 4, 3, 2, 1, and 1 for every place beyond (a point for coming).
  - ``f1_like``: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1, and 0 beyond.
  - ``table``: the organiser's own table (``Scoring.table``, place 1 first).

  Places beyond a table score the table's LAST value: a table ending in 1 gives everyone who
  came a point, one ending in 0 gives nothing beyond it; so both are one table away, where
  "0 beyond" could not give a point for coming. Tables must not grow towards later places
  (a worse place never scores more) and hold no negative values (``check_scoring``).
  A shared place scores the place's points for each person sharing it (two at 2nd: both
  score 2nd's points; the next is 4th).

- ``best_n``: only the best N results count (None: all). Equal points: the more recent result
  counts and the older is dropped (the total is the same; the flag must not flicker).
- ``minimum_events``: a person with fewer events is listed after the others, "not yet ranked"
  (``SeriesRow.qualified`` False), ordered among themselves by the same rules, their places
  continuing the numbering (a page may show them without a place).
- ``tie_breaks``: the order of the tie-breaks after the total, from ``TIE_BREAKS``:

  - ``more_wins``: more first places (in every event played, counted or dropped: they were won).
  - ``better_best_place``: the better best place.
  - ``more_events``: more events played.
  - ``better_last_result``: the better place in the most recent event of the series where the
    two differ (not playing ranks below any place; the series' events from the newest back).

  A tie left after all of them shares the place (4, 4, 6): never a start number or a lottery.
  Rows of a shared place are listed by person id (the page may sort them by name).

Each row says why it stands below the row above (``Reason``): the rule that told them apart and
both values (``own``, ``above``; ``event`` for the last result), so a template can word it.

``standings`` is a pure function of the events' contents: the order the events or their
placings are given in does not matter, and the same input gives the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

# Points presets (``Scoring.preset``).
PRESET_FIELD_SIZE = "players_minus_place_plus_one"
PRESET_CLUB_CLASSIC = "club_classic"
PRESET_F1_LIKE = "f1_like"
PRESET_TABLE = "table"
PRESET_TABLES: dict[str, tuple[int, ...]] = {
    PRESET_CLUB_CLASSIC: (10, 8, 6, 5, 4, 3, 2, 1),
    PRESET_F1_LIKE: (25, 18, 15, 12, 10, 8, 6, 4, 2, 1, 0),
}
PRESETS = (PRESET_FIELD_SIZE, PRESET_CLUB_CLASSIC, PRESET_F1_LIKE, PRESET_TABLE)

# Tie-breaks the organiser may order (``Scoring.tie_breaks``).
MORE_WINS = "more_wins"
BETTER_BEST_PLACE = "better_best_place"
MORE_EVENTS = "more_events"
BETTER_LAST_RESULT = "better_last_result"
TIE_BREAKS = (MORE_WINS, BETTER_BEST_PLACE, MORE_EVENTS, BETTER_LAST_RESULT)
DEFAULT_TIE_BREAKS = (MORE_WINS, BETTER_BEST_PLACE, BETTER_LAST_RESULT)

# The reasons a row stands where it does beyond the tie-breaks (``Reason.rule``).
RULE_FIRST = "first"  # the first row: nobody above
RULE_MINIMUM_EVENTS = "minimum_events"  # the row above has played enough events, this one not
RULE_TOTAL = "total"  # fewer points
RULE_SHARED = "shared"  # equal on everything: the same place

# Where a person did not play an event (the last-result tie-break): below any place.
_ABSENT = 10**9


class SeriesError(ValueError):
    """Settings or events the series cannot score, with a code and what it is about."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Scoring:
    """The series' settings (see the module docstring)."""

    preset: str = PRESET_FIELD_SIZE
    table: tuple[int, ...] = ()
    best_n: int | None = None
    minimum_events: int = 0
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS


@dataclass(frozen=True)
class Placing:
    """A person's place in an event's final ranking (shared places repeat)."""

    person: int
    place: int


@dataclass(frozen=True)
class Event:
    """One event of the series: held on ``held_on`` (events of one day are ordered by ``id``),
    ``field_size`` players ranked, ``placings`` of those linked to a person."""

    id: int
    held_on: date
    field_size: int
    placings: tuple[Placing, ...]

    @property
    def order(self) -> tuple[date, int]:
        """When it was held among the series' events."""
        return (self.held_on, self.id)


@dataclass(frozen=True)
class EventScore:
    """A person's result in one event: the place, its points and whether they count."""

    event: int
    place: int
    field_size: int
    points: int
    counted: bool


@dataclass(frozen=True)
class Reason:
    """Why a row stands below the row above: ``rule`` (a tie-break code or a ``RULE_``), this row's
    and the row above's value under it (None where there is none: ``RULE_FIRST``, ``RULE_SHARED``,
    and a last result where one of the two did not play), and for ``better_last_result`` the
    event whose places decided."""

    rule: str
    own: int | None = None
    above: int | None = None
    event: int | None = None


@dataclass(frozen=True)
class SeriesRow:
    """One person's line in the series' standings, results in the order of the events."""

    place: int
    person: int
    total: int
    scores: tuple[EventScore, ...]
    qualified: bool
    reason: Reason

    @property
    def events_played(self) -> int:
        return len(self.scores)

    @property
    def counted(self) -> tuple[EventScore, ...]:
        return tuple(score for score in self.scores if score.counted)

    @property
    def dropped(self) -> tuple[EventScore, ...]:
        return tuple(score for score in self.scores if not score.counted)


def check_scoring(scoring: Scoring) -> None:
    """Refuse settings the series cannot score (``SeriesError`` with the setting's code)."""
    if scoring.preset not in PRESETS:
        raise SeriesError("unknown_preset", preset=scoring.preset)
    if scoring.preset == PRESET_TABLE:
        if not scoring.table:
            raise SeriesError("empty_table")
        if any(points < 0 for points in scoring.table):
            raise SeriesError("negative_points")
        if any(later > earlier for earlier, later in pairwise(scoring.table)):
            raise SeriesError("table_grows")
    if scoring.best_n is not None and scoring.best_n < 1:
        raise SeriesError("best_n_too_small", best_n=scoring.best_n)
    if scoring.minimum_events < 0:
        raise SeriesError("negative_minimum", minimum_events=scoring.minimum_events)
    unknown = [code for code in scoring.tie_breaks if code not in TIE_BREAKS]
    if unknown:
        raise SeriesError("unknown_tie_break", codes=unknown)
    if len(set(scoring.tie_breaks)) != len(scoring.tie_breaks):
        raise SeriesError("repeated_tie_break")


def points_table(scoring: Scoring) -> tuple[int, ...] | None:
    """The fixed points per place of the settings (None for the per-event preset)."""
    if scoring.preset == PRESET_FIELD_SIZE:
        return None
    if scoring.preset == PRESET_TABLE:
        return scoring.table
    return PRESET_TABLES[scoring.preset]


def points_for(scoring: Scoring, place: int, field_size: int) -> int:
    """The points of ``place`` in an event of ``field_size`` players."""
    table = points_table(scoring)
    if table is None:
        return max(field_size - place + 1, 0)
    return table[min(place, len(table)) - 1]


def _checked_events(events: Iterable[Event]) -> list[Event]:
    """The events in the order they were held; refused where an event is not a ranking."""
    ordered = sorted(events, key=lambda event: event.order)
    if len({event.id for event in ordered}) != len(ordered):
        raise SeriesError("repeated_event")
    for event in ordered:
        people = [placing.person for placing in event.placings]
        if len(set(people)) != len(people):
            raise SeriesError("person_twice", event=event.id)
        if len(people) > event.field_size:
            raise SeriesError("field_too_small", event=event.id)
        for placing in event.placings:
            if not 1 <= placing.place <= event.field_size:
                raise SeriesError("place_outside_field", event=event.id, place=placing.place)
    return ordered


def _scores_of(events: Sequence[Event], scoring: Scoring) -> dict[int, list[EventScore]]:
    """Every person's results in event order, each with its points and whether it counts."""
    played: dict[int, list[tuple[int, Event, Placing]]] = {}
    for index, event in enumerate(events):
        for placing in event.placings:
            played.setdefault(placing.person, []).append((index, event, placing))
    scores: dict[int, list[EventScore]] = {}
    for person, results in played.items():
        points = [points_for(scoring, placing.place, event.field_size) for _i, event, placing in results]
        # Best N by points; equal points: the more recent counts (a stable, documented choice).
        best = sorted(range(len(results)), key=lambda i: (-points[i], -results[i][0]))
        kept = set(best if scoring.best_n is None else best[: scoring.best_n])
        scores[person] = [
            EventScore(event.id, placing.place, event.field_size, points[i], i in kept)
            for i, (_index, event, placing) in enumerate(results)
        ]
    return scores


@dataclass(frozen=True)
class _Keyed:
    """A person's sort keys, in the order the rules apply them, and the values shown for each."""

    person: int
    keys: tuple[tuple[int, ...], ...]
    rules: tuple[str, ...]
    values: tuple[int | None, ...]
    recent_places: tuple[int, ...]


def _tie_break_key(
    code: str, scores: Sequence[EventScore], recent: tuple[int, ...]
) -> tuple[tuple[int, ...], int | None]:
    """(sort key, shown value) of one tie-break; smaller keys rank higher."""
    places = [score.place for score in scores]
    if code == MORE_WINS:
        wins = places.count(1)
        return (-wins,), wins
    if code == BETTER_BEST_PLACE:
        best = min(places, default=_ABSENT)
        return (best,), (best if places else None)
    if code == MORE_EVENTS:
        return (-len(places),), len(places)
    # better_last_result: the places from the newest event back (its value is read per pair, ``_reason``).
    return recent, None


def _keyed(person: int, scores: Sequence[EventScore], newest_first: Sequence[int], scoring: Scoring) -> _Keyed:
    """The keys ranking ``person``: qualified first, more points, then the tie-breaks in order."""
    place_in = {score.event: score.place for score in scores}
    recent = tuple(place_in.get(event, _ABSENT) for event in newest_first)
    qualified = len(scores) >= scoring.minimum_events
    total = sum(score.points for score in scores if score.counted)
    keys: list[tuple[int, ...]] = [(int(not qualified),), (-total,)]
    values: list[int | None] = [len(scores), total]
    for code in scoring.tie_breaks:
        key, value = _tie_break_key(code, scores, recent)
        keys.append(key)
        values.append(value)
    rules = (RULE_MINIMUM_EVENTS, RULE_TOTAL, *scoring.tie_breaks)
    return _Keyed(person, tuple(keys), rules, tuple(values), recent)


def _reason(row: _Keyed, above: _Keyed, newest_first: Sequence[int]) -> Reason:
    """The first rule whose key tells ``row`` from ``above``; shared when none does."""
    for index, rule in enumerate(row.rules):
        if row.keys[index] == above.keys[index]:
            continue
        if rule == BETTER_LAST_RESULT:
            at = next(i for i, (a, b) in enumerate(zip(row.recent_places, above.recent_places, strict=True)) if a != b)
            own, theirs = row.recent_places[at], above.recent_places[at]
            return Reason(
                rule,
                own=None if own == _ABSENT else own,
                above=None if theirs == _ABSENT else theirs,
                event=newest_first[at],
            )
        return Reason(rule, own=row.values[index], above=above.values[index])
    return Reason(RULE_SHARED)


def standings(events: Iterable[Event], scoring: Scoring) -> list[SeriesRow]:
    """The series' standings over ``events`` with ``scoring`` (see the module docstring)."""
    check_scoring(scoring)
    ordered = _checked_events(events)
    newest_first = [event.id for event in reversed(ordered)]
    scores = _scores_of(ordered, scoring)
    keyed = sorted(
        (_keyed(person, person_scores, newest_first, scoring) for person, person_scores in scores.items()),
        key=lambda row: (row.keys, row.person),
    )
    rows: list[SeriesRow] = []
    for index, row in enumerate(keyed):
        if index == 0:
            reason, place = Reason(RULE_FIRST), 1
        else:
            reason = _reason(row, keyed[index - 1], newest_first)
            place = rows[-1].place if reason.rule == RULE_SHARED else index + 1
        person_scores = scores[row.person]
        rows.append(
            SeriesRow(
                place=place,
                person=row.person,
                total=sum(score.points for score in person_scores if score.counted),
                scores=tuple(person_scores),
                qualified=len(person_scores) >= scoring.minimum_events,
                reason=reason,
            )
        )
    return rows


def placings_of(places: Mapping[int, int]) -> tuple[Placing, ...]:
    """``Placing``s of a mapping person -> place (a convenience for the callers and the tests)."""
    return tuple(Placing(person, place) for person, place in sorted(places.items()))
