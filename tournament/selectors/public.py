"""What the public sees: one snapshot of a tournament for the projector, the
phone page and the JSON API. No staff data (contacts, checklist, overrides).

Only players who take part are public: checked in, or seated at a table at some
point (a player who played and then withdrew keeps the games they played).
Registered players who never checked in, the waiting list, no-shows and players
who withdrew before playing appear nowhere. Per list:

- rounds, tables and seats (projector, bracket, JSON): whoever was seated there;
- alphabetical seating: the seats of the live tables, each player once (``one_line_each``);
- ranking and standings: the format's ranking, limited to players who take part
  (``taking_part``; the formats already rank only those);
- waiting pool (life bands): players who went out at a table, so they played;
- the phone page's search (``find_players``): players who take part.

Every function issues a fixed number of queries, whatever the field size. The phone
page (``find_players``, ``lookup``) reads only the players asked for.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from django.core.cache import cache
from django.db.models import BooleanField, DateTimeField, Exists, OuterRef, Q, Value
from django.utils.translation import get_language, pgettext

from games.models import Game, GameStatus
from tournament import enums, folding, naming, versions
from tournament.formats import registry
from tournament.formats.record import Format, PublicExtras, Standing
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.selectors import ranking as ranking_selectors
from tournament.selectors.desk import folded_match, prefix_first, similar_players

# The projector's pages as the server sends them: what a 16:9 screen holds when no name wraps
# (names at 36 px in 4 columns of 15; tables in 3 columns of 4; standings in 2 columns of 14).
# projector.js pages each list again to the screen it is shown on (a 4:3 beamer holds fewer
# columns, a long name wraps onto a second line), so these sizes never decide what is cut.
ALPHA_PAGE = 60
TABLES_PAGE = 12
STANDINGS_PAGE = 28


@dataclass(frozen=True)
class PublicSeat:
    position: int
    start_number: int | None
    name: str
    club: str
    games_won: int
    points: int
    place: int | None
    player_id: int
    chips: int = 0
    out: bool = False
    bands: int = 0


@dataclass(frozen=True)
class PublicTable:
    number: int
    status: str
    is_duel: bool
    wins_needed: int | None
    points_target: int | None
    seats: tuple[PublicSeat, ...]
    round_label: str = ""
    is_final: bool = False
    started_at: datetime | None = None
    sharp_at: datetime | None = None
    # Decided, but its result waits for a second person's confirmation (``Tournament.confirm_results``).
    provisional: bool = False
    round_id: int = 0
    duel_for_place: int | None = None
    # A fixed seat is kept here (``Table.fixed_seat``): shown as "Fixed seat", the need not named.
    fixed_seat: bool = False
    # A player's entry waits here for a table-mate's confirmation (``passes.table_entry``): shown as
    # "waiting for confirmation"; nothing of it counts (the seats' figures come from valid games).
    awaiting: bool = False

    @property
    def label(self) -> str:
        """The table within its round, translated: "Table 3", "Duel for place 2" (``tournament.naming``)."""
        return naming.table_label(self.number, is_duel=self.is_duel, duel_for_place=self.duel_for_place)


@dataclass(frozen=True)
class PublicRound:
    number: int
    stage: str
    stage_label: str
    label: str
    stage_number: int
    status: str
    tables: tuple[PublicTable, ...]
    # Why the round seats whom it seats where it deviates from the plain rule (the organiser's choice).
    note: str = ""


@dataclass
class Snapshot:
    """A tournament as the public sees it: rounds, tables and seats, the ranking once it is
    decided (``ranking``) and, for formats that rank during play, the standings so far."""

    tournament: Tournament
    format: Format
    rounds: list[PublicRound]
    ranking: list[Standing] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    pool: list[tuple[int | None, str]] = field(default_factory=list)
    # Players between rounds and what they wait for (``PublicExtras.waiting``).
    waiting: list[tuple[int, str, str, int]] = field(default_factory=list)

    @property
    def current(self) -> PublicRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def live_tables(self) -> list[PublicTable]:
        """The tables to show as "seating": with rounds played at once (life bands: main,
        consolation and grand final), every playing table of the running rounds; else, and when
        none plays, the last round's."""
        if self.format.parallel_rounds:
            running = [rnd for rnd in self.rounds if rnd.status == enums.RoundStatus.RUNNING]
            playing = [table for rnd in running for table in rnd.tables if table.status == enums.TableStatus.PLAYING]
            if playing:
                return playing
        return self.current.tables if self.current else []

    @property
    def bracket_rounds(self) -> list[PublicRound]:
        """Columns of the bracket (``bracket_rounds``); none where the format ranks during play."""
        return bracket_rounds(self.rounds, self.format.parallel_rounds, self.format.live_standings)

    @property
    def finished(self) -> bool:
        return self.tournament.status == enums.TournamentStatus.FINISHED

    def where_lines(self) -> list[WhereLine]:
        """ "Where do I sit?" as the projector lists it (``where_lines``)."""
        parallel = self.format.parallel_rounds
        return where_lines(
            (
                # With rounds played at once, a seat at a table no longer playing gives way to the
                # round its player waits for.
                (
                    seat.player_id,
                    seat.out or (parallel and table.status != enums.TableStatus.PLAYING),
                    seat_line(seat.name, table, parallel=parallel),
                )
                for table in self.live_tables
                for seat in table.seats
            ),
            self.waiting,
        )

    def seating_alphabetical(self) -> list[tuple[PublicSeat, PublicTable]]:
        """ "Where do I sit?": each player once (``one_line_each``), in dictionary order."""
        pairs = one_line_each(
            (seat.player_id, seat.out, (seat, table)) for table in self.live_tables for seat in table.seats
        )
        return sorted(pairs, key=lambda pair: seating_key(pair[0].name))


