"""The organiser's tombola: the prizes in the order given out, the draw prize by prize, absent
winners drawn again, the projector switched to the tombola and back (``desk.tombola``).

A refused or invalid form comes back with its reason and what was typed (status 422);
a done action redirects to the page with a message saying what happened.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournament import enums
from tournament.desk import tombola as service
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.forms import TombolaMoveForm, TombolaPrizeForm, TombolaSettingsForm
from tournament.http import HtmxHttpRequest, answers_refusals, refusal
from tournament.models import TombolaPrize, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import audit as audit_selectors
from tournament.selectors import tombola as tombola_selectors
from tournament.views.desk import confirm_panel
from tournament.views.forms import ConfirmForm, ShownForm


def _context(tournament: Tournament, **extra: object) -> dict[str, object]:
    tombola = tombola_selectors.read(tournament)
    entrants = (
        tombola_selectors.entrants(tournament)
        if not tournament.tombola_skip_podium or tournament.status == (enums.TournamentStatus.FINISHED)
        else None
    )
    return {
        "tournament": tournament,
        "tombola": tombola,
        "can_win": len(entrants.pool()) if entrants is not None else None,
        "present": len(entrants.present) if entrants is not None else None,
        "add_form": TombolaPrizeForm(prefix="add"),
        "settings_form": TombolaSettingsForm(
            initial={
                "skip_podium": tournament.tombola_skip_podium,
                "repeat_winners": tournament.tombola_repeat_winners,
            }
        ),
        "edit_form": None,
        "edit_prize": None,
        "panel": None,
        "panel_prize": None,
        "error": "",
        **extra,
    }


def _page(request: HtmxHttpRequest, tournament: Tournament, status: int = 200, **extra: object) -> HttpResponse:
    fresh = Tournament.objects.get(pk=tournament.pk)  # as the refused write left it
    return render(request, "tournament/tombola.html", _context(fresh, **extra), status=status)


def _refused(request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, **_ids: int) -> HttpResponse:
    """A refused tombola action: the page with why at the top (422), as the refused write left it."""
    return _page(request, tournament, 422, error=error.message)


def _done(request: HtmxHttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("tournament:tombola", tournament.pk)


@require_GET
@tournament_role(enums.Role.ORGANISER)
def tombola(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournament/tombola.html", _context(tournament))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def add_prize(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = TombolaPrizeForm(request.POST, prefix="add")
    if form.is_valid():
        with refusal(form, "name") as refused:
            prize = service.add_prize(tournament=tournament, actor=request.user, name=form.cleaned_data["name"])
        if not refused:
            return _done(request, tournament, _("Prize %(position)s “%(name)s” added.") % vars_of(prize))
    return _page(request, tournament, 422, add_form=form)


def vars_of(prize: object) -> dict[str, object]:
    return {"position": getattr(prize, "position", "?"), "name": getattr(prize, "name", "")}


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def rename_prize(request: HtmxHttpRequest, tournament: Tournament, prize_id: int) -> HttpResponse:
    if not TombolaPrize.objects.filter(tournament=tournament, pk=prize_id).exists():
        # No row to show the form's errors in: say it at the top.
        return _page(request, tournament, 422, error=_("This prize does not exist (any more); reload the page."))
    form = TombolaPrizeForm(request.POST, prefix=f"p{prize_id}")
    if form.is_valid():
        prize = service.rename_prize(
            tournament=tournament, actor=request.user, prize_id=prize_id, name=form.cleaned_data["name"]
        )
        return _done(request, tournament, _("Prize %(position)s is now “%(name)s”.") % vars_of(prize))
    return _page(request, tournament, 422, edit_form=form, edit_prize=prize_id)


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def move_prize(request: HtmxHttpRequest, tournament: Tournament, prize_id: int) -> HttpResponse:
    form = TombolaMoveForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, 422, error=_("A prize moves one place up or down."))
    step = -1 if form.cleaned_data["direction"] == "up" else 1
    prize = service.move_prize(tournament=tournament, actor=request.user, prize_id=prize_id, step=step)
    return _done(request, tournament, _("“%(name)s” is now prize %(position)s.") % vars_of(prize))


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def remove_prize(request: HtmxHttpRequest, tournament: Tournament, prize_id: int) -> HttpResponse:
    service.remove_prize(tournament=tournament, actor=request.user, prize_id=prize_id)
    return _done(request, tournament, _("Prize removed; the prizes after it moved up one place."))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def tombola_settings(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = TombolaSettingsForm(request.POST)
    if not form.is_valid():  # two check boxes: only a forged post gets here
        return _page(request, tournament, 422, settings_form=form)
    service.save_settings(
        tournament=tournament,
        actor=request.user,
        skip_podium=form.cleaned_data["skip_podium"],
        repeat_winners=form.cleaned_data["repeat_winners"],
    )
    return _done(request, tournament, _("Tombola settings saved."))


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def draw_next(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    draw = service.draw_next(tournament=tournament, actor=request.user)
    return _done(
        request,
        tournament,
        _("%(player)s wins prize %(position)s “%(name)s”.")
        % {**vars_of(draw.prize), "player": audit_selectors.player_name(draw.player)},
    )


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def mark_absent(request: HtmxHttpRequest, tournament: Tournament, prize_id: int) -> HttpResponse:
    try:
        absence = service.mark_absent(
            tournament=tournament, actor=request.user, prize_id=prize_id, confirmed=ConfirmForm.read(request)["confirm"]
        )
    except NeedsConfirmation as question:
        # Asked in the prize's row: "Yes" posts again with confirm=1, Cancel goes back to the page.
        panel = confirm_panel(
            question,
            url=reverse("tournament:tombola_absent", args=[tournament.pk, prize_id]),
            fields=[],
            label=_("Yes, absent: draw again"),
            cancel_url=reverse("tournament:tombola", args=[tournament.pk]) + f"#prize-{prize_id}",
        )
        return _page(request, tournament, panel=panel, panel_prize=prize_id)
    absent = _("%(player)s is marked absent.") % {"player": audit_selectors.player_name(absence.absent)}
    if absence.draw is None:
        messages.warning(request, f"{absent} {absence.reason}")
        return redirect("tournament:tombola", tournament.pk)
    drawn = _("Drawn again: %(player)s wins prize %(position)s “%(name)s”.") % {
        **vars_of(absence.draw.prize),
        "player": audit_selectors.player_name(absence.draw.player),
    }
    return _done(request, tournament, f"{absent} {drawn}")


@require_POST
@tournament_role(enums.Role.ORGANISER)
def on_screen(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    shown = ShownForm.read(request)["shown"]
    service.show_on_screen(tournament=tournament, actor=request.user, shown=shown)
    return _done(
        request,
        tournament,
        _("The projector shows the tombola.") if shown else _("The projector shows the tournament again."),
    )
