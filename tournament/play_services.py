"""Writes of tournament play: rounds, seating, results at the tables.

The same contract as ``tournament.services``: keyword-only, one transaction,
row locks in the order tournament -> round -> table, an audit entry, the
tournament's version bumped, ``ServiceError`` (translated) for what a user can
fix with nothing changed.

Results are never overwritten: an undo marks a game voided; the seats' tallies
are recomputed from the valid games after every change. A submission carries
an idempotency key (a retry returns the game already recorded) and the table
version the tablet saw (a stale view is refused).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, GameScore, GameStatus
from games.rules import uno
from tournament import draws, enums, seating, selectors
from tournament.formats import knockout
from tournament.formats import points as points_format
from tournament.formats.base import FormatError
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.services import ServiceError, User, _actor, _audit, _bump, _lock_tournament, refusals_audited

STAGE_BY_FORMAT_STAGE = {
    knockout.MAIN: enums.Stage.MAIN,
    knockout.LUCKY_LOSER: enums.Stage.LUCKY_LOSER,
    knockout.FINAL: enums.Stage.FINAL,
}


class NeedsChoice(ServiceError):
    """The next round's player count does not split; ``options`` say what the rules allow."""

    is_refusal = False

    def __init__(self, message: str, *, options: tuple[seating.SeatingOption, ...], players: int) -> None:
        super().__init__(message)
        self.options = options
        self.players = players


