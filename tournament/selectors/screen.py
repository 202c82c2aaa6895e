"""What one projector screen shows: its lists in windows, read window by window.

The projector rotates through its views (tables, "Where do I sit?", the waiting pool,
standings, bracket). A big field does not fit on one rotation: 1,111 tables are some
ninety screen pages of tables before the first name would be shown. So each list is
sent in windows of a fixed number of items (``TABLES_WINDOW``, ``ALPHA_WINDOW``,
``STANDINGS_WINDOW``), and each rotation (a *cycle*, counted by the projector) shows the
next window of every list: tables 1-96, names A-D, standings 1-224, the bracket; then
tables 97-192, the next names, ... A field that fits (up to some 400 players) has one
window per list and every rotation shows everything.

A tournament for up to ``WHOLE_READ_CAPACITY`` players is read whole (``public.snapshot``:
two queries) and cut into its windows. A bigger one is read window by window, following
the window, not the field: the rounds, the live tables' counts, the
window's tables with their seats, the bracket's first tables per round (window function),
and for "Where do I sit?" one narrow row per live seat (name, table), sorted here in the
order of ``public.seating_key``. Standings come from the ranking
rows kept per version (``selectors.ranking.rows``).

``window_of(total, size, cycle)`` and the windows a screen needs are pure; ``read``
issues a fixed number of queries, whatever the field size and the cycle.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from django.db import models
from django.db.models import Count, F, Q
from django.db.models.functions import RowNumber

from tournament import enums, naming
from tournament.formats import registry
from tournament.formats.record import Format, PublicExtras, Standing
from tournament.models import Round, Seat, Table, Tournament
from tournament.selectors import public
from tournament.selectors import ranking as ranking_selectors

TABLES_WINDOW = 8 * public.TABLES_PAGE  # 96 tables
ALPHA_WINDOW = 8 * public.ALPHA_PAGE  # 480 names
STANDINGS_WINDOW = 8 * public.STANDINGS_PAGE  # 224 rows


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
    alphabetical: list[public.WhereLine]
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


# A tournament for up to this many players (``Tournament.capacity``) is read whole: every seat
# at once (one query, as ``public.snapshot``), its windows cut here, cheaper than the narrower
# queries of a big one. Decided by the capacity, so that the read costs no query to choose.
WHOLE_READ_CAPACITY = 250


def read(tournament: Tournament, cycle: int = 0) -> Screen:
    """The screen of ``tournament`` on rotation ``cycle`` (see the module docstring), in the
    active language (round labels): a small tournament read whole (``public.snapshot``, cut
    into its windows here), a big one window by window; both give the same screen."""
    if tournament.capacity <= WHOLE_READ_CAPACITY:
        return _cut(public.snapshot(tournament), cycle)
    fmt = registry.of(tournament)
    extras = fmt.public_extras(tournament)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    labels = {rnd.pk: str(rnd) for rnd in rounds}  # str(rnd) translates: once per round
    return _Windowed(tournament, fmt, extras, rounds, labels, cycle).read()


def _cut(snap: public.Snapshot, cycle: int) -> Screen:
    """The screen of rotation ``cycle`` cut from the whole public snapshot (the rounds shown
    without their tables, as the windowed read has them)."""
    live = snap.live_tables
    tables_window = window_of(len(live), TABLES_WINDOW, cycle)
    shown = snap.bracket_rounds
    cap = bracket_cap(len(shown))
    return _screen(
        snap.tournament,
        snap.format,
        [dataclasses.replace(rnd, tables=()) for rnd in snap.rounds],
        cycle,
        list(live[tables_window.offset :][: tables_window.size]),
        tables_window,
        snap.where_lines(),
        [BracketColumn(dataclasses.replace(rnd, tables=()), rnd.tables[:cap], len(rnd.tables)) for rnd in shown],
        snap.standings,
        snap.ranking,
        list(snap.pool),
    )


def _screen(
    tournament: Tournament,
    fmt: Format,
    rounds: list[public.PublicRound],
    cycle: int,
    tables: list[public.PublicTable],
    tables_window: Window,
    lines: list[public.WhereLine],
    bracket: list[BracketColumn],
    standings: list[Standing],
    ranking: list[Standing],
    pool: list[tuple[int | None, str]],
) -> Screen:
    """The screen with the windows of rotation ``cycle`` cut from the whole lists of names and
    standings (``tables``: the tables' window, already read)."""
    alpha_window = window_of(len(lines), ALPHA_WINDOW, cycle)
    standings_window = window_of(len(standings), STANDINGS_WINDOW, cycle)
    return Screen(
        tournament=tournament,
        format=fmt,
        rounds=rounds,
        cycle=cycle,
        tables=tables,
        tables_window=tables_window,
        alphabetical=lines[alpha_window.offset :][: alpha_window.size],
        alpha_window=alpha_window,
        standings=standings[standings_window.offset :][: standings_window.size],
        standings_window=standings_window,
        bracket=bracket,
        ranking_top=ranking[:3],
        pool=pool,
    )


@dataclass
class _Windowed:
    """The read of a big tournament, window by window: its rounds, their labels, the rotation."""

    tournament: Tournament
    fmt: Format
    extras: PublicExtras
    rounds: list[Round]
    labels: dict[int, str]
    cycle: int

    def _tables(self, seats: Q) -> list[public.PublicTable]:
        by_id = {rnd.pk: rnd for rnd in self.rounds}
        return public.public_tables(self.tournament, seats, by_id, self.labels, self.extras)

    def _live_rounds(self, playing: dict[int, int]) -> tuple[list[Round], bool]:
        """The rounds whose tables are shown as seating (``public.Snapshot.live_tables``) and
        whether only their playing tables are: with rounds played at once, the playing tables of
        the running rounds; else, and when none plays, all tables of the last round.
        ``playing``: the playing tables per round id."""
        running = [rnd for rnd in self.rounds if rnd.status == enums.RoundStatus.RUNNING]
        if self.fmt.parallel_rounds and sum(playing.get(rnd.pk, 0) for rnd in running):
            return running, True
        return self.rounds[-1:], False

    def read(self) -> Screen:
        """The tables counted, the window's tables, the live seats' names, the bracket's first
        tables: a query each; the standings from the ranking rows kept per version."""
        counts = self._counts()
        live_tables, tables_window, window_ids = self._live_window(counts)
        lines = self._where_lines(live_tables)
        bracket = self._bracket(counts)
        standings, ranking = self._standings()
        return _screen(
            self.tournament,
            self.fmt,
            [public.public_round(rnd, [], self.labels[rnd.pk]) for rnd in self.rounds],
            self.cycle,
            self._tables(Q(table_id__in=window_ids)),
            tables_window,
            lines,
            bracket,
            standings,
            ranking,
            list(self.extras.pool),
        )

    def _counts(self) -> dict[int, dict[str, int]]:
        """Each round's tables counted, all and playing, by round id: one query."""
        return {
            row["round_id"]: row
            for row in Table.objects.filter(round_id__in=[rnd.pk for rnd in self.rounds])
            .values("round_id")
            .annotate(total=Count("id"), playing=Count("id", filter=Q(status=enums.TableStatus.PLAYING)))
        }

    def _live_window(
        self, counts: dict[int, dict[str, int]]
    ) -> tuple[models.QuerySet[Table], Window, models.QuerySet[Table, dict[str, object]]]:
        """The live tables (``_live_rounds``), the window of them this rotation shows and the
        window's table ids (a subquery, not run here)."""
        live_rounds, playing_only = self._live_rounds({pk: row["playing"] for pk, row in counts.items()})
        live_total = sum(counts.get(rnd.pk, {}).get("playing" if playing_only else "total", 0) for rnd in live_rounds)
        live_tables = Table.objects.filter(round__in=live_rounds)
        if playing_only:
            live_tables = live_tables.filter(status=enums.TableStatus.PLAYING)
        tables_window = window_of(live_total, TABLES_WINDOW, self.cycle)
        window_ids = live_tables.order_by("round__number", "number", "id").values("id")[
            tables_window.offset : tables_window.offset + tables_window.size
        ]
        return live_tables, tables_window, window_ids

    def _where_lines(self, live_tables: models.QuerySet[Table]) -> list[public.WhereLine]:
        """ "Where do I sit?": one narrow row per live seat, in dictionary order (equal names in
        seating order, as the whole read has them: every rotation cuts the same list). Each
        player once (``public.one_line_each``): a finalist at the final's table and a duel, once."""
        parallel = self.fmt.parallel_rounds
        return public.where_lines(
            (
                (
                    player_id,
                    out_order is not None or (parallel and status != enums.TableStatus.PLAYING),
                    public.WhereLine(
                        name,
                        is_duel,
                        number,
                        self.labels[round_id] if parallel else "",
                        naming.table_label(number, is_duel=is_duel, duel_for_place=duel_for_place),
                    ),
                )
                for name, is_duel, number, player_id, out_order, status, round_id, duel_for_place in (
                    Seat.objects.filter(table__in=live_tables)
                )
                .order_by("table__round__number", "table__number", "table_id", "position")
                .values_list(
                    "player__name",
                    "table__is_duel",
                    "table__number",
                    "player_id",
                    "out_order",
                    "table__status",
                    "table__round_id",
                    "table__duel_for_place",
                )
            ),
            self.extras.waiting,
        )

    def _bracket(self, counts: dict[int, dict[str, int]]) -> list[BracketColumn]:
        """The bracket's columns: each shown round's first tables (as many as a column lists,
        ``bracket_cap``) with their seats, and how many tables it has."""
        shown = public.bracket_rounds(self.rounds, self.fmt.parallel_rounds, self.fmt.live_standings)
        first_tables = (
            Table.objects.filter(round__in=shown)
            .annotate(
                row=models.Window(
                    RowNumber(), partition_by=[F("round_id")], order_by=[F("number").asc(), F("id").asc()]
                )
            )
            .filter(row__lte=bracket_cap(len(shown)))
            .order_by()
            .values("id")[
                # No more than that in any case; said as a limit, it tells PostgreSQL how few they
                # are, else it guesses a third of the tables and reads every seat of the
                # tournament to find them (26 ms instead of 3 ms for 72 tables after five rounds
                # of 5,000 players).
                : bracket_cap(len(shown)) * len(shown)
            ]
        )
        by_round: dict[int, list[public.PublicTable]] = {}
        for table in self._tables(Q(table_id__in=first_tables)):
            by_round.setdefault(table.round_id, []).append(table)
        return [
            BracketColumn(
                public.public_round(rnd, [], self.labels[rnd.pk]),
                tuple(by_round.get(rnd.pk, [])),
                counts.get(rnd.pk, {}).get("total", 0),
            )
            for rnd in shown
        ]

    def _standings(self) -> tuple[list[Standing], list[Standing]]:
        """The standings shown (a format ranked in play, once a round is seated) and the final
        ranking (finished): the ranking rows kept per version, of the players taking part."""
        finished = self.tournament.status == enums.TournamentStatus.FINISHED
        if not (finished or (self.fmt.live_standings and self.rounds)):
            return [], []
        round_ids = [rnd.pk for rnd in self.rounds]  # by id: see ``public.public_tables``
        # ``taking_part`` asks only of players not checked in (withdrawn): those who sat at some
        # point, not every seat of the tournament (25,000 rows after five rounds of 5,000).
        seated = set(
            Seat.objects.filter(table__round_id__in=round_ids)
            .exclude(player__status=enums.PlayerStatus.CHECKED_IN)
            .order_by()  # distinct players, not distinct seats in the seats' order
            .values_list("player_id", flat=True)
            .distinct()
        )
        rows = public.taking_part(ranking_selectors.rows(self.tournament), seated)
        return (rows if self.fmt.live_standings and self.rounds else []), (rows if finished else [])
