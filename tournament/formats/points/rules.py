"""Format C: fewest penalty points over re-seated rounds. Pure.

Source: the Italian club tournament (rules/README.md, format C). Every round
seats all checked-in players at tables of 3-4, keeping players who already met
apart (``tournament.seating.seat_avoiding_repeats``). After each game every
player still holding cards takes their value as penalty points; the game's
winner takes 0. The fewest points over all games wins.

Standings: total ascending; ties broken by games won (more is better), then
the lowest single-round total, then the lower start number. Players who have
not played a game yet come last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournament.formats.base import SEATING_SETTINGS, FormatError, FormatSpec, rank_by

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (*SEATING_SETTINGS, "rounds_planned", "games_per_round", "round_time_limit_minutes", "scoring_table")
SPEC = FormatSpec(slug="points", stages=("main",), min_players=3, settings_used=SETTINGS)

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


def standings(start_numbers: Mapping[int, int], games: Iterable[GameResult]) -> list[StandingRow]:
    """Everyone in ``start_numbers`` (a player without games has 0 points and
    ranks by the tie-breaks), best first, each with the rule that put them
    below the player above."""
    totals = dict.fromkeys(start_numbers, 0)
    won = dict.fromkeys(start_numbers, 0)
    played = dict.fromkeys(start_numbers, 0)
    per_round: dict[int, dict[int, int]] = {pid: {} for pid in start_numbers}
    for game in games:
        for pid, points in game.points.items():
            if pid not in totals:
                continue
            totals[pid] += points
            played[pid] += 1
            per_round[pid][game.round_number] = per_round[pid].get(game.round_number, 0) + points
        if game.winner in won:
            won[game.winner] += 1

    def best(pid: int) -> int | None:
        return min(per_round[pid].values()) if per_round[pid] else None

    ranked = rank_by(
        start_numbers,
        [
            # A player without a game (a late arrival before their first round) has no total
            # yet and ranks after everyone who played, not above them with 0.
            (RULE_TOTAL, lambda pid: (played[pid] == 0, totals[pid])),
            (RULE_GAMES_WON, lambda pid: -won[pid]),
            (RULE_BEST_ROUND, lambda pid: low if (low := best(pid)) is not None else 10**9),
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
            best_round=best(pid),
            round_totals=tuple(sorted(per_round[pid].items())),
            decided_by=decided_by,
        )
        for place, pid, decided_by in ranked
    ]


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
