"""Reads of the club's season (issue 33, items 2-4): a series' standings, the club's rating, a
person's history. Everything is computed from the records whenever it is read (the pure
``season.series_rules`` and ``season.rating``), never stored, and kept in the shared cache under
keys that name every version it was computed from:

- a series' standings under the series (id, public key, version), the club's register version (a
  merge moves a person's results) and each event's (id, version): a correction in any event bumps
  that event's version, so the next read computes the series again;
- the club's rating under the club (id, creation), its register version and every finished
  tournament's (id, version).

A page's cost does not grow with the field once the computation is kept: a fixed number of
queries reads the versions, and names are read for the rows shown only.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import enums
from tournament.formats import registry
from tournament.formats.record import RatedSeat, RatedTable
from tournament.models import (
    SERIES_TIE_BREAK_LABELS,
    Club,
    Person,
    Player,
    Round,
    Seat,
    Series,
    SeriesEvent,
    Tournament,
)
from tournament.season import history_chart, rating, series_rules
from tournament.selectors import ranking as ranking_selectors

PAGE_SIZE = 50
SCREEN_ROWS = 12
KEEP_SECONDS = 60 * 60
KEY_PREFIX = "season1:"
FINISHED = enums.TournamentStatus.FINISHED


@dataclass(frozen=True)
class EventInfo:
    """A tournament as the season shows it."""

    id: int
    name: str
    held_on: date
    finished: bool
    version: int
    public_key: str
    format: str


_EVENT_FIELDS = ("id", "name", "date", "status", "version", "public_key", "format")


def _event_of(values: Sequence[Any]) -> EventInfo:
    pk, name, held_on, status, version, public_key, fmt = values
    return EventInfo(pk, name, held_on, status == FINISHED, version, public_key, fmt)


def _digest(parts: Iterable[object]) -> str:
    return hashlib.sha256(repr(tuple(parts)).encode()).hexdigest()[:32]


# --- a series' standings -------------------------------------------------------------------------


def series_events(series: Series) -> list[EventInfo]:
    """The series' tournaments in the order they were held (date, id). One query."""
    rows = (
        SeriesEvent.objects.filter(series=series)
        .order_by("tournament__date", "tournament_id")
        .values_list(*(f"tournament__{name}" for name in _EVENT_FIELDS))
    )
    return [_event_of(row) for row in rows]


def _placings_of(events: Sequence[EventInfo]) -> list[series_rules.Event]:
    """Each finished event's final ranking as the series takes it: its places (``ranking.rows``,
    kept per version) of the players linked to a person (their links read in one query)."""
    links: dict[int, int] = dict(
        Player.objects.filter(tournament_id__in=[event.id for event in events], person__isnull=False).values_list(
            "pk", "person_id"
        )
    )
    tournaments = Tournament.objects.in_bulk([event.id for event in events])
    scored = []
    for event in events:
        rows = ranking_selectors.rows(tournaments[event.id])
        best: dict[int, int] = {}
        for row in rows:
            person = links.get(row.player.pk)
            if person is not None and (person not in best or row.place < best[person]):
                best[person] = row.place
        scored.append(series_rules.Event(event.id, event.held_on, len(rows), series_rules.placings_of(best)))
    return scored


def standings(series: Series, events: Sequence[EventInfo] | None = None) -> list[series_rules.SeriesRow]:
    """The series' standings over its finished events (``series_rules.standings``), kept in the
    shared cache under every version they depend on (see the module docstring). ``series.club``
    should be loaded with the series (its register version is part of the key)."""
    if events is None:
        events = series_events(series)
    finished = [event for event in events if event.finished]
    key = (
        KEY_PREFIX
        + "series:"
        + _digest(
            (
                series.pk,
                series.public_key,
                series.version,
                series.club.register_version,
                tuple((event.id, event.public_key, event.version) for event in finished),
            )
        )
    )
    kept = cache.get(key)
    if isinstance(kept, list):
        return kept
    rows = series_rules.standings(_placings_of(finished), series.scoring()) if finished else []
    cache.set(key, rows, KEEP_SECONDS)
    return rows


@dataclass(frozen=True)
class ShownRow:
    """A row of the standings as a page shows it: the person's name and club, the place explained."""

    row: series_rules.SeriesRow
    name: str
    team: str
    explained: str
    cells: tuple[series_rules.EventScore | None, ...]


@dataclass(frozen=True)
class SeriesPage:
    """A page of a series' standings."""

    series: Series
    events: list[EventInfo]
    waiting: list[EventInfo]  # not finished yet: not counted
    rows: list[ShownRow]
    total: int
    page: int
    pages: int


