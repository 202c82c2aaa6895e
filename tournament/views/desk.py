"""Registration desk: register, check in, withdraw, draw start numbers, print."""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from tournament import desk as desk_services
from tournament import enums, qr
from tournament.desk.registration import MAX_IMPORT_ROWS
from tournament.desk.start_numbers import StartNumberDraw
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.formats import registry
from tournament.formats.entries import to_int
from tournament.forms import (
    CsvImportForm,
    CsvTextForm,
    DrawForm,
    FixedSeatForm,
    PlayerForm,
    TournamentCreateForm,
    default_checklist,
)
from tournament.http import HtmxHttpRequest, answers_refusals, refusal
from tournament.models import Player, Tournament
from tournament.passes import services as pass_services
from tournament.permissions import tournament_role
from tournament.selectors import desk as desk_selectors
from tournament.selectors import printing as printing_selectors
from tournament.selectors import register as register_selectors
from tournament.selectors import self_check_in as self_check_in_selectors
from tournament.views.forms import CheckForm, CheckInForm, ConfirmForm, ReturnedForm, RowForm
from tournament.views.self_check_in import attach_arrived_poll


@require_GET
@login_required
def home(request: HtmxHttpRequest) -> HttpResponse:
    tournaments = list(desk_selectors.tournaments_for(request.user))
    clubs = register_selectors.clubs_of(request.user)
    return render(request, "tournament/home.html", {"tournaments": tournaments, "clubs": clubs})


