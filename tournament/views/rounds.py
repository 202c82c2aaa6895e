"""Organiser: run the rounds (one step at a time, choosing where counts do not split),
and everyone's ranking. The format decides what a step does (``Format.next_step``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from tournament import enums
from tournament.errors import NeedsChoice, NeedsConfirmation, ServiceError
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
from tournament.views.desk import confirm_panel, is_confirmed

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
    """One organiser step of the tournament's format (``action``, ``choice`` and ``confirm`` as posted).

    A step that loses something (finishing early) answers the page with the format's
    question (``NeedsConfirmation``) and a "Yes" posting the same step with ``confirm=1``.
    Under htmx (the finish form) the answers replace ``#rounds-body`` and success redirects."""
    action = request.POST.get("action", "")
    choice = request.POST.get("choice", "")
    template = TEMPLATE + "#rounds-body" if request.htmx else TEMPLATE
    try:
        done = registry.of(tournament).next_step(
            tournament=tournament, actor=request.user, action=action, choice=choice, confirmed=is_confirmed(request)
        )
    except NeedsChoice as needs:
        options = [(option.code, option_label(option)) for option in needs.options]
        context = _rounds_context(tournament, choice_message=needs.message, options=options, choice_action=action)
        return render(request, template, context, status=409)
    except NeedsConfirmation as question:
        url = reverse("tournament:rounds", args=[tournament.pk])
        panel = confirm_panel(
            question,
            url=reverse("tournament:next_round", args=[tournament.pk]),
            fields=[("action", action), ("choice", choice)],
            label=_("Yes, finish now") if question.kind == "finish_early" else _("Yes, go on"),
            cancel_url=url,
            target="#rounds-body",
        )
        return render(request, template, _rounds_context(tournament, panel=panel))
    except ServiceError as error:
        status = getattr(error, "status", 409)
        return render(request, template, _rounds_context(tournament, error=error.message), status=status)
    messages.success(request, done.message)
    target = "tournament:ranking" if done.finished else "tournament:rounds"
    if request.htmx:
        return HttpResponseClientRedirect(reverse(target, args=[tournament.pk]))
    return redirect(target, tournament.pk)


@require_GET
@tournament_role(enums.Role.REFEREE)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Everyone's place with the rule that decided it (provisional while play goes on)."""
    context = {"tournament": tournament, "ranking": ranking_reads.ranking(tournament)}
    return render(request, "tournament/ranking.html", context)
