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
from collections.abc import Callable, Iterable, Iterator, Mapping
from decimal import Decimal
from itertools import chain, groupby
from typing import Any, Generic, TypeVar

from anyascii import anyascii
from django.http import HttpResponse, HttpResponseBadRequest
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.models import STATUS_WORDS, Game, GameScore
from tournament import enums, naming
from tournament.backups import portable
from tournament.formats import registry
from tournament.formats.entries import CARD_LABELS
from tournament.http import HtmxHttpRequest
from tournament.models import Seat, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import audit as audit_selectors
from tournament.selectors import ranking as ranking_selectors
from tournament.streaming import ReadableStream

STATUS_LABELS = STATUS_WORDS
T = TypeVar("T")


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
    the only way the exports write a row. Returns what the stream's ``write`` returns (the
    line itself for ``_Line``, which the streamed exports yield)."""

    def __init__(self, stream: Any) -> None:
        self._writer = csv.writer(stream, delimiter=";")

    def writerow(self, cells: Iterable[object]) -> Any:
        return self._writer.writerow([spreadsheet_safe(cell) for cell in cells])


class _Line:
    """A stream whose ``write`` hands the line back instead of keeping it."""

    def write(self, text: str) -> str:
        return text


class CsvStream(ReadableStream):
    """A CSV sent line by line as it is written: a 5,000-player export never sits in memory
    as one string."""


def _streamed(tournament: Tournament, name: str, rows: Iterable[Iterable[object]]) -> CsvStream:
    """The CSV of ``rows`` (each through ``SafeWriter``), streamed, as ``<tournament>-<name>.csv``."""
    writer = SafeWriter(_Line())

    def lines() -> Iterator[str]:
        yield "\ufeff"  # spreadsheet programs read the umlauts right
        for cells in rows:
            yield writer.writerow(cells)

    response = CsvStream(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_stem(tournament)}-{name}.csv"'
    return response


def file_stem(tournament: Tournament) -> str:
    """The tournament's name for a file name, letters transliterated first ("Großer Preis" -> "grosser-preis",
    where a plain slug drops the "ß"); "tournament-<id>" when nothing is left."""
    return slugify(anyascii(tournament.name)) or f"tournament-{tournament.pk}"


@require_GET
@tournament_role(enums.Role.ORGANISER)
def standings_csv(request: HtmxHttpRequest, tournament: Tournament) -> CsvStream:
    """The ranking as the ranking page shows it: place, player, the format's columns, the deciding rule."""
    ranking = ranking_selectors.ranking(tournament)
    header = (
        [_("Place"), _("Start number"), _("Name"), _("Club")]
        + [str(column.label) for column in ranking.columns]
        + [_("Decided by")]
    )
    rows = (
        [row.place, row.player.start_number, row.player.name, row.player.club]
        + [getattr(row, column.key) for column in ranking.columns]
        + [str(row.decided_by_label)]
        for row in ranking.rows
    )
    return _streamed(tournament, "standings", chain([header], rows))


# Rows fetched at a time from each of the games export's cursors.
CHUNK = 2000


@require_GET
@tournament_role(enums.Role.ORGANISER)
def games_csv(request: HtmxHttpRequest, tournament: Tournament) -> CsvStream:
    """Every game of every table, one line per player at the table, undone games marked, in order:
    who won (or lost), the player's points and the card points left in hand where counted.

    Streamed: games, scores and seats are read by three cursors in the same order (round, table,
    game) and merged as they come, ``CHUNK`` rows at a time (three queries whatever the size)."""
    header = [
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
        # The round's and the table's names as the pages say them ("Main round 2", "Duel for place
        # 2"), added last: the columns before keep their places for sheets that read them by position.
        _("Round name"),
        _("Table name"),
        # The stage ("Main round", "Consolation round"): "Round" is the tournament-wide order of
        # the rounds (main round 2 may be round 3, after the consolation round opened).
        _("Stage"),
    ]
    return _streamed(tournament, "games", chain([header], _game_rows(tournament)))


def cards_as_cards(hand: Mapping[str, Any]) -> str:
    """The cards a player was left with, as the calculator took them ("2×7, 1×Wild +4"); empty
    where the points were typed as a sum (nothing says which cards)."""
    held = hand.get("hand") or {}
    return ", ".join(f"{count}×{CARD_LABELS.get(card, card)}" for card, count in held.items() if count)


def _card_points(hand: Mapping[str, Any]) -> object:
    return hand.get("cards", "")


