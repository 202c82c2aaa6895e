"""The player's pass: "my tournament" on the player's phone (``/pass/<token>/``), its "I'm at my
table", and the desk's page of a player's pass with "New pass".

The player's pages need no account: the token is the key. Every look-up first asks whether the
client's address has used up its failed look-ups (``passes.limits``: 429 then, nothing looked
up); a token that is no pass counts one failure (404), a replaced pass says so (410). The page
polls itself (``static/js/poll.js``): the ETag names the tournament's version, so an unchanged
page answers 304 after one indexed query (the pass). A new call to a table rings
(``static/js/pass.js``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import enums, qr
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.http import HtmxHttpRequest, answers_refusals
from tournament.models import Player, PlayerPass, Tournament
from tournament.passes import limits, services, signup, tokens
from tournament.permissions import tournament_role
from tournament.polling import POLL_SECONDS, answer_if_unchanged, etag_for
from tournament.selectors import passes as passes_selectors
from tournament.selectors import self_check_in as self_check_in_selectors
from tournament.versions import version as version_of
from tournament.views.forms import SitDownForm

TEMPLATE = "tournament/pass.html"
TARGET = "pass-body"
TOO_MANY = 429


class PassRefused(Exception):
    """A look-up that ends in a page of its own (too many failures, no pass, a replaced pass)."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def private_answer(response: HttpResponse) -> HttpResponse:
    """A player's page as nobody else may keep it (no cache, no index): every page the pass or the
    sign-up answers (the pass's views, its table, my season, self check-in, the sign-up)."""
    patch_cache_control(response, private=True, no_cache=True, no_store=True, max_age=0)
    response["X-Robots-Tag"] = "noindex"
    return response


def _is_poll(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target") == TARGET


def open_pass(request: HttpRequest, token: str) -> PlayerPass:
    """The live pass ``token`` opens, or ``PassRefused`` with the page to answer."""
    if limits.exhausted(request):
        page = render(request, "tournament/pass_refused.html", {"kind": "limited"}, status=TOO_MANY)
        raise PassRefused(page)
    player_pass = passes_selectors.by_token(token)
    if player_pass is None:
        limits.failed(request)
        raise PassRefused(render(request, "tournament/pass_refused.html", {"kind": "unknown"}, status=404))
    if player_pass.revoked_at is not None:
        # A phone that had the page open learns it at its next poll (a region of its own, 200: poll.js
        # swaps only a success); a fresh request is answered 410 Gone.
        if _is_poll(request):
            raise PassRefused(render(request, "tournament/pass_refused.html#refused-body", {"kind": "replaced"}))
        raise PassRefused(render(request, "tournament/pass_refused.html", {"kind": "replaced"}, status=410))
    return player_pass


def with_pass(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Open the pass the URL's ``token`` names before ``view`` (a view, or the answer to its
    refusals): ``view`` gets it as ``player_pass``; a look-up that fails (too many failures, no
    pass, a replaced pass) is answered with its own page, and ``view`` is not called."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, token: str, **kwargs: Any) -> HttpResponse:
        try:
            player_pass = open_pass(request, token)
        except PassRefused as refused:
            return private_answer(refused.response)
        return view(request, *args, token=token, player_pass=player_pass, **kwargs)

    return wrapper


def _etag(request: HttpRequest, player_pass: PlayerPass) -> str | None:
    tournament_id = player_pass.player.tournament_id
    version = version_of(tournament_id)
    if version is None:
        return None
    return etag_for(request, "pass", tournament_id, version, extra=str(player_pass.pk), private=False)


def render_pass(
    request: HttpRequest, player_pass: PlayerPass, token: str, *, error: str = "", status: int = 200
) -> HttpResponse:
    etag = _etag(request, player_pass)
    partial = _is_poll(request)
    if partial and not error and (unchanged := answer_if_unchanged(request, etag)) is not None:
        return private_answer(unchanged)
    shown = passes_selectors.page(player_pass)
    context = {
        "shown": shown,
        "tournament": shown.tournament,
        "fmt": registry.of(shown.tournament),
        "signup": signup.status(shown.player),
        "token": token,
        "error": error,
        "public_page": True,
        "poll": {"etag": etag or "", "seconds": getattr(settings, "STAFF_POLL_SECONDS", POLL_SECONDS)},
        # Self check-in (issue 32, item 3): its own block of the page, outside the polled region.
        "check_in": None if partial else self_check_in_selectors.offer(shown.tournament, shown.player),
    }
    response = render(request, TEMPLATE + ("#pass-body" if partial else ""), context, status=status)
    if partial and etag and status == 200:
        response["ETag"] = etag
    return private_answer(response)


@require_GET
@with_pass
def pass_page(request: HttpRequest, token: str, player_pass: PlayerPass) -> HttpResponse:
    """ "My tournament": name, start number, status, date and venue; during play the table the player
    is called to, in large type, and "I'm at my table"."""
    return render_pass(request, player_pass, token)


@with_pass
def _refused_sit_down(request: HttpRequest, error: ServiceError, token: str, player_pass: PlayerPass) -> HttpResponse:
    """A refused "I'm at my table": the page (or its body) with why, 409; nothing saved."""
    return render_pass(request, player_pass, token, error=error.message, status=409)


@require_POST
@answers_refusals(_refused_sit_down)
@with_pass
def sit_down(request: HttpRequest, token: str, player_pass: PlayerPass) -> HttpResponse:
    """The player taps "I'm at my table" (idempotent: a second tap changes nothing)."""
    services.sit_down(pass_id=player_pass.pk, table_id=SitDownForm.read(request)["table"])
    if request.headers.get("HX-Request") == "true":
        player_pass.refresh_from_db(fields=["revoked_at"])
        return render_pass(request, player_pass, token)
    return redirect("tournament:pass", token=token)


# --- the desk ---------------------------------------------------------------------------------


def _desk_player(tournament: Tournament, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, tournament=tournament)


def _pass_link(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("tournament:pass", kwargs={"token": token}))


@require_GET
@tournament_role(enums.Role.DESK)
def desk_pass(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """A player's pass at the desk: the link and its QR code (shown to scan from the screen, the
    same as on the start card) and "New pass"."""
    player = _desk_player(tournament, player_id)
    live = PlayerPass.objects.filter(player=player, revoked_at__isnull=True).select_related("created_by").first()
    link = ""
    if live is not None and tokens.hash_of(token := tokens.token_for(live.nonce)) == live.token_hash:
        link = _pass_link(request, token)
    context = {
        "tournament": tournament,
        "player": player,
        "live": live,
        "link": link,
        "code": qr.svg(link) if link else "",
        "replaced": PlayerPass.objects.filter(player=player, revoked_at__isnull=False).count(),
    }
    return private_answer(render(request, "tournament/desk_pass.html", context))


def _refused_new_pass(
    request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, player_id: int
) -> HttpResponse:
    messages.error(request, error.message)
    return redirect("tournament:check_in", tournament.pk)


@require_http_methods(["POST"])
@tournament_role(enums.Role.DESK)
@answers_refusals(_refused_new_pass)
def new_pass(request: HtmxHttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """ "New pass": the player's pass is replaced; the old link stops working at once (audited)."""
    if not Player.objects.filter(pk=player_id, tournament=tournament).exists():
        raise Http404
    services.issue_pass(tournament=tournament, actor=request.user, player_id=player_id)
    messages.success(request, services.new_pass_message())
    return redirect("tournament:desk_pass", tournament.pk, player_id)
