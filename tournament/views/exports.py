"""CSV exports for the organiser: standings and every game (points format)."""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.models import GameScore, GameStatus
from tournament import enums, points_services
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role

RULE_LABELS = {
    "": "",
    "total": gettext_lazy("fewer points"),
    "games_won": gettext_lazy("tie: more games won"),
    "best_round": gettext_lazy("tie: lower best round"),
    "start_number": gettext_lazy("tie: lower start number"),
}
STATUS_LABELS = dict(GameStatus.choices)


def _csv_response(tournament: Tournament, name: str) -> tuple[HttpResponse, csv._writer]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(tournament.name)}-{name}.csv"'
    response.write("\ufeff")  # spreadsheet programs read the umlauts right
    return response, csv.writer(response, delimiter=";")


@require_GET
@tournament_role(enums.Role.ORGANISER)
def standings_csv(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    response, writer = _csv_response(tournament, "standings")
    writer.writerow(
        [
            _("Place"),
            _("Start number"),
            _("Name"),
            _("Club"),
            _("Penalty points"),
            _("Games won"),
            _("Games played"),
            _("Best round"),
            _("Decided by"),
        ]
    )
    for row, player in points_services.standings(tournament):
        writer.writerow(
            [
                row.place,
                player.start_number,
                player.name,
                player.club,
                row.total,
                row.games_won,
                row.games_played,
                "" if row.best_round is None else row.best_round,
                str(RULE_LABELS.get(row.decided_by, row.decided_by)),
            ]
        )
    return response


@require_GET
@tournament_role(enums.Role.ORGANISER)
def games_csv(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Every score line of every game, undone ones marked, in order."""
    response, writer = _csv_response(tournament, "games")
    writer.writerow(
        [
            _("Round"),
            _("Table"),
            _("Game"),
            _("Status"),
            _("Winner"),
            _("Start number"),
            _("Name"),
            _("Points"),
            _("Cards"),
            _("Entered at"),
            _("Entered by"),
        ]
    )
    scores = (
        GameScore.objects.filter(game__table__round__tournament=tournament)
        .select_related("game__table__round", "game__winner", "game__entered_by", "player")
        .order_by(
            "game__table__round__number", "game__table__number", "game__number", "game__pk", "player__start_number"
        )
    )
    for score in scores:
        game = score.game
        writer.writerow(
            [
                game.table.round.number,
                game.table.number,
                game.number,
                str(STATUS_LABELS.get(game.status, game.status)),
                game.winner.start_number if game.winner else "",
                score.player.start_number,
                score.player.name,
                score.points,
                score.hand.get("cards", ""),
                game.entered_at.isoformat(timespec="seconds"),
                game.entered_by.get_username() if game.entered_by else "",
            ]
        )
    return response