def option_label(option: seating.SeatingOption) -> str:
    """A translated sentence for one way out of a count that does not split."""
    params = dict(option.params)
    sizes = " + ".join(str(size) for size in option.sizes)
    if option.code == knockout.ONE_MORE_ADVANCES:
        text = _("One more player advances (the best runner-up): %(players)d players at tables of %(sizes)s.")
    elif option.code == knockout.MORE_PLAYERS:
        text = _("%(extra)d more players advance (the best runners-up): tables of %(sizes)s.")
    elif option.code == knockout.ONE_FEWER:
        text = _("The weakest player of this round goes out: %(players)d players at tables of %(sizes)s.")
    elif option.code == knockout.FEWER_PLAYERS:
        text = _("The %(fewer)d weakest players of this round go out: tables of %(sizes)s.")
    else:
        text = _("Allow a table of %(size)d: tables of %(sizes)s.")
    return text % {**params, "sizes": sizes}


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
        locked = _lock_tournament(tournament.pk)
        if locked.format != enums.Format.KNOCKOUT:
            raise ServiceError(_("This tournament does not use the knockout format."))
        if locked.status == enums.TournamentStatus.FINISHED:
            raise ServiceError(_("The tournament is finished."))
        current = Round.objects.select_for_update().filter(tournament=locked).order_by("-number").first()
        if current is not None:
            open_tables = current.tables.exclude(status__in=[enums.TableStatus.DECIDED, enums.TableStatus.CLOSED])
            if open_tables.exists():
                numbers = ", ".join(str(n) for n in open_tables.values_list("number", flat=True))
                raise ServiceError(_("Tables still playing: %(tables)s.") % {"tables": numbers})
        if current is None and not locked.draws.exists():
            raise ServiceError(_("Draw the start numbers before the first round."))
        entrants = selectors.knockout_entrants(locked)
        try:
            plan = knockout.plan_next_round(entrants, selectors.knockout_rounds(locked), _settings(locked), choice)
        except FormatError as error:
            raise _format_error(error) from None
        now = timezone.now()
        if current is not None:
            current.tables.filter(status=enums.TableStatus.DECIDED).update(
                status=enums.TableStatus.CLOSED, closed_at=now
            )
            current.status = enums.RoundStatus.FINISHED
            current.finished_at = current.finished_at or now
            current.save(update_fields=["status", "finished_at"])
        if isinstance(plan, knockout.Finished):
            locked.status = enums.TournamentStatus.FINISHED
            locked.save(update_fields=["status"])
            _bump(locked)
            _audit(locked, actor, "tournament_finished")
            return RoundStarted(round=None, finished=True)
        if plan.needs_choice:
            raise NeedsChoice(
                _("%(players)d players cannot be split into tables of %(min)d to %(max)d. Choose how to go on.")
                % {"players": len(plan.players), "min": locked.table_size, "max": locked.table_size_max},
                options=plan.options,
                players=len(plan.players),
            )
        new_round = _seat_round(locked, plan, current, seed, actor)
        locked.status = enums.TournamentStatus.RUNNING
        locked.save(update_fields=["status"])
        _bump(locked)
        _audit(
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


def _seat_round(
    tournament: Tournament, plan: knockout.NextRound, previous: Round | None, seed: int | None, actor: User
) -> Round:
    players = {p.pk: p for p in Player.objects.filter(pk__in=plan.players)}
    seed = draws.new_seed() if seed is None else seed
    first_round = previous is None
    seat_input = [seating.SeatingPlayer(id=pid, club=players[pid].club) for pid in plan.players]
    if plan.stage == knockout.FINAL:
        seat_plan = seating.seat_players(seat_input, seed, len(seat_input), len(seat_input))
    else:
        seat_plan = seating.seat_players(
            seat_input,
            seed,
            tournament.table_size,
            plan.largest,
            keep_clubs_apart=first_round and tournament.keep_clubs_apart,
        )
    notes = []
    if plan.choice:
        option = next(
            (
                o
                for o in seating.explain_impossible(
                    len(plan.players) - len(plan.added) + len(plan.dropped),
                    tournament.table_size,
                    tournament.table_size_max,
                )
                if o.code == plan.choice
            ),
            None,
        )
        if option is not None:
            notes.append(option_label(option))
    if plan.added:
        notes.append(_("Moved up: %(names)s.") % {"names": ", ".join(players[p].name for p in plan.added)})
    stage = STAGE_BY_FORMAT_STAGE[plan.stage]
    new_round = Round.objects.create(
        tournament=tournament,
        number=(previous.number + 1) if previous else 1,
        stage_number=Round.objects.filter(tournament=tournament, stage=stage).count() + 1,
        stage=stage,
        status=enums.RoundStatus.RUNNING,
        seed=seed,
        seating_algorithm=seat_plan.algorithm,
        seating_note=" ".join(notes),
        started_at=timezone.now(),
    )
    for number, table_players in enumerate(seat_plan.tables, start=1):
        size = len(table_players)
        is_final = plan.stage == knockout.FINAL
        table = Table.objects.create(
            round=new_round,
            number=number,
            wins_needed=None
            if is_final
            else knockout.wins_needed_at(
                size,
                wins_needed=tournament.wins_needed,
                wins_needed_large_table=tournament.wins_needed_large_table,
                largest=tournament.table_size_max,
            ),
            points_target=tournament.final_points_target if is_final else None,
            started_at=timezone.now(),
        )
        Seat.objects.bulk_create(
            Seat(table=table, player_id=pid, position=position) for position, pid in enumerate(table_players)
        )
    return new_round


# --- results at a table ---------------------------------------------------------------


def _lock_table(tournament: Tournament, table_id: int) -> Table:
    table = (
        Table.objects.select_for_update()
        .select_related("round")
        .filter(pk=table_id, round__tournament=tournament)
        .first()
    )
    if table is None:
        raise ServiceError(_("This table does not exist in this tournament."))
    return table


def _check_writable(table: Table, version: int | None) -> None:
    if table.round.status == enums.RoundStatus.FINISHED or table.status == enums.TableStatus.CLOSED:
        raise ServiceError(_("Table %(number)d is closed; results can no longer change.") % {"number": table.number})
    if version is not None and version != table.version:
        raise ServiceError(
            _(
                "Table %(number)d was changed on another tablet. "
                "The page now shows the current state; check it and enter again."
            )
            % {"number": table.number}
        )


@refusals_audited("set_first_dealer")
def set_first_dealer(*, tournament: Tournament, actor: User, table_id: int, player_id: int, version: int) -> Table:
    """Record who drew the highest card: that player deals the first game.

    Idempotent: picking the dealer the table already has (a tablet re-sending
    its tap after a lost answer) changes nothing and is not refused.
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table = _lock_table(locked, table_id)
        _check_writable(table, None)
        seat = table.seats.filter(player_id=player_id).first()
        if seat is None:
            raise ServiceError(_("This player does not sit at table %(number)d.") % {"number": table.number})
        if table.first_dealer_position == seat.position:
            return table
        _check_writable(table, version)
        if table.games.filter(status=GameStatus.VALID).exists():
            raise ServiceError(_("Games have been played; the first dealer can no longer change."))
        table.first_dealer_position = seat.position
        table.version += 1
        table.save(update_fields=["first_dealer_position", "version"])
        _bump(locked)
        _audit(locked, actor, "first_dealer_set", table=table.pk, player=player_id)
    return table


@refusals_audited("record_game")
def record_game(
    *,
    tournament: Tournament,
    actor: User,
    table_id: int,
    winner_id: int,
    version: int,
    idempotency_key: str,
    card_points: Mapping[int, int] | None = None,
    hands: Mapping[int, Mapping[str, int]] | None = None,
) -> Game:
    """Record one game's winner (and, in the final, the other players' card points).

    A retry with the same ``idempotency_key`` returns the game already recorded.
    Refused: a stale ``version``, a closed table or finished round, a decided
    table, a winner who does not sit at the table, card points for a player
    not at the table or below zero, a missing first dealer.
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table, existing = open_table_for_result(locked, table_id, version, idempotency_key)
        if existing is not None:
            return existing
        seats = list(table.seats.all())
        seated = {seat.player_id for seat in seats}
        if winner_id not in seated:
            raise ServiceError(_("The winner does not sit at table %(number)d.") % {"number": table.number})
        if table.first_dealer_position is None:
            raise ServiceError(_("First tap who drew the highest card: that player deals the first game."))
        scores = _final_scores(locked, table, seated, winner_id, card_points, hands)
        played = table.games.filter(status=GameStatus.VALID).count()
        number = (table.games.aggregate(m=Max("number"))["m"] or 0) + 1
        game = Game.objects.create(
            table=table,
            number=max(number, played + 1),
            winner_id=winner_id,
            dealer_position=(table.first_dealer_position + played) % len(seats),
            idempotency_key=idempotency_key,
            entered_by=_actor(actor),
        )
        GameScore.objects.bulk_create(
            GameScore(game=game, player_id=pid, points=points, hand=hand) for pid, (points, hand) in scores.items()
        )
        _refresh_table(locked, table, actor)
        stamp_table_version(game, table)
        _audit(locked, actor, "game_recorded", table=table.pk, game=game.number, winner=winner_id)
    return game


