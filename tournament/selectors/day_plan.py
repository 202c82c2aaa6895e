"""The expected plan of the day as the pages show it (the public plan, the projector, the printout,
the organiser's rounds page), read with a fixed number of queries.

The plan itself is pure (``tournament.day_plan``, from the format's planners through
``Format.expected_plan``). Here: the counts it is made for, the start, the measured games and the
real start of the round under way.

Decisions:

- Before play the plan is for the players registered or checked in ("with 23 players"), and a
  second one for the count if everyone on the waiting list came. Once round 1 is seated, for the
  players seated in it (no waiting list any more).
- The start is the tournament's date at its ``start_time``; without one the plan gives durations
  only and says the start is not set.
- During the day the round under way is found by its stage and number among the plan's slots (the
  main rounds, the lucky-loser round, the finals; a life-bands consolation wave is never the
  anchor, it plays beside a main round); its real start replaces the expected one and every later
  slot follows from it at the measured pace (``day_plan.measured_pace``). Where the organiser
  chose otherwise than the plan's first option the rounds may differ; the times still follow the
  round under way.
- Times are shown to five minutes ("about 17:40"): the pages say they are expected.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Max, Q
from django.db.models.functions import TruncMinute
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.models import Game, GameStatus
from tournament import day_plan, enums, naming
from tournament.formats import registry
from tournament.formats.base import FormatError
from tournament.models import Player, Round, Table, Tournament

# The tables named on the rounds page as holding the round up.
HOLDING_TABLES = 3
# Stages whose rounds anchor the plan during the day (see the module's decisions).
ANCHOR_STAGES = frozenset({enums.Stage.MAIN, enums.Stage.LUCKY_LOSER, enums.Stage.FINAL, enums.Stage.GRAND_FINAL})


@dataclass(frozen=True)
class RoundLine:
    """A round of a plan's row: its name, its tables in words, whether the organiser chooses there."""

    name: str
    tables: str
    chosen: bool


@dataclass(frozen=True)
class PlanRow:
    """A row of the shown plan: the rounds played at once, about when they start, how long."""

    rounds: tuple[RoundLine, ...]
    start: dt.datetime | None
    minutes: int
    started: bool

    @property
    def name(self) -> str:
        return " · ".join(line.name for line in self.rounds)


@dataclass(frozen=True)
class ShownPlan:
    """A plan for ``players``: its rows, the last slot (the final, the grand final or the last
    round) and about when the day ends."""

    players: int
    rows: tuple[PlanRow, ...]
    end: dt.datetime | None
    minutes: int

    @property
    def last(self) -> PlanRow | None:
        return self.rows[-1] if self.rows else None


@dataclass(frozen=True)
class DayPlan:
    """What the plan pages show."""

    tournament: Tournament
    started: bool
    finished: bool
    registered: int
    waiting: int
    plan: ShownPlan
    with_waiting: ShownPlan | None
    start: dt.datetime | None
    measured_games: int
    median_minutes: float | None
    pace: float | None
    game_minutes: tuple[tuple[int, float], ...] = field(default=())

    @property
    def final_name(self) -> str:
        return self.plan.last.rounds[0].name if self.plan.last else ""


def sizes_words(sizes: tuple[int, ...]) -> str:
    """ "7 tables: 2 of 4, 5 of 3" (one table: "1 table of 3")."""
    counts = Counter(sizes)
    if len(sizes) == 1:
        return ngettext("1 table of %(size)d", "1 table of %(size)d", sizes[0]) % {"size": sizes[0]}
    parts = ", ".join(
        _("%(count)d of %(size)d") % {"count": count, "size": size}
        for size, count in sorted(counts.items(), reverse=True)
    )
    return ngettext("%(tables)d table: %(parts)s", "%(tables)d tables: %(parts)s", len(sizes)) % {
        "tables": len(sizes),
        "parts": parts,
    }


def timing_of(tournament: Tournament) -> day_plan.Timing:
    fmt = registry.of(tournament)
    return day_plan.Timing(
        preferred=tournament.table_size,
        largest=tournament.table_size_max,
        minutes_preferred=tournament.game_minutes_preferred,
        minutes_largest=tournament.game_minutes_largest,
        break_minutes=tournament.minutes_between_rounds,
        sharp_play_minutes=fmt.expected_sharp_play(tournament),
    )


def start_of(tournament: Tournament) -> dt.datetime | None:
    """The tournament's date at its start time, in the site's time zone; None without a start time."""
    if tournament.start_time is None:
        return None
    return timezone.make_aware(dt.datetime.combine(tournament.date, tournament.start_time))


