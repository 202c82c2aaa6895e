"""Reads of the audit trail: every write and every refused attempt, in words, filtered.

``choices`` loads what the filters offer (the tournament's tables by round, its
players, the people who are staff or appear in the log); ``read_filters`` checks
submitted filter values against them (a value that is not the tournament's is
an error, never a 500); ``audit_page`` and ``audit_rows`` return the matching
entries newest first as ``AuditRow`` (who, when, where, what in a translated
sentence, why refused). Every read costs the same number of queries whatever the
size of the field: the page and the CSV export look up tables and players in the
choices already loaded.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db.models import FilteredRelation, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import enums, naming
from tournament.formats import registry
from tournament.models import AuditEntry, Player, Seat, Table, Tournament, checklist_label
from tournament.writes import PLAYER_KEYS, REFUSED, TABLE_KEYS, named_id

AUDIT_PAGE_SIZE = 100
LAST_PAGE = 100_000  # a page number beyond it is read as this one (an empty page, not a database error)
SYSTEM = "system"  # the person filter's value for entries nobody made (automatic steps, scripts)
KINDS = ("all", "writes", "refused")


# --------------------------------------------------------------------------
# What the filters offer
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TableChoice:
    """A table of the tournament as the filters and rows name it: ``round_number`` orders the
    rounds (the tournament-wide number, for the CSV), ``round_label`` and ``name`` are the
    round's and the table's one names ("Main round 2", "Main round 2 · Table 3":
    ``tournament.naming``), in the reader's language."""

    pk: int
    number: int
    round_number: int
    round_label: str
    name: str = ""
    label: str = ""  # the table within its round: "Table 3", "Duel for place 2"
    stage_label: str = ""  # the round's stage: "Main round", "Consolation round"


@dataclass(frozen=True)
class Person:
    """Someone who may appear in the log: the tournament's staff and anyone who wrote in it."""

    pk: int
    username: str
    roles: tuple[str, ...]  # translated role names in this tournament, () for none

    @property
    def label(self) -> str:
        return f"{self.username} ({', '.join(self.roles)})" if self.roles else self.username


@dataclass(frozen=True)
class Choices:
    """Everything the filters offer, also used to name tables and players in the rows (three queries)."""

    tables: dict[int, TableChoice]
    players: dict[int, Player]
    people: dict[int, Person]
    # The rounds that have tables, by their tournament-wide number: their one names (the log's
    # entries name a round by that number).
    rounds: dict[int, str] = field(default_factory=dict)

    def tables_by_round(self) -> list[tuple[str, list[TableChoice]]]:
        """The tables grouped by round, in order (the table select's groups)."""
        groups: dict[int, tuple[str, list[TableChoice]]] = {}
        for table in sorted(self.tables.values(), key=lambda t: (t.round_number, t.number)):
            groups.setdefault(table.round_number, (table.round_label, []))[1].append(table)
        return list(groups.values())

    def players_in_order(self) -> list[Player]:
        """The players by start number (those without one last, by name)."""
        return sorted(self.players.values(), key=lambda p: (p.start_number is None, p.start_number or 0, p.name, p.pk))


