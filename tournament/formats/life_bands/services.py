"""Writes of the life-bands format (Schocken): main rounds, the consolation
pool and its tables, the grand final, and each game's loser.

Contract: ``tournament.writes``. Chips and bands move only through
``LedgerEntry`` rows; an undone game gets correction entries, never a delete.
The table state (chips left, who is out) is recomputed from the valid games
after every change, and its consequences (a band cut, joining the pool, being
out of the tournament, reaching the grand final) are reconciled with it. The
tournament finishes when the grand final's table is closed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, NoReturn

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import Game, GameStatus
from tournament import draws, enums, naming, seating
from tournament.errors import NeedsChoice, ServiceError, UnknownStep
from tournament.formats import entries
from tournament.formats.base import FormatError
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.record import StepDone, refuse_other_format
from tournament.models import LedgerEntry, Player, PoolEntry, Round, Seat, Table, Tournament
from tournament.play import corrections, results, rounds
from tournament.play.core import refuse_if_finished, refuse_too_few, refuse_without_draw
from tournament.play.tables import save_outcome
from tournament.writes import User, acting_user, audit, bump, lock_tournament, refusals_audited

SLUG = "life_bands"

OTHER_FORMAT = gettext_lazy("This tournament does not use the life-bands format.")


def _require_format(tournament: Tournament) -> None:
    refuse_other_format(tournament, SLUG, OTHER_FORMAT)
    refuse_if_finished(tournament)


def _seat_table(
    tournament: Tournament,
    rnd: Round,
    players: tuple[int, ...],
    chips: int,
    actor: User,
    *,
    is_final: bool,
    number: int | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> Table:
    """A table whose players each get ``chips`` chips (handed out through the ledger); ``number``
    as ``rounds.seat_table`` takes it, or ``fixed`` (``rounds.FixedRound.table_fields``: the
    number with the fixed seat kept there)."""
    table = rounds.seat_table(
        rnd,
        players,
        seat_fields={"chips": chips},
        chips_per_player=chips,
        is_final=is_final,
        **(dict(fixed) if fixed is not None else {"number": number}),
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            tournament=tournament,
            player_id=pid,
            table=table,
            kind=enums.LedgerKind.CHIPS_GIVEN,
            chips=chips,
            created_by=acting_user(actor),
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


def _reserved(tournament: Tournament, current: life_bands_selectors.State, seating_now: Iterable[int]) -> set[int]:
    """The fixed numbers of the players still in play (``rounds.reserved_numbers``): those seated
    now, the main round's survivors, the consolation pool, and the players at tables in play.
    Main and consolation tables are seated at once, so a fixed player's number waits for them."""
    at_tables = Seat.objects.filter(table__in=rounds.in_play(tournament.id)).values_list("player_id", flat=True)
    still_in = {*seating_now, *current.main_survivors, *current.pool, *at_tables}
    return rounds.reserved_numbers(tournament.id, still_in)


def _main_players(locked: Tournament, current: life_bands_selectors.State) -> list[int]:
    """Who plays the next main round: every checked-in player first, then the survivors; refused while
    main tables play or once the main round is over."""
    if current.main_open:
        raise ServiceError(_("Main-round tables are still playing."))
    if current.main_done:
        raise ServiceError(_("The main round is over; its winners wait for the grand final."))
    if current.main_round is not None:
        return current.main_survivors
    refuse_without_draw(locked)
    players = list(
        Player.objects.filter(tournament=locked, status=enums.PlayerStatus.CHECKED_IN)
        .order_by("start_number")
        .values_list("pk", flat=True)
    )
    refuse_too_few(len(players), life_bands.SPEC.min_players)
    return players


def _main_plan(locked: Tournament, players: list[int], choice: str) -> life_bands.MainPlan:
    """The next main round's plan; where the count does not split, the organiser is asked (again)."""
    try:
        plan = life_bands.plan_main(players, locked.table_size, locked.table_size_max, choice)
    except FormatError:
        raise ServiceError(_("%(players)d players cannot be seated.") % {"players": len(players)}) from None
    if plan.options:
        question = _("%(players)d players cannot be split into tables of %(min)d to %(max)d. Choose how to go on.") % {
            "players": len(players),
            "min": locked.table_size,
            "max": locked.table_size_max,
        }
        if choice:
            question = _("“%(choice)s” is not one of the ways to seat %(players)d players. %(question)s") % {
                "choice": choice,
                "players": len(players),
                "question": question,
            }
        raise NeedsChoice(question, options=plan.options, players=len(players))
    return plan


