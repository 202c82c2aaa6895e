"""Rounds and tables: open a round, seat its tables, close it, finish the tournament.

Callers hold the tournament lock and bump its version (``tournament.writes``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import backups, enums, naming, seating
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.writes import User, audit, bump


def open_round(
    tournament: Tournament, *, stage: str, seed: int, algorithm: str, note: str = "", public_note: str = ""
) -> Round:
    """A new running round after the last one; ``stage_number`` counts the rounds of its stage.
    ``note`` is for the staff, ``public_note`` for the public pages (``Round.public_note``)."""
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
        public_note=public_note,
        started_at=timezone.now(),
    )


def in_play(tournament_id: int) -> QuerySet[Table]:
    """The tables of a tournament that hold their number: a table is in play while it plays, or
    while it is decided and its referee may still undo its last game, that is until it is
    closed (by its referee, the organiser, or because its players were seated elsewhere) or
    its round is finished (the next round of its stage seated: a finished round's tables take
    no more entries). A table stops holding its number exactly when its result can no longer
    change at the table, so a table that may still play on never shares its number."""
    return Table.objects.filter(round__tournament_id=tournament_id, round__status=enums.RoundStatus.RUNNING).exclude(
        status=enums.TableStatus.CLOSED
    )


def free_number(tournament_id: int, *, exclude: int | None = None) -> int:
    """The number a new table of the tournament takes (``seating.smallest_free_number``)."""
    held = in_play(tournament_id)
    if exclude is not None:
        held = held.exclude(pk=exclude)
    return seating.smallest_free_number(held.values_list("number", flat=True))


def free_numbers(tournament_id: int, reserved: Iterable[int] = ()) -> Iterator[int]:
    """The numbers the tables of a new round take, smallest first (``free_number`` for each
    table in turn), read once: seating a round of n tables reads the numbers in play once,
    not n times (n² rows for a big field). ``reserved`` numbers (fixed seats of players still
    in play, ``reserved_numbers``) are skipped: they are kept for their players' tables."""
    taken = set(in_play(tournament_id).values_list("number", flat=True)) | set(reserved)
    while True:
        number = seating.smallest_free_number(taken)
        taken.add(number)
        yield number


def seat_table(
    rnd: Round,
    players: Iterable[int],
    *,
    number: int | None = None,
    seat_fields: Mapping[str, Any] | None = None,
    **table_fields: Any,
) -> Table:
    """A new playing table of ``rnd`` with ``players`` in seat order, numbered with the smallest
    number no table of the tournament in play holds (``in_play``): a round seated after the last
    one closed numbers 1..n; rounds played at once (life bands' main and consolation rounds)
    share one sequence of numbers, the way the hall's physical tables are reused. A round seating
    many tables passes each one's ``number`` from one ``free_numbers`` sequence."""
    if number is None:
        number = free_number(rnd.tournament_id)
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
    knockout, of a split that does not lead to a final of the configured size). A knockout
    option with its ``forecast`` says what it seats now, naming every table outside the sizes,
    and the rounds it leads to (``forecast_label``)."""
    if option.forecast:
        return forecast_label(option)
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


def _round_name(planned: seating.PlannedRound) -> str:
    """The round's one name (``tournament.naming``: "Main round 2", "Lucky-loser round")."""
    return naming.round_name(planned.stage, planned.number)


def _outside_words(sizes: tuple[int, ...], preferred: int, largest: int) -> str:
    """The tables outside ``preferred``..``largest`` in words: "one table of 2", "7 tables of 2"."""
    counts: dict[int, int] = {}
    for size in sizes:
        if not preferred <= size <= largest:
            counts[size] = counts.get(size, 0) + 1
    return _(" and ").join(
        ngettext("one table of %(size)d", "%(count)d tables of %(size)d", count) % {"count": count, "size": size}
        for size, count in sorted(counts.items())
    )


def _round_words(planned: seating.PlannedRound, preferred: int, largest: int) -> str:
    """ "Main round 2 at tables of 3 + 3 + 2 (one table of 2)", "Lucky-loser round at one table of 5
    (outside 3 to 4)"."""
    values = {
        "round": _round_name(planned),
        "sizes": " + ".join(str(size) for size in planned.sizes),
        "preferred": preferred,
        "largest": largest,
    }
    outside = _outside_words(planned.sizes, preferred, largest)
    if len(planned.sizes) == 1:
        if outside:
            return _("%(round)s at one table of %(sizes)s, outside %(preferred)d to %(largest)d") % values
        return _("%(round)s at one table of %(sizes)s") % values
    step = _("%(round)s at tables of %(sizes)s") % values
    return f"{step} ({outside})" if outside else step


