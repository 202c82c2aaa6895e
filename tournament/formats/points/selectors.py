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
from tournament import day_plan, enums
from tournament.formats import entries
from tournament.formats.points import rules as points
from tournament.formats.record import (
    Label,
    PublicExtras,
    RankedPlayer,
    RatedOrder,
    RatedTable,
    Standing,
    ranked_players,
)
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.season import rating

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
    points.RULE_EVERY_ROUND: gettext_lazy("played every round"),
    points.RULE_MORE_ROUNDS: gettext_lazy("more rounds played"),
    points.RULE_SHARED: gettext_lazy("shared place"),
    points.RULE_PLAYOFF: gettext_lazy("play-off"),
    points.RULE_PLAYOFF_DUE: gettext_lazy("tie: play-off due"),
    points.RULE_PLAYOFF_PLAYING: gettext_lazy("tie: play-off playing"),
    points.RULE_NO_PLAYOFF: gettext_lazy("tie: withdrawn players play no play-off"),
}

# What a missed round counts, in the words of the ranking's note (``ranking_notes``).
MISSED_NOTES: dict[str, Label] = {
    points.MISSED_ROUND_HIGHEST: gettext_lazy("A missed round counts the round's highest total."),
    points.MISSED_ROUND_AVERAGE: gettext_lazy("A missed round counts the round's average total (rounded)."),
    points.MISSED_OWN_AVERAGE: gettext_lazy(
        "A missed round counts the player's own average of the rounds played (rounded)."
    ),
    points.MISSED_RANKED_AFTER: gettext_lazy(
        "A missed round counts nothing: players who missed a round rank after everyone who played every "
        "round, among themselves by more rounds played, then fewer points."
    ),
}
TIE_BREAK_NOTES: dict[str, Label] = {
    points.RULE_GAMES_WON: gettext_lazy("more games won"),
    points.RULE_BEST_ROUND: gettext_lazy("the lower best round"),
}


def history(tournament: Tournament) -> list[list[list[int]]]:
    """Every earlier round's tables as lists of player ids, oldest first."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        Seat.objects.filter(table__round__tournament=tournament, table__round__stage=enums.Stage.MAIN)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "player_id")
    )
    for round_number, table_number, pid in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(pid)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def ranking_rules(tournament: Tournament) -> points.RankingRules:
    """The tournament's settings as the rules read them."""
    return points.RankingRules(
        missed=tournament.points_missed_rounds,
        tie_breaks=points.tie_breaks_of(tournament.points_tie_breaks),
        tie_places=tournament.points_tie_places,
        tie_resolution=tournament.points_tie_resolution,
        playoffs_open=tournament.status != enums.TournamentStatus.FINISHED,
    )


def ranking_notes(tournament: Tournament) -> list[str]:
    """The rules the ranking follows, in sentences (the ranking page and the printed ranking)."""
    rules = ranking_rules(tournament)
    criteria = [str(TIE_BREAK_NOTES[code]) for code in rules.tie_breaks]
    if criteria:
        ties = _("Equal points: %(criteria)s.") % {"criteria": _(", then ").join(criteria)}
    else:
        ties = _("Equal points: no further criterion.")
    if rules.tie_resolution == points.TIE_SHARED:
        rest = _("Players still tied share the place.")
    elif rules.tie_places == points.TIE_ALL:
        rest = _("Players still tied play a play-off for their place.")
    else:
        rest = _("Players still tied on the podium play a play-off; elsewhere they share the place.")
    return [str(MISSED_NOTES[rules.missed]), f"{ties} {rest} {_('The start number never decides a place.')}"]


@dataclass(frozen=True)
class Field:
    """What the ranking reads besides the games: the players, the main rounds' seats, the play-offs."""

    players: dict[int, RankedPlayer]
    seated: dict[int, set[int]]
    playoffs: list[points.Playoff]


def _field(tournament: Tournament) -> Field:
    """The players and one query over every seat: the main rounds' seats by round, and the
    play-off tables (oldest first) with their players' points and games won in them."""
    players = ranked_players(tournament, [enums.PlayerStatus.CHECKED_IN, enums.PlayerStatus.WITHDRAWN])
    seated: dict[int, set[int]] = {}
    tables: dict[int, tuple[list[int], dict[int, int], dict[int, int], bool]] = {}
    seats = (
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table_id")
        .values_list(
            "table__round__number",
            "table__round__stage",
            "table_id",
            "table__status",
            "player_id",
            "points",
            "games_won",
        )
    )
    for round_number, stage, table_id, status, pid, seat_points, seat_won in seats:
        if stage != enums.Stage.PLAYOFF:
            seated.setdefault(round_number, set()).add(pid)
            continue
        entry = tables.setdefault(table_id, ([], {}, {}, status != enums.TableStatus.PLAYING))
        entry[0].append(pid)
        entry[1][pid] = seat_points
        entry[2][pid] = seat_won
    playoffs = [
        points.Playoff(players=frozenset(pids), points=totals, won=wins, decided=decided)
        for pids, totals, wins, decided in tables.values()
    ]
    return Field(players=players, seated=seated, playoffs=playoffs)


