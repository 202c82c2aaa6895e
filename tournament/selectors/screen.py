"""What one projector screen shows: its lists in windows, read window by window.

The projector rotates through its views (tables, "Where do I sit?", the waiting pool,
standings, bracket). A big field does not fit on one rotation: 1,111 tables are some
ninety screen pages of tables before the first name would be shown. So each list is
sent in windows of a fixed number of items (``TABLES_WINDOW``, ``ALPHA_WINDOW``,
``STANDINGS_WINDOW``), and each rotation (a *cycle*, counted by the projector) shows the
next window of every list: tables 1-96, names A-D, standings 1-224, the bracket; then
tables 97-192, the next names, ... A field that fits (up to some 400 players) has one
window per list and every rotation shows everything, as before.

The read follows the window, not the field: the rounds, the live tables' counts, the
window's tables with their seats, the bracket's first tables per round (window function),
and for "Where do I sit?" one narrow row per live seat (name, table), sorted here in the
order of ``public.Snapshot.seating_alphabetical``. Standings come from the ranking
rows kept per version (``selectors.ranking.rows``).

``window_of(total, size, cycle)`` and the windows a screen needs are pure; ``read``
issues a fixed number of queries, whatever the field size and the cycle.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from django.db import models
from django.db.models import Count, F, Q
from django.db.models.functions import RowNumber

from tournament import enums, folding
from tournament.formats import registry
from tournament.formats.record import Format, PublicExtras, Standing
from tournament.models import Round, Seat, Table, Tournament
from tournament.selectors import public
from tournament.selectors import ranking as ranking_reads

TABLES_WINDOW = 8 * public.TABLES_PAGE  # 96 tables
ALPHA_WINDOW = 8 * public.ALPHA_PAGE  # 480 names
STANDINGS_WINDOW = 8 * public.STANDINGS_PAGE  # 224 rows
BRACKET_ROUNDS = 4  # the latest rounds side by side (formats without rounds played at once)


@dataclass(frozen=True)
class Window:
    """The part of a list a screen shows: ``offset`` items skipped of ``total``, at most ``size`` shown."""

    offset: int
    size: int
    total: int

    @property
    def count(self) -> int:
        """How many windows the whole list takes (at least one)."""
        return max(1, -(-self.total // self.size))

    @property
    def windowed(self) -> bool:
        return self.total > self.size


def window_of(total: int, size: int, cycle: int) -> Window:
    """The window of a list of ``total`` items shown on rotation ``cycle``: the cycle's window,
    counted round (a list of 3 windows shows its first again on cycle 3)."""
    count = max(1, -(-total // size))
    return Window(offset=(cycle % count) * size, size=size, total=total)


@dataclass(frozen=True)
class BracketColumn:
    """A round of the bracket: its first tables (as many as the column can show) and how many it has."""

    round: public.PublicRound
    tables: tuple[public.PublicTable, ...]
    total: int

    @property
    def label(self) -> str:
        return self.round.label

    @property
    def note(self) -> str:
        return self.round.note


@dataclass
class Screen:
    """One projector screen: the tournament, its rounds (without tables), and each list's window."""

    tournament: Tournament
    format: Format
    rounds: list[public.PublicRound]
    cycle: int
    tables: list[public.PublicTable]
    tables_window: Window
    alphabetical: list[tuple[str, bool, int]]  # (name, is_duel, table number)
    alpha_window: Window
    standings: list[Standing]
    standings_window: Window
    bracket: list[BracketColumn]
    ranking_top: list[Standing] = field(default_factory=list)
    pool: list[tuple[int | None, str]] = field(default_factory=list)

    @property
    def current(self) -> public.PublicRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def finished(self) -> bool:
        return self.tournament.status == enums.TournamentStatus.FINISHED

    @property
    def windows(self) -> int:
        """How many rotations show every list once: the most windows any list takes."""
        return max(self.tables_window.count, self.alpha_window.count, self.standings_window.count)


def bracket_cap(columns: int) -> int:
    """How many tables a bracket column lists (``_pj_bracket.html``: `cap`)."""
    return 72 if columns == 1 else 36 if columns == 2 else 18