_Line = TypeVar("_Line")


class WhereLine(NamedTuple):
    """A line of "Where do I sit?": the player's name and where they go now. ``round_label`` is
    said where rounds play at once (life bands: the consolation round's table 2 and main round
    2's table 3 play side by side), else the page's heading names the one round; ``place`` is
    the table's label ("Table 3", "Duel for place 2") or, for a player between rounds
    (``waiting``), the word "waiting" after the round they wait for."""

    name: str
    is_duel: bool
    number: int
    round_label: str = ""
    place: str = ""
    waiting: bool = False


def seat_line(name: str, table: PublicTable, *, parallel: bool) -> WhereLine:
    """The line of a player seated at ``table`` (the round said with rounds played at once)."""
    return WhereLine(name, table.is_duel, table.number, table.round_label if parallel else "", table.label)


def where_lines(
    seated: Iterable[tuple[int, bool, WhereLine]], waiting: Iterable[tuple[int, str, str, int]]
) -> list[WhereLine]:
    """ "Where do I sit?": each player once, in dictionary order. ``seated``: (player id, out at that
    table, line) for the seats of the live tables; ``waiting``: (player id, name, stage, stage
    number) of the players between rounds (``PublicExtras.waiting``), who are listed with the
    round they wait for unless they play at a live table (a player out at a table that plays
    on, or at a table no longer playing, is listed as waiting)."""
    word = pgettext("where do I sit: a player between rounds", "waiting")
    between = (
        (pid, True, WhereLine(name, False, 0, naming.round_name(stage, number), word, True))
        for pid, name, stage, number in waiting
    )
    return sorted(one_line_each(itertools.chain(seated, between)), key=lambda line: seating_key(line.name))


