"""Writes of the points format: seating rounds that keep players who met apart,
and the card scoring table. Games are recorded with ``play_services.record_game``
(penalty points for every hand still holding cards; the winner takes 0).

Contract as in ``tournament.services``.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import GameScore, GameStatus
from games.rules import uno
from tournament import draws, enums, seating
from tournament.formats import points as points_format
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.services import ServiceError, User, _audit, _bump, _lock_tournament


def _history(tournament: Tournament) -> list[list[list[int]]]:
    """Every earlier round's tables as lists of player ids, oldest first."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "player_id")
    )
    for round_number, table_number, pid in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(pid)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def start_round(*, tournament: Tournament, actor: User, seed: int | None = None) -> Round:
    """Seat the next round: every checked-in player, at tables of 3-4, with the
    fewest repeated pairs (then the fewest repeats from the last round).

    Refused while a table of the current round still plays, and after the
    planned number of rounds. The seed, algorithm and repeated pairs are stored.
    """
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        if locked.format != enums.Format.POINTS:
            raise ServiceError(_("This tournament does not use the points format."))
        if locked.status == enums.TournamentStatus.FINISHED:
            raise ServiceError(_("The tournament is finished."))
        current = Round.objects.filter(tournament=locked).order_by("-number").first()
        if current is not None:
            playing = current.tables.filter(status=enums.TableStatus.PLAYING).values_list("number", flat=True)
            if playing:
                raise ServiceError(
                    _("Tables still playing: %(tables)s.") % {"tables": ", ".join(str(n) for n in playing)}
                )
            if current.number >= locked.rounds_planned:
                raise ServiceError(_("All %(count)d rounds have been played.") % {"count": locked.rounds_planned})
        if current is None and not locked.draws.exists():
            raise ServiceError(_("Draw the start numbers before the first round."))
        players = list(
            Player.objects.filter(tournament=locked, status=enums.PlayerStatus.CHECKED_IN).values_list("pk", "club")
        )
        if len(players) < points_format.SPEC.min_players:
            raise ServiceError(
                _("At least %(needed)d checked-in players are needed.") % {"needed": points_format.SPEC.min_players}
            )
        history = _history(locked)
        met = points_format.met_pairs(history)
        last_pairs = seating.table_pairs(history[-1]) if history else set()
        seed = draws.new_seed() if seed is None else seed
        try:
            plan = seating.seat_avoiding_repeats(
                [seating.SeatingPlayer(id=pid, club=club) for pid, club in players],
                seed,
                met,
                last_pairs,
                locked.table_size,
                locked.table_size_max,
            )
        except seating.SeatingImpossible:
            raise ServiceError(
                _("%(players)d players cannot be split into tables of %(min)d to %(max)d.")
                % {"players": len(players), "min": locked.table_size, "max": locked.table_size_max}
            ) from None
        now = timezone.now()
        if current is not None:
            current.tables.filter(status=enums.TableStatus.DECIDED).update(
                status=enums.TableStatus.CLOSED, closed_at=now
            )
            current.status = enums.RoundStatus.FINISHED
            current.finished_at = current.finished_at or now
            current.save(update_fields=["status", "finished_at"])
        number = (current.number + 1) if current else 1
        new_round = Round.objects.create(
            tournament=locked,
            number=number,
            stage_number=number,
            stage=enums.Stage.MAIN,
            status=enums.RoundStatus.RUNNING,
            seed=seed,
            seating_algorithm=plan.algorithm,
            seating_note=_("Repeated pairs: %(pairs)d (from the last round: %(last)d).")
            % {"pairs": plan.repeated_pairs, "last": plan.repeats_from_last_round},
            started_at=now,
        )
        for table_number, table_players in enumerate(plan.tables, start=1):
            table = Table.objects.create(round=new_round, number=table_number, started_at=now)
            Seat.objects.bulk_create(
                Seat(table=table, player_id=pid, position=position) for position, pid in enumerate(table_players)
            )
        locked.status = enums.TournamentStatus.RUNNING
        locked.save(update_fields=["status"])
        _bump(locked)
        _audit(
            locked,
            actor,
            "points_round_started",
            round=number,
            seed=seed,
            repeated_pairs=plan.repeated_pairs,
        )
    return new_round


def finish(*, tournament: Tournament, actor: User) -> Tournament:
    """End the tournament after the last round: the standings become final."""
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        if locked.status == enums.TournamentStatus.FINISHED:
            raise ServiceError(_("The tournament is finished."))
        current = Round.objects.filter(tournament=locked).order_by("-number").first()
        if current is None or current.tables.filter(status=enums.TableStatus.PLAYING).exists():
            raise ServiceError(_("Tables are still playing."))
        now = timezone.now()
        current.tables.filter(status=enums.TableStatus.DECIDED).update(status=enums.TableStatus.CLOSED, closed_at=now)
        current.status = enums.RoundStatus.FINISHED
        current.finished_at = current.finished_at or now
        current.save(update_fields=["status", "finished_at"])
        locked.status = enums.TournamentStatus.FINISHED
        locked.save(update_fields=["status"])
        _bump(locked)
        _audit(locked, actor, "tournament_finished")
    return locked


def set_scoring_table(*, tournament: Tournament, actor: User, values: Mapping[str, object]) -> Tournament:
    """Change the card scoring table; locked once any card points are recorded."""
    try:
        clean = uno.validate_scoring_table(values)
    except uno.InvalidScoringTable:
        raise ServiceError(_("Every action card needs a value of 0 or more.")) from None
    with transaction.atomic():
        locked = _lock_tournament(tournament.pk)
        if GameScore.objects.filter(game__table__round__tournament=locked, game__status=GameStatus.VALID).exists():
            raise ServiceError(_("Card points have been recorded: the scoring table is locked."))
        locked.scoring_table = clean
        locked.save(update_fields=["scoring_table"])
        _bump(locked)
        _audit(locked, actor, "scoring_table_changed", values=clean)
    return locked


def scoring_locked(tournament: Tournament) -> bool:
    """As ``set_scoring_table`` decides: card points of a valid game lock the table."""
    return GameScore.objects.filter(game__table__round__tournament=tournament, game__status=GameStatus.VALID).exists()


# --- reads ---------------------------------------------------------------------------


def standings(tournament: Tournament) -> list[tuple[points_format.StandingRow, Player]]:
    """Standings over every valid game (fixed query count)."""
    players = {
        p.pk: p
        for p in Player.objects.filter(
            tournament=tournament,
            status__in=[enums.PlayerStatus.CHECKED_IN, enums.PlayerStatus.WITHDRAWN],
        )
    }
    scores = GameScore.objects.filter(
        game__table__round__tournament=tournament, game__status=GameStatus.VALID
    ).values_list("game_id", "game__table__round__number", "game__winner_id", "player_id", "points")
    games: dict[int, tuple[int, int, dict[int, int]]] = {}
    for game_id, round_number, winner, pid, value in scores:
        games.setdefault(game_id, (round_number, winner, {}))[2][pid] = value
    played = {pid for _r, _w, pts in games.values() for pid in pts}
    # A withdrawn player keeps their points but is listed only if they played.
    start = {
        pid: p.start_number or 0
        for pid, p in players.items()
        if p.status == enums.PlayerStatus.CHECKED_IN or pid in played
    }
    rows = points_format.standings(
        start,
        [points_format.GameResult(round_number=r, winner=w, points=pts) for r, w, pts in games.values()],
    )
    return [(row, players[row.player_id]) for row in rows]


def rounds_played(tournament: Tournament) -> int:
    return Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0
