"""Organiser: run the rounds (one step at a time, choosing where counts do not split),
and everyone's ranking. The format decides what a step does (``Format.next_step``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from tournament import enums
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats import registry
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.play.rounds import option_label
from tournament.polling import polled
from tournament.selectors import audit as audit_reads
from tournament.selectors import desk as desk_reads
from tournament.selectors import play as play_reads
from tournament.selectors import ranking as ranking_reads

TEMPLATE = "tournament/rounds.html"


def _rounds_context(tournament: Tournament, **extra: object) -> dict[str, object]:
    fmt = registry.of(tournament)
    rounds = play_reads.rounds_overview(tournament)
    current = rounds[-1] if rounds else None
    open_tables = [t for t in current.tables.all() if t.status == enums.TableStatus.PLAYING] if current else []
    return {
        "tournament": tournament,
        "fmt": fmt,
        "rounds": rounds,
        "current": current,
        "open_tables": open_tables,
        "counters": desk_reads.desk_counters(tournament),
        "refused_count": audit_reads.refused_count(tournament),
        **fmt.rounds_context(tournament, rounds),
        **extra,
    }


@require_GET
@polled("rounds", target="rounds-body")
@tournament_role(enums.Role.ORGANISER)
def rounds(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser's rounds page; polls itself (``#rounds-body``)."""
    template = TEMPLATE
    if request.htmx and request.htmx.target == "rounds-body":
        template += "#rounds-body"
    return render(request, template, _rounds_context(tournament))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def next_round(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """One organiser step of the tournament's format (``action`` and ``choice`` as posted)."""
    action = request.POST.get("action", "")
    try:
        done = registry.of(tournament).next_step(
            tournament=tournament, actor=request.user, action=action, choice=request.POST.get("choice", "")
        )
    except NeedsChoice as needs:
        options = [(option.code, option_label(option)) for option in needs.options]
        context = _rounds_context(tournament, choice_message=needs.message, options=options, choice_action=action)
        return render(request, TEMPLATE, context, status=409)
    except ServiceError as error:
        status = getattr(error, "status", 409)
        return render(request, TEMPLATE, _rounds_context(tournament, error=error.message), status=status)
    messages.success(request, done.message)
    if done.finished:
        return redirect("tournament:ranking", tournament.pk)
    return redirect("tournament:rounds", tournament.pk)


@require_GET
@tournament_role(enums.Role.REFEREE)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Everyone's place with the rule that decided it (provisional while play goes on)."""
    context = {"tournament": tournament, "ranking": ranking_reads.ranking(tournament)}
    return render(request, "tournament/ranking.html", context)