def one_line_each(seats: Iterable[tuple[int, bool, _Line]]) -> list[_Line]:
    """One line per player of ``seats`` ((player id, out at that table, line), in the order seated):
    the last table the player still plays at, else (out everywhere) the last one. A finalist who
    plays a duel sits at the final's table and at the duel: "Where do I sit?" names the duel, once;
    a life-bands player cut at a table that plays on is named at the consolation table only."""
    chosen: dict[int, tuple[bool, _Line]] = {}
    for player_id, out, line in seats:
        kept = chosen.get(player_id)
        if kept is None or not out or kept[0]:
            chosen[player_id] = (out, line)
    return [line for _out, line in chosen.values()]


BRACKET_ROUNDS = 4  # the latest rounds side by side (formats without rounds played at once)
_Staged = TypeVar("_Staged", Round, PublicRound)


def bracket_rounds(rounds: Sequence[_Staged], parallel_rounds: bool, live_standings: bool = False) -> list[_Staged]:
    """The bracket's columns of ``rounds`` (oldest first): the last ``BRACKET_ROUNDS``; with
    rounds played at once, the last two of the first stage beside every round of the later stages.

    None where the format ranks during play (points): nobody goes on from a table there, and a
    column of each table's best player, numbered by table, read like a ranking beside the
    standings, which say what counts (the tables of the round in play are shown by table)."""
    if live_standings:
        return []
    if parallel_rounds and rounds:
        first = rounds[0].stage
        return [r for r in rounds if r.stage == first][-2:] + [r for r in rounds if r.stage != first]
    return list(rounds[-BRACKET_ROUNDS:])


@functools.lru_cache(maxsize=16_384)
def seating_key(name: str) -> tuple[str, str]:
    """Where ``name`` goes on "Where do I sit?": the dictionary order of the page's languages
    ("Änne" before "Zoë", "Mägdalena" before "Michaela"). Kept per name in the process: every
    projector miss sorts the same field again (folding 5,000 names took some 8 ms)."""
    return (folding.plain(name), name)


def current_version(public_key: str) -> int | None:
    """The version of the tournament with this public key (None: no such tournament), the
    basis of every public page's ETag: from the shared cache, else one query
    (``tournament.versions``)."""
    return versions.version_by_key(public_key)


def screen_state(public_key: str) -> tuple[int, str] | None:
    """The version and the projector's language setting (``Tournament.display_language``) of
    the tournament with this public key (None: no such tournament), the basis of the
    projector's ETag, which names the language the screen is shown in: from the shared
    cache, else one query."""
    state = versions.state_by_key(public_key)
    return (state.version, state.display_language) if state is not None else None


def taking_part(rows: list[Standing], seated: set[int]) -> list[Standing]:
    """The ranking rows of players who take part: checked in, or seated at some point."""
    return [row for row in rows if row.player.status == enums.PlayerStatus.CHECKED_IN or row.player.pk in seated]


def snapshot(tournament: Tournament) -> Snapshot:
    """Rounds, then tables, seats and players (two queries), the format's extras, and the
    ranking when decided (or the standings so far, for formats that rank during play).

    Tables and seats are read as plain rows in one query (``values_list``), not as model
    instances: a screen reads every seat of the tournament, and building models was most of
    its time."""
    fmt = registry.of(tournament)
    extras = fmt.public_extras(tournament)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    by_id = {rnd.pk: rnd for rnd in rounds}
    labels = {rnd.pk: str(rnd) for rnd in rounds}  # str(rnd) translates: once per round
    tables_by_round: dict[int, list[PublicTable]] = {}
    for table in public_tables(tournament, Q(), by_id, labels, extras):
        tables_by_round.setdefault(table.round_id, []).append(table)
    public_rounds = [public_round(rnd, tables_by_round.get(rnd.pk, []), labels[rnd.pk]) for rnd in rounds]
    seated = {seat.player_id for tables in tables_by_round.values() for table in tables for seat in table.seats}
    ranking: list[Standing] = []
    standings: list[Standing] = []
    if tournament.status == enums.TournamentStatus.FINISHED:
        ranking = taking_part(ranking_selectors.rows(tournament), seated)
    if fmt.live_standings and public_rounds:
        standings = ranking or taking_part(ranking_selectors.rows(tournament), seated)
    return Snapshot(
        tournament=tournament,
        format=fmt,
        rounds=public_rounds,
        ranking=ranking,
        standings=standings,
        pool=list(extras.pool),
        waiting=list(extras.waiting),
    )


