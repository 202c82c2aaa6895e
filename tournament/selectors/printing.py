"""Reads of the print pack: the paper fallback for the desk and the hall.

What each printable shows -- the rounds to print, a round's seating by table and
by name, a result slip per table, the final ranking -- read here with a fixed
number of queries, whatever the number of players. The ranking itself is the
one ranking (``selectors.ranking``), never computed again; what a slip records
(winners, card points or chips, and how many games at most) is asked of the
format's record (``registry.of``), never of the format's name.

Long lists are cut into sheets of a fixed size here (``sheets``): each sheet is
one printed A4 page with its own heading, so the number of pages is known and a
list posted in the hall says on every page what it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from django.db.models import Count, Prefetch, Q

from tournament import enums, folding
from tournament.formats import registry
from tournament.formats.record import Format, Standing
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.selectors import play as play_selectors
from tournament.selectors import public
from tournament.selectors import ranking as ranking_selectors

T = TypeVar("T")

# Sheet sizes (one A4 portrait page each; static/css/print.css is laid out for them).
CARDS_PER_SHEET = 6  # table cards: two columns of three, cut apart
TABLES_PER_SHEET = 10  # seating by table: two columns of five tables of up to four seats
NAMES_PER_SHEET = 30  # seating by name: one line per player, room left for names that wrap
# The most game lines a slip holds and still fits its page: a table played to a points target (no
# longest match) or a longer match goes on on the back.
SLIP_LINES = 12
# A slip of up to this many lines gets taller boxes (more room to write).
ROOMY_LINES = 9

# What a result slip's boxes record, from the format's record and the table.
RECORDS_WINS = "wins"  # a cross for each game's winner
RECORDS_CARD_POINTS = "card_points"  # the winner and the card points counted
RECORDS_CHIPS = "chips"  # a cross for each game's loser: one chip handed in


def sheets(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """``items`` cut into sheets of ``size`` (one empty sheet for no items, so a page still prints)."""
    return [items[start : start + size] for start in range(0, len(items), size)] or [items[:0]]


# --------------------------------------------------------------------------
# The pack page
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Pack:
    """What the print pack page lists: every round (with its table count) and how many
    start-number cards there are."""

    rounds: list[Round]  # each with ``table_count`` and ``fixed_count`` (tables keeping a fixed seat)
    start_cards: int


def pack(tournament: Tournament) -> Pack:
    """Every round with its number of tables, and the checked-in players with a start number (two queries)."""
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables"), fixed_count=Count("tables", filter=Q(tables__fixed_seat=True)))
        .order_by("number")
    )
    start_cards = Player.objects.filter(
        tournament=tournament, status=enums.PlayerStatus.CHECKED_IN, start_number__isnull=False
    ).count()
    return Pack(rounds=rounds, start_cards=start_cards)


# --------------------------------------------------------------------------
# A round: table cards, seating, result slips
# --------------------------------------------------------------------------


def round_with_tables(
    tournament: Tournament, round_number: int, first: int = 1, count: int | None = None
) -> Round | None:
    """The round ``round_number`` of the tournament with its tables numbered from ``first``
    (``count`` of them, all with None), seats and players (three queries), or None when the
    tournament has no such round."""
    return play_selectors.round_tables(tournament, round_number, first, count)


# A printout is sent in parts of bounded size: a 5,000-player field prints part by part, and
# no answer builds megabytes at once (each QR code costs milliseconds).
TABLES_PER_PART = 30  # table cards and result slips: five sheets of cards
PLAYERS_PER_PART = 400  # start-number cards and the player list


@dataclass(frozen=True)
class Part:
    """One part of a printout: its number (from 1), how many parts there are, and the range
    of items it holds (table numbers, or positions in the list, from 1)."""

    number: int
    parts: int
    first: int
    size: int

    @property
    def numbers(self) -> range:
        return range(1, self.parts + 1)

    @property
    def offset(self) -> int:
        return self.first - 1


def part(asked: str, total: int, size: int) -> Part:
    """The part ``asked`` (the ``?part=`` text) of ``total`` items cut into parts of ``size``;
    anything that is not a part number gives the nearest part (the first for text)."""
    parts = max((total + size - 1) // size, 1)
    number = int(asked) if asked.isdecimal() and len(asked) <= 6 else 1
    number = min(max(number, 1), parts)
    return Part(number=number, parts=parts, first=(number - 1) * size + 1, size=size)


@dataclass(frozen=True)
class SeatedPlayer:
    """A seated player as the seating printouts show them."""

    name: str
    start_number: int | None
    club: str


@dataclass(frozen=True)
class SeatingTable:
    """A table as the seating printouts show it."""

    number: int
    is_duel: bool
    is_final: bool
    # "Fixed seat: Wheelchair access" where a fixed seat is kept (``Table.fixed_label``), else "".
    fixed_label: str = ""


@dataclass(frozen=True)
class SeatLine:
    """One player's place in a round: the table and the seat (counted from 1)."""

    player: SeatedPlayer
    table: SeatingTable
    seat: int