def choices(tournament: Tournament) -> Choices:
    """The tournament's tables, players and people (three queries, whatever the field's size)."""
    tables = {}
    rounds: dict[int, str] = {}
    stages: dict[str, str] = {}
    for row in (
        Table.objects.filter(round__tournament=tournament)
        .values("pk", "number", "is_duel", "duel_for_place", "round__number", "round__stage", "round__stage_number")
        .order_by("round__number", "number")
    ):
        if row["round__number"] not in rounds:  # translated once per round
            rounds[row["round__number"]] = naming.round_name(
                row["round__stage"], row["round__stage_number"], tournament.pk
            )
        round_label = rounds[row["round__number"]]
        label = naming.table_label(row["number"], is_duel=row["is_duel"], duel_for_place=row["duel_for_place"])
        tables[row["pk"]] = TableChoice(
            pk=row["pk"],
            number=row["number"],
            round_number=row["round__number"],
            round_label=round_label,
            name=naming.table_name(
                round_label, row["number"], is_duel=row["is_duel"], duel_for_place=row["duel_for_place"]
            ),
            label=label,
            stage_label=stages.setdefault(row["round__stage"], naming.stage_name(row["round__stage"], tournament.pk)),
        )
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament).only("pk", "name", "start_number")}
    # The staff (with their roles here) and whoever wrote in the log, in one query: a row per role.
    role_names = dict(enums.Role.choices)
    in_log = AuditEntry.objects.filter(tournament=tournament, actor__isnull=False).values("actor_id")
    users = (
        get_user_model()
        .objects.annotate(
            role_here=FilteredRelation("tournament_roles", condition=Q(tournament_roles__tournament=tournament))
        )
        .filter(Q(role_here__isnull=False) | Q(pk__in=in_log))
        .values_list("pk", "username", "role_here__role")
        .order_by("username", "pk", "role_here__role")
    )
    names: dict[int, str] = {}
    roles: dict[int, list[str]] = {}
    for pk, username, role in users:
        names[pk] = username
        roles.setdefault(pk, [])
        if role:
            roles[pk].append(str(role_names.get(role, role)))
    people = {pk: Person(pk=pk, username=names[pk], roles=tuple(roles[pk])) for pk in names}
    return Choices(tables=tables, players=players, people=people, rounds=rounds)


# --------------------------------------------------------------------------
# The filters
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditFilter:
    """Which entries to show; the filters combine. ``player``: the entries that name the player
    and those at the tables the player sat at. ``person``: a user's pk, or ``SYSTEM``."""

    table: int | None = None
    player: int | None = None
    person: int | str | None = None
    kind: str = "all"

    def query(self) -> dict[str, str]:
        """The filter as GET parameters (empty ones left out), for links that keep it."""
        values = {"table": self.table, "player": self.player, "person": self.person}
        params = {name: str(value) for name, value in values.items() if value is not None}
        if self.kind != "all":
            params["kind"] = self.kind
        return params


@dataclass(frozen=True)
class FilterRead:
    """Submitted filter values: the filter, the raw values (to show them again) and any errors."""

    filters: AuditFilter
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)


def read_filters(params: Mapping[str, Any], offered: Choices) -> FilterRead:
    """Check GET parameters (``table``, ``player``, ``person``, ``kind``; the old ``refused=1``
    means ``kind=refused``) against what the tournament offers. Never raises: a value that is
    not a number, not the tournament's or unknown gives a translated error instead."""
    values = {name: str(params.get(name, "") or "").strip()[:40] for name in ("table", "player", "person", "kind")}
    if not values["kind"] and params.get("refused") == "1":
        values["kind"] = "refused"
    errors: list[str] = []

    def pick(name: str, known: Iterable[int], message: str) -> int | None:
        raw = values[name]
        if not raw:
            return None
        if raw.isdecimal() and int(raw) in known:  # isdecimal: int() refuses "²", which isdigit takes
            return int(raw)
        errors.append(message)
        return None

    table = pick("table", offered.tables, _("There is no such table in this tournament."))
    player = pick("player", offered.players, _("There is no such player in this tournament."))
    person: int | str | None = SYSTEM if values["person"] == SYSTEM else None
    if person is None:
        person = pick("person", offered.people, _("Nobody by that name works in or appears in this log."))
    kind = values["kind"] or "all"
    if kind not in KINDS:
        errors.append(_("Choose what to show: everything, the writes or the refused entries."))
        kind = "all"
    return FilterRead(AuditFilter(table=table, player=player, person=person, kind=kind), values, errors)


def entries(tournament: Tournament, filters: AuditFilter) -> QuerySet[AuditEntry]:
    """The tournament's audit entries matching ``filters``, newest first (not yet evaluated)."""
    qs = AuditEntry.objects.filter(tournament=tournament)
    if filters.table is not None:
        qs = qs.filter(table_id=filters.table)
    if filters.player is not None:
        seats = Seat.objects.filter(player_id=filters.player).values("table_id")
        qs = qs.filter(Q(player_id=filters.player) | Q(table_id__in=seats))
    if filters.person == SYSTEM:
        qs = qs.filter(actor__isnull=True)
    elif filters.person is not None:
        qs = qs.filter(actor_id=filters.person)
    if filters.kind == "refused":
        qs = qs.filter(action=REFUSED)
    elif filters.kind == "writes":
        qs = qs.exclude(action=REFUSED)
    return qs.select_related("actor").order_by("-created_at", "-pk")


