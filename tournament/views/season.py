"""The club's season (issue 33, items 2-4): the organisers' series pages (list, create, settings,
standings, CSV, print), a person's history, the public series page and its projector screen by the
series' public key, and the player's own season through the pass.

Staff pages are the club's organisers' (``views.register.club_organiser``). Public pages show names
and clubs only, never contact data.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any

from anyascii import anyascii
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournament.desk import series as series_services
from tournament.forms import SeriesForm
from tournament.http import HtmxHttpRequest, refusal
from tournament.models import Club, Person, PlayerPass, Series, Tournament
from tournament.selectors import register as register_selectors
from tournament.selectors import season as season_selectors
from tournament.views.exports import CsvStream, SafeWriter
from tournament.views.forms import page_number
from tournament.views.passes import private_answer, with_pass
from tournament.views.register import club_organiser


def _series_of(club: Club, series_id: int) -> Series:
    series = Series.objects.filter(club=club, pk=series_id).first()
    if series is None:
        raise Http404(_("No such series in this club."))
    series.club = club
    return series


def _club_tournaments(club: Club) -> list[Tournament]:
    return list(Tournament.objects.filter(club=club).order_by("-date", "-pk").only("pk", "name", "date"))


@require_GET
@club_organiser
def series_list(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """The club's series, newest first, each with its standings' link."""
    series = list(Series.objects.filter(club=club).order_by("-created_at", "-pk"))
    return render(request, "tournament/season/series_list.html", {"club": club, "series_list": series})


def _form_page(
    request: HtmxHttpRequest, club: Club, form: SeriesForm, series: Series | None, status: int
) -> HttpResponse:
    context = {"club": club, "form": form, "series": series}
    return render(request, "tournament/season/series_form.html", context, status=status)


def _settings_of(form: SeriesForm) -> dict[str, Any]:
    return {name: form.cleaned_data[name] for name in series_services.SETTINGS}


@require_http_methods(["GET", "POST"])
@club_organiser
def series_create(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """A new series: its settings (with help texts) and its tournaments, chosen among the club's."""
    tournaments = _club_tournaments(club)
    if request.method != "POST":
        return _form_page(request, club, SeriesForm(tournaments=tournaments), None, 200)
    form = SeriesForm(request.POST, tournaments=tournaments)
    if form.is_valid():
        with refusal(form) as refused:
            series = series_services.create_series(
                club=club,
                actor=request.user,
                settings=_settings_of(form),
                tournament_ids=form.cleaned_data["tournament_ids"],
            )
        if not refused:
            messages.success(request, _("The series is saved."))
            return redirect("tournament:series", club.pk, series.pk)
    return _form_page(request, club, form, None, 422)


@require_http_methods(["GET", "POST"])
@club_organiser
def series_edit(request: HtmxHttpRequest, club: Club, series_id: int) -> HttpResponse:
    """The series' settings and tournaments."""
    series = _series_of(club, series_id)
    tournaments = _club_tournaments(club)
    if request.method != "POST":
        form = SeriesForm(initial=SeriesForm.initial_of(series), tournaments=tournaments)
        return _form_page(request, club, form, series, 200)
    form = SeriesForm(request.POST, tournaments=tournaments)
    if form.is_valid():
        with refusal(form) as refused:
            series_services.update_series(
                series=series,
                actor=request.user,
                settings=_settings_of(form),
                tournament_ids=form.cleaned_data["tournament_ids"],
            )
        if not refused:
            messages.success(request, _("The series is saved."))
            return redirect("tournament:series", club.pk, series.pk)
    return _form_page(request, club, form, series, 422)


@require_GET
@club_organiser
def series_standings(request: HtmxHttpRequest, club: Club, series_id: int) -> HttpResponse:
    """The series' standings, 50 a page, each place explained; the events counted and those not yet."""
    series = _series_of(club, series_id)
    shown = season_selectors.series_page(series, page=page_number(request))
    context = {"club": club, "series": series, "shown": shown, "public_link": _public_link(request, series)}
    return render(request, "tournament/season/series.html", context)


def _public_link(request: HttpRequest, series: Series) -> str:
    from django.urls import reverse

    return request.build_absolute_uri(reverse("tournament:series_public", args=[series.public_key]))