def stamp_table_version(game: Game, table: Table) -> None:
    """Keep the table's version right after ``game`` on the game (see ``Game.table_version``)."""
    game.table_version = table.version
    game.save(update_fields=["table_version"])


def open_table_for_result(
    tournament: Tournament, table_id: int, version: int, idempotency_key: str
) -> tuple[Table, Game | None]:
    """The start of every result entry, under the tournament lock.

    A retry (same ``idempotency_key``) gets the game already recorded back,
    marked ``replayed``; otherwise the table is locked and must be writable,
    not yet decided and at the ``version`` the tablet saw.
    """
    if not idempotency_key or len(idempotency_key) > 64:
        raise ServiceError(_("The form is incomplete; reload the page."))
    existing = Game.objects.filter(idempotency_key=idempotency_key).first()
    if existing is not None:
        if existing.table_id != table_id:
            raise ServiceError(_("The form is incomplete; reload the page."))
        existing.replayed = True
        return existing.table, existing
    table = _lock_table(tournament, table_id)
    _check_writable(table, version)
    if table.status == enums.TableStatus.DECIDED:
        raise ServiceError(_("Table %(number)d is already decided.") % {"number": table.number})
    return table, None


def _final_scores(
    tournament: Tournament,
    table: Table,
    seated: set[int],
    winner_id: int,
    card_points: Mapping[int, int] | None,
    hands: Mapping[int, Mapping[str, int]] | None,
) -> dict[int, tuple[int, dict[str, object]]]:
    """Card points of a game, priced with the tournament's scoring table.

    Knockout final: the winner scores the cards left in the others' hands.
    Points format: everyone still holding cards takes them as penalty points;
    the winner takes 0. Other tables record no points.
    """
    penalties = tournament.format == enums.Format.POINTS
    if table.points_target is None and not penalties:
        return {}
    hands = hands or {}
    values: dict[int, int] = {}
    for pid in seated - {winner_id}:
        if pid in hands:
            try:
                values[pid] = uno.hand_points(hands[pid], tournament.scoring_table)
            except (KeyError, ValueError):
                raise ServiceError(_("A hand holds an unknown card or a negative count.")) from None
            typed = (card_points or {}).get(pid)
            if typed is not None and typed != values[pid]:
                # The tapped cards and the typed total must never disagree silently.
                raise ServiceError(
                    _(
                        "The cards tapped for a player count %(cards)d points, but %(typed)d was typed. "
                        "Check the hand and record the game again."
                    )
                    % {"cards": values[pid], "typed": typed}
                )
        elif card_points is not None and pid in card_points:
            values[pid] = card_points[pid]
        else:
            raise ServiceError(_("Enter the card points of every player who did not win."))
        if values[pid] < 0:
            raise ServiceError(_("Card points cannot be negative."))
    if card_points and set(card_points) - seated:
        raise ServiceError(_("Points were entered for a player who does not sit at this table."))
    if penalties:
        penalty = points_format.game_penalties(winner_id, values)
        return {pid: (penalty[pid], {"cards": values.get(pid, 0), "hand": dict(hands.get(pid, {}))}) for pid in penalty}
    scores: dict[int, tuple[int, dict[str, object]]] = {
        pid: (0, {"cards": values[pid], "hand": dict(hands.get(pid, {}))}) for pid in values
    }
    scores[winner_id] = (sum(values.values()), {})
    return scores