def _draw_main(
    locked: Tournament, plan: life_bands.MainPlan, players: list[int], seed: int, clubs: dict[int, str], *, first: bool
) -> seating.SeatingPlan:
    """Draw the main round's tables: its final table as one, else at the plan's sizes (clubs apart in round 1)."""
    if plan.final_table:
        return _plan(list(plan.final_table), seed, len(players), len(players), clubs, False)
    apart = first and locked.keep_clubs_apart
    return _plan(players, seed, plan.preferred, plan.largest, clubs, apart)


def start_main_round(*, tournament: Tournament, actor: User, choice: str = "", seed: int | None = None) -> Round | None:
    """Seat the next main round: round 1 with every checked-in player, then
    the survivors, down to the main round's final table. Returns None when the
    main round is over (its winners wait for the grand final).

    Where the count does not split into tables of the settings, raises ``NeedsChoice`` with
    what ``rules.plan_main`` allows (a larger or a smaller table); call again with ``choice``
    set to one option's code. A code that is not among them asks again, saying so, and saves
    nothing. A round with the organiser's choice, or with a table outside the rules' 3-4
    (tables of 5 allowed by the settings), says why in its note."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        _require_format(locked)
        current = life_bands_selectors.state(locked)
        players = _main_players(locked, current)
        plan = _main_plan(locked, players, choice)
        seed = draws.new_seed() if seed is None else seed
        clubs = dict(Player.objects.filter(pk__in=players).values_list("pk", "club"))
        if current.main_round is not None:
            rounds.close_round(current.main_round, close_tables=False)
        if plan.winners:
            bump(locked)
            return None
        first = current.main_round is None
        plan_tables = _draw_main(locked, plan, players, seed, clubs, first=first)
        placed = rounds.place_and_number(
            locked.id,
            plan_tables.tables,
            reserved=_reserved(locked, current, players),
            clubs=clubs if first and locked.keep_clubs_apart else None,
        )
        rnd = rounds.open_round(
            locked,
            stage=enums.Stage.MAIN,
            seed=seed,
            algorithm=plan_tables.algorithm,
            note=" ".join(filter(None, [_main_note(locked, len(players), plan), *placed.notes])),
        )
        for index, table_players in enumerate(placed.tables):
            _seat_table(
                locked,
                rnd,
                table_players,
                locked.chips_per_table,
                actor,
                is_final=bool(plan.final_table),
                fixed=placed.table_fields(index),
            )
        rounds.mark_running(locked)
        bump(locked)
        audit(
            locked,
            actor,
            "main_round_started",
            round=rnd.stage_number,
            seed=seed,
            final=bool(plan.final_table),
            **({"choice": plan.chosen.code, "round_number": rnd.number} if plan.chosen is not None else {}),
        )
    return rnd


def _sizes_text(sizes: tuple[int, ...]) -> str:
    """The tables in words: one table of 5, tables of 5 + 4 + 3."""
    if len(sizes) == 1:
        return _("one table of %(size)d") % {"size": sizes[0]}
    return _("tables of %(sizes)s") % {"sizes": " + ".join(str(size) for size in sizes)}


def _main_note(tournament: Tournament, count: int, plan: life_bands.MainPlan) -> str:
    """Why a main round is seated as it is, where it leaves the rules' tables of 3-4: the
    organiser's choice, or a table larger than 4 that the settings allow ("" otherwise)."""
    params = {
        "players": count,
        "min": tournament.table_size,
        "max": tournament.table_size_max,
        "tables": _sizes_text(plan.sizes),
    }
    if plan.chosen is not None:
        return _("%(players)d players cannot be split into tables of %(min)d to %(max)d; chosen: %(option)s") % {
            **params,
            "option": rounds.option_label(plan.chosen),
        }
    if any(size > life_bands.RULES_LARGEST for size in plan.sizes):
        return (
            _(
                "%(players)d players: %(tables)s. The settings allow tables of up to %(max)d; "
                "2 players go out at a table of more than 4, as at 4."
            )
            % params
        )
    return ""