def standings_rows(tournament: Tournament, field: Field | None = None) -> list[points.StandingRow]:
    """The pure rules' rows of the tournament's ranking (``ranking``'s three queries)."""
    field = field or _field(tournament)
    summed = round_totals(tournament)
    took_part = {pid for pid, _number, _points, games, _won in summed if games}.union(*field.seated.values())
    start = {
        pid: p.start_number or 0
        for pid, p in field.players.items()
        if p.status == enums.PlayerStatus.CHECKED_IN or pid in took_part
    }
    can_play = {pid for pid, p in field.players.items() if p.status == enums.PlayerStatus.CHECKED_IN}
    return points.standings_of_totals(start, summed, field.seated, ranking_rules(tournament), field.playoffs, can_play)


def ranking(tournament: Tournament) -> list[Standing]:
    """Standings over every valid game of the main rounds: fewer points, then the organiser's
    criteria, then a play-off or a shared place (``rules.standings_of_totals``).

    Every seated round a listed player has no seat in (a late arrival's first rounds, a
    pause, the rounds after a withdrawal) counts as the settings say
    (``rules.standings``); ``reached`` says why in words ("joined in round 2 · paused in
    round 4 · …", ``participation_note``) and ``reached_stage`` as codes for the JSON
    ("joined:2 paused:4 withdrew:5"). A withdrawn player is listed if they were seated.
    Three queries whatever the size: the players, their games summed per round
    (``round_totals``), the seats (with the play-offs').
    """
    field = _field(tournament)
    players, seated = field.players, field.seated
    rows = standings_rows(tournament, field)
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
    if missed and part.seated_in and tournament.points_missed_rounds == points.MISSED_RANKED_AFTER:
        words.append(_("ranked after those who played every round"))
    elif missed and part.seated_in:  # (a player not seated yet ranks last anyway: no games)
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
    round, points, games, games won): one query, a row per player and round, summed by the
    database because reading every score is three times the rows and summing them in Python
    costs a fifth of the ranking at 5,000 players. A game's win is counted on the winner's own score, which the
    format always writes (0 points: ``rules.game_penalties``). A play-off's games only order its
    tied players and are not summed here."""
    return list(
        GameScore.objects.filter(
            game__table__round__tournament=tournament,
            game__table__round__stage=enums.Stage.MAIN,
            game__status=GameStatus.VALID,
        )
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
    """The number of the last main round seated (play-offs come after the main rounds)."""
    return Round.objects.filter(tournament=tournament, stage=enums.Stage.MAIN).aggregate(m=Max("number"))["m"] or 0


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


@dataclass(frozen=True)
class DueTie:
    """A tie waiting for its play-off: the place, the players (by start number) and their names."""

    place: int
    players: tuple[int, ...]
    names: tuple[str, ...]


def due_playoffs(tournament: Tournament) -> list[DueTie]:
    """The ties that need a play-off seated now (``rules.due_playoffs``); the ranking's three
    queries and one for the names."""
    due = points.due_playoffs(standings_rows(tournament))
    wanted = {pid for tie in due for pid in tie.players}
    names = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name")) if wanted else {}
    return [DueTie(tie.place, tie.players, tuple(names[pid] for pid in tie.players)) for tie in due]


def rounds_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    """The rounds left, the next round's field and, between rounds (no table playing), the ties
    that need a play-off (``due_playoffs``: the step "Seat a play-off" in words)."""
    main = [rnd for rnd in rounds if rnd.stage == enums.Stage.MAIN]
    seated = main[-1].number if main else 0
    current = rounds[-1] if rounds else None
    between = (
        current is not None
        and tournament.status == enums.TournamentStatus.RUNNING
        and not getattr(current, "playing_count", 0)
    )
    return {
        "rounds_left": 0
        if current is not None and current.stage == enums.Stage.PLAYOFF
        else max(tournament.rounds_planned - len(main), 0),
        "main_rounds": len(main),
        "playoff_seated": any(rnd.stage == enums.Stage.PLAYOFF for rnd in rounds),
        "playoffs_due": due_playoffs(tournament) if between else [],
        "field": field_summary(tournament, seated),
    }


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


def expected_plan(tournament: Tournament, players: int) -> day_plan.ExpectedPlan:
    """The planned rounds of ``players`` (``tournament.day_plan``); play-offs are not planned."""
    return day_plan.points_plan(
        players,
        preferred=tournament.table_size,
        largest=tournament.table_size_max,
        rounds=tournament.rounds_planned,
        games_per_round=tournament.games_per_round,
        limit_minutes=tournament.round_time_limit_minutes,
    )


def expected_sharp_play(tournament: Tournament) -> int | None:
    """UNO has no sharp play."""
    return None


# The card points left in hand are kept in the score's ``hand["cards"]`` (``entries.cards_held``).
cards_held = entries.cards_held


def rating_order(table: RatedTable) -> RatedOrder | None:
    """The season's rating of a points table (a play-off too: a real game of the tied players):
    fewer penalty points, then more games won."""
    seats = [rating.PointsSeat(seat.person, seat.points, seat.games_won) for seat in table.seats]
    return RatedOrder(table.round_number, rating.points_order(seats))
