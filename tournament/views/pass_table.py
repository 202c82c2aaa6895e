"""The player's table on their phone (issue 32, item 4): ``/pass/<token>/table/``.

Where players record their own table (``Tournament.table_entry``), a seated player sees the table
they are called to as a referee's tablet shows it (the format's own table template: "Won" with the
calculator, or "Lost"), enters a game, confirms a table-mate's entry or says "Not right", and calls
a referee. The entry forms post through the tablet's outbox (``static/js/outbox.js``: idempotency
key, the table's version, queued while offline) and are answered with the same headers as a
referee's tap (``X-Entry-Status``, ``X-Entry-Version``, ``X-Table-Version``, ``X-Refusal``): see
``views.referee``. The writes are ``passes.table_entry``'s; a refusal answers 409 with the panel
and why, nothing saved. The panel (``#table-panel``) polls itself: the ETag names the tournament's
version, so a table-mate's entry appears on the other phones.
"""

from __future__ import annotations

import uuid
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.record import Entered, EntryRefused, Recorded
from tournament.http import answers_refusals
from tournament.models import PlayerPass
from tournament.passes import table_entry
from tournament.polling import POLL_SECONDS, answer_if_unchanged, etag_for
from tournament.selectors import passes as passes_selectors
from tournament.versions import version as version_of
from tournament.views.forms import DealerForm, PendingForm
from tournament.views.passes import private_answer, with_pass

TEMPLATE = "tournament/pass_table.html"
TARGET = "table-panel"


