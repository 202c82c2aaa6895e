"""Format C: fewest penalty points over re-seated rounds. Pure.

Source: the Italian club tournament (rules/README.md, format C). Every round
seats all checked-in players (but those who pause) at tables of 3-4, keeping players who already met
apart (``tournament.seating.seat_avoiding_repeats``). After each game every
player still holding cards takes their value as penalty points; the game's
winner takes 0. The fewest points over all games wins.

Standings: total ascending (with missed rounds counted, see below); ties broken
by games won (more is better), then the lowest single-round total, then the
lower start number. Players who have not played a game yet come last.

Any count from 3 players can be seated (``plan_tables``). Where the count does
not split into tables of the settings (5 players at 3-4), the organiser
chooses between what keeps every player in the round:

- a larger table (``larger_table``: 5 players at one table of 5). Every table
  plays the same number of games, as tables of 3 and 4 already do: a player at
  a larger table wins a game less often and meets more opponents' wins, which
  is the trade-off the format accepts between 3 and 4 already, one step on.
- a smaller table (``smaller_table``, only below a preferred size above 3,
  e.g. 6 players at tables of exactly 4: two tables of 3). Never a table of 2
  (5 as 3 + 2): the game rules allow UNO for 2, but there a player wins about
  every other game and takes points from one opponent only, far from the
  tables of 3-4 the tournament plays; a larger table always exists instead.

Late arrivals, pauses and withdrawals (between rounds; the rules document,
uno-points-tournament.it.txt, is silent on them: it only says the fewest points at the
end of the tournament's games win, "avere meno punti possibile al termine delle partite"). A late arrival is
seated from the next round on, a paused player sits out the rounds they pause, a withdrawn
player is not seated again. Every seated round a listed player has no seat in (a "missed
round", ``participation``) counts as **that round's highest round total** among the players
seated in it (``standings`` with ``seated``). Why the worst and not 0 or the average: fewest
points win, so 0 would reward staying away, and the average would still reward a weak
player for pausing (their own expected score is above it); at the worst score, missing a
round never pays. It is computed from the games played, never stored, so a correction of
a game moves it too. Withdrawn players stay in the ranking by the same rule (their rounds
played plus the worst of each round after they left): one rule for every missed round,
whatever the reason, and a withdrawal never helps. Games won and the best round count
played rounds only.

Not offered: a bye (one player sits out the round). Fewest points win, so a
bye worth 0 points would reward sitting out; a fair bye (say the round's
average) would be a result nobody played, to be stored, shown, exported and
corrected like a game. Nor leaving out or adding players (``one_fewer``,
``more_players``): nobody is knocked out in this format, and nobody waits to
come in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec, rank_by
from tournament.seating import LARGER_TABLE, SeatingOption, short_size, table_sizes, widened_options

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (
    *SEATING_SETTINGS,
    CLUBS_APART,
    "rounds_planned",
    "games_per_round",
    "round_time_limit_minutes",
    "scoring_table",
)
SPEC = FormatSpec(slug="points", stages=("main",), min_players=3, settings_used=SETTINGS)

# No table seats fewer (see the module docstring), whatever the settings allow.
SMALLEST_TABLE = 3

RULE_TOTAL = "total"
RULE_GAMES_WON = "games_won"
RULE_BEST_ROUND = "best_round"
RULE_START_NUMBER = "start_number"


@dataclass(frozen=True)
class GameResult:
    """One game: its round, its winner and every player's penalty points."""

    round_number: int
    winner: int
    points: Mapping[int, int]


def game_penalties(winner: int, cards_left: Mapping[int, int]) -> dict[int, int]:
    """Penalty points of one game: the winner takes 0, everyone else the value
    of the cards left in their hand. Values must not be negative."""
    if any(value < 0 for value in cards_left.values()):
        raise FormatError("negative_points")
    penalties = {pid: value for pid, value in cards_left.items() if pid != winner}
    penalties[winner] = 0
    return penalties


@dataclass(frozen=True)
class StandingRow:
    place: int
    player_id: int
    total: int
    games_won: int
    games_played: int
    best_round: int | None
    round_totals: tuple[tuple[int, int], ...]
    decided_by: str = ""
    # Seated rounds the player had no seat in, each with the points it counts (the round's worst total).
    missed_rounds: tuple[tuple[int, int], ...] = ()


