"""Writes of the points format: rounds that keep players who met apart, penalty
points for every hand still holding cards, time called at a table, the end of
the tournament. Contract: ``tournament.writes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import GameStatus
from tournament import designs, draws, enums, seating
from tournament.desk.players import lock_player
from tournament.errors import NeedsChoice, NeedsConfirmation, ServiceError
from tournament.formats import entries
from tournament.formats.points import rules as points
from tournament.formats.points import selectors as points_selectors
from tournament.formats.record import StepDone, refuse_other_format
from tournament.models import Player, Round, Table, Tournament
from tournament.naming import and_list
from tournament.play import corrections, results, rounds
from tournament.play.core import (
    check_writable,
    latest_round,
    lock_table,
    refuse_if_finished,
    refuse_too_few,
    refuse_while_playing,
    refuse_without_draw,
)
from tournament.play.tables import save_outcome, save_tally, tally
from tournament.writes import User, audit, bump, lock_tournament, refusals_audited

SLUG = "points"

OTHER_FORMAT = gettext_lazy("This tournament does not use the points format.")


class PreviewOutdated(ServiceError):
    """The tournament changed between the organiser's preview and "Seat as shown"."""


@dataclass(frozen=True)
class NextRound:
    """The next round as it would be seated (``plan_next_round``): its number, the round before
    (None before the first), the seating, the
    table sizes (with the organiser's choice, if one was needed), how many pause, and the note
    the round will carry (repeats against the bound, short tables, clubs, the lookahead)."""

    number: int
    current: Round | None
    plan: seating.SeatingPlan
    tables: points.TablePlan
    paused_count: int
    note: str
    # The plan's pairs that sat together before, and how often (for the preview to name them).
    repeated: dict[frozenset[int], int]


def _current_round(tournament: Tournament) -> Round | None:
    """The round before the next one (None before the first): refused where no round can follow."""
    current = latest_round(tournament)
    if current is not None:
        if current.stage == enums.Stage.PLAYOFF:
            raise ServiceError(_("A play-off has been seated: the rounds are over."))
        refuse_while_playing(current.tables.all())
        if current.number >= tournament.rounds_planned:
            raise ServiceError(_("All %(count)d rounds have been played.") % {"count": tournament.rounds_planned})
    else:
        refuse_without_draw(tournament)
    return current


@dataclass(frozen=True)
class _Field:
    """Who plays the next round (with their clubs), their fixed seats, and how many pause."""

    players: list[tuple[int, str]]
    fixed: dict[int, int]
    paused_count: int


def _field(tournament: Tournament) -> _Field:
    """Read the checked-in players: those not paused play, at their fixed tables where they have one."""
    checked_in = list(
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN).values_list(
            "pk", "club", "paused_from_round", "fixed_table"
        )
    )
    # A pause is always set for a round not seated yet (``pause_player``): whoever has one sits out.
    players = [(pid, club) for pid, club, paused, _fixed in checked_in if paused is None]
    # Fixed seats (``Player.fixed_table``), read with the players.
    fixed = {pid: number for pid, _club, paused, number in checked_in if paused is None and number is not None}
    return _Field(players=players, fixed=fixed, paused_count=len(checked_in) - len(players))


@dataclass(frozen=True)
class _RoundSeating:
    """What seats the next round: its players, the seed, the rounds before, the table sizes and options."""

    players: list[tuple[int, str]]
    seed: int
    met: dict[frozenset[int], int]
    history: list[list[list[int]]]
    tables: points.TablePlan
    keep_clubs_apart: bool
    rounds_left: int

    def seat(self, pins: dict[int, int] | None) -> seating.SeatingPlan:
        """Seat the round, with ``pins`` the fixed seats (None: seated as if there were none)."""
        request = seating.SeatingRequest(
            players=tuple(seating.SeatingPlayer(id=pid, club=club) for pid, club in self.players),
            seed=self.seed,
            met=self.met,
            last_round_pairs=tuple(seating.table_pairs(self.history[-1])) if self.history else (),
            preferred=self.tables.preferred,
            largest=self.tables.largest,
            # The short tables go to those who sat at one least often (nobody twice before everyone once).
            short_table_history=points.short_table_counts(self.history, self.tables.preferred),
            keep_clubs_apart=self.keep_clubs_apart,
            # Planning the rounds still to come together keeps more of them repeat-free (social golfer).
            rounds_left=self.rounds_left,
            # The rounds as seated: a known design the earlier rounds came from is continued.
            history_rounds=self.history,
            fixed=pins,
        )
        return seating.seat_round(request)


