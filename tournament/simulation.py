"""Dry runs: play a whole tournament through the services with random results.

Used by ``manage.py simulate_tournament`` (the organiser's rehearsal before the
event) and by the tests. Every write goes through the real services, so a dry
run exercises the same code as the day itself. Each format plays its own
dry run (``tournament/formats/<slug>/dry_run.py``); the parts they share are here.
"""

from __future__ import annotations

import datetime
import random
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from games.rules.uno import ACTION_CARDS, NUMBER_CARDS
from tournament import desk, enums
from tournament.models import AuditEntry, Round, Table, Tournament
from tournament.play import results

FIRST_NAMES = ["Anna", "Bernd", "Carla", "David", "Eva", "Franz", "Gina", "Hans", "Ilse", "Jonas", "Klara", "Luca"]
LAST_NAMES = ["Huber", "Gruber", "Rossi", "Bauer", "Wagner", "Bianchi", "Moser", "Pichler", "Ferrari", "Steiner"]
CLUBS = ["TC Graz", "UNO Freunde", "Tauchclub Linz", "Circolo Udine", ""]


@dataclass(frozen=True)
class SimulationResult:
    tournament: Tournament
    rounds: int
    games: int


def _format(slug: str) -> Any:
    from tournament.formats import registry  # the formats' dry runs import this module

    return registry.get(slug)


def create_field(*, fmt: str, players: int, seed: int, actor: object | None = None) -> Tournament:
    """A tournament of format ``fmt`` (with its game) with ``players`` checked-in players and drawn start numbers."""
    tournament = new_field_tournament(fmt=fmt, players=players, seed=seed, actor=actor)
    for name, club in field_names(players, seed):
        registration = desk.register_player(
            tournament=tournament, actor=actor, name=name, club=club, confirm_same_name=True
        )
        desk.check_in_player(tournament=tournament, actor=actor, player_id=registration.player.pk)
    desk.draw_start_numbers(tournament=tournament, actor=actor, seed=seed, confirmed=True)
    tournament.refresh_from_db()
    return tournament


def new_field_tournament(*, fmt: str, players: int, seed: int, actor: object | None = None) -> Tournament:
    """The empty tournament of a dry run's field (``create_field``), named after its size and seed."""
    return desk.create_tournament(
        actor=actor,
        name=f"Dry run {fmt} {players} players (seed {seed})",
        date=datetime.date.today(),
        venue="",
        game=_format(fmt).games[0],
        format=fmt,
        capacity=max(players, 3),
        entry_fee=0,
    )


def field_names(players: int, seed: int) -> list[tuple[str, str]]:
    """The names and clubs of a dry run's field, seeded: the same ``seed`` gives the same players."""
    rng = random.Random(seed)
    field = []
    for index in range(players):
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)} {index + 1}"
        field.append((name, rng.choice(CLUBS)))
    return field


def _random_hand(rng: random.Random) -> dict[str, int]:
    hand: dict[str, int] = {}
    for _ in range(rng.randint(0, 6)):
        card = rng.choice(NUMBER_CARDS + NUMBER_CARDS + ACTION_CARDS)
        hand[card] = hand.get(card, 0) + 1
    return hand


def play_table(tournament: Tournament, table: Table, rng: random.Random, actor: object | None) -> int:
    """Play an UNO table to its decision with random winners (and hands where card points count);
    returns the games recorded."""
    fmt = _format(tournament.format)
    games = 0
    seats = list(table.seats.order_by("position"))
    table.refresh_from_db()
    if table.first_dealer_position is None:
        table = results.set_first_dealer(
            tournament=tournament,
            actor=actor,
            table_id=table.pk,
            player_id=rng.choice(seats).player_id,
            version=table.version,
        )
    while table.status == enums.TableStatus.PLAYING:
        winner = rng.choice(seats).player_id
        hands = None
        if fmt.counts_card_points(table):
            hands = {seat.player_id: _random_hand(rng) for seat in seats if seat.player_id != winner}
        fmt.record_result(
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


def simulate(tournament: Tournament, *, seed: int, actor: object | None = None) -> SimulationResult:
    """Play ``tournament`` to its end with its format's dry run."""
    result: SimulationResult = _format(tournament.format).simulate(tournament, seed=seed, actor=actor)
    return result


def ranking_lines(tournament: Tournament) -> list[str]:
    """One line per player: place, start number and name, tab separated."""
    rows = _format(tournament.format).ranking(tournament)
    return [f"{row.place}\t{row.player.start_number}\t{row.player.name}" for row in rows]


def choices_taken(tournament: Tournament) -> list[str]:
    """One line per organiser's choice the dry run made (a count that did not split: it takes
    the first option), from the audit log: the round and the option's code, then the round's note."""
    lines: list[str] = []
    entries = AuditEntry.objects.filter(tournament=tournament, detail__has_key="choice").order_by("pk")
    notes = dict(Round.objects.filter(tournament=tournament).values_list("number", "seating_note"))
    for detail in entries.values_list("detail", flat=True):
        if not detail.get("choice"):
            continue
        line = f"choice: {detail['choice']}"
        number = detail.get("round_number", detail.get("round"))
        if isinstance(number, int):
            line += f" (round {number})"
            if notes.get(number):
                line += f": {notes[number]}"
        lines.append(line)
    return lines


def system_user() -> object:
    user, _created = get_user_model().objects.get_or_create(username="simulation")
    return user
