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
from tournament import draws, enums, naming, seating
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats import entries
from tournament.formats.base import FormatError
from tournament.formats.knockout import rules as knockout
from tournament.formats.knockout import selectors as knockout_selectors
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


def final_table_fields(tournament: Tournament) -> dict[str, int | None]:
    """The target a final table is seated with (a snapshot: changing the setting later does not
    change a seated final). To points: ``points_target``; to wins: ``wins_needed`` (the table is
    then told from an ordinary table by its round's stage, and counts no card points)."""
    if tournament.final_target_kind == knockout.FINAL_TO_WINS:
        return {"wins_needed": tournament.final_wins_target, "points_target": None}
    return {"wins_needed": None, "points_target": tournament.final_points_target}


# --- the final's target, agreed with the finalists -------------------------------------------------


def _carry_final_target(tournament: Tournament, actor: User) -> list[str]:
    """The seated final takes the tournament's final target (``final_table_fields``) while no game
    of it is recorded: the rules agree the target "am Veranstaltungstag mit der Turnierleitung und
    den Finalisten", i.e. once the finalists are known, before they play. Refused once a game is
    recorded (its games stay correctable). Returns what was carried, in words. The caller holds the
    tournament lock, audits the settings and bumps the version."""
    found = knockout_selectors.final_table(tournament)
    if found is None:
        return []
    table = Table.objects.select_for_update().get(pk=found.pk)
    wanted = final_table_fields(tournament)
    was = knockout_selectors.target_words(table.points_target, table.wins_needed)
    now = knockout_selectors.target_words(wanted["points_target"], wanted["wins_needed"])
    if (table.points_target, table.wins_needed) == (wanted["points_target"], wanted["wins_needed"]):
        return []
    games = knockout_selectors.final_games(table)
    if games:
        raise ServiceError(
            ngettext(
                "The final has started (%(games)d game recorded): it stays %(was)s. The target is agreed with "
                "the finalists before the final's first game; its games can still be corrected.",
                "The final has started (%(games)d games recorded): it stays %(was)s. The target is agreed with "
                "the finalists before the final's first game; its games can still be corrected.",
                games,
            )
            % {"games": games, "was": was}
        )
    table.points_target = wanted["points_target"]
    table.wins_needed = wanted["wins_needed"]
    table.version += 1  # a tablet showing the old target is told to reload before it records
    table.save(update_fields=["points_target", "wins_needed", "version"])
    audit(tournament, actor, "final_target_changed", table=table.pk, was=was, now=now)
    return [_("The seated final now plays %(now)s (was %(was)s).") % {"now": now, "was": was}]


def settings_saved(tournament: Tournament, actor: User, changed: frozenset[str]) -> list[str]:
    """A change of the final's target on the settings page reaches the seated final
    (``_carry_final_target``), or is refused with nothing saved."""
    if not changed & set(knockout_selectors.FINAL_TARGET_SETTINGS):
        return []
    return _carry_final_target(tournament, actor)


# The largest targets the final takes (the settings' own bounds: ``Tournament.final_wins_target``).
FINAL_POINTS_MOST, FINAL_WINS_MOST = 100_000, 50


