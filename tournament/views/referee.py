"""Referee tablets: the current round's tables and one table's results."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

import segno
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.rules.uno import ACTION_CARDS, NUMBER_CARDS
from tournament import enums, life_bands_services, play_services, selectors
from tournament.http import HtmxHttpRequest
from tournament.models import Table, Tournament
from tournament.permissions import tournament_role
from tournament.services import ServiceError

CARD_LABELS = {
    **{card: card for card in NUMBER_CARDS},
    "draw_two": "+2",
    "reverse": "⇄ Rev",
    "skip": "⊘ Skip",
    "wild": "W",
    "wild_draw_four": "W+4",
}


@require_GET
@tournament_role(enums.Role.REFEREE)
def tables(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The current round's tables: a referee taps theirs."""
    current = selectors.round_tables(tournament)
    return render(request, "tournament/referee_tables.html", {"tournament": tournament, "round": current})


def _table_context(
    request: HtmxHttpRequest, tournament: Tournament, table_id: int, error: str = ""
) -> dict[str, object]:
    try:
        view = selectors.table_view(tournament, table_id)
    except Table.DoesNotExist:
        raise Http404 from None
    scoring = tournament.scoring_table
    cards = [
        (card, CARD_LABELS[card], int(card) if card in NUMBER_CARDS else scoring[card])
        for card in NUMBER_CARDS + ACTION_CARDS
    ]
    life = tournament.format == enums.Format.LIFE_BANDS
    grand_final = view.table.round.stage == enums.Stage.GRAND_FINAL
    bands = life_bands_services.bands_left(tournament, [seat.player_id for seat in view.seats]) if life else {}
    sharp_at = None
    if life and not grand_final and view.table.started_at:
        sharp_at = view.table.started_at + timedelta(minutes=tournament.sharp_play_minutes)
    open_duels: list[Table] = []
    tied_players: set[int] = set()
    if view.table.points_target is not None:
        open_duels = list(
            Table.objects.filter(round=view.table.round, is_duel=True, status=enums.TableStatus.PLAYING)
            .prefetch_related("seats")
            .order_by("number")
        )
        tied_players = {seat.player_id for duel in open_duels for seat in duel.seats.all()}
    return {
        "open_duels": open_duels,
        "tied_players": tied_players,
        "life_bands": life,
        "grand_final": grand_final,
        "bands": [(seat, bands.get(seat.player_id, 0)) for seat in view.seats],
        "sharp_at": sharp_at,
        "sharp_now": bool(sharp_at and timezone.now() >= sharp_at),
        "elapsed": _elapsed(view.table.started_at),
        "survivors": [seat.player.name for seat in view.seats if seat.out_order is None],
        "tournament": tournament,
        "view": view,
        "table": view.table,
        "error": error,
        "idempotency_key": uuid.uuid4().hex,
        "cards": cards,
        # Card points are entered in the knockout final and at every points-format table.
        "is_final": view.table.points_target is not None or tournament.format == enums.Format.POINTS,
        "is_points": tournament.format == enums.Format.POINTS,
        "can_call_time": tournament.format == enums.Format.POINTS and bool(tournament.round_time_limit_minutes),
        "can_write": view.table.status != enums.TableStatus.CLOSED
        and view.table.round.status != enums.RoundStatus.FINISHED,
    }


