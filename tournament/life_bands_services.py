"""Writes of the life-bands format (Schocken): main rounds, the consolation
pool and its tables, the grand final, and each game's loser.

Contract as in ``tournament.services``. Chips and bands move only through
``LedgerEntry`` rows; an undone game gets correction entries, never a delete.
The table state (chips left, who is out) is recomputed from the valid games
after every change, and its consequences (a band cut, joining the pool, being
out of the tournament, reaching the grand final) are reconciled with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, GameStatus
from tournament import draws, enums, seating
from tournament.formats import life_bands
from tournament.formats.base import FormatError
from tournament.models import LedgerEntry, Player, PoolEntry, Round, Seat, Table, Tournament
from tournament.play_services import (
    NeedsChoice,
    _check_writable,
    _lock_table,
    open_table_for_result,
    stamp_table_version,
)
from tournament.services import ServiceError, User, _actor, _audit, _bump, _lock_tournament, refusals_audited


def _require_format(tournament: Tournament) -> None:
    if tournament.format != enums.Format.LIFE_BANDS:
        raise ServiceError(_("This tournament does not use the life-bands format."))
    if tournament.status == enums.TournamentStatus.FINISHED:
        raise ServiceError(_("The tournament is finished."))


def bands_left(tournament: Tournament, player_ids: list[int]) -> dict[int, int]:
    """Life bands each player still has, from the ledger."""
    sums = dict(
        LedgerEntry.objects.filter(tournament=tournament, player_id__in=player_ids)
        .values_list("player_id")
        .annotate(total=Sum("bands"))
        .values_list("player_id", "total")
    )
    return {pid: tournament.life_bands + (sums.get(pid) or 0) for pid in player_ids}


# --- state of the tournament ----------------------------------------------------------


@dataclass(frozen=True)
class State:
    """Where everyone is (read under the tournament lock)."""

    main_round: Round | None
    main_open: bool  # main tables still playing
    main_survivors: list[int]  # alive in main, waiting for the next main round
    main_winners: list[int]
    main_done: bool
    consolation: Round | None
    consolation_playing: bool
    pool: list[int]  # oldest first
    consolation_winners: list[int]
    consolation_done: bool
    grand_final: Round | None


def state(tournament: Tournament) -> State:
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    main_rounds = [r for r in rounds if r.stage == enums.Stage.MAIN]
    main_round = main_rounds[-1] if main_rounds else None
    consolation = next((r for r in rounds if r.stage == enums.Stage.CONSOLATION), None)
    grand_final = next((r for r in rounds if r.stage == enums.Stage.GRAND_FINAL), None)
    main_open = bool(main_round and main_round.tables.filter(status=enums.TableStatus.PLAYING).exists())
    main_winners: list[int] = []
    main_survivors: list[int] = []
    main_done = False
    if main_round is not None and not main_open:
        final_table = main_round.tables.filter(is_final=True).first()
        survivors = list(
            Seat.objects.filter(table__round=main_round, out_order__isnull=True)
            .order_by("player__start_number")
            .values_list("player_id", flat=True)
        )
        if final_table is not None:
            main_winners, main_done = survivors, True
        else:
            main_survivors = survivors
    consolation_playing = bool(consolation and consolation.tables.filter(status=enums.TableStatus.PLAYING).exists())
    pool = list(
        PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True)
        .order_by("joined_at", "pk")
        .values_list("player_id", flat=True)
    )
    consolation_winners = list(
        PoolEntry.objects.filter(tournament=tournament, left_reason=PoolEntry.Left.QUALIFIED).values_list(
            "player_id", flat=True
        )
    )
    if consolation is not None:
        consolation_winners += list(
            Seat.objects.filter(table__round=consolation, table__is_final=True, advances=True).values_list(
                "player_id", flat=True
            )
        )
    final_cons = consolation.tables.filter(is_final=True).first() if consolation else None
    consolation_done = (
        main_done
        and not pool
        and not consolation_playing
        and (final_cons is None or final_cons.status != enums.TableStatus.PLAYING)
    )
    return State(
        main_round=main_round,
        main_open=main_open,
        main_survivors=main_survivors,
        main_winners=main_winners,
        main_done=main_done,
        consolation=consolation,
        consolation_playing=consolation_playing,
        pool=pool,
        consolation_winners=consolation_winners,
        consolation_done=consolation_done,
        grand_final=grand_final,
    )


# --- seating ---------------------------------------------------------------------------


def _new_round(tournament: Tournament, stage: str, seed: int, algorithm: str) -> Round:
    number = (Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    return Round.objects.create(
        tournament=tournament,
        number=number,
        stage_number=Round.objects.filter(tournament=tournament, stage=stage).count() + 1,
        stage=stage,
        status=enums.RoundStatus.RUNNING,
        seed=seed,
        seating_algorithm=algorithm,
        started_at=timezone.now(),
    )


def _seat_table(
    tournament: Tournament, rnd: Round, players: tuple[int, ...], chips: int, actor: User, *, is_final: bool
) -> Table:
    number = (Table.objects.filter(round=rnd).aggregate(m=Max("number"))["m"] or 0) + 1
    table = Table.objects.create(
        round=rnd, number=number, chips_per_player=chips, is_final=is_final, started_at=timezone.now()
    )
    Seat.objects.bulk_create(
        Seat(table=table, player_id=pid, position=position, chips=chips) for position, pid in enumerate(players)
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            tournament=tournament,
            player_id=pid,
            table=table,
            kind=enums.LedgerKind.CHIPS_GIVEN,
            chips=chips,
            created_by=_actor(actor),
        )
        for pid in players
    )
    return table


def _plan(players: list[int], seed: int, preferred: int, largest: int, clubs: dict[int, str], apart: bool):
    return seating.seat_players(
        [seating.SeatingPlayer(id=pid, club=clubs.get(pid, "")) for pid in players],
        seed,
        preferred,
        largest,
        keep_clubs_apart=apart,
    )


def start_main_round(*, tournament: Tournament, actor: User, choice: str = "", seed: int | None = None) -> Round | None:
    """Seat the next main round: round 1 with every checked-in player, then
    the survivors, down to the main round's final table. Returns None when the
    main round is over (its winners wait for the grand final)."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        _require_format(locked)
        current = state(locked)
        if current.main_open:
            raise ServiceError(_("Main-round tables are still playing."))
        if current.main_done:
            raise ServiceError(_("The main round is over; its winners wait for the grand final."))
        if current.main_round is None:
            if not locked.draws.exists():
                raise ServiceError(_("Draw the start numbers before the first round."))
            players = list(
                Player.objects.filter(tournament=locked, status=enums.PlayerStatus.CHECKED_IN)
                .order_by("start_number")
                .values_list("pk", flat=True)
            )
            if len(players) < life_bands.SPEC.min_players:
                raise ServiceError(
                    _("At least %(needed)d checked-in players are needed.") % {"needed": life_bands.SPEC.min_players}
                )
        else:
            players = current.main_survivors
        try:
            plan = life_bands.plan_main(players, locked.table_size, locked.table_size_max, choice)
        except FormatError:
            raise ServiceError(_("%(players)d players cannot be seated.") % {"players": len(players)}) from None
        if plan.options:
            raise NeedsChoice(
                _("%(players)d players cannot be split into tables of %(min)d to %(max)d. Choose how to go on.")
                % {"players": len(players), "min": locked.table_size, "max": locked.table_size_max},
                options=tuple(plan.options),  # type: ignore[arg-type]
                players=len(players),
            )
        seed = draws.new_seed() if seed is None else seed
        clubs = dict(Player.objects.filter(pk__in=players).values_list("pk", "club"))
        if current.main_round is not None:
            current.main_round.status = enums.RoundStatus.FINISHED
            current.main_round.finished_at = timezone.now()
            current.main_round.save(update_fields=["status", "finished_at"])
        if plan.winners:
            _bump(locked)
            return None
        first = current.main_round is None
        if plan.final_table:
            plan_tables = _plan(list(plan.final_table), seed, len(players), len(players), clubs, False)
        else:
            largest = max(plan.sizes)
            plan_tables = _plan(players, seed, locked.table_size, largest, clubs, first and locked.keep_clubs_apart)
        rnd = _new_round(locked, enums.Stage.MAIN, seed, plan_tables.algorithm)
        for table_players in plan_tables.tables:
            _seat_table(locked, rnd, table_players, locked.chips_per_table, actor, is_final=bool(plan.final_table))
        locked.status = enums.TournamentStatus.RUNNING
        locked.save(update_fields=["status"])
        _bump(locked)
        _audit(locked, actor, "main_round_started", round=rnd.stage_number, seed=seed, final=bool(plan.final_table))
    return rnd


