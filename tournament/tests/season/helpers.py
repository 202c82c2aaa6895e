"""A small season for the Django-level tests: a club, its people, evenings played by the dry run
(``tournament.simulation``) with the regulars linked, and the series over them; and the
from-scratch recomputation the kept standings and ratings are compared with."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.cache import cache

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.formats import registry
from tournament.models import Club, Person, Player, Series, SeriesEvent, Table, Tournament
from tournament.play import corrections
from tournament.season import rating, series_rules
from tournament.selectors import season as season_selectors

START = datetime.date(2026, 1, 9)


def club_with_people(count: int, name: str = "Schockclub") -> tuple[Club, list[Person]]:
    club = Club.objects.create(name=name)
    people = [Person.objects.create(club=club, name=f"Regular {index + 1}") for index in range(count)]
    return club, people


def evening(club: Club, people: list[Person], *, seed: int, week: int, players: int = 9) -> Tournament:
    """A finished points evening of ``players``, the first ``len(people)`` linked to the people."""
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=players, seed=seed)
    Tournament.objects.filter(pk=tournament.pk).update(club=club, date=START + datetime.timedelta(weeks=week))
    for player, person in zip(tournament.players.order_by("pk"), people, strict=False):
        Player.objects.filter(pk=player.pk).update(person=person)
    tournament.refresh_from_db()
    simulation.simulate(tournament, seed=seed)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    return tournament


def series_of(club: Club, events: list[Tournament], **settings: Any) -> Series:
    series = Series.objects.create(club=club, name="Winter league", **settings)
    SeriesEvent.objects.bulk_create(SeriesEvent(series=series, tournament=event) for event in events)
    return Series.objects.select_related("club").get(pk=series.pk)


def fresh(series: Series) -> Series:
    return Series.objects.select_related("club").get(pk=series.pk)


def from_scratch(series: Series) -> list[series_rules.SeriesRow]:
    """The standings computed again from the database, nothing kept: the format's ranking of each
    finished event and the players' people."""
    events = []
    for entry in series.events.select_related("tournament"):
        tournament = entry.tournament
        if tournament.status != enums.TournamentStatus.FINISHED:
            continue
        rows = registry.of(tournament).ranking(tournament)
        links = dict(tournament.players.filter(person__isnull=False).values_list("pk", "person_id"))
        places = {links[row.player.pk]: row.place for row in rows if row.player.pk in links}
        events.append(series_rules.Event(tournament.pk, tournament.date, len(rows), series_rules.placings_of(places)))
    return series_rules.standings(events, series.scoring())


def ratings_from_scratch(club: Club) -> dict[int, rating.PersonRating]:
    cache.clear()
    club.refresh_from_db()
    return season_selectors.club_rating(club)


def last_round_table(tournament: Tournament, player_id: int) -> Table:
    """The table of the tournament's last main round where ``player_id`` sat."""
    return (
        Table.objects.filter(round__tournament=tournament, round__stage=enums.Stage.MAIN, seats__player_id=player_id)
        .order_by("-round__number")
        .first()
    )  # type: ignore[return-value]


def correct(tournament: Tournament, table: Table, *, winner: int, card_points: dict[int, int]) -> Game:
    """Correct the table's last valid game through the organiser's correction service (asked, then confirmed)."""
    game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
    assert game is not None
    table.refresh_from_db()
    call = {
        "tournament": tournament,
        "fmt": registry.of(tournament),
        "actor": None,
        "table_id": table.pk,
        "game_id": game.pk,
        "version": table.version,
        "reason": "the wrong winner was tapped",
        "winner_id": winner,
        "card_points": card_points,
    }
    try:
        return corrections.correct_game(**call)
    except corrections.ConfirmConsequences as asked:
        return corrections.correct_game(**call, confirm=asked.fingerprint)