class RoundTotal(NamedTuple):
    """One player's valid games of one round, summed: what the standings count of them.

    ``reads.ranking`` has the database sum them (a row per player and round instead of one
    per score); ``round_totals`` sums ``GameResult`` the same way. ``won`` counts the games
    of the round the player won."""

    player_id: int
    round_number: int
    points: int
    games: int
    won: int


def round_totals(games: Iterable[GameResult]) -> list[RoundTotal]:
    """The games summed per player and round. A winner without points in the game (the
    format always writes the winner's 0, ``game_penalties``) still counts the win, with a
    total of no games for that round."""
    summed: dict[tuple[int, int], list[int]] = {}
    for game in games:
        for pid, points in game.points.items():
            entry = summed.setdefault((pid, game.round_number), [0, 0, 0])
            entry[0] += points
            entry[1] += 1
        summed.setdefault((game.winner, game.round_number), [0, 0, 0])[2] += 1
    return [RoundTotal(pid, number, *entry) for (pid, number), entry in summed.items()]


def standings(
    start_numbers: Mapping[int, int],
    games: Iterable[GameResult],
    seated: Mapping[int, Collection[int]] | None = None,
) -> list[StandingRow]:
    """Everyone in ``start_numbers`` (a player without games has 0 points and
    ranks by the tie-breaks), best first, each with the rule that put them
    below the player above.

    ``seated`` (round number -> the players seated in it, every round seated so far): a
    listed player without a seat in one of these rounds (and no game in it) missed it, and
    it counts as the highest round total of that round's seated players (0 while nobody has
    points there), added to ``total`` and listed in ``missed_rounds`` (see the module
    docstring). Without ``seated`` only the games count. Games won, games played and the
    best round count played rounds only."""
    return standings_of_totals(start_numbers, round_totals(games), seated)


def standings_of_totals(
    start_numbers: Mapping[int, int],
    summed: Iterable[tuple[int, int, int, int, int]],
    seated: Mapping[int, Collection[int]] | None = None,
) -> list[StandingRow]:
    """``standings`` from the games already summed per player and round (``RoundTotal``
    or the same five values as a plain row: player, round, points, games, games won); each
    player and round at most once."""
    totals = dict.fromkeys(start_numbers, 0)
    won = dict.fromkeys(start_numbers, 0)
    played = dict.fromkeys(start_numbers, 0)
    per_round: dict[int, dict[int, int]] = {pid: {} for pid in start_numbers}
    # Every player's points per round (listed or not): a round's worst total is taken over all seated.
    round_points: dict[int, dict[int, int]] = {}
    for pid, number, points, games, wins in summed:
        if games:
            round_points.setdefault(number, {})[pid] = points
        if pid not in totals:
            continue
        won[pid] += wins
        if games:
            totals[pid] += points
            played[pid] += games
            per_round[pid][number] = points
    missed: dict[int, list[tuple[int, int]]] = {pid: [] for pid in start_numbers}
    for number, players in sorted((seated or {}).items()):
        in_round = round_points.get(number, {})
        worst = max((in_round.get(pid, 0) for pid in players), default=0)
        for pid in start_numbers:
            if pid not in players and number not in per_round[pid]:
                missed[pid].append((number, worst))
                totals[pid] += worst

    best = {pid: min(rounds.values()) if rounds else None for pid, rounds in per_round.items()}

    ranked = rank_by(
        start_numbers,
        [
            # A player without a game (a late arrival before their first round) has no total
            # yet and ranks after everyone who played, not above them with 0.
            (RULE_TOTAL, lambda pid: (played[pid] == 0, totals[pid])),
            (RULE_GAMES_WON, lambda pid: -won[pid]),
            (RULE_BEST_ROUND, lambda pid: low if (low := best[pid]) is not None else 10**9),
            (RULE_START_NUMBER, lambda pid: start_numbers[pid]),
        ],
    )
    return [
        StandingRow(
            place=place,
            player_id=pid,
            total=totals[pid],
            games_won=won[pid],
            games_played=played[pid],
            best_round=best[pid],
            round_totals=tuple(sorted(per_round[pid].items())),
            decided_by=decided_by,
            missed_rounds=tuple(missed[pid]),
        )
        for place, pid, decided_by in ranked
    ]