def _partial(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == TARGET


def _etag(request: HttpRequest, player_pass: PlayerPass) -> str | None:
    tournament_id = player_pass.player.tournament_id
    version = version_of(tournament_id)
    if version is None:
        return None
    return etag_for(request, "pass-table", tournament_id, version, extra=str(player_pass.pk), private=False)


def _context(
    request: HttpRequest,
    player_pass: PlayerPass,
    token: str,
    error: str,
    notice: str,
    entered: Entered | None,
    etag: str | None,
) -> dict[str, object]:
    shown = passes_selectors.table_page(player_pass)
    tournament = shown.tournament
    fmt = registry.of(tournament)
    context: dict[str, object] = {
        "shown": shown,
        "tournament": tournament,
        "fmt": fmt,
        "view": shown.view,
        "token": token,
        "error": error,
        "notice": notice,
        "public_page": True,
        "idempotency_key": uuid.uuid4().hex,
        "poll": {
            "etag": etag or "",
            "seconds": getattr(settings, "STAFF_POLL_SECONDS", POLL_SECONDS),
        },
    }
    if shown.view is not None:
        table_id = shown.view.table.pk
        context.update(
            {
                **fmt.table_context(tournament, shown.view),
                **fmt.result_entry.context(tournament, shown.view, entered),
                "table": shown.view.table,
                "can_write": shown.can_enter,
                "entry_url": reverse("tournament:pass_record", kwargs={"token": token, "table_id": table_id}),
                "dealer_url": reverse("tournament:pass_dealer", kwargs={"token": token, "table_id": table_id}),
            }
        )
    return context


def _render(
    request: HttpRequest,
    player_pass: PlayerPass,
    token: str,
    *,
    error: str = "",
    notice: str = "",
    entered: Entered | None = None,
    game_status: str = "",
    game_version: int | None = None,
) -> HttpResponse:
    """The table page (or its panel for htmx, the outbox and the poll), with the outbox's headers."""
    partial = _partial(request)
    # The ETag names the version read BEFORE the table: a write committed while the table is read
    # leaves the panel with an older ETag, so the next poll brings it (a 304 never keeps it out).
    etag = _etag(request, player_pass)
    if partial and request.method == "GET":
        unchanged = answer_if_unchanged(request, etag)
        if unchanged is not None:
            return private_answer(unchanged)
    context = _context(request, player_pass, token, error, notice, entered, etag)
    response = render(request, TEMPLATE + ("#table-panel" if partial else ""), context, status=409 if error else 200)
    view = context["view"]
    if view is not None:
        response["X-Table-Version"] = str(view.table.version)  # type: ignore[attr-defined]
    if error:
        response["X-Entry-Status"] = "refused"
        response["X-Refusal"] = quote(error)
    elif game_status:
        response["X-Entry-Status"] = game_status
        version = game_version if game_version is not None else getattr(getattr(view, "table", None), "version", 0)
        response["X-Entry-Version"] = str(version)
    elif partial and request.method == "GET" and context["poll"]["etag"]:  # type: ignore[index]
        response["ETag"] = context["poll"]["etag"]  # type: ignore[index]
    return private_answer(response)


@require_GET
@with_pass
def table_page(request: HttpRequest, token: str, player_pass: PlayerPass) -> HttpResponse:
    """The table the pass's player is called to, with what they may do there."""
    return _render(request, player_pass, token)


@with_pass
def _refused(
    request: HttpRequest, error: ServiceError, token: str, table_id: int, player_pass: PlayerPass
) -> HttpResponse:
    """A refused write: the panel (or page) with why, 409; the calculator as it was entered."""
    entered = error.entered if isinstance(error, EntryRefused) else None
    return _render(request, player_pass, token, error=error.message, entered=entered)


def _done(request: HttpRequest, player_pass: PlayerPass, token: str, notice: str, game: object = None) -> HttpResponse:
    """A write applied (or already): the panel saying so, or, for a plain form (the pass page's
    Confirm / Not right), the table page again, saying it once (a message: a reload or the back
    button shows the table as it is, never the form posted again)."""
    if request.headers.get("HX-Request") != "true":
        if notice:
            messages.success(request, notice)
        return redirect("tournament:pass_table", token=token)
    player_pass.refresh_from_db(fields=["revoked_at"])
    status = ("replayed" if getattr(game, "replayed", False) else "saved") if game is not None else ""
    version = getattr(game, "table_version", None)
    return _render(request, player_pass, token, notice=notice, game_status=status, game_version=version)


@require_POST
@answers_refusals(_refused)
@with_pass
def record(request: HttpRequest, token: str, table_id: int, player_pass: PlayerPass) -> HttpResponse:
    """A game entered on the phone (the outbox posts it): kept until a table-mate confirms it."""
    recorded: Recorded = table_entry.enter(pass_id=player_pass.pk, table_id=table_id, data=request.POST)
    return _done(request, player_pass, token, recorded.notice, recorded.game)


@require_POST
@answers_refusals(_refused)
@with_pass
def dealer(request: HttpRequest, token: str, table_id: int, player_pass: PlayerPass) -> HttpResponse:
    """Who drew the highest card, tapped on the phone (the outbox posts it)."""
    posted = DealerForm.read(request)
    table = table_entry.set_dealer(
        pass_id=player_pass.pk, table_id=table_id, player_id=posted["player"] or 0, version=posted["version"]
    )
    dealer_seat = table.seats.select_related("player").get(position=table.first_dealer_position)
    notice = _("Saved: %(name)s deals the first game.") % {"name": dealer_seat.player.name}
    return _done(request, player_pass, token, notice, _Version(table.version))


class _Version:
    """The answer of a write that is no game: the table's version after it (``X-Entry-Version``)."""

    replayed = False

    def __init__(self, version: int) -> None:
        self.table_version = version


@require_POST
@answers_refusals(_refused)
@with_pass
def confirm(request: HttpRequest, token: str, table_id: int, player_pass: PlayerPass) -> HttpResponse:
    """ "Confirm": a table-mate's entry counts."""
    posted = PendingForm.read(request)
    recorded = table_entry.confirm(
        pass_id=player_pass.pk, table_id=table_id, game_id=posted["game"], version=posted["version"]
    )
    notice = _("Confirmed: game %(number)d counts.") % {"number": recorded.game.number}
    return _done(request, player_pass, token, notice)


@require_POST
@answers_refusals(_refused)
@with_pass
def reject(request: HttpRequest, token: str, table_id: int, player_pass: PlayerPass) -> HttpResponse:
    """ "Not right" (a referee is called) or, by the player who entered it, "Take back"."""
    posted = PendingForm.read(request)
    game = table_entry.reject(
        pass_id=player_pass.pk, table_id=table_id, game_id=posted["game"], reason=posted["reason"]
    )
    if game.entered_by_player_id == player_pass.player_id:
        notice = _("Taken back: game %(number)d was not counted. Enter it again.") % {"number": game.number}
    else:
        notice = _("Not counted: game %(number)d. A referee is called to your table.") % {"number": game.number}
    return _done(request, player_pass, token, notice)


@require_POST
@answers_refusals(_refused)
@with_pass
def call_referee(request: HttpRequest, token: str, table_id: int, player_pass: PlayerPass) -> HttpResponse:
    """ "Call a referee": the table goes to the top of the referees' list."""
    table_entry.call_referee(pass_id=player_pass.pk, table_id=table_id)
    return _done(request, player_pass, token, _("A referee is called to your table."))
