"""Format A: knockout tables, a lucky-loser round and a points final. Pure.

Source: the underwater UNO championship (rules/README.md, format A).

- A table is won by the first player to win ``wins_needed`` games (fewer at a
  table of the largest size: 3, or 2 at a 4-player table). Places 2-4 at a
  table: games won, then the lower start number.
- Round 1 seats everyone. All round-1 losers play a lucky-loser round; its
  table winners join the round-1 winners in round 2. From then on only table
  winners advance until at most ``largest`` and at least ``final_size``
  players remain; they play the final.
- Final: each game's winner scores the card points left in the others' hands;
  the first to the points target wins. Places 2 and 3 by points; players tied
  on points play a duel (one game) for the order.
- Player counts that do not split into tables return the options of
  ``tournament.seating.explain_impossible`` for the organiser to choose from.

Everything here takes frozen snapshots and returns plain values; the service
layer reads them from the database and writes the results back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournament import seating
from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec, rank_by
from tournament.seating import SeatingOption, explain_impossible

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (
    *SEATING_SETTINGS,
    CLUBS_APART,
    "wins_needed",
    "wins_needed_large_table",
    "final_size",
    "final_points_target",
    "scoring_table",
)
SPEC = FormatSpec(slug="knockout", stages=("main", "lucky_loser", "final"), min_players=2, settings_used=SETTINGS)

MAIN, LUCKY_LOSER, FINAL = "main", "lucky_loser", "final"
DUEL_WINS_NEEDED = 1

# Choices the organiser can make when a player count does not split.
ONE_MORE_ADVANCES = seating.ONE_MORE_ADVANCES
MORE_PLAYERS = seating.MORE_PLAYERS
ONE_FEWER = seating.ONE_FEWER
FEWER_PLAYERS = seating.FEWER_PLAYERS
LARGER_TABLE = seating.LARGER_TABLE


@dataclass(frozen=True)
class KnockoutSettings:
    preferred: int = 3
    largest: int = 4
    final_size: int = 3
    wins_needed: int = 3
    wins_needed_large_table: int = 2
    points_target: int = 500


def wins_needed_at(table_size: int, *, wins_needed: int, wins_needed_large_table: int, largest: int) -> int:
    """Games a player must win to take a table of ``table_size`` players.

    The rules: three games, two at a four-player table (the largest size).
    """
    if table_size < 2:
        raise FormatError("table_too_small", size=table_size)
    return wins_needed_large_table if table_size >= largest and largest > 2 else wins_needed


def table_places(wins: Mapping[int, int], start_numbers: Mapping[int, int]) -> list[int]:
    """Player ids in table order: most games won first, then lower start number."""
    return sorted(wins, key=lambda pid: (-wins[pid], start_numbers[pid]))


def table_winner(wins: Mapping[int, int], needed: int) -> int | None:
    """The player id that reached ``needed`` wins, if any."""
    reached = [pid for pid, count in wins.items() if count >= needed]
    return reached[0] if reached else None


# --- snapshots -----------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    id: int
    start_number: int
    club: str = ""


@dataclass(frozen=True)
class SeatResult:
    """A player's result at a decided table. ``place`` 1 is the table winner."""

    player_id: int
    place: int
    games_won: int


@dataclass(frozen=True)
class TableResult:
    number: int
    seats: tuple[SeatResult, ...]
    is_duel: bool = False

    @property
    def winner(self) -> int:
        return min(self.seats, key=lambda seat: seat.place).player_id

    @property
    def losers(self) -> tuple[SeatResult, ...]:
        return tuple(seat for seat in self.seats if seat.place != 1)


@dataclass(frozen=True)
class RoundResult:
    """A finished round. For the final, ``final_order`` lists every finalist by place."""

    number: int
    stage: str
    tables: tuple[TableResult, ...]
    final_order: tuple[int, ...] = ()


@dataclass(frozen=True)
class NextRound:
    """The next round to seat, or the options when its player count does not split.

    ``players`` are the ids to seat; ``largest`` the table size limit to seat
    them with (one more than the setting when the organiser chose a larger
    table). ``added`` were moved up by a choice, ``dropped`` left by one.
    ``options`` is non-empty only when a choice is needed and none was given.
    """

    stage: str
    players: tuple[int, ...]
    largest: int
    added: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()
    options: tuple[SeatingOption, ...] = ()
    choice: str = ""

    @property
    def needs_choice(self) -> bool:
        return bool(self.options)


@dataclass(frozen=True)
class Finished:
    """The tournament is decided; ``ranking`` places everyone."""

    ranking: tuple[RankEntry, ...]


