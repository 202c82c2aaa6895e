"""The points format's own pages: who plays the next round, where the organiser or the desk
pauses a checked-in player and brings them back; the organiser's preview of the next round's
seating (its repeats against the unavoidable ones) and "Seat as shown".

The writes answer with the page the form was on (the next round's players, the rounds page
or the check-in list) and a message; a refusal is the service's translated reason, nothing
saved. The players page is not polled (the rounds page is): a long list stays as it is while
someone works in it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament import draws, enums
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats.points import selectors as points_selectors
from tournament.formats.points import services
from tournament.http import HtmxHttpRequest, answers_refusals, refusal
from tournament.models import Player, Tournament
from tournament.permissions import tournament_role
from tournament.play.rounds import option_label
from tournament.views.forms import BackToForm, SeatPreviewedForm

TEMPLATE = "formats/points/field.html"


def _is_organiser(request: HtmxHttpRequest) -> bool:
    return enums.Role.ORGANISER in request.tournament_roles  # type: ignore[attr-defined]


def _back(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Back to the posted ``back_to``: "field" (the next round's players), "check_in", else the rounds
    page (the desk, which has no rounds page, goes to the check-in list)."""
    back_to = BackToForm.read(request)["back_to"]
    if back_to == "field":
        return redirect("tournament:points_field", tournament.pk, points_selectors.rounds_played(tournament) + 1)
    if back_to == "check_in" or not _is_organiser(request):
        return redirect("tournament:check_in", tournament.pk)
    return redirect("tournament:rounds", tournament.pk)


@require_GET
@tournament_role(enums.Role.DESK)
def field(request: HtmxHttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Who plays round ``number`` (the next round to be seated; another number goes there): every
    checked-in player with "Pause next round", or "Back from round N" for those who pause."""
    seated = points_selectors.rounds_played(tournament)
    if number != seated + 1:
        return redirect("tournament:points_field", tournament.pk, seated + 1)
    context = {
        "tournament": tournament,
        "field": points_selectors.field_view(tournament, seated),
        "number": number,
        "is_organiser": _is_organiser(request),
    }
    return render(request, TEMPLATE, context)


@require_POST
@tournament_role(enums.Role.DESK)
def pause(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Pause the player from the next round on (``services.pause_player``)."""
    with refusal() as refused:
        change = services.pause_player(tournament=tournament, actor=request.user, player_id=player_id)
    if refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(name)s pauses from round %(round)d.")
            % {"name": change.player.name, "round": change.player.paused_from_round},
        )
    return _back(request, tournament)