def set_final_target(*, tournament: Tournament, actor: User, kind: str, target: int | None) -> str:
    """The final's target as agreed with the finalists, set at the final's table: played to
    ``kind`` (points or wins), first to ``target``. Sets the tournament's settings and the seated
    final (before its first game, ``_carry_final_target``); returns the sentence to show."""
    if kind == knockout.FINAL_TO_POINTS:
        most, name = FINAL_POINTS_MOST, "final_points_target"
    elif kind == knockout.FINAL_TO_WINS:
        most, name = FINAL_WINS_MOST, "final_wins_target"
    else:
        raise ServiceError(_("Choose whether the final is played to points or to wins."))
    if target is None or not 1 <= target <= most:
        raise ServiceError(_("Type a whole number from 1 to %(most)d as the final's target.") % {"most": most})
    values = {"final_target_kind": kind, name: target}
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_other_format(locked, SLUG, OTHER_FORMAT)
        if knockout_selectors.final_table(locked) is None:
            raise ServiceError(_("The final is not seated yet: set its target in the settings."))
        changed = sorted(field for field, value in values.items() if getattr(locked, field) != value)
        for field in changed:
            setattr(locked, field, values[field])
        locked.save(update_fields=changed)
        carried = _carry_final_target(locked, actor)
        if changed:
            bump(locked)
            audit(locked, actor, "tournament_updated", fields=changed)
    if carried:
        return carried[0]
    wanted = final_table_fields(locked)
    return _("The final plays %(target)s.") % {
        "target": knockout_selectors.target_words(wanted["points_target"], wanted["wins_needed"])
    }


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
            raise NeedsChoice(_choice_message(locked, plan), options=plan.options, players=len(plan.players))
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
            knockout_selectors.entrants(tournament),
            knockout_selectors.round_results(tournament),
            knockout_selectors.settings_of(tournament),
            choice,
        )
    except FormatError as error:
        raise _format_error(error) from None


def _choice_message(tournament: Tournament, plan: knockout.NextRound) -> str:
    """Why the organiser is asked: the count does not split, or no split leads to the final's size;
    and how the options are ordered."""
    stage = STAGE_BY_FORMAT_STAGE[plan.stage]
    name = naming.round_name(stage, Round.objects.filter(tournament=tournament, stage=stage).count() + 1)
    params = {
        "round": name,
        "players": len(plan.players),
        "min": tournament.table_size,
        "max": tournament.table_size_max,
        "final": tournament.final_size,
    }
    if plan.reason == knockout.NO_SPLIT:
        question = _("%(round)s: %(players)d players cannot be split into tables of %(min)d to %(max)d.") % params
    else:
        question = (
            _(
                "%(round)s: %(players)d players. With tables of %(min)d to %(max)d in every round and only table "
                "winners going on, the final cannot have exactly %(final)d players."
            )
            % params
        )
    return question + " " + _("Choose how to go on: the first way departs least from the rules.")


def _draw(
    tournament: Tournament, plan: knockout.NextRound, players: list[seating.SeatingPlayer], seed: int, *, clubs: bool
) -> seating.SeatingPlan:
    """The seeded draw into ``plan.sizes``: ``seat_players`` with the table sizes that give that
    split (the settings' first), else the same shuffle cut into the planned sizes."""
    count = len(players)
    sizes = plan.sizes or (count,)
    if len(sizes) == 1:
        return seating.seat_players(players, seed, count, count)
    top = max(sizes)
    tries = [(tournament.table_size, plan.largest)]
    tries += [(low, high) for low in range(2, top + 1) for high in range(low, top + 1)]
    for low, high in tries:
        try:
            if tuple(seating.table_sizes(count, low, high)) == sizes:
                return seating.seat_players(players, seed, low, high, keep_clubs_apart=clubs)
        except FormatError:
            continue
    order = seating.seat_players(players, seed, count, count).tables[0]
    tables, at = [], 0
    for size in sizes:
        tables.append(tuple(order[at : at + size]))
        at += size
    return seating.SeatingPlan(tables=tuple(tables), seed=seed, algorithm=f"{seating.SEATING_ALGORITHM}:sizes")


