"""Reads of the knockout format: snapshots for its pure rules, its ranking, and
what its pages show beyond the common parts. Fixed query counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import GameStatus
from tournament import day_plan, enums, naming
from tournament.formats import entries
from tournament.formats.knockout import rules as knockout
from tournament.formats.record import (
    START_NUMBER_RULE,
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
RANKING_TITLE = gettext_lazy("Final ranking")
# The columns read right for each stage: a finalist shows the final's points (a final to points)
# or games won in the final (to wins), and the duel that decided a tie; everyone else the round
# reached and the games won at the table where they went out.
RANKING_COLUMNS = ("reached", "final_points", "games_won", "duel")
LIVE_STANDINGS = False
RULE_LABELS: dict[str, Label] = {
    knockout.RULE_FINAL_PLACE: gettext_lazy("result in the final"),
    knockout.RULE_DUEL: gettext_lazy("tie in the final: duel"),
    knockout.RULE_ROUND_REACHED: gettext_lazy("round reached"),
    knockout.RULE_GAMES_WON: gettext_lazy("games won"),
    **START_NUMBER_RULE,
}


def entrants(
    tournament: Tournament, players: Sequence[Player] | Sequence[RankedPlayer] | None = None
) -> list[knockout.Entrant]:
    """Snapshot of the checked-in players (``players``: those already read, in the players' order)."""
    if players is None:
        players = checked_in(tournament)
    return [knockout.Entrant(id=p.pk, start_number=p.start_number or 0, club=p.club) for p in players]


def checked_in(tournament: Tournament) -> list[Player]:
    """The checked-in players, in the players' order (the rules' draws depend on it)."""
    return list(Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.CHECKED_IN))


