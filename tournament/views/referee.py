"""Referee tablets: the current round's tables and one table's results.

Every result tap ends in a visible state. The answers to a result entry
(``record_game``, ``set_dealer``) carry headers the tablet's outbox reads:

- ``X-Entry-Status``: ``saved``, ``replayed`` (the same idempotency key was
  already recorded: nothing new) or ``refused`` (nothing saved; the panel
  shows why, and ``X-Refusal`` carries the message, percent-encoded);
- ``X-Entry-Version``: the table's version right after this entry, which the
  next entry queued on the tablet must send;
- ``X-Table-Version``: the table's version now.

A refusal answers 409 with the table panel (htmx) or the whole page (plain
form), showing the current state and, for the calculator, the hands entered.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from urllib.parse import quote

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Game
from tournament import enums, polling, writes
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.record import Entered, EntryRefused
from tournament.http import HtmxHttpRequest, answers_refusals
from tournament.models import Table, Tournament
from tournament.permissions import tournament_role
from tournament.play import pending, results
from tournament.polling import polled
from tournament.selectors import play as play_selectors
from tournament.views import printing
from tournament.views.forms import DealerForm, PendingForm, VersionForm, audit_dump


def _asked_table(request: HtmxHttpRequest) -> int | None:
    """The table number a referee typed (``?table=``), or None for none or anything not a number."""
    value = request.GET.get("table", "").strip()
    return int(value) if value.isdecimal() and len(value) <= 6 else None


def _first_table(request: HtmxHttpRequest) -> int:
    """The first table number of the page shown: the page of ``?table=``, else ``?from=``."""
    asked = _asked_table(request)
    if asked is None:
        value = request.GET.get("from", "").strip()
        asked = int(value) if value.isdecimal() and len(value) <= 6 else None
    return play_selectors.table_range(asked)


def _tables_extra(request: HtmxHttpRequest, **kwargs: object) -> str:
    return f"{_first_table(request)}-{_asked_table(request) or ''}"


@require_GET
@polled("referee-tables", target="tables-list", extra=_tables_extra)
@tournament_role(enums.Role.REFEREE)
def tables(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The tables of the running rounds: a referee taps theirs. Polls itself (``#tables-list``).

    A page shows ``TABLES_PER_PAGE`` table numbers of each round (``?from=``); ``?table=N``
    shows the page of table N and marks it."""
    template = "tournament/referee_tables.html"
    if request.htmx and request.htmx.target == "tables-list":
        template += "#tables-list"
    first = _first_table(request)
    rounds = play_selectors.live_rounds(tournament, first, play_selectors.TABLES_PER_PAGE)
    last = max((rnd.last_number or 0 for rnd in rounds), default=0)
    per_page = play_selectors.TABLES_PER_PAGE
    pages = [(start, min(start + per_page - 1, last)) for start in range(1, last + 1, per_page)]
    query = f"?from={first}" + (f"&table={_asked_table(request)}" if _asked_table(request) else "")
    context = {
        "tournament": tournament,
        "fmt": registry.of(tournament),
        "rounds": rounds,
        "first": first,
        "pages": pages if len(pages) > 1 else [],
        "asked": _asked_table(request),
        "poll_url": reverse("tournament:referee_tables", args=[tournament.pk]) + (query if pages[1:] else ""),
        # Tables a player called a referee to, or where a player's entry waits: first, on every page.
        "attention": play_selectors.attention(tournament, rounds),
    }
    return render(request, template, context)


def _table_context(
    request: HtmxHttpRequest,
    tournament: Tournament,
    table_id: int,
    error: str = "",
    notice: str = "",
    entered: Entered | None = None,
    written: Table | None = None,
) -> dict[str, object]:
    if written is not None:
        view = play_selectors.table_view_after_entry(written, request.user)
    else:
        try:
            view = play_selectors.table_view(tournament, table_id)
        except Table.DoesNotExist:
            raise Http404 from None
    fmt = registry.of(tournament)
    return {
        "table_links": [],
        **fmt.table_context(tournament, view),
        "fmt": fmt,
        "tournament": tournament,
        "view": view,
        "table": view.table,
        "error": error,
        "notice": notice,
        "idempotency_key": uuid.uuid4().hex,
        **fmt.result_entry.context(tournament, view, entered),
        # With a second confirmation, whoever entered a game of the table cannot confirm its result.
        "own_entry": tournament.confirm_results
        and any(game.status == "valid" and game.entered_by_id == request.user.pk for game in view.games),
        "can_write": view.table.status != enums.TableStatus.CLOSED
        and view.table.round.status != enums.RoundStatus.FINISHED,
    }


