"""A small season for the Django-level tests: a club, its people, evenings played by the dry run
(``tournament.simulation``) with the regulars linked, and the series over them; and the
from-scratch recomputation the kept standings and ratings are compared with."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.core.cache import cache

from games.models import Game, GameScore, GameStatus
from tournament import enums, simulation
from tournament.formats import registry
from tournament.models import Club, Person, Player, Round, Seat, Series, SeriesEvent, Table, Tournament
from tournament.play import corrections
from tournament.season import rating, series_rules
from tournament.selectors import season as season_selectors
from tournament.tests.helpers import field_at_once

START = datetime.date(2026, 1, 9)


def club_with_people(count: int, name: str = "Schockclub") -> tuple[Club, list[Person]]:
    club = Club.objects.create(name=name)
    people = [Person.objects.create(club=club, name=f"Regular {index + 1}") for index in range(count)]
    return club, people


def evening(club: Club, people: list[Person], *, seed: int, week: int, players: int = 9) -> Tournament:
    """A finished points evening of ``players``, the first ``len(people)`` linked to the people."""
    tournament = field_at_once(fmt=enums.Format.POINTS, players=players, seed=seed)
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


# --- a big season, built in bulk ----------------------------------------------------------------


def bulk_people(club: Club, count: int) -> list[Person]:
    """``count`` people of ``club`` written at once (their folded name and identity as the register keeps them)."""
    return Person.objects.bulk_create(
        Person(club=club, name=f"Regular {n:04d}", team="TSV", folded=f"regular {n:04d} | tsv", identity=f"r{n}")
        for n in range(count)
    )


def bulk_evening(club: Club, people: list[Person], *, week: int, seed: int) -> Tournament:
    """A finished points evening of ``people`` (one main round, tables of four, a closed table's
    one game each) written with a handful of bulk inserts, as the points format stores it: the
    players linked to the people, the seats with their points and games won, the game and its
    scores. The seating and the penalties follow ``seed``; equal totals share their place."""
    from tournament.tests.factories import TournamentFactory
    from tournament.tests.helpers import set_settings

    rng = random.Random(seed)
    tournament = TournamentFactory(
        format=enums.Format.POINTS,
        game=registry.get(enums.Format.POINTS).games[0],
        club=club,
        name=f"Evening {week + 1}",
        date=START + datetime.timedelta(weeks=week),
        capacity=len(people),
        status=enums.TournamentStatus.FINISHED,
        checklist=[],
    )
    set_settings(tournament, points_tie_resolution="shared")
    order = list(people)
    rng.shuffle(order)
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            name=person.name,
            club=person.team,
            name_key=person.name.lower(),
            folded=person.folded,
            person=person,
            start_number=number,
            status=enums.PlayerStatus.CHECKED_IN,
        )
        for number, person in enumerate(order, start=1)
    )
    _bulk_round(tournament, players, rng)
    tournament.refresh_from_db()
    return tournament


def _bulk_round(tournament: Tournament, players: list[Player], rng: random.Random) -> None:
    """One closed main round of tables of four (the last ones of three when the count asks)."""
    played = Round.objects.create(
        tournament=tournament, number=1, stage=enums.Stage.MAIN, status=enums.RoundStatus.FINISHED
    )
    groups = _tables_of(players)
    tables = Table.objects.bulk_create(
        Table(round=played, number=number, status=enums.TableStatus.CLOSED) for number in range(1, len(groups) + 1)
    )
    games = Game.objects.bulk_create(
        Game(table=table, number=1, winner_id=group[0].pk, dealer_position=0)
        for table, group in zip(tables, groups, strict=True)
    )
    seats, scores = [], []
    for table, game, group in zip(tables, games, groups, strict=True):
        penalties = [0, *sorted(rng.sample(range(1, 60), len(group) - 1))]
        for position, (player, points) in enumerate(zip(group, penalties, strict=True), start=1):
            won = 1 if position == 1 else 0
            seat = Seat(table=table, player=player, position=position, points=points, games_won=won, place=position)
            seats.append(seat)
            scores.append(GameScore(game=game, player=player, points=points))
    Seat.objects.bulk_create(seats)
    GameScore.objects.bulk_create(scores)


def _tables_of(players: list[Player]) -> list[list[Player]]:
    """Tables of four, the last ones of three (every count of 6 or more)."""
    threes = (-len(players)) % 4
    fours = (len(players) - 3 * threes) // 4
    cut = 4 * fours
    return [players[i : i + 4] for i in range(0, cut, 4)] + [players[i : i + 3] for i in range(cut, len(players), 3)]