def plan_next_round(tournament: Tournament, *, choice: str = "", seed: int) -> NextRound:
    """Plan the next round from ``seed`` without saving anything: what ``start_round`` seats with
    the same seed, choice and field, and what the organiser's preview shows before seating.

    Raises what ``start_round`` raises before it writes: ``ServiceError`` (finished, tables still
    playing, all rounds played, no draw, too few players) and ``NeedsChoice``. The work is bounded
    (``seating.seat_avoiding_repeats``' lookahead and swap limits), so a preview answers in time.
    """
    refuse_other_format(tournament, SLUG, OTHER_FORMAT)
    refuse_if_finished(tournament)
    current = _current_round(tournament)
    lineup = _field(tournament)
    players, fixed, paused_count = lineup.players, lineup.fixed, lineup.paused_count
    refuse_too_few(len(players), points.SPEC.min_players)
    tables = _table_plan(tournament, len(players), choice)
    history = points_selectors.history(tournament)
    met = points.met_pairs(history)
    seats = _RoundSeating(
        players=players,
        seed=seed,
        met=met,
        history=history,
        tables=tables,
        keep_clubs_apart=tournament.keep_clubs_apart,
        rounds_left=max(tournament.rounds_planned - (current.number if current is not None else 0), 1),
    )
    plan = seats.seat(fixed or None)
    number = current.number + 1 if current is not None else 1
    note = _round_note(tournament, plan, tables, paused_count, history)
    if fixed:
        # What the fixed seats cost: the repeats against the seating without them (same seed).
        extra = plan.repeated_pairs - seats.seat(None).repeated_pairs
        words = rounds.number_tables(
            tournament.id, plan.tables, plan.numbers, plan.unkept, reserved=fixed.values(), extra_repeats=extra
        ).notes
        note = " ".join([note, *words])
    repeated = {pair: met[pair] for pair in seating.table_pairs(plan.tables) if pair in met}
    return NextRound(number, current, plan, tables, paused_count, note, repeated)


def _round_note(
    tournament: Tournament,
    plan: seating.SeatingPlan,
    tables: points.TablePlan,
    paused: int,
    history: list[list[list[int]]],
) -> str:
    """The round's note: repeats against the bound, short tables, clubs, the lookahead, the known
    repeat-free schedule (``design_sentence``), the choice, pauses."""
    note = _(
        "Repeated pairs: %(pairs)d (from the last round: %(last)d; unavoidable: at least %(bound)d). "
        "Short tables: each player's count differs by at most %(spread)d."
    ) % {
        "pairs": plan.repeated_pairs,
        "last": plan.repeats_from_last_round,
        "bound": plan.unavoidable_repeats,
        "spread": plan.short_table_spread,
    }
    if tournament.keep_clubs_apart:
        note += " " + _("Players of one club at one table: %(pairs)d (unavoidable: %(floor)d).") % {
            "pairs": plan.club_conflicts,
            "floor": plan.club_floor,
        }
    if plan.planned_rounds > 1:
        note += " " + _(
            "Planned with the %(planned)d rounds left: %(free)d of them without a repeated pair "
            "(at most %(bound)d are possible)."
        ) % {"planned": plan.planned_rounds, "free": plan.repeat_free_ahead, "bound": plan.repeat_free_ahead_bound}
    sentence = design_sentence(plan, history, tournament.rounds_planned)
    if sentence:
        note += " " + sentence
    if tables.chosen is not None:
        note = f"{note} {chosen_note(tournament, sum(plan.sizes), tables.chosen)}"
    if paused:
        note += " " + ngettext("%(count)d player pauses.", "%(count)d players pause.", paused) % {"count": paused}
    return note