def refused_count(tournament: Tournament) -> int:
    """How many entries the tournament's services refused (one query)."""
    return AuditEntry.objects.filter(tournament=tournament, action=REFUSED).count()


# --------------------------------------------------------------------------
# The rows
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class AuditRow:
    """One audit entry as the page and the CSV show it."""

    entry: AuditEntry
    description: str  # what happened, a translated sentence
    table: TableChoice | None  # the table it concerns (None: none, or not the tournament's)
    player: Player | None  # the player it names
    reason: str  # why it was refused, or the reason a correction gave ("" for none)
    by_player: Player | None = None  # the player who did it with their pass (``actor_player``)

    @property
    def refused(self) -> bool:
        return bool(self.entry.action == REFUSED)

    @property
    def person(self) -> str:
        """The username of who did it, "Name (player pass)" for a player with their pass, "" for the system."""
        if self.entry.actor is not None:
            return str(self.entry.actor.get_username())
        if self.entry.actor_player_id is not None:
            return _("%(name)s (player pass)") % {"name": player_name(self.by_player, fallback="?")}
        return ""


@dataclass(frozen=True)
class AuditPage:
    """One page of the audit trail, newest first."""

    rows: list[AuditRow]
    page: int
    has_next: bool
    refused_total: int


def audit_page(tournament: Tournament, filters: AuditFilter, offered: Choices, *, page: int = 1) -> AuditPage:
    """The entries matching ``filters``, ``AUDIT_PAGE_SIZE`` a page (two queries)."""
    page = min(max(page, 1), LAST_PAGE)
    start = (page - 1) * AUDIT_PAGE_SIZE
    found = list(entries(tournament, filters)[start : start + AUDIT_PAGE_SIZE + 1])
    rows = [row(entry, offered) for entry in found[:AUDIT_PAGE_SIZE]]
    return AuditPage(
        rows=rows, page=page, has_next=len(found) > AUDIT_PAGE_SIZE, refused_total=refused_count(tournament)
    )


def audit_rows(tournament: Tournament, filters: AuditFilter, offered: Choices) -> list[AuditRow]:
    """Every entry matching ``filters``, newest first (one query)."""
    return [row(entry, offered) for entry in entries(tournament, filters)]


def row(entry: AuditEntry, offered: Choices) -> AuditRow:
    """Describe one entry; its table and player are looked up in ``offered`` (no query)."""
    detail = entry.detail if isinstance(entry.detail, dict) else {}
    table_id = entry.table_id if entry.table_id is not None else named_id(detail, TABLE_KEYS)
    player_id = entry.player_id if entry.player_id is not None else named_id(detail, PLAYER_KEYS)
    table = offered.tables.get(table_id) if table_id is not None else None
    player = offered.players.get(player_id) if player_id is not None else None
    reason = str(detail.get("reason") or "")
    by_player = offered.players.get(entry.actor_player_id) if entry.actor_player_id is not None else None
    return AuditRow(entry, describe(entry.action, detail, table, player, offered), table, player, reason, by_player)


# --------------------------------------------------------------------------
# What happened, in words
# --------------------------------------------------------------------------


def player_name(player: Player | None, fallback: object = "") -> str:
    """ "Anna Berger (12)" with the start number, the name alone without one."""
    if player is None:
        return str(fallback or "?")
    return f"{player.name} ({player.start_number})" if player.start_number else player.name


# What a refused entry tried; ``%(name)s`` is the player it named.
ATTEMPTS = {
    "record_game": gettext_lazy("Game won by %(name)s"),
    "record_loss": gettext_lazy("Game: %(name)s hands in a chip"),
    "set_first_dealer": gettext_lazy("First dealer: %(name)s"),
    "undo_game": gettext_lazy("Undo the last game"),
    "close_table": gettext_lazy("Close the table"),
    "call_time": gettext_lazy("Time is up"),
    "correct_game": gettext_lazy("Correct a game"),
    "void_game": gettext_lazy("Void a game"),
    "change_first_dealer": gettext_lazy("Change the first dealer to %(name)s"),
    "reopen_table": gettext_lazy("Reopen the table"),
    # Players record their own table (issue 32, item 4).
    "player_entry": gettext_lazy("A game entered on a player's pass"),
    "confirm_entry": gettext_lazy("Confirm a player's entry"),
    "reject_entry": gettext_lazy("Not right: a player's entry"),
    "call_referee": gettext_lazy("Call a referee"),
    "clear_referee_call": gettext_lazy("The call for a referee answered"),
}
# The same attempt when it named nobody (a form that could not be read).
ATTEMPTS_UNNAMED = {
    "record_game": gettext_lazy("A game result"),
    "record_loss": gettext_lazy("A lost chip"),
    "set_first_dealer": gettext_lazy("The first dealer"),
    "change_first_dealer": gettext_lazy("Change the first dealer"),
}