def _seat_round(tournament: Tournament, plan: knockout.NextRound, *, first_round: bool, seed: int | None) -> Round:
    players = {p.pk: p for p in Player.objects.filter(pk__in=plan.players)}
    seed = draws.new_seed() if seed is None else seed
    seat_input = [seating.SeatingPlayer(id=pid, club=players[pid].club) for pid in plan.players]
    is_final = plan.stage == knockout.FINAL
    seat_plan = _draw(
        tournament, plan, seat_input, seed, clubs=first_round and tournament.keep_clubs_apart and not is_final
    )
    notes, public = _seating_notes(tournament, plan, players)
    # Fixed seats (``rounds.place_and_number``): the fixed players moved to their tables, which take
    # their numbers (the final too); the numbers of the players still in play are kept for them.
    placed = rounds.place_and_number(
        tournament.id,
        seat_plan.tables,
        reserved=rounds.reserved_numbers(tournament.id, plan.players),
        clubs={pid: player.club for pid, player in players.items() if player.club}
        if first_round and tournament.keep_clubs_apart
        else None,
    )
    new_round = rounds.open_round(
        tournament,
        stage=STAGE_BY_FORMAT_STAGE[plan.stage],
        seed=seed,
        algorithm=seat_plan.algorithm,
        note=" ".join(notes + placed.notes),
        public_note=" ".join(public),
    )
    for index, table_players in enumerate(placed.tables):
        wins = knockout.wins_needed_at(
            len(table_players),
            wins_needed=tournament.wins_needed,
            wins_needed_large_table=tournament.wins_needed_large_table,
            largest=tournament.table_size_max,
        )
        fields = final_table_fields(tournament) if is_final else {"wins_needed": wins, "points_target": None}
        rounds.seat_table(new_round, table_players, **placed.table_fields(index), **fields)
    return new_round


def _seating_notes(
    tournament: Tournament, plan: knockout.NextRound, players: Mapping[int, Player]
) -> tuple[list[str], list[str]]:
    """Why the round seats whom it seats: for the staff, the organiser's choice (in the words
    offered, with what it leads to), or the departure expected in a later round, and tables of
    another split chosen so that the final has its size; for the public too, who moved up or
    stayed out by the organiser's choice. Returns (staff notes, public notes)."""
    notes, public = [], []
    if plan.option is not None:
        notes.append(_("The organiser chose: %(option)s") % {"option": rounds.option_label(plan.option)})
    elif rounds.forecast_departs(plan.forecast[1:], **_sizes(tournament)):
        later = rounds.forecast_words(plan.forecast[1:], **_sizes(tournament))
        notes.append(_("Expected: %(rounds)s. A departure is asked when it comes.") % {"rounds": later})
    if plan.added:
        moved = ngettext(
            "Moved up as the best runner-up (most games won, then the lower start number): %(names)s.",
            "Moved up as the best runners-up (most games won, then the lower start number): %(names)s.",
            len(plan.added),
        ) % {"names": naming.and_list(players[p].name for p in plan.added)}
        notes.append(moved)
        public.append(moved)
    if plan.dropped:
        names = naming.and_list(
            Player.objects.filter(pk__in=plan.dropped).order_by("start_number").values_list("name", flat=True)
        )
        out = _("Out without playing this round: %(names)s.") % {"names": names}
        notes.append(out)
        public.append(out)
    if plan.stage != knockout.FINAL and plan.option is None and plan.sizes != _usual_sizes(tournament, plan):
        notes.append(
            _("Tables of %(sizes)s so that exactly %(final)d players reach the final.")
            % {"sizes": " + ".join(str(size) for size in plan.sizes), "final": tournament.final_size}
        )
    return notes, public


def _sizes(tournament: Tournament) -> dict[str, int]:
    return {
        "preferred": tournament.table_size,
        "largest": tournament.table_size_max,
        "final_size": tournament.final_size,
    }


def _usual_sizes(tournament: Tournament, plan: knockout.NextRound) -> tuple[int, ...]:
    try:
        return tuple(seating.table_sizes(len(plan.players), tournament.table_size, tournament.table_size_max))
    except FormatError:
        return ()


# --- a table's outcome ------------------------------------------------------------------


def refresh_table(tournament: Tournament, table: Table, actor: User) -> None:
    """Recompute tallies, decision and places of ``table`` from its valid games.

    A table is decided by its first to ``wins_needed``; the final by its target
    (points, or games won for a final to wins), and its tied places by duel
    tables, created (and dropped) here: ``knockout.duel_plan``. Until the duels
    are decided the final's places within a tie are provisional (start numbers).
    """
    result = tally(table)
    places: dict[int, int] = {}
    decided = False
    final = _final_scores(table, result.points, result.wins)
    if final is not None:
        scores, target = final
        state = knockout.final_state(scores, target, result.start_numbers)
        _sync_duels(tournament, table, state if state.winner is not None else None, result.start_numbers)
        if state.winner is not None:
            decided = True
            order = _final_standing(table, state)
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