def _shown(
    tournament: Tournament,
    plan: day_plan.ExpectedPlan,
    timing: day_plan.Timing,
    start: dt.datetime | None,
    anchor: tuple[int, dt.datetime] | None = None,
    now: dt.datetime | None = None,
) -> ShownPlan:
    timed = day_plan.schedule(plan, timing, start, anchor=anchor, now=now)
    rows = []
    for slot in timed:
        lines = tuple(
            RoundLine(naming.round_name(r.stage, r.number, tournament.pk), sizes_words(r.sizes), r.chosen)
            for r in slot.slot.rounds
        )
        shown_start = slot.start if slot.started or slot.start is None else day_plan.rounded(slot.start)
        rows.append(PlanRow(lines, shown_start, max(1, round(slot.minutes)), slot.started))
    end = timed[-1].end if timed else None
    total = round(timed[-1].offset + timed[-1].minutes) if timed else 0
    return ShownPlan(plan.players, tuple(rows), day_plan.rounded(end) if end else None, total)


def _anchor(plan: day_plan.ExpectedPlan, rounds: list[dict[str, object]]) -> tuple[int, dt.datetime] | None:
    """The plan's slot of the latest started round of an anchoring stage, and its real start."""
    leads = {(slot.lead.stage, slot.lead.number): index for index, slot in enumerate(plan.slots)}
    found: tuple[int, dt.datetime] | None = None
    for rnd in rounds:
        started = rnd["started_at"]
        if rnd["stage"] not in ANCHOR_STAGES or not isinstance(started, dt.datetime):
            continue
        index = leads.get((str(rnd["stage"]), int(str(rnd["stage_number"]))))
        if index is not None and (found is None or index >= found[0]):
            found = (index, started)
    return found


def _expected(tournament: Tournament, players: int) -> day_plan.ExpectedPlan:
    """The format's expected plan for ``players``; none where its planner cannot seat them with
    these settings (the page then says there is no plan yet)."""
    try:
        found = registry.of(tournament).expected_plan(tournament, players)
    except FormatError:
        found = None
    return found or day_plan.ExpectedPlan(players, ())


@dataclass(frozen=True)
class _Seated:
    """What the tables of a tournament tell the plan: each table's row (its size, its start, its
    round's number, stage and start) by id, and the rounds they seat in order of number."""

    tables: dict[int, dict[str, Any]]
    rounds: list[dict[str, object]]


def _player_counts(tournament: Tournament) -> dict[str, int]:
    """The players registered or checked in, and those on the waiting list (one query)."""
    return Player.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk", filter=Q(status__in=[enums.PlayerStatus.REGISTERED, enums.PlayerStatus.CHECKED_IN])),
        waiting=Count("pk", filter=Q(status=enums.PlayerStatus.WAITING)),
    )


def _seated(tournament: Tournament) -> _Seated:
    """The tables with their sizes and their rounds, read together (a round is seated with its
    tables): one query."""
    tables = {
        row["id"]: row
        for row in Table.objects.filter(round_id__in=Round.objects.filter(tournament=tournament).values("id"))
        .annotate(size=Count("seats"))
        .values(
            "id",
            "size",
            "started_at",
            "round_id",
            "round__number",
            "round__stage",
            "round__stage_number",
            "round__started_at",
        )
        .order_by()
    }
    rounds = sorted(
        {
            row["round_id"]: {
                "number": row["round__number"],
                "stage": row["round__stage"],
                "stage_number": row["round__stage_number"],
                "started_at": row["round__started_at"],
            }
            for row in tables.values()
        }.values(),
        key=lambda rnd: rnd["number"],
    )
    return _Seated(tables, rounds)


def _players_in_play(seated: _Seated, registered: int) -> int:
    """The players seated in the first round (the plan's count once play started); ``registered``
    where its tables seat nobody."""
    first = min(row["round__number"] for row in seated.tables.values())
    return sum(row["size"] for row in seated.tables.values() if row["round__number"] == first) or registered


def _game_lengths(seated: _Seated) -> list[tuple[int, float]]:
    """The measured games of the seated tables (``day_plan.game_lengths``): one query."""
    games = (
        Game.objects.filter(table_id__in=list(seated.tables), status=GameStatus.VALID, supersedes__isnull=True)
        .values_list("table_id", "entered_at")
        .order_by()
    )
    return day_plan.game_lengths(
        day_plan.MeasuredGame(table_id, seated.tables[table_id]["size"], seated.tables[table_id]["started_at"], entered)
        for table_id, entered in games
    )


@dataclass(frozen=True)
class _Measured:
    """What the plan is made from once read: whether play started, for how many players, the
    measured games, the pace they give and the timing (as set, and at that pace)."""

    started: bool
    players: int
    lengths: list[tuple[int, float]]
    pace: float | None
    timing: day_plan.Timing
    paced: day_plan.Timing
    rounds: list[dict[str, object]]


