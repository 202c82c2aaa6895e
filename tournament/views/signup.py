"""Sign-up before the day (issue 32, item 2): the public sign-up page (``/p/<key>/sign-up/``),
"Withdraw from the tournament" on the pass (``/pass/<token>/withdraw/``, asked first) and the
desk's "Fee paid" in the check-in row. The writes are in ``passes.signup`` and the desk's
registration services."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import enums, qr
from tournament.desk import registration
from tournament.errors import NeedsConfirmation, ServiceError
from tournament.forms import SignUpForm
from tournament.http import HtmxHttpRequest, answers_refusals, refusal
from tournament.models import PlayerPass, Tournament
from tournament.passes import limits, signup
from tournament.permissions import tournament_role
from tournament.selectors import register as register_selectors
from tournament.views.desk import _refused_row, _row_response, is_confirmed
from tournament.views.forms import FeeForm
from tournament.views.passes import private_answer, with_pass

SIGNUP_TEMPLATE = "passes/sign_up.html"


def _window_now(tournament: Tournament) -> tuple[bool, list[object]]:
    """Is a registration window open now (or none set: open at any time), and the windows (one query)."""
    windows = list(tournament.registration_windows.all())
    now = timezone.now()
    return (not windows or any(w.opens_at <= now <= w.closes_at for w in windows)), windows


def _suggesting(tournament: Tournament, form: SignUpForm) -> bool:
    """The Name field asks the club's register as it is typed (htmx), where the tournament has a club."""
    if tournament.club_id is None:
        return False
    form.fields["name"].widget.attrs.update(
        {
            "hx-get": reverse("tournament:sign_up_suggest", args=[tournament.public_key]),
            "hx-trigger": "input changed delay:250ms",
            "hx-target": "#signup-suggestions",
            "hx-sync": "this:replace",
            "aria-describedby": "signup-suggestions",
        }
    )
    return True


def _context(tournament: Tournament, form: SignUpForm) -> dict[str, object]:
    open_now, windows = _window_now(tournament)
    return {
        "tournament": tournament,
        "form": form,
        "suggesting": _suggesting(tournament, form),
        "open_now": open_now and tournament.online_signup and tournament.status == enums.TournamentStatus.REGISTRATION,
        "windows": windows,
        "mail": signup.mail_configured(),
        "public_page": True,
    }


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest, public_key: str) -> HttpResponse:
    """The public sign-up page: name, club, contact, the rules to accept; then the pass. A refusal
    shows the form again with why (422), nothing saved. Three queries for the page whatever the
    field's size (the tournament, its windows; the session's none)."""
    tournament = get_object_or_404(Tournament, public_key=public_key)
    if request.method != "POST":
        return private_answer(render(request, SIGNUP_TEMPLATE, _context(tournament, SignUpForm())))
    form = SignUpForm(request.POST)
    done = None
    if form.is_valid():
        with refusal(form) as refused:
            done = signup.sign_up(
                tournament=tournament,
                name=form.cleaned_data["name"],
                club=form.cleaned_data["club"],
                contact=form.cleaned_data["contact"],
                rules_accepted=form.cleaned_data["rules_accepted"],
                suggested_id=form.cleaned_data["suggested"],
            )
        if refused:
            done = None
    if done is None:
        return private_answer(render(request, SIGNUP_TEMPLATE, _context(tournament, form), status=422))
    link = request.build_absolute_uri(reverse("tournament:pass", kwargs={"token": done.token}))
    mailed = None
    if signup.is_email(done.player.contact) and signup.mail_configured():
        mailed = signup.send_confirmation(player=done.player, link=link, waiting=done.waiting_place)
    context = {
        "tournament": tournament,
        "player": done.player,
        "waiting_place": done.waiting_place,
        "provisional": tournament.fee_fixes_place,
        "link": link,
        "code": qr.svg(link),
        "mail": signup.mail_configured(),
        "by_mail": signup.is_email(done.player.contact),
        "mailed": mailed,
        "public_page": True,
    }
    return private_answer(render(request, "passes/signed_up.html", context))


@require_GET
def sign_up_suggest(request: HttpRequest, public_key: str) -> HttpResponse:
    """The sign-up's Name field asks as it is typed (``?name=``): people of the club's register who
    played a finished event of the club, by name and team only (``register.public_suggestions``),
    each a button that fills Name and Club. Limited per address (``passes.limits``: 429 past it,
    before any look-up). Two queries and the register's (``public_suggestions``)."""
    if not limits.suggestions_allowed(request):
        return private_answer(HttpResponse(status=429))
    tournament = get_object_or_404(Tournament.objects.select_related("club"), public_key=public_key)
    name = request.GET.get("name", "")[:120]
    people = register_selectors.public_suggestions(tournament, name)
    return private_answer(render(request, "passes/_signup_suggestions.html", {"people": people}))


def _refused_withdraw(request: HttpRequest, error: ServiceError, token: str) -> HttpResponse:
    """A refused withdrawal (a revoked pass, already withdrawn): the confirm page with why, 409."""
    return private_answer(render(request, "passes/withdraw.html", {"token": token, "error": error.message}, status=409))


@require_http_methods(["GET", "POST"])
@answers_refusals(_refused_withdraw)
@with_pass
def withdraw(request: HttpRequest, token: str, player_pass: PlayerPass) -> HttpResponse:
    """ "Withdraw from the tournament": GET (or a post without ``confirm=1``) asks with the desk's
    words; the confirmed post withdraws the pass's own player and shows the pass again."""
    confirmed = request.method == "POST" and is_confirmed(request)  # type: ignore[arg-type]
    try:
        signup.withdraw_with_pass(pass_id=player_pass.pk, confirmed=confirmed)
    except NeedsConfirmation as question:
        context = {"token": token, "question": question.message, "tournament": player_pass.player.tournament}
        return private_answer(render(request, "passes/withdraw.html", context))
    return redirect("tournament:pass", token=token)


@require_POST
@tournament_role(enums.Role.DESK)
@answers_refusals(_refused_row)
def fee_paid(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """The desk's "Fee paid" (or its undo) in the check-in row (audited)."""
    registration.set_fee_paid(
        tournament=tournament, actor=request.user, player_id=player_id, paid=FeeForm.read(request)["paid"]
    )
    return _row_response(request, tournament, player_id)