def form_consolation_tables(*, tournament: Tournament, actor: User, seed: int | None = None) -> list[Table]:
    """Seat waiting players at new consolation tables, as the pool allows.

    With nothing more to come and at most 4 left, they are the consolation
    final table; 2 or fewer left reach the grand final directly.
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        _require_format(locked)
        current = state(locked)
        more_coming = not current.main_done or current.consolation_playing
        plan = life_bands.plan_pool(
            current.pool, more_coming=more_coming, preferred=locked.table_size, largest=locked.table_size_max
        )
        now = timezone.now()
        if plan.winners:
            PoolEntry.objects.filter(tournament=locked, left_at__isnull=True, player_id__in=plan.winners).update(
                left_at=now, left_reason=PoolEntry.Left.QUALIFIED
            )
            _bump(locked)
            _audit(locked, actor, "consolation_qualified_directly", players=list(plan.winners))
            return []
        if not plan.sizes:
            raise ServiceError(
                ngettext(
                    "%(count)d player waits; a table needs at least %(min)d.",
                    "%(count)d players wait; a table needs at least %(min)d.",
                    len(current.pool),
                )
                % {"count": len(current.pool), "min": locked.table_size}
            )
        seed = draws.new_seed() if seed is None else seed
        rnd = current.consolation
        if rnd is None:
            rnd = _new_round(locked, enums.Stage.CONSOLATION, seed, seating.SEATING_ALGORITHM)
        waiting = current.pool[: sum(plan.sizes)]
        clubs = dict(Player.objects.filter(pk__in=waiting).values_list("pk", "club"))
        tables: list[Table] = []
        offset = 0
        for size in plan.sizes:
            group = waiting[offset : offset + size]
            offset += size
            drawn = _plan(group, seed + offset, size, size, clubs, False)
            table = _seat_table(locked, rnd, drawn.tables[0], locked.chips_per_table, actor, is_final=plan.final)
            PoolEntry.objects.filter(tournament=locked, left_at__isnull=True, player_id__in=group).update(
                left_at=now, left_reason=PoolEntry.Left.SEATED, seated_at_table=table
            )
            tables.append(table)
        _bump(locked)
        _audit(locked, actor, "consolation_tables_formed", tables=[t.number for t in tables], final=plan.final)
    return tables


def start_grand_final(*, tournament: Tournament, actor: User, seed: int | None = None) -> Round:
    """Seat the grand final: the main round's and the consolation's winners, 3 chips each."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        _require_format(locked)
        current = state(locked)
        if current.grand_final is not None:
            raise ServiceError(_("The grand final is already seated."))
        if not current.main_done:
            raise ServiceError(_("The main round is not over yet."))
        if not current.consolation_done:
            raise ServiceError(_("The consolation round is not over yet."))
        players = current.main_winners + [p for p in current.consolation_winners if p not in current.main_winners]
        if len(players) < 2:
            raise ServiceError(_("Too few players are left for a grand final."))
        seed = draws.new_seed() if seed is None else seed
        drawn = _plan(players, seed, len(players), len(players), {}, False)
        rnd = _new_round(locked, enums.Stage.GRAND_FINAL, seed, drawn.algorithm)
        if len(players) < life_bands.GRAND_FINAL_SIZE:
            rnd.seating_note = ngettext(
                "Only %(count)d player reached the grand final (too few players, or too few life bands "
                "for a consolation round).",
                "Only %(count)d players reached the grand final (too few players, or too few life bands "
                "for a consolation round).",
                len(players),
            ) % {"count": len(players)}
            rnd.save(update_fields=["seating_note"])
        _seat_table(locked, rnd, drawn.tables[0], locked.chips_grand_final, actor, is_final=True)
        for other in Round.objects.filter(tournament=locked).exclude(pk=rnd.pk):
            other.status = enums.RoundStatus.FINISHED
            other.finished_at = other.finished_at or timezone.now()
            other.save(update_fields=["status", "finished_at"])
        _bump(locked)
        _audit(locked, actor, "grand_final_started", players=players)
    return rnd