# --- the next round ----------------------------------------------------------------


def plan_next_round(
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundResult],
    settings: KnockoutSettings,
    choice: str = "",
) -> NextRound | Finished:
    """What comes after ``rounds`` (all decided): the next round or the end.

    ``choice`` is one of the option codes when a count did not split before.
    """
    start = {e.id: e.start_number for e in entrants}
    if not rounds:
        ids = tuple(sorted(start, key=start.__getitem__))
        if len(ids) < 2:
            raise FormatError("too_few_players", players=len(ids), needed=2)
        if len(ids) <= settings.largest:
            return NextRound(stage=FINAL, players=ids, largest=settings.largest)
        return _fit(MAIN, ids, (), settings, choice, allow_more=False, allow_fewer=False)

    last = rounds[-1]
    if last.stage == FINAL:
        return Finished(ranking=tuple(rank_players(entrants, rounds)))
    stages = [r.stage for r in rounds]
    if last.stage == MAIN and LUCKY_LOSER not in stages and len([s for s in stages if s == MAIN]) == 1:
        losers = _by_strength([seat for table in last.tables for seat in table.losers], start)
        return _fit(LUCKY_LOSER, tuple(s.player_id for s in losers), (), settings, choice, allow_more=False)

    advancing = [table.winner for table in last.tables]
    if last.stage == LUCKY_LOSER:
        first_main = next(r for r in rounds if r.stage == MAIN)
        advancing = [table.winner for table in first_main.tables] + advancing
    runners_up = tuple(
        s.player_id for s in _by_strength([seat for table in last.tables for seat in table.losers], start)
    )
    return _after_advancing(tuple(advancing), runners_up, settings, choice)


def _after_advancing(
    advancing: tuple[int, ...], runners_up: tuple[int, ...], settings: KnockoutSettings, choice: str
) -> NextRound:
    count = len(advancing)
    if settings.final_size <= count <= settings.largest:
        return NextRound(stage=FINAL, players=advancing, largest=settings.largest)
    if count < settings.final_size:
        # Too few winners for the final: the best runners-up fill it.
        extra = runners_up[: settings.final_size - count]
        return NextRound(stage=FINAL, players=advancing + extra, largest=settings.largest, added=extra)
    return _fit(MAIN, advancing, runners_up, settings, choice, allow_fewer=False)


def _fit(
    stage: str,
    players: tuple[int, ...],
    reserve: tuple[int, ...],
    settings: KnockoutSettings,
    choice: str,
    *,
    allow_more: bool = True,
    allow_fewer: bool = True,
) -> NextRound:
    """Seat ``players`` as they are, or apply the organiser's choice.

    ``reserve`` are the players who could move up (best first); ``players`` are
    ordered so that the last ones are the first to drop (lucky-loser round).
    """
    options = [
        option
        for option in explain_impossible(len(players), settings.preferred, settings.largest)
        if (option.code in (ONE_MORE_ADVANCES, MORE_PLAYERS) and allow_more and len(reserve) >= option.params["extra"])
        or (option.code in (ONE_FEWER, FEWER_PLAYERS) and allow_fewer)
        or option.code == LARGER_TABLE
    ]
    if not options:
        if not explain_impossible(len(players), settings.preferred, settings.largest):
            return NextRound(stage=stage, players=players, largest=settings.largest)
        raise FormatError("no_seating_possible", players=len(players))
    chosen = next((option for option in options if option.code == choice), None)
    if chosen is None:
        return NextRound(stage=stage, players=players, largest=settings.largest, options=tuple(options))
    if chosen.code in (ONE_MORE_ADVANCES, MORE_PLAYERS):
        extra = reserve[: chosen.params["extra"]]
        return NextRound(stage=stage, players=players + extra, largest=settings.largest, added=extra, choice=choice)
    if chosen.code in (ONE_FEWER, FEWER_PLAYERS):
        keep = len(players) - chosen.params["fewer"]
        return NextRound(
            stage=stage, players=players[:keep], largest=settings.largest, dropped=players[keep:], choice=choice
        )
    return NextRound(stage=stage, players=players, largest=chosen.params["size"], choice=choice)


def _by_strength(seats: Sequence[SeatResult], start: Mapping[int, int]) -> list[SeatResult]:
    """Best first: higher place at the table, more games won, lower start number."""
    return sorted(seats, key=lambda seat: (seat.place, -seat.games_won, start[seat.player_id]))


# --- the final -----------------------------------------------------------------------