@functools.lru_cache(maxsize=16384)
def _sort_key(name: str) -> tuple[str, str]:
    # Dictionary order of the page's languages (public.Snapshot.seating_alphabetical).
    return (folding.plain(name), name)


# A tournament for up to this many players (``Tournament.capacity``) is read whole: every seat
# at once (one query, as ``public.snapshot``), its windows cut here, cheaper than the narrower
# queries of a big one. Decided by the capacity, so that the read costs no query to choose.
WHOLE_READ_CAPACITY = 250


def read(tournament: Tournament, cycle: int = 0) -> Screen:
    """The screen of ``tournament`` on rotation ``cycle`` (see the module docstring), in the
    active language (round labels): a small tournament read whole (``WHOLE_READ_CAPACITY``),
    a big one window by window; both give the same screen."""
    fmt = registry.of(tournament)
    extras = fmt.public_extras(tournament)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    labels = {rnd.pk: str(rnd) for rnd in rounds}  # str(rnd) translates: once per round
    part = _Part(tournament, fmt, extras, rounds, labels, cycle)
    if tournament.capacity <= WHOLE_READ_CAPACITY:
        return part.whole()
    return part.windowed()


@dataclass
class _Part:
    """What both reads share: the tournament, its rounds and their labels, the rotation."""

    tournament: Tournament
    fmt: Format
    extras: PublicExtras
    rounds: list[Round]
    labels: dict[int, str]
    cycle: int

    def __post_init__(self) -> None:
        self.by_id = {rnd.pk: rnd for rnd in self.rounds}
        self.public_rounds = [public.public_round(rnd, [], self.labels[rnd.pk]) for rnd in self.rounds]

    def _tables(self, seats: Q) -> list[public.PublicTable]:
        return public.public_tables(self.tournament, seats, self.by_id, self.labels, self.extras)

    def _bracket_shown(self) -> list[int]:
        """Indexes of the bracket's rounds (``public.Snapshot.bracket_rounds``: the latest; with
        rounds played at once, the last two of the first stage beside every later stage's)."""
        indexes = list(range(len(self.rounds)))
        if self.fmt.parallel_rounds and self.rounds:
            first = self.rounds[0].stage
            return [i for i in indexes if self.rounds[i].stage == first][-2:] + [
                i for i in indexes if self.rounds[i].stage != first
            ]
        return indexes[-BRACKET_ROUNDS:]

    def _live_rounds(self, playing: dict[int, int]) -> tuple[list[Round], bool]:
        """The rounds whose tables are shown as seating (``public.Snapshot.live_tables``) and
        whether only their playing tables are: with rounds played at once, the playing tables of
        the running rounds; else, and when none plays, all tables of the last round.
        ``playing``: the playing tables per round id."""
        running = [rnd for rnd in self.rounds if rnd.status == enums.RoundStatus.RUNNING]
        if self.fmt.parallel_rounds and sum(playing.get(rnd.pk, 0) for rnd in running):
            return running, True
        return self.rounds[-1:], False

    def whole(self) -> Screen:
        """Every seat in one query; the windows cut here."""
        tables = self._tables(Q())
        playing: dict[int, int] = {}
        for table in tables:
            if table.status == enums.TableStatus.PLAYING:
                playing[table.round_id] = playing.get(table.round_id, 0) + 1
        live_rounds, playing_only = self._live_rounds(playing)
        live_ids = {rnd.pk for rnd in live_rounds}
        live = [
            table
            for table in tables
            if table.round_id in live_ids and (not playing_only or table.status == enums.TableStatus.PLAYING)
        ]
        tables_window = window_of(len(live), TABLES_WINDOW, self.cycle)
        lines = sorted(
            ((seat.name, table.is_duel, table.number) for table in live for seat in table.seats),
            key=lambda line: _sort_key(line[0]),
        )
        by_round: dict[int, list[public.PublicTable]] = {}
        for table in tables:
            by_round.setdefault(table.round_id, []).append(table)
        shown = self._bracket_shown()
        cap = bracket_cap(len(shown))
        bracket = [
            BracketColumn(
                round=self.public_rounds[i],
                tables=tuple(by_round.get(self.rounds[i].pk, [])[:cap]),
                total=len(by_round.get(self.rounds[i].pk, [])),
            )
            for i in shown
        ]
        seated = {seat.player_id for table in tables for seat in table.seats}
        return self._screen(live[tables_window.offset :][: tables_window.size], tables_window, lines, bracket, seated)

    def windowed(self) -> Screen:
        """The window's tables, the live seats' names and the bracket's first tables: a query each."""
        counts = {
            row["round_id"]: row
            for row in Table.objects.filter(round__tournament=self.tournament)
            .values("round_id")
            .annotate(total=Count("id"), playing=Count("id", filter=Q(status=enums.TableStatus.PLAYING)))
        }
        live_rounds, playing_only = self._live_rounds({pk: row["playing"] for pk, row in counts.items()})
        live_total = sum(counts.get(rnd.pk, {}).get("playing" if playing_only else "total", 0) for rnd in live_rounds)
        live_tables = Table.objects.filter(round__in=live_rounds)
        if playing_only:
            live_tables = live_tables.filter(status=enums.TableStatus.PLAYING)
        tables_window = window_of(live_total, TABLES_WINDOW, self.cycle)
        window_ids = live_tables.order_by("round__number", "number").values("id")[
            tables_window.offset : tables_window.offset + tables_window.size
        ]
        # "Where do I sit?": one narrow row per live seat, in dictionary order (equal names in
        # seating order, as the whole read has them: every rotation cuts the same list).
        lines = sorted(
            Seat.objects.filter(table__in=live_tables)
            .order_by("table__round__number", "table__number", "position")
            .values_list("player__name", "table__is_duel", "table__number"),
            key=lambda line: _sort_key(line[0]),
        )
        shown = self._bracket_shown()
        cap = bracket_cap(len(shown))
        first_tables = (
            Table.objects.filter(round__in=[self.rounds[i] for i in shown])
            .annotate(row=models.Window(RowNumber(), partition_by=[F("round_id")], order_by=F("number").asc()))
            .filter(row__lte=cap)
            .values("id")
        )
        by_round: dict[int, list[public.PublicTable]] = {}
        for table in self._tables(Q(table_id__in=first_tables)):
            by_round.setdefault(table.round_id, []).append(table)
        bracket = [
            BracketColumn(
                round=self.public_rounds[i],
                tables=tuple(by_round.get(self.rounds[i].pk, [])),
                total=counts.get(self.rounds[i].pk, {}).get("total", 0),
            )
            for i in shown
        ]
        tables = self._tables(Q(table_id__in=window_ids))
        return self._screen(tables, tables_window, lines, bracket, None)

    def _screen(
        self,
        tables: list[public.PublicTable],
        tables_window: Window,
        lines: list[tuple[str, bool, int]],
        bracket: list[BracketColumn],
        seated: set[int] | None,
    ) -> Screen:
        """The screen with its standings (``seated``: who ever sat at a table; None: read it)."""
        ranking: list[Standing] = []
        standings: list[Standing] = []
        finished = self.tournament.status == enums.TournamentStatus.FINISHED
        if finished or (self.fmt.live_standings and self.rounds):
            if seated is None:
                seated = set(
                    Seat.objects.filter(table__round__tournament=self.tournament).values_list("player_id", flat=True)
                )
            rows = public.taking_part(ranking_reads.rows(self.tournament), seated)
            ranking = rows if finished else []
            standings = rows if self.fmt.live_standings and self.rounds else []
        alpha_window = window_of(len(lines), ALPHA_WINDOW, self.cycle)
        standings_window = window_of(len(standings), STANDINGS_WINDOW, self.cycle)
        return Screen(
            tournament=self.tournament,
            format=self.fmt,
            rounds=self.public_rounds,
            cycle=self.cycle,
            tables=tables,
            tables_window=tables_window,
            alphabetical=lines[alpha_window.offset :][: alpha_window.size],
            alpha_window=alpha_window,
            standings=standings[standings_window.offset :][: standings_window.size],
            standings_window=standings_window,
            bracket=bracket,
            ranking_top=ranking[:3],
            pool=list(self.extras.pool),
        )