def public_tables(
    tournament: Tournament,
    seats: Q,
    rounds: dict[int, Round],
    labels: dict[int, str],
    extras: PublicExtras,
) -> list[PublicTable]:
    """The tables of ``tournament`` with a seat matching ``seats``, with all their seats as
    ``seats`` selects them, in order of round and number: one query of plain rows (a table
    is always created with its seats). ``rounds`` and ``labels``: the tournament's rounds by
    id (every one of them: they select the seats) and their translated labels."""
    sharp = timedelta(minutes=extras.sharp_minutes) if extras.sharp_minutes else None
    # Filtered by the rounds' ids, not through the join to the tournament: PostgreSQL estimates
    # a tournament's tables per round from the average over every tournament, and a database that
    # also holds a 5,000-player field then scans every seat to show fifty (9 ms instead of 0.4 ms).
    # A table's start is read only where it is shown (sharp play): it comes once per seat, and
    # parsing 10,000 timestamps was a tenth of ``api.json`` at 5,000 players.
    table_columns = _table_columns(tournament, timed=sharp is not None)
    rows = (
        Seat.objects.filter(seats, table__round_id__in=list(rounds))
        # The table's id before the seats: a number may come back within a round (a consolation
        # table seated where an earlier one stood, ``play.rounds.in_play``).
        .order_by("table__round__number", "table__number", "table_id", "position")
        .values_list(*table_columns, *_SEAT_FIELDS)
    )
    width = len(_TABLE_COLUMNS)
    tables = []
    for table_columns, seat_rows in itertools.groupby(rows, key=lambda row: row[:width]):
        table_row = _TableRow(*table_columns)
        rnd = rounds[table_row.round_id]
        seated = [_seat_from_row(row[width:], extras) for row in seat_rows]
        tables.append(
            _public_table(
                tournament, rnd, table_row, seated, sharp, extras.sharp_stages, labels[rnd.pk], table_row.awaiting
            )
        )
    return tables


# What a public seat shows, read as rows by ``snapshot`` after its table's columns.
_SEAT_FIELDS = (
    "position",
    "player__start_number",
    "player__name",
    "player__club",
    "games_won",
    "points",
    "place",
    "player_id",
    "chips",
    "out_order",
)


@dataclass(frozen=True)
class _TableRow:
    """A table as ``snapshot`` reads it (the fields ``_public_table`` uses)."""

    id: int
    round_id: int
    number: int
    status: str
    is_duel: bool
    wins_needed: int | None
    points_target: int | None
    is_final: bool
    started_at: datetime | None
    duel_for_place: int | None
    fixed_seat: bool = False
    awaiting: bool = False


_TABLE_COLUMNS: tuple[Any, ...] = tuple(f"table__{column.name}" for column in dataclasses.fields(_TableRow))


def awaiting_entry() -> Exists:
    """Whether a player's entry waits for confirmation at the seat's table (``table_id`` of the
    outer query, a query of seats): a column of the query that reads the table, no query of its own."""
    return Exists(Game.objects.filter(table_id=OuterRef("table_id"), status=GameStatus.PENDING))


def _table_columns(tournament: Tournament, *, timed: bool) -> tuple[Any, ...]:
    """The columns of ``_TableRow`` as ``public_tables`` reads them. A table's start is read only
    where sharp play shows it; whether an entry waits, only where players enter their tables
    (``Tournament.players_enter``): elsewhere none ever waits, and the query stays as it was.
    ``table__awaiting`` is no field of the table: it is always read instead."""
    read_instead: dict[str, Any] = {
        "table__awaiting": awaiting_entry() if tournament.players_enter else Value(False, output_field=BooleanField())
    }
    if not timed:
        read_instead["table__started_at"] = Value(None, output_field=DateTimeField())
    return tuple(read_instead.get(column, column) for column in _TABLE_COLUMNS)