# Each action's sentence. Placeholders: where (the table it concerns by its one name, "Main round 2 ·
# Table 3"), round (a round's one name), player (the player it names, with start number), game, and
# the action's own details (see ``_values``).
SENTENCES = {
    "game_recorded": gettext_lazy("%(where)s: %(player)s won game %(game)s."),
    "chip_lost": gettext_lazy("%(where)s: %(player)s handed in a chip in game %(game)s."),
    "game_undone": gettext_lazy("%(where)s: game %(game)s undone."),
    "chip_loss_undone": gettext_lazy("%(where)s: game %(game)s undone."),
    "first_dealer_set": gettext_lazy("%(where)s: %(player)s deals first."),
    "table_closed": gettext_lazy("%(where)s: table closed."),
    "table_reopened": gettext_lazy("%(where)s: table reopened."),
    "table_renumbered": gettext_lazy(
        "%(where)s: back in play with a new number; its number %(was)s was taken by a table playing meanwhile."
    ),
    "game_corrected": gettext_lazy("%(where)s: game %(game)s corrected, %(now)s instead of %(was)s."),
    "game_voided": gettext_lazy("%(where)s: game %(game)s voided (it was %(was)s)."),
    "first_dealer_changed": gettext_lazy("%(where)s: first dealer changed to %(player)s."),
    "time_called": gettext_lazy("%(where)s: time called."),
    "round_started": gettext_lazy("%(round)s seated."),
    "points_round_started": gettext_lazy("%(round)s seated; repeated pairs: %(pairs)s."),
    "points_playoff_seated": gettext_lazy("%(round)s seated: %(players)s play off their tie."),
    "main_round_started": gettext_lazy("%(round)s seated."),
    "consolation_qualified_directly": gettext_lazy("Qualified for the consolation round directly: %(players)s."),
    "consolation_tables_formed": gettext_lazy("Consolation tables seated: %(tables)s."),
    "grand_final_started": gettext_lazy("Grand final seated: %(players)s."),
    "tournament_finished": gettext_lazy("Tournament finished."),
    "tournament_created": gettext_lazy("Tournament “%(name)s” created."),
    # The club's register (issue 33): the tournament's club and its copied players; the club's own
    # entries (no tournament) are listed on the register page.
    "club_changed": gettext_lazy("The tournament now belongs to the club “%(name)s”."),
    "players_copied": gettext_lazy("%(count)s players copied from “%(source_name)s”."),
    "club_created": gettext_lazy("Club “%(name)s” created."),
    "club_renamed": gettext_lazy("Club renamed from “%(old)s” to “%(name)s”."),
    "person_merged": gettext_lazy("%(merged_name)s merged into %(kept_name)s in the club's register."),
    "person_edited": gettext_lazy("%(name)s edited in the club's register."),
    "duplicate_dismissed": gettext_lazy("%(name)s kept apart from %(other)s in the club's register."),
    "organiser_added": gettext_lazy("%(user)s added as an organiser of the club."),
    "organiser_removed": gettext_lazy("%(user)s is no longer an organiser of the club."),
    # The club's season (issue 33): a series made or its settings and tournaments saved (no tournament).
    "series_created": gettext_lazy("Series “%(name)s” created."),
    "series_changed": gettext_lazy("Series “%(name)s”: settings and tournaments saved."),
    "tournament_updated": gettext_lazy("Settings changed: %(fields)s."),
    "final_target_changed": gettext_lazy("The seated final's target changed: %(now)s instead of %(was)s."),
    "pass_issued": gettext_lazy("New pass for %(player)s; the old link no longer opens it."),
    "sat_down": gettext_lazy("%(where)s: %(player)s is at the table."),
    # Players record their own table (issue 32, item 4).
    "entry_pending": gettext_lazy(
        "%(where)s: game %(game)s entered on a pass; it waits for a table-mate's confirmation."
    ),
    "entry_confirmed": gettext_lazy("%(where)s: game %(game)s confirmed; it counts."),
    "entry_rejected": gettext_lazy("%(where)s: game %(game)s not counted (%(reason)s)."),
    "referee_called": gettext_lazy("%(where)s: a referee was called."),
    "referee_call_cleared": gettext_lazy("%(where)s: the call for a referee was answered."),
    # Self check-in (issue 32, item 3).
    "checks_declared": gettext_lazy("%(player)s declared their checklist items at self check-in."),
    "arrived_needs_desk": gettext_lazy("%(player)s arrived and waits at the desk (self check-in)."),
    "public_key_renewed": gettext_lazy("New public link issued; the old link no longer opens the public pages."),
    "scoring_table_changed": gettext_lazy("Scoring table changed."),
    "checklist_item_added": gettext_lazy("Checklist item “%(label)s” added."),
    "checklist_item_removed": gettext_lazy("Checklist item “%(label)s” removed."),
    "registration_window_added": gettext_lazy("Registration window added, opening %(opens)s."),
    "staff_added": gettext_lazy("%(user)s added as %(role)s."),
    "staff_removed": gettext_lazy("%(user)s removed as %(role)s."),
    "start_numbers_drawn": gettext_lazy("Start numbers drawn for %(count)s players."),
    "player_registered": gettext_lazy("%(player)s registered."),
    "players_imported": gettext_lazy("%(count)s players imported, %(skipped)s lines skipped."),
    "player_moved_up": gettext_lazy("%(player)s moved up from the waiting list."),
    "check_ticked": gettext_lazy("“%(item)s” ticked for %(player)s."),
    "check_unticked": gettext_lazy("“%(item)s” unticked for %(player)s."),
    "checks_all_ticked": gettext_lazy("Every checklist item ticked for %(player)s."),
    "equipment_returned": gettext_lazy("%(player)s returned the equipment."),
    "equipment_return_undone": gettext_lazy("Equipment return of %(player)s undone."),
    "player_checked_in": gettext_lazy("%(player)s checked in."),
    "check_in_undone": gettext_lazy("Check-in of %(player)s undone."),
    "player_withdrawn": gettext_lazy("%(player)s withdrew."),
    "player_paused": gettext_lazy("%(player)s pauses from round %(number)s."),
    "player_back": gettext_lazy("%(player)s is back from round %(number)s."),
    "player_no_show": gettext_lazy("%(player)s marked as no-show."),
    "player_reinstated": gettext_lazy("%(player)s reinstated."),
    # Sign-up before the day (issue 32, item 2).
    "fee_paid": gettext_lazy("Entry fee of %(player)s paid."),
    "fee_paid_undone": gettext_lazy("Entry fee of %(player)s marked as not paid."),
    "provisional_place_lost": gettext_lazy(
        "%(player)s had not paid: a player who paid took the provisional place; to the top of the waiting list."
    ),
    "place_taken_by_payment": gettext_lazy("%(player)s paid and took a provisional place of a player who had not."),
    "tombola_prize_added": gettext_lazy("Tombola: prize %(position)s “%(name)s” added."),
    "tombola_prize_renamed": gettext_lazy("Tombola: prize %(position)s renamed to “%(now)s” (was “%(was)s”)."),
    "tombola_prize_moved": gettext_lazy("Tombola: “%(name)s” moved from place %(was)s to place %(now)s."),
    "tombola_prize_removed": gettext_lazy("Tombola: prize %(position)s “%(name)s” removed."),
    "tombola_drawn": gettext_lazy(
        "Tombola: %(player)s wins prize %(position)s “%(name)s” (drawn among %(count)s players, seed %(seed)s)."
    ),
    "tombola_drawn_again": gettext_lazy(
        "Tombola: prize %(position)s “%(name)s” drawn again, %(player)s wins (among %(count)s players, seed %(seed)s)."
    ),
    "tombola_winner_absent": gettext_lazy(
        "Tombola: %(player)s is not here for prize %(position)s “%(name)s” and is not drawn again."
    ),
    "tombola_shown": gettext_lazy("The projector shows the tombola."),
    "tombola_hidden": gettext_lazy("The projector shows the tournament again."),
    "fixed_seat_set": gettext_lazy("Fixed seat of %(player)s changed."),
}
# Sentences added after the action's own, when its detail says so.
WAITING = gettext_lazy("On the waiting list.")
SIGNED_UP_ONLINE = gettext_lazy("Signed up online.")
OVERRIDE = gettext_lazy("Checked in with open items: %(items)s.")
OVERRIDE_REASON = gettext_lazy("Reason: %(reason)s.")
START_NUMBER = gettext_lazy("Start number %(number)s.")
FINAL_TABLE = gettext_lazy("The final table.")
MOVED_UP = gettext_lazy("Moved up: %(players)s.")
LEFT_OUT = gettext_lazy("Left out: %(players)s.")
CARD_POINTS = gettext_lazy("Card points were entered.")
LISTED = gettext_lazy("Public pages: listed (the tournament's number opens them).")
UNLISTED = gettext_lazy("Public pages: unlisted (only the public link opens them).")
UNKNOWN = gettext_lazy("%(action)s.")
FIXED_AT = gettext_lazy("Table %(table)s in every round from the next one seated.")
FIXED_NEED = gettext_lazy("Need: %(need)s.")
FIXED_CLEARED = gettext_lazy("No fixed table any more.")


