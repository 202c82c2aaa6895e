"""Rounds and tables: open a round, seat its tables, close it, finish the tournament.

Callers hold the tournament lock and bump its version (``tournament.writes``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import backups, enums, seating
from tournament.models import Round, Seat, Table, Tournament
from tournament.writes import User, audit, bump


def open_round(tournament: Tournament, *, stage: str, seed: int, algorithm: str, note: str = "") -> Round:
    """A new running round after the last one; ``stage_number`` counts the rounds of its stage."""
    number = (Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    return Round.objects.create(
        tournament=tournament,
        number=number,
        stage_number=Round.objects.filter(tournament=tournament, stage=stage).count() + 1,
        stage=stage,
        status=enums.RoundStatus.RUNNING,
        seed=seed,
        seating_algorithm=algorithm,
        seating_note=note,
        started_at=timezone.now(),
    )


def seat_table(
    rnd: Round,
    players: Iterable[int],
    *,
    seat_fields: Mapping[str, Any] | None = None,
    **table_fields: Any,
) -> Table:
    """A new playing table of ``rnd`` (numbered after the last one) with ``players`` in seat order."""
    number = (Table.objects.filter(round=rnd).aggregate(m=Max("number"))["m"] or 0) + 1
    table = Table.objects.create(round=rnd, number=number, started_at=timezone.now(), **table_fields)
    extra = dict(seat_fields or {})
    Seat.objects.bulk_create(
        Seat(table=table, player_id=pid, position=position, **extra) for position, pid in enumerate(players)
    )
    return table


def close_round(rnd: Round, now: datetime | None = None, *, close_tables: bool = True) -> None:
    """Finish ``rnd``; with ``close_tables`` its decided tables are closed too (their results
    confirmed by seating the next round). Either way no result of the round changes after this."""
    now = now or timezone.now()
    if close_tables:
        rnd.tables.filter(status=enums.TableStatus.DECIDED).update(status=enums.TableStatus.CLOSED, closed_at=now)
    rnd.status = enums.RoundStatus.FINISHED
    rnd.finished_at = rnd.finished_at or now
    rnd.save(update_fields=["status", "finished_at"])
    transaction.on_commit(
        lambda: backups.snapshot_after_round(tournament_id=rnd.tournament_id, round_number=rnd.number), robust=True
    )


def finish_tournament(tournament: Tournament, actor: User) -> None:
    """The tournament is decided: every round is finished, the standings are final."""
    now = timezone.now()
    for rnd in Round.objects.filter(tournament=tournament).exclude(status=enums.RoundStatus.FINISHED):
        close_round(rnd, now)
    tournament.status = enums.TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])
    bump(tournament)
    audit(tournament, actor, "tournament_finished")


def mark_running(tournament: Tournament) -> None:
    """Play has started (or goes on)."""
    if tournament.status != enums.TournamentStatus.RUNNING:
        tournament.status = enums.TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])


def option_label(option: seating.SeatingOption) -> str:
    """A translated sentence for one way out of a count that does not split (or, in the
    knockout, of a split that does not lead to a final of the configured size)."""
    params = dict(option.params)
    sizes = " + ".join(str(size) for size in option.sizes)
    final = bool(params.get("final"))
    if option.code == seating.ONE_MORE_ADVANCES:
        if final:
            text = _(
                "One runner-up moves up (the one with the most games won, then the lower start number): "
                "a final of %(players)d players."
            )
        else:
            text = _(
                "One more player advances (the runner-up with the most games won, then the lower start number): "
                "%(players)d players at tables of %(sizes)s."
            )
    elif option.code == seating.MORE_PLAYERS:
        if final:
            text = _(
                "%(extra)d runners-up move up (most games won, then the lower start number): "
                "a final of %(players)d players."
            )
        else:
            text = _(
                "%(extra)d more players advance (the runners-up with the most games won, then the lower start "
                "number): tables of %(sizes)s."
            )
    elif option.code == seating.ONE_FEWER:
        text = _(
            "The weakest player of this round (fewest games won, then the higher start number) goes out: "
            "%(players)d players at tables of %(sizes)s."
        )
    elif option.code == seating.FEWER_PLAYERS:
        text = _(
            "The %(fewer)d weakest players of this round (fewest games won, then the higher start number) "
            "go out: tables of %(sizes)s."
        )
    elif option.code == seating.SMALLER_TABLE:
        text = _("Allow a table of %(size)d: tables of %(sizes)s.")
    elif option.code == seating.FINAL_OF_ALL:
        text = _("All %(players)d players play the final now (the rules want a final of %(final_size)d).")
    elif option.code == seating.PLAIN_ROUND:
        text = _(
            "Play the round at tables of %(sizes)s: %(tables)d table winners go on, "
            "and the final will not have exactly %(final_size)d players."
        )
    else:
        text = _("Allow a table of %(size)d: tables of %(sizes)s.")
    sentence = text % {**params, "sizes": sizes}
    if params.get("finalists") and not final:
        sentence += " " + _("This leads to a final of %(finalists)d players.") % params
    return sentence