@refusals_audited("undo_game")
def undo_last_game(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Game:
    """Void the table's last valid game (kept, marked undone) until the table is closed."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table = _lock_table(locked, table_id)
        _check_writable(table, version)
        if _duels(table).filter(games__isnull=False).exists():
            raise ServiceError(_("The duel has started; the final's games can no longer be undone."))
        if table.is_duel and table.round.tables.filter(is_duel=False, status=enums.TableStatus.CLOSED).exists():
            # The duel orders the closed final's places: undoing it would reopen the final.
            raise ServiceError(_("The final is closed; its duel can no longer be undone."))
        game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
        if game is None:
            raise ServiceError(_("There is no game to undo."))
        game.status = GameStatus.VOIDED
        game.voided_at = timezone.now()
        game.voided_by = _actor(actor)
        game.save(update_fields=["status", "voided_at", "voided_by"])
        _refresh_table(locked, table, actor)
        _audit(locked, actor, "game_undone", table=table.pk, game=game.number)
    return game


@refusals_audited("close_table")
def close_table(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Table:
    """Confirm a decided table's result; after this it can no longer be undone."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table = _lock_table(locked, table_id)
        _check_writable(table, version)
        if table.status != enums.TableStatus.DECIDED:
            raise ServiceError(_("Table %(number)d is not decided yet.") % {"number": table.number})
        if _duels(table).exclude(status__in=[enums.TableStatus.DECIDED, enums.TableStatus.CLOSED]).exists():
            raise ServiceError(_("The duel for the tied places is still open."))
        table.status = enums.TableStatus.CLOSED
        table.closed_at = timezone.now()
        table.version += 1
        table.save(update_fields=["status", "closed_at", "version"])
        _bump(locked)
        _audit(locked, actor, "table_closed", table=table.pk)
        round_done = not table.round.tables.exclude(status=enums.TableStatus.CLOSED).exists()
    if round_done and (locked.auto_advance or table.round.stage == enums.Stage.FINAL):
        # A count that needs the organiser's choice waits for it on the rounds page.
        with contextlib.suppress(ServiceError):
            generate_next_round(tournament=locked, actor=actor)
    return table


@refusals_audited("call_time")
def call_time(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Table:
    """Points format with a time limit: the round's time is up at this table.

    The table is decided with the games played so far (at least one).
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table = _lock_table(locked, table_id)
        _check_writable(table, version)
        if locked.format != enums.Format.POINTS or not locked.round_time_limit_minutes:
            raise ServiceError(_("This tournament plays a fixed number of games per table."))
        if not table.games.filter(status=GameStatus.VALID).exists():
            raise ServiceError(_("Record at least one game before the time is called."))
        table.time_called_at = timezone.now()
        table.save(update_fields=["time_called_at"])
        _refresh_table(locked, table, actor)
        _audit(locked, actor, "time_called", table=table.pk)
    return table


def _duels(table: Table) -> QuerySet[Table]:
    """The duel tables that decide ties of a final table (none for other tables)."""
    if table.points_target is None:
        return Table.objects.none()
    return Table.objects.filter(round=table.round, is_duel=True)


def _refresh_table(tournament: Tournament, table: Table, actor: User) -> None:
    """Recompute tallies, decision and places of ``table`` from its valid games."""
    seats = list(table.seats.select_related("player").order_by("position"))
    games = list(table.games.filter(status=GameStatus.VALID).prefetch_related("scores"))
    wins = {seat.player_id: 0 for seat in seats}
    points = {seat.player_id: 0 for seat in seats}
    for game in games:
        if game.winner_id is not None:
            wins[game.winner_id] += 1
        for score in game.scores.all():
            points[score.player_id] += score.points
    start = {seat.player_id: seat.player.start_number or 0 for seat in seats}
    places: dict[int, int] = {}
    decided = False
    if table.points_target is not None:
        state = knockout.final_state(points, table.points_target, start)
        if state.winner is not None:
            decided = True
            places = {pid: index for index, pid in enumerate(state.order, start=1)}
            _sync_duels(tournament, table, state, start)
            order = _resolved_final_order(table, state)
            if order is not None:
                places = {pid: index for index, pid in enumerate(order, start=1)}
        else:
            _sync_duels(tournament, table, None, start)
    elif tournament.format == enums.Format.POINTS:
        if points_format.table_decided(len(games), tournament.games_per_round) or (
            table.time_called_at is not None and games
        ):
            decided = True
            order = sorted(points, key=lambda pid: (points[pid], -wins[pid], start[pid]))
            places = {pid: index for index, pid in enumerate(order, start=1)}
    elif knockout.table_winner(wins, table.wins_needed or 1) is not None:
        decided = True
        places = {pid: index for index, pid in enumerate(knockout.table_places(wins, start), start=1)}
    for seat in seats:
        seat.games_won = wins[seat.player_id]
        seat.points = points[seat.player_id]
        seat.place = places.get(seat.player_id)
        seat.advances = (seat.place == 1) if decided else None
    Seat.objects.bulk_update(seats, ["games_won", "points", "place", "advances"])
    table.status = enums.TableStatus.DECIDED if decided else enums.TableStatus.PLAYING
    table.decided_at = timezone.now() if decided else None
    table.version += 1
    table.save(update_fields=["status", "decided_at", "version"])
    if table.is_duel:
        final_table = table.round.tables.exclude(pk=table.pk).filter(is_duel=False).first()
        if final_table is not None:
            _refresh_table(tournament, Table.objects.select_for_update().get(pk=final_table.pk), actor)
    _bump(tournament)


def _sync_duels(
    tournament: Tournament, table: Table, state: knockout.FinalState | None, start: Mapping[int, int]
) -> None:
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