def _elapsed(started_at: datetime | None) -> str:
    """Minutes:seconds since the table started, as the timer shows it."""
    if started_at is None:
        return ""
    seconds = max(int((timezone.now() - started_at).total_seconds()), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _render_table(request: HtmxHttpRequest, tournament: Tournament, table_id: int, error: str = "") -> HttpResponse:
    context = _table_context(request, tournament, table_id, error)
    if request.htmx:
        # htmx swaps only 2xx answers; the error is shown inside the panel.
        return render(request, "tournament/referee_table.html#table-panel", context)
    return render(request, "tournament/referee_table.html", context, status=409 if error else 200)


@require_GET
@tournament_role(enums.Role.REFEREE)
def table(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    return _render_table(request, tournament, table_id)


def _after_write(request: HtmxHttpRequest, tournament: Tournament, table_id: int, error: str = "") -> HttpResponse:
    if request.htmx or error:
        return _render_table(request, tournament, table_id, error)
    return redirect("tournament:referee_table", tournament.pk, table_id)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


@require_POST
@tournament_role(enums.Role.REFEREE)
def set_dealer(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    try:
        play_services.set_first_dealer(
            tournament=tournament,
            actor=request.user,
            table_id=table_id,
            player_id=_int(request.POST.get("player")) or 0,
            version=_int(request.POST.get("version")) or 0,
        )
    except ServiceError as error:
        return _after_write(request, tournament, table_id, error.message)
    return _after_write(request, tournament, table_id)


def _final_entries(request: HtmxHttpRequest) -> tuple[dict[int, int], dict[int, dict[str, int]], str]:
    """Card points typed as numbers and hands tapped on the calculator, per player."""
    points: dict[int, int] = {}
    hands: dict[int, dict[str, int]] = {}
    for key, value in request.POST.items():
        if key.startswith("points_"):
            pid = _int(key.removeprefix("points_"))
            if pid is None or value.strip() == "":
                continue
            number = _int(value.strip())
            if number is None:
                return {}, {}, _("Card points must be whole numbers.")
            points[pid] = number
        elif key.startswith("hand_"):
            _prefix, pid_text, card = key.split("_", 2)
            pid, count = _int(pid_text), _int(value)
            if pid is None or count is None or card not in CARD_LABELS:
                return {}, {}, _("The calculator sent an unknown card.")
            if count:
                hands.setdefault(pid, {})[card] = count
    return points, hands, ""


@require_POST
@tournament_role(enums.Role.REFEREE)
def record_game(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    if tournament.format == enums.Format.LIFE_BANDS:
        return _record_loss(request, tournament, table_id)
    points, hands, problem = _final_entries(request)
    if problem:
        return _after_write(request, tournament, table_id, problem)
    winner = _int(request.POST.get("winner"))
    if winner is None:
        return _after_write(request, tournament, table_id, _("Tap the winner of the game."))
    try:
        play_services.record_game(
            tournament=tournament,
            actor=request.user,
            table_id=table_id,
            winner_id=winner,
            version=_int(request.POST.get("version")) or 0,
            idempotency_key=request.POST.get("key", ""),
            card_points=points,
            hands=hands,
        )
    except ServiceError as error:
        return _after_write(request, tournament, table_id, error.message)
    return _after_write(request, tournament, table_id)


def _record_loss(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    loser = _int(request.POST.get("loser"))
    if loser is None:
        return _after_write(request, tournament, table_id, _("Tap the player who lost the game."))
    try:
        life_bands_services.record_loss(
            tournament=tournament,
            actor=request.user,
            table_id=table_id,
            loser_id=loser,
            version=_int(request.POST.get("version")) or 0,
            idempotency_key=request.POST.get("key", ""),
        )
    except ServiceError as error:
        return _after_write(request, tournament, table_id, error.message)
    return _after_write(request, tournament, table_id)


def _versioned(
    request: HtmxHttpRequest, tournament: Tournament, table_id: int, service: Callable[..., object], notice: str = ""
) -> HttpResponse:
    """Call a table service that takes the version the tablet saw; show the table again."""
    try:
        service(
            tournament=tournament,
            actor=request.user,
            table_id=table_id,
            version=_int(request.POST.get("version")) or 0,
        )
    except ServiceError as error:
        return _after_write(request, tournament, table_id, error.message)
    if notice and request.htmx:
        context = _table_context(request, tournament, table_id) | {"notice": notice}
        return render(request, "tournament/referee_table.html#table-panel", context)
    if notice:
        messages.success(request, notice)
    return _after_write(request, tournament, table_id)


@require_POST
@tournament_role(enums.Role.REFEREE)
def undo_game(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    if tournament.format == enums.Format.LIFE_BANDS:
        return _versioned(request, tournament, table_id, life_bands_services.undo_last_loss)
    return _versioned(request, tournament, table_id, play_services.undo_last_game)


@require_POST
@tournament_role(enums.Role.REFEREE)
def close_table(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    return _versioned(request, tournament, table_id, play_services.close_table, notice=_("Table closed. Thank you!"))


@require_POST
@tournament_role(enums.Role.REFEREE)
def call_time(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    return _versioned(request, tournament, table_id, play_services.call_time)


@require_GET
@tournament_role(enums.Role.REFEREE)
def table_cards(request: HtmxHttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """Printable table cards with a QR code that opens the table on a tablet."""
    rnd = selectors.round_tables(tournament, round_number)
    if rnd is None:
        raise Http404
    cards = []
    for tbl in rnd.tables.all():
        link = request.build_absolute_uri(reverse("tournament:referee_table", args=[tournament.pk, tbl.pk]))
        qr = segno.make(link, error="m").svg_inline(scale=5, border=1)
        cards.append({"table": tbl, "link": link, "qr": qr})
    return render(request, "tournament/table_cards.html", {"tournament": tournament, "round": rnd, "cards": cards})