@dataclass(frozen=True)
class Participation:
    """Which of the seated rounds a player took part in, for the standings' words.

    ``joined``: the first round seated, where it is not round 1 (a late arrival, or paused
    from the start); ``paused``: rounds without a seat after joining and before leaving;
    ``withdrew_after``: a withdrawn player's last round seated; ``missed``: every seated
    round without a seat (also those before joining and after withdrawing). ``seated_in``
    is empty for a player not seated yet (``joined`` is then ``None``).
    """

    joined: int | None
    paused: tuple[int, ...]
    withdrew_after: int | None
    missed: tuple[int, ...]
    seated_in: tuple[int, ...]


def participation(rounds: Iterable[int], seated_in: Iterable[int], *, withdrawn: bool) -> Participation:
    """A player's ``Participation`` given every seated round's number (``rounds``) and the rounds
    they had a seat in (``seated_in``, a subset; others are ignored)."""
    all_rounds = sorted(set(rounds))
    present = set(seated_in)
    mine = tuple(number for number in all_rounds if number in present)
    missed = tuple(number for number in all_rounds if number not in mine)
    if not mine:
        return Participation(joined=None, paused=(), withdrew_after=None, missed=missed, seated_in=())
    first, last = mine[0], mine[-1]
    end = last if withdrawn else all_rounds[-1]
    return Participation(
        joined=first if first > all_rounds[0] else None,
        paused=tuple(number for number in missed if first < number <= end),
        withdrew_after=last if withdrawn else None,
        missed=missed,
        seated_in=mine,
    )


def table_decided(valid_games: int, games_per_round: int) -> bool:
    return valid_games >= games_per_round


def met_pairs(rounds: Sequence[Sequence[Sequence[int]]]) -> dict[frozenset[int], int]:
    """How often each pair of players shared a table in the given rounds."""
    met: dict[frozenset[int], int] = {}
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
    return met


def short_table_counts(rounds: Sequence[Sequence[Sequence[int]]], preferred: int) -> dict[int, int]:
    """How often each player sat at a round's short table (``seating.short_size``: the size holding
    fewer seats that round), for the next round's fair share of short tables."""
    counts: dict[int, int] = {}
    for tables in rounds:
        short = short_size([len(table) for table in tables], preferred)
        if short is None:
            continue
        for table in tables:
            if len(table) == short:
                for pid in table:
                    counts[pid] = counts.get(pid, 0) + 1
    return counts


@dataclass(frozen=True)
class TablePlan:
    """How a round is seated: at tables of ``preferred``..``largest`` players (the bounds the
    seating takes its ``sizes`` from), with ``chosen`` the organiser's option where the
    settings' sizes do not fit. When the organiser must choose first, only ``options`` is set.
    """

    preferred: int = 0
    largest: int = 0
    sizes: tuple[int, ...] = ()
    chosen: SeatingOption | None = None
    options: tuple[SeatingOption, ...] = ()


def plan_tables(count: int, preferred: int, largest: int, choice: str = "") -> TablePlan:
    """The tables of a round of ``count`` players at tables of ``preferred``..``largest``.

    Where that split does not exist, the options of ``seating.widened_options`` (a larger
    table, or a smaller one of at least ``SMALLEST_TABLE``; at least one exists for every
    count from 3): with ``choice`` naming one of them, the round is seated that way; without
    (or with a code that is not among them) the plan carries the options. A choice is
    ignored where the settings' sizes fit. Fewer than ``SMALLEST_TABLE`` players raise
    ``FormatError("too_few_players")``.
    """
    if count < SMALLEST_TABLE:
        raise FormatError("too_few_players", players=count, needed=SMALLEST_TABLE)
    options = widened_options(count, preferred, largest, SMALLEST_TABLE)
    if not options:
        return TablePlan(preferred=preferred, largest=largest, sizes=tuple(table_sizes(count, preferred, largest)))
    chosen = next((option for option in options if option.code == choice), None)
    if chosen is None:
        return TablePlan(options=tuple(options))
    size = chosen.params["size"]
    low, high = (preferred, size) if chosen.code == LARGER_TABLE else (size, largest)
    return TablePlan(preferred=low, largest=high, sizes=chosen.sizes, chosen=chosen)
