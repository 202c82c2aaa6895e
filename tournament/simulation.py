"""Dry runs: play a whole tournament through the services with random results.

Used by ``manage.py simulate_tournament`` (the organiser's rehearsal before the
event) and by the tests. Every write goes through the real services, so a dry
run exercises the same code as the day itself.
"""

from __future__ import annotations

import datetime
import random
import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from games.rules.uno import ACTION_CARDS, NUMBER_CARDS
from tournament import enums, life_bands_services, play_services, points_services, selectors, services
from tournament.models import Table, Tournament

FIRST_NAMES = ["Anna", "Bernd", "Carla", "David", "Eva", "Franz", "Gina", "Hans", "Ilse", "Jonas", "Klara", "Luca"]
LAST_NAMES = ["Huber", "Gruber", "Rossi", "Bauer", "Wagner", "Bianchi", "Moser", "Pichler", "Ferrari", "Steiner"]
CLUBS = ["TC Graz", "UNO Freunde", "Tauchclub Linz", "Circolo Udine", ""]


@dataclass(frozen=True)
class SimulationResult:
    tournament: Tournament
    rounds: int
    games: int


def create_field(*, fmt: str, players: int, seed: int, actor: object | None = None) -> Tournament:
    """A tournament with ``players`` checked-in players and drawn start numbers."""
    rng = random.Random(seed)
    game = enums.Game.SCHOCKEN if fmt == enums.Format.LIFE_BANDS else enums.Game.UNO
    tournament = services.create_tournament(
        actor=actor,
        name=f"Dry run {fmt} {players} players (seed {seed})",
        date=datetime.date.today(),
        venue="",
        game=game,
        format=fmt,
        capacity=max(players, 3),
        entry_fee=0,
    )
    for index in range(players):
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)} {index + 1}"
        registration = services.register_player(
            tournament=tournament, actor=actor, name=name, club=rng.choice(CLUBS), confirm_same_name=True
        )
        services.check_in_player(tournament=tournament, actor=actor, player_id=registration.player.pk)
    services.draw_start_numbers(tournament=tournament, actor=actor, seed=seed)
    tournament.refresh_from_db()
    return tournament


def _random_hand(rng: random.Random) -> dict[str, int]:
    hand: dict[str, int] = {}
    for _ in range(rng.randint(0, 6)):
        card = rng.choice(NUMBER_CARDS + NUMBER_CARDS + ACTION_CARDS)
        hand[card] = hand.get(card, 0) + 1
    return hand


def play_table(tournament: Tournament, table: Table, rng: random.Random, actor: object | None) -> int:
    """Play ``table`` to its decision with random winners; returns games recorded."""
    games = 0
    seats = list(table.seats.order_by("position"))
    table.refresh_from_db()
    if table.first_dealer_position is None:
        table = play_services.set_first_dealer(
            tournament=tournament,
            actor=actor,
            table_id=table.pk,
            player_id=rng.choice(seats).player_id,
            version=table.version,
        )
    while table.status == enums.TableStatus.PLAYING:
        winner = rng.choice(seats).player_id
        hands = None
        if table.points_target is not None or tournament.format == enums.Format.POINTS:
            hands = {seat.player_id: _random_hand(rng) for seat in seats if seat.player_id != winner}
        play_services.record_game(
            tournament=tournament,
            actor=actor,
            table_id=table.pk,
            winner_id=winner,
            version=table.version,
            idempotency_key=uuid.uuid4().hex,  # keys only dedupe retries; results stay seeded
            hands=hands,
        )
        games += 1
        table.refresh_from_db()
    return games


