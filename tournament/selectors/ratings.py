"""The club's rating list (issue 33, item 3): every person of the club rated at a closed table,
best first, with the uncertainty and the provisional mark. The ratings come from
``selectors.season.club_rating`` (computed from the records, kept under every version they depend
on); a page reads the club's events (one query) and the names of its rows (one query)."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Club
from tournament.season import rating
from tournament.selectors import season as season_selectors

PAGE_SIZE = 50


@dataclass(frozen=True)
class RatedRow:
    """A row of the list: its place (shared by equal display values), the person and the rating."""

    place: int
    person: int
    name: str
    team: str
    rating: rating.PersonRating


@dataclass(frozen=True)
class RatingList:
    rows: list[RatedRow]
    total: int
    page: int
    pages: int
    events: int


def _order(ratings: dict[int, rating.PersonRating]) -> list[tuple[int, rating.PersonRating]]:
    """The shown people (stand-ins, negative ids, are not shown), best display value first; equal
    values by the more certain estimate, then the more tables; the person's id only keeps the order
    stable (equal rows share a place: never decided by an id)."""
    shown = [(person, rated) for person, rated in ratings.items() if person > 0]
    return sorted(shown, key=lambda item: (-item[1].display, item[1].sigma, -item[1].tables, item[0]))


def _places(ordered: list[tuple[int, rating.PersonRating]]) -> list[int]:
    places: list[int] = []
    for index, (_person, rated) in enumerate(ordered):
        same = index and round(rated.display, 1) == round(ordered[index - 1][1].display, 1)
        places.append(places[-1] if same else index + 1)
    return places


def rating_list(club: Club, *, page: int = 1, size: int = PAGE_SIZE) -> RatingList:
    """A page of the club's ratings (``size`` rows from ``page``). Places are shared where the
    shown value (one decimal) is equal."""
    events = season_selectors.club_events(club)
    ordered = _order(season_selectors.club_rating(club, events))
    places = _places(ordered)
    pages = max((len(ordered) + size - 1) // size, 1)
    page = min(max(page, 1), pages)
    start = (page - 1) * size
    shown = ordered[start : start + size]
    names = season_selectors.names_of(person for person, _rated in shown)
    rows = [
        RatedRow(places[start + index], person, *names.get(person, ("", "")), rated)
        for index, (person, rated) in enumerate(shown)
    ]
    return RatingList(rows=rows, total=len(ordered), page=page, pages=pages, events=len(events))