def names_of(people: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Name and club of ``people`` (one query; stand-in ids are not read)."""
    wanted = [pk for pk in people if pk > 0]
    if not wanted:
        return {}
    return {
        pk: (name, team) for pk, name, team in Person.objects.filter(pk__in=wanted).values_list("pk", "name", "team")
    }


def series_page(series: Series, *, page: int = 1, size: int = PAGE_SIZE) -> SeriesPage:
    """A page of the standings (``size`` rows from ``page``), each row's place explained in words."""
    events = series_events(series)
    rows = standings(series, events)
    pages = max((len(rows) + size - 1) // size, 1)
    page = min(max(page, 1), pages)
    shown = rows[(page - 1) * size : page * size]
    names = names_of(row.person for row in shown)
    finished = [event for event in events if event.finished]
    by_id = {event.id: event for event in finished}
    order = [event.id for event in finished]
    return SeriesPage(
        series=series,
        events=finished,
        waiting=[event for event in events if not event.finished],
        rows=[_shown(row, names, by_id, order, series) for row in shown],
        total=len(rows),
        page=page,
        pages=pages,
    )


def _shown(
    row: series_rules.SeriesRow,
    names: Mapping[int, tuple[str, str]],
    events: Mapping[int, EventInfo],
    order: Sequence[int],
    series: Series,
) -> ShownRow:
    name, team = names.get(row.person, ("?", ""))
    scores = {score.event: score for score in row.scores}
    cells = tuple(scores.get(event) for event in order)
    return ShownRow(row, name, team, explain(row, events, series.minimum_events), cells)


def explain(row: series_rules.SeriesRow, events: Mapping[int, EventInfo], minimum: int) -> str:
    """Why the row stands where it does, in words (its ``Reason``)."""
    reason = row.reason
    if not row.qualified:
        played = ngettext("%(count)d event played", "%(count)d events played", row.events_played) % {
            "count": row.events_played
        }
        return _("Not yet ranked: %(played)s of the %(minimum)d needed.") % {"played": played, "minimum": minimum}
    if reason.rule == series_rules.RULE_FIRST:
        return _("Leads the series.")
    if reason.rule == series_rules.RULE_MINIMUM_EVENTS:
        return _("Not yet ranked.")
    if reason.rule == series_rules.RULE_TOTAL:
        return _("Fewer points than the row above (%(own)s against %(above)s).") % {
            "own": reason.own,
            "above": reason.above,
        }
    if reason.rule == series_rules.RULE_SHARED:
        return _("Equal with the row above on points and every tie-break: the same place.")
    return _tie_break_words(reason, events)


def _tie_break_words(reason: series_rules.Reason, events: Mapping[int, EventInfo]) -> str:
    rule = str(SERIES_TIE_BREAK_LABELS.get(reason.rule, reason.rule))
    if reason.rule == series_rules.BETTER_LAST_RESULT:
        event = events.get(reason.event) if reason.event is not None else None
        own = _("did not play") if reason.own is None else _("place %(place)d") % {"place": reason.own}
        above = _("did not play") if reason.above is None else _("place %(place)d") % {"place": reason.above}
        return _("Equal on points; decided by “%(rule)s”: in %(event)s %(own)s, the row above %(above)s.") % {
            "rule": rule,
            "event": event.name if event is not None else "?",
            "own": own,
            "above": above,
        }
    return _("Equal on points; decided by “%(rule)s”: %(own)s against %(above)s.") % {
        "rule": rule,
        "own": reason.own,
        "above": reason.above,
    }


# --- the club's rating ---------------------------------------------------------------------------


def club_events(club: Club) -> list[EventInfo]:
    """The club's finished tournaments in the order they were held. One query."""
    rows = Tournament.objects.filter(club=club, status=FINISHED).order_by("date", "pk").values_list(*_EVENT_FIELDS)
    return [_event_of(row) for row in rows]


_SEAT_FIELDS = (
    "table_id",
    "table__round__tournament_id",
    "table__round__number",
    "table__round__stage",
    "table__is_duel",
    "table__is_final",
    "player_id",
    "player__person_id",
    "games_won",
    "points",
    "place",
    "out_order",
)


def _closed_seats(events: Sequence[EventInfo]) -> QuerySet[Seat, tuple[Any, ...]]:
    """The seats of the closed tables of ``events``, by table (selected by round ids: see ARCHITECTURE)."""
    rounds = Round.objects.filter(tournament_id__in=[event.id for event in events]).values("pk")
    return (
        Seat.objects.filter(table__round_id__in=rounds, table__status=enums.TableStatus.CLOSED)
        .order_by("table_id", "position")
        .values_list(*_SEAT_FIELDS)
    )


def table_records(events: Sequence[EventInfo]) -> list[rating.TableRecord]:
    """The rating's records of the closed tables of ``events`` (one query), each table's order as
    its format ranks it (``Format.rating_order``). A player without a person gets a stand-in id
    (the player's id, negative): rated as a table's opponent, never shown."""
    order = {event.id: index for index, event in enumerate(events)}
    formats = {event.id: registry.get(event.format) for event in events}
    tables: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for values in _closed_seats(events).iterator(chunk_size=5000):
        tables[values[0]].append(values)
    records = []
    for table_id, seats in tables.items():
        _, tournament_id, number, stage, is_duel, is_final = seats[0][:6]
        rated = RatedTable(
            number,
            stage,
            is_duel,
            is_final,
            tuple(
                RatedSeat(person if person is not None else -player, won, points, place, out)
                for *_, player, person, won, points, place, out in seats
            ),
        )
        found = formats[tournament_id].rating_order(rated)
        if found is not None and len(found.ranks) > 1:
            records.append(
                rating.TableRecord.of(order[tournament_id], tournament_id, found.round_key, table_id, found.ranks)
            )
    return records


def club_rating(club: Club, events: Sequence[EventInfo] | None = None) -> dict[int, rating.PersonRating]:
    """Every person's rating over the club's finished tournaments, computed from the records and
    kept in the shared cache under every version it depends on (see the module docstring)."""
    if events is None:
        events = club_events(club)
    key = (
        KEY_PREFIX
        + "rating:"
        + _digest(
            (
                club.pk,
                club.created_at.isoformat(),
                club.register_version,
                tuple((event.id, event.public_key, event.version) for event in events),
            )
        )
    )
    kept = cache.get(key)
    if isinstance(kept, dict):
        return kept
    ratings = rating.rate(table_records(events)) if events else {}
    cache.set(key, ratings, KEEP_SECONDS)
    return ratings


# --- a person's history --------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryEvent:
    """One event a person played: the place and field, the rating after it."""

    event: EventInfo
    place: int | None
    field_size: int
    rating: rating.HistoryPoint | None


@dataclass(frozen=True)
class SeriesStanding:
    """The person's line in one series of the club."""

    series: Series
    row: series_rules.SeriesRow
    results: tuple[tuple[EventInfo, series_rules.EventScore], ...]
    explained: str


@dataclass(frozen=True)
class History:
    """A person's season: events, places, series, the rating now and as a chart."""

    person: Person
    events: list[HistoryEvent]
    series: list[SeriesStanding]
    rating: rating.PersonRating | None
    chart: str


def _places_of(person: Person, events: Sequence[EventInfo]) -> dict[int, tuple[int | None, int]]:
    """The person's place and the field size in each event they played (one query for their
    players; the places from the kept rankings)."""
    players = dict(
        Player.objects.filter(person=person, tournament_id__in=[event.id for event in events]).values_list(
            "tournament_id", "pk"
        )
    )
    if not players:
        return {}
    tournaments = Tournament.objects.in_bulk(list(players))
    places: dict[int, tuple[int | None, int]] = {}
    for tournament_id, player_id in players.items():
        rows = ranking_selectors.rows(tournaments[tournament_id])
        place = next((row.place for row in rows if row.player.pk == player_id), None)
        places[tournament_id] = (place, len(rows))
    return places


def _series_of(person: Person) -> list[SeriesStanding]:
    """The person's line in each series of the club that ranks them (two queries, the standings kept)."""
    club = person.club
    grouped: dict[int, list[EventInfo]] = defaultdict(list)
    entries = (
        SeriesEvent.objects.filter(series__club=club)
        .order_by("tournament__date", "tournament_id")
        .values_list("series_id", *(f"tournament__{name}" for name in _EVENT_FIELDS))
    )
    for series_id, *values in entries:
        grouped[series_id].append(_event_of(values))
    found = []
    for series in Series.objects.filter(club=club).order_by("-created_at", "-pk"):
        series.club = club
        events = grouped.get(series.pk, [])
        row = next((row for row in standings(series, events) if row.person == person.pk), None)
        if row is not None:
            by_id = {event.id: event for event in events}
            results = tuple((by_id[score.event], score) for score in row.scores)
            found.append(SeriesStanding(series, row, results, explain(row, by_id, series.minimum_events)))
    return found


def history(person: Person) -> History:
    """The person's season in their club (``person.club`` loaded with the person)."""
    events = club_events(person.club)
    places = _places_of(person, events)
    person_rating = club_rating(person.club, events).get(person.pk)
    points = {point.event_id: point for point in (person_rating.history if person_rating else ())}
    played = [
        HistoryEvent(event, places[event.id][0], places[event.id][1], points.get(event.id))
        for event in events
        if event.id in places
    ]
    return History(person, played, _series_of(person), person_rating, _chart(person, person_rating, events))


def _chart(person: Person, person_rating: rating.PersonRating | None, events: Sequence[EventInfo]) -> str:
    names = {event.id: event for event in events}
    history_points = person_rating.history if person_rating else ()
    labels = [names[point.event_id].held_on.strftime("%d.%m.") for point in history_points]
    text = history_chart.ChartText(
        title=_("Rating of %(name)s over the events") % {"name": person.name},
        description=_(
            "The line is the rating after each event; the band around it shows how unsure it still is."
            " The table beside the chart lists the same values."
        ),
        x_axis=_("Event"),
        y_axis=_("Rating"),
        empty=_("No rated event yet."),
    )
    return history_chart.render(
        history_chart.points_of(history_points, labels),
        text,
        chart_id=f"rating-{person.pk}",
        format_number=lambda value: number_format(value, 1),
    )