def describe(
    action: str, detail: Mapping[str, Any], table: TableChoice | None, player: Player | None, offered: Choices
) -> str:
    """What an audit entry says, as translated sentences (for every action the services write;
    an unknown action shows its code). Never raises on odd details."""
    try:
        return _describe(action, detail, table, player, offered)
    except (KeyError, TypeError, ValueError):
        return _("%(action)s.") % {"action": action.replace("_", " ").capitalize()}


def _describe(
    action: str, detail: Mapping[str, Any], table: TableChoice | None, player: Player | None, offered: Choices
) -> str:
    values = _values(action, detail, table, player, offered)
    if action == REFUSED:
        attempt = str(detail.get("attempt", ""))
        if player is None and detail.get("name") is None and attempt in ATTEMPTS_UNNAMED:
            tried = str(ATTEMPTS_UNNAMED[attempt])
        elif attempt in ATTEMPTS:
            tried = str(ATTEMPTS[attempt]) % {"name": values["player"]}
        else:
            tried = attempt.replace("_", " ").capitalize() or _("An entry")
        parts = [_("%(where)s: %(attempt)s.") % {**values, "attempt": tried}]
        if detail.get("card_points") or detail.get("hands"):
            parts.append(str(CARD_POINTS))
        return " ".join(parts)
    sentence = SENTENCES.get(action)
    if sentence is None:
        text = str(UNKNOWN) % {"action": action.replace("_", " ").capitalize()}
        named = [values["where"] if table else "", values["player"] if player else ""]
        return " ".join([text, *(part for part in named if part)])
    parts = [str(sentence) % values]
    for extra in _extras(action, detail, values):
        parts.append(extra)
    return " ".join(parts)