def _qualify_directly(locked: Tournament, winners: tuple[int, ...], now: datetime, actor: User) -> None:
    """The pool's last players reach the grand final without a table: they leave the pool as qualified."""
    PoolEntry.objects.filter(tournament=locked, left_at__isnull=True, player_id__in=winners).update(
        left_at=now, left_reason=PoolEntry.Left.QUALIFIED
    )
    bump(locked)
    audit(locked, actor, "consolation_qualified_directly", players=list(winners))


def _refuse_too_few_waiting(locked: Tournament, waiting: int) -> NoReturn:
    """Too few wait for a table (and more are to come): say how many wait and how many a table needs."""
    raise ServiceError(
        ngettext(
            "%(count)d player waits; a table needs at least %(min)d.",
            "%(count)d players wait; a table needs at least %(min)d.",
            waiting,
        )
        % {"count": waiting, "min": locked.table_size}
    )


def _consolation_round(locked: Tournament, current: life_bands_selectors.State, seed: int) -> Round:
    """The consolation round, opened with its first tables."""
    if current.consolation is not None:
        return current.consolation
    return rounds.open_round(locked, stage=enums.Stage.CONSOLATION, seed=seed, algorithm=seating.SEATING_ALGORITHM)


def form_consolation_tables(*, tournament: Tournament, actor: User, seed: int | None = None) -> list[Table]:
    """Seat waiting players at new consolation tables, as the pool allows.

    With nothing more to come and at most 4 left, they are the consolation
    final table; 2 or fewer left reach the grand final directly. No count needs a choice
    (``rules.plan_pool``: who cannot be seated waits for the survivors); a table above the
    rules' 4, which the settings allow, is named in the round's note.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        _require_format(locked)
        current = life_bands_selectors.state(locked)
        more_coming = not current.main_done or current.consolation_playing
        plan = life_bands.plan_pool(
            current.pool, more_coming=more_coming, preferred=locked.table_size, largest=locked.table_size_max
        )
        now = timezone.now()
        if plan.winners:
            _qualify_directly(locked, plan.winners, now, actor)
            return []
        if not plan.sizes:
            _refuse_too_few_waiting(locked, len(current.pool))
        seed = draws.new_seed() if seed is None else seed
        rnd = _consolation_round(locked, current, seed)
        waiting = current.pool[: sum(plan.sizes)]
        _close_tables_left(locked, waiting, now)
        clubs = dict(Player.objects.filter(pk__in=waiting).values_list("pk", "club"))
        tables: list[Table] = []
        offset = 0
        reserved = _reserved(locked, current, waiting)
        fixed_notes: list[str] = []
        for size in plan.sizes:
            group = waiting[offset : offset + size]
            offset += size
            drawn = _plan(group, seed + offset, size, size, clubs, False)
            # Each table as it is formed: its fixed player's number unless a table in play holds it.
            placed = rounds.place_and_number(locked.id, drawn.tables, reserved=reserved)
            fixed_notes += placed.notes
            table = _seat_table(
                locked,
                rnd,
                placed.tables[0],
                locked.chips_per_table,
                actor,
                is_final=plan.final,
                fixed=placed.table_fields(0),
            )
            PoolEntry.objects.filter(tournament=locked, left_at__isnull=True, player_id__in=group).update(
                left_at=now, left_reason=PoolEntry.Left.SEATED, seated_at_table=table
            )
            tables.append(table)
        _note_large_tables(rnd, list(zip(tables, plan.sizes, strict=True)), locked.table_size_max)
        if fixed_notes:
            rnd.seating_note = " ".join(filter(None, [rnd.seating_note, *fixed_notes]))
            rnd.save(update_fields=["seating_note"])
        bump(locked)
        audit(locked, actor, "consolation_tables_formed", tables=[t.number for t in tables], final=plan.final)
    return tables


def _close_tables_left(tournament: Tournament, players: list[int], now: datetime) -> None:
    """The decided tables these pool players come from are closed as they are seated: once a
    player sits at another table the referee can no longer undo there (``_undo_guard``), so the
    table is out of play and its number free for the table seated now (``rounds.in_play``)."""
    sources = PoolEntry.objects.filter(
        tournament=tournament, left_at__isnull=True, player_id__in=players, source_table__isnull=False
    ).values("source_table_id")
    Table.objects.filter(pk__in=sources, status=enums.TableStatus.DECIDED).update(
        status=enums.TableStatus.CLOSED, closed_at=now, version=F("version") + 1
    )


def _note_large_tables(rnd: Round, tables: list[tuple[Table, int]], largest: int) -> None:
    """A consolation table above the rules' 4 (the settings allow it) is added to the round's note."""
    notes = [
        _("Table %(number)d: %(players)d players at one table (the settings allow tables of up to %(max)d).")
        % {"number": table.number, "players": size, "max": largest}
        for table, size in tables
        if size > life_bands.RULES_LARGEST
    ]
    if notes:
        rnd.seating_note = " ".join(filter(None, [rnd.seating_note, *notes]))
        rnd.save(update_fields=["seating_note"])


def start_grand_final(*, tournament: Tournament, actor: User, seed: int | None = None) -> Round:
    """Seat the grand final: the main round's and the consolation's winners, 3 chips each.

    Always one table of whoever reached it (4, fewer in small fields: the note says why), so
    no count needs a choice here."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        _require_format(locked)
        current = life_bands_selectors.state(locked)
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
        rnd = rounds.open_round(locked, stage=enums.Stage.GRAND_FINAL, seed=seed, algorithm=drawn.algorithm)
        if len(players) < life_bands.GRAND_FINAL_SIZE:
            # A public fact too: the audience sees a grand final of fewer than four.
            rnd.seating_note = rnd.public_note = ngettext(
                "Only %(count)d player reached the grand final (too few players, or too few life bands "
                "for a consolation round).",
                "Only %(count)d players reached the grand final (too few players, or too few life bands "
                "for a consolation round).",
                len(players),
            ) % {"count": len(players)}
            rnd.save(update_fields=["seating_note", "public_note"])
        # The rounds before are over first: their decided tables give their numbers back, so the
        # grand final is "Table 1" (``rounds.in_play``).
        for other in Round.objects.filter(tournament=locked).exclude(pk=rnd.pk):
            rounds.close_round(other, close_tables=False)
        placed = rounds.place_and_number(locked.id, drawn.tables, reserved=())
        if placed.notes:
            rnd.seating_note = " ".join(filter(None, [rnd.seating_note, *placed.notes]))
            rnd.save(update_fields=["seating_note"])
        _seat_table(
            locked, rnd, placed.tables[0], locked.chips_grand_final, actor, is_final=True, fixed=placed.table_fields(0)
        )
        bump(locked)
        audit(locked, actor, "grand_final_started", players=players)
    return rnd


