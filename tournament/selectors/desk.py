"""Reads of the desk: tournaments and roles, counters, players, the draw, staff.
Each function issues a fixed number of queries, whatever the number of players."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, Count, F, Prefetch, Q, QuerySet, Value, When

from tournament import enums, folding, fuzzy
from tournament.models import CheckIn, ChecklistItem, Player, PlayerCheck, StaffRole, StartNumberDraw, Tournament

CHECKIN_LIST_LIMIT = 60


def tournaments_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """Tournaments the user has a role in (every tournament for a superuser)."""
    qs = Tournament.objects.all()
    if not getattr(user, "is_superuser", False):
        qs = qs.filter(staff__user=user).distinct()
    return qs.order_by("-date", "name")


def roles_of(user: AbstractBaseUser | AnonymousUser, tournament: Tournament) -> set[str]:
    if not user.is_authenticated:
        return set()
    roles = set(StaffRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True))
    if getattr(user, "is_superuser", False):
        roles.add(enums.Role.ORGANISER)
    return roles


@dataclass(frozen=True)
class DeskCounters:
    registered: int
    checked_in: int
    waiting: int
    missing: int
    withdrawn: int
    no_show: int
    capacity: int

    @property
    def free_places(self) -> int:
        return max(0, self.capacity - self.registered)


def desk_counters(tournament: Tournament) -> DeskCounters:
    """Registered (holding a place), checked in, waiting, missing (registered, not yet here)."""
    status = enums.PlayerStatus
    counts = Player.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk", filter=Q(status__in=[status.REGISTERED, status.CHECKED_IN])),
        checked_in=Count("pk", filter=Q(status=status.CHECKED_IN)),
        waiting=Count("pk", filter=Q(status=status.WAITING)),
        missing=Count("pk", filter=Q(status=status.REGISTERED)),
        withdrawn=Count("pk", filter=Q(status=status.WITHDRAWN)),
        no_show=Count("pk", filter=Q(status=status.NO_SHOW)),
    )
    return DeskCounters(capacity=tournament.capacity, **counts)


def checklist_with_handouts(tournament: Tournament) -> list[ChecklistItem]:
    """The checklist items in order, each with ``given``: how many checked-in players have it
    ticked (one query; the check-in page's rows read the items as before)."""
    checked_in = Q(checks__player__status=enums.PlayerStatus.CHECKED_IN)
    return list(
        ChecklistItem.objects.filter(tournament=tournament)
        .annotate(given=Count("checks", filter=checked_in))
        .order_by("position", "pk")
    )


@dataclass(frozen=True)
class Handout:
    """A checklist item counted on the desk: ticked for ``given`` checked-in players, open for
    ``left`` of them (a meal voucher to hand out, a licence still to see: checked in with an
    override)."""

    item: ChecklistItem
    given: int
    left: int


def handouts(items: list[ChecklistItem], checked_in: int) -> list[Handout]:
    """Each item of ``checklist_with_handouts`` with what is left to give among ``checked_in`` players."""
    return [Handout(item, item.given, max(checked_in - item.given, 0)) for item in items]  # type: ignore[attr-defined]


def _with_desk_details(qs: QuerySet[Player]) -> QuerySet[Player]:
    return qs.prefetch_related(
        Prefetch("checks", queryset=PlayerCheck.objects.only("pk", "player_id", "item_id", "returned_at")),
        Prefetch(
            "check_ins",
            queryset=CheckIn.objects.filter(cancelled_at__isnull=True).select_related("checked_in_by"),
            to_attr="live_check_ins",
        ),
    )


# What the counters above the check-in list open (``?show=``): the statuses each one counts.
SHOW = {
    "registered": (enums.PlayerStatus.REGISTERED, enums.PlayerStatus.CHECKED_IN),
    "checked_in": (enums.PlayerStatus.CHECKED_IN,),
    "missing": (enums.PlayerStatus.REGISTERED,),
    "waiting": (enums.PlayerStatus.WAITING,),
}


def folded_match(query: str) -> Q:
    """Players whose name or club matches every typed word, however accented or cased (``tournament.folding``)."""
    condition = Q()
    for word, folded in folding.query_words(query):
        condition &= Q(folded__contains=word) | Q(folded__contains=folded)
    return condition


# The name indexes built last in this process (``name_index``), by tournament, link and version.
_NAME_INDEXES: OrderedDict[tuple[int, str, int], fuzzy.NameIndex] = OrderedDict()
_NAME_INDEXES_LOCK = threading.Lock()
NAME_INDEXES_KEPT = 8


def name_index(tournament: Tournament) -> fuzzy.NameIndex:
    """The field's words for the search that forgives typos (``tournament.fuzzy``): built from
    ``(id, folded)`` in one query once per version of the tournament and kept in this process (the
    last ``NAME_INDEXES_KEPT``), so a keystroke never reads the whole field again. Keyed by the public
    key too: a test database reuses ids and versions."""
    key = (tournament.pk, tournament.public_key, tournament.version)
    with _NAME_INDEXES_LOCK:
        index = _NAME_INDEXES.get(key)
        if index is not None:
            _NAME_INDEXES.move_to_end(key)
            return index
    rows = Player.objects.filter(tournament_id=tournament.pk).values_list("pk", "folded")
    index = fuzzy.NameIndex.build(rows.iterator(chunk_size=5000))
    with _NAME_INDEXES_LOCK:
        _NAME_INDEXES[key] = index
        while len(_NAME_INDEXES) > NAME_INDEXES_KEPT:
            _NAME_INDEXES.popitem(last=False)
    return index


def prefix_first(query: str) -> Case:
    """An ordering: names that start with what was typed (0), then those with a word that does (1),
    then the other matches (2); ``Player.folded`` starts with the plain name."""
    whole = {folding.plain(query), folding.digraphs(query)} - {""}
    if not whole:  # nothing but punctuation ("-"): no name starts with it (an empty Q() cannot order)
        return Case(default=Value(2))
    starts, word_starts = Q(), Q()
    for form in whole:
        starts |= Q(folded__startswith=form)
        word_starts |= Q(folded__contains=" " + form)
    return Case(When(starts, then=Value(0)), When(word_starts, then=Value(1)), default=Value(2))


def similar_players(
    tournament: Tournament, query: str, qs: QuerySet[Player], *, found: list[Player], limit: int
) -> list[Player]:
    """Players of ``qs`` like ``query`` (a typo: "nicolo" for Niccolò), most alike first, leaving
    out those ``found`` by the folded match: at most ``limit``. Two queries at most whatever the
    field (the name index, once per version; the players like it), none for a number."""
    if limit <= 0 or query.strip().isdecimal():
        return []
    ids = name_index(tournament).similar(query, exclude=[player.pk for player in found], limit=limit * 3)
    if not ids:
        return []
    rank = {player_id: position for position, player_id in enumerate(ids)}
    return sorted(qs.filter(pk__in=ids), key=lambda player: rank[player.pk])[:limit]


def search_players(
    tournament: Tournament, query: str = "", limit: int = CHECKIN_LIST_LIMIT, show: str = ""
) -> tuple[list[Player], int]:
    """Players matching a name, a part of it, a club or a start number, for the check-in screen.

    ``show`` narrows to what a counter counts (``SHOW``; anything else: everyone).
    Returns at most ``limit`` players (exact start number first, then in
    dictionary order) and how many matched in all.
    """
    qs = Player.objects.filter(tournament=tournament)
    if show in SHOW:
        qs = qs.filter(status__in=SHOW[show])
    base = qs
    query = query.strip()
    order: list[Any] = ["folded", "name", "pk"]
    # isdecimal, not isdigit: int() refuses digits such as "²".
    if query.isdecimal() and len(query) <= 9:
        number = int(query)
        qs = qs.filter(Q(start_number=number) | folded_match(query))
        # Sorted in the database, so the exact number is never cut off by the limit.
        order.insert(0, Case(When(start_number=number, then=Value(0)), default=Value(1)))
    elif query:
        qs = qs.filter(folded_match(query))
        order.insert(0, prefix_first(query))
    total = qs.count()
    players = list(_with_desk_details(qs.order_by(*order))[:limit])
    if query and total < limit:
        # Fewer than a page: the players like it follow (a typo), most alike first.
        similar = similar_players(tournament, query, _with_desk_details(base), found=players, limit=limit - total)
        players += similar
        total += len(similar)
    return players, total


def desk_player(tournament: Tournament, player_id: int) -> Player | None:
    """One player of this tournament with what the check-in row shows; None for an id that is not one."""
    return _with_desk_details(Player.objects.filter(tournament=tournament, pk=player_id)).first()


def _for_print(tournament: Tournament, *, checked_in_only: bool) -> QuerySet[Player]:
    qs = Player.objects.filter(tournament=tournament).exclude(
        status__in=[enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW]
    )
    if checked_in_only:
        qs = qs.filter(status=enums.PlayerStatus.CHECKED_IN)
    return qs


def count_for_print(tournament: Tournament, *, checked_in_only: bool = False) -> int:
    """How many players ``players_for_print`` has in all (one query)."""
    return _for_print(tournament, checked_in_only=checked_in_only).count()


def players_for_print(
    tournament: Tournament, *, checked_in_only: bool = False, offset: int = 0, limit: int | None = None
) -> list[Player]:
    """The players to print (``limit`` of them from ``offset``: a part of the printout)."""
    qs = _for_print(tournament, checked_in_only=checked_in_only)
    ordered = qs.order_by(*(("start_number", "name", "pk") if checked_in_only else ("folded", "name", "pk")))
    return list(_with_desk_details(ordered[offset : None if limit is None else offset + limit]))


def all_players(tournament: Tournament, *, offset: int = 0, limit: int | None = None) -> list[Player]:
    """Every player in dictionary order, for the printable list (``limit`` of them from ``offset``)."""
    ordered = Player.objects.filter(tournament=tournament).order_by("folded", "name", "pk")
    return list(_with_desk_details(ordered[offset : None if limit is None else offset + limit]))


def latest_draw(tournament: Tournament) -> StartNumberDraw | None:
    return tournament.draws.select_related("drawn_by").first()


def draw_result(tournament: Tournament) -> list[Player]:
    """Checked-in players in start-number order, for the draw result list."""
    return list(
        Player.objects.filter(tournament=tournament, start_number__isnull=False)
        .exclude(status__in=[enums.PlayerStatus.WITHDRAWN, enums.PlayerStatus.NO_SHOW])
        .order_by("start_number")
    )


def waiting_list(tournament: Tournament) -> list[Player]:
    return list(
        # The order in which services moves players up (services.WAITING_LIST_ORDER).
        Player.objects.filter(tournament=tournament, status=enums.PlayerStatus.WAITING).order_by(
            "status_changed_at", "registered_at", "pk"
        )
    )


def staff_of(tournament: Tournament) -> list[StaffRole]:
    return list(
        StaffRole.objects.filter(tournament=tournament).select_related("user").order_by("role", "user__username")
    )


def overrides(tournament: Tournament) -> list[CheckIn]:
    """Check-ins made over open checklist items, newest first."""
    return list(
        CheckIn.objects.filter(player__tournament=tournament, override=True)
        .select_related("player", "checked_in_by")
        .order_by("-checked_in_at")
    )


def returnable_checks(tournament: Tournament) -> list[PlayerCheck]:
    """Handed-in equipment (own decks) with its player, not yet returned first."""
    return list(
        PlayerCheck.objects.filter(player__tournament=tournament, item__returnable=True)
        .select_related("player", "item")
        .order_by(F("returned_at").asc(nulls_first=True), "player__name")
    )
