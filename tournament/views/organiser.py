"""Organiser: tournament settings, checklist, registration windows, staff."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import desk, enums
from tournament.desk import staff as staff_service
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.forms import (
    ChecklistItemForm,
    ClubChoiceForm,
    ScoringForm,
    StaffForm,
    TournamentSettingsForm,
    WindowForm,
)
from tournament.http import HtmxHttpRequest, refusal
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.selectors import audit as audit_selectors
from tournament.selectors import desk as desk_selectors
from tournament.selectors import register as register_selectors


def settings_page(
    request: HtmxHttpRequest, tournament: Tournament, *, status: int = 200, **forms: object
) -> HttpResponse:
    """The settings page with the forms given (a refused one shows its errors) and the others fresh."""
    return render(request, "tournament/settings.html", _settings_context(request, tournament, **forms), status=status)


def _settings_context(request: HtmxHttpRequest, tournament: Tournament, **forms: object) -> dict[str, object]:
    form = forms.get("form") or TournamentSettingsForm(instance=tournament)
    # What a change of a setting would meet in play (the knockout's seated final), beside its help text.
    for name, note in registry.of(tournament).settings_notes(tournament).items():
        if name in form.fields:  # type: ignore[attr-defined]
            field = form.fields[name]  # type: ignore[attr-defined]
            field.help_text = f"{field.help_text} {note}".strip()
    return {
        "tournament": tournament,
        "form": form,
        "item_form": forms.get("item_form") or ChecklistItemForm(),
        "window_form": forms.get("window_form") or WindowForm(),
        "items": list(tournament.checklist_items.all()),
        "windows": list(tournament.registration_windows.all()),
        "scoring_form": forms.get("scoring_form") or ScoringForm.for_tournament(tournament),
        "scoring_locked": desk.scoring_locked(tournament),
        "has_scoring_table": "scoring_table" in registry.of(tournament).settings_used,
        "club_form": forms.get("club_form") or _club_form(request, tournament),
    }


def _club_form(request: HtmxHttpRequest, tournament: Tournament) -> ClubChoiceForm:
    clubs = register_selectors.clubs_of(request.user)
    if tournament.club is not None and tournament.club not in clubs:
        clubs.append(tournament.club)  # shown as it is, even where another organiser runs it
    return ClubChoiceForm(initial={"club": tournament.club_id or ""}, clubs=clubs)


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
def tournament_settings(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        # Bind a copy so a refused save does not leave half-applied values on the instance.
        form = TournamentSettingsForm(request.POST, instance=Tournament.objects.get(pk=tournament.pk))
        if form.is_valid():
            values = {name: form.cleaned_data[name] for name in form.changed_data}
            with refusal(form) as refused:
                saved = desk.save_settings(tournament=tournament, actor=request.user, **values)
            if not refused:
                messages.success(request, " ".join([_("Settings saved."), *saved.carried]))
                return redirect("tournament:settings", tournament.pk)
        return render(
            request, "tournament/settings.html", _settings_context(request, tournament, form=form), status=422
        )
    return render(request, "tournament/settings.html", _settings_context(request, tournament))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def add_checklist_item(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = ChecklistItemForm(request.POST)
    if form.is_valid():
        with refusal(form, "label") as refused:
            desk.add_checklist_item(
                tournament=tournament,
                actor=request.user,
                label=form.cleaned_data["label"],
                returnable=form.cleaned_data["returnable"],
                kind=form.cleaned_data["kind"],
            )
        if not refused:
            messages.success(request, _("Checklist item added."))
            return redirect("tournament:settings", tournament.pk)
    return render(
        request, "tournament/settings.html", _settings_context(request, tournament, item_form=form), status=422
    )


@require_POST
@tournament_role(enums.Role.ORGANISER)
def remove_checklist_item(request: HtmxHttpRequest, tournament: Tournament, item_id: int) -> HttpResponse:
    with refusal() as refused:
        desk.remove_checklist_item(tournament=tournament, actor=request.user, item_id=item_id)
    if refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Checklist item removed."))
    return redirect("tournament:settings", tournament.pk)


@require_POST
@tournament_role(enums.Role.ORGANISER)
def add_window(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = WindowForm(request.POST)
    if form.is_valid():
        with refusal(form) as refused:
            desk.add_registration_window(
                tournament=tournament,
                actor=request.user,
                opens_at=form.cleaned_data["opens_at"],
                closes_at=form.cleaned_data["closes_at"],
            )
        if not refused:
            messages.success(request, _("Registration window added."))
            return redirect("tournament:settings", tournament.pk)
    return render(
        request, "tournament/settings.html", _settings_context(request, tournament, window_form=form), status=422
    )


@require_POST
@tournament_role(enums.Role.ORGANISER)
def scoring(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = ScoringForm(request.POST)
    if form.is_valid():
        with refusal(form) as refused:
            desk.set_scoring_table(tournament=tournament, actor=request.user, values=form.values())
        if not refused:
            messages.success(request, _("Scoring table saved."))
            return redirect("tournament:settings", tournament.pk)
    return render(
        request, "tournament/settings.html", _settings_context(request, tournament, scoring_form=form), status=422
    )


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
def staff(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's staff; adding a person on a new or an existing account (``StaffForm``).

    An existing account is named with its current password, checked with ``authenticate``
    so that django-axes counts wrong guesses like failed logins; an unknown name and a
    wrong password get the same answer, so the form does not tell which names exist.
    """
    form = StaffForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with refusal(form) as refused:
            if data["account"] == StaffForm.EXISTING:
                user = authenticate(request, username=data["username"].strip(), password=data["password"])
                if user is None:
                    raise ServiceError(_refused_existing_account(request))
                desk.add_staff(
                    tournament=tournament, actor=request.user, username=user.get_username(), role=data["role"]
                )
            else:
                desk.add_staff(
                    tournament=tournament,
                    actor=request.user,
                    username=data["username"],
                    role=data["role"],
                    password=data["password"],
                )
        if not refused:
            messages.success(request, _("%(name)s added.") % {"name": data["username"]})
            return redirect("tournament:staff", tournament.pk)
    context = {"tournament": tournament, "form": form, "staff": desk_selectors.staff_of(tournament)}
    return render(request, "tournament/staff.html", context, status=422 if form.errors else 200)


