"""Organiser: run the rounds (one step at a time, choosing where counts do not split),
and everyone's ranking. The format decides what a step does (``Format.next_step``)."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from tournament import enums, folding
from tournament.errors import NeedsChoice, NeedsConfirmation, ServiceError
from tournament.formats import registry
from tournament.formats.record import Standing
from tournament.http import HtmxHttpRequest, answers_refusals, status_of
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.play.rounds import option_label
from tournament.polling import polled
from tournament.selectors import audit as audit_selectors
from tournament.selectors import day_plan as day_plan_selectors
from tournament.selectors import desk as desk_selectors
from tournament.selectors import passes as passes_selectors
from tournament.selectors import play as play_selectors
from tournament.selectors import ranking as ranking_selectors
from tournament.views.desk import confirm_panel
from tournament.views.forms import StepForm

TEMPLATE = "tournament/rounds.html"


# The playing tables the step names with a link (the others are counted).
OPEN_TABLES_NAMED = 24


def opened_round(request: HtmxHttpRequest) -> int | None:
    """The earlier round the organiser opened (``?round=N``); None for none or anything not a number."""
    value = request.GET.get("round", "").strip()
    return int(value) if value.isdecimal() and len(value) <= 6 else None


def first_shown(request: HtmxHttpRequest) -> int:
    """The first table number of the page of tables shown (``?from=``; 1 for none or anything else)."""
    value = request.GET.get("from", "").strip()
    return play_selectors.table_range(int(value) if value.isdecimal() and len(value) <= 6 else None)


def _rounds_context(
    tournament: Tournament, opened: int | None = None, first: int = 1, **extra: object
) -> dict[str, object]:
    """The rounds page: the running rounds (or the last) in full, earlier rounds collapsed but
    ``opened`` (``selectors.play.rounds_page``); the rounds shown show ``TABLES_PER_PAGE`` table
    numbers from ``first``, with a pager when a round has more."""
    fmt = registry.of(tournament)
    per_page = play_selectors.TABLES_PER_PAGE
    rounds = play_selectors.rounds_page(tournament, opened, first, per_page)
    current = rounds[-1] if rounds else None
    last = max((rnd.last_number or 0 for rnd in rounds if not rnd.collapsed), default=0)  # type: ignore[attr-defined]
    pages = [(start, min(start + per_page - 1, last)) for start in range(1, last + 1, per_page)]
    query = [f"round={opened}"] if opened is not None else []
    if len(pages) > 1:
        query.append(f"from={first}")
    poll_url = reverse("tournament:rounds", args=[tournament.pk])
    running = tournament.status == enums.TournamentStatus.RUNNING
    return {
        "tournament": tournament,
        "fmt": fmt,
        "rounds": rounds,
        "current": current,
        "open_tables_count": current.playing_count if current else 0,  # type: ignore[attr-defined]
        "open_tables_named": (
            play_selectors.playing_tables(current, OPEN_TABLES_NAMED) if current and current.playing_count else []  # type: ignore[attr-defined]
        ),
        "table_pages": pages if len(pages) > 1 else [],
        "first": first,
        "opened": opened,
        # The poll keeps an opened round open, and the page of tables shown.
        "poll_url": poll_url + ("?" + "&".join(query) if query else ""),
        "counters": desk_selectors.desk_counters(tournament),
        "refused_count": audit_selectors.refused_count(tournament),
        # The expected plan kept true by the games measured, and the tables holding the round up.
        "day": day_plan_selectors.read(tournament) if running else None,
        "holding": day_plan_selectors.holding_tables(tournament) if running else (),
        # Who has not said "I'm at my table" with their pass yet, per running round (one query).
        "not_seated": passes_selectors.not_seated(rounds),
        # Tables a player called a referee to, or where a player's entry waits (issue 32, item 4).
        "attention": play_selectors.attention(tournament, rounds),
        **fmt.rounds_context(tournament, rounds),
        **extra,
    }


def _opened_extra(request: HtmxHttpRequest, **kwargs: object) -> str:
    opened = opened_round(request)
    return f"{'' if opened is None else opened}-{first_shown(request)}"


@require_GET
@polled("rounds", target="rounds-body", extra=_opened_extra)
@tournament_role(enums.Role.ORGANISER)
def rounds(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser's rounds page; polls itself (``#rounds-body``).

    The running rounds (or the last) are shown in full, earlier ones collapsed; ``?round=N``
    opens round N as well (a plain link, or htmx answered with ``#rounds-body``). A round of
    more than ``TABLES_PER_PAGE`` tables shows them a page at a time (``?from=``)."""
    template = TEMPLATE
    if request.htmx and request.htmx.target == "rounds-body":
        template += "#rounds-body"
    return render(request, template, _rounds_context(tournament, opened_round(request), first_shown(request)))