def advance(*, tournament: Tournament, actor: User, seed: int | None = None, choice: str = "") -> str:
    """One tap for the organiser: do whatever can be done next. Returns what was done."""
    current = life_bands_selectors.state(tournament)
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
    fresh = life_bands_selectors.state(tournament)
    if fresh.main_done and fresh.consolation_done:
        start_grand_final(tournament=tournament, actor=actor, seed=seed)
        return "grand_final"
    return ""


@refusals_audited("record_loss")
def record_loss(
    *, tournament: Tournament, actor: User, table_id: int, loser_id: int, version: int, idempotency_key: str
) -> Game:
    """Record a game's loser: one chip handed in. A retry with the same key
    records nothing more; a stale view, a closed or decided table, a loser who
    is not (or no longer) playing at the table are refused."""
    with results.start_entry(tournament, table_id, version, idempotency_key) as entry:
        if entry.replayed is not None:
            return entry.replayed
        assert entry.tournament is not None and entry.table is not None and entry.read is not None
        locked, table = entry.tournament, entry.table
        seat = next((seat for seat in entry.read.seats if seat.player_id == loser_id), None)
        if seat is None:
            raise ServiceError(_("This player does not sit at table %(number)d.") % {"number": table.number})
        if seat.out_order is not None:
            raise ServiceError(_("%(name)s is already out at this table.") % {"name": seat.player.name})
        number = entry.read.next_number
        game = results.write_game(
            entry,
            actor,
            table=table,
            number=number,
            loser_id=loser_id,
            idempotency_key=idempotency_key,
            entered_by=acting_user(actor),
        )
        LedgerEntry.objects.create(
            tournament=locked,
            player_id=loser_id,
            table=table,
            game=game,
            kind=enums.LedgerKind.CHIP_LOST,
            chips=-1,
            created_by=acting_user(actor),
        )
        refresh_table(locked, table, actor)
        results.stamp_table_version(game, table)
        audit(locked, actor, "chip_lost", table=table.pk, game=number, player=loser_id)
    if locked.auto_advance:
        _advance_automatically(locked, actor)
    return game


