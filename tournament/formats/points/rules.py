"""Format C: fewest penalty points over re-seated rounds. Pure.

Source: the Italian club tournament (rules/README.md, format C). Every round
seats all checked-in players (but those who pause) at tables of 3-4, keeping players who already met
apart (``tournament.seating.seat_avoiding_repeats``). After each game every
player still holding cards takes their value as penalty points; the game's
winner takes 0. The fewest points over all games wins.

Standings: total ascending (with missed rounds counted, see below); ties broken by
the criteria the organiser chose and announced (``RankingRules.tie_breaks``, in order: more
games won, the lower best round, both, or none). Players who have not played a game yet come
last. The start number never decides a place (in a real test evening it decided first place:
it is drawn by lot). A tie the criteria leave is resolved where the settings ask
(``tie_places``: the podium, places 1 to 3, by default, or every place) by the chosen
``tie_resolution``:

- a play-off (default): once the last round is closed the organiser seats a play-off round
  (``Stage.PLAYOFF``), one table per tie with exactly the tied players, one game each, scored
  like any game (card points, the referee's table page, the calculator, the projector, the
  corrections). Its result orders the tied players: fewer points in the play-off first, then
  the game's winner; players still equal are a tie again, resolved by the same settings (a
  further play-off round, or a shared place below the podium). Play-off points never count in
  the totals. A play-off orders exactly the players it was seated for: a correction that
  changes who is tied makes it void and a new one due. Finishing is refused while one is due
  or playing (``services.finish``). A withdrawn player plays no play-off: the tied players
  still checked in play it and the withdrawn rank after them (``RULE_NO_PLAYOFF``).
- a shared place: the tied players take the same place (4, 4, 6).

Every other tie (below the podium with the default) is a shared place, said so in the ranking
(``RULE_SHARED``); the start number only orders the rows of a shared place. Each row names the
rule that decided its place (``decided_by``).

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
round", ``participation``) counts as the organiser announced (``RankingRules.missed``; clubs do
it in different ways):

- ``MISSED_ROUND_HIGHEST`` (default): **that round's highest round total** among the players
  seated in it (0 while nobody has points there). Fewest points win, so 0 would reward staying
  away, and the average would still reward a weak player for pausing (their own expected score
  is above it); at the worst score, missing a round never pays.
- ``MISSED_ROUND_AVERAGE``: the average round total of the players seated in that round
  (those without a game there count 0), rounded to a whole point, halves up.
- ``MISSED_OWN_AVERAGE``: the player's own average over the rounds they played, rounded the
  same way (0 before their first round; they rank last then anyway).
- ``MISSED_RANKED_AFTER``: a missed round counts nothing, but a player with a missed round
  ranks after everyone who played every round seated (``RULE_EVERY_ROUND``); among
  themselves by more rounds played first (``RULE_MORE_ROUNDS``: comparing totals over fewer
  rounds would reward missing them), then by their total over the rounds played, then the
  criteria.

It is computed from the games played, never stored, so a correction of a game moves it too.
Withdrawn players stay in the ranking by the same rule (their rounds played plus what each
round after they left counts): one rule for every missed round, whatever the reason. Games won
and the best round count played rounds only.

Not offered: a bye (one player sits out the round). Fewest points win, so a
bye worth 0 points would reward sitting out; a fair bye (say the round's
average) would be a result nobody played, to be stored, shown, exported and
corrected like a game. Nor leaving out or adding players (``one_fewer``,
``more_players``): nobody is knocked out in this format, and nobody waits to
come in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, NamedTuple

from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec
from tournament.seating import LARGER_TABLE, SeatingOption, short_size, table_sizes, widened_options

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (
    *SEATING_SETTINGS,
    CLUBS_APART,
    "rounds_planned",
    "games_per_round",
    "round_time_limit_minutes",
    "scoring_table",
    "points_missed_rounds",
    "points_tie_breaks",
    "points_tie_places",
    "points_tie_resolution",
)
SPEC = FormatSpec(
    slug="points", stages=("main", "playoff"), min_players=3, settings_used=SETTINGS, plain_round_names=True
)

# No table seats fewer (see the module docstring), whatever the settings allow.
SMALLEST_TABLE = 3

RULE_TOTAL = "total"
RULE_GAMES_WON = "games_won"
RULE_BEST_ROUND = "best_round"
# Ranked after (``MISSED_RANKED_AFTER``): played every round, then more rounds played.
RULE_EVERY_ROUND = "every_round"
RULE_MORE_ROUNDS = "more_rounds"
# A tie left by the criteria: a shared place, a play-off (decided, due, playing), or a withdrawn
# player who cannot play the play-off of their tie.
RULE_SHARED = "shared"
RULE_PLAYOFF = "playoff"
RULE_PLAYOFF_DUE = "playoff_due"
RULE_PLAYOFF_PLAYING = "playoff_playing"
RULE_NO_PLAYOFF = "no_playoff"
# The criteria the organiser may order (``Tournament.points_tie_breaks``).
TIE_BREAK_CRITERIA = (RULE_GAMES_WON, RULE_BEST_ROUND)

# What a missed round counts (``Tournament.points_missed_rounds``).
MISSED_ROUND_HIGHEST = "round_highest"
MISSED_ROUND_AVERAGE = "round_average"
MISSED_OWN_AVERAGE = "own_average"
MISSED_RANKED_AFTER = "ranked_after"
# Where a tie left by the criteria is resolved (``Tournament.points_tie_places``) and how.
TIE_PODIUM = "podium"
TIE_ALL = "all"
PODIUM = 3
TIE_PLAYOFF = "playoff"
TIE_SHARED = "shared"


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


@dataclass(frozen=True)
class RankingRules:
    """How the organiser announced the ranking (the tournament's settings, see the module docstring).

    ``missed``: what a missed round counts (``MISSED_*``); ``tie_breaks``: the criteria after the
    total, in order (``RULE_GAMES_WON``, ``RULE_BEST_ROUND``); ``tie_places``: where a tie left by
    them must be resolved (``TIE_PODIUM``: places 1 to 3, ``TIE_ALL``); ``tie_resolution``:
    ``TIE_PLAYOFF`` or ``TIE_SHARED``. Elsewhere a tie is always a shared place."""

    missed: str = MISSED_ROUND_HIGHEST
    tie_breaks: tuple[str, ...] = (RULE_GAMES_WON, RULE_BEST_ROUND)
    tie_places: str = TIE_PODIUM
    tie_resolution: str = TIE_PLAYOFF
    # False once the tournament is finished: no play-off can be seated any more, so a tie that
    # a later correction makes (or a play-off that no longer fits it) is a shared place.
    playoffs_open: bool = True


@dataclass(frozen=True)
class Playoff:
    """A play-off table: the tied players it was seated for (``players``), their points and games
    won in it (``points``, ``won``: empty until played) and whether it is decided. Play-offs are
    given oldest first; one orders exactly the players it was seated for."""

    players: frozenset[int]
    points: Mapping[int, int] = field(default_factory=dict)
    won: Mapping[int, int] = field(default_factory=dict)
    decided: bool = False


@dataclass(frozen=True)
class DuePlayoff:
    """Players tied on ``place`` (a place the settings resolve by play-off) with no play-off yet."""

    place: int
    players: tuple[int, ...]


def tie_breaks_of(setting: str) -> tuple[str, ...]:
    """The tournament's ``points_tie_breaks`` ("games_won,best_round") as criteria codes; unknown
    codes are dropped (a criterion is only ever one of ``TIE_BREAK_CRITERIA``)."""
    return tuple(code for code in setting.split(",") if code in TIE_BREAK_CRITERIA)


def standings(
    start_numbers: Mapping[int, int],
    games: Iterable[GameResult],
    seated: Mapping[int, Collection[int]] | None = None,
    rules: RankingRules = RankingRules(),
    playoffs: Sequence[Playoff] = (),
    can_play: Collection[int] | None = None,
) -> list[StandingRow]:
    """Everyone in ``start_numbers`` (a player without games has 0 points and
    ranks after everyone who played), best first, each with the rule that decided their place.

    ``seated`` (round number -> the players seated in it, every main round seated so far): a
    listed player without a seat in one of these rounds (and no game in it) missed it, and it
    counts as ``rules.missed`` says (see the module docstring), listed in ``missed_rounds``.
    Without ``seated`` only the games count. Games won, games played and the best round count
    played rounds only. Ties: ``standings_of_totals``."""
    return standings_of_totals(start_numbers, round_totals(games), seated, rules, playoffs, can_play)


def _half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to a whole number, halves up (both not negative)."""
    return (2 * numerator + denominator) // (2 * denominator)


@dataclass(frozen=True)
class _Tally:
    """The summed games of the listed players (per player and per round), and every seated player's round points."""

    totals: dict[int, int]
    won: dict[int, int]
    played: dict[int, int]
    per_round: dict[int, dict[int, int]]
    # Every player's points per round (listed or not): a round's highest and average are taken over all seated.
    round_points: dict[int, dict[int, int]]


def _tally(start_numbers: Mapping[int, int], summed: Iterable[tuple[int, int, int, int, int]]) -> _Tally:
    """Add up the summed rows: points, games and round points of played rounds, games won of every row."""
    totals = dict.fromkeys(start_numbers, 0)
    won = dict.fromkeys(start_numbers, 0)
    played = dict.fromkeys(start_numbers, 0)
    per_round: dict[int, dict[int, int]] = {pid: {} for pid in start_numbers}
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
    return _Tally(totals=totals, won=won, played=played, per_round=per_round, round_points=round_points)


def _round_counted(scores: list[int], missed: str) -> int:
    """What a missed round counts by the scores of those seated in it (``MISSED_*``; own average aside)."""
    if missed == MISSED_ROUND_AVERAGE:
        return _half_up(sum(scores), len(scores)) if scores else 0
    if missed == MISSED_RANKED_AFTER:
        return 0
    return max(scores, default=0)


def _missed_rounds(
    start_numbers: Mapping[int, int], seated: Mapping[int, Collection[int]], missed: str, tally: _Tally
) -> dict[int, list[tuple[int, int]]]:
    """Each listed player's missed rounds (not seated, no game) with what each counts, by round."""
    missed_rounds: dict[int, list[tuple[int, int]]] = {pid: [] for pid in start_numbers}
    for number, players in sorted(seated.items()):
        in_round = tally.round_points.get(number, {})
        counted = _round_counted([in_round.get(pid, 0) for pid in players], missed)
        for pid in start_numbers:
            if pid not in players and number not in tally.per_round[pid]:
                own = tally.per_round[pid]
                value = _half_up(sum(own.values()), len(own)) if own else 0
                missed_rounds[pid].append((number, value if missed == MISSED_OWN_AVERAGE else counted))
    return missed_rounds


def _sort_keys(
    rules: RankingRules,
    tally: _Tally,
    totals: Mapping[int, int],
    best: Mapping[int, int | None],
    missed: Mapping[int, list[tuple[int, int]]],
) -> list[tuple[str, Callable[[int], Any]]]:
    """The criteria that order the rows, each with the rule it names: the total first, the tie-breaks after."""
    won, played = tally.won, tally.played
    criteria = {
        RULE_GAMES_WON: lambda pid: -won[pid],
        RULE_BEST_ROUND: lambda pid: low if (low := best[pid]) is not None else 10**9,
    }
    keyed: list[tuple[str, Callable[[int], Any]]] = [
        # A player without a game (a late arrival before their first round) has no total
        # yet and ranks after everyone who played, not above them with 0.
        (RULE_TOTAL, lambda pid: played[pid] == 0),
    ]
    if rules.missed == MISSED_RANKED_AFTER:
        keyed += [
            (RULE_EVERY_ROUND, lambda pid: bool(missed[pid])),
            (RULE_MORE_ROUNDS, lambda pid: len(missed[pid])),
        ]
    keyed.append((RULE_TOTAL, lambda pid: totals[pid]))
    keyed += [(code, criteria[code]) for code in rules.tie_breaks if code in criteria]
    return keyed


@dataclass(frozen=True)
class _Ties:
    """What resolves a tie: the settings, the play-offs seated so far, who has played and who can play."""

    rules: RankingRules
    playoffs: Sequence[Playoff]
    played: Mapping[int, int]
    able: Collection[int]

    def resolve(self, tied: list[int], place: int, after: int) -> list[tuple[int, int, str]]:
        """Place the players of one tie from ``place`` on (play-offs after index ``after`` only)."""
        in_scope = self.rules.tie_places == TIE_ALL or place <= PODIUM
        if not in_scope or self.rules.tie_resolution != TIE_PLAYOFF or not self.played[tied[0]]:
            return [(place, pid, RULE_SHARED) for pid in tied]
        playing = [pid for pid in tied if pid in self.able]
        absent = [pid for pid in tied if pid not in self.able]
        placed: list[tuple[int, int, str]] = []
        if len(playing) == 1:
            placed.append((place, playing[0], RULE_NO_PLAYOFF))
        elif playing:
            placed += self._by_playoff(playing, place, after)
        if absent:
            placed.extend((place + len(playing), pid, RULE_NO_PLAYOFF) for pid in absent)
        return placed

    def _by_playoff(self, playing: list[int], place: int, after: int) -> list[tuple[int, int, str]]:
        """Place the tied players who can play by their play-off: due, playing, or decided (ties in it again)."""
        group = frozenset(playing)
        index, playoff = next(
            ((i, p) for i, p in enumerate(self.playoffs) if i > after and p.players == group), (-1, None)
        )
        if playoff is None and not self.rules.playoffs_open:
            return [(place, pid, RULE_SHARED) for pid in playing]
        if playoff is None or not playoff.decided:
            code = RULE_PLAYOFF_DUE if playoff is None else RULE_PLAYOFF_PLAYING
            return [(place, pid, code) for pid in playing]
        placed: list[tuple[int, int, str]] = []
        result = {pid: (playoff.points.get(pid, 0), -playoff.won.get(pid, 0)) for pid in playing}
        at = place
        for _result, members in groupby(sorted(playing, key=lambda pid: result[pid]), key=result.__getitem__):
            group_members = list(members)
            if len(group_members) == 1:
                placed.append((at, group_members[0], RULE_PLAYOFF))
            else:
                placed += self.resolve(group_members, at, index)
            at += len(group_members)
        return placed


def _placed(
    order: list[int],
    keys: Mapping[int, tuple[Any, ...]],
    keyed: list[tuple[str, Callable[[int], Any]]],
    ties: _Ties,
) -> list[tuple[int, int, str]]:
    """Walk the ordered players: each place with the rule that told it from the one above, ties resolved."""
    placed: list[tuple[int, int, str]] = []
    position = 1
    above: tuple[Any, ...] | None = None
    for key, members in groupby(order, key=keys.__getitem__):
        tied = list(members)
        if len(tied) == 1:
            code = ""
            if above is not None:
                code = keyed[next(i for i in range(len(key)) if key[i] != above[i])][0]
            placed.append((position, tied[0], code))
        else:
            placed += ties.resolve(tied, position, -1)
        position += len(tied)
        above = key
    return placed


def standings_of_totals(
    start_numbers: Mapping[int, int],
    summed: Iterable[tuple[int, int, int, int, int]],
    seated: Mapping[int, Collection[int]] | None = None,
    rules: RankingRules = RankingRules(),
    playoffs: Sequence[Playoff] = (),
    can_play: Collection[int] | None = None,
) -> list[StandingRow]:
    """``standings`` from the games already summed per player and round (``RoundTotal``
    or the same five values as a plain row: player, round, points, games, games won); each
    player and round at most once.

    Players equal on the total and every criterion of ``rules.tie_breaks`` are tied. A tie
    whose first place is in ``rules.tie_places`` is resolved by ``rules.tie_resolution``: a
    shared place (``RULE_SHARED``: every tied player takes the first place of the tie), or the
    decided play-off of ``playoffs`` seated for exactly these players (``RULE_PLAYOFF``: fewer
    points in it, then more games won in it; players still equal are tied again, resolved by
    a later play-off or shared). Without one, the tied players share the place for now with
    ``RULE_PLAYOFF_DUE`` (or ``RULE_PLAYOFF_PLAYING`` while it plays): ``due_playoffs`` lists
    them. Only players in ``can_play`` (default: everyone) are sent to a play-off; the others of
    the tie (withdrawn) rank after them, sharing a place (``RULE_NO_PLAYOFF``). Every other tie
    is a shared place. The start number orders rows that share a place, never a place."""
    tally = _tally(start_numbers, summed)
    missed = _missed_rounds(start_numbers, seated or {}, rules.missed, tally)
    totals = {pid: points + sum(value for _number, value in missed[pid]) for pid, points in tally.totals.items()}
    per_round = tally.per_round
    best = {pid: min(rounds.values()) if rounds else None for pid, rounds in per_round.items()}
    keyed = _sort_keys(rules, tally, totals, best, missed)
    keys = {pid: tuple(key(pid) for _code, key in keyed) for pid in start_numbers}
    # The start number only orders the rows of a shared place (and the seats of a play-off).
    order = sorted(start_numbers, key=lambda pid: (keys[pid], start_numbers[pid]))
    able = set(start_numbers) if can_play is None else set(can_play)
    placed = _placed(order, keys, keyed, _Ties(rules=rules, playoffs=playoffs, played=tally.played, able=able))
    return [
        StandingRow(
            place=place,
            player_id=pid,
            total=totals[pid],
            games_won=tally.won[pid],
            games_played=tally.played[pid],
            best_round=best[pid],
            round_totals=tuple(sorted(per_round[pid].items())),
            decided_by=decided_by,
            missed_rounds=tuple(missed[pid]),
        )
        for place, pid, decided_by in placed
    ]


def due_playoffs(rows: Sequence[StandingRow]) -> list[DuePlayoff]:
    """The ties of ``rows`` (``standings``) that wait for a play-off to be seated, by place."""
    due: dict[int, list[int]] = {}
    for row in rows:
        if row.decided_by == RULE_PLAYOFF_DUE:
            due.setdefault(row.place, []).append(row.player_id)
    return [DuePlayoff(place, tuple(players)) for place, players in sorted(due.items())]


def playoff_order(points: Mapping[int, int], won: Mapping[int, int]) -> dict[int, int]:
    """The places at a play-off table: fewer points first, then more games won; equal players
    share the place (never the start number)."""
    key = {pid: (value, -won.get(pid, 0)) for pid, value in points.items()}
    ordered = sorted(key.values())
    return {pid: ordered.index(key[pid]) + 1 for pid in key}


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
