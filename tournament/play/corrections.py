"""The organiser's corrections: a game corrected or voided at any table (also a closed one,
also after the next round was seated), the first dealer changed, a closed table reopened.

A correction never edits a game: the old game is marked ``superseded`` (or ``voided``)
with who, when and why, and a new game with the same number takes its place
(``Game.supersedes``). The table is then recomputed from its valid games by the
format's ``refresh_table``, exactly as after a referee's tap, and the format says
what that means downstream (``CorrectionHooks.downstream``): a seat of a later
round that now belongs to another player (``Swap``), and the tables whose games
would have to be voided for it.

Consequences are shown before they happen: every correction runs first inside a
savepoint, the tournament's state before and after is compared (tables decided or
open again, places, who goes on, who is out, chips, points, seats handed over,
the ranking), and the savepoint is rolled back. The service then raises
``ConfirmConsequences`` with those lines and a fingerprint of them; called again
with ``confirm`` set to that fingerprint (nothing changed in between) it keeps the
change. Where carrying the change downstream would rewrite games already played
there, the lines name those tables and only two ways are offered: void those
games too (``void_downstream``) or correct nothing.

The game corrections take the tournament's format (``registry.of(tournament)``) from their
caller: this module never looks a format up, so the formats' records can name its hooks
without an import cycle.

Every service here takes keyword arguments, locks the tournament first, audits
(``game_corrected``, ``game_voided``, ``first_dealer_changed``, ``table_reopened``)
and bumps the version; refusals are audited (``refusals_audited``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, GameStatus
from tournament import enums, naming
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.play import rounds
from tournament.play.core import lock_table, refuse_stale
from tournament.writes import User, acting_user, audit, bump, lock_tournament, refusals_audited

if TYPE_CHECKING:  # the format's record names this module's hooks: imported for the types only
    from tournament.formats.record import Format

REASON_MAX = 300


@dataclass(frozen=True)
class Swap:
    """A seat of a later round that now belongs to another player: ``takes`` replaces ``leaves``
    at ``table``."""

    table: Table
    leaves: int
    takes: int


@dataclass(frozen=True)
class CorrectionHooks:
    """What a format gives the corrections (``Format.corrections``).

    - ``refresh``: recompute a table from its valid games (the same as after a tap).
    - ``rescore``: write what a new (correcting) game carries beyond winner and loser:
      card points (UNO formats, from ``card_points``/``hands`` like a tap) or the chip
      handed in (life bands). Refuses bad values with ``ServiceError``.
    - ``give_back``: what a voided or superseded game had moved (life bands: its chip and band).
    - ``downstream``: after the refresh, the seats of later rounds that now belong to
      someone else; raises ``ServiceError`` where the change cannot be carried on.
    - ``after_swap``: the format's bookkeeping once a swap was made (life bands: the pool).
    """

    refresh: Callable[[Tournament, Table, User], None]
    rescore: Callable[[Tournament, Table, Game, Mapping[int, int] | None, Mapping[int, Mapping[str, int]] | None], None]
    give_back: Callable[[Tournament, Table, Game, User], None]
    downstream: Callable[[Tournament, Table], list[Swap]]
    after_swap: Callable[[Tournament, Swap, User], None]


def no_give_back(tournament: Tournament, table: Table, game: Game, actor: User) -> None:
    return None


def no_swaps(tournament: Tournament, table: Table) -> list[Swap]:
    return []


def nothing_after_swap(tournament: Tournament, swap: Swap, actor: User) -> None:
    return None


class ConfirmConsequences(NeedsConfirmation):
    """The correction is allowed, but changes what ``lines`` say: confirm with ``fingerprint``.

    ``blocked`` names the tables downstream whose played games would have to be voided
    (confirming then needs ``void_downstream``)."""

    def __init__(self, message: str, *, lines: list[str], blocked: list[str], fingerprint: str) -> None:
        super().__init__(message, kind="consequences")
        self.lines = lines
        self.blocked = blocked
        self.fingerprint = fingerprint


@dataclass
class _Outcome:
    lines: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)


# --- the services ------------------------------------------------------------------------


@refusals_audited("correct_game")
def correct_game(
    *,
    tournament: Tournament,
    fmt: Format,
    actor: User,
    table_id: int,
    game_id: int,
    version: int,
    reason: str,
    winner_id: int | None = None,
    loser_id: int | None = None,
    card_points: Mapping[int, int] | None = None,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    confirm: str = "",
    void_downstream: bool = False,
) -> Game:
    """Replace a valid game by a corrected one: another winner (UNO), loser (life bands) or
    other card points. Returns the new game once confirmed; raises ``ConfirmConsequences``
    until then. Refused: no reason, a game already corrected or voided, a stale ``version``,
    a winner or loser not at the table, bad card points, a change that cannot be carried on."""

    def change(locked: Tournament, table: Table, game: Game, reason: str) -> tuple[Game, str]:
        if fmt.records_loser:
            if loser_id is None or not table.seats.filter(player_id=loser_id).exists():
                raise ServiceError(_("Choose the player who lost the game; they must sit at this table."))
        elif winner_id is None or not table.seats.filter(player_id=winner_id).exists():
            raise ServiceError(_("Choose the player who won the game; they must sit at this table."))
        _retire(game, GameStatus.SUPERSEDED, actor, reason)
        new = Game.objects.create(
            table=table,
            number=game.number,
            winner_id=None if fmt.records_loser else winner_id,
            loser_id=loser_id if fmt.records_loser else None,
            dealer_position=game.dealer_position,
            supersedes=game,
            correction_reason=reason,
            entered_by=acting_user(actor),
        )
        fmt.corrections.give_back(locked, table, game, actor)
        fmt.corrections.rescore(locked, table, new, card_points, hands)
        return new, _game_line(game, new)

    return _apply_correction(
        _CorrectionCall(tournament, fmt, actor, table_id, game_id, version, reason, confirm, void_downstream),
        change=change,
        action="game_corrected",
    )


@refusals_audited("void_game")
def void_game(
    *,
    tournament: Tournament,
    fmt: Format,
    actor: User,
    table_id: int,
    game_id: int,
    version: int,
    reason: str,
    confirm: str = "",
    void_downstream: bool = False,
) -> Game:
    """Void any valid game of a table (kept, struck through, with the reason). Returns the voided
    game once confirmed; raises ``ConfirmConsequences`` until then."""

    def change(locked: Tournament, table: Table, game: Game, reason: str) -> tuple[Game, str]:
        _retire(game, GameStatus.VOIDED, actor, reason)
        fmt.corrections.give_back(locked, table, game, actor)
        return game, _("Game %(number)d is voided (%(what)s).") % {"number": game.number, "what": _describe(game)}

    return _apply_correction(
        _CorrectionCall(tournament, fmt, actor, table_id, game_id, version, reason, confirm, void_downstream),
        change=change,
        action="game_voided",
    )


@refusals_audited("change_first_dealer")
def change_first_dealer(
    *, tournament: Tournament, actor: User, table_id: int, player_id: int, version: int, reason: str
) -> Table:
    """The organiser changes who dealt first, also after games were played: the dealer of every
    valid game is renumbered from the new first dealer. Results do not change."""
    reason = _reason(reason)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        refuse_stale(table, version)
        seats = list(table.seats.order_by("position"))
        seat = next((s for s in seats if s.player_id == player_id), None)
        if seat is None:
            raise ServiceError(_("This player does not sit at %(table)s.") % {"table": naming.of_table(table)})
        before = table.first_dealer_position
        table.first_dealer_position = seat.position
        games = list(table.games.filter(status=GameStatus.VALID).order_by("number"))
        for index, game in enumerate(games):
            game.dealer_position = (seat.position + index) % len(seats)
        Game.objects.bulk_update(games, ["dealer_position"])
        table.version += 1
        table.save(update_fields=["first_dealer_position", "version"])
        bump(locked)
        audit(
            locked,
            actor,
            "first_dealer_changed",
            table=table.pk,
            player=player_id,
            was=before,
            position=seat.position,
            reason=reason,
        )
    return table


@refusals_audited("reopen_table")
def reopen_table(*, tournament: Tournament, actor: User, table_id: int, version: int, reason: str) -> Table:
    """Take back a table's close: it is decided again, the referee can undo and record, and
    its round (and a finished tournament) runs again. Refused once anything was built on the
    table (a later round seated, its players seated elsewhere): correct its games instead."""
    reason = _reason(reason)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        refuse_stale(table, version)
        if table.status != enums.TableStatus.CLOSED:
            raise ServiceError(_("%(table)s is not closed.") % {"table": naming.of_table(table)})
        if not reopenable(table):
            raise ServiceError(
                _(
                    "%(table)s can no longer be reopened: its players already sit at later tables (%(later)s). "
                    "To change its result, correct a game instead: a new winner is carried on to the later "
                    "tables where that is still possible."
                )
                % {"table": naming.of_table(table), "later": later_tables_named(table)}
            )
        table.status = enums.TableStatus.DECIDED
        table.closed_at = table.confirmed_at = table.confirmed_by = None
        table.version += 1
        table.save(update_fields=["status", "closed_at", "confirmed_at", "confirmed_by", "version"])
        _reopen_round(locked, table.round, actor, also=[table])
        bump(locked)
        audit(locked, actor, "table_reopened", table=table.pk, reason=reason)
    return table


# --- the shared path ----------------------------------------------------------------------


@dataclass(frozen=True)
class _CorrectionCall:
    """What a game correction's caller asked for (the arguments ``correct_game`` and ``void_game`` share)."""

    tournament: Tournament
    fmt: Format
    actor: User
    table_id: int
    game_id: int
    version: int
    reason: str
    confirm: str
    void_downstream: bool