def _extras(action: str, detail: Mapping[str, Any], values: Mapping[str, Any]) -> Iterable[str]:
    if detail.get("waiting") and action in ("player_registered", "player_reinstated"):
        yield str(WAITING)
    if detail.get("online") and action == "player_registered":
        yield str(SIGNED_UP_ONLINE)
    if action == "player_checked_in":
        if detail.get("override") and detail.get("open_items"):
            yield str(OVERRIDE) % {"items": ", ".join(checklist_label(str(label)) for label in detail["open_items"])}
            if detail.get("reason"):
                yield str(OVERRIDE_REASON) % {"reason": str(detail["reason"]).rstrip(".")}
        if detail.get("start_number"):
            yield str(START_NUMBER) % {"number": detail["start_number"]}
    if action == "tournament_updated" and isinstance(detail.get("listed"), bool):
        yield str(LISTED if detail["listed"] else UNLISTED)
    if action in ("main_round_started", "consolation_tables_formed") and detail.get("final"):
        yield str(FINAL_TABLE)
    if action == "fixed_seat_set":
        if detail.get("fixed_table"):
            yield str(FIXED_AT) % {"table": detail["fixed_table"]}
            if detail.get("need") in enums.SeatNeed.values and detail["need"]:
                yield str(FIXED_NEED) % {"need": enums.SeatNeed(detail["need"]).label}
        else:
            yield str(FIXED_CLEARED)
    if action == "round_started":
        if detail.get("added"):
            yield str(MOVED_UP) % {"players": values["added"]}
        if detail.get("dropped"):
            yield str(LEFT_OUT) % {"players": values["dropped"]}