def _seat_from_row(row: tuple[Any, ...], extras: PublicExtras) -> PublicSeat:
    position, start_number, name, club, games_won, points, place, player_id, chips, out_order = row
    return PublicSeat(
        position=position,
        start_number=start_number,
        name=name,
        club=club,
        games_won=games_won,
        points=points,
        place=place,
        player_id=player_id,
        chips=chips,
        out=out_order is not None,
        bands=extras.bands.get(player_id, extras.default_bands),
    )


def _public_seat(seat: Seat, player: Player, bands: int) -> PublicSeat:
    return PublicSeat(
        position=seat.position,
        start_number=player.start_number,
        name=player.name,
        club=player.club,
        games_won=seat.games_won,
        points=seat.points,
        place=seat.place,
        player_id=seat.player_id,
        chips=seat.chips,
        out=seat.out_order is not None,
        bands=bands,
    )


def _public_table(
    tournament: Tournament,
    rnd: Round,
    table: Table | _TableRow,
    seats: tuple[PublicSeat, ...] | list[PublicSeat],
    sharp: timedelta | None,
    sharp_stages: tuple[str, ...],
    round_label: str | None = None,
    awaiting: bool = False,
) -> PublicTable:
    return PublicTable(
        number=table.number,
        status=table.status,
        provisional=tournament.confirm_results and table.status == enums.TableStatus.DECIDED,
        is_duel=table.is_duel,
        wins_needed=table.wins_needed,
        points_target=table.points_target,
        seats=tuple(seats),
        # str(rnd) translates the stage's label: worked out once per round by ``snapshot``.
        round_label=str(rnd) if round_label is None else round_label,
        round_id=rnd.pk,
        is_final=table.is_final,
        duel_for_place=table.duel_for_place,
        fixed_seat=table.fixed_seat,
        started_at=table.started_at,
        sharp_at=(table.started_at + sharp) if sharp and table.started_at and rnd.stage in sharp_stages else None,
        awaiting=awaiting and table.status == enums.TableStatus.PLAYING,
    )


def public_round(rnd: Round, tables: list[PublicTable], label: str | None = None) -> PublicRound:
    """``rnd`` as the public sees it, with ``tables``; ``label``: its translated label when the
    caller has worked it out already (``str(rnd)`` translates the stage on every call)."""
    return PublicRound(
        number=rnd.number,
        stage=rnd.stage,
        stage_label=naming.stage_name(rnd.stage, rnd.tournament_id),
        label=str(rnd) if label is None else label,
        stage_number=rnd.stage_number,
        status=rnd.status,
        note=rnd.public_note,
        tables=tuple(tables),
    )


def chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[index : index + size] for index in range(0, len(items), size)] or [[]]


@dataclass(frozen=True)
class PlayerLookup:
    """One player on the phone page: where they sat in every round (in the order they were
    seated, the table they sit at now last) and their final place once the tournament is finished."""

    player: Player
    rounds: list[tuple[PublicRound, PublicTable, PublicSeat]]
    place: int | None
    summary: str = ""  # the result beyond the place, where the format says it (``Standing.summary``)
    bands: int | None = None  # life bands left now, where the format counts them
    waiting: bool = False  # waits in the format's pool for a new table (life bands: consolation)
    qualified: bool = False  # went from the pool to the grand final without another table
    # The player's row of the standings, where the format ranks during play (points: the total
    # and the place so far, or the final ones), once the player has played a game.
    standing: Standing | None = None
    # The tournament's rounds seated so far, where the format ranks during play (the round a
    # player not seated yet joins).
    rounds_seated: int = 0