def _refused_existing_account(request: HttpRequest) -> str:
    """Why an existing account's name and password were refused (``authenticate`` gave None)."""
    if not getattr(request, "axes_locked_out", False):
        return str(staff_service.NO_MATCH)
    # Answered here in the form, not with the login's lockout page (AxesMiddleware replaces the
    # response of a request that carries this flag).
    request.axes_locked_out = False  # type: ignore[attr-defined]
    minutes = settings.LOGIN_LOCKOUT_MINUTES
    return ngettext(
        "Too many wrong passwords for this user name: wait %(minutes)d minute before trying it again, "
        "or create a new account.",
        "Too many wrong passwords for this user name: wait %(minutes)d minutes before trying it again, "
        "or create a new account.",
        minutes,
    ) % {"minutes": minutes}


@require_POST
@tournament_role(enums.Role.ORGANISER)
def remove_staff(request: HtmxHttpRequest, tournament: Tournament, staff_id: int) -> HttpResponse:
    with refusal() as refused:
        desk.remove_staff(tournament=tournament, actor=request.user, staff_id=staff_id)
    if refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Role removed."))
    return redirect("tournament:staff", tournament.pk)


@require_GET
@tournament_role(enums.Role.ORGANISER)
def audit_log(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The audit trail: every write and every refused attempt, newest first, 100 a page.

    GET filters, combined: ``table``, ``player``, ``person`` (a user's pk or ``system``),
    ``kind`` (all, writes, refused; ``refused=1`` still means refused), ``page``. A value
    that is not the tournament's shows a message and no entries. An htmx request gets the
    results only (the ``_audit_results`` partial).
    """
    offered = audit_selectors.choices(tournament)
    read = audit_selectors.read_filters(request.GET, offered)
    try:
        page_number = min(max(int(request.GET.get("page", "1")), 1), audit_selectors.LAST_PAGE)
    except ValueError:
        page_number = 1
    page = None if read.errors else audit_selectors.audit_page(tournament, read.filters, offered, page=page_number)
    query = read.filters.query()
    context = {
        "tournament": tournament,
        "page": page,
        "read": read,
        "filters": read.filters,
        "offered": offered,
        "tables_by_round": offered.tables_by_round(),
        "players": offered.players_in_order(),
        "people": sorted(offered.people.values(), key=lambda person: person.username.lower()),
        "kinds": [("all", _("Everything")), ("writes", _("Writes")), ("refused", _("Refused entries"))],
        "query": urlencode(query),
        "refused_total": page.refused_total if page is not None else audit_selectors.refused_count(tournament),
        "filtered": bool(query),
    }
    template = "tournament/_audit_results.html" if request.htmx and not request.htmx.boosted else None
    return render(request, template or "tournament/audit_log.html", context)
