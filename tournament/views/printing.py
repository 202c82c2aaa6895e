"""The print pack: paper as the backup on the day, everything printable from one page.

For the desk and the organiser (``enums.Role.DESK``). The pack page lists each
printable with a button; each printable is an A4 portrait page of its own
(``templates/tournament/print/``, ``static/css/print.css``): table cards with
QR codes, the seating of a round by table and by name, result slips per table,
and the final ranking. The start-number cards and the player list are the
desk's own pages (``views.desk``), linked from the pack.

Reads come from ``selectors.printing`` (fixed query counts). A round that the
tournament does not have is 404. The printouts of a whole field (the seating by table and
A–Z, the ranking) are streamed sheet by sheet (``tournament.streaming``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournament import enums, qr
from tournament.formats import registry
from tournament.http import HtmxHttpRequest
from tournament.models import Round, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import day_plan as day_plan_selectors
from tournament.selectors import printing as printing_selectors
from tournament.selectors import tombola as tombola_selectors
from tournament.streaming import ReadableStream, streamed_page


def round_part(
    request: HtmxHttpRequest, tournament: Tournament, round_number: int
) -> tuple[Round, printing_selectors.Part]:
    """The part of round ``round_number`` asked for (``?part=``, ``TABLES_PER_PART`` table numbers
    each) with those tables, seats and players, or 404 for a round the tournament does not have."""
    asked = request.GET.get("part", "")
    size = printing_selectors.TABLES_PER_PART
    guess = printing_selectors.part(asked, 10**9, size)  # the part as asked; checked against the round below
    rnd = printing_selectors.round_with_tables(tournament, round_number, guess.first, size)
    if rnd is None:
        raise Http404
    found = printing_selectors.part(asked, rnd.last_number or 0, size)  # type: ignore[attr-defined]
    if found.first != guess.first:  # past the last table: the last part
        rnd = printing_selectors.round_with_tables(tournament, round_number, found.first, size)
        assert rnd is not None
    return rnd, found


# Rows of the printed ranking rendered and sent at a time (some 60 ms of rendering each).
RANKING_ROWS_PER_PART = 250
# Seconds a drawn QR code is kept: a table's link never changes.
QR_SECONDS = 7 * 24 * 3600


def qr_svg(link: str) -> str:
    """The QR code of ``link`` as inline SVG (``tournament.qr``: quiet zone included, scaled to
    its box), drawn once and kept in the cache (drawing one costs milliseconds; a round's cards
    are printed more than once)."""
    key = "qr2:" + hashlib.blake2s(link.encode(), digest_size=12).hexdigest()
    svg = cache.get(key)
    if svg is None:
        svg = qr.svg(link)
        cache.set(key, svg, QR_SECONDS)
    return str(svg)


def _context(tournament: Tournament, **extra: object) -> dict[str, object]:
    """What every printable shows: the tournament, its format's record and when it was printed."""
    return {"tournament": tournament, "fmt": registry.of(tournament), "printed_at": timezone.now(), **extra}


@require_GET
@tournament_role(enums.Role.DESK)
def pack(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Every printable of the tournament, each with a button that opens it ready to print."""
    return render(request, "tournament/print/pack.html", _context(tournament, pack=printing_selectors.pack(tournament)))


@require_GET
@tournament_role(enums.Role.DESK)
def table_cards(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """A card per table of a round: its number, its players and a QR code that opens the table
    on a referee's tablet. In parts of ``TABLES_PER_PART`` tables (``?part=``)."""
    rnd, shown = round_part(request, tournament, round_number)
    cards = []
    for table in rnd.tables.all():
        link = request.build_absolute_uri(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
        cards.append({"table": table, "qr": qr_svg(link)})
    sheets = printing_selectors.sheets(cards, printing_selectors.CARDS_PER_SHEET) if cards else []
    context = _context(tournament, round=rnd, sheets=sheets, part=shown)
    return render(request, "tournament/print/table_cards.html", context)


@require_GET
@tournament_role(enums.Role.DESK)
def seating_by_table(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> ReadableStream:
    """A round's seating, table by table, for the desk and the hall."""
    seating = printing_selectors.seating(tournament, round_number)
    if seating is None:
        raise Http404
    return _sheets(request, "seating_tables", _context(tournament, seating=seating), seating.table_sheets())


@require_GET
@tournament_role(enums.Role.DESK)
def seating_by_name(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> ReadableStream:
    """A round's seating in alphabetical order: each name with its table and seat, for the entrance."""
    seating = printing_selectors.seating(tournament, round_number)
    if seating is None:
        raise Http404
    return _sheets(request, "seating_names", _context(tournament, seating=seating), seating.name_sheets())


@require_GET
@tournament_role(enums.Role.DESK)
def result_slips(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """A result slip per table of a round (one A4 page each), for when the tablets fail.
    In parts of ``TABLES_PER_PART`` tables (``?part=``)."""
    rnd, shown = round_part(request, tournament, round_number)
    slips = printing_selectors.result_slips(tournament, rnd)
    context = _context(tournament, round=rnd, slips=slips, part=shown)
    return render(request, "tournament/print/result_slips.html", context)


@require_GET
@tournament_role(enums.Role.DESK)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> ReadableStream:
    """The final ranking on paper: the tournament's name, date and venue, every place, the
    final's points and the duels (provisional while play goes on)."""
    final = printing_selectors.final_ranking(tournament)
    rows = final.ranking.table()
    # No rows, no parts: the page then says "No results yet." and has no mark for them.
    parts = [{"rows": chunk} for chunk in printing_selectors.sheets(rows, RANKING_ROWS_PER_PART)] if rows else []
    context = _context(tournament, final=final, rows=rows)
    return streamed_page(
        request, "tournament/print/ranking.html", context, "tournament/print/_ranking_rows.html", parts
    )


@require_GET
@tournament_role(enums.Role.DESK)
def plan(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The expected plan on one sheet, for the notice board before the day and the desk on it."""
    return render(request, "tournament/print/plan.html", _context(tournament, day=day_plan_selectors.read(tournament)))


def _sheets(
    request: HtmxHttpRequest, name: str, context: dict[str, object], sheets: Sequence[object]
) -> ReadableStream:
    """The printout ``name`` streamed sheet by sheet (``_<name>_sheet.html`` each, numbered)."""
    parts = [{"sheet": sheet, "page": page, "pages": len(sheets)} for page, sheet in enumerate(sheets, start=1)]
    return streamed_page(
        request, f"tournament/print/{name}.html", context, f"tournament/print/_{name}_sheet.html", parts
    )


@require_GET
@tournament_role(enums.Role.DESK)
def tombola(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The tombola's results on paper: each prize in the order given out with its winner, the
    winners marked absent, and each draw's seed and pool size, so the draw can be checked."""
    return render(
        request, "tournament/print/tombola.html", _context(tournament, tombola=tombola_selectors.read(tournament))
    )