@dataclass(frozen=True)
class Seating:
    """A round's seating, by table (each table's seats in order) and by name."""

    round: Round
    tables: list[tuple[SeatingTable, list[SeatLine]]]
    by_name: list[SeatLine]

    def table_sheets(self) -> list[Sequence[tuple[SeatingTable, list[SeatLine]]]]:
        return sheets(self.tables, TABLES_PER_SHEET)

    def name_sheets(self) -> list[Sequence[SeatLine]]:
        return sheets(self.by_name, NAMES_PER_SHEET)


def seating(tournament: Tournament, round_number: int) -> Seating | None:
    """The seating of round ``round_number`` (None when the tournament has no such round): every
    table in number order with its seats in order, and every seat by name in alphabetical order
    regardless of case, then by start number. Three queries of plain rows: at 5,000 players
    building the seats, players and tables as models took most of a second."""
    rnd = Round.objects.filter(tournament=tournament, number=round_number).first()
    if rnd is None:
        return None
    tables = {
        pk: (
            SeatingTable(
                number=number,
                is_duel=is_duel,
                is_final=is_final,
                fixed_label=Table(fixed_seat=fixed, fixed_need=need).fixed_label,
            ),
            [],
        )
        for pk, number, is_duel, is_final, fixed, need in Table.objects.filter(round=rnd)
        .order_by("number", "pk")
        .values_list("pk", "number", "is_duel", "is_final", "fixed_seat", "fixed_need")
    }
    seats: list[tuple[SeatingTable, list[SeatLine]]] = list(tables.values())
    who: dict[int, list[tuple[int, bool, SeatLine]]] = {table_id: [] for table_id in tables}
    for table_id, position, name, start_number, club, player_id, out_order in (
        Seat.objects.filter(table__round=rnd)
        .order_by("position")
        .values_list(
            "table_id", "position", "player__name", "player__start_number", "player__club", "player_id", "out_order"
        )
    ):
        table, lines = tables[table_id]
        line = SeatLine(player=SeatedPlayer(name, start_number, club), table=table, seat=position + 1)
        lines.append(line)
        who[table_id].append((player_id, out_order is not None, line))
    # By name, each player once (a finalist who plays a duel: the duel), as "Where do I sit?" on the projector.
    everyone = public.one_line_each(seat for table_id in tables for seat in who[table_id])
    # Dictionary order of German and Italian: "Änne" before "Zoë" (tournament.folding).
    by_name = sorted(everyone, key=lambda line: (folding.plain(line.player.name), line.player.start_number or 0))
    return Seating(round=rnd, tables=seats, by_name=by_name)


@dataclass(frozen=True)
class Slip:
    """A table's paper result slip: its players in seat order, one line per game the table can
    take at most (``SLIP_LINES`` at most), and what each game's boxes record (``RECORDS_*``)."""

    table: Table
    seats: list[Seat]
    games: range
    records: str
    continued: bool  # the table may take more games than the lines: more on the back

    @property
    def columns(self) -> int:
        return len(self.seats)

    @property
    def roomy(self) -> bool:
        return len(self.games) <= ROOMY_LINES