def _render_table(
    request: HtmxHttpRequest,
    tournament: Tournament,
    table_id: int,
    *,
    error: str = "",
    notice: str = "",
    entered: Entered | None = None,
    entry_version: int | None = None,
    entry_status: str = "",
    written: Table | None = None,
) -> HttpResponse:
    """The table panel (htmx) or page; 409 when ``error`` says why an entry was refused.
    ``written``: the table as the entry just saved it (``Game.table_after_entry``), shown as is."""
    if not hasattr(request, "poll"):
        # After a write: the panel's ETag is the new version's, so the next poll is a 304.
        polling.attach(request, "referee-table", "table-panel", tournament.pk, extra=str(table_id))
    context = _table_context(request, tournament, table_id, error, notice, entered, written)
    template = "tournament/referee_table.html"
    if request.htmx:
        template += "#table-panel"
    response = render(request, template, context, status=409 if error else 200)
    table = context["table"]
    response["X-Table-Version"] = str(table.version)  # type: ignore[attr-defined]
    if error:
        response["X-Entry-Status"] = "refused"
        response["X-Refusal"] = quote(error)
    elif entry_status:
        response["X-Entry-Status"] = entry_status
        response["X-Entry-Version"] = str(entry_version if entry_version is not None else table.version)  # type: ignore[attr-defined]
    return response


