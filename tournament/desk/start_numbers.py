"""Start numbers drawn by lot among the checked-in players (seeded, reproducible).

Contract: ``tournament.writes``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournament import draws, enums
from tournament.errors import ServiceError
from tournament.models import Player, StartNumberDraw, Tournament
from tournament.writes import User, acting_user, audit, bump, lock_tournament


def draw_start_numbers(*, tournament: Tournament, actor: User, seed: int | None = None) -> StartNumberDraw:
    """Draw start numbers by lot among checked-in players.

    Seeded and reproducible (``tournament.draws.draw_start_numbers``); the seed
    is stored. Drawing again replaces the numbers and is refused once play has
    started.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.play_started or locked.rounds.exists():
            raise ServiceError(_("Play has started; start numbers can no longer be drawn again."))
        player_ids = list(
            Player.objects.select_for_update()
            .filter(tournament=locked, status=enums.PlayerStatus.CHECKED_IN)
            .values_list("pk", flat=True)
        )
        if not player_ids:
            raise ServiceError(_("No player is checked in yet; check players in before drawing start numbers."))
        seed = draws.new_seed() if seed is None else seed
        result = draws.draw_start_numbers(player_ids, seed)
        # Clear first so the unique constraint never sees two players on one number.
        Player.objects.filter(tournament=locked).update(start_number=None)
        numbers = dict(result)
        players = list(Player.objects.filter(pk__in=numbers))
        for player in players:
            player.start_number = numbers[player.pk]
        Player.objects.bulk_update(players, ["start_number"])
        draw = StartNumberDraw.objects.create(
            tournament=locked,
            seed=seed,
            algorithm=draws.START_NUMBER_ALGORITHM,
            drawn_by=acting_user(actor),
            result=[list(pair) for pair in result],
        )
        bump(locked)
        audit(locked, actor, "start_numbers_drawn", seed=seed, players=len(result))
    return draw
