"""The print pack: paper as the backup on the day, everything printable from one page.

For the desk and the organiser (``enums.Role.DESK``). The pack page lists each
printable with a button; each printable is an A4 portrait page of its own
(``templates/tournament/print/``, ``static/css/print.css``): table cards with
QR codes, the seating of a round by table and by name, result slips per table,
and the final ranking. The start-number cards and the player list are the
desk's own pages (``views.desk``), linked from the pack.

Reads come from ``selectors.printing`` (fixed query counts). A round that the
tournament does not have is 404.
"""

from __future__ import annotations

import segno
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from tournament import enums
from tournament.formats import registry
from tournament.http import HtmxHttpRequest
from tournament.models import Round, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import printing as reads


def _round(tournament: Tournament, round_number: int) -> Round:
    """The round ``round_number`` with its tables, seats and players, or 404."""
    rnd = reads.round_with_tables(tournament, round_number)
    if rnd is None:
        raise Http404
    return rnd


def _context(tournament: Tournament, **extra: object) -> dict[str, object]:
    """What every printable shows: the tournament, its format's record and when it was printed."""
    return {"tournament": tournament, "fmt": registry.of(tournament), "printed_at": timezone.now(), **extra}


@require_GET
@tournament_role(enums.Role.DESK)
def pack(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Every printable of the tournament, each with a button that opens it ready to print."""
    return render(request, "tournament/print/pack.html", _context(tournament, pack=reads.pack(tournament)))


@require_GET
@tournament_role(enums.Role.DESK)
def table_cards(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """A card per table of a round: its number, its players and a QR code that opens the table
    on a referee's tablet."""
    rnd = _round(tournament, round_number)
    cards = []
    for table in rnd.tables.all():
        link = request.build_absolute_uri(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
        # With a viewBox and no fixed size the code scales to the card's box (print.css) instead of being cut.
        qr = segno.make(link, error="m").svg_inline(border=1, omitsize=True)
        cards.append({"table": table, "qr": qr})
    sheets = reads.sheets(cards, reads.CARDS_PER_SHEET) if cards else []
    return render(request, "tournament/print/table_cards.html", _context(tournament, round=rnd, sheets=sheets))


@require_GET
@tournament_role(enums.Role.DESK)
def seating_by_table(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """A round's seating, table by table, for the desk and the hall."""
    seating = reads.seating(_round(tournament, round_number))
    return render(request, "tournament/print/seating_tables.html", _context(tournament, seating=seating))


@require_GET
@tournament_role(enums.Role.DESK)
def seating_by_name(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """A round's seating in alphabetical order: each name with its table and seat, for the entrance."""
    seating = reads.seating(_round(tournament, round_number))
    return render(request, "tournament/print/seating_names.html", _context(tournament, seating=seating))


@require_GET
@tournament_role(enums.Role.DESK)
def result_slips(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """A result slip per table of a round (one A4 page each), for when the tablets fail."""
    rnd = _round(tournament, round_number)
    slips = reads.result_slips(tournament, rnd)
    return render(request, "tournament/print/result_slips.html", _context(tournament, round=rnd, slips=slips))


@require_GET
@tournament_role(enums.Role.DESK)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The final ranking on paper: the tournament's name, date and venue, every place, the
    final's points and the duels (provisional while play goes on)."""
    return render(request, "tournament/print/ranking.html", _context(tournament, final=reads.final_ranking(tournament)))
