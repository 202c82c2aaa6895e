"""A life-bands tournament played to its end with random losers (``simulate_tournament``)."""

from __future__ import annotations

import random
import uuid

from tournament import enums, simulation
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.life_bands import services
from tournament.models import Table, Tournament


def play_table(tournament: Tournament, table: Table, rng: random.Random, actor: object | None) -> int:
    """Play a table to its decision: random losers among those still in."""
    games = 0
    table.refresh_from_db()
    while table.status == enums.TableStatus.PLAYING:
        alive = list(table.seats.filter(out_order__isnull=True).values_list("player_id", flat=True))
        services.record_loss(
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


def _close_decided(tournament: Tournament, actor: object | None) -> bool:
    """The referee confirms the decided grand final, which ends the tournament; where a decided
    table's players move on only at its close (automatic advancement: ``life_bands_selectors.moves_on_at_close``),
    the referees close every decided table of a running round."""
    decided = Table.objects.filter(
        round__tournament=tournament, round__status=enums.RoundStatus.RUNNING, status=enums.TableStatus.DECIDED
    ).order_by("pk")
    if not life_bands_selectors.moves_on_at_close(tournament):
        decided = decided.filter(round__stage=enums.Stage.GRAND_FINAL)
    table = decided.first()
    if table is None:
        return False
    services.close_table(tournament=tournament, actor=actor, table_id=table.pk, version=table.version)
    return True


def simulate(tournament: Tournament, *, seed: int, actor: object | None = None) -> simulation.SimulationResult:
    """The organiser taps "next" whenever nothing is playing, and the open tables are played
    one by one in random order."""
    rng = random.Random(seed)
    games = steps = 0
    for _ in range(10_000):
        tournament.refresh_from_db()
        if tournament.status == enums.TournamentStatus.FINISHED:
            break
        if _close_decided(tournament, actor):
            continue
        playing = list(
            Table.objects.filter(round__tournament=tournament, status=enums.TableStatus.PLAYING).order_by("pk")
        )
        # Form whatever the pool allows before playing on, as the organiser would.
        try:
            try:
                done = services.advance(tournament=tournament, actor=actor, seed=rng.getrandbits(31))
            except NeedsChoice as choice:
                done = services.advance(
                    tournament=tournament, actor=actor, seed=rng.getrandbits(31), choice=choice.options[0].code
                )
            if done:
                steps += 1
                continue
        except ServiceError:
            if not playing:
                raise
        if not playing:
            raise RuntimeError("nothing is playing and nothing can be seated")
        games += play_table(tournament, rng.choice(playing), rng, actor)
    else:
        raise RuntimeError("the simulation did not finish")
    return simulation.SimulationResult(tournament=tournament, rounds=steps, games=games)