def _apply_correction(
    call: _CorrectionCall,
    *,
    change: Callable[[Tournament, Table, Game, str], tuple[Game, str]],
    action: str,
) -> Game:
    """The path every game correction takes (see the module docstring): ``change`` retires the
    game and writes its replacement."""
    tournament, fmt, actor, table_id, game_id = call.tournament, call.fmt, call.actor, call.table_id, call.game_id
    version, confirm, void_downstream = call.version, call.confirm, call.void_downstream
    reason = _reason(call.reason)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        refuse_stale(table, version)
        game = Game.objects.select_for_update().filter(pk=game_id, table=table).first()
        if game is None:
            raise ServiceError(_("This game does not exist at %(table)s.") % {"table": naming.of_table(table)})
        if game.status != GameStatus.VALID:
            raise ServiceError(
                _("Game %(number)d was already corrected or voided; reload the page.") % {"number": game.number}
            )
        before = _state(locked, fmt)
        was_closed = table.status == enums.TableStatus.CLOSED
        result, game_line = change(locked, table, game, reason)
        fmt.corrections.refresh(locked, table, actor)
        table.refresh_from_db()
        outcome = _Outcome(lines=[game_line])
        _keep_or_reopen(locked, table, was_closed=was_closed, records_loser=fmt.records_loser)
        for swap in fmt.corrections.downstream(locked, table):
            _swap(locked, fmt, swap, actor, outcome, void_downstream=void_downstream)
            fmt.corrections.after_swap(locked, swap, actor)
        outcome.lines += _differences(before, _state(locked, fmt), skip_tables={table.pk})
        fingerprint = hashlib.sha256("\n".join(outcome.lines + outcome.blocked).encode()).hexdigest()[:16]
        if confirm != fingerprint or (outcome.blocked and not void_downstream):
            # Leaving the block with the exception rolls everything above back.
            raise ConfirmConsequences(
                _("Check what the correction changes, then confirm."),
                lines=outcome.lines,
                blocked=outcome.blocked,
                fingerprint=fingerprint,
            )
        bump(locked)
        audit(
            locked,
            actor,
            action,
            table=table.pk,
            game=game.number,
            reason=reason,
            was=_describe(game),
            now=_describe(result) if result.status == GameStatus.VALID else "",
            consequences=outcome.lines,
        )
    return result