def find_players(tournament: Tournament, query: str, limit: int = 8) -> list[Player]:
    """Players who take part, by start number or a part of their name (one query).

    Taking part: checked in, or seated at a table at some point (a player who played and
    then withdrew still finds their results). Registered players who never checked in,
    the waiting list, no-shows and players who withdrew before playing are never found:
    the phone page finds exactly the people the projector lists."""
    query = query.strip()
    if not query:
        return []
    qs = Player.objects.filter(tournament=tournament).filter(
        Q(status=enums.PlayerStatus.CHECKED_IN) | Q(Exists(Seat.objects.filter(player=OuterRef("pk"))))
    )
    if query.isdecimal():
        if len(query) > 9:  # past any start number (and the integer column)
            return []
        return list(qs.filter(start_number=int(query))[:limit])
    # Folded: "rudiger", "Ruediger" and "Rüdiger" find Rüdiger; a club finds its players. Names that
    # start with what was typed first; then, where that is fewer than ``limit``, names like it ("nicolo").
    found = list(qs.filter(folded_match(query)).order_by(prefix_first(query), "folded", "name", "pk")[:limit])
    if len(found) < limit:
        found += similar_players(tournament, query, qs, found=found, limit=limit - len(found))
    return found


def lookup(tournament: Tournament, players: list[Player]) -> list[PlayerLookup]:
    """Where each of ``players`` sat in every round, and their final place once decided.

    The phone page's answer, whose cost does not follow the field: one query for their
    seats (by the seat's player index, with table and round), the format's extras (bands
    left, sharp play) and, once the tournament is finished, the final places, which are
    worked out once per version for every phone (``final_places``)."""
    if not players:
        return []
    fmt = registry.of(tournament)
    extras = fmt.public_extras(tournament)
    sharp = timedelta(minutes=extras.sharp_minutes) if extras.sharp_minutes else None
    seats = (
        Seat.objects.filter(player__in=players, table__round__tournament=tournament)
        .select_related("table__round")
        # Whether an entry waits at the table: a column, only where players enter (``awaiting_entry``).
        .annotate(awaiting=awaiting_entry() if tournament.players_enter else Value(False))
        # The order they were seated in (a player's seats are created one seating after another),
        # not the rounds' numbers: life bands refill their consolation round while the main round
        # goes on, so a player cut in main round 3 then sits in the consolation round, number 2.
        # The last seat is where the phone sends them.
        .order_by("pk")
    )
    found: dict[int, list[tuple[PublicRound, PublicTable, PublicSeat]]] = {player.pk: [] for player in players}
    by_id = {player.pk: player for player in players}
    for seat in seats:
        table, rnd = seat.table, seat.table.round
        public_seat = _public_seat(seat, by_id[seat.player_id], extras.bands.get(seat.player_id, extras.default_bands))
        public_table = _public_table(
            tournament, rnd, table, [public_seat], sharp, extras.sharp_stages, awaiting=seat.awaiting
        )
        found[seat.player_id].append((public_round(rnd, [public_table]), public_table, public_seat))
    places, summaries = final_places(tournament) if tournament.status == enums.TournamentStatus.FINISHED else ({}, {})
    pool = set(extras.pool)
    standings: dict[int, Standing] = {}
    rounds_seated = 0
    if fmt.live_standings:
        standings = standing_rows(tournament)
        if not all(found.values()):  # someone not seated yet: the round they join follows the last seated
            rounds_seated = Round.objects.filter(tournament=tournament).count()
    return [
        PlayerLookup(
            player=player,
            rounds=found[player.pk],
            place=places.get(player.pk),
            summary=summaries.get(player.pk, ""),
            bands=extras.bands.get(player.pk, extras.default_bands) if extras.default_bands else None,
            waiting=(player.start_number, player.name) in pool,
            qualified=player.pk in extras.qualified,
            standing=_played(standings.get(player.pk)),
            rounds_seated=rounds_seated,
        )
        for player in players
    ]


