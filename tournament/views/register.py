"""The club's register (issue 33, item 1): the organiser's page of a club's people (search, pages,
events counted), "Merge into…", the club's name, the register as CSV; and, per tournament, its club
(settings) and "Copy players from…" an earlier event of its club.

Only the club's organisers (``Club.organisers``; a superuser runs every club) see or change a
register (``club_organiser``): anyone else gets 403, an anonymous visitor the login page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import wraps
from itertools import chain
from typing import Any

from anyascii import anyascii
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import enums
from tournament.desk import register as register_services
from tournament.formats.entries import to_int
from tournament.forms import ClubChoiceForm, ClubRenameForm, OrganiserForm, PersonForm
from tournament.http import HtmxHttpRequest, refusal
from tournament.models import Club, Person, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import register as register_selectors
from tournament.views.exports import CsvStream, SafeWriter
from tournament.views.forms import CopyPlayersForm, MergeForm, OrganiserRemoveForm, page_number
from tournament.views.organiser import settings_page

ClubView = Callable[..., HttpResponse]


def club_organiser(view: ClubView) -> ClubView:
    """Load ``club_id`` from the URL; only the club's organisers pass (403; anonymous: the login page)."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, club_id: int, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club = get_object_or_404(Club, pk=club_id)
        if not register_services.runs_club(request.user, club):
            raise PermissionDenied
        return view(request, club, **kwargs)

    return wrapper