def _final_words(planned: seating.PlannedRound, final_size: int) -> str:
    players = planned.sizes[0]
    if planned.moved_up:
        return ngettext(
            "the best runner-up (most games won, then the lower start number) moves up into a final of "
            "%(players)d players",
            "the %(count)d best runners-up (most games won, then the lower start number) move up into a final of "
            "%(players)d players",
            planned.moved_up,
        ) % {"count": planned.moved_up, "players": players}
    if players != final_size:
        return _("a final of %(players)d players (the rules want %(final_size)d)") % {
            "players": players,
            "final_size": final_size,
        }
    return _("a final of %(players)d players") % {"players": players}


def forecast_label(option: seating.SeatingOption) -> str:
    """A knockout option in words: what it seats now, then the rounds it leads to as far as the
    counts tell (``SeatingOption.forecast``), each table outside the sizes named, the final's size
    and who moves up into it. A departure in a later round is chosen when it comes."""
    params = dict(option.params)
    preferred, largest, final_size = params["preferred"], params["largest"], params["final_size"]
    now, *later = option.forecast
    if option.code == seating.FINAL_OF_ALL:
        sentence = _("All %(players)d players play the final now: %(final)s.") % {
            "players": params["players"],
            "final": _final_words(now, final_size),
        }
    elif option.code in (seating.ONE_MORE_ADVANCES, seating.MORE_PLAYERS):
        sentence = _("Now %(final)s.") % {"final": _final_words(now, final_size)}
    else:
        sentence = _round_words(now, preferred, largest) + "."
        if option.code in (seating.ONE_FEWER, seating.FEWER_PLAYERS):
            sentence += " " + ngettext(
                "The weakest player of Main round 1 (fewest games won, then the higher start number) stays out.",
                "The %(count)d weakest players of Main round 1 (fewest games won, then the higher start number) "
                "stay out.",
                params["fewer"],
            ) % {"count": params["fewer"]}
    if later:
        sizes = {"preferred": preferred, "largest": largest, "final_size": final_size}
        sentence += " " + _("Then: %(rounds)s.") % {"rounds": forecast_words(later, **sizes)}
        if forecast_departs(later, **sizes):
            sentence += " " + _("A departure in a later round is asked again when it comes.")
    return sentence


def forecast_words(rounds: Iterable[seating.PlannedRound], *, preferred: int, largest: int, final_size: int) -> str:
    """Rounds of a forecast in words, each table outside ``preferred``..``largest`` named:
    "Lucky-loser round at tables of 3 + 3 + 2 (one table of 2); a final of 3 players"."""
    steps = []
    for planned in rounds:
        if planned.stage == enums.Stage.FINAL:
            steps.append(_final_words(planned, final_size))
        else:
            steps.append(_round_words(planned, preferred, largest))
    return "; ".join(steps)


def forecast_departs(rounds: Iterable[seating.PlannedRound], *, preferred: int, largest: int, final_size: int) -> bool:
    """A round of the forecast seats a table outside the sizes, moves a runner-up up or plays a
    final of another size."""
    for planned in rounds:
        if planned.stage == enums.Stage.FINAL:
            if planned.moved_up or planned.sizes[0] != final_size:
                return True
        elif any(not preferred <= size <= largest for size in planned.sizes):
            return True
    return False


def keep_numbers_apart(tables: Iterable[Table]) -> list[tuple[Table, int]]:
    """Tables taken back into play (a correction, a reopened table or round) whose number another
    table in play took meanwhile get the smallest free number; the table that went on playing
    keeps its own. Returns (table, its old number) for each table renumbered (for the audit and
    the organiser's message)."""
    moved = []
    for table in tables:
        if table.status == enums.TableStatus.CLOSED:
            continue
        tournament_id = table.round.tournament_id
        if not in_play(tournament_id).filter(number=table.number).exclude(pk=table.pk).exists():
            continue
        old = table.number
        table.number = free_number(tournament_id, exclude=table.pk)
        table.version += 1
        table.save(update_fields=["number", "version"])
        moved.append((table, old))
    return moved


