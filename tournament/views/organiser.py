"""Organiser: tournament settings, checklist, registration windows, staff."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import desk, enums
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.forms import ChecklistItemForm, ScoringForm, StaffForm, TournamentSettingsForm, WindowForm
from tournament.http import HtmxHttpRequest
from tournament.models import AuditEntry, Player, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import audit as audit_reads
from tournament.selectors import desk as desk_reads
from tournament.writes import REFUSED


def _settings_context(tournament: Tournament, **forms: object) -> dict[str, object]:
    return {
        "tournament": tournament,
        "form": forms.get("form") or TournamentSettingsForm(instance=tournament),
        "item_form": forms.get("item_form") or ChecklistItemForm(),
        "window_form": forms.get("window_form") or WindowForm(),
        "items": list(tournament.checklist_items.all()),
        "windows": list(tournament.registration_windows.all()),
        "scoring_form": forms.get("scoring_form") or ScoringForm.for_tournament(tournament),
        "scoring_locked": desk.scoring_locked(tournament),
        "has_scoring_table": "scoring_table" in registry.of(tournament).settings_used,
    }


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
def tournament_settings(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        # Bind a copy so a refused save does not leave half-applied values on the instance.
        form = TournamentSettingsForm(request.POST, instance=Tournament.objects.get(pk=tournament.pk))
        if form.is_valid():
            values = {name: form.cleaned_data[name] for name in form.changed_data}
            try:
                desk.update_tournament(tournament=tournament, actor=request.user, **values)
            except ServiceError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("tournament:settings", tournament.pk)
        return render(request, "tournament/settings.html", _settings_context(tournament, form=form), status=422)
    return render(request, "tournament/settings.html", _settings_context(tournament))


@require_POST
@tournament_role(enums.Role.ORGANISER)
def add_checklist_item(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = ChecklistItemForm(request.POST)
    if form.is_valid():
        try:
            desk.add_checklist_item(
                tournament=tournament,
                actor=request.user,
                label=form.cleaned_data["label"],
                returnable=form.cleaned_data["returnable"],
            )
        except ServiceError as error:
            form.add_error("label", error.message)
        else:
            messages.success(request, _("Checklist item added."))
            return redirect("tournament:settings", tournament.pk)
    return render(request, "tournament/settings.html", _settings_context(tournament, item_form=form), status=422)


@require_POST
@tournament_role(enums.Role.ORGANISER)
def remove_checklist_item(request: HtmxHttpRequest, tournament: Tournament, item_id: int) -> HttpResponse:
    try:
        desk.remove_checklist_item(tournament=tournament, actor=request.user, item_id=item_id)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Checklist item removed."))
    return redirect("tournament:settings", tournament.pk)


@require_POST
@tournament_role(enums.Role.ORGANISER)
def add_window(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = WindowForm(request.POST)
    if form.is_valid():
        try:
            desk.add_registration_window(
                tournament=tournament,
                actor=request.user,
                opens_at=form.cleaned_data["opens_at"],
                closes_at=form.cleaned_data["closes_at"],
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Registration window added."))
            return redirect("tournament:settings", tournament.pk)
    return render(request, "tournament/settings.html", _settings_context(tournament, window_form=form), status=422)


@require_POST
@tournament_role(enums.Role.ORGANISER)
def scoring(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = ScoringForm(request.POST)
    if form.is_valid():
        try:
            desk.set_scoring_table(tournament=tournament, actor=request.user, values=form.values())
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Scoring table saved."))
            return redirect("tournament:settings", tournament.pk)
    return render(request, "tournament/settings.html", _settings_context(tournament, scoring_form=form), status=422)


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
def staff(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = StaffForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            desk.add_staff(
                tournament=tournament,
                actor=request.user,
                username=data["username"],
                role=data["role"],
                password=data["password"],
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(name)s added.") % {"name": data["username"]})
            return redirect("tournament:staff", tournament.pk)
    context = {"tournament": tournament, "form": form, "staff": desk_reads.staff_of(tournament)}
    return render(request, "tournament/staff.html", context, status=422 if form.errors else 200)


@require_POST
@tournament_role(enums.Role.ORGANISER)
def remove_staff(request: HtmxHttpRequest, tournament: Tournament, staff_id: int) -> HttpResponse:
    try:
        desk.remove_staff(tournament=tournament, actor=request.user, staff_id=staff_id)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Role removed."))
    return redirect("tournament:staff", tournament.pk)


# What each kind of audit entry is called on the organiser's log; others show their code.
AUDIT_ACTIONS = {
    REFUSED: gettext_lazy("Refused"),
    "game_recorded": gettext_lazy("Game recorded"),
    "chip_lost": gettext_lazy("Chip handed in"),
    "game_undone": gettext_lazy("Game undone"),
    "chip_loss_undone": gettext_lazy("Game undone"),
    "first_dealer_set": gettext_lazy("First dealer"),
    "table_closed": gettext_lazy("Table closed"),
    "time_called": gettext_lazy("Time is up"),
    "round_started": gettext_lazy("Round seated"),
    "points_round_started": gettext_lazy("Round seated"),
    "main_round_started": gettext_lazy("Main round seated"),
    "consolation_tables_formed": gettext_lazy("Consolation table seated"),
    "grand_final_started": gettext_lazy("Grand final seated"),
    "tournament_finished": gettext_lazy("Tournament finished"),
    "start_numbers_drawn": gettext_lazy("Start numbers drawn"),
    "player_registered": gettext_lazy("Player registered"),
    "staff_added": gettext_lazy("Staff added"),
    "staff_removed": gettext_lazy("Staff removed"),
}
# What a refused entry tried, in words; ``{name}`` is the player it named.
ATTEMPTS = {
    "record_game": gettext_lazy("Game won by {name}"),
    "record_loss": gettext_lazy("Game: {name} hands in a chip"),
    "set_first_dealer": gettext_lazy("First dealer: {name}"),
    "undo_game": gettext_lazy("Undo the last game"),
    "close_table": gettext_lazy("Close the table"),
    "call_time": gettext_lazy("Time is up"),
}


def _describe(entry: AuditEntry, players: dict[int, Player]) -> str:
    """One line saying what an audit entry is about (table, what was tried, why it was refused)."""
    detail = entry.detail
    named = next(
        (detail[key] for key in ("winner_id", "loser_id", "player_id", "winner", "loser", "player") if key in detail),
        None,
    )
    player = players.get(named) if isinstance(named, int) else None
    name = player.name if player is not None else (detail.get("name") or "")
    parts = []
    if detail.get("table_number") is not None:
        parts.append(
            _("Table %(table)s, round %(round)s") % {"table": detail["table_number"], "round": detail.get("round", "?")}
        )
    if entry.action == REFUSED:
        attempt = ATTEMPTS.get(detail.get("attempt", ""))
        parts.append(str(attempt).format(name=name) if attempt else str(detail.get("attempt", "")))
        if detail.get("card_points") or detail.get("hands"):
            parts.append(_("card points entered"))
        parts.append(_("why: %(reason)s") % {"reason": detail.get("reason", "")})
    elif name:
        parts.append(name)
    if entry.action == "game_recorded" and detail.get("game"):
        parts.append(_("game %(number)s") % {"number": detail["game"]})
    return " · ".join(str(part) for part in parts if part)


@require_GET
@tournament_role(enums.Role.ORGANISER)
def audit_log(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Who did what and when, newest first; ``?refused=1`` lists only the refused entries."""
    refused_only = request.GET.get("refused") == "1"
    try:
        page_number = max(int(request.GET.get("page", "1")), 1)
    except ValueError:
        page_number = 1
    page = audit_reads.audit_page(tournament, refused_only=refused_only, page=page_number)
    rows = [
        {
            "entry": entry,
            "label": AUDIT_ACTIONS.get(entry.action, entry.action.replace("_", " ")),
            "refused": entry.action == REFUSED,
            "text": _describe(entry, page.players),
        }
        for entry in page.entries
    ]
    context = {"tournament": tournament, "rows": rows, "page": page, "refused_only": refused_only}
    return render(request, "tournament/audit_log.html", context)