def _values(
    action: str, detail: Mapping[str, Any], table: TableChoice | None, player: Player | None, offered: Choices
) -> dict[str, Any]:
    def names(key: str) -> str:
        ids = detail.get(key)
        if not isinstance(ids, list):
            return ""
        return ", ".join(player_name(offered.players.get(pid), f"#{pid}") for pid in ids[:60])

    role_names: Mapping[str, Any] = dict(enums.Role.choices)
    return {
        "where": table.name if table else _where(detail, offered),
        "round": _round(action, detail, offered),
        "player": player_name(player, detail.get("name")),
        "game": detail.get("game", "?"),
        "number": detail.get("round", "?"),
        "pairs": detail.get("repeated_pairs", 0),
        "players": names("players"),
        "added": names("added"),
        "dropped": names("dropped"),
        "tables": ", ".join(map(str, detail.get("tables") or [])),
        "name": detail.get("name", ""),
        "fields": ", ".join(_field_name(name) for name in detail.get("fields") or []),
        "label": detail.get("label", ""),
        "opens": _when(detail.get("opens_at")),
        "user": detail.get("user", ""),
        "role": str(role_names.get(detail.get("role", ""), detail.get("role", ""))),
        "count": detail.get("count", detail.get("players", "?")),
        "skipped": len(detail["skipped_lines"])
        if isinstance(detail.get("skipped_lines"), list)
        else detail.get("skipped_lines", 0),
        "item": checklist_label(str(detail.get("item", ""))),
        "was": detail.get("was", ""),
        "now": detail.get("now") or _("no result"),
        "position": detail.get("position", "?"),
        "seed": detail.get("seed", "?"),
        "source_name": detail.get("source_name", ""),
        "old": detail.get("old", ""),
        "merged_name": detail.get("merged_name", ""),
        "kept_name": detail.get("kept_name", ""),
        "reason": detail.get("reason", ""),
    }


def _where(detail: Mapping[str, Any], offered: Choices) -> str:
    """The table an entry names when it is no longer the tournament's (a duel dropped): by the
    number and round its detail kept."""
    number = detail.get("table_number")
    round_label = offered.rounds.get(detail.get("round"))  # type: ignore[call-overload]
    if number is None or round_label is None:
        return _("Table %(number)s") % {"number": number if number is not None else "?"}
    return naming.table_name(round_label, int(number))


def _round(action: str, detail: Mapping[str, Any], offered: Choices) -> str:
    """The round a round's entry names, by its one name: ``main_round_started`` (life bands) keeps
    the number among the main rounds, the others the tournament-wide number."""
    number = detail.get("round")
    if not isinstance(number, int):
        return _("Round %(number)s") % {"number": number if number is not None else "?"}
    if action == "main_round_started":
        return naming.round_name(enums.Stage.MAIN, number)
    known = offered.rounds.get(number)
    if known is not None:
        return known
    if action == "points_round_started":  # the points format plays one stage: "Round 2"
        return _("Round %(number)s") % {"number": number}
    return _("Round %(number)s") % {"number": number}


def _field_name(name: object) -> str:
    declared = registry.declared_settings().get(str(name))
    if declared is not None:  # a format's own setting: its form names it
        return str(declared[1].label)
    try:
        return str(getattr(Tournament._meta.get_field(str(name)), "verbose_name", name))
    except FieldDoesNotExist:
        return str(name)


def _when(value: object) -> str:
    """An ISO time from the detail in the event's local time, as the locale writes it."""
    try:
        moment = datetime.datetime.fromisoformat(str(value))
    except ValueError:
        return str(value or "?")
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "SHORT_DATETIME_FORMAT")