def _is_final_table(table: Table) -> bool:
    """The final's own table (to points or to wins), not one of its duels."""
    if table.is_duel:
        return False
    return table.points_target is not None or table.round.stage == enums.Stage.FINAL


def _final_scores(
    table: Table, points: Mapping[int, int], wins: Mapping[int, int]
) -> tuple[Mapping[int, int], int] | None:
    """What the final's table is decided by: (points, points target) for a final to points,
    (games won, wins needed) for a final to wins; None for any other table."""
    if not _is_final_table(table):
        return None
    if table.points_target is not None:
        return points, table.points_target
    return wins, table.wins_needed or 1


def _duels(table: Table) -> QuerySet[Table]:
    """The duel tables that decide ties of a final table (none for other tables)."""
    if not _is_final_table(table):
        return Table.objects.none()
    return Table.objects.filter(round=table.round, is_duel=True)


def _duel_results(table: Table) -> tuple[list[Table], list[knockout.DuelResult]]:
    """The duel tables of ``table``'s round and their snapshots (a winner once decided)."""
    tables = list(Table.objects.filter(round=table.round, is_duel=True).prefetch_related("seats"))
    results_ = [
        knockout.DuelResult(
            players=tuple(seat.player_id for seat in duel.seats.all()),
            winner=None
            if duel.status == enums.TableStatus.PLAYING
            else next((seat.player_id for seat in duel.seats.all() if seat.place == 1), None),
        )
        for duel in tables
    ]
    return tables, results_


def _sync_duels(
    tournament: Tournament, table: Table, state: knockout.FinalState | None, start: Mapping[int, int]
) -> None:
    """Seat the duels the decided final needs now (``knockout.duel_plan``: all tied players play
    one duel table; once it is decided the others play a further one for the next place) with
    ``Tournament.duel_wins_needed``; drop unplayed duels that are no longer part of the plan."""
    if table.is_duel:
        return
    existing, snapshots = _duel_results(table)
    plan = knockout.duel_plan(state or knockout.FinalState(winner=None), snapshots)
    for duel, snapshot in zip(existing, snapshots, strict=True):
        if tuple(sorted(snapshot.players)) not in plan.wanted and not duel.games.exists():
            duel.delete()
    next_number = (Table.objects.filter(round=table.round).aggregate(m=Max("number"))["m"] or 0) + 1
    for needed in plan.needed:
        duel = Table.objects.create(
            round=table.round,
            number=next_number,
            is_duel=True,
            wins_needed=tournament.duel_wins_needed or knockout.DUEL_WINS_NEEDED,
            duel_for_place=needed.place,
            started_at=timezone.now(),
        )
        Seat.objects.bulk_create(
            Seat(table=duel, player_id=pid, position=position)
            for position, pid in enumerate(sorted(needed.players, key=lambda p: start[p]))
        )
        next_number += 1


def _final_standing(table: Table, state: knockout.FinalState) -> tuple[int, ...]:
    """The decided final's places as far as play has decided them: every place a duel gave is
    kept at once; players still to duel follow, provisionally by start number."""
    if not state.ties:
        return state.order
    _tables, snapshots = _duel_results(table)
    return knockout.duel_plan(state, snapshots).standing


def score_game(
    tournament: Tournament, table: Table, winner_id: int, priced: results.CardPointsReader
) -> dict[int, tuple[int, dict[str, Any]]]:
    """Only a final to points counts card points: its game's winner scores the cards left in the
    others' hands. A final to wins (``points_target`` None) and the duels count games only."""
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
    if table.is_duel:
        # A further duel (the others of this duel, for the next place) has started: undoing this
        # duel would change who plays it.
        players = set(table.seats.values_list("player_id", flat=True))
        later = Table.objects.filter(round=table.round, is_duel=True, games__isnull=False).exclude(pk=table.pk)
        for other in later.prefetch_related("seats").distinct():
            if {seat.player_id for seat in other.seats.all()} < players:
                raise ServiceError(_("The next duel has started; this duel's games can no longer be undone."))
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


