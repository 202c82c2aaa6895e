"""manage.py simulate_tournament --format knockout --players N --seed S

A dry run before the event: creates a tournament, plays it through the
services with random results and prints the final ranking, one line per
player: place, start number and name separated by tabs. Where a player count
does not split into tables the dry run takes the first option the rules
allow; each choice taken is printed to stderr (the ranking on stdout stays
one line per player). A refusal ends the command with its message, never a
traceback.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import simulation
from tournament.errors import ServiceError
from tournament.formats import registry


class Command(BaseCommand):
    help = "Play a tournament through with random results and print the final ranking."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=sorted(registry.FORMATS), default="knockout")
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        fmt, players, seed = options["format"], options["players"], options["seed"]
        needed = max(registry.get(fmt).spec.min_players, 2)
        if players < needed:
            raise CommandError(f"--players must be at least {needed} for {fmt}")
        actor = simulation.system_user()
        try:
            tournament = simulation.create_field(fmt=fmt, players=players, seed=seed, actor=actor)
            simulation.simulate(tournament, seed=seed, actor=actor)
        except ServiceError as error:
            raise CommandError(error.message) from None
        for line in simulation.choices_taken(tournament):
            self.stderr.write(line, style_func=self.style.WARNING)
        for line in simulation.ranking_lines(tournament):
            self.stdout.write(line)
