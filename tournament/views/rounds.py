"""Organiser: start rounds, choose where counts do not split, see the ranking."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament import enums, play_services, selectors
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.services import ServiceError


def _rounds_context(tournament: Tournament, **extra: object) -> dict[str, object]:
    rounds = selectors.rounds_overview(tournament)
    current = rounds[-1] if rounds else None
    open_tables = [t for t in current.tables.all() if t.status == enums.TableStatus.PLAYING] if current else []
    return {
        "tournament": tournament,
        "rounds": rounds,
        "current": current,
        "open_tables": open_tables,
        "counters": selectors.desk_counters(tournament),
        **extra,
    }


@require_GET
@tournament_role(enums.Role.ORGANISER)
def rounds(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournament/rounds.html", _rounds_context(tournament))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def next_round(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        started = play_services.generate_next_round(
            tournament=tournament, actor=request.user, choice=request.POST.get("choice", "")
        )
    except play_services.NeedsChoice as choice:
        options = [(option.code, play_services.option_label(option)) for option in choice.options]
        context = _rounds_context(tournament, choice_message=choice.message, options=options)
        return render(request, "tournament/rounds.html", context, status=409)
    except ServiceError as error:
        return render(request, "tournament/rounds.html", _rounds_context(tournament, error=error.message), status=409)
    if started.finished:
        messages.success(request, _("The tournament is decided."))
        return redirect("tournament:ranking", tournament.pk)
    assert started.round is not None
    messages.success(
        request,
        _("%(round)s seated: %(tables)d tables.") % {"round": started.round, "tables": started.round.tables.count()},
    )
    return redirect("tournament:rounds", tournament.pk)


@require_GET
@tournament_role(enums.Role.REFEREE)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    rows = selectors.final_ranking(tournament) if tournament.format == enums.Format.KNOCKOUT else []
    return render(request, "tournament/ranking.html", {"tournament": tournament, "rows": rows})