def _step_template(request: HtmxHttpRequest) -> str:
    return TEMPLATE + "#rounds-body" if request.htmx else TEMPLATE


def _refused_step(request: HtmxHttpRequest, error: ServiceError, tournament: Tournament) -> HttpResponse:
    """A refused step: the rounds page (or its body under htmx) with why, 409 (400 for an unknown step)."""
    context = _rounds_context(tournament, error=error.message)
    return render(request, _step_template(request), context, status=status_of(error))


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused_step)
def next_round(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """One organiser step of the tournament's format (``action``, ``choice`` and ``confirm`` as posted).

    A step that loses something (finishing early) answers the page with the format's
    question (``NeedsConfirmation``) and a "Yes" posting the same step with ``confirm=1``.
    Under htmx (the finish form) the answers replace ``#rounds-body`` and success redirects."""
    posted = StepForm.read(request)
    action, choice = posted["action"], posted["choice"]
    template = _step_template(request)
    try:
        done = registry.of(tournament).next_step(
            tournament=tournament, actor=request.user, action=action, choice=choice, confirmed=posted["confirm"]
        )
    except NeedsChoice as needs:
        options = [(option.code, option_label(option), option.preselect) for option in needs.options]
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
    messages.success(request, done.message)
    target = "tournament:ranking" if done.finished else "tournament:rounds"
    if request.htmx:
        return HttpResponseClientRedirect(reverse(target, args=[tournament.pk]))
    return redirect(target, tournament.pk)


# Rows of the ranking page (the CSV and the print pack have every row).
RANKING_PER_PAGE = 100


def _ranking_page(request: HtmxHttpRequest, rows: list[Standing]) -> tuple[int, int | None, bool]:
    """The page to show (from 1) and the row found by ``?q=`` (a start number or a part of a name,
    however accented; None when nothing matches), and whether something was looked for."""
    query = request.GET.get("q", "").strip()[:100]
    found = None
    if query:
        number = int(query) if query.isdecimal() and len(query) <= 9 else None
        for index, row in enumerate(rows):
            if row.player.start_number == number or (
                number is None and folding.matches(query, row.player.name, row.player.club)
            ):
                found = index
                break
    if found is not None:
        return found // RANKING_PER_PAGE + 1, found, True
    page = request.GET.get("page", "1")
    number = int(page) if page.isdecimal() and len(page) <= 6 else 1
    last = max((len(rows) + RANKING_PER_PAGE - 1) // RANKING_PER_PAGE, 1)
    return min(max(number, 1), last), None, bool(query)


@require_GET
@tournament_role(enums.Role.REFEREE)
def ranking(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Everyone's place with the rule that decided it (provisional while play goes on).

    ``RANKING_PER_PAGE`` rows a page (``?page=``); ``?q=`` jumps to the page of a player
    (start number or name) and marks the row. A bad page number shows the nearest page."""
    standings = ranking_selectors.ranking(tournament, skip_empty=True)
    rows = standings.rows
    page, found, searched = _ranking_page(request, rows)
    start = (page - 1) * RANKING_PER_PAGE
    shown = replace(standings, rows=rows[start : start + RANKING_PER_PAGE])
    context = {
        "tournament": tournament,
        "ranking": shown,
        "total": len(rows),
        "page": page,
        "pages": max((len(rows) + RANKING_PER_PAGE - 1) // RANKING_PER_PAGE, 1),
        "first_place": start + 1,
        "found": rows[found].player.pk if found is not None else None,
        "query": request.GET.get("q", "").strip()[:100],
        "not_found": searched and found is None,
    }
    return render(request, "tournament/ranking.html", context)