@require_GET
@polled("referee-table", target="table-panel")
@tournament_role(enums.Role.REFEREE)
def table(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """One table on a referee's tablet. Polls itself (``#table-panel``) while no entry is half-done."""
    return _render_table(request, tournament, table_id)


def _refused(
    request: HtmxHttpRequest,
    tournament: Tournament,
    table_id: int,
    error: str,
    entered: Entered | None = None,
    *,
    attempt: str = "",
) -> HttpResponse:
    """Answer a refused entry. ``attempt`` names what was tried when the view itself refuses
    (the services audit their own refusals)."""
    if attempt:
        writes.audit_refusal(
            attempt,
            error,
            tournament=tournament,
            actor=request.user,
            table_id=table_id,
            form=audit_dump(request),
        )
    return _render_table(request, tournament, table_id, error=error, entered=entered)


def _saved(
    request: HtmxHttpRequest, tournament: Tournament, table_id: int, notice: str, game: Game | None = None
) -> HttpResponse:
    """A result entry was applied (or was already): say so, in the panel or as a message after the redirect."""
    status = "replayed" if game is not None and game.replayed else "saved"
    if not request.htmx:
        messages.success(request, notice)
        response = redirect("tournament:referee_table", tournament.pk, table_id)
        response["X-Entry-Status"] = status
        return response
    entry_version = game.table_version if game is not None else None
    written = game.table_after_entry if game is not None else None
    return _render_table(
        request, tournament, table_id, notice=notice, entry_status=status, entry_version=entry_version, written=written
    )


def _refused_entry(
    request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, table_id: int
) -> HttpResponse:
    """A table service refused: the table again with why (409)."""
    return _refused(request, tournament, table_id, error.message)


def _refused_game(request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, table_id: int) -> HttpResponse:
    """A game's result was refused: the table again with why (409) and the calculator as it was
    entered. A refusal at the entry's door (nothing to record yet) is audited here, the services
    audit their own."""
    if isinstance(error, EntryRefused):
        return _refused(request, tournament, table_id, error.message, error.entered, attempt=error.attempt)
    return _refused(request, tournament, table_id, error.message)


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_entry)
def set_dealer(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    posted = DealerForm.read(request)
    table = results.set_first_dealer(
        tournament=tournament,
        actor=request.user,
        table_id=table_id,
        player_id=posted["player"] or 0,
        version=posted["version"],
    )
    dealer = table.seats.select_related("player").get(position=table.first_dealer_position)
    notice = _("Saved: %(name)s deals the first game.") % {"name": dealer.player.name}
    return _saved(request, tournament, table_id, notice)


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_game)
def record_game(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """A game's result as the format enters it (``Format.result_entry``: the winner with the
    calculator's card points, or the loser); a refusal is answered by ``_refused_game``."""
    recorded = registry.of(tournament).result_entry.enter(
        tournament=tournament, actor=request.user, table_id=table_id, data=request.POST
    )
    return _saved(request, tournament, table_id, recorded.notice, recorded.game)


def _versioned(
    request: HtmxHttpRequest,
    tournament: Tournament,
    table_id: int,
    service: Callable[..., object],
    notice: str | Callable[[object], str] = "",
) -> HttpResponse:
    """Call a table service that takes the version the tablet saw; show the table again with ``notice``
    (a text, or a function of what the service returned). The views calling it answer refusals."""
    result = service(
        tournament=tournament,
        actor=request.user,
        table_id=table_id,
        version=VersionForm.read(request)["version"],
    )
    if callable(notice):
        notice = notice(result)
    if request.htmx:
        return _render_table(request, tournament, table_id, notice=notice)
    if notice:
        messages.success(request, notice)
    return redirect("tournament:referee_table", tournament.pk, table_id)


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_entry)
def undo_game(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    def undone(game: object) -> str:
        return _("Game %(number)d undone.") % {"number": game.number}  # type: ignore[attr-defined]

    return _versioned(request, tournament, table_id, registry.of(tournament).undo_result, undone)


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_entry)
def close_table(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    close = registry.of(tournament).close_table
    return _versioned(request, tournament, table_id, close, notice=_("Table closed. Thank you!"))


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_entry)
def call_time(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    call_time = registry.of(tournament).call_time
    if call_time is None:
        return _refused(
            request,
            tournament,
            table_id,
            _("This tournament plays a fixed number of games per table."),
            attempt="call_time",
        )
    return _versioned(request, tournament, table_id, call_time, _("Time is up: the table ends with the games played."))


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_game)
def confirm_pending(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """A referee (or the organiser) confirms a player's entry waiting at the table: it counts."""
    posted = PendingForm.read(request)
    recorded = pending.confirm_entry(
        tournament=tournament,
        fmt=registry.of(tournament),
        actor=request.user,
        table_id=table_id,
        game_id=posted["game"],
        version=posted["version"],
    )
    notice = _("Confirmed: game %(number)d counts.") % {"number": recorded.game.number}
    return _saved(request, tournament, table_id, notice)


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_entry)
def reject_pending(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """A referee (or the organiser) rejects a player's entry waiting at the table: not counted."""
    posted = PendingForm.read(request)
    game = pending.reject_entry(
        tournament=tournament, actor=request.user, table_id=table_id, game_id=posted["game"], reason=posted["reason"]
    )
    return _saved(request, tournament, table_id, _("Not counted: game %(number)d.") % {"number": game.number})


@require_POST
@tournament_role(enums.Role.REFEREE)
@answers_refusals(_refused_entry)
def clear_call(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """ "Handled": the referee is at the table that called."""
    pending.clear_call(tournament=tournament, actor=request.user, table_id=table_id)
    return _saved(request, tournament, table_id, _("The table's call is answered."))


@require_GET
@tournament_role(enums.Role.REFEREE)
def table_cards(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """Printable table cards with a QR code that opens the table on a tablet, in parts of
    ``selectors.printing.TABLES_PER_PART`` tables (``?part=``)."""
    rnd, part = printing.round_part(request, tournament, round_number)
    cards = []
    for tbl in rnd.tables.all():
        link = request.build_absolute_uri(reverse("tournament:referee_table", args=[tournament.pk, tbl.pk]))
        qr = printing.qr_svg(link)
        cards.append({"table": tbl, "link": link, "qr": qr})
    context = {"tournament": tournament, "round": rnd, "cards": cards, "part": part}
    return render(request, "tournament/table_cards.html", context)