def _game_rows(tournament: Tournament) -> Iterator[list[object]]:
    # Where the points are the card points (the points format), the "Cards" column says the cards
    # as cards instead of repeating the points; elsewhere (the knockout final scores the cards
    # to the winner: the loser's points are 0) it holds the card points left in hand.
    cards_column = cards_as_cards if registry.of(tournament).live_standings else _card_points
    table_order = ("table__round__number", "table__number", "table_id")
    games = (
        Game.objects.filter(table__round__tournament=tournament)
        .select_related("table__round", "winner", "loser", "entered_by")
        .order_by(*table_order, "number", "pk")
        .iterator(chunk_size=CHUNK)
    )
    scores = (
        GameScore.objects.filter(game__table__round__tournament=tournament)
        .order_by(*(f"game__{field}" for field in table_order), "game__number", "game_id")
        .values_list("game_id", "player_id", "points", "hand")
        .iterator(chunk_size=CHUNK)
    )
    seats = (
        Seat.objects.filter(table__round__tournament=tournament)
        .select_related("player")
        .order_by(*table_order)
        .iterator(chunk_size=CHUNK)
    )
    players_of = _Groups(seats, key=lambda seat: seat.table_id)
    scores_of = _Groups(scores, key=lambda score: score[0])
    # table id -> (round name, table name, stage), translated once
    names: dict[int, tuple[str, str, str]] = {}
    for game in games:
        table = game.table
        if table.pk not in names:
            names[table.pk] = (
                str(table.round),
                naming.table_label(table.number, is_duel=table.is_duel, duel_for_place=table.duel_for_place),
                naming.stage_name(table.round.stage, table.round.tournament_id),
            )
        round_name, table_name, stage_name = names[table.pk]
        players = sorted(
            (seat.player for seat in players_of.take(game.table_id)), key=lambda p: (p.start_number or 0, p.pk)
        )
        score_of = {player_id: (points, hand) for _game, player_id, points, hand in scores_of.take(game.pk)}
        for player in players:
            score = score_of.get(player.pk)
            yield [
                game.table.round.number,
                game.table.number,
                game.number,
                str(STATUS_LABELS.get(game.status, game.status)),
                game.winner.start_number if game.winner else "",
                game.loser.start_number if game.loser else "",
                player.start_number,
                player.name,
                "" if score is None else score[0],
                "" if score is None else cards_column(score[1]),
                timezone.localtime(game.entered_at).isoformat(timespec="seconds"),
                game.entered_by.get_username() if game.entered_by else "",
                round_name,
                table_name,
                stage_name,
            ]


class _Groups(Generic[T]):
    """Consecutive runs of one sorted stream, asked for in the stream's own order: ``take(key)``
    skips the runs before ``key`` (tables without games) and returns its run (empty when none).
    The last run is kept: the next games of a table ask for its seats again."""

    def __init__(self, items: Iterator[T], key: Callable[[T], int]) -> None:
        self._runs = groupby(items, key=key)
        self._key: int | None = None
        self._run: list[T] = []
        self._seen: set[int] = set()

    def take(self, key: int) -> list[T]:
        if key == self._key:
            return self._run
        while key not in self._seen:
            found = next(self._runs, None)
            if found is None:
                return []
            self._key, run = found
            self._seen.add(self._key)
            self._run = list(run)
        return self._run if key == self._key else []


@require_GET
@tournament_role(enums.Role.ORGANISER)
def audit_csv(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The audit trail as the log page filters it (same GET filters, every page), newest first:
    time (ISO, the event's time zone), person, source, device, action code, description, table,
    round, player, reason, the detail as JSON. Filter values that are not the tournament's: 400."""
    offered = audit_selectors.choices(tournament)
    read = audit_selectors.read_filters(request.GET, offered)
    if read.errors:
        return HttpResponseBadRequest(" ".join(read.errors), content_type="text/plain; charset=utf-8")
    header = [
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
        # Added last (see ``games_csv``): the round's and the table's names as the pages say them.
        _("Round name"),
        _("Table name"),
        _("Stage"),
    ]
    return _streamed(
        tournament, "log", chain([header], _audit_lines(audit_selectors.audit_rows(tournament, read.filters, offered)))
    )


def _audit_lines(rows: Iterable[audit_selectors.AuditRow]) -> Iterator[list[object]]:
    for row in rows:
        entry = row.entry
        yield [
            timezone.localtime(entry.created_at).isoformat(timespec="seconds"),
            row.person,
            entry.source,
            entry.device,
            entry.action,
            row.description,
            row.table.number if row.table else "",
            row.table.round_number if row.table else "",
            audit_selectors.player_name(row.player) if row.player else "",
            row.reason,
            json.dumps(entry.detail, ensure_ascii=False, sort_keys=True, default=str),
            row.table.round_label if row.table else "",
            row.table.label if row.table else "",
            row.table.stage_label if row.table else "",
        ]


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