def design_sentence(plan: seating.SeatingPlan, history: list[list[list[int]]], planned: int) -> str:
    """Whether the tournament's rounds can all be free of repeated pairs, in words, for the organiser:
    where the field sits at tables of one size and more than one repeat-free round is known to
    exist (``designs.known_rounds``), how many of the planned rounds (at most that many) this plan
    keeps free of repeats: the earlier rounds without a repeat (a leading run over the history)
    and, if all were, this round and the ones planned with it (``plan.repeat_free_ahead``).
    Empty elsewhere (mixed table sizes, nothing known)."""
    sizes = set(plan.sizes)
    players = len(plan.player_ids)
    if len(sizes) != 1:
        return ""
    size = sizes.pop()
    known = designs.known_rounds(players, size)
    if known < 2:
        return ""
    clean = seating.repeat_free_run(history)
    reached = clean + plan.repeat_free_ahead if clean == len(history) else clean
    if planned >= known:
        target = known
        if reached >= target:
            return _(
                "For %(players)d players at tables of %(size)d, %(known)d rounds without a repeated pair "
                "are known to exist; this plan reaches all %(known)d."
            ) % {"players": players, "size": size, "known": known}
        return _(
            "For %(players)d players at tables of %(size)d, %(known)d rounds without a repeated pair "
            "are known to exist; this plan reaches %(reached)d of %(known)d."
        ) % {"players": players, "size": size, "known": known, "reached": reached}
    if reached >= planned:
        return _(
            "For %(players)d players at tables of %(size)d, %(known)d rounds without a repeated pair "
            "are known to exist; this plan keeps all %(planned)d planned rounds free of repeats."
        ) % {"players": players, "size": size, "known": known, "planned": planned}
    return _(
        "For %(players)d players at tables of %(size)d, %(known)d rounds without a repeated pair "
        "are known to exist; this plan keeps %(reached)d of the %(planned)d planned rounds free of repeats."
    ) % {"players": players, "size": size, "known": known, "planned": planned, "reached": reached}


def _refuse_outdated_preview(locked: Tournament, previewed_version: int | None) -> None:
    """Seating what the organiser previewed: refused where anything was written since the preview."""
    if previewed_version is not None and locked.version != previewed_version:
        raise PreviewOutdated(
            _("Something changed since this preview (a check-in, a pause or a setting). Look at the new one.")
        )


def _seat_tables(locked: Tournament, new_round: Round, plan: seating.SeatingPlan) -> None:
    """Number the plan's tables and seat them in the new round."""
    # Numbered after the last round closed: a fixed seat's table takes its number, the others
    # the smallest free ones that no fixed player has reserved (``rounds.number_tables``).
    placed = rounds.number_tables(
        locked.id,
        plan.tables,
        plan.numbers or [None] * len(plan.tables),
        reserved=rounds.reserved_numbers(locked.id, [pid for table in plan.tables for pid in table]),
    )
    for index, table_players in enumerate(plan.tables):
        rounds.seat_table(new_round, table_players, **placed.table_fields(index))


