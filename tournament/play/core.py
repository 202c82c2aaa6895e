"""Locks and guards shared by every table write, with the one wording of each refusal.

Lock order (``tournament.writes``): the tournament first, then the round, then
the table.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournament import enums
from tournament.errors import ServiceError
from tournament.models import Round, Table, Tournament


def lock_table(tournament: Tournament, table_id: int) -> Table:
    """The table (with its round) of ``tournament``, locked; refused for any other id."""
    table = (
        Table.objects.select_for_update()
        .select_related("round")
        .filter(pk=table_id, round__tournament=tournament)
        .first()
    )
    if table is None:
        raise ServiceError(_("This table does not exist in this tournament."))
    return table


def check_writable(table: Table, version: int | None) -> None:
    """Refuse a write to a closed table or a finished round, or from a tablet that saw an older
    ``version`` of the table (``None``: any version)."""
    if table.round.status == enums.RoundStatus.FINISHED or table.status == enums.TableStatus.CLOSED:
        raise ServiceError(_("Table %(number)d is closed; results can no longer change.") % {"number": table.number})
    if version is not None:
        refuse_stale(table, version)


def refuse_stale(table: Table, version: int) -> None:
    """Refuse a write from a tablet or page that saw another ``version`` of the table."""
    if version != table.version:
        raise ServiceError(
            _(
                "Table %(number)d was changed on another tablet. "
                "The page now shows the current state; check it and enter again."
            )
            % {"number": table.number}
        )


def refuse_if_finished(tournament: Tournament) -> None:
    if tournament.status == enums.TournamentStatus.FINISHED:
        raise ServiceError(_("The tournament is finished."))


def refuse_without_draw(tournament: Tournament) -> None:
    """Round 1 needs start numbers."""
    if not tournament.draws.exists():
        raise ServiceError(_("Draw the start numbers before the first round."))


def refuse_while_playing(tables: QuerySet[Table]) -> None:
    """Refuse while any of ``tables`` still plays, naming them; with a second confirmation
    (``Tournament.confirm_results``) also while a decided table waits for it."""
    numbers = list(tables.filter(status=enums.TableStatus.PLAYING).order_by("number").values_list("number", flat=True))
    if numbers:
        raise ServiceError(_("Tables still playing: %(tables)s.") % {"tables": ", ".join(str(n) for n in numbers)})
    waiting = list(
        tables.filter(status=enums.TableStatus.DECIDED, round__tournament__confirm_results=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if waiting:
        raise ServiceError(
            _("Tables waiting for a second person to confirm their result: %(tables)s.")
            % {"tables": ", ".join(str(n) for n in waiting)}
        )


def refuse_too_few(players: int, needed: int) -> None:
    if players < needed:
        raise ServiceError(_("At least %(needed)d checked-in players are needed.") % {"needed": needed})


def latest_round(tournament: Tournament, *, lock: bool = False) -> Round | None:
    """The tournament's last round (locked with ``lock``), or None before round 1."""
    rounds = Round.objects.filter(tournament=tournament).order_by("-number")
    if lock:
        rounds = rounds.select_for_update()
    return rounds.first()