def _register_context(request: HtmxHttpRequest, club: Club, **extra: object) -> dict[str, object]:
    query = request.GET.get("q", "")[:120]
    page = page_number(request)
    size = register_selectors.PAGE_SIZE
    people, total = register_selectors.search_people(club, query, offset=(page - 1) * size, limit=size)
    pages = max((total + size - 1) // size, 1)
    return {
        "club": club,
        "people": people,
        "total": total,
        "query": query,
        "page": page,
        "pages": pages,
        "previous_page": page - 1 if page > 1 else None,
        "next_page": page + 1 if page < pages else None,
        "log": register_selectors.club_log(club),
        "duplicates": register_selectors.possible_duplicates(club),
        "organisers": register_selectors.organisers_of(club),
        "rename_form": extra.pop("rename_form", None) or ClubRenameForm(initial={"name": club.name}),
        "organiser_form": extra.pop("organiser_form", None) or OrganiserForm(),
        **extra,
    }


@require_GET
@club_organiser
def club_register(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """The register: its people (50 a page, ``?q=`` folded and typo-tolerant, ``?page=``), each with
    the events they played, "Edit" and "Merge into…"; the possible duplicates; the club's name, its
    organisers and its log."""
    return render(request, "tournament/register.html", _register_context(request, club))


@require_POST
@club_organiser
def rename_club(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    form = ClubRenameForm(request.POST)
    if form.is_valid():
        with refusal(form, "name") as refused:
            register_services.rename_club(club=club, actor=request.user, name=form.cleaned_data["name"])
        if not refused:
            messages.success(request, _("The club's name is saved."))
            return redirect("tournament:club_register", club.pk)
    context = _register_context(request, club, rename_form=form)
    return render(request, "tournament/register.html", context, status=422)


@require_POST
@club_organiser
def add_organiser(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """Another user runs the club too (by user name). A refusal shows the register page with why (422)."""
    form = OrganiserForm(request.POST)
    if form.is_valid():
        with refusal(form, "username") as refused:
            user = register_services.add_organiser(
                club=club, actor=request.user, username=form.cleaned_data["username"]
            )
        if not refused:
            messages.success(request, _("%(name)s now runs this club too.") % {"name": user.get_username()})
            return redirect("tournament:club_register", club.pk)
    context = _register_context(request, club, organiser_form=form)
    return render(request, "tournament/register.html", context, status=422)


@require_POST
@club_organiser
def remove_organiser(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """A user no longer runs the club (never the last one: refused in words, 409). Removing oneself
    leads to the start page: the register is no longer theirs to see."""
    user_id = OrganiserRemoveForm.read(request)["user"]
    with refusal() as refused:
        register_services.remove_organiser(club=club, actor=request.user, user_id=user_id if user_id is not None else 0)
    if refused:
        messages.error(request, refused.message)
        context = _register_context(request, club)
        return render(request, "tournament/register.html", context, status=409)
    messages.success(request, _("The club's organisers are saved."))
    if register_services.runs_club(request.user, club):
        return redirect("tournament:club_register", club.pk)
    return redirect("tournament:home")


@require_http_methods(["GET", "POST"])
@club_organiser
def edit_person(request: HtmxHttpRequest, club: Club, person_id: int) -> HttpResponse:
    """A register entry edited: name, club, member number, e-mail, phone. Past tournaments keep the
    names as registered. Bad input: the form again with why at the field (422), nothing saved."""
    person = register_selectors.person_of(club, person_id)
    if person is None:  # another club's person, or none: never said which
        raise Http404(_("No such person in this register."))
    fields = ("name", "team", "member_number", "email", "phone")
    initial = {name: getattr(person, name) for name in fields}
    form = PersonForm(request.POST, initial=initial) if request.method == "POST" else PersonForm(initial=initial)
    if form.is_bound and form.is_valid():
        with refusal(form) as refused:
            register_services.edit_person(
                club=club, actor=request.user, person_id=person.pk, fields=form.person_fields()
            )
        if not refused:
            messages.success(request, _("%(name)s is saved in the register.") % {"name": form.person_fields().name})
            return redirect("tournament:club_register", club.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "tournament/edit_person.html", {"club": club, "person": person, "form": form}, status=status)


@require_POST
@club_organiser
def dismiss_duplicate(request: HtmxHttpRequest, club: Club, person_id: int) -> HttpResponse:
    """ "Not the same person": the sign-up's mark is taken off; the entry leaves "Possible duplicates"."""
    with refusal() as refused:
        person = register_services.dismiss_duplicate(club=club, actor=request.user, person_id=person_id)
    if refused:
        raise Http404(_("No such person in this register."))
    messages.success(request, _("%(name)s is kept as a person of their own.") % {"name": person.name})
    return redirect("tournament:club_register", club.pk)


@require_http_methods(["GET", "POST"])
@club_organiser
def merge_person(request: HtmxHttpRequest, club: Club, person_id: int) -> HttpResponse:
    """ "Merge into…": the duplicate, the people to keep instead (``?q=`` searches), and the merge."""
    duplicate = register_selectors.person_of(club, person_id)
    if duplicate is None:  # another club's person, or none: never said which
        raise Http404(_("No such person in this register."))
    error = ""
    if request.method == "POST":
        keep = MergeForm.read(request)["keep"]
        with refusal() as refused:
            merged = register_services.merge_persons(
                club=club, actor=request.user, duplicate_id=duplicate.pk, keep_id=keep if keep is not None else 0
            )
        if not refused:
            messages.success(
                request,
                ngettext(
                    "%(merged)s merged into %(kept)s; %(count)d registration moved with it.",
                    "%(merged)s merged into %(kept)s; %(count)d registrations moved with it.",
                    merged.players,
                )
                % {"merged": merged.merged.name, "kept": merged.kept.name, "count": merged.players},
            )
            return redirect("tournament:club_register", club.pk)
        error = refused.message
    query = request.GET.get("q", "")[:120] or duplicate.name
    candidates, total = register_selectors.search_people(club, query, limit=20, exclude=duplicate.pk)
    # "Possible duplicates" links here with the entry to keep (``?keep=``): offered first, marked.
    keep_id = to_int(request.GET.get("keep"))
    preset = register_selectors.person_of(club, keep_id) if keep_id else None
    if preset is not None and (preset.pk == duplicate.pk or preset.merged_into_id is not None):
        preset = None
    if preset is not None:
        candidates = [preset, *(person for person in candidates if person.pk != preset.pk)]
    context = {
        "club": club,
        "duplicate": duplicate,
        "candidates": candidates,
        "preset": preset,
        "total": total,
        "query": query,
        "error": error,
    }
    return render(request, "tournament/merge_person.html", context, status=409 if error else 200)


@require_GET
@club_organiser
def register_csv(request: HtmxHttpRequest, club: Club) -> CsvStream:
    """The register as CSV (semicolons, every cell spreadsheet-safe): name, club, member number,
    e-mail, phone, events, added, merged into."""
    header = [
        _("Name"),
        _("Club"),
        _("Member number"),
        _("E-mail"),
        _("Phone"),
        _("Events"),
        _("Added"),
        _("Merged into"),
    ]
    writer = SafeWriter(_Line())

    def lines() -> Iterator[str]:
        yield "\ufeff"
        for cells in chain([header], _register_lines(register_selectors.register_rows(club))):
            yield writer.writerow(cells)

    response = CsvStream(lines(), content_type="text/csv; charset=utf-8")
    stem = slugify(anyascii(club.name)) or f"club-{club.pk}"
    response["Content-Disposition"] = f'attachment; filename="{stem}-register.csv"'
    return response


class _Line:
    def write(self, text: str) -> str:
        return text


def _register_lines(people: Iterator[Person]) -> Iterator[list[object]]:
    for person in people:
        merged = person.merged_into.name if person.merged_into is not None else ""
        yield [
            person.name,
            person.team,
            person.member_number,
            person.email,
            person.phone,
            person.events,  # type: ignore[attr-defined]
            person.created_at.date().isoformat(),
            merged,
        ]


# --- per tournament -------------------------------------------------------------------------


@require_POST
@tournament_role(enums.Role.ORGANISER)
def set_club(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """The settings page's club: one of the organiser's clubs or a new one by name."""
    form = ClubChoiceForm(request.POST, clubs=register_selectors.clubs_of(request.user))
    if form.is_valid():
        with refusal(form) as refused:
            register_services.set_club(
                tournament=tournament,
                actor=request.user,
                club_id=to_int(form.cleaned_data["club"]),
                new_name=form.cleaned_data["new_club"],
            )
        if not refused:
            messages.success(request, _("The tournament's club is saved."))
            return redirect("tournament:settings", tournament.pk)
    return settings_page(request, tournament, club_form=form, status=422)


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.ORGANISER)
def copy_players(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """ "Copy players from…": the club's earlier tournaments, newest first; one is copied in."""
    error = ""
    if request.method == "POST":
        source = CopyPlayersForm.read(request)["source"]
        with refusal() as refused:
            count = register_services.copy_players(
                tournament=tournament, actor=request.user, source_id=source if source is not None else 0
            )
        if not refused:
            messages.success(
                request,
                ngettext("%(count)d player copied.", "%(count)d players copied.", count) % {"count": count},
            )
            return redirect("tournament:desk", tournament.pk)
        error = refused.message
    context = {
        "tournament": tournament,
        "sources": register_selectors.copy_sources(tournament),
        "unavailable": register_services.copy_sources_refusal(tournament),
        "error": error,
    }
    return render(request, "tournament/copy_players.html", context, status=409 if error else 200)