def read(tournament: Tournament, now: dt.datetime | None = None, *, any_round: bool = True) -> DayPlan:
    """The plan of ``tournament`` as of ``now``: three queries (the counts, the tables with their
    sizes and rounds, the games' times), whatever the field. ``any_round=False``: the caller has
    read that no round is seated yet (the projector's screen), so the tables are not asked for
    (one query: the plan before play)."""
    timing = timing_of(tournament)
    counts = _player_counts(tournament)
    seated = _seated(tournament) if any_round else _Seated({}, [])
    started = bool(seated.rounds) and tournament.play_started
    players = counts["registered"]
    lengths: list[tuple[int, float]] = []
    if seated.tables:
        if started:
            players = _players_in_play(seated, players)
        lengths = _game_lengths(seated)
    pace = day_plan.measured_pace(lengths, timing)
    paced = day_plan.with_pace(timing, pace)
    return _day_plan(tournament, counts, _Measured(started, players, lengths, pace, timing, paced, seated.rounds), now)


def _day_plan(tournament: Tournament, counts: dict[str, int], measured: _Measured, now: dt.datetime | None) -> DayPlan:
    """The plan for the players counted (anchored on the round under way once play started) and
    before play with the waiting list too, as the pages show it."""
    start = start_of(tournament)
    plan = _expected(tournament, measured.players)
    anchor = _anchor(plan, measured.rounds) if measured.started else None
    shown = _shown(tournament, plan, measured.paced, start, anchor, (now or timezone.now()) if anchor else None)
    with_waiting = None
    if not measured.started and counts["waiting"]:
        more = _expected(tournament, measured.players + counts["waiting"])
        with_waiting = _shown(tournament, more, measured.paced, start)
    median = day_plan.median([minutes for _size, minutes in measured.lengths])
    sizes = sorted({measured.timing.preferred, measured.timing.largest})
    return DayPlan(
        tournament=tournament,
        started=measured.started,
        finished=tournament.status == enums.TournamentStatus.FINISHED,
        registered=counts["registered"],
        waiting=counts["waiting"],
        plan=shown,
        with_waiting=with_waiting,
        start=start,
        measured_games=len(measured.lengths),
        median_minutes=round(median, 1) if median is not None else None,
        pace=measured.pace,
        game_minutes=tuple((size, round(measured.paced.game_minutes(size), 1)) for size in sizes),
    )


# The shared cache's keys of the screen's plan (``for_screen``).
SCREEN_KEY_PREFIX = "dayplan1:"
# As long as the rendered public pages (``tournament.renderings.KEEP_SECONDS``).
SCREEN_KEEP_SECONDS = 60 * 60


def for_screen(tournament: Tournament, *, any_round: bool) -> DayPlan:
    """The plan the projector's screen shows, kept in the shared cache per tournament version and
    language (its round names are translated). The screen itself is rendered once per version
    (``renderings``) and its plan is as of that rendering; every rotation (``?cycle=``) and process
    rendering that version in one language shows the same plan, so it is read and planned once per
    version, not once per rendering (three queries and the planning: a third of a 300-player
    screen's rendering). ``any_round``: as for ``read``."""
    key = f"{SCREEN_KEY_PREFIX}{tournament.pk}:{tournament.public_key}:{tournament.version}:{get_language()}"
    kept = cache.get(key)
    if isinstance(kept, DayPlan):
        return kept
    found = read(tournament, any_round=any_round)
    cache.set(key, found, SCREEN_KEEP_SECONDS)
    return found


@dataclass(frozen=True)
class HoldingTable:
    """A table still playing in a running round: its name, games so far, since when, its last game."""

    name: str
    games: int
    started_at: dt.datetime | None
    last_game_at: dt.datetime | None


def holding_tables(tournament: Tournament) -> tuple[HoldingTable, ...]:
    """The ``HOLDING_TABLES`` tables of the running rounds that hold them up: playing longest (the
    earliest started, to the minute), then the longest without a result (no game yet first, then the oldest last
    game). One query (the rounds page counts the playing tables itself)."""
    running = Round.objects.filter(tournament=tournament, status=enums.RoundStatus.RUNNING).values("id")
    valid = Q(games__status=GameStatus.VALID)
    playing = (
        Table.objects.filter(round_id__in=running, status=enums.TableStatus.PLAYING)
        .annotate(valid_games=Count("games", filter=valid), last_game_at=Max("games__entered_at", filter=valid))
        .select_related("round")
        # Tables seated together start within the same minute: by the minute, then their last result.
        .order_by(TruncMinute("started_at"), F("last_game_at").asc(nulls_first=True), "number")[:HOLDING_TABLES]
    )
    return tuple(
        HoldingTable(naming.of_table(table), table.valid_games, table.started_at, table.last_game_at)
        for table in playing
    )