def round_results(tournament: Tournament) -> list[knockout.RoundResult]:
    """Snapshot of every round's table results (three queries of plain rows, whatever the size:
    plain rows because model instances for 5,000 players cost most of a second). The rounds are read
    first and select the tables and seats by their ids: through the join to the tournament,
    PostgreSQL estimates a round's tables from the average over every tournament and, in a
    database that also holds a big field, scans every seat to find a small field's."""
    rounds = list(
        Round.objects.filter(tournament=tournament).order_by("number").values_list("id", "stage_number", "stage")
    )
    round_ids = [round_id for round_id, _number, _stage in rounds]
    seats: dict[int, list[knockout.SeatResult]] = {}
    for table_id, player_id, place, games_won, points in (
        Seat.objects.filter(table__round_id__in=round_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id", "place", "games_won", "points")
    ):
        seats.setdefault(table_id, []).append(
            knockout.SeatResult(player_id=player_id, place=place or 0, games_won=games_won, points=points)
        )
    tables: dict[int, list[tuple[int, knockout.TableResult]]] = {}
    for table_id, round_id, number, is_duel, points_target, duel_for_place in (
        Table.objects.filter(round_id__in=round_ids)
        .order_by("round_id", "number")
        .values_list("id", "round_id", "number", "is_duel", "points_target", "duel_for_place")
    ):
        result = knockout.TableResult(
            number=number,
            is_duel=is_duel,
            seats=tuple(seats.get(table_id, ())),
            points_target=points_target,
            duel_for_place=duel_for_place,
        )
        tables.setdefault(round_id, []).append((table_id, result))
    results = []
    for round_id, stage_number, stage in rounds:
        final_order: tuple[int, ...] = ()
        if stage == enums.Stage.FINAL:
            main = next((table for _id, table in tables.get(round_id, []) if not table.is_duel), None)
            if main is not None:
                final_order = tuple(s.player_id for s in sorted(main.seats, key=lambda s: s.place or 99))
        results.append(
            knockout.RoundResult(
                number=stage_number,
                stage=stage,
                tables=tuple(table for _id, table in tables.get(round_id, [])),
                final_order=final_order,
            )
        )
    return results


def _reached(entry: knockout.RankEntry) -> Label:
    """The round reached, named as every page names it ("Main round 2", "Lucky-loser round", "Final")."""
    stages = {
        knockout.FINAL: enums.Stage.FINAL,
        knockout.LUCKY_LOSER: enums.Stage.LUCKY_LOSER,
        knockout.MAIN: enums.Stage.MAIN,
    }
    if entry.reached in stages:
        return naming.round_name(stages[entry.reached], entry.reached_round)
    return "–"


def _duel(entry: knockout.RankEntry) -> Label:
    """A finalist's last duel in words (empty where no tie needed one)."""
    place = {"place": entry.duel_for_place}
    if entry.duel_for_place is None:
        return ""
    if entry.duel_won is None:
        return _("plays the duel for place %(place)s") % place
    if entry.duel_won:
        return _("won the duel for place %(place)s") % place
    return _("lost the duel for place %(place)s") % place


def _summary(entry: knockout.RankEntry, reached: Label, duel: Label) -> str:
    """The result beyond the place in a few words (podium, phone): a finalist's points in the
    final (games won in a final to wins) and the duel; anyone else the round reached and the
    games won at the table where they went out."""
    if entry.final_points is not None:
        parts = [ngettext("%(count)s point", "%(count)s points", entry.final_points) % {"count": entry.final_points}]
    else:
        won = ngettext("%(count)s game won", "%(count)s games won", entry.games_won) % {"count": entry.games_won}
        parts = [won] if entry.reached == knockout.FINAL else [str(reached), won]
    if duel:
        parts.append(str(duel))
    return " · ".join(parts)


def ranking(tournament: Tournament) -> list[Standing]:
    """Everyone ranked: how far they got, then games won at the table where they went out,
    then the lower start number; the final's places by the final (and its duels).

    A finalist of a final to points shows the final's points and no games won (the final's
    order is by points: games won there would read as if they ranked); of a final to wins,
    the games won in the final. A finalist who played a duel shows it in words."""
    players = ranked_players(tournament, [enums.PlayerStatus.CHECKED_IN])
    entries = knockout.rank_players(entrants(tournament, list(players.values())), round_results(tournament))
    labels: dict[tuple[str, int], Label] = {}

    def reached(entry: knockout.RankEntry) -> Label:  # translated once per stage, not per player
        key = (entry.reached, entry.reached_round)
        if key not in labels:
            labels[key] = _reached(entry)
        return labels[key]

    rows = []
    for e in entries:
        duel = _duel(e)
        rows.append(
            Standing.of(
                e,
                players[e.player_id],
                RULE_LABELS,
                reached=reached(e),
                reached_stage=e.reached,
                final_points=e.final_points,
                # At the table where the player went out (the final to wins for its finalists).
                games_won=None if e.final_points is not None else e.games_won,
                duel=duel,
                duel_for_place=e.duel_for_place,
                duel_won=e.duel_won,
                summary=_summary(e, reached(e), duel),
            )
        )
    return rows


def rounds_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    return {}


def target_words(points_target: int | None, wins_needed: int | None) -> str:
    """A final's target as the table shows it: "first to 500 points", "first to win 3 games"."""
    # The msgids of the table's rules line (formats/knockout/rules.html): one wording everywhere.
    if points_target is not None:
        return _("first to %(target)s points") % {"target": points_target}
    wins = wins_needed or 1
    return ngettext("first to win %(wins)s game", "first to win %(wins)s games", wins) % {"wins": wins}


def final_table(tournament: Tournament) -> Table | None:
    """The seated final's own table (not a duel), or None before the final is seated."""
    return (
        Table.objects.filter(round__tournament=tournament, round__stage=enums.Stage.FINAL, is_duel=False)
        .select_related("round")
        .first()
    )


def final_games(table: Table) -> int:
    """The games recorded at the final's table (valid ones: an undone game is not recorded)."""
    return table.games.filter(status=GameStatus.VALID).count()


FINAL_TARGET_SETTINGS = ("final_target_kind", "final_points_target", "final_wins_target")


def settings_notes(tournament: Tournament) -> dict[str, str]:
    """Beside the final's settings: whether a change still reaches the seated final (the rules:
    the target is agreed with the finalists on the day, before the final's first game)."""
    table = (
        Table.objects.filter(round__tournament=tournament, round__stage=enums.Stage.FINAL, is_duel=False)
        .annotate(recorded=Count("games", filter=Q(games__status=GameStatus.VALID)))
        .first()
    )  # one query: the settings page's count is pinned
    if table is None:
        return {}
    now = target_words(table.points_target, table.wins_needed)
    if table.recorded:
        note = _(
            "The final has started (%(target)s): its target no longer changes; its games can still be corrected."
        ) % {"target": now}
    else:
        note = _("The final is seated (%(target)s): a change applies to it until its first game.") % {"target": now}
    return dict.fromkeys(FINAL_TARGET_SETTINGS, note)


def table_context(tournament: Tournament, view: Any) -> dict[str, Any]:
    """The final's calculator (a final to points only) and its open duels; other tables, a final
    to wins and the duels count games won. At the final's own table before its first game, the
    target agreed with the finalists can still be set (``final_target_open``, for the organiser)."""
    table = view.table
    open_duels: list[Table] = []
    tied: set[int] = set()
    if not table.is_duel and (table.points_target is not None or table.round.stage == enums.Stage.FINAL):
        open_duels = list(
            Table.objects.filter(round=table.round, is_duel=True, status=enums.TableStatus.PLAYING)
            .prefetch_related("seats")
            .order_by("number")
        )
        tied = {seat.player_id for duel in open_duels for seat in duel.seats.all()}
    is_final = not table.is_duel and table.round.stage == enums.Stage.FINAL
    return {
        "calculator": table.points_target is not None,
        "penalties": False,
        "open_duels": open_duels,
        "tied_players": tied,
        "can_call_time": False,
        "final_target_open": is_final
        and table.status == enums.TableStatus.PLAYING
        and not any(game.status == GameStatus.VALID for game in view.games),
    }


def public_extras(tournament: Tournament) -> PublicExtras:
    return PublicExtras()


def default_checklist() -> list[str]:
    # The championship hands every player a meal voucher at registration ("Jeder Teilnehmer bekommt
    # bei der Anmeldung einen Essensgutschein"): ticked like a check, counted on the desk.
    return [_("Diving licence (OWD)"), _("Medical certificate"), _("Entry fee paid"), _("Meal voucher handed out")]


def counts_card_points(table: Table) -> bool:
    """Only a final to points counts card points (a final to wins is seated without a points
    target: ``services.final_table_fields``)."""
    return table.points_target is not None


def settings_of(tournament: Tournament) -> knockout.KnockoutSettings:
    """The tournament's settings as the pure planner takes them (the services seat with them, the
    expected plan plans with them)."""
    return knockout.KnockoutSettings(
        preferred=tournament.table_size,
        largest=tournament.table_size_max,
        final_size=tournament.final_size,
        wins_needed=tournament.wins_needed,
        wins_needed_large_table=tournament.wins_needed_large_table,
        points_target=tournament.final_points_target,
        final_target_kind=tournament.final_target_kind,
        final_wins_target=tournament.final_wins_target,
        duel_wins_needed=tournament.duel_wins_needed,
    )


def expected_plan(tournament: Tournament, players: int) -> day_plan.ExpectedPlan:
    """The rounds the planner would seat for ``players`` (``tournament.day_plan``)."""
    return day_plan.knockout_plan(players, settings_of(tournament))


def expected_sharp_play(tournament: Tournament) -> int | None:
    """UNO has no sharp play."""
    return None


# The card points left in hand are kept in the score's ``hand["cards"]`` (``entries.cards_held``).
cards_held = entries.cards_held


def rating_order(table: RatedTable) -> RatedOrder | None:
    """The season's rating of a knockout table: games won (equal games tie); the final by its places.
    Duels are left out: their outcome is already in the final's places."""
    if table.is_duel:
        return None
    seats = [rating.KnockoutSeat(seat.person, seat.games_won, seat.place) for seat in table.seats]
    return RatedOrder(table.round_number, rating.knockout_order(seats, final=table.is_final))