def _played(row: Standing | None) -> Standing | None:
    """A standings row worth showing: the player has played a game (a late arrival not seated yet
    ranks last on nothing; the phone says when they join instead)."""
    return row if row is not None and row.games_played else None


def standing_rows(tournament: Tournament) -> dict[int, Standing]:
    """Player id -> the player's row of the format's ranking (``ranking.rows``: once per version
    and language in the shared cache, so a thousand phones cost one ranking)."""
    return {row.player.pk: row for row in ranking_selectors.rows(tournament)}


def final_places(tournament: Tournament) -> tuple[dict[int, int], dict[int, str]]:
    """Player id -> final place of a finished tournament, and player id -> the result beyond
    the place where the format says it (``Standing.summary``, in the active language): the
    format's ranking, worked out once per version and language and kept in the shared cache
    (a thousand phones asking for their place after the final cost one ranking)."""
    key = f"places3:{tournament.pk}:{tournament.version}:{get_language()}"
    kept = cache.get(key)
    if not isinstance(kept, tuple):
        rows = ranking_selectors.rows(tournament)
        kept = (
            {row.player.pk: row.place for row in rows},
            {row.player.pk: str(row.summary) for row in rows if row.summary},
        )
        cache.set(key, kept, 60 * 60)
    return kept


def as_json(snap: Snapshot) -> dict[str, Any]:
    """The read-only API document (see README, "Public JSON")."""
    t = snap.tournament
    return {
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "date": t.date.isoformat(),
            "venue": t.venue,
            "game": t.game,
            "format": t.format,
            "status": t.status,
            "version": t.version,
        },
        "rounds": [
            {
                "number": rnd.number,
                "stage": rnd.stage,
                "stage_number": rnd.stage_number,
                "label": rnd.label,
                "status": rnd.status,
                "note": rnd.note,
                "tables": [
                    {
                        "number": table.number,
                        "name": table.label,  # "Table 3", "Duel for place 2": the round's "label" says the round
                        "status": table.status,
                        "provisional": table.provisional,
                        # A player's entry waits for a table-mate's confirmation: nothing of it counts yet.
                        "awaiting_confirmation": table.awaiting,
                        "is_duel": table.is_duel,
                        "wins_needed": table.wins_needed,
                        "points_target": table.points_target,
                        "seats": [_json_seat(snap.format, seat) for seat in table.seats],
                    }
                    for table in rnd.tables
                ],
            }
            for rnd in snap.rounds
        ],
        "standings": [_json_standing(snap.format, row) for row in (snap.standings or snap.ranking)],
        "pool": [{"start_number": number, "name": name} for number, name in snap.pool],
    }


# What a seat counts only in some formats, in api.json where the format says so (``Format.json_seat_counts``).
FORMAT_SEAT_KEYS = frozenset({"chips", "life_bands"})


def _json_seat(fmt: Format, seat: PublicSeat) -> dict[str, Any]:
    """One seat of a table: who sits there, what the seat counts (games won, points, the place),
    and the format's own counts (life bands: the chips left and the bands)."""
    row = {
        "position": seat.position,
        "start_number": seat.start_number,
        "name": seat.name,
        "club": seat.club,
        "games_won": seat.games_won,
        "points": seat.points,
        "place": seat.place,
        "chips": seat.chips,
        "out": seat.out,
        "life_bands": seat.bands,
    }
    return {key: value for key, value in row.items() if key not in FORMAT_SEAT_KEYS or key in fmt.json_seat_counts}


def _json_standing(fmt: Format, row: Standing) -> dict[str, Any]:
    """One ranking row: place, who, the rule that decided it, and the format's own columns."""
    document: dict[str, Any] = {
        "place": row.place,
        "start_number": row.player.start_number,
        "name": row.player.name,
        "decided_by": row.decided_by,
    }
    for column in fmt.ranking_columns:
        document[column] = row.json_value(column)
    return document