def _reason(reason: str) -> str:
    text = " ".join((reason or "").split())
    if not text:
        raise ServiceError(
            _("Say why: a correction needs a reason (for example: the referee tapped the wrong player).")
        )
    if len(text) > REASON_MAX:
        raise ServiceError(_("The reason is too long (at most %(max)d characters).") % {"max": REASON_MAX})
    return text


def _retire(game: Game, status: str, actor: User, reason: str) -> None:
    game.status = status
    game.voided_at = timezone.now()
    game.voided_by = acting_user(actor)
    game.void_reason = reason
    game.save(update_fields=["status", "voided_at", "voided_by", "void_reason"])


def _describe(game: Game) -> str:
    if game.loser_id is not None:
        return _("lost by %(name)s") % {"name": game.loser.name}  # type: ignore[union-attr]
    if game.winner_id is not None:
        points = sum(score.points for score in game.scores.all())
        if points:
            return _("won by %(name)s, %(points)d points") % {"name": game.winner.name, "points": points}  # type: ignore[union-attr]
        return _("won by %(name)s") % {"name": game.winner.name}  # type: ignore[union-attr]
    return _("no result")


def _game_line(old: Game, new: Game) -> str:
    return _("Game %(number)d: %(now)s instead of %(was)s.") % {
        "number": new.number,
        "now": _describe(new),
        "was": _describe(old),
    }