def refresh_table(tournament: Tournament, table: Table, actor: User) -> None:
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
                seat.place = (
                    life_bands.grand_final_place(len(seats), out_order[seat.player_id])
                    if seat.player_id in out_order
                    else 1
                )
        else:
            seat.advances = None
            # A grand finalist's place is decided the moment they go out (4, then 3, then 2).
            out = out_order.get(seat.player_id)
            seat.place = life_bands.grand_final_place(len(seats), out) if grand_final and out else None
    Seat.objects.bulk_update(seats, ["chips", "out_order", "advances", "place"])
    if not grand_final:
        _reconcile_bands(tournament, table, seats, out_game, actor)
        _reconcile_survivors(tournament, table, seats, decided)
    save_outcome(tournament, table, decided=decided)


def _reconcile_bands(
    tournament: Tournament, table: Table, seats: list[Seat], out_game: dict[int, Game], actor: User
) -> None:
    """Each player out at ``table`` has their band cut there (and waits in the pool while bands are
    left); a player no longer out (a game undone) leaves the pool again. Whole table at once: one
    read of the cuts and one update, rather than one of each per seat (a referee's every tap)."""
    players = [seat.player_id for seat in seats]
    cut = set(
        LedgerEntry.objects.filter(table=table, player_id__in=players, kind=enums.LedgerKind.BAND_CUT)
        .exclude(game__status__in=[GameStatus.VOIDED, GameStatus.SUPERSEDED])
        .values_list("player_id", flat=True)
    )
    for pid in players:
        if pid in out_game and pid not in cut:
            LedgerEntry.objects.create(
                tournament=tournament,
                player_id=pid,
                table=table,
                game=out_game[pid],
                kind=enums.LedgerKind.BAND_CUT,
                bands=-1,
                created_by=acting_user(actor),
            )
            # Losing at the consolation final ends the tournament, whatever bands are left
            # (the rules play with 2 bands: the second cut is the last).
            consolation_final = table.round.stage == enums.Stage.CONSOLATION and table.is_final
            if life_bands_selectors.bands_left(tournament, [pid])[pid] > 0 and not consolation_final:
                PoolEntry.objects.create(tournament=tournament, player_id=pid, source_table=table)
    still_in = [pid for pid in players if pid not in out_game]
    if still_in:
        # Undone: the band was restored by a correction entry; leave the pool again.
        PoolEntry.objects.filter(
            tournament=tournament, player_id__in=still_in, source_table=table, left_at__isnull=True
        ).update(left_at=timezone.now(), left_reason=PoolEntry.Left.UNDONE)


def _reconcile_survivors(tournament: Tournament, table: Table, seats: list[Seat], decided: bool) -> None:
    """Survivors of a decided consolation table (not the final) wait in the pool again; while it
    is not decided (a game undone), they leave it. One query for the table, not one per seat."""
    if table.round.stage != enums.Stage.CONSOLATION or table.is_final:
        return
    survivors = [seat.player_id for seat in seats if seat.out_order is None]
    if not survivors:
        return
    open_entries = PoolEntry.objects.filter(
        tournament=tournament, player_id__in=survivors, source_table=table, left_at__isnull=True
    )
    if not decided:
        open_entries.update(left_at=timezone.now(), left_reason=PoolEntry.Left.UNDONE)
        return
    waiting = set(open_entries.values_list("player_id", flat=True))
    for pid in survivors:
        if pid not in waiting:
            PoolEntry.objects.create(tournament=tournament, player_id=pid, source_table=table)


