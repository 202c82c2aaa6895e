"""The points format's own pages: who plays the next round, where the organiser or the desk
pauses a checked-in player and brings them back.

The writes answer with the page the form was on (the next round's players, the rounds page
or the check-in list) and a message; a refusal is the service's translated reason, nothing
saved. The players page is not polled (the rounds page is): a long list stays as it is while
someone works in it.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament import enums
from tournament.errors import ServiceError
from tournament.formats.points import reads, services
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role

TEMPLATE = "formats/points/field.html"


def _is_organiser(request: HtmxHttpRequest) -> bool:
    return enums.Role.ORGANISER in request.tournament_roles  # type: ignore[attr-defined]


def _back(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Back to the posted ``back_to``: "field" (the next round's players), "check_in", else the rounds
    page (the desk, which has no rounds page, goes to the check-in list)."""
    back_to = request.POST.get("back_to", "")
    if back_to == "field":
        return redirect("tournament:points_field", tournament.pk, reads.rounds_played(tournament) + 1)
    if back_to == "check_in" or not _is_organiser(request):
        return redirect("tournament:check_in", tournament.pk)
    return redirect("tournament:rounds", tournament.pk)


@require_GET
@tournament_role(enums.Role.DESK)
def field(request: HtmxHttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Who plays round ``number`` (the next round to be seated; another number goes there): every
    checked-in player with "Pause next round", or "Back from round N" for those who pause."""
    seated = reads.rounds_played(tournament)
    if number != seated + 1:
        return redirect("tournament:points_field", tournament.pk, seated + 1)
    context = {
        "tournament": tournament,
        "field": reads.field_view(tournament, seated),
        "number": number,
        "is_organiser": _is_organiser(request),
    }
    return render(request, TEMPLATE, context)


@require_POST
@tournament_role(enums.Role.DESK)
def pause(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Pause the player from the next round on (``services.pause_player``)."""
    try:
        change = services.pause_player(tournament=tournament, actor=request.user, player_id=player_id)
    except ServiceError as error:
        messages.error(request, error.message)
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
    try:
        change = services.resume_player(tournament=tournament, actor=request.user, player_id=player_id)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(name)s is back from round %(round)d.") % {"name": change.player.name, "round": change.next_round},
        )
    return _back(request, tournament)