def _refuse_after_duel(table: Table) -> None:
    """A correction at the final, or its duel, once a duel is played would reorder places the duel decided."""
    if table.is_duel or _duels(table).filter(games__status=GameStatus.VALID).exists():
        duels = list(_duels(table).select_related("round")) or [table]
        raise ServiceError(
            _("%(duels)s has been played and orders the final's places: void its games first, then correct the final.")
            % {"duels": corrections.tables_named(duels)}
        )


def _plan_again(tournament: Tournament, rnd: Round, following: Round) -> knockout.NextRound | knockout.Finished:
    """The next round planned again from the results up to ``rnd``, with the choice the organiser made then."""
    up_to = Round.objects.filter(tournament=tournament, number__lte=rnd.number).count()
    results_so_far = knockout_selectors.round_results(tournament)[:up_to]
    started = AuditEntry.objects.filter(tournament=tournament, action="round_started", detail__round=following.number)
    choice = str((started.values_list("detail", flat=True).first() or {}).get("choice") or "")
    try:
        settings = knockout_selectors.settings_of(tournament)
        return knockout.plan_next_round(knockout_selectors.entrants(tournament), results_so_far, settings, choice)
    except FormatError as error:
        raise _format_error(error) from None


def _still_seated_so(plan: knockout.NextRound | knockout.Finished, where: dict[str, str]) -> knockout.NextRound:
    """The plan again, where the round seated can keep it: refused where it would end the tournament or
    ask the organiser again, since a correction cannot take a seated round back nor seat it again."""
    if isinstance(plan, knockout.Finished):
        raise ServiceError(
            _(
                "After this correction the tournament would end after %(round)s, but %(next)s is already "
                "seated (%(tables)s), and a correction cannot take a seated round back."
            )
            % where
            + " "
            + corrections.keep_going_on()
        )
    if plan.needs_choice:
        raise ServiceError(
            _(
                "After this correction the organiser would have to choose again how to seat %(next)s (the "
                "players going on no longer fit the plan it was seated by), but it is already seated "
                "(%(tables)s), and a correction cannot seat a round again."
            )
            % where
            + " "
            + corrections.keep_going_on()
        )
    return plan


def _downstream(tournament: Tournament, table: Table) -> list[corrections.Swap]:
    """After a correction at ``table``: the seats of the next round that the rules now give to
    someone else (the winner who no longer won, the loser who no longer plays the lucky-loser
    round), planned again from the results up to the table's round with the organiser's
    choice of then. Refused where the next round would be seated otherwise (another count)."""
    rnd = table.round
    following = Round.objects.filter(tournament=tournament, number__gt=rnd.number).order_by("number").first()
    if following is None:
        return []
    _refuse_after_duel(table)
    plan = _plan_again(tournament, rnd, following)
    seated = dict(Seat.objects.filter(table__round=following).values_list("player_id", "table_id"))
    tables = {t.pk: t for t in Table.objects.filter(round=following).select_related("round")}
    # The refusals name the round already seated and its tables, and what is left to do.
    where = {
        "round": str(rnd),
        "next": str(following),
        "tables": corrections.tables_named(sorted(tables.values(), key=lambda t: t.number)),
    }
    next_round = _still_seated_so(plan, where)
    leaves = sorted(set(seated) - set(next_round.players))
    takes = sorted(set(next_round.players) - set(seated))
    if len(leaves) != len(takes):
        raise ServiceError(
            _(
                "After this correction %(going)d players would go on to %(next)s instead of the %(seated)d seated "
                "there (%(tables)s), and a correction cannot seat a round again."
            )
            % {**where, "going": len(next_round.players), "seated": len(seated)}
            + " "
            + corrections.keep_going_on()
        )
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
result_entry = entries.WinnerEntry(record_game)
undo_result = undo_last_game