def reopenable(table: Table) -> bool:
    """A closed table can be reopened while nothing was built on it (see ``reopen_table``)."""
    return (
        table.status == enums.TableStatus.CLOSED
        and not _later_rounds(table).exists()
        and not _players_seated_later(table)
    )


def _later_rounds(table: Table) -> Any:
    return Round.objects.filter(tournament_id=table.round.tournament_id, number__gt=table.round.number)


def keep_going_on() -> str:
    """What is left to do when a correction would have to seat a later table again."""
    return _(
        "Correct nothing; only a correction that leaves the same players going on (another game, card points) "
        "can still be made."
    )


def later_tables(table: Table) -> list[Table]:
    """The tables seated after ``table`` where its players sit: in later rounds, and (rounds played
    at once, a final's duels) tables created after it. In order of round and number."""
    players = table.seats.values_list("player_id", flat=True)
    return list(
        Table.objects.filter(round__tournament_id=table.round.tournament_id, seats__player_id__in=players)
        .filter(Q(round__number__gt=table.round.number) | Q(pk__gt=table.pk))
        .exclude(pk=table.pk)
        .select_related("round")
        .distinct()
        .order_by("round__number", "number")
    )


def later_tables_named(table: Table) -> str:
    """The later tables built on ``table`` by their one names ("Final · Table 1"); where none holds
    its players, the later rounds ("Final")."""
    tables = later_tables(table)
    if tables:
        return tables_named(tables)
    return naming.names_list([str(rnd) for rnd in _later_rounds(table).order_by("number")])


def tables_named(tables: list[Table]) -> str:
    """Tables by their one names, their rounds read with them: "Final · Table 1, Final · Duel"."""
    return naming.names_list([naming.of_table(table) for table in tables])


def tally(table: Table, records_loser: bool) -> str:
    """Where each player of ``table`` stands, in words: games won (or points, in a final to points;
    chips left where a game is recorded by its loser): "Anna with 2 games won, Ben with 2 games won"."""
    parts = []
    for seat in table.seats.select_related("player").order_by("position"):
        if records_loser:
            part = ngettext("%(name)s with %(count)d chip left", "%(name)s with %(count)d chips left", seat.chips)
            count = seat.chips
        elif table.points_target is not None:
            part = ngettext("%(name)s with %(count)d point", "%(name)s with %(count)d points", seat.points)
            count = seat.points
        else:
            part = ngettext("%(name)s with %(count)d game won", "%(name)s with %(count)d games won", seat.games_won)
            count = seat.games_won
        parts.append(part % {"name": seat.player.name, "count": count})
    return ", ".join(parts)


def _players_seated_later(table: Table) -> bool:
    """Someone from this table already sits at a table created after it (parallel rounds)."""
    players = table.seats.values_list("player_id", flat=True)
    return Seat.objects.filter(
        table__round__tournament_id=table.round.tournament_id, table__pk__gt=table.pk, player_id__in=players
    ).exists()


def _keep_or_reopen(tournament: Tournament, table: Table, *, was_closed: bool, records_loser: bool) -> None:
    """After the refresh: a closed table that is still decided stays closed; one that is no longer
    decided plays again (its round and a finished tournament run again), unless later tables
    were seated from it: a table cannot play on once its players sit elsewhere, so the refusal
    names the table, where it stands and the later tables, and says what can still be done
    (``entry``: the format's, for the tally's words)."""
    if table.status == enums.TableStatus.DECIDED and was_closed:
        table.status = enums.TableStatus.CLOSED
        table.closed_at = timezone.now()
        table.save(update_fields=["status", "closed_at"])
        return
    if table.status == enums.TableStatus.PLAYING and (was_closed or table.round.status == enums.RoundStatus.FINISHED):
        if _later_rounds(table).exists() or _players_seated_later(table):
            raise ServiceError(
                _(
                    "After this correction %(table)s would no longer be decided (%(tally)s): it would need "
                    "more games, but its players already sit at later tables (%(later)s), so it cannot play "
                    "on. Correct nothing; or, if a different game was entered wrongly, correct that one so "
                    "that the table stays decided."
                )
                % {
                    "table": naming.of_table(table),
                    "tally": tally(table, records_loser),
                    "later": later_tables_named(table),
                }
            )
        table.closed_at = None
        table.save(update_fields=["closed_at"])
        _reopen_round(tournament, table.round, also=[table])