@require_POST
@tournament_role(enums.Role.DESK)
def resume(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Bring the paused player back from the next round on (``services.resume_player``)."""
    with refusal() as refused:
        change = services.resume_player(tournament=tournament, actor=request.user, player_id=player_id)
    if refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(name)s is back from round %(round)d.") % {"name": change.player.name, "round": change.next_round},
        )
    return _back(request, tournament)


PREVIEW_TEMPLATE = "formats/points/preview.html"


def _number_param(value: str, digits: int) -> int | None:
    """A non-negative whole number of at most ``digits`` digits, else None (never a 500)."""
    value = value.strip()
    return int(value) if value.isdecimal() and len(value) <= digits else None


def _preview_url(tournament: Tournament, number: int, seed: int | None = None, choice: str = "") -> str:
    url = reverse("tournament:points_preview", args=[tournament.pk, number])
    query = urlencode({key: value for key, value in (("seed", seed), ("choice", choice)) if value not in (None, "")})
    return f"{url}?{query}" if query else url


@dataclass(frozen=True)
class PreviewTable:
    """One table of the preview: its number, its players in seat order, and the pairs at it who
    met before as (name, name, times)."""

    number: int
    players: list[Player]
    repeats: list[tuple[str, str, int]]
    # A fixed seat is kept here (its number is the fixed player's).
    fixed: bool = False


def _preview_tables(next_round: services.NextRound) -> list[PreviewTable]:
    """The planned tables with the players' names and start numbers (one query)."""
    ids = [pid for table in next_round.plan.tables for pid in table]
    players = Player.objects.in_bulk(ids)
    tables = []
    # A fixed seat's table shows its number; the others the smallest numbers left (as seated).
    wanted = list(next_round.plan.numbers or [None] * len(next_round.plan.tables))
    taken = {number for number in wanted if number is not None}
    free = (number for number in itertools.count(1) if number not in taken)
    for fixed_number, table in zip(wanted, next_round.plan.tables, strict=True):
        number = fixed_number if fixed_number is not None else next(free)
        repeats = []
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                times = next_round.repeated.get(frozenset((first, second)))
                if times:
                    repeats.append((players[first].name, players[second].name, times))
        tables.append(PreviewTable(number, [players[pid] for pid in table], repeats, fixed_number is not None))
    return tables


@require_GET
@tournament_role(enums.Role.ORGANISER)
def preview(request: HtmxHttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Round ``number`` as it would be seated, saved nowhere: repeated pairs against the fewest any
    seating can have, repeats from the last round, the short-table spread, clubs, the lookahead
    over the rounds left, and every table with the pairs at it who met before.

    ``?seed=`` shows that draw again (a new one without), ``?choice=`` answers the question of a
    count that does not split. "Seat as shown" posts the seed, the choice and the tournament's
    version to ``seat_previewed``. Another round number goes to the next round's preview."""
    seated = points_selectors.rounds_played(tournament)
    if number != seated + 1:
        return redirect(_preview_url(tournament, seated + 1))
    seed = _number_param(request.GET.get("seed", ""), 9)
    seed = draws.new_seed() if seed is None else seed
    choice = request.GET.get("choice", "").strip()[:40]
    context: dict[str, object] = {"tournament": tournament, "number": number, "seed": seed, "choice": choice}
    try:
        with refusal() as refused:
            next_round = services.plan_next_round(tournament, choice=choice, seed=seed)
    except NeedsChoice as needs:
        context["choice_message"] = needs.message
        context["options"] = [(option.code, option_label(option), option.preselect) for option in needs.options]
    else:
        if refused:
            context["error"] = refused.message
            return render(request, PREVIEW_TEMPLATE, context)
        context["next_round"] = next_round
        context["plan"] = next_round.plan
        context["tables"] = _preview_tables(next_round)
        context["another_url"] = _preview_url(tournament, number, choice=choice)
    return render(request, PREVIEW_TEMPLATE, context)


def _refused_seating(
    request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, number: int
) -> HttpResponse:
    """A refused "Seat as shown": the other tap of a double tap won (the rounds page says so), or the
    preview again with the reason (a warning when a write made it stale)."""
    if points_selectors.rounds_played(tournament) >= number:  # the other tap of a double tap won
        messages.info(request, _("Round %(number)d is already seated.") % {"number": number})
        return redirect("tournament:rounds", tournament.pk)
    if isinstance(error, services.PreviewOutdated):
        messages.warning(request, error.message)
    else:
        messages.error(request, error.message)
    posted = SeatPreviewedForm.read(request)
    return redirect(_preview_url(tournament, number, _number_param(posted["seed"], 9), posted["choice"]))


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused_seating)
def seat_previewed(request: HtmxHttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Seat round ``number`` as previewed (``services.start_round`` with the posted seed, choice and
    ``previewed_version``). A second tap, or a round seated meanwhile, says so and goes to the
    rounds page; a preview made stale by a write shows the new preview with the same seed; a
    refusal shows the preview with the reason. Nothing is saved in any of these."""
    posted = SeatPreviewedForm.read(request)
    seed = _number_param(posted["seed"], 9)
    version = _number_param(posted["version"], 18)
    choice = posted["choice"]
    if points_selectors.rounds_played(tournament) >= number:
        messages.info(request, _("Round %(number)d is already seated.") % {"number": number})
        return redirect("tournament:rounds", tournament.pk)
    if seed is None or version is None:
        messages.error(request, _("This preview is incomplete. Here is a new one; look at it and seat again."))
        return redirect(_preview_url(tournament, number, choice=choice))
    new_round = services.start_round(
        tournament=tournament, actor=request.user, choice=choice, seed=seed, previewed_version=version
    )
    messages.success(request, _("%(round)s seated. %(note)s") % {"round": new_round, "note": new_round.seating_note})
    return redirect("tournament:rounds", tournament.pk)