@require_GET
@club_organiser
def series_print(request: HtmxHttpRequest, club: Club, series_id: int) -> HttpResponse:
    """The whole standings on A4 (print CSS)."""
    series = _series_of(club, series_id)
    shown = season_selectors.series_page(series, page=1, size=100_000)
    return render(request, "tournament/season/series_print.html", {"club": club, "series": series, "shown": shown})


class _Line:
    def write(self, text: str) -> str:
        return text


@require_GET
@club_organiser
def series_csv(request: HtmxHttpRequest, club: Club, series_id: int) -> CsvStream:
    """The standings as CSV (semicolons, every cell spreadsheet-safe): place, name, club, total,
    events, ranked, each event's points (dropped results in brackets), why the place."""
    series = _series_of(club, series_id)
    shown = season_selectors.series_page(series, page=1, size=100_000)
    header = [_("Place"), _("Name"), _("Club"), _("Total"), _("Events"), _("Ranked")]
    header += [f"{event.name} ({event.held_on.isoformat()})" for event in shown.events]
    header.append(_("Why this place"))
    writer = SafeWriter(_Line())

    def lines() -> Iterator[str]:
        yield "\ufeff"
        for cells in chain([header], (_csv_cells(line) for line in shown.rows)):
            yield writer.writerow(cells)

    response = CsvStream(lines(), content_type="text/csv; charset=utf-8")
    stem = slugify(anyascii(series.name)) or f"series-{series.pk}"
    response["Content-Disposition"] = f'attachment; filename="{stem}-standings.csv"'
    return response


def _csv_cells(line: season_selectors.ShownRow) -> list[object]:
    row = line.row
    cells: list[object] = [row.place, line.name, line.team, row.total, row.events_played]
    cells.append(_("yes") if row.qualified else _("not yet"))
    for score in line.cells:
        if score is None:
            cells.append("")
        else:
            cells.append(score.points if score.counted else f"({score.points})")
    cells.append(line.explained)
    return cells


@require_GET
@club_organiser
def person_history(request: HtmxHttpRequest, club: Club, person_id: int) -> HttpResponse:
    """A person's season: events, places, series points and the rating over time (chart and table)."""
    person = register_selectors.person_of(club, person_id)
    if person is None:
        raise Http404(_("No such person in this register."))
    if person.merged_into_id is not None:  # a merged entry's history is the kept person's
        return redirect("tournament:person_history", club.pk, person.merged_into_id)
    person.club = club
    history = season_selectors.history(person)
    return render(request, "tournament/season/history.html", {"club": club, "history": history, "staff": True})


# --- public ---------------------------------------------------------------------------------------


def _public_series(public_key: str) -> Series:
    return get_object_or_404(Series.objects.select_related("club"), public_key=public_key)


@require_GET
def series_public(request: HttpRequest, public_key: str) -> HttpResponse:
    """The series' public standings (names and clubs only); the region polls itself (``?part=1``)."""
    series = _public_series(public_key)
    shown = season_selectors.series_page(series, page=page_number(request))
    context = {"series": series, "shown": shown, "public_page": True}
    template = "tournament/season/series_public.html" + ("#standings" if request.GET.get("part") else "")
    return render(request, template, context)


@require_GET
def series_screen(request: HttpRequest, public_key: str) -> HttpResponse:
    """The series on the projector: the leading rows in large type, polled (``?part=1``)."""
    series = _public_series(public_key)
    shown = season_selectors.series_page(series, page=1, size=season_selectors.SCREEN_ROWS)
    context = {"series": series, "shown": shown}
    template = "tournament/season/series_screen.html" + ("#screen" if request.GET.get("part") else "")
    return render(request, template, context)


@require_GET
@with_pass
def pass_season(request: HttpRequest, token: str, player_pass: PlayerPass) -> HttpResponse:
    """ "My season" through the player's pass: the history of the pass's person (no contact data)."""
    person_id = player_pass.player.person_id
    person = None
    if person_id is not None:
        person = Person.objects.select_related("club").filter(pk=person_id).first()
    history = season_selectors.history(person) if person is not None else None
    context = {"history": history, "token": token, "public_page": True, "tournament": player_pass.player.tournament}
    return private_answer(render(request, "tournament/season/pass_history.html", context))
