"""The Schocken half tracker: a referee's calculator at the table.

The referee enters each player's throw of a round; the app names who receives
how many lids, detects a half's loser, Pitsch-Patsch and the decider between
the two half losers. It writes nothing: the state travels in the form, and the
game's loser is then tapped on the table page as usual.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games.rules import schocken
from tournament import enums
from tournament.formats.life_bands import rules as life_bands
from tournament.http import HtmxHttpRequest
from tournament.models import Table, Tournament
from tournament.permissions import tournament_role
from tournament.selectors import play as play_reads


@dataclass
class TrackerState:
    players: list[int]  # player ids of the current half's seats, in seat order
    half: schocken.HalfState
    tracker: schocken.GameTracker
    starter: int  # seat that throws first this round

    def encode(self) -> dict[str, str]:
        return {
            "players": ",".join(map(str, self.players)),
            "stock": str(self.half.stock),
            "lids": ",".join(map(str, self.half.lids)),
            "half_losers": ",".join(map(str, self.tracker.half_losers)),
            "sharp": "1" if self.tracker.sharp else "0",
            "starter": str(self.starter),
        }


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _decode(post: dict[str, str], table_players: list[int]) -> TrackerState:
    players = _ints(post.get("players", ""))
    if not set(players) <= set(table_players) or len(players) < 2:
        raise ValueError("players")
    half = schocken.HalfState(stock=int(post["stock"]), lids=tuple(_ints(post["lids"])))
    tracker = schocken.GameTracker(
        sharp=post.get("sharp") == "1", half_losers=tuple(_ints(post.get("half_losers", "")))
    )
    starter = int(post.get("starter", "0"))
    if len(half.lids) != len(players) or not 0 <= starter < len(players):
        raise ValueError("state")
    return TrackerState(players=players, half=half, tracker=tracker, starter=starter)


@require_http_methods(["GET", "POST"])
@tournament_role(enums.Role.REFEREE)
def half_tracker(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    try:
        view = play_reads.table_view(tournament, table_id)
    except Table.DoesNotExist:
        raise Http404 from None
    names = {seat.player_id: seat.player.name for seat in view.seats}
    in_play = [seat.player_id for seat in view.seats if seat.out_order is None]
    if view.table.status != enums.TableStatus.PLAYING or len(in_play) < 2:
        # A decided table (the grand final's winner alone, say) has nothing left to track.
        context = {"tournament": tournament, "table": view.table, "nothing_to_track": True}
        template = "formats/life_bands/half_tracker.html" + ("#tracker" if request.htmx else "")
        return render(request, template, context, status=409 if request.method == "POST" else 200)
    message = ""
    error = ""
    if request.method == "POST" and request.POST.get("action") != "new":
        try:
            current = _decode(request.POST.dict(), in_play)
        except (ValueError, KeyError):
            current = None
            error = _("The tracker lost its state; it starts a new game.")
        if current is not None:
            current, message, error = _play(request.POST.dict(), current, names, street_rule(tournament))
    else:
        current = None
    if current is None:
        # A new game plays one half only once the table's sharp play has begun (the game in
        # progress, carried in the form, ends normally).
        sharp = (
            request.POST.get("sharp") == "1" or request.GET.get("sharp") == "1" or _sharp_now(tournament, view.table)
        )
        current = TrackerState(
            players=in_play,
            half=schocken.HalfState.start(len(in_play)),
            tracker=schocken.GameTracker(sharp=sharp),
            starter=0,
        )
    order = schocken.turn_order(current.half, current.starter) if not current.half.is_over else ()
    context = {
        "tournament": tournament,
        "table": view.table,
        "state": current,
        "hidden": current.encode(),
        "step": current.tracker.next_step,
        "seats": [
            (index, names[pid], current.half.lids[index], index in current.half.active)
            for index, pid in enumerate(current.players)
        ],
        "order": [(index, names[current.players[index]]) for index in order],
        "message": message,
        "error": error,
        "loser_name": names.get(current.tracker.loser) if current.tracker.loser is not None else "",
        "pitsch_patsch": current.tracker.pitsch_patsch,
        "stock": current.half.stock,
        "street_first_roll_only": street_rule(tournament) is schocken.StreetRule.FIRST_ROLL,
    }
    template = "formats/life_bands/half_tracker.html"
    if request.htmx:
        template += "#tracker"
    return render(request, template, context)


def _sharp_now(tournament: Tournament, table: Table) -> bool:
    if table.started_at is None:
        return False
    grand_final = table.round.stage == enums.Stage.GRAND_FINAL
    return life_bands.is_sharp_play(
        table.started_at, timezone.now(), tournament.sharp_play_minutes, grand_final=grand_final
    )


def street_rule(tournament: Tournament) -> schocken.StreetRule:
    """The tournament's reading of "Straße: zählt nur in einem Wurf" (``Tournament.schocken_street``)."""
    try:
        return schocken.StreetRule(tournament.schocken_street)
    except ValueError:
        return schocken.StreetRule.ANY_ROLL


def _play(
    post: dict[str, str],
    current: TrackerState,
    names: dict[int, str],
    street: schocken.StreetRule = schocken.StreetRule.ANY_ROLL,
) -> tuple[TrackerState, str, str]:
    """Score one round of throws and move the game on, a Straße counted as ``street`` says."""
    throws: list[tuple[int, schocken.Throw]] = []
    try:
        for seat in schocken.turn_order(current.half, current.starter):
            throws.append(
                (seat, schocken.parse_throw(post.get(f"dice_{seat}", ""), rolls=int(post.get(f"rolls_{seat}", "1"))))
            )
    except (schocken.InvalidThrow, ValueError):
        return current, "", _("Enter three dice (1–6) for every player who throws, e.g. 6 5 2.")
    outcome = schocken.play_round(current.half, throws, street)
    top = dict(throws)[outcome.highest]
    low = dict(throws)[outcome.receiver]
    message = ngettext(
        "%(high)s (%(high_throw)s) decides: %(low)s (%(low_throw)s) takes %(lids)d lid.",
        "%(high)s (%(high_throw)s) decides: %(low)s (%(low_throw)s) takes %(lids)d lids.",
        outcome.lids,
    ) % {
        "high": names[current.players[outcome.highest]],
        "high_throw": schocken.throw_label(top, street),
        "low": names[current.players[outcome.receiver]],
        "low_throw": schocken.throw_label(low, street),
        "lids": outcome.lids,
    }
    if outcome.half_loser is None:
        return (
            TrackerState(current.players, outcome.state, current.tracker, outcome.next_starter),
            message,
            "",
        )
    loser_id = current.players[outcome.half_loser]
    tracker = current.tracker
    if tracker.next_step == schocken.Step.DECIDER:
        tracker = tracker.record_decider_loser(loser_id)
    else:
        tracker = tracker.record_half_loser(loser_id)
    message += " " + _("%(name)s loses this half.") % {"name": names[loser_id]}
    players = current.players
    if tracker.next_step == schocken.Step.SECOND_HALF:
        players = current.players
        starter = outcome.half_loser  # the half's loser begins the next
    elif tracker.next_step == schocken.Step.DECIDER and tracker.decider_players is not None:
        players = list(tracker.decider_players)  # the first-half loser throws first
        starter = 0
    else:
        starter = 0
    return (
        TrackerState(players, schocken.HalfState.start(len(players)), tracker, starter)
        if tracker.next_step != schocken.Step.DONE
        else TrackerState(current.players, outcome.state, tracker, 0),
        message,
        "",
    )
