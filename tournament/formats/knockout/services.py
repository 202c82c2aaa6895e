"""Writes of the knockout format: the next round (lucky losers, the final), a
table's outcome (wins, the points final and its duels), and the table services
built on the play core. Contract: ``tournament.writes``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import GameStatus
from tournament import draws, enums, seating
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.base import FormatError
from tournament.formats.knockout import reads
from tournament.formats.knockout import rules as knockout
from tournament.formats.record import StepDone, refuse_other_format
from tournament.models import AuditEntry, Player, Round, Seat, Table, Tournament
from tournament.play import corrections, results, rounds
from tournament.play.core import (
    latest_round,
    refuse_if_finished,
    refuse_while_playing,
    refuse_without_draw,
)
from tournament.play.tables import save_outcome, save_tally, tally
from tournament.writes import User, audit, bump, lock_tournament

SLUG = "knockout"

OTHER_FORMAT = gettext_lazy("This tournament does not use the knockout format.")


STAGE_BY_FORMAT_STAGE = {
    knockout.MAIN: enums.Stage.MAIN,
    knockout.LUCKY_LOSER: enums.Stage.LUCKY_LOSER,
    knockout.FINAL: enums.Stage.FINAL,
}


def _settings(tournament: Tournament) -> knockout.KnockoutSettings:
    return knockout.KnockoutSettings(
        preferred=tournament.table_size,
        largest=tournament.table_size_max,
        final_size=tournament.final_size,
        wins_needed=tournament.wins_needed,
        wins_needed_large_table=tournament.wins_needed_large_table,
        points_target=tournament.final_points_target,
    )


def _format_error(error: FormatError) -> ServiceError:
    if error.code == "too_few_players":
        return ServiceError(
            _("At least %(needed)d checked-in players with start numbers are needed.") % dict(error.params)
        )
    if error.code == "no_seating_possible":
        return ServiceError(
            _(
                "%(players)d players cannot be seated at tables of these sizes, and the rules allow no way out here. "
                "Change the table sizes in the settings."
            )
            % {"players": error.params.get("players", 0)}
        )
    return ServiceError(_("The next round cannot be seated (%(code)s).") % {"code": error.code})


# --- rounds ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundStarted:
    round: Round | None
    finished: bool = False


def generate_next_round(
    *, tournament: Tournament, actor: User, choice: str = "", seed: int | None = None
) -> RoundStarted:
    """Seat the next round of a knockout tournament (or finish it).

    Refused while a table of the current round is still playing. Where the
    player count does not split, raises ``NeedsChoice`` with the options; call
    again with ``choice`` set to one of their codes.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_other_format(locked, SLUG, OTHER_FORMAT)
        refuse_if_finished(locked)
        current = latest_round(locked, lock=True)
        if current is not None:
            refuse_while_playing(current.tables.all())
        else:
            refuse_without_draw(locked)
        plan = _plan(locked, choice)
        if current is not None:
            rounds.close_round(current)
        if isinstance(plan, knockout.Finished):
            rounds.finish_tournament(locked, actor)
            return RoundStarted(round=None, finished=True)
        if plan.needs_choice:
            raise NeedsChoice(
                _("%(players)d players cannot be split into tables of %(min)d to %(max)d. Choose how to go on.")
                % {"players": len(plan.players), "min": locked.table_size, "max": locked.table_size_max},
                options=plan.options,
                players=len(plan.players),
            )
        new_round = _seat_round(locked, plan, first_round=current is None, seed=seed)
        rounds.mark_running(locked)
        bump(locked)
        audit(
            locked,
            actor,
            "round_started",
            round=new_round.number,
            stage=new_round.stage,
            seed=new_round.seed,
            choice=plan.choice,
            added=list(plan.added),
            dropped=list(plan.dropped),
        )
    return RoundStarted(round=new_round)


def _plan(tournament: Tournament, choice: str) -> knockout.NextRound | knockout.Finished:
    try:
        return knockout.plan_next_round(
            reads.entrants(tournament), reads.round_results(tournament), _settings(tournament), choice
        )
    except FormatError as error:
        raise _format_error(error) from None


def _seat_round(tournament: Tournament, plan: knockout.NextRound, *, first_round: bool, seed: int | None) -> Round:
    players = {p.pk: p for p in Player.objects.filter(pk__in=plan.players)}
    seed = draws.new_seed() if seed is None else seed
    seat_input = [seating.SeatingPlayer(id=pid, club=players[pid].club) for pid in plan.players]
    is_final = plan.stage == knockout.FINAL
    if is_final:
        seat_plan = seating.seat_players(seat_input, seed, len(seat_input), len(seat_input))
    else:
        seat_plan = seating.seat_players(
            seat_input,
            seed,
            tournament.table_size,
            plan.largest,
            keep_clubs_apart=first_round and tournament.keep_clubs_apart,
        )
    new_round = rounds.open_round(
        tournament,
        stage=STAGE_BY_FORMAT_STAGE[plan.stage],
        seed=seed,
        algorithm=seat_plan.algorithm,
        note=" ".join(_seating_notes(tournament, plan, players)),
    )
    for table_players in seat_plan.tables:
        wins = knockout.wins_needed_at(
            len(table_players),
            wins_needed=tournament.wins_needed,
            wins_needed_large_table=tournament.wins_needed_large_table,
            largest=tournament.table_size_max,
        )
        rounds.seat_table(
            new_round,
            table_players,
            wins_needed=None if is_final else wins,
            points_target=tournament.final_points_target if is_final else None,
        )
    return new_round