@dataclass(frozen=True)
class FinalState:
    """Where a points final stands.

    ``winner`` reached the target (None while playing). ``order`` lists the
    others by points; ``ties`` groups players whose order a duel must decide.
    """

    winner: int | None
    order: tuple[int, ...] = ()
    ties: tuple[tuple[int, ...], ...] = ()


def final_state(points: Mapping[int, int], target: int, start_numbers: Mapping[int, int]) -> FinalState:
    """The final is decided once a player has at least ``target`` points.

    Only a game's winner scores, so at most one player crosses the target per
    game; the highest total is the winner.
    """
    if target < 1:
        raise FormatError("points_target_too_small", target=target)
    leader = max(points, key=lambda pid: (points[pid], -start_numbers[pid]))
    if points[leader] < target:
        return FinalState(winner=None)
    others = sorted((pid for pid in points if pid != leader), key=lambda pid: (-points[pid], start_numbers[pid]))
    ties: list[tuple[int, ...]] = []
    for pid in others:
        group = tuple(p for p in others if points[p] == points[pid])
        if len(group) > 1 and group not in ties:
            ties.append(group)
    return FinalState(winner=leader, order=(leader, *others), ties=tuple(ties))


def resolve_final_order(state: FinalState, duels: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The final's order once each tie group is replaced by its duel's order."""
    order = list(state.order)
    for group, duel_order in zip(state.ties, duels, strict=True):
        if sorted(group) != sorted(duel_order):
            raise FormatError("duel_players_mismatch")
        first = order.index(group[0])
        order[first : first + len(group)] = list(duel_order)
    return tuple(order)


# --- the final ranking -------------------------------------------------------------


RULE_FINAL_PLACE = "final_place"
RULE_DUEL = "duel"
RULE_ROUND_REACHED = "round_reached"
RULE_GAMES_WON = "games_won"
RULE_START_NUMBER = "start_number"


@dataclass(frozen=True)
class RankEntry:
    """A place in the final ranking; ``decided_by`` names the rule that put this
    player below the one above (empty for the first place)."""

    place: int
    player_id: int
    reached: str
    reached_round: int
    games_won: int
    start_number: int
    decided_by: str = ""
    final_place: int | None = field(default=None)


def _depth(stage: str, number: int, main_index: int) -> int:
    # Round 1 < lucky-loser round < round 2 < round 3 ... < final
    if stage == FINAL:
        return 10_000
    if stage == LUCKY_LOSER:
        return 3
    return 2 * main_index


def rank_players(entrants: Sequence[Entrant], rounds: Sequence[RoundResult]) -> list[RankEntry]:
    """Everyone, by how far they got, then games won at their last table, then
    start number. Finalists come first in the final's order."""
    start = {e.id: e.start_number for e in entrants}
    last_seen: dict[int, tuple[int, str, int, int]] = {}  # id -> (depth, stage, round number, games won)
    main_index = 0
    final_order: tuple[int, ...] = ()
    duels: list[set[int]] = []  # players tied on points in the final, who played a duel
    for rnd in rounds:
        if rnd.stage == MAIN:
            main_index += 1
        if rnd.stage == FINAL:
            final_order = rnd.final_order
        depth = _depth(rnd.stage, rnd.number, main_index)
        for table in rnd.tables:
            if table.is_duel:
                duels.append({seat.player_id for seat in table.seats})
                continue
            for seat in table.seats:
                last_seen[seat.player_id] = (depth, rnd.stage, rnd.number, seat.games_won)
    final_place = {pid: index for index, pid in enumerate(final_order, start=1)}

    def seen(pid: int) -> tuple[int, str, int, int]:
        return last_seen.get(pid, (0, "", 0, 0))

    def final_rule(above: int, below: int) -> str:
        # Tied on points in the final, the two played a duel: it decided their order.
        return RULE_DUEL if any({above, below} <= players for players in duels) else RULE_FINAL_PLACE

    ranked = rank_by(
        start,
        [
            (RULE_ROUND_REACHED, lambda pid: -seen(pid)[0]),
            (final_rule, lambda pid: final_place.get(pid, 0)),
            (RULE_GAMES_WON, lambda pid: -seen(pid)[3]),
            (RULE_START_NUMBER, lambda pid: start[pid]),
        ],
    )
    return [
        RankEntry(
            place=place,
            player_id=pid,
            reached=seen(pid)[1],
            reached_round=seen(pid)[2],
            games_won=seen(pid)[3],
            start_number=start[pid],
            decided_by=decided_by,
            final_place=final_place.get(pid),
        )
        for place, pid, decided_by in ranked
    ]