def advance(*, tournament: Tournament, actor: User, seed: int | None = None, choice: str = "") -> str:
    """One tap for the organiser: do whatever can be done next. Returns what was done."""
    current = state(tournament)
    if current.grand_final is not None:
        return ""
    if not current.main_open and not current.main_done:
        start_main_round(tournament=tournament, actor=actor, seed=seed, choice=choice)
        return "main"
    more_coming = not current.main_done or current.consolation_playing
    plan = life_bands.plan_pool(
        current.pool, more_coming=more_coming, preferred=tournament.table_size, largest=tournament.table_size_max
    )
    if plan.sizes or plan.winners:
        form_consolation_tables(tournament=tournament, actor=actor, seed=seed)
        return "consolation"
    fresh = state(tournament)
    if fresh.main_done and fresh.consolation_done:
        start_grand_final(tournament=tournament, actor=actor, seed=seed)
        return "grand_final"
    return ""


# --- results ---------------------------------------------------------------------------


@refusals_audited("record_loss")
def record_loss(
    *, tournament: Tournament, actor: User, table_id: int, loser_id: int, version: int, idempotency_key: str
) -> Game:
    """Record a game's loser: one chip handed in. A retry with the same key
    records nothing more; a stale view, a closed or decided table, a loser who
    is not (or no longer) playing at the table are refused."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table, existing = open_table_for_result(locked, table_id, version, idempotency_key)
        if existing is not None:
            return existing
        seat = table.seats.filter(player_id=loser_id).first()
        if seat is None:
            raise ServiceError(_("This player does not sit at table %(number)d.") % {"number": table.number})
        if seat.out_order is not None:
            raise ServiceError(_("%(name)s is already out at this table.") % {"name": seat.player.name})
        number = (table.games.aggregate(m=Max("number"))["m"] or 0) + 1
        game = Game.objects.create(
            table=table, number=number, loser_id=loser_id, idempotency_key=idempotency_key, entered_by=_actor(actor)
        )
        LedgerEntry.objects.create(
            tournament=locked,
            player_id=loser_id,
            table=table,
            game=game,
            kind=enums.LedgerKind.CHIP_LOST,
            chips=-1,
            created_by=_actor(actor),
        )
        _refresh(locked, table, actor)
        stamp_table_version(game, table)
        _audit(locked, actor, "chip_lost", table=table.pk, game=number, player=loser_id)
    if locked.auto_advance:
        _auto(locked, actor)
    return game


@refusals_audited("undo_game")
def undo_last_loss(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Game:
    """Void the table's last game; chips and bands come back through correction
    entries. Refused once a player it moved is seated at another table."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        table = _lock_table(locked, table_id)
        _check_writable(table, version)
        game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
        if game is None:
            raise ServiceError(_("There is no game to undo."))
        moved = PoolEntry.objects.filter(source_table=table, left_reason=PoolEntry.Left.SEATED).select_related("player")
        if moved.exists():
            raise ServiceError(
                _("%(names)s already play at another table; this result can no longer be undone.")
                % {"names": ", ".join(entry.player.name for entry in moved)}
            )
        game.status = GameStatus.VOIDED
        game.voided_at = timezone.now()
        game.voided_by = _actor(actor)
        game.save(update_fields=["status", "voided_at", "voided_by"])
        for entry in LedgerEntry.objects.filter(game=game).exclude(kind=enums.LedgerKind.CORRECTION):
            LedgerEntry.objects.create(
                tournament=locked,
                player_id=entry.player_id,
                table=table,
                game=game,
                kind=enums.LedgerKind.CORRECTION,
                chips=-entry.chips,
                bands=-entry.bands,
                created_by=_actor(actor),
            )
        _refresh(locked, table, actor)
        _audit(locked, actor, "chip_loss_undone", table=table.pk, game=game.number)
    return game