def _seating_notes(tournament: Tournament, plan: knockout.NextRound, players: Mapping[int, Player]) -> list[str]:
    """Why the round seats whom it seats: the organiser's choice and who moved up."""
    notes = []
    if plan.choice:
        before = len(plan.players) - len(plan.added) + len(plan.dropped)
        options = seating.explain_impossible(before, tournament.table_size, tournament.table_size_max)
        option = next((o for o in options if o.code == plan.choice), None)
        if option is not None:
            notes.append(rounds.option_label(option))
    if plan.added:
        notes.append(_("Moved up: %(names)s.") % {"names": ", ".join(players[p].name for p in plan.added)})
    return notes


# --- a table's outcome ------------------------------------------------------------------


def refresh_table(tournament: Tournament, table: Table, actor: User) -> None:
    """Recompute tallies, decision and places of ``table`` from its valid games.

    A table is decided by its first to ``wins_needed``; the final by the points
    target, and its tied places by duel tables, created (and dropped) here.
    """
    result = tally(table)
    places: dict[int, int] = {}
    decided = False
    if table.points_target is not None:
        state = knockout.final_state(result.points, table.points_target, result.start_numbers)
        _sync_duels(table, state if state.winner is not None else None, result.start_numbers)
        if state.winner is not None:
            decided = True
            order = _resolved_final_order(table, state) or state.order
            places = {pid: index for index, pid in enumerate(order, start=1)}
    elif knockout.table_winner(result.wins, table.wins_needed or 1) is not None:
        decided = True
        ordered = knockout.table_places(result.wins, result.start_numbers)
        places = {pid: index for index, pid in enumerate(ordered, start=1)}
    save_tally(table, result, places, decided=decided)
    save_outcome(tournament, table, decided=decided)
    if table.is_duel:
        final_table = table.round.tables.exclude(pk=table.pk).filter(is_duel=False).first()
        if final_table is not None:
            refresh_table(tournament, Table.objects.select_for_update().get(pk=final_table.pk), actor)


def _duels(table: Table) -> QuerySet[Table]:
    """The duel tables that decide ties of a final table (none for other tables)."""
    if table.points_target is None:
        return Table.objects.none()
    return Table.objects.filter(round=table.round, is_duel=True)


def _sync_duels(table: Table, state: knockout.FinalState | None, start: Mapping[int, int]) -> None:
    """Create a duel table for each tie of the decided final; drop unplayed duels when no longer tied."""
    if table.is_duel:
        return
    wanted = [] if state is None else list(state.ties)
    existing = list(Table.objects.filter(round=table.round, is_duel=True).prefetch_related("seats"))
    for duel in existing:
        players = tuple(sorted(seat.player_id for seat in duel.seats.all()))
        if players in [tuple(sorted(group)) for group in wanted]:
            wanted = [group for group in wanted if tuple(sorted(group)) != players]
        elif not duel.games.exists():
            duel.delete()
    next_number = (Table.objects.filter(round=table.round).aggregate(m=Max("number"))["m"] or 0) + 1
    for group in wanted:
        assert state is not None
        duel = Table.objects.create(
            round=table.round,
            number=next_number,
            is_duel=True,
            wins_needed=knockout.DUEL_WINS_NEEDED,
            duel_for_place=state.order.index(group[0]) + 1,
            started_at=timezone.now(),
        )
        Seat.objects.bulk_create(
            Seat(table=duel, player_id=pid, position=position)
            for position, pid in enumerate(sorted(group, key=lambda p: start[p]))
        )
        next_number += 1


def _resolved_final_order(table: Table, state: knockout.FinalState) -> tuple[int, ...] | None:
    """The final order once every duel is decided, else None."""
    if not state.ties:
        return state.order
    duels = list(Table.objects.filter(round=table.round, is_duel=True).prefetch_related("seats"))
    orders = []
    for group in state.ties:
        duel = next((d for d in duels if sorted(s.player_id for s in d.seats.all()) == sorted(group)), None)
        if duel is None or duel.status == enums.TableStatus.PLAYING:
            return None
        orders.append([s.player_id for s in sorted(duel.seats.all(), key=lambda s: s.place or 99)])
    return knockout.resolve_final_order(state, orders)