def _reopen_round(tournament: Tournament, rnd: Round, actor: User | None = None, *, also: Iterable[Table] = ()) -> None:
    """``rnd`` (and a finished tournament) runs again. Its tables not closed, and ``also``, are
    in play again: one whose number a table seated meanwhile holds gets a free number
    (``rounds.keep_numbers_apart``), audited, so that no two tables in play share a number."""
    if rnd.status == enums.RoundStatus.FINISHED:
        rnd.status = enums.RoundStatus.RUNNING
        rnd.finished_at = None
        rnd.save(update_fields=["status", "finished_at"])
    if tournament.status == enums.TournamentStatus.FINISHED:
        tournament.status = enums.TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    back = {table.pk: table for table in [*rnd.tables.exclude(status=enums.TableStatus.CLOSED), *also]}
    for table, was in rounds.keep_numbers_apart(back.values()):
        audit(tournament, actor, "table_renumbered", table=table.pk, was=was, number=table.number)


def _swap(
    tournament: Tournament, fmt: Format, swap: Swap, actor: User, outcome: _Outcome, *, void_downstream: bool
) -> None:
    """Hand a seat downstream to another player; its played games are voided too (when allowed)."""
    table = swap.table
    names = dict(Player.objects.filter(pk__in=[swap.leaves, swap.takes]).values_list("pk", "name"))
    where = naming.of_table(table)
    played = list(table.games.filter(status=GameStatus.VALID).order_by("number"))
    line = _("%(where)s: %(takes)s replaces %(leaves)s") % {
        "takes": names.get(swap.takes, "?"),
        "leaves": names.get(swap.leaves, "?"),
        "where": where,
    }
    if not played:
        outcome.lines.append(line + "; " + _("no game has been played there yet."))
    else:
        outcome.blocked.append(
            ngettext(
                "%(where)s: %(count)d game played there would be voided.",
                "%(where)s: %(count)d games played there would be voided.",
                len(played),
            )
            % {"where": where, "count": len(played)}
        )
        voided = ngettext("its %(count)d game is voided.", "its %(count)d games are voided.", len(played))
        outcome.lines.append(line + "; " + voided % {"count": len(played)})
        if table.status == enums.TableStatus.CLOSED and (_later_rounds(table).exists() or _players_seated_later(table)):
            raise ServiceError(
                _(
                    "After this correction %(takes)s would take the seat of %(leaves)s at %(where)s. That table "
                    "is already played and closed, and its players already sit at later tables (%(later)s): "
                    "its games can no longer be voided and played again."
                )
                % {
                    "takes": names.get(swap.takes, "?"),
                    "leaves": names.get(swap.leaves, "?"),
                    "where": where,
                    "later": later_tables_named(table),
                }
                + " "
                + keep_going_on()
            )
        for game in played:
            _retire(game, GameStatus.VOIDED, actor, _("voided by a correction at an earlier table"))
            fmt.corrections.give_back(tournament, table, game, actor)
    Seat.objects.filter(table=table, player_id=swap.leaves).update(player_id=swap.takes)
    locked = Table.objects.select_for_update().get(pk=table.pk)
    was_closed = locked.status == enums.TableStatus.CLOSED
    fmt.corrections.refresh(tournament, locked, actor)
    locked.refresh_from_db()
    if was_closed and locked.status == enums.TableStatus.PLAYING:
        locked.closed_at = None
        locked.save(update_fields=["closed_at"])
        _reopen_round(tournament, locked.round, actor, also=[locked])
    elif was_closed:
        locked.status = enums.TableStatus.CLOSED
        locked.save(update_fields=["status"])


# --- what changed -------------------------------------------------------------------------