def _advance_automatically(tournament: Tournament, actor: User) -> None:
    """With automatic advancement, form consolation tables and rounds as soon as possible."""
    for _step in range(20):
        try:
            if not advance(tournament=tournament, actor=actor):
                return
        except ServiceError:
            return


def _undo_guard(tournament: Tournament, table: Table) -> None:
    moved = PoolEntry.objects.filter(source_table=table, left_reason=PoolEntry.Left.SEATED).select_related("player")
    if moved.exists():
        raise ServiceError(
            _("%(names)s already play at another table; this result can no longer be undone.")
            % {"names": naming.and_list(entry.player.name for entry in moved)}
        )


def _give_back(tournament: Tournament, table: Table, game: Game, actor: User) -> None:
    """The undone game's chip (and band) come back through correction entries."""
    for entry in LedgerEntry.objects.filter(game=game).exclude(kind=enums.LedgerKind.CORRECTION):
        LedgerEntry.objects.create(
            tournament=tournament,
            player_id=entry.player_id,
            table=table,
            game=game,
            kind=enums.LedgerKind.CORRECTION,
            chips=-entry.chips,
            bands=-entry.bands,
            created_by=acting_user(actor),
        )


def _after_close(tournament: Tournament, table: Table, actor: User) -> None:
    """Closing the grand final's table decides the tournament. With automatic advancement (or a
    second confirmation) the closed table's players move on only now (``life_bands_selectors.moves_on_at_close``),
    and automatic advancement seats what they allow: the next main round, a consolation table.

    Why at the close and not at the decision: a decided table whose players were seated on can no
    longer take an undo (the seats, chips and games of the next round are built on it), and
    carrying an undo onward would unseat a round already at play. Waiting for the referee's
    close (or the organiser's) keeps every last tap correctable at the table, as the knockout
    and points formats already do in automatic mode; the referee's page says so while the
    table waits (``templates/formats/life_bands/table.html``)."""
    if table.round.stage == enums.Stage.GRAND_FINAL:
        with transaction.atomic():
            rounds.finish_tournament(lock_tournament(tournament.pk), actor)
    elif tournament.auto_advance:
        _advance_automatically(tournament, actor)


undo_last_loss = results.undoer(refresh=refresh_table, guard=_undo_guard, after_void=_give_back)
close_table = results.closer(after=_after_close)


def _rescore(
    tournament: Tournament,
    table: Table,
    game: Game,
    card_points: Mapping[int, int] | None,
    hands: Mapping[int, Mapping[str, int]] | None,
) -> None:
    """A correcting game's chip: handed in by its (new) loser, who must still have been playing."""
    assert game.loser_id is not None
    chips = table.chips_per_player or 0
    lost: dict[int, int] = {}
    for earlier in table.games.filter(status=GameStatus.VALID, number__lt=game.number).exclude(pk=game.pk):
        if earlier.loser_id is not None:
            lost[earlier.loser_id] = lost.get(earlier.loser_id, 0) + 1
    if lost.get(game.loser_id, 0) >= chips:
        raise ServiceError(
            _("%(name)s was already out before game %(number)d.") % {"name": game.loser.name, "number": game.number}  # type: ignore[union-attr]
        )
    LedgerEntry.objects.create(
        tournament=tournament,
        player_id=game.loser_id,
        table=table,
        game=game,
        kind=enums.LedgerKind.CHIP_LOST,
        chips=-1,
        created_by=game.entered_by,
    )


