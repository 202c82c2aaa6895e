"""Reads of the club's register (issue 33, item 1): the clubs a user runs, the register page, the
desk's suggestions as a name is typed, the merge's candidates, the club's log, the earlier events
to copy players from, the register's CSV. Each function issues a fixed number of queries,
whatever the size of the register."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from tournament import enums, fuzzy
from tournament.models import AuditEntry, Club, Person, Player, Tournament
from tournament.selectors.desk import folded_match, prefix_first

PAGE_SIZE = 50
SUGGESTIONS = 6
LOG_ENTRIES = 20
# The public sign-up's suggestions: fewer, and only from the third letter on (a name, not a browse).
PUBLIC_SUGGESTIONS = 5
PUBLIC_MIN_LETTERS = 3
DUPLICATES_SHOWN = 20


def clubs_of(user: AbstractBaseUser | AnonymousUser) -> list[Club]:
    """The clubs the user runs (as one of their organisers), newest first. One query."""
    if not user.is_authenticated:
        return []
    return list(Club.objects.filter(organisers=user).order_by("-created_at", "-pk"))


def _people(club: Club) -> QuerySet[Person]:
    """The register's entries shown and suggested: the club's people not merged into another."""
    return Person.objects.filter(club=club, merged_into__isnull=True)


def _with_events(qs: QuerySet[Person]) -> QuerySet[Person]:
    return qs.annotate(events=Count("players__tournament", distinct=True))


# The name indexes of registers built last in this process, by club, its creation and register version.
_INDEXES: OrderedDict[tuple[int, str, int], fuzzy.NameIndex] = OrderedDict()
_INDEXES_LOCK = threading.Lock()
INDEXES_KEPT = 8


def person_index(club: Club) -> fuzzy.NameIndex:
    """The register's words for the search that forgives typos (``tournament.fuzzy``), built in one
    query once per ``Club.register_version`` and kept in this process (the last ``INDEXES_KEPT``).
    Keyed by the club's creation time too: a test database reuses ids and versions."""
    key = (club.pk, club.created_at.isoformat(), club.register_version)
    with _INDEXES_LOCK:
        index = _INDEXES.get(key)
        if index is not None:
            _INDEXES.move_to_end(key)
            return index
    rows = _people(club).values_list("pk", "folded")
    index = fuzzy.NameIndex.build(rows.iterator(chunk_size=5000))
    with _INDEXES_LOCK:
        _INDEXES[key] = index
        while len(_INDEXES) > INDEXES_KEPT:
            _INDEXES.popitem(last=False)
    return index


def search_people(
    club: Club, query: str, *, offset: int = 0, limit: int = PAGE_SIZE, exclude: int | None = None
) -> tuple[list[Person], int]:
    """People of the register matching ``query`` (folded: "hoeller" finds Höller; a member number
    exactly), names starting with it first, then in dictionary order; where the folded match finds
    fewer than a page, the people alike follow (a typo: "Mayer" finds Meyer). Each with ``events``
    (how many tournaments they played). Returns a page and the count of all matches. At most four
    queries (the count, the page, the index once per register version, the people alike)."""
    qs = _people(club)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    query = query.strip()
    base = qs
    order: list[Any] = ["folded", "name", "pk"]
    if query:
        qs = qs.filter(folded_match(query) | Q(member_number__iexact=query))
        order.insert(0, prefix_first(query))
    total = qs.count()
    found = list(_with_events(qs.order_by(*order))[offset : offset + limit])
    if query and total < limit and offset == 0:
        ids = person_index(club).similar(query, exclude=[p.pk for p in found], limit=(limit - total) * 3)
        if ids:
            rank = {pk: position for position, pk in enumerate(ids)}
            alike = sorted(_with_events(base.filter(pk__in=ids)), key=lambda person: rank[person.pk])
            alike = alike[: limit - total]
            found += alike
            total += len(alike)
    return found, total


def suggestions(tournament: Tournament, name: str) -> list[Person]:
    """The desk's suggestions for a typed name: the tournament's club's people like it (at most
    ``SUGGESTIONS``); none without a club or for fewer than two letters."""
    club = tournament.club
    if club is None or len(name.strip()) < 2:
        return []
    found, _total = search_people(club, name, limit=SUGGESTIONS)
    return found


def publicly_suggested(club: Club) -> QuerySet[Person]:
    """The people the public sign-up may suggest (the privacy rule of issue 33's sign-up): the club's
    unmerged people who played (checked in) in a finished event of the club, whose names and teams
    are on its public rankings anyway. Only name and team are ever shown to the public."""
    played = Player.objects.filter(
        person=OuterRef("pk"),
        tournament__club_id=club.pk,
        tournament__status=enums.TournamentStatus.FINISHED,
        status=enums.PlayerStatus.CHECKED_IN,
    )
    return _people(club).filter(Exists(played))