def start_round(
    *,
    tournament: Tournament,
    actor: User,
    choice: str = "",
    seed: int | None = None,
    previewed_version: int | None = None,
) -> Round:
    """Seat the next round: every checked-in player who is not paused (``pause_player``), at
    tables of 3-4, with the fewest repeated pairs (then the fewest repeats from the last round).
    A late arrival checked in since the last round is seated like everyone else; a withdrawn
    player is not checked in any more. The note names how many are paused.

    Refused while a table of the current round still plays, and after the
    planned number of rounds. The seed, algorithm and repeated pairs are stored.

    Where the count does not split into tables of the settings (5 players at 3-4), raises
    ``NeedsChoice`` with what ``rules.plan_tables`` allows (a larger or a smaller table; no
    byes, see the rules' docstring); call again with ``choice`` set to one option's code.
    A code that is not among the options asks again, saying so, and saves nothing. The
    choice is written in the round's note and the audit entry. Every round asks anew (the
    count may have changed); with automatic advancement the question waits on the rounds page.

    Seating what the organiser previewed (``plan_next_round``): pass its ``seed`` and the
    tournament's version at the preview as ``previewed_version``; if anything was written since
    (a check-in, a pause, a setting), the seating would differ, so it is refused with
    ``PreviewOutdated`` and nothing is saved.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        _refuse_outdated_preview(locked, previewed_version)
        seed = draws.new_seed() if seed is None else seed
        next_round = plan_next_round(locked, choice=choice, seed=seed)
        plan, tables = next_round.plan, next_round.tables
        if next_round.current is not None:
            rounds.close_round(next_round.current)
        new_round = rounds.open_round(
            locked, stage=enums.Stage.MAIN, seed=seed, algorithm=plan.algorithm, note=next_round.note
        )
        _seat_tables(locked, new_round, plan)
        rounds.mark_running(locked)
        bump(locked)
        audit(
            locked,
            actor,
            "points_round_started",
            round=new_round.number,
            seed=seed,
            repeated_pairs=plan.repeated_pairs,
            **({"paused": next_round.paused_count} if next_round.paused_count else {}),
            **({"choice": tables.chosen.code} if tables.chosen is not None else {}),
            **({"previewed": True} if previewed_version is not None else {}),
        )
    return new_round


@dataclass(frozen=True)
class FieldChange:
    """What ``pause_player`` or ``resume_player`` left: the player, the next round to be seated
    (the first the change concerns) and whether anything changed (a second tap changes nothing)."""

    player: Player
    next_round: int
    changed: bool


def _next_round_number(tournament: Tournament) -> int:
    current = latest_round(tournament)
    return current.number + 1 if current is not None else 1


def _checked_in_player(tournament: Tournament, player_id: int) -> Player:
    """The locked player; refused unless checked in (a withdrawn player is out for good)."""
    player = lock_player(tournament, player_id)
    if player.status == enums.PlayerStatus.WITHDRAWN:
        raise ServiceError(_("%(name)s has withdrawn; reinstate the player first.") % {"name": player.name})
    if player.status != enums.PlayerStatus.CHECKED_IN:
        raise ServiceError(_("%(name)s is not checked in.") % {"name": player.name})
    return player


def pause_player(*, tournament: Tournament, actor: User, player_id: int) -> FieldChange:
    """A checked-in player sits out from the next round on, until ``resume_player``.

    Takes effect at the next round seated: a player at a table of the current round plays it
    out. Refused for a player not checked in, once the tournament is finished, and when every
    planned round is already seated (there is no round left to pause). Pausing a player who
    already pauses changes nothing (no audit, no version bump). The missed rounds count as in
    the rules (``rules.standings``: each round's worst total).
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_other_format(locked, SLUG, OTHER_FORMAT)
        refuse_if_finished(locked)
        player = _checked_in_player(locked, player_id)
        next_round = _next_round_number(locked)
        if next_round > locked.rounds_planned:
            raise ServiceError(
                _("All %(count)d rounds are seated; there is no round left to pause.")
                % {"count": locked.rounds_planned}
            )
        if player.paused_from_round is not None:
            return FieldChange(player=player, next_round=next_round, changed=False)
        player.paused_from_round = next_round
        player.save(update_fields=["paused_from_round"])
        bump(locked)
        audit(locked, actor, "player_paused", player=player.pk, name=player.name, round=next_round)
    return FieldChange(player=player, next_round=next_round, changed=True)


def resume_player(*, tournament: Tournament, actor: User, player_id: int) -> FieldChange:
    """A paused player is seated again from the next round on.

    Refused for a player not checked in and once the tournament is finished. A player who
    does not pause (or a second tap) changes nothing (no audit, no version bump).
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_other_format(locked, SLUG, OTHER_FORMAT)
        refuse_if_finished(locked)
        player = _checked_in_player(locked, player_id)
        next_round = _next_round_number(locked)
        if player.paused_from_round is None:
            return FieldChange(player=player, next_round=next_round, changed=False)
        paused_from = player.paused_from_round
        player.paused_from_round = None
        player.save(update_fields=["paused_from_round"])
        bump(locked)
        audit(
            locked, actor, "player_back", player=player.pk, name=player.name, round=next_round, paused_from=paused_from
        )
    return FieldChange(player=player, next_round=next_round, changed=True)


def _table_plan(tournament: Tournament, count: int, choice: str) -> points.TablePlan:
    """The round's table sizes; ``NeedsChoice`` where the organiser must choose first."""
    refuse_too_few(count, points.SMALLEST_TABLE)
    plan = points.plan_tables(count, tournament.table_size, tournament.table_size_max, choice)
    if plan.options:
        question = _("%(players)d players cannot be split into tables of %(min)d to %(max)d. Choose how to go on.") % {
            "players": count,
            "min": tournament.table_size,
            "max": tournament.table_size_max,
        }
        if choice:
            question = _("“%(choice)s” is not one of the ways to seat %(players)d players. %(question)s") % {
                "choice": choice,
                "players": count,
                "question": question,
            }
        raise NeedsChoice(question, options=plan.options, players=count)
    return plan


def chosen_note(tournament: Tournament, count: int, option: seating.SeatingOption) -> str:
    """Why a round's tables differ from the settings: the organiser's choice, in words."""
    return _("%(players)d players cannot be split into tables of %(min)d to %(max)d; chosen: %(option)s") % {
        "players": count,
        "min": tournament.table_size,
        "max": tournament.table_size_max,
        "option": rounds.option_label(option),
    }


def finish(*, tournament: Tournament, actor: User, confirmed: bool = False) -> Tournament:
    """End the tournament: the standings become final.

    Refused while a table plays (or before any round), and while a tie the settings resolve
    by play-off has none decided (due: the reason names the ties and the step). Before the last planned
    round it raises ``NeedsConfirmation`` (kind "finish_early", saying which rounds
    are dropped) unless ``confirmed``; after the last round it needs none.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_if_finished(locked)
        current = latest_round(locked)
        if current is None or current.tables.filter(status=enums.TableStatus.PLAYING).exists():
            raise ServiceError(_("Tables are still playing."))
        if current.stage == enums.Stage.MAIN and current.number < locked.rounds_planned and not confirmed:
            consequence = finish_early_consequence(current.number, locked.rounds_planned)
            raise NeedsConfirmation(consequence, kind="finish_early")
        due = points_selectors.due_playoffs(locked)
        if due:
            raise ServiceError(
                _("%(ties)s Seat the play-off first (“Seat a play-off” on the rounds page).")
                % {"ties": " ".join(tie_words(tie) for tie in due)}
            )
        rounds.finish_tournament(locked, actor)
    return locked


def tie_words(tie: points_selectors.DueTie) -> str:
    """ "Tie on place 1 between A and B." """
    return _("Tie on place %(place)d between %(names)s.") % {"place": tie.place, "names": and_list(tie.names)}


def seat_playoff(*, tournament: Tournament, actor: User) -> Round:
    """Seat a play-off round: one table per tie that the settings resolve by play-off and that
    has none yet (``rules.standings_of_totals``, ``DuePlayoff``), with exactly its tied players
    (seated by start number: the seats, not a place), one game each (``refresh_table``).

    Refused while a table plays (or waits for its confirmation), once finished, and when no
    tie needs a play-off. The round before is closed (no more entries there; corrections stay
    possible). Audited with the ties and bumped."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_other_format(locked, SLUG, OTHER_FORMAT)
        refuse_if_finished(locked)
        current = latest_round(locked)
        if current is None:
            raise ServiceError(_("No round has been played yet."))
        refuse_while_playing(current.tables.all())
        due = points_selectors.due_playoffs(locked)
        if not due:
            raise ServiceError(_("No tie needs a play-off."))
        rounds.close_round(current)
        note = " ".join(tie_words(tie) for tie in due)
        playoff = rounds.open_round(
            locked, stage=enums.Stage.PLAYOFF, seed=0, algorithm="playoff", note=note, public_note=note
        )
        # A play-off table holding a fixed player is played at that player's table (issue 29).
        placed = rounds.number_set_tables(locked.id, [tie.players for tie in due])
        for index, tie in enumerate(due):
            rounds.seat_table(playoff, tie.players, duel_for_place=tie.place, **placed.table_fields(index))
        if placed.notes:
            playoff.seating_note = " ".join([playoff.seating_note, *placed.notes]).strip()
            playoff.save(update_fields=["seating_note"])
        rounds.mark_running(locked)
        bump(locked)
        audit(
            locked,
            actor,
            "points_playoff_seated",
            round=playoff.number,
            ties=[{"place": tie.place, "players": list(tie.players)} for tie in due],
            players=[pid for tie in due for pid in tie.players],
        )
    return playoff


def finish_early_consequence(played: int, planned: int) -> str:
    """What finishing after round ``played`` of ``planned`` loses, in words."""
    params = {"played": played, "planned": planned, "next": played + 1}
    if planned - played == 1:
        text = _(
            "Round %(played)d of %(planned)d is done. Round %(next)d will not be played; "
            "the ranking after round %(played)d becomes final."
        )
    else:
        text = _(
            "Round %(played)d of %(planned)d is done. Rounds %(next)d–%(planned)d will not be played; "
            "the ranking after round %(played)d becomes final."
        )
    return text % params


@refusals_audited("call_time")
def call_time(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Table:
    """With a time limit: the round's time is up at this table.

    The table is decided with the games played so far (at least one).
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        check_writable(table, version)
        if not locked.round_time_limit_minutes:
            raise ServiceError(_("This tournament plays a fixed number of games per table."))
        if not table.games.filter(status=GameStatus.VALID).exists():
            raise ServiceError(_("Record at least one game before the time is called."))
        table.time_called_at = timezone.now()
        table.save(update_fields=["time_called_at"])
        refresh_table(locked, table, actor)
        audit(locked, actor, "time_called", table=table.pk)
    return table


def refresh_table(tournament: Tournament, table: Table, actor: User) -> None:
    """Recompute totals and places from the valid games: decided after the round's number of
    games (a play-off table: one game) or when time was called; places by fewer points, more
    games won, start number (a play-off table: fewer points, the winner, equal places shared)."""
    result = tally(table)
    playoff = table.round.stage == enums.Stage.PLAYOFF
    needed = 1 if playoff else tournament.games_per_round
    decided = points.table_decided(len(result.games), needed) or (
        table.time_called_at is not None and bool(result.games)
    )
    places: dict[int, int] = {}
    if decided and playoff:
        places = points.playoff_order(result.points, result.wins)
    elif decided:
        order = sorted(
            result.points, key=lambda pid: (result.points[pid], -result.wins[pid], result.start_numbers[pid])
        )
        places = {pid: index for index, pid in enumerate(order, start=1)}
    save_tally(table, result, places, decided=decided)
    save_outcome(tournament, table, decided=decided)


def score_game(
    tournament: Tournament, table: Table, winner_id: int, priced: results.CardPointsReader
) -> dict[int, tuple[int, dict[str, Any]]]:
    """Everyone still holding cards takes them as penalty points; the winner takes 0."""
    values = priced()
    cards = {pid: value for pid, (value, _hand) in values.items()}
    penalty = points.game_penalties(winner_id, cards)
    return {pid: (penalty[pid], {"cards": cards.get(pid, 0), "hand": values.get(pid, (0, {}))[1]}) for pid in penalty}


def _after_close(tournament: Tournament, table: Table, actor: User) -> None:
    """With automatic advancement, the next round is seated once the last table is closed
    (while rounds are left; finishing stays the organiser's decision)."""
    if not tournament.auto_advance or table.round.tables.exclude(status=enums.TableStatus.CLOSED).exists():
        return
    if table.round.number < tournament.rounds_planned:
        start_round(tournament=tournament, actor=actor)


record_game = results.winner_recorder(score=score_game, refresh=refresh_table)
undo_last_game = results.undoer(refresh=refresh_table)
close_table = results.closer(after=_after_close)
# Later rounds are seated apart from the results (only repeats are avoided): a correction changes totals only.
CORRECTIONS = corrections.CorrectionHooks(
    refresh=refresh_table,
    rescore=results.rescorer(score_game),
    give_back=corrections.no_give_back,
    downstream=corrections.no_swaps,
    after_swap=corrections.nothing_after_swap,
)


def next_step(
    *, tournament: Tournament, actor: User, action: str = "", choice: str = "", confirmed: bool = False
) -> StepDone:
    """Seat the next round (with the organiser's ``choice`` where the count does not split),
    (``action`` "playoff") seat the play-off of the ties due (``seat_playoff``), or
    (``action`` "finish") end the tournament; finishing before the last planned round asks
    first (``NeedsConfirmation``) unless ``confirmed``."""
    if action == "finish":
        finish(tournament=tournament, actor=actor, confirmed=confirmed)
        return StepDone(_("The tournament is finished; the standings are final."), finished=True)
    if action == "playoff":
        playoff = seat_playoff(tournament=tournament, actor=actor)
        return StepDone(_("%(round)s seated. %(note)s") % {"round": playoff, "note": playoff.seating_note})
    new_round = start_round(tournament=tournament, actor=actor, choice=choice)
    return StepDone(_("%(round)s seated. %(note)s") % {"round": new_round, "note": new_round.seating_note})


# The names the format's record reads (``tournament.formats.record.build``).
record_result = record_game
result_entry = entries.WinnerEntry(record_game)
undo_result = undo_last_game