# --------------------------------------------------------------------------
# Fixed seats (``Player.fixed_table``): a player kept at one table number
# --------------------------------------------------------------------------
#
# The table number is a place in the hall. The table holding a fixed player takes that number
# even if the round has fewer tables (the knockout's final of one table is played at the fixed
# table); the other tables take the smallest free numbers that are not reserved. A number
# reserved for a fixed player still in play (not eliminated, not withdrawn) is given to no
# other table, also where rounds are seated at once (life bands: ``free_numbers(reserved=)``).
# Players fixed to one number sit together (the desk refuses more than the largest table
# holds); players with different numbers sit at different tables. Where a round has fewer
# tables than distinct fixed numbers, or a table still playing holds the number, the lowest
# number wins and the round's note says in words whose fixed seat was not kept and why
# (``seating.place_fixed``). The pure seating does the moving; this part reads and words it.


def fixed_seats(player_ids: Iterable[int]) -> dict[int, int]:
    """Player id -> fixed table number, for the players given who have one."""
    return dict(
        Player.objects.filter(pk__in=list(player_ids), fixed_table__isnull=False).values_list("pk", "fixed_table")
    )


def reserved_numbers(tournament_id: int, players: Iterable[int] | None = None) -> set[int]:
    """The fixed numbers of the tournament's players still in play: ``players`` where the caller
    knows who is still in (knockout's round, life bands' survivors), else every checked-in one."""
    rows = Player.objects.filter(
        tournament_id=tournament_id, fixed_table__isnull=False, status=enums.PlayerStatus.CHECKED_IN
    )
    if players is not None:
        rows = rows.filter(pk__in=list(players))
    return set(rows.values_list("fixed_table", flat=True))


