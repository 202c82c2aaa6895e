"""manage.py simulate_tournament --format knockout --players N --seed S

A dry run before the event: creates a tournament, plays it through the
services with random results and prints the final ranking, one line per
player: place, start number and name separated by tabs.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import simulation
from tournament.formats import registry


class Command(BaseCommand):
    help = "Play a tournament through with random results and print the final ranking."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=sorted(registry.FORMATS), default="knockout")
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        fmt, players, seed = options["format"], options["players"], options["seed"]
        if players < 2:
            raise CommandError("--players must be at least 2")
        actor = simulation.system_user()
        tournament = simulation.create_field(fmt=fmt, players=players, seed=seed, actor=actor)
        simulation.simulate(tournament, seed=seed, actor=actor)
        for line in simulation.ranking_lines(tournament):
            self.stdout.write(line)