def public_suggestions(tournament: Tournament, name: str) -> list[dict[str, Any]]:
    """The sign-up's suggestions for a typed name: id, name and team (nothing else, ever) of at most
    ``PUBLIC_SUGGESTIONS`` people ``publicly_suggested`` by the tournament's club, the folded match
    first, then the people alike (a typo). None without a club, without online sign-up, once the
    tournament is under way, or for fewer than ``PUBLIC_MIN_LETTERS`` letters. At most three queries
    (the match, the index once per register version, the people alike), whatever the register's size."""
    club = tournament.club
    name = name.strip()
    taking = tournament.online_signup and tournament.status == enums.TournamentStatus.REGISTRATION
    if club is None or not taking or sum(c.isalnum() for c in name) < PUBLIC_MIN_LETTERS:
        return []
    shown = publicly_suggested(club)
    fields = ("pk", "name", "team")
    order = [prefix_first(name), "folded", "name", "pk"]
    found = list(shown.filter(folded_match(name)).order_by(*order).values(*fields)[:PUBLIC_SUGGESTIONS])
    if len(found) < PUBLIC_SUGGESTIONS:
        ids = person_index(club).similar(name, exclude=[row["pk"] for row in found], limit=PUBLIC_SUGGESTIONS * 4)
        if ids:
            rank = {pk: position for position, pk in enumerate(ids)}
            alike = sorted(shown.filter(pk__in=ids).values(*fields), key=lambda row: rank[row["pk"]])
            found += alike[: PUBLIC_SUGGESTIONS - len(found)]
    return found


def possible_duplicates(club: Club, limit: int = DUPLICATES_SHOWN) -> list[dict[str, Any]]:
    """The register's possible duplicates, for the organiser to merge or settle: two unmerged people
    of the same folded name and team (the later entry offered to merge into the earliest), and the
    people the sign-up marked ``maybe_same_as`` a suggestion they picked with another e-mail. Each a
    dict: ``duplicate`` and ``keep`` (people), ``marked`` (the sign-up's mark), ``twins`` (the same
    identity: only a merge or an edited name settles them). Two queries."""
    people = _people(club)
    marked = (
        people.filter(maybe_same_as__isnull=False, maybe_same_as__merged_into__isnull=True)
        .select_related("maybe_same_as")
        .order_by("-created_at", "-pk")[:limit]
    )
    pairs: list[dict[str, Any]] = [
        {"duplicate": person, "keep": person.maybe_same_as, "marked": True, "twins": _twins(person)}
        for person in marked
    ]
    seen = {(pair["duplicate"].pk, pair["keep"].pk) for pair in pairs}
    twins = people.values("identity").annotate(n=Count("pk")).filter(n__gt=1).values("identity")
    first: dict[str, Person] = {}
    for person in people.filter(identity__in=twins).order_by("identity", "pk")[: limit * 2]:
        keep = first.setdefault(person.identity, person)
        if keep is not person and (person.pk, keep.pk) not in seen:
            pairs.append({"duplicate": person, "keep": keep, "marked": False, "twins": True})
    return pairs[:limit]


def _twins(person: Person) -> bool:
    return person.maybe_same_as is not None and person.maybe_same_as.identity == person.identity


def organisers_of(club: Club) -> list[Any]:
    """The club's organisers by user name. One query."""
    return list(club.organisers.order_by("username", "pk"))


def chosen_person(tournament: Tournament, person_id: int | None) -> Person | None:
    """The register's person the desk picked from the suggestions (a person of the tournament's club)."""
    if person_id is None or tournament.club_id is None:
        return None
    return Person.objects.filter(pk=person_id, club_id=tournament.club_id, merged_into__isnull=True).first()


def person_of(club: Club, person_id: int) -> Person | None:
    """One person of the club's register (merged or not) with their ``events``; None for another club's."""
    return _with_events(Person.objects.filter(pk=person_id, club=club)).first()


def club_log(club: Club, limit: int = LOG_ENTRIES) -> list[AuditEntry]:
    """The club's own audit entries (a club made or renamed, a merge: no tournament), newest first. One query."""
    return list(
        AuditEntry.objects.filter(tournament__isnull=True, detail__club=club.pk)
        .select_related("actor")
        .order_by("-created_at", "-pk")[:limit]
    )


def copy_sources(tournament: Tournament) -> list[Tournament]:
    """The club's other tournaments, newest first, each with ``copyable`` (its players not withdrawn). One query."""
    if tournament.club_id is None:
        return []
    copyable = Count("players", filter=~Q(players__status=enums.PlayerStatus.WITHDRAWN))
    return list(
        Tournament.objects.filter(club_id=tournament.club_id)
        .exclude(pk=tournament.pk)
        .annotate(copyable=copyable)
        .order_by("-date", "-pk")[:100]
    )


def register_rows(club: Club) -> Iterator[Person]:
    """Every person of the register (merged ones too, with whom they were merged into) for the CSV,
    in dictionary order, read in chunks: two queries per 2,000 people."""
    qs = _with_events(Person.objects.filter(club=club)).select_related("merged_into").order_by("folded", "pk")
    return qs.iterator(chunk_size=2000)
