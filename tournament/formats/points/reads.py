"""Reads of the points format: the seating history, the standings, and what its
pages show beyond the common parts. Fixed query counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import GameScore, GameStatus
from tournament import enums
from tournament.formats.points import rules as points
from tournament.formats.record import START_NUMBER_RULE, Label, PublicExtras, RankedPlayer, Standing, ranked_players
from tournament.models import Player, Round, Seat, Table, Tournament

# The ranking page's title, the columns it fills beyond place and name, and whether the
# ranking means something while play goes on (the public pages then show it as standings).
RANKING_TITLE = gettext_lazy("Standings")
# "reached" holds the participation note (``participation_note``: joined late, paused, withdrew).
RANKING_COLUMNS = ("reached", "points", "games_won", "games_played", "best_round")
LIVE_STANDINGS = True
RULE_LABELS: dict[str, Label] = {
    points.RULE_TOTAL: gettext_lazy("fewer points"),
    points.RULE_GAMES_WON: gettext_lazy("tie: more games won"),
    points.RULE_BEST_ROUND: gettext_lazy("tie: lower best round"),
    **START_NUMBER_RULE,
}


def history(tournament: Tournament) -> list[list[list[int]]]:
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


def ranking(tournament: Tournament) -> list[Standing]:
    """Standings over every valid game: fewer points, more games won, lower best round, start number.

    Every seated round a listed player has no seat in (a late arrival's first rounds, a
    pause, the rounds after a withdrawal) counts as that round's worst round total
    (``rules.standings``); ``reached`` says why in words ("joined in round 2 · paused in
    round 4 · …", ``participation_note``) and ``reached_stage`` as codes for the JSON
    ("joined:2 paused:4 withdrew:5"). A withdrawn player is listed if they were seated.
    Three queries whatever the size: the players, their games summed per round
    (``round_totals``), the seats.
    """
    players = ranked_players(tournament, [enums.PlayerStatus.CHECKED_IN, enums.PlayerStatus.WITHDRAWN])
    summed = round_totals(tournament)
    seated: dict[int, set[int]] = {}
    for round_number, pid in Seat.objects.filter(table__round__tournament=tournament).values_list(
        "table__round__number", "player_id"
    ):
        seated.setdefault(round_number, set()).add(pid)
    took_part = {pid for pid, _number, _points, games, _won in summed if games}.union(*seated.values())
    start = {
        pid: p.start_number or 0
        for pid, p in players.items()
        if p.status == enums.PlayerStatus.CHECKED_IN or pid in took_part
    }
    rows = points.standings_of_totals(start, summed, seated)
    # Most players share a pattern of rounds seated (every round): their participation is computed once.
    rounds_of: dict[int, list[int]] = {}
    for number in sorted(seated):
        for pid in seated[number]:
            rounds_of.setdefault(pid, []).append(number)
    # The words depend on nothing else: computed once per pattern too.
    notes: dict[tuple[tuple[int, ...], str, int | None, tuple[tuple[int, int], ...]], tuple[str, str]] = {}
    standings = []
    for row in rows:
        player = players[row.player_id]
        pattern = (tuple(rounds_of.get(row.player_id, ())), player.status, player.paused_from_round, row.missed_rounds)
        said = notes.get(pattern)
        if said is None:
            withdrawn = player.status == enums.PlayerStatus.WITHDRAWN
            part = points.participation(seated, pattern[0], withdrawn=withdrawn)
            said = notes[pattern] = participation_note(tournament, player, part, row.missed_rounds)
        note, codes = said
        standings.append(
            Standing.of(
                row,
                player,
                RULE_LABELS,
                reached=note,
                reached_stage=codes,
                points=row.total,
                games_won=row.games_won,
                games_played=row.games_played,
                best_round=row.best_round,
            )
        )
    return standings


def participation_note(
    tournament: Tournament, player: RankedPlayer, part: points.Participation, missed: Sequence[tuple[int, int]]
) -> tuple[str, str]:
    """What the standings say about a player's rounds, in words and as codes: "joined in round 2",
    "paused in round 4", "withdrew after round 5", and what the missed rounds count; a player
    checked in but not seated yet "joins in round N" (or "pauses from round N"). Empty for a
    player seated in every round."""
    words: list[str] = []
    codes: list[str] = []
    rounds_seated = len(part.seated_in) + len(part.missed)
    if part.joined is not None:
        words.append(_("joined in round %(round)d") % {"round": part.joined})
        codes.append(f"joined:{part.joined}")
    elif not part.seated_in and player.status == enums.PlayerStatus.CHECKED_IN:
        upcoming = rounds_seated + 1
        if player.paused_from_round is None and rounds_seated and upcoming <= tournament.rounds_planned:
            words.append(_("joins in round %(round)d") % {"round": upcoming})
            codes.append(f"joins:{upcoming}")
    if part.paused:
        listed = ", ".join(str(number) for number in part.paused)
        words.append(
            ngettext("paused in round %(rounds)s", "paused in rounds %(rounds)s", len(part.paused)) % {"rounds": listed}
        )
        codes.append(f"paused:{','.join(str(number) for number in part.paused)}")
    if (
        player.status == enums.PlayerStatus.CHECKED_IN
        and player.paused_from_round is not None
        and player.paused_from_round > rounds_seated
    ):
        words.append(_("pauses from round %(round)d") % {"round": player.paused_from_round})
        codes.append(f"pauses:{player.paused_from_round}")
    if part.withdrew_after is not None:
        words.append(_("withdrew after round %(round)d") % {"round": part.withdrew_after})
        codes.append(f"withdrew:{part.withdrew_after}")
    if missed and part.seated_in:  # (a player not seated yet ranks last anyway: no games)
        counted = sum(value for _number, value in missed)
        words.append(
            ngettext(
                "%(count)d missed round counts %(points)d", "%(count)d missed rounds count %(points)d", len(missed)
            )
            % {"count": len(missed), "points": counted}
        )
    return " · ".join(words), " ".join(codes)


def round_totals(tournament: Tournament) -> list[tuple[int, int, int, int, int]]:
    """Every player's valid games summed per round, as ``rules.RoundTotal`` rows (player,
    round, points, games, games won): one query, a row per player and round, where reading
    every score took three times the rows and their summing in Python (at 5,000 players a
    fifth of the ranking). A game's win is counted on the winner's own score, which the
    format always writes (0 points: ``rules.game_penalties``)."""
    return list(
        GameScore.objects.filter(game__table__round__tournament=tournament, game__status=GameStatus.VALID)
        .order_by()
        .values("player_id", "game__table__round__number")
        .annotate(
            total=Sum("points"),
            games=Count("pk"),
            won=Count("pk", filter=Q(game__winner_id=F("player_id"))),
        )
        .values_list("player_id", "game__table__round__number", "total", "games", "won")
    )


def rounds_played(tournament: Tournament) -> int:
    return Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0


@dataclass(frozen=True)
class FieldView:
    """Who the next round seats, for the rounds page: ``next_round`` (``None`` once every planned
    round is seated, when pausing is refused), the checked-in players who may pause, those who
    pause, the late arrivals not seated yet, and how many the next round seats."""

    next_round: int | None
    active: list[Player]
    paused: list[Player]
    joining: list[Player]

    @property
    def to_seat(self) -> int:
        return len(self.active)


def field_view(tournament: Tournament, seated: int) -> FieldView:
    """The ``FieldView`` of ``tournament`` after ``seated`` rounds (the last round's number). One query."""
    players = list(
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
        .annotate(was_seated=Exists(Seat.objects.filter(player=OuterRef("pk"))))
        .order_by("start_number", "folded", "pk")
    )
    number = seated + 1
    finished = tournament.status == enums.TournamentStatus.FINISHED
    return FieldView(
        next_round=number if number <= tournament.rounds_planned and not finished else None,
        active=[p for p in players if p.paused_from_round is None],
        paused=[p for p in players if p.paused_from_round is not None],
        joining=[p for p in players if seated and not p.was_seated and p.paused_from_round is None],
    )


@dataclass(frozen=True)
class FieldSummary:
    """What the rounds page says of the next round's field (``_field.html``): as ``FieldView``, but
    the players who play on only counted, so that its cost does not grow with the field."""

    next_round: int | None
    to_seat: int
    paused: list[Player]
    joining: list[Player]


def field_summary(tournament: Tournament, seated: int) -> FieldSummary:
    """The rounds page's ``FieldSummary`` after ``seated`` rounds. Two queries: the count of the
    checked-in players who play on, and the few who pause or join late."""
    checked_in = Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    to_seat = checked_in.filter(paused_from_round__isnull=True).count()
    noted = Q(paused_from_round__isnull=False)
    if seated:
        noted |= Q(was_seated=False)
    players = list(
        checked_in.annotate(was_seated=Exists(Seat.objects.filter(player=OuterRef("pk"))))
        .filter(noted)
        .order_by("start_number", "folded", "pk")
    )
    number = seated + 1
    finished = tournament.status == enums.TournamentStatus.FINISHED
    return FieldSummary(
        next_round=number if number <= tournament.rounds_planned and not finished else None,
        to_seat=to_seat,
        paused=[p for p in players if p.paused_from_round is not None],
        joining=[p for p in players if seated and not p.was_seated and p.paused_from_round is None],
    )


def rounds_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    seated = rounds[-1].number if rounds else 0
    return {"rounds_left": max(tournament.rounds_planned - len(rounds), 0), "field": field_summary(tournament, seated)}


def table_context(tournament: Tournament, view: Any) -> dict[str, Any]:
    """Every game counts card points: the calculator, penalties for the others, time called."""
    return {
        "calculator": True,
        "penalties": True,
        "open_duels": [],
        "tied_players": set(),
        "can_call_time": bool(tournament.round_time_limit_minutes),
    }


def public_extras(tournament: Tournament) -> PublicExtras:
    return PublicExtras()


def default_checklist() -> list[str]:
    return [_("Entry fee paid"), _("Own deck checked")]


def counts_card_points(table: Table) -> bool:
    """Every game counts the cards left in hand as penalty points."""
    return True
