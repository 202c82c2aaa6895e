"""CSV exports for the organiser, for every format: the ranking and every game; and the whole
tournament as one backup file (``export_tournament``).

Semicolon separated, UTF-8 with a byte order mark (spreadsheet programs read
the umlauts right). Times are local times of the event. Every row goes through
``SafeWriter``: text that a spreadsheet program would run as a formula (a player
named ``=HYPERLINK(...)``) is written as text, numbers stay numbers.
"""

from __future__ import annotations

import csv
import json
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal

from anyascii import anyascii
from django.http import HttpResponse, HttpResponseBadRequest
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.models import Game, GameScore, GameStatus
from tournament import enums
from tournament.backups import portable
from tournament.http import HtmxHttpRequest
from tournament.models import Player, Seat, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import audit as audit_reads
from tournament.selectors import ranking as ranking_reads

STATUS_LABELS = dict(GameStatus.choices)


# What a spreadsheet program reads as the start of a formula (OWASP "CSV injection"): =, +, -, @,
# and tab and carriage return, which some programs skip before looking for one.
_FORMULA_START = frozenset("=+-@\t\r")


def spreadsheet_safe(value: object) -> str | int | float | Decimal:
    """One cell as every CSV of the app writes it, shown as text by spreadsheet programs.

    Numbers the app computes (``int``, ``float``, ``Decimal``; not ``bool``) are written as
    they are, negative ones too, so they stay numbers. ``None`` is an empty cell. Anything else
    is text: when it would start a formula -- its first character is one of ``= + - @``, tab or
    carriage return, also after leading white space and in the full-width or small forms
    (``＝``, ``﹢``: NFKC folds them) -- it gets a leading apostrophe, which makes spreadsheet
    programs read the cell as text (OWASP's recommendation; some show the apostrophe).
    Idempotent: a cell that starts with an apostrophe is left alone.
    """
    if value is None:
        return ""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return value
    text = str(value)
    stripped = text.lstrip()
    first = text[:1] if text[:1] in _FORMULA_START else stripped[:1]
    if first and unicodedata.normalize("NFKC", first)[:1] in _FORMULA_START:
        return "'" + text
    return text


class SafeWriter:
    """A semicolon-separated CSV writer that passes every cell through ``spreadsheet_safe``;
    the only way the exports write a row."""

    def __init__(self, stream: HttpResponse) -> None:
        self._writer = csv.writer(stream, delimiter=";")

    def writerow(self, cells: Iterable[object]) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in cells])


def file_stem(tournament: Tournament) -> str:
    """The tournament's name for a file name, letters transliterated first ("Großer Preis" -> "grosser-preis",
    where a plain slug drops the "ß"); "tournament-<id>" when nothing is left."""
    return slugify(anyascii(tournament.name)) or f"tournament-{tournament.pk}"


def _csv_response(tournament: Tournament, name: str) -> tuple[HttpResponse, SafeWriter]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_stem(tournament)}-{name}.csv"'
    response.write("\ufeff")  # spreadsheet programs read the umlauts right
    return response, SafeWriter(response)


@require_GET
@tournament_role(enums.Role.ORGANISER)
def standings_csv(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The ranking as the ranking page shows it: place, player, the format's columns, the deciding rule."""
    ranking = ranking_reads.ranking(tournament)
    response, writer = _csv_response(tournament, "standings")
    writer.writerow(
        [_("Place"), _("Start number"), _("Name"), _("Club")]
        + [str(column.label) for column in ranking.columns]
        + [_("Decided by")]
    )
    for row, cells in ranking.table():
        writer.writerow(
            [row.place, row.player.start_number, row.player.name, row.player.club]
            + [value for _column, value in cells]
            + [str(row.decided_by_label)]
        )
    return response


@require_GET
@tournament_role(enums.Role.ORGANISER)
def games_csv(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Every game of every table, one line per player at the table, undone games marked, in order:
    who won (or lost), the player's points and the card points left in hand where counted."""
    response, writer = _csv_response(tournament, "games")
    writer.writerow(
        [
            _("Round"),
            _("Table"),
            _("Game"),
            _("Status"),
            _("Winner"),
            _("Loser"),
            _("Start number"),
            _("Name"),
            _("Points"),
            _("Cards"),
            _("Entered at"),
            _("Entered by"),
        ]
    )
    games = (
        Game.objects.filter(table__round__tournament=tournament)
        .select_related("table__round", "winner", "loser", "entered_by")
        .order_by("table__round__number", "table__number", "number", "pk")
    )
    scores = {
        (score.game_id, score.player_id): score
        for score in GameScore.objects.filter(game__table__round__tournament=tournament)
    }
    players: dict[int, list[Player]] = defaultdict(list)
    for seat in Seat.objects.filter(table__round__tournament=tournament).select_related("player"):
        players[seat.table_id].append(seat.player)
    for game in games:
        for player in sorted(players[game.table_id], key=lambda p: (p.start_number or 0, p.pk)):
            score = scores.get((game.pk, player.pk))
            writer.writerow(
                [
                    game.table.round.number,
                    game.table.number,
                    game.number,
                    str(STATUS_LABELS.get(game.status, game.status)),
                    game.winner.start_number if game.winner else "",
                    game.loser.start_number if game.loser else "",
                    player.start_number,
                    player.name,
                    "" if score is None else score.points,
                    "" if score is None else score.hand.get("cards", ""),
                    timezone.localtime(game.entered_at).isoformat(timespec="seconds"),
                    game.entered_by.get_username() if game.entered_by else "",
                ]
            )
    return response


@require_GET
@tournament_role(enums.Role.ORGANISER)
def audit_csv(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The audit trail as the log page filters it (same GET filters, every page), newest first:
    time (ISO, the event's time zone), person, source, device, action code, description, table,
    round, player, reason, the detail as JSON. Filter values that are not the tournament's: 400."""
    offered = audit_reads.choices(tournament)
    read = audit_reads.read_filters(request.GET, offered)
    if read.errors:
        return HttpResponseBadRequest(" ".join(read.errors), content_type="text/plain; charset=utf-8")
    response, writer = _csv_response(tournament, "log")
    writer.writerow(
        [
            _("Time"),
            _("Person"),
            _("Source"),
            _("Device"),
            _("Action"),
            _("Description"),
            _("Table"),
            _("Round"),
            _("Player"),
            _("Reason"),
            _("Details"),
        ]
    )
    for row in audit_reads.audit_rows(tournament, read.filters, offered):
        entry = row.entry
        cells = [
            timezone.localtime(entry.created_at).isoformat(timespec="seconds"),
            row.person,
            entry.source,
            entry.device,
            entry.action,
            row.description,
            row.table.number if row.table else "",
            row.table.round_number if row.table else "",
            audit_reads.player_name(row.player) if row.player else "",
            row.reason,
            json.dumps(entry.detail, ensure_ascii=False, sort_keys=True, default=str),
        ]
        writer.writerow(cells)
    return response


@require_GET
@tournament_role(enums.Role.ORGANISER)
def export_tournament(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The whole tournament as one file, ``<slug>-<date>.json.gz``: a portable export (gzip'd JSON) of
    its players, rounds, tables, seats, games, scores, ledger, pool, audit, check-ins and staff roles
    with the users they reference, read in one snapshot (consistent while tablets write). ``manage.py
    restore`` loads it into another database. Organisers only; a constant number of queries."""
    data = portable.encode(portable.export_tournament(tournament.pk))
    response = HttpResponse(data, content_type="application/gzip")
    today = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="{file_stem(tournament)}-{today}.json.gz"'
    response["Cache-Control"] = "no-store"
    return response