@require_http_methods(["GET", "POST"])
@login_required
def tournament_create(request: HtmxHttpRequest) -> HttpResponse:
    clubs = register_selectors.clubs_of(request.user)
    form = TournamentCreateForm(request.POST if request.method == "POST" else None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with refusal(form) as refused:
            tournament = desk_services.create_tournament(
                actor=request.user,
                name=data["name"],
                date=data["date"],
                venue=data["venue"],
                game=data["game"],
                format=data["format"],
                capacity=data["capacity"],
                entry_fee=data["entry_fee"],
                checklist=form.checklist_labels() + form.equipment_labels(),
                returnable=form.equipment_labels(),
                windows=form.windows(),
                club_id=form.club_id(),
                new_club=data["new_club"],
            )
        if not refused:
            messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
            return redirect("tournament:desk", tournament.pk)
    checklists = {slug: default_checklist(slug) for slug in registry.FORMATS}
    return render(request, "tournament/tournament_create.html", {"form": form, "checklists": checklists})


@require_GET
@login_required
def enter(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """A tournament's front page for the user: the desk, or the tables for a referee."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    roles = desk_selectors.roles_of(request.user, tournament)
    if roles & {enums.Role.ORGANISER, enums.Role.DESK}:
        return redirect("tournament:desk", tournament.pk)
    if enums.Role.REFEREE in roles:
        return redirect("tournament:referee_tables", tournament.pk)
    raise PermissionDenied


def _desk_context(tournament: Tournament) -> dict[str, object]:
    counters = desk_selectors.desk_counters(tournament)
    return {
        "tournament": tournament,
        "counters": counters,
        "handouts": desk_selectors.handouts(desk_selectors.checklist_with_handouts(tournament), counters.checked_in),
        "draw": desk_selectors.latest_draw(tournament),
        "windows": list(tournament.registration_windows.all()),
        "waiting": desk_selectors.waiting_list(tournament),
    }


@require_GET
@tournament_role(enums.Role.DESK)
def desk(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk; ``?person=ID`` (a suggestion picked) fills the form from the club's register."""
    person = register_selectors.chosen_person(tournament, to_int(request.GET.get("person")))
    initial = {}
    if person is not None:
        initial = {"name": person.name, "club": person.team, "contact": person.contact, "person": person.pk}
    form = _suggesting(tournament, _focused(PlayerForm(initial=initial)))
    context = _desk_context(tournament) | {"form": form, "chosen": person}
    return render(request, "tournament/desk.html", context)


def _suggesting(tournament: Tournament, form: PlayerForm) -> PlayerForm:
    """The Name field asks the club's register for suggestions as it is typed (htmx), where there is one."""
    if tournament.club_id is not None:
        form.fields["name"].widget.attrs.update(
            {
                "hx-get": reverse("tournament:register_suggest", args=[tournament.pk]),
                "hx-trigger": "input changed delay:200ms",
                "hx-target": "#person-suggestions",
                "hx-sync": "this:replace",
                "autocomplete": "off",
                "aria-describedby": "person-suggestions",
            }
        )
    return form


@require_GET
@tournament_role(enums.Role.DESK)
def register_suggest(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The people of the club's register like the typed name (``?name=``), each a link that fills the form."""
    name = request.GET.get("name", "")[:120]
    people = register_selectors.suggestions(tournament, name)
    return render(request, "tournament/_suggestions.html", {"tournament": tournament, "people": people, "name": name})


def _focused(form: PlayerForm) -> PlayerForm:
    """The desk's next step starts in the form: the first field with an error, else the Name
    (after a registration the desk is loaded again with an empty form, its Name focused)."""
    first = next((name for name in form.fields if form.is_bound and form.errors.get(name)), "name")
    form.fields[first].widget.attrs["autofocus"] = True
    return form


@require_POST
@tournament_role(enums.Role.DESK)
def register(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerForm(request.POST)
    confirm: str | None = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            with refusal(form) as refused:
                registration = desk_services.register_player(
                    tournament=tournament,
                    actor=request.user,
                    name=data["name"],
                    club=data["club"],
                    contact=data["contact"],
                    confirm_same_name=data["confirm_same_name"],
                    confirm_outside_window=data["confirm_outside_window"],
                    person_id=data["person"],
                )
        except NeedsConfirmation as error:
            confirm = error.message
            # The next submit of this form confirms what was asked.
            form = PlayerForm(initial={**data, **_confirm_flags(error, data)})
        else:
            if not refused:
                return _registered(request, tournament, registration, check_in_now=data["check_in_now"])
    # A question keeps the focus on its "Yes" (desk.html); errors put it on the first wrong field.
    form = _suggesting(tournament, form if confirm else _focused(form))
    person_id = form.cleaned_data.get("person") if form.is_bound and hasattr(form, "cleaned_data") else None
    chosen = register_selectors.chosen_person(tournament, person_id or to_int(form.initial.get("person")))
    context = _desk_context(tournament) | {"form": form, "confirm": confirm, "chosen": chosen}
    return render(request, "tournament/desk.html", context, status=200 if confirm else 422)


def _registered(
    request: HtmxHttpRequest, tournament: Tournament, registration: desk_services.Registration, *, check_in_now: bool
) -> HttpResponse:
    """A player registered: say so (waiting list, checked in at once, or registered) and show the desk."""
    player = registration.player
    if registration.waitlisted:
        messages.warning(
            request,
            _("The tournament is full: %(name)s is on the waiting list and moves up when a place frees.")
            % {"name": player.name},
        )
    elif check_in_now:
        _check_in_walk_in(request, tournament, player)
    else:
        messages.success(request, _("%(name)s registered.") % {"name": player.name})
    return redirect("tournament:desk", tournament.pk)


def _check_in_walk_in(request: HtmxHttpRequest, tournament: Tournament, player: Player) -> None:
    """A walk-in registered at the desk with "here now": checked in at once, every checklist item ticked."""
    with refusal() as refused:
        result = desk_services.check_in_player(
            tournament=tournament, actor=request.user, player_id=player.pk, all_checked=True
        )
    if refused:
        messages.warning(
            request,
            _("%(name)s registered, but not checked in: %(reason)s") % {"name": player.name, "reason": refused.message},
        )
        return
    text = _("%(name)s registered and checked in.") % {"name": player.name}
    if result.start_number_assigned:
        text += " " + _("Start number %(number)d.") % {"number": result.player.start_number}
    messages.success(request, text)


def is_confirmed(request: HtmxHttpRequest) -> bool:
    """The person said yes on a confirmation panel (``confirm=1``); any other value is no."""
    return bool(ConfirmForm.read(request)["confirm"])


def confirm_panel(
    error: NeedsConfirmation,
    *,
    url: str,
    fields: Sequence[tuple[str, object]],
    label: str,
    cancel_url: str,
    target: str = "",
    cancel_target: str = "",
) -> dict[str, object]:
    """What ``tournament/_confirm.html`` shows: the service's words (``error.message``: what
    will be lost), a "Yes" button posting ``fields`` plus ``confirm=1`` to ``url`` and a
    Cancel link. With ``target`` (a CSS selector) both answer in place under htmx; without
    JavaScript they are a plain form and link."""
    return {
        "message": error.message,
        "kind": error.kind,
        "url": url,
        "fields": [(name, value) for name, value in fields if value not in ("", None)],
        "label": label,
        "cancel_url": cancel_url,
        "target": target,
        "cancel_target": cancel_target or target,
    }


def _confirm_flags(error: NeedsConfirmation, data: dict[str, object]) -> dict[str, bool]:
    """Which confirmation the user is being asked for, plus those already given."""
    return {
        "confirm_same_name": bool(data["confirm_same_name"]) or error.kind == "same_name",
        "confirm_outside_window": bool(data["confirm_outside_window"]) or error.kind == "outside_window",
    }


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.DESK)
def import_players(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a CSV; with bad rows show every one with its line and import
    nothing, or import only the good rows when the user chooses so.

    Whatever is posted, the answer is this page with what is wrong (422) or the
    desk after an import: a file that is no CSV, too large, in an odd encoding or
    with NUL bytes is refused here or reported line by line, never a 500."""
    report = None
    text = ""
    form = CsvImportForm()
    if request.method == "POST":
        text_form = CsvTextForm(request.POST)
        if "text" in text_form.data:  # second step: the user chose to import the good rows
            if text_form.is_valid():
                text = text_form.cleaned_data["text"]
                report = desk_services.import_players_csv(
                    tournament=tournament, actor=request.user, text=text, skip_bad_rows=True
                )
            else:  # no text, or NUL characters: never from the page's own form
                report = desk_services.ImportReport(
                    errors=[(0, _("The list could not be read again. Please upload the file again."))]
                )
        else:
            form = CsvImportForm(request.POST, request.FILES)
            if form.is_valid():
                text = form.cleaned_data["file"]
                report = desk_services.import_players_csv(
                    tournament=tournament,
                    actor=request.user,
                    text=text,
                    skip_bad_rows=form.cleaned_data["skip_bad_rows"],
                )
        if report is not None and report.applied:
            message = ngettext("%(count)d player imported.", "%(count)d players imported.", report.imported) % {
                "count": report.imported
            }
            if report.waitlisted:
                message += " " + ngettext(
                    "%(count)d of them is on the waiting list (capacity reached).",
                    "%(count)d of them are on the waiting list (capacity reached).",
                    report.waitlisted,
                ) % {"count": report.waitlisted}
            if report.errors:
                message += " " + _("Skipped lines: %(lines)s.") % {"lines": ", ".join(map(str, report.bad_lines))}
            messages.success(request, message)
            return redirect("tournament:desk", tournament.pk)
    context = {
        "tournament": tournament,
        "form": form,
        "report": report,
        "text": text,
        "max_rows": MAX_IMPORT_ROWS,
    }
    return render(request, "tournament/import.html", context, status=422 if request.method == "POST" else 200)


@require_GET
@tournament_role(enums.Role.DESK)
def check_in_screen(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    query = request.GET.get("q", "")
    show = request.GET.get("show", "")
    show = show if show in desk_selectors.SHOW else ""
    players, total = desk_selectors.search_players(tournament, query, show=show)
    items = desk_selectors.checklist_with_handouts(tournament)
    counters = desk_selectors.desk_counters(tournament)
    context = {
        "tournament": tournament,
        "players": players,
        "total": total,
        "query": query,
        "show": show,
        "items": items,
        "counters": counters,
        "handouts": desk_selectors.handouts(items, counters.checked_in),
    }
    if request.htmx and request.htmx.target == "player-list":
        return render(request, "tournament/check_in.html#player-list", context)
    # Self check-in (issue 32, item 3): who said "I'm here" with an item the desk must see, at the top.
    context["arrived"] = self_check_in_selectors.arrived(tournament, items) if tournament.self_check_in else None
    if tournament.self_check_in:
        attach_arrived_poll(request, tournament)
    return render(request, "tournament/check_in.html", context)


def _row_response(
    request: HtmxHttpRequest,
    tournament: Tournament,
    player_id: int,
    *,
    error: str = "",
    confirm: str = "",
    panel: dict[str, object] | None = None,
) -> HttpResponse:
    """After an action: the player's row for htmx, else back to the list.

    With a confirmation ``panel`` (withdraw) or question (``confirm``: the override) and no htmx,
    the check-in page shows only this player's row with it, so the question works without JavaScript."""
    posted = RowForm.read(request)
    if request.htmx or panel is not None or confirm:
        player = desk_selectors.desk_player(tournament, player_id)
        if player is None:
            # An id from another tournament (or a deleted row): the service refused; there is no row to redraw.
            raise Http404
        items = desk_selectors.checklist_with_handouts(tournament)
        counters = desk_selectors.desk_counters(tournament)
        context = {
            "tournament": tournament,
            "player": player,
            "items": items,
            "row_error": error,
            "row_confirm": confirm,
            "row_reason": posted["override_reason"][:200],
            "row_panel": panel,
            "counters": counters,
            "handouts": desk_selectors.handouts(items, counters.checked_in),
            "oob_counters": True,
            "query": posted["q"],
            # Self check-in (issue 32, item 3): the desk's "arrived, needs the desk" list follows.
            "arrived": self_check_in_selectors.arrived(tournament, items) if tournament.self_check_in else None,
        }
        if request.htmx:
            return render(request, "tournament/check_in.html#player-row", context)
        context |= {"players": [player], "total": 1, "oob_counters": False}
        return render(request, "tournament/check_in.html", context)
    if error or confirm:
        messages.error(request, error or confirm)
    query = posted["q"]
    url = reverse("tournament:check_in", args=[tournament.pk])
    return redirect(f"{url}?{urlencode({'q': query})}" if query else url)


def _refused_row(
    request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, player_id: int, **_ids: int
) -> HttpResponse:
    """A row action was refused: the row with why (htmx), else the list with a message."""
    return _row_response(request, tournament, player_id, error=error.message)


@require_POST
@tournament_role(enums.Role.DESK)
@answers_refusals(_refused_row)
def toggle_check(request: HtmxHttpRequest, tournament: Tournament, player_id: int, item_id: int) -> HttpResponse:
    desk_services.set_check(
        tournament=tournament,
        actor=request.user,
        player_id=player_id,
        item_id=item_id,
        done=CheckForm.read(request)["done"],
    )
    return _row_response(request, tournament, player_id)


@require_POST
@tournament_role(enums.Role.DESK)
@answers_refusals(_refused_row)
def check_in(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    posted = CheckInForm.read(request)
    try:
        result = desk_services.check_in_player(
            tournament=tournament,
            actor=request.user,
            player_id=player_id,
            override=posted["override"],
            override_reason=posted["override_reason"],
            all_checked=posted["all_checked"],
        )
    except NeedsConfirmation as error:
        return _row_response(request, tournament, player_id, confirm=error.message)
    text = _("%(name)s checked in.") % {"name": result.player.name}
    if result.start_number_assigned:
        text += " " + _("Start number %(number)d.") % {"number": result.player.start_number}
    if not request.htmx:
        messages.success(request, text)
        return _row_response(request, tournament, player_id)
    response = _row_response(request, tournament, player_id)
    # The page empties and focuses its search for the next name and announces this (static/js/app.js).
    # ASCII JSON: a header carries no other characters, the script reads the escapes back.
    response["HX-Trigger"] = json.dumps({"desk-checked-in": {"message": text}})
    return response


def _player_action(action: str) -> object:
    service = {
        "withdraw": desk_services.withdraw_player,
        "no_show": desk_services.mark_no_show,
        "reinstate": desk_services.reinstate_player,
        "undo_check_in": desk_services.undo_check_in,
    }[action]
    # Actions whose service asks first (``NeedsConfirmation``): the posted ``confirm=1`` answers.
    asks_first = action == "withdraw"

    @require_POST
    @tournament_role(enums.Role.DESK)
    @answers_refusals(_refused_row)
    def view(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
        extra = {"confirmed": is_confirmed(request)} if asks_first else {}
        try:
            service(tournament=tournament, actor=request.user, player_id=player_id, **extra)
        except NeedsConfirmation as error:
            panel = _withdraw_panel(request, tournament, player_id, error)
            return _row_response(request, tournament, player_id, panel=panel)
        return _row_response(request, tournament, player_id)

    view.__name__ = action
    return view


def _withdraw_panel(
    request: HtmxHttpRequest, tournament: Tournament, player_id: int, error: NeedsConfirmation
) -> dict[str, object]:
    """The withdraw question in the player's row: "Yes" posts again, Cancel shows the list."""
    query = RowForm.read(request)["q"]
    list_url = reverse("tournament:check_in", args=[tournament.pk])
    return confirm_panel(
        error,
        url=reverse("tournament:withdraw", args=[tournament.pk, player_id]),
        fields=[("q", query)],
        label=_("Yes, withdraw"),
        cancel_url=f"{list_url}?{urlencode({'q': query})}" if query else list_url,
        target=f"#player-{player_id}",
        cancel_target="#player-list",
    )


withdraw = _player_action("withdraw")
no_show = _player_action("no_show")
reinstate = _player_action("reinstate")
undo_check_in = _player_action("undo_check_in")


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.DESK)
def draw(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Draw start numbers. Drawing again asks first (the service says what is lost): the
    answer is the page with the question in place of the form, then ``confirm=1`` draws."""
    form = DrawForm(request.POST if request.method == "POST" else None)
    panel: dict[str, object] | None = None
    if request.method == "POST" and form.is_valid():
        seed = form.cleaned_data["seed"]
        try:
            with refusal(form) as refused:
                result = desk_services.draw_start_numbers(
                    tournament=tournament, actor=request.user, seed=seed, confirmed=is_confirmed(request)
                )
        except NeedsConfirmation as error:
            url = reverse("tournament:draw", args=[tournament.pk])
            panel = confirm_panel(
                error,
                url=url,
                fields=[("seed", seed)],
                label=_("Yes, draw again"),
                cancel_url=url,
                target="#draw-step",
            )
        else:
            if not refused:
                return _drawn(request, tournament, result)
    context = {
        "tournament": tournament,
        "form": form,
        "panel": panel,
        "draw": desk_selectors.latest_draw(tournament),
        "players": desk_selectors.draw_result(tournament),
        "counters": desk_selectors.desk_counters(tournament),
    }
    status = 422 if form.errors else 200
    template = "tournament/draw.html"
    if request.htmx and request.htmx.target == "draw-step":
        template += "#draw-step"
    return render(request, template, context, status=status)


def _drawn(request: HtmxHttpRequest, tournament: Tournament, result: StartNumberDraw) -> HttpResponse:
    """Start numbers drawn: say for how many (and the seed) and show the draw page again."""
    messages.success(
        request,
        ngettext(
            "Start number drawn for %(count)d player (seed %(seed)d).",
            "Start numbers drawn for %(count)d players (seed %(seed)d).",
            len(result.result),
        )
        % {"count": len(result.result), "seed": result.seed},
    )
    url = reverse("tournament:draw", args=[tournament.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_GET
@tournament_role(enums.Role.DESK)
def print_cards(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Start-number cards of the checked-in players, in parts of ``PLAYERS_PER_PART`` (``?part=``)."""
    total = desk_selectors.count_for_print(tournament, checked_in_only=True)
    part = printing_selectors.part(request.GET.get("part", ""), total, printing_selectors.PLAYERS_PER_PART)
    players = desk_selectors.players_for_print(tournament, checked_in_only=True, offset=part.offset, limit=part.size)
    pass_services.attach_cards(request, players, request.user)
    context = {"tournament": tournament, "players": players, "part": part}
    return render(request, "tournament/print_cards.html", context)


@require_GET
@tournament_role(enums.Role.DESK)
def print_players(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The player list, in parts of ``PLAYERS_PER_PART`` (``?part=``) with the counters on each."""
    counters = desk_selectors.desk_counters(tournament)
    total = counters.registered + counters.waiting + counters.withdrawn + counters.no_show
    part = printing_selectors.part(request.GET.get("part", ""), total, printing_selectors.PLAYERS_PER_PART)
    players = desk_selectors.all_players(tournament, offset=part.offset, limit=part.size)
    find_link = request.build_absolute_uri(reverse("tournament:find", args=[tournament.public_key]))
    context = {
        "tournament": tournament,
        "players": players,
        "find_link": find_link,
        "find_qr": qr.svg(find_link),
        "items": list(tournament.checklist_items.all()),
        "counters": counters,
        "part": part,
    }
    return render(request, "tournament/print_players.html", context)


@require_GET
@tournament_role(enums.Role.DESK)
def equipment(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Equipment kept at the desk (own decks): hand it back at the end and tick it."""
    items = [item for item in tournament.checklist_items.all() if item.returnable]
    context = {
        "tournament": tournament,
        "items": items,
        "checks": desk_selectors.returnable_checks(tournament),
    }
    return render(request, "tournament/equipment.html", context)


@require_POST
@tournament_role(enums.Role.DESK)
def toggle_returned(request: HtmxHttpRequest, tournament: Tournament, player_id: int, item_id: int) -> HttpResponse:
    with refusal() as refused:
        desk_services.set_returned(
            tournament=tournament,
            actor=request.user,
            player_id=player_id,
            item_id=item_id,
            returned=ReturnedForm.read(request)["returned"],
        )
    if refused:
        messages.error(request, refused.message)
    return redirect("tournament:equipment", tournament.pk)


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.DESK)
def fixed_seat(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """The desk's marker for a player who needs a fixed or accessible table: the need and the
    table number (``desk.set_fixed_seat``, audited; applies from the next round seated). A bad
    input or a refusal shows the form again with the reason, nothing saved."""
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    if request.method == "POST":
        form = FixedSeatForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            with refusal(form) as refused:
                saved = desk_services.set_fixed_seat(
                    tournament=tournament,
                    actor=request.user,
                    player_id=player.pk,
                    number=data["table"],
                    need=data["need"] or "",
                )
            if not refused:
                if saved.fixed_table is None:
                    text = _("%(name)s has no fixed table.") % {"name": saved.name}
                else:
                    text = _("Saved: %(name)s plays every round at table %(number)d, from the next round seated.") % {
                        "name": saved.name,
                        "number": saved.fixed_table,
                    }
                messages.success(request, text)
                return redirect("tournament:check_in", tournament.pk)
        status = 422
    else:
        form = FixedSeatForm(initial={"need": player.seat_need, "table": player.fixed_table})
        status = 200
    return render(
        request, "tournament/fixed_seat.html", {"tournament": tournament, "player": player, "form": form}, status=status
    )