def met_pairs(tournament_id: int) -> dict[frozenset[int], int]:
    """How often each pair of the tournament sat at one table before (the fixed seats' cost in
    repeats, for the formats whose draw does not read the history)."""
    by_table: dict[int, list[int]] = {}
    for table_id, pid in Seat.objects.filter(table__round__tournament_id=tournament_id).values_list(
        "table_id", "player_id"
    ):
        by_table.setdefault(table_id, []).append(pid)
    counts: dict[frozenset[int], int] = {}
    for pids in by_table.values():
        for pair in seating.table_pairs([pids]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


@dataclass
class FixedRound:
    """A round's tables with their numbers: ``numbers[i]`` is table ``i``'s, ``fixed[i]`` whether
    that number is a fixed seat kept there (and ``needs[i]`` the need named), ``notes`` the staff's
    words (seats kept, seats not kept and why, the cost in repeats)."""

    tables: tuple[tuple[int, ...], ...]
    numbers: list[int]
    fixed: list[bool]
    needs: list[str]
    notes: list[str] = field(default_factory=list)

    def table_fields(self, index: int) -> dict[str, Any]:
        """The fields ``seat_table`` takes for table ``index``."""
        return {"number": self.numbers[index], "fixed_seat": self.fixed[index], "fixed_need": self.needs[index]}


def number_tables(
    tournament_id: int,
    tables: Sequence[Sequence[int]],
    wanted: Sequence[int | None],
    unkept: Sequence[seating.UnkeptSeat] = (),
    *,
    reserved: Iterable[int] = (),
    extra_repeats: int | None = None,
) -> FixedRound:
    """Number a round's tables: a table with a kept fixed seat (``wanted``) takes its number, the
    others the smallest free numbers that no table in play holds and no fixed player in play has
    reserved. ``extra_repeats`` (the repeated meetings the fixed seats cost against the seating
    without them) is said in the note where fixed seats were placed."""
    numbers_wanted = [number for number in wanted if number is not None]
    free = free_numbers(tournament_id, {*reserved, *numbers_wanted})
    numbers = [number if number is not None else next(free) for number in wanted]
    fixed = [number is not None for number in wanted]
    seated = [pid for table, number in zip(tables, wanted, strict=True) if number is not None for pid in table]
    rows = {
        pid: (name, number, need)
        for pid, name, number, need in Player.objects.filter(
            pk__in=[*seated, *(seat.player for seat in unkept)]
        ).values_list("pk", "name", "fixed_table", "seat_need")
    }
    needs = []
    kept: list[str] = []
    for table, number in zip(tables, wanted, strict=True):
        mine = [rows[pid] for pid in table if pid in rows and rows[pid][1] == number] if number is not None else []
        needs.append(next((need for _name, _number, need in mine if need), ""))
        kept += [_("%(name)s at table %(number)d") % {"name": name, "number": number} for name, number, _n in mine]
    notes = []
    if kept:
        notes.append(_("Fixed seats kept: %(seats)s.") % {"seats": naming.and_list(kept)})
    for seat in unkept:
        params = {"name": rows[seat.player][0] if seat.player in rows else "?", "number": seat.number}
        if seat.reason == seating.FIXED_NUMBER_HELD:
            notes.append(
                _("Fixed seat not kept for %(name)s (table %(number)d): that table is still in play.") % params
            )
        elif seat.reason == seating.FIXED_TABLE_FULL:
            notes.append(
                _(
                    "Fixed seat not kept for %(name)s (table %(number)d): more players are fixed to that table "
                    "than it has seats in this round."
                )
                % params
            )
        else:
            notes.append(
                _(
                    "Fixed seat not kept for %(name)s (table %(number)d): this round has fewer tables than fixed "
                    "table numbers; the lowest numbers were kept."
                )
                % params
            )
    if (kept or unkept) and extra_repeats is not None:
        notes.append(fixed_cost_words(extra_repeats))
    return FixedRound(tables=tuple(tuple(t) for t in tables), numbers=numbers, fixed=fixed, needs=needs, notes=notes)


def number_set_tables(tournament_id: int, tables: Sequence[Sequence[int]]) -> FixedRound:
    """Number tables whose players may not be moved between them (a points play-off: one table per
    tie): a table holding fixed players takes the lowest of their numbers that no table in play
    holds and no earlier table of these took; its other fixed players, and those of a table whose
    numbers are all taken, are said in the note as not kept (``number_tables``)."""
    pins = fixed_seats([pid for table in tables for pid in table])
    if not pins:
        return number_tables(tournament_id, tables, [None] * len(tables))
    held = set(in_play(tournament_id).values_list("number", flat=True))
    wanted: list[int | None] = []
    unkept: list[seating.UnkeptSeat] = []
    for table in tables:
        numbers = sorted({pins[pid] for pid in table if pid in pins})
        choice = next((number for number in numbers if number not in held and number not in wanted), None)
        wanted.append(choice)
        for pid in table:
            if pid in pins and pins[pid] != choice:
                # Held by a table in play, or taken by another table of these (whose seats are its own).
                reason = seating.FIXED_NUMBER_HELD if pins[pid] in held else seating.FIXED_TABLE_FULL
                unkept.append(seating.UnkeptSeat(player=pid, number=pins[pid], reason=reason))
    return number_tables(tournament_id, tables, wanted, unkept, reserved=reserved_numbers(tournament_id))


def fixed_cost_words(extra: int) -> str:
    """What the fixed seats cost in repeats, against the seating without them."""
    if extra <= 0:
        return _("Fixed seats: cost no repeats.")
    return ngettext(
        "Fixed seats: %(count)d more repeated meeting.", "Fixed seats: %(count)d more repeated meetings.", extra
    ) % {"count": extra}


def place_and_number(
    tournament_id: int,
    tables: Sequence[Sequence[int]],
    *,
    reserved: Iterable[int] | None = None,
    clubs: Mapping[int, str] | None = None,
) -> FixedRound:
    """A drawn round (knockout, life bands) with its fixed players moved to their tables
    (``seating.place_fixed``; numbers a table in play holds are not kept) and numbered
    (``number_tables``). The note compares the repeats with the draw as it came.
    ``reserved``: the fixed numbers of the players still in play (default: the round's own)."""
    ids = [pid for table in tables for pid in table]
    pins = fixed_seats(ids)
    if not pins:
        return number_tables(tournament_id, tables, [None] * len(tables), reserved=reserved or ())
    held = set(in_play(tournament_id).values_list("number", flat=True))
    met = met_pairs(tournament_id)
    placement = seating.place_fixed(tables, pins, held=held, met=met, clubs=clubs)
    extra = seating.count_repeated_pairs(placement.tables, met) - seating.count_repeated_pairs(tables, met)
    return number_tables(
        tournament_id,
        placement.tables,
        placement.numbers,
        placement.unkept,
        reserved=set(pins.values()) if reserved is None else reserved,
        extra_repeats=extra,
    )