def _refresh(tournament: Tournament, table: Table, actor: User) -> None:
    """Recompute chips and who is out from the valid games; reconcile bands,
    pool entries and qualification with it."""
    seats = list(table.seats.select_related("player").order_by("position"))
    games = list(table.games.filter(status=GameStatus.VALID).order_by("number"))
    chips = {seat.player_id: table.chips_per_player or 0 for seat in seats}
    out_order: dict[int, int] = {}
    out_game: dict[int, Game] = {}
    for game in games:
        pid = game.loser_id
        if pid is None or pid in out_order:
            continue
        chips[pid] -= 1
        if chips[pid] <= 0:
            out_order[pid] = len(out_order) + 1
            out_game[pid] = game
    grand_final = table.round.stage == enums.Stage.GRAND_FINAL
    decided = life_bands.table_decided(len(seats), len(out_order), grand_final=grand_final)
    for seat in seats:
        seat.chips = max(chips[seat.player_id], 0)
        seat.out_order = out_order.get(seat.player_id)
        if decided:
            seat.advances = seat.player_id not in out_order
            if grand_final:
                # The order of elimination gives the places from the back.
                seat.place = len(seats) - out_order[seat.player_id] + 1 if seat.player_id in out_order else 1
        else:
            seat.advances = None
            seat.place = None
    Seat.objects.bulk_update(seats, ["chips", "out_order", "advances", "place"])
    if not grand_final:
        _reconcile_bands(tournament, table, seats, out_game, actor)
        _reconcile_survivors(tournament, table, seats, decided)
    table.status = enums.TableStatus.DECIDED if decided else enums.TableStatus.PLAYING
    table.decided_at = timezone.now() if decided else None
    table.version += 1
    table.save(update_fields=["status", "decided_at", "version"])
    if grand_final:
        finished = decided
        tournament.status = enums.TournamentStatus.FINISHED if finished else enums.TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    _bump(tournament)