def games_at_most(tournament: Tournament, fmt: Format, table: Table, players: int) -> tuple[int, bool]:
    """The most games ``table`` can take and whether that is open-ended (a points target).

    From what the table is played to: chips (each game costs its loser one chip; the last player
    in keeps at least one), wins needed (everyone one win short, then the deciding game), a
    number of games per round (a setting the format uses), else a points target (open-ended).
    """
    if table.chips_per_player:
        return max(players * table.chips_per_player - 1, 1), False
    if table.wins_needed:
        return players * (table.wins_needed - 1) + 1, False
    if table.points_target is None and "games_per_round" in fmt.settings_used:
        return tournament.games_per_round, False
    return SLIP_LINES, True


def records(fmt: Format, table: Table) -> str:
    """What a game's boxes record at ``table``: the loser's chip, card points, or the winner."""
    if fmt.records_loser:
        return RECORDS_CHIPS
    if fmt.counts_card_points(table):
        return RECORDS_CARD_POINTS
    return RECORDS_WINS


def result_slips(tournament: Tournament, rnd: Round) -> list[Slip]:
    """One slip per table of a round read by ``round_with_tables`` (no further query)."""
    fmt = registry.of(tournament)
    slips = []
    for table in rnd.tables.all():
        seats = list(table.seats.all())
        count, open_ended = games_at_most(tournament, fmt, table, len(seats))
        slips.append(
            Slip(
                table=table,
                seats=seats,
                games=range(1, min(count, SLIP_LINES) + 1),
                records=records(fmt, table),
                continued=open_ended or count > SLIP_LINES,
            )
        )
    return slips


# --------------------------------------------------------------------------
# The final ranking
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Duel:
    """A duel table that decides a tie (its seats best first once decided)."""

    table: Table
    seats: list[Seat]

    @property
    def decided(self) -> bool:
        return self.table.status != enums.TableStatus.PLAYING


@dataclass(frozen=True)
class FinalRanking:
    """The ranking (``selectors.ranking``), with the points each player scored at a table
    played to a points target (the final to points) and the duels that decided ties."""

    ranking: ranking_selectors.Ranking
    final_points: dict[int, int]
    points_target: int | None
    duels: list[Duel]

    def finalists(self) -> list[tuple[Standing, int]]:
        """The players of the final to points with their points, in ranking order."""
        return [
            (row, self.final_points[row.player.pk]) for row in self.ranking.rows if row.player.pk in self.final_points
        ]


def final_ranking(tournament: Tournament) -> FinalRanking:
    """The one ranking, the final's points and the duels (the ranking's queries and three more)."""
    final_seats = Seat.objects.filter(
        table__round__tournament=tournament, table__points_target__isnull=False, table__is_duel=False
    ).values_list("player_id", "points", "table__points_target")
    final_points: dict[int, int] = {}
    target = None
    for player_id, points, points_target in final_seats:
        final_points[player_id] = points
        target = points_target
    duels = (
        Table.objects.filter(round__tournament=tournament, is_duel=True)
        .order_by("round__number", "number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("place", "position"))
        )
    )
    duel_tables = [Duel(table=table, seats=list(table.seats.all())) for table in duels]
    ranking = ranking_selectors.ranking(tournament, skip_empty=True)
    # Said once: the box above the table holds the final's points and the duels, so the table
    # leaves out the columns that repeat them (and its names keep their width on A4).
    shown_above = {"final_points"} if final_points else set()
    shown_above |= {"duel"} if duel_tables else set()
    columns = [column for column in ranking.columns if column.key not in shown_above]
    return FinalRanking(
        ranking=replace(ranking, columns=columns),
        final_points=final_points,
        points_target=target,
        duels=duel_tables,
    )
