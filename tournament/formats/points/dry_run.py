"""A points tournament played to its end with random hands (``simulate_tournament``)."""

from __future__ import annotations

import random

from tournament import simulation
from tournament.errors import NeedsChoice
from tournament.formats.points import selectors as points_selectors
from tournament.formats.points import services
from tournament.models import Tournament


def simulate(tournament: Tournament, *, seed: int, actor: object | None = None) -> simulation.SimulationResult:
    """Play every planned round (and the play-offs the settings ask for), then finish the
    tournament; the first option wherever the count does not split into tables of the settings
    (the rounds' notes say which)."""
    rng = random.Random(seed)
    games = 0
    for _round in range(tournament.rounds_planned):
        round_seed = rng.getrandbits(31)
        try:
            rnd = services.start_round(tournament=tournament, actor=actor, seed=round_seed)
        except NeedsChoice as needs:
            code = needs.options[0].code
            rnd = services.start_round(tournament=tournament, actor=actor, seed=round_seed, choice=code)
        for table in rnd.tables.order_by("number"):
            games += simulation.play_table(tournament, table, rng, actor)
    # Ties the settings resolve by play-off: a play-off round each time one is due (a play-off
    # that ties again makes the next one due), then the finish.
    while points_selectors.due_playoffs(tournament):
        playoff = services.seat_playoff(tournament=tournament, actor=actor)
        for table in playoff.tables.order_by("number"):
            games += simulation.play_table(tournament, table, rng, actor)
    services.finish(tournament=tournament, actor=actor)
    tournament.refresh_from_db()
    return simulation.SimulationResult(tournament=tournament, rounds=tournament.rounds_planned, games=games)
