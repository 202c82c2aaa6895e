"""Start numbers drawn by lot among the checked-in players (seeded, reproducible).

Contract: ``tournament.writes``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import draws, enums
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import Player, StartNumberDraw, Tournament
from tournament.writes import User, acting_user, audit, bump, lock_tournament


def draw_start_numbers(
    *, tournament: Tournament, actor: User, seed: int | None = None, confirmed: bool = False
) -> StartNumberDraw:
    """Draw start numbers by lot among checked-in players.

    Seeded and reproducible (``tournament.draws.draw_start_numbers``); the seed
    is stored. Drawing again replaces the numbers and is refused once play has
    started. Before play, drawing again raises ``NeedsConfirmation`` (kind
    "redraw", saying which numbers and prints are lost) unless ``confirmed``;
    the first draw needs no confirmation. Refusals come before the question.
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
        last = locked.draws.order_by("-drawn_at", "-pk").first()
        if last is not None and not confirmed:
            raise NeedsConfirmation(_redraw_consequence(locked, last, len(player_ids)), kind="redraw")
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


def _redraw_consequence(tournament: Tournament, last: StartNumberDraw, drawn: int) -> str:
    """What drawing again loses, in words: everyone's number, numbers of players no longer
    checked in, and every card or list printed since the last draw (``last``)."""
    text = ngettext(
        "The %(count)d checked-in player gets a new start number.",
        "All %(count)d checked-in players get new start numbers.",
        drawn,
    ) % {"count": drawn}
    dropped = (
        Player.objects.filter(tournament=tournament, start_number__isnull=False)
        .exclude(status=enums.PlayerStatus.CHECKED_IN)
        .count()
    )
    if dropped:
        text += " " + ngettext(
            "%(count)d player who is no longer checked in loses their start number.",
            "%(count)d players who are no longer checked in lose their start numbers.",
            dropped,
        ) % {"count": dropped}
    when = time_format(timezone.localtime(last.drawn_at), "H:i")
    return (
        text
        + " "
        + _("Cards and lists printed since %(time)s show the old numbers and must be printed again.") % {"time": when}
    )