def score_game(
    tournament: Tournament, table: Table, winner_id: int, priced: results.Priced
) -> dict[int, tuple[int, dict[str, Any]]]:
    """Only the final counts card points: its game's winner scores the cards left in the others' hands."""
    if table.points_target is None:
        return {}
    values = priced()
    scores: dict[int, tuple[int, dict[str, Any]]] = {
        pid: (0, {"cards": points, "hand": hand}) for pid, (points, hand) in values.items()
    }
    scores[winner_id] = (sum(points for points, _hand in values.values()), {})
    return scores


def _undo_guard(tournament: Tournament, table: Table) -> None:
    if _duels(table).filter(games__isnull=False).exists():
        raise ServiceError(_("The duel has started; the final's games can no longer be undone."))
    if table.is_duel and table.round.tables.filter(is_duel=False, status=enums.TableStatus.CLOSED).exists():
        # The duel orders the closed final's places: undoing it would reopen the final.
        raise ServiceError(_("The final is closed; its duel can no longer be undone."))


def _close_guard(tournament: Tournament, table: Table) -> None:
    if _duels(table).exclude(status__in=[enums.TableStatus.DECIDED, enums.TableStatus.CLOSED]).exists():
        raise ServiceError(_("The duel for the tied places is still open."))


def _after_close(tournament: Tournament, table: Table, actor: User) -> None:
    """The last table of a round closed: with automatic advancement (and always after the final),
    the next round is seated, or the tournament finishes."""
    round_done = not table.round.tables.exclude(status=enums.TableStatus.CLOSED).exists()
    if round_done and (tournament.auto_advance or table.round.stage == enums.Stage.FINAL):
        generate_next_round(tournament=tournament, actor=actor)


record_game = results.winner_recorder(score=score_game, refresh=refresh_table)
undo_last_game = results.undoer(refresh=refresh_table, guard=_undo_guard)
close_table = results.closer(guard=_close_guard, after=_after_close)


def _downstream(tournament: Tournament, table: Table) -> list[corrections.Swap]:
    """After a correction at ``table``: the seats of the next round that the rules now give to
    someone else (the winner who no longer won, the loser who no longer plays the lucky-loser
    round), planned again from the results up to the table's round with the organiser's
    choice of then. Refused where the next round would be seated otherwise (another count)."""
    rnd = table.round
    following = Round.objects.filter(tournament=tournament, number__gt=rnd.number).order_by("number").first()
    if following is None:
        return []
    if table.is_duel or _duels(table).filter(games__status=GameStatus.VALID).exists():
        raise ServiceError(_("The duel has been played: void the duel's games first, then correct the final."))
    up_to = Round.objects.filter(tournament=tournament, number__lte=rnd.number).count()
    results_so_far = reads.round_results(tournament)[:up_to]
    started = AuditEntry.objects.filter(tournament=tournament, action="round_started", detail__round=following.number)
    choice = str((started.values_list("detail", flat=True).first() or {}).get("choice") or "")
    try:
        plan = knockout.plan_next_round(reads.entrants(tournament), results_so_far, _settings(tournament), choice)
    except FormatError as error:
        raise _format_error(error) from None
    seated = dict(Seat.objects.filter(table__round=following).values_list("player_id", "table_id"))
    if isinstance(plan, knockout.Finished) or plan.needs_choice:
        raise ServiceError(_("After this correction the next round would be seated differently; correct nothing."))
    leaves = sorted(set(seated) - set(plan.players))
    takes = sorted(set(plan.players) - set(seated))
    if len(leaves) != len(takes):
        raise ServiceError(_("After this correction the next round would be seated differently; correct nothing."))
    tables = {t.pk: t for t in Table.objects.filter(round=following).select_related("round")}
    return [
        corrections.Swap(table=tables[seated[out]], leaves=out, takes=new)
        for out, new in zip(leaves, takes, strict=True)
    ]


CORRECTIONS = corrections.CorrectionHooks(
    refresh=refresh_table,
    rescore=results.rescorer(score_game),
    give_back=corrections.no_give_back,
    downstream=_downstream,
    after_swap=corrections.nothing_after_swap,
)


def next_step(
    *, tournament: Tournament, actor: User, action: str = "", choice: str = "", confirmed: bool = False
) -> StepDone:
    """Seat the next round (or finish the tournament after the final).

    A knockout finishes only when its final is decided, never early: nothing to confirm,
    ``confirmed`` is accepted (every format's step takes it) and not needed."""
    started = generate_next_round(tournament=tournament, actor=actor, choice=choice)
    if started.finished or started.round is None:
        return StepDone(_("The tournament is decided."), finished=True)
    tables = started.round.tables.count()
    message = ngettext("%(round)s seated: %(tables)d table.", "%(round)s seated: %(tables)d tables.", tables)
    return StepDone(message % {"round": started.round, "tables": tables})


# The names the format's record reads (``tournament.formats.record.build``).
record_result = record_game
undo_result = undo_last_game
