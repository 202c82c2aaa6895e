"""Organiser: start rounds, choose where counts do not split, see the ranking."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournament import enums, life_bands_services, play_services, points_services, selectors
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.polling import polled
from tournament.services import ServiceError


def _template(tournament: Tournament) -> str:
    if tournament.format == enums.Format.LIFE_BANDS:
        return "tournament/rounds_life_bands.html"
    if tournament.format == enums.Format.POINTS:
        return "tournament/rounds_points.html"
    return "tournament/rounds.html"


def _rounds_context(tournament: Tournament, **extra: object) -> dict[str, object]:
    rounds = selectors.rounds_overview(tournament)
    if tournament.format == enums.Format.POINTS:
        extra = {"rounds_left": max(tournament.rounds_planned - len(rounds), 0), **extra}
    if tournament.format == enums.Format.LIFE_BANDS:
        extra = {
            "state": life_bands_services.state(tournament),
            "pool": life_bands_services.pool_players(tournament),
            "main_rounds": [r for r in rounds if r.stage == enums.Stage.MAIN],
            "consolation_rounds": [r for r in rounds if r.stage == enums.Stage.CONSOLATION],
            "grand_final_rounds": [r for r in rounds if r.stage == enums.Stage.GRAND_FINAL],
            **extra,
        }
    current = rounds[-1] if rounds else None
    open_tables = [t for t in current.tables.all() if t.status == enums.TableStatus.PLAYING] if current else []
    return {
        "tournament": tournament,
        "rounds": rounds,
        "current": current,
        "open_tables": open_tables,
        "counters": selectors.desk_counters(tournament),
        "refused_count": selectors.refused_count(tournament),
        **extra,
    }


@require_GET
@polled("rounds", target="rounds-body")
@tournament_role(enums.Role.ORGANISER)
def rounds(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser's rounds page; polls itself (``#rounds-body``)."""
    template = _template(tournament)
    if request.htmx and request.htmx.target == "rounds-body":
        template += "#rounds-body"
    return render(request, template, _rounds_context(tournament))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def next_round(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    if tournament.format == enums.Format.LIFE_BANDS:
        return _life_bands_step(request, tournament)
    if tournament.format == enums.Format.POINTS:
        return _points_step(request, tournament)
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
    tables = started.round.tables.count()
    messages.success(
        request,
        ngettext("%(round)s seated: %(tables)d table.", "%(round)s seated: %(tables)d tables.", tables)
        % {"round": started.round, "tables": tables},
    )
    return redirect("tournament:rounds", tournament.pk)


def _points_step(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Seat the next points round, or finish the tournament after the last one."""
    try:
        if request.POST.get("action") == "finish":
            points_services.finish(tournament=tournament, actor=request.user)
            messages.success(request, _("The tournament is finished; the standings are final."))
            return redirect("tournament:ranking", tournament.pk)
        new_round = points_services.start_round(tournament=tournament, actor=request.user)
    except ServiceError as error:
        return render(request, _template(tournament), _rounds_context(tournament, error=error.message), status=409)
    messages.success(request, _("%(round)s seated. %(note)s") % {"round": new_round, "note": new_round.seating_note})
    return redirect("tournament:rounds", tournament.pk)


def _life_bands_step(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """One organiser action of the life-bands format: main round, consolation tables or grand final."""
    action = request.POST.get("action", "")
    choice = request.POST.get("choice", "")
    steps = {
        "main": lambda: life_bands_services.start_main_round(tournament=tournament, actor=request.user, choice=choice),
        "consolation": lambda: life_bands_services.form_consolation_tables(tournament=tournament, actor=request.user),
        "grand_final": lambda: life_bands_services.start_grand_final(tournament=tournament, actor=request.user),
    }
    if action not in steps:
        context = _rounds_context(tournament, error=_("Unknown action."))
        return render(request, _template(tournament), context, status=400)
    try:
        result = steps[action]()
    except play_services.NeedsChoice as needs:
        options = [(option.code, play_services.option_label(option)) for option in needs.options]
        context = _rounds_context(tournament, choice_message=needs.message, options=options)
        return render(request, _template(tournament), context, status=409)
    except ServiceError as error:
        return render(request, _template(tournament), _rounds_context(tournament, error=error.message), status=409)
    if action == "consolation" and not result:
        messages.success(request, _("Too few players are left for a table: they reach the grand final directly."))
        return redirect("tournament:rounds", tournament.pk)
    messages.success(
        request,
        {
            "main": _("The main round is seated."),
            "consolation": _("Consolation table seated from the waiting pool."),
            "grand_final": _("The grand final is seated."),
        }[action],
    )
    return redirect("tournament:rounds", tournament.pk)


@require_GET
@tournament_role(enums.Role.REFEREE)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    if tournament.format == enums.Format.POINTS:
        rows: list[object] = list(points_services.standings(tournament))
    elif tournament.format == enums.Format.LIFE_BANDS:
        rows = list(life_bands_services.final_ranking(tournament))
    elif tournament.format == enums.Format.KNOCKOUT:
        rows = list(selectors.final_ranking(tournament))
    else:
        rows = []
    return render(request, "tournament/ranking.html", {"tournament": tournament, "rows": rows})
