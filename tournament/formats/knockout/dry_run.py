"""A knockout tournament played to its end with random results (``simulate_tournament``)."""

from __future__ import annotations

import random

from tournament import enums, simulation
from tournament.errors import NeedsChoice
from tournament.formats.knockout import services
from tournament.models import Tournament


def seat_next_round(tournament: Tournament, *, seed: int, actor: object | None = None) -> services.RoundStarted:
    """The next round as a dry run seats it: the first option wherever the organiser is asked (the
    way that departs least from the rules, ``rules.plan_next_round``)."""
    try:
        return services.generate_next_round(tournament=tournament, actor=actor, seed=seed)
    except NeedsChoice as needs:
        choice = needs.options[0].code
        return services.generate_next_round(tournament=tournament, actor=actor, choice=choice, seed=seed)


def simulate(tournament: Tournament, *, seed: int, actor: object | None = None) -> simulation.SimulationResult:
    """Play every round; the first option wherever the organiser is asked (the choice is audited
    and written into the round's note: ``simulation.choices_taken`` prints them)."""
    rng = random.Random(seed)
    rounds = games = 0
    for _ in range(200):  # far more rounds than any field needs
        started = seat_next_round(tournament, actor=actor, seed=rng.getrandbits(31))
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
                games += simulation.play_table(tournament, table, rng, actor)
        tournament.refresh_from_db()
        if tournament.status == enums.TournamentStatus.FINISHED:
            break
    else:
        raise RuntimeError("the simulation did not finish")
    tournament.refresh_from_db()
    return simulation.SimulationResult(tournament=tournament, rounds=rounds, games=games)