_SEAT_FIELDS = ("games_won", "points", "chips", "place", "advances", "out_order")
# A format ranked during play (points) has no chips and nobody going on or out at a table: its
# seats change in games won, the round's points and the place at the table.
_STANDINGS_SEAT_FIELDS = ("games_won", "points", "place")


def _state(tournament: Tournament, fmt: Format) -> dict[str, Any]:
    """Everything a correction may change, keyed for comparison (four queries)."""
    seats = {
        (seat.table_id, seat.player_id): seat
        for seat in Seat.objects.filter(table__round__tournament=tournament).select_related("player", "table__round")
    }
    round_names: dict[int, str] = {}  # translated once per round
    tables = {}
    for table in Table.objects.filter(round__tournament=tournament).select_related("round"):
        if table.round_id not in round_names:
            round_names[table.round_id] = str(table.round)
        name = naming.table_name(
            round_names[table.round_id], table.number, is_duel=table.is_duel, duel_for_place=table.duel_for_place
        )
        tables[table.pk] = (table.status, name)
    ranking = {row.player.pk: (row.place, row.player.name, row.points) for row in fmt.ranking(tournament)}
    seat_fields = _STANDINGS_SEAT_FIELDS if fmt.live_standings else _SEAT_FIELDS
    return {"seats": seats, "tables": tables, "ranking": ranking, "status": tournament.status, "fields": seat_fields}


def _seat_value(seat: Seat, name: str) -> Any:
    return getattr(seat, name)


def _differences(before: Mapping[str, Any], after: Mapping[str, Any], *, skip_tables: set[int]) -> list[str]:
    """The changes in words: tables decided or open again, each seat's tallies, the ranking."""
    lines: list[str] = []
    for pk, (status, where) in after["tables"].items():
        was = before["tables"].get(pk)
        if was is None:
            lines.append(_("%(where)s is new.") % {"where": where})
        elif was[0] != status:
            lines.append(
                _("%(where)s: %(was)s → %(now)s.")
                % {"where": where, "was": enums.TableStatus(was[0]).label, "now": enums.TableStatus(status).label}
            )
    for pk, (_status, where) in before["tables"].items():
        if pk not in after["tables"]:
            lines.append(_("%(where)s is dropped.") % {"where": where})
    for key, seat in after["seats"].items():
        old = before["seats"].get(key)
        if old is None:
            continue
        changes = [
            _field_change(name, _seat_value(old, name), _seat_value(seat, name))
            for name in after["fields"]
            if _seat_value(old, name) != _seat_value(seat, name)
        ]
        if changes:
            lines.append(
                _("%(where)s, %(name)s: %(changes)s.")
                % {"where": after["tables"][key[0]][1], "name": seat.player.name, "changes": ", ".join(changes)}
            )
    # Where the ranking counts points (the points format's total), a changed total is said with the place.
    moved = []
    for pid, (place, name, total) in after["ranking"].items():
        was_place, _name, was_total = before["ranking"].get(pid, (None, name, None))
        if was_place != place or (total is not None and was_total is not None and was_total != total):
            moved.append((place, name, was_place, total, was_total))
    for place, name, was, total, was_total in sorted(moved, key=lambda row: (row[0] is None, row[0] or 0)):
        if total is not None and was_total is not None and was_total != total:
            lines.append(
                _("Standings: %(name)s %(was_total)d → %(total)d points, %(now)s (was %(was)s).")
                % {"name": name, "was_total": was_total, "total": total, "now": _place(place), "was": _place(was)}
            )
        else:
            lines.append(
                _("Ranking: %(name)s %(now)s (was %(was)s).") % {"name": name, "now": _place(place), "was": _place(was)}
            )
    if before["status"] != after["status"]:
        lines.append(_("The tournament runs again: it is no longer finished."))
    return lines


def _place(place: int | None) -> str:
    return _("place %(place)d") % {"place": place} if place else _("no place yet")


def _field_change(name: str, was: Any, now: Any) -> str:
    labels = {
        "games_won": _("games won"),
        "points": _("points"),
        "chips": _("chips"),
        "place": _("place at the table"),
        "advances": _("goes on"),
        "out_order": _("out"),
    }

    def shown(value: Any) -> str:
        if value is None:
            return "–"
        if value is True:
            return _("yes")
        if value is False:
            return _("no")
        return str(value)

    return f"{labels[name]} {shown(was)} → {shown(now)}"