def simulate_knockout(tournament: Tournament, *, seed: int, actor: object | None = None) -> SimulationResult:
    """Play a knockout tournament to its end; the first option wherever a count does not split."""
    rng = random.Random(seed)
    rounds = games = 0
    for _ in range(200):  # far more rounds than any field needs
        try:
            started = play_services.generate_next_round(tournament=tournament, actor=actor, seed=rng.getrandbits(31))
        except play_services.NeedsChoice as choice:
            started = play_services.generate_next_round(
                tournament=tournament, actor=actor, choice=choice.options[0].code, seed=rng.getrandbits(31)
            )
        if started.finished:
            break
        assert started.round is not None
        rounds += 1
        # Duel tables appear while the final is played; keep going until none is open.
        while True:
            open_tables = list(started.round.tables.filter(status=enums.TableStatus.PLAYING).order_by("number"))
            if not open_tables:
                break
            for table in open_tables:
                games += play_table(tournament, table, rng, actor)
        tournament.refresh_from_db()
        if tournament.status == enums.TournamentStatus.FINISHED:
            break
    else:
        raise RuntimeError("the simulation did not finish")
    tournament.refresh_from_db()
    return SimulationResult(tournament=tournament, rounds=rounds, games=games)


def play_schocken_table(tournament: Tournament, table: Table, rng: random.Random, actor: object | None) -> int:
    """Play a life-bands table to its decision: random losers among those still in."""
    games = 0
    table.refresh_from_db()
    while table.status == enums.TableStatus.PLAYING:
        alive = list(table.seats.filter(out_order__isnull=True).values_list("player_id", flat=True))
        life_bands_services.record_loss(
            tournament=tournament,
            actor=actor,
            table_id=table.pk,
            loser_id=rng.choice(sorted(alive)),
            version=table.version,
            idempotency_key=uuid.uuid4().hex,
        )
        games += 1
        table.refresh_from_db()
    return games


def simulate_life_bands(tournament: Tournament, *, seed: int, actor: object | None = None) -> SimulationResult:
    """Play a life-bands tournament to its end: the organiser taps "next" whenever
    nothing is playing, and plays the open tables one by one in random order."""
    rng = random.Random(seed)
    games = steps = 0
    for _ in range(10_000):
        tournament.refresh_from_db()
        if tournament.status == enums.TournamentStatus.FINISHED:
            break
        playing = list(
            Table.objects.filter(round__tournament=tournament, status=enums.TableStatus.PLAYING).order_by("pk")
        )
        # Form whatever the pool allows before playing on, as the organiser would.
        try:
            try:
                done = life_bands_services.advance(tournament=tournament, actor=actor, seed=rng.getrandbits(31))
            except play_services.NeedsChoice as choice:
                done = life_bands_services.advance(
                    tournament=tournament, actor=actor, seed=rng.getrandbits(31), choice=choice.options[0].code
                )
            if done:
                steps += 1
                continue
        except services.ServiceError:
            if not playing:
                raise
        if not playing:
            raise RuntimeError("nothing is playing and nothing can be seated")
        games += play_schocken_table(tournament, rng.choice(playing), rng, actor)
    else:
        raise RuntimeError("the simulation did not finish")
    return SimulationResult(tournament=tournament, rounds=steps, games=games)


def simulate_points(tournament: Tournament, *, seed: int, actor: object | None = None) -> SimulationResult:
    """Play every planned round of a points tournament with random hands."""
    rng = random.Random(seed)
    games = 0
    for _round in range(tournament.rounds_planned):
        rnd = points_services.start_round(tournament=tournament, actor=actor, seed=rng.getrandbits(31))
        for table in rnd.tables.order_by("number"):
            games += play_table(tournament, table, rng, actor)
    points_services.finish(tournament=tournament, actor=actor)
    tournament.refresh_from_db()
    return SimulationResult(tournament=tournament, rounds=tournament.rounds_planned, games=games)


def ranking_lines(tournament: Tournament) -> list[str]:
    """One line per player: place, start number and name, tab separated."""
    if tournament.format == enums.Format.POINTS:
        return [
            f"{row.place}\t{player.start_number}\t{player.name}"
            for row, player in points_services.standings(tournament)
        ]
    if tournament.format == enums.Format.LIFE_BANDS:
        rows = life_bands_services.final_ranking(tournament)
        return [f"{row.place}\t{row.player.start_number}\t{row.player.name}" for row in rows]
    return [
        f"{entry.place}\t{entry.player.start_number}\t{entry.player.name}"
        for entry in selectors.final_ranking(tournament)
    ]


def system_user() -> object:
    user, _created = get_user_model().objects.get_or_create(username="simulation")
    return user