def _downstream(tournament: Tournament, table: Table) -> list[corrections.Swap]:
    """After a correction at ``table``: a player who went from it to a consolation table but is
    no longer out hands that seat to whoever is out now. Refused once the grand final is
    seated and the table's survivors change."""
    seats = list(table.seats.all())
    out_now = {seat.player_id for seat in seats if seat.out_order is not None}
    gone = list(
        PoolEntry.objects.filter(source_table=table, left_reason=PoolEntry.Left.SEATED).exclude(player_id__in=out_now)
    )
    waiting = list(
        PoolEntry.objects.filter(source_table=table, left_at__isnull=True)
        .exclude(player_id__in=[entry.player_id for entry in gone])
        .order_by("pk")
    )
    if table.round.stage != enums.Stage.GRAND_FINAL:
        final = Round.objects.filter(tournament=tournament, stage=enums.Stage.GRAND_FINAL).first()
        if final is not None:
            in_final = set(Seat.objects.filter(table__round=final).values_list("player_id", flat=True))
            at_table = {seat.player_id for seat in seats}
            goes_on = {seat.player_id for seat in seats if seat.advances}
            if (in_final & at_table) != (goes_on & in_final) or (goes_on - in_final and in_final & at_table):
                names = {seat.player_id: seat.player.name for seat in table.seats.select_related("player")}
                raise ServiceError(
                    _(
                        "After this correction %(now)s would survive %(table)s, but %(final)s is already seated "
                        "with %(seated)s from it, and a correction cannot seat it again."
                    )
                    % {
                        "now": naming.and_list(names[pid] for pid in sorted(goes_on, key=names.__getitem__)) or "–",
                        "table": str(table),
                        "final": str(final),
                        "seated": naming.and_list(sorted(names[pid] for pid in in_final & at_table)) or "–",
                    }
                    + " "
                    + corrections.keep_going_on()
                )
    if len(gone) > len(waiting):
        raise ServiceError(
            _(
                "After this correction %(names)s would no longer be out at %(table)s, but already play at "
                "%(tables)s, and nobody from %(table)s waits to take that seat. Correct nothing; only a "
                "correction that leaves the same players out at %(table)s can still be made."
            )
            % {
                "names": naming.and_list(entry.player.name for entry in gone),
                "table": str(table),
                "tables": corrections.tables_named(
                    [entry.seated_at_table for entry in gone if entry.seated_at_table is not None]
                ),
            }
        )
    return [
        corrections.Swap(table=entry.seated_at_table, leaves=entry.player_id, takes=newcomer.player_id)  # type: ignore[arg-type]
        for entry, newcomer in zip(gone, waiting, strict=False)
        if entry.seated_at_table is not None
    ]


def _after_swap(tournament: Tournament, swap: corrections.Swap, actor: User) -> None:
    """The pool: the player who left the seat never went; the one who took it is seated."""
    now = timezone.now()
    left = PoolEntry.objects.filter(player_id=swap.leaves, seated_at_table=swap.table)
    left.update(left_reason=PoolEntry.Left.UNDONE)
    PoolEntry.objects.filter(tournament=tournament, player_id=swap.takes, left_at__isnull=True).update(
        left_at=now, left_reason=PoolEntry.Left.SEATED, seated_at_table=swap.table
    )


CORRECTIONS = corrections.CorrectionHooks(
    refresh=refresh_table,
    rescore=_rescore,
    give_back=_give_back,
    downstream=_downstream,
    after_swap=_after_swap,
)


def next_step(
    *, tournament: Tournament, actor: User, action: str = "", choice: str = "", confirmed: bool = False
) -> StepDone:
    """One organiser action: seat the main round, form consolation tables from the pool, or
    seat the grand final.

    The tournament finishes only when the grand final's table closes, never early: nothing to
    confirm, ``confirmed`` is accepted (every format's step takes it) and not needed."""
    if action == "main":
        start_main_round(tournament=tournament, actor=actor, choice=choice)
        return StepDone(_("The main round is seated."))
    if action == "consolation":
        if not form_consolation_tables(tournament=tournament, actor=actor):
            return StepDone(_("Too few players are left for a table: they reach the grand final directly."))
        return StepDone(_("Consolation table seated from the waiting pool."))
    if action == "grand_final":
        start_grand_final(tournament=tournament, actor=actor)
        return StepDone(_("The grand final is seated."))
    raise UnknownStep(_("Unknown action."))


# The names the format's record reads (``tournament.formats.record.build``).
record_result = record_loss
result_entry = entries.LoserEntry(record_loss)
undo_result = undo_last_loss