def _reconcile_bands(
    tournament: Tournament, table: Table, seats: list[Seat], out_game: dict[int, Game], actor: User
) -> None:
    for seat in seats:
        pid = seat.player_id
        cut = (
            LedgerEntry.objects.filter(table=table, player_id=pid, kind=enums.LedgerKind.BAND_CUT)
            .exclude(game__status=GameStatus.VOIDED)
            .first()
        )
        if pid in out_game and cut is None:
            LedgerEntry.objects.create(
                tournament=tournament,
                player_id=pid,
                table=table,
                game=out_game[pid],
                kind=enums.LedgerKind.BAND_CUT,
                bands=-1,
                created_by=_actor(actor),
            )
            # Losing at the consolation final ends the tournament, whatever bands are left
            # (the rules play with 2 bands: the second cut is the last).
            consolation_final = table.round.stage == enums.Stage.CONSOLATION and table.is_final
            if bands_left(tournament, [pid])[pid] > 0 and not consolation_final:
                PoolEntry.objects.create(tournament=tournament, player_id=pid, source_table=table)
        elif pid not in out_game:
            # Undone: the band was restored by a correction entry; leave the pool again.
            PoolEntry.objects.filter(
                tournament=tournament, player_id=pid, source_table=table, left_at__isnull=True
            ).update(left_at=timezone.now(), left_reason=PoolEntry.Left.UNDONE)


def _reconcile_survivors(tournament: Tournament, table: Table, seats: list[Seat], decided: bool) -> None:
    """Survivors of a decided consolation table (not the final) wait in the pool again."""
    if table.round.stage != enums.Stage.CONSOLATION or table.is_final:
        return
    for seat in seats:
        if seat.out_order is not None:
            continue
        open_entry = PoolEntry.objects.filter(
            tournament=tournament, player_id=seat.player_id, source_table=table, left_at__isnull=True
        )
        if decided and not open_entry.exists():
            PoolEntry.objects.create(tournament=tournament, player_id=seat.player_id, source_table=table)
        elif not decided:
            open_entry.update(left_at=timezone.now(), left_reason=PoolEntry.Left.UNDONE)


def _auto(tournament: Tournament, actor: User) -> None:
    """With automatic advancement, form consolation tables and rounds as soon as possible."""
    for _step in range(20):
        try:
            if not advance(tournament=tournament, actor=actor):
                return
        except ServiceError:
            return


# --- reads for pages and the ranking -----------------------------------------------------


@dataclass(frozen=True)
class RankingRow:
    place: int
    player: Player
    grand_final_place: int | None
    decided_by: str
    went_out: str


def final_ranking(tournament: Tournament) -> list[RankingRow]:
    """Everyone: grand finalists by the order of elimination, the others by when
    they went out (later ranks higher), then start number."""
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)}
    gf = Round.objects.filter(tournament=tournament, stage=enums.Stage.GRAND_FINAL).first()
    gf_order: list[int] = []
    if gf is not None:
        gf_seats = list(Seat.objects.filter(table__round=gf))
        gf_order = [s.player_id for s in sorted(gf_seats, key=lambda s: (s.place or 0, s.player_id)) if s.place]
        gf_order += [s.player_id for s in gf_seats if not s.place]
    cuts = (
        LedgerEntry.objects.filter(tournament=tournament, kind=enums.LedgerKind.BAND_CUT)
        .exclude(game__status=GameStatus.VOIDED)
        .values_list("player_id", "game_id", "table__round__stage", "table__round__stage_number")
    )
    out_sequence: dict[int, int] = {}
    went_out: dict[int, str] = {}
    remaining = dict.fromkeys(players, tournament.life_bands)
    for pid, game_id, stage, stage_number in cuts.order_by("game_id"):
        if pid not in remaining:
            continue
        remaining[pid] -= 1
        if remaining[pid] <= 0:
            out_sequence[pid] = game_id
            went_out[pid] = f"{stage}:{stage_number}"
    start = {pid: p.start_number or 0 for pid, p in players.items()}
    entries = life_bands.rank_players(start, gf_order, out_sequence)
    return [
        RankingRow(
            place=e.place,
            player=players[e.player_id],
            grand_final_place=e.grand_final_place,
            decided_by=e.decided_by,
            went_out=went_out.get(e.player_id, ""),
        )
        for e in entries
    ]


def pool_players(tournament: Tournament) -> list[PoolEntry]:
    return list(
        PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True)
        .select_related("player")
        .order_by("joined_at", "pk")
    )
