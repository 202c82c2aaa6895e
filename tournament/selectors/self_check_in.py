"""Reads of self check-in (issue 32, item 3): what the pass page and the entrance page offer the
player, and the desk's "arrived, needs the desk" list. Fixed query counts whatever the field."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Window

from tournament import enums
from tournament.models import ChecklistItem, Player, PlayerCheck, SelfArrival, Tournament
from tournament.passes.checkin import refusal_for

# The arrivals the desk's list names; the rest are counted.
ARRIVED_NAMED = 30


@dataclass(frozen=True)
class Offer:
    """What a player sees under "I'm here": why not (``refused``), or the items they declare
    (``declare``: the self-declared ones, each with ``done``) and those the desk checks
    (``desk``: still open), whether they are already on the desk's list, or checked in."""

    refused: str
    checked_in: bool
    arrived: bool
    declare: list[ChecklistItem] = field(default_factory=list)
    desk: list[ChecklistItem] = field(default_factory=list)

    @property
    def declare_open(self) -> bool:
        """A self-declared item the player has not ticked yet."""
        return any(not item.done for item in self.declare)  # type: ignore[attr-defined]


def offer(tournament: Tournament, player: Player) -> Offer | None:
    """The self check-in part of the pass page, or None where the tournament has none or the player
    plays already (two queries when it is offered: the items with the player's ticks, the arrival)."""
    checked_in = player.status == enums.PlayerStatus.CHECKED_IN
    if not tournament.self_check_in or (checked_in and tournament.play_started):
        return None  # once play runs, the table the player is called to comes first
    refused = "" if checked_in else refusal_for(tournament, player)
    if refused or checked_in:
        return Offer(refused=refused, checked_in=checked_in, arrived=False)
    ticks = PlayerCheck.objects.filter(player=player, item=OuterRef("pk"))
    items = list(
        ChecklistItem.objects.filter(tournament=tournament).annotate(done=Exists(ticks)).order_by("position", "pk")
    )
    arrived = SelfArrival.objects.filter(player=player).exists()
    return Offer(
        refused="",
        checked_in=False,
        arrived=arrived,
        declare=[item for item in items if item.kind == ChecklistItem.Kind.SELF],
        desk=[item for item in items if item.kind == ChecklistItem.Kind.DESK and not item.done],  # type: ignore[attr-defined]
    )


@dataclass(frozen=True)
class ArrivedRow:
    player: Player
    open_items: list[str]


@dataclass(frozen=True)
class Arrived:
    """The desk's "arrived, needs the desk": registered players who said "I'm here" with an item
    open, the first ``ARRIVED_NAMED`` by arrival, and how many in all."""

    count: int
    rows: list[ArrivedRow]

    @property
    def more(self) -> int:
        return self.count - len(self.rows)


def arrived(tournament: Tournament, items: list[ChecklistItem]) -> Arrived:
    """Who waits at the desk (two queries: the arrivals with their players and count, their ticks;
    ``items`` the checklist the page already read)."""
    arrivals = list(
        SelfArrival.objects.filter(player__tournament=tournament, player__status=enums.PlayerStatus.REGISTERED)
        .select_related("player")
        .annotate(total=Window(Count("pk")))
        .order_by("arrived_at", "pk")[:ARRIVED_NAMED]
    )
    if not arrivals:
        return Arrived(0, [])
    ticked: dict[int, set[int]] = {}
    for player_id, item_id in PlayerCheck.objects.filter(
        player_id__in=[arrival.player_id for arrival in arrivals]
    ).values_list("player_id", "item_id"):
        ticked.setdefault(player_id, set()).add(item_id)
    rows = [
        ArrivedRow(
            arrival.player,
            [item.shown_label for item in items if item.pk not in ticked.get(arrival.player_id, set())],
        )
        for arrival in arrivals
    ]
    return Arrived(arrivals[0].total, rows)  # type: ignore[attr-defined]
