"""The throwaway format has no dry run yet: it says so."""

from __future__ import annotations

from tournament import simulation
from tournament.models import Tournament


def simulate(tournament: Tournament, *, seed: int, actor: object | None = None) -> simulation.SimulationResult:
    raise NotImplementedError("the throwaway format is never played")
