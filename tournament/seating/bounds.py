"""Lower and upper bounds the organiser sees beside a plan: the repeats no seating can
avoid, the repeat-free rounds any schedule can reach (from scratch and from a history).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournament.seating.pairs import MetInput, _met_counts, _player_id
from tournament.seating.plan import SeatingPlayer
from tournament.seating.sizes import table_sizes


def unavoidable_repeats(
    players: Iterable[SeatingPlayer | int],
    met: MetInput,
    sizes: Sequence[int],
    last_round_pairs: Iterable[Iterable[int]] = (),
) -> int:
    """A lower bound on the repeated pairs of any seating of ``players`` at ``sizes``.

    A player seated at a table of ``s`` shares it with ``s - 1`` others. If
    among the players present fewer than ``min(sizes) - 1`` are new to them,
    at least ``min(sizes) - 1 - new`` of their table partners are repeats.
    Summing this deficit over players counts every repeated pair at most twice
    (once from each side), so half of the sum, rounded up, is sound.

    Second, by pairs: the round seats ``sum(C(s, 2))`` pairs, and only the pairs
    of present players who never met can be new, so the rest are repeats
    (6 players at two tables of 3 after two repeat-free rounds: 6 pairs to seat,
    3 unmet left, at least 3 repeats).

    Third, by the last round's tables (``last_round_pairs``, pigeonhole): the
    ``m`` present players of one earlier table, spread over the round's ``T``
    tables as evenly as can be, still share ``r * C(q + 1, 2) + (T - r) * C(q, 2)``
    pairs (``q, r = divmod(m, T)``); these pairs differ from table to table, so
    the sum is sound (8 players at two tables of 4 after one round: 4 repeats).

    The largest of the three is returned. It is 0 whenever players still have
    enough fresh opponents and pairs, even where the true minimum is higher
    (the bound is simple, not tight).
    """
    ids = {_player_id(player) for player in players}
    if not sizes or not ids:
        return 0
    seen: dict[int, set[int]] = {}
    for pair in _met_counts(met):
        first, second = tuple(pair)
        if first in ids and second in ids:
            seen.setdefault(first, set()).add(second)
            seen.setdefault(second, set()).add(first)
    need = min(sizes) - 1
    deficit = 0
    for pid in ids:
        fresh = len(ids) - 1 - len(seen.get(pid, ()))
        deficit += max(0, need - fresh)
    met_among_present = sum(len(partners) for partners in seen.values()) // 2
    unmet = len(ids) * (len(ids) - 1) // 2 - met_among_present
    seated_pairs = sum(size * (size - 1) // 2 for size in sizes)
    return max((deficit + 1) // 2, seated_pairs - unmet, _spread_bound(ids, last_round_pairs, len(sizes)))


def _spread_bound(ids: set[int], last_round_pairs: Iterable[Iterable[int]], table_count: int) -> int:
    """The repeats forced by spreading each earlier table's present players over ``table_count``
    tables (see ``unavoidable_repeats``). The tables are the components of the pairs' graph."""
    parent: dict[int, int] = {}

    def root(pid: int) -> int:
        while parent.setdefault(pid, pid) != pid:
            parent[pid] = parent[parent[pid]]
            pid = parent[pid]
        return pid

    for pair in last_round_pairs:
        first, second = tuple(pair)
        if first in ids and second in ids:
            parent[root(first)] = root(second)
    group_sizes: dict[int, int] = {}
    for pid in parent:
        group_sizes[root(pid)] = group_sizes.get(root(pid), 0) + 1
    bound = 0
    for size in group_sizes.values():
        q, r = divmod(size, table_count)
        bound += r * (q + 1) * q // 2 + (table_count - r) * q * (q - 1) // 2
    return bound


def repeat_free_rounds_bound(n: int, preferred: int = 3, largest: int = 4) -> int:
    """The most rounds any schedule can seat ``n`` players at the tables of
    ``tabletable_sizes(n, preferred, largest)`` (the same split every round) without
    two players sharing a table twice.

    Upper bounds (always applied):

    * per player: everyone meets at least ``min(sizes) - 1`` new players a round,
      out of ``n - 1``;
    * pairs: a round uses ``sum(C(s, 2))`` of the ``C(n, 2)`` pairs;
    * pigeonhole: a second round needs every table's players to come from
      different tables of the first, so with a table larger than the number
      of tables only 1 round is possible (e.g. 6 at 3-3, 7 at 4-3, 8 at 4-4).

    Exact values where design theory settles the question (all tables of size s,
    ``n`` a multiple of s); the value returned is then reached by a known schedule:

    * s = 3, n = 3 (mod 6): ``(n - 1) / 2`` (Kirkman triple systems exist for every
      such n: Ray-Chaudhuri & Wilson, "Solution of Kirkman's schoolgirl problem",
      1971; n = 15 is Kirkman's 1850 puzzle).
    * s = 3, n = 0 (mod 6), n >= 18: ``(n - 2) / 2`` (nearly Kirkman triple systems:
      Baker & Wilson 1977, Brouwer 1978, Rees & Stinson 1987). n = 12: 4 (no
      NKTS(12) exists, Kotzig & Rosa 1974; 4 rounds are easy to find). n = 6: 1
      (pigeonhole).
    * s = 4, n = 4 (mod 12): ``(n - 1) / 3`` (resolvable (v, 4, 1)-designs: Hanani,
      Ray-Chaudhuri & Wilson, "On resolvable designs", 1972; n = 16 is the affine
      plane of order 4).
    * s = q a prime power, n = q^2: ``q + 1`` (the affine plane AG(2, q)), e.g. 25
      players at tables of 5 play 6 rounds.

    Everywhere else (tables of mixed sizes, e.g. 13 players at 4-3-3-3; tables of
    4 with n = 0 or 8 mod 12; larger tables) the figure is only the counting
    upper bound: no schedule does better, but one reaching it may not exist.
    Raises ``SeatingImpossible`` when ``n`` does not split; 0 for no players.
    """
    if n <= 0:
        return 0
    sizes = table_sizes(n, preferred, largest)
    if len(sizes) == 1:
        return 1
    smallest = min(sizes)
    pairs = sum(size * (size - 1) // 2 for size in sizes)
    bound = min((n - 1) // (smallest - 1), (n * (n - 1) // 2) // pairs)
    if max(sizes) > len(sizes):
        return 1
    if len(set(sizes)) == 1:
        size = sizes[0]
        if size == 3 and n in (6, 12):
            return 1 if n == 6 else 4
        # The exact cases above equal the counting bound there; nothing to tighten.
    return bound


def further_rounds_bound(
    n: int, sizes: Sequence[int], met_degree: Sequence[int], met_pairs: int, preferred: int, largest: int
) -> int:
    """At most how many more rounds ``n`` players at ``sizes`` can play without a repeated pair.

    ``met_degree[i]`` is how many of the present players player i already met,
    ``met_pairs`` how many pairs of present players met. Each player needs
    ``min(sizes) - 1`` fresh opponents a round, each round uses ``sum(C(s, 2))``
    fresh pairs, and no schedule beats ``repeat_free_rounds_bound`` even from
    scratch. An upper bound, not always reachable.
    """
    if not sizes or n <= 0:
        return 0
    need = min(sizes) - 1
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    if need <= 0 or per_round <= 0:
        return 0
    fresh_players = min(n - 1 - degree for degree in met_degree) if met_degree else n - 1
    fresh_pairs = n * (n - 1) // 2 - met_pairs
    return max(
        0,
        min(fresh_players // need, fresh_pairs // per_round, repeat_free_rounds_bound(n, preferred, largest)),
    )
