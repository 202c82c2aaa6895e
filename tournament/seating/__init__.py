"""Seating, pure Python (no Django): table sizes, seeded draws, repeat avoidance.

Three jobs, each reproducible from a seed:

* ``table_sizes`` splits ``n`` players into tables of the preferred size, using
  larger tables only as needed; where no split exists it raises
  ``SeatingImpossible`` with the options the rules allow (the organiser picks
  one; the service layer turns the stable codes into translated text).
* ``seat_players`` draws a seating for a round (knockout, life bands), optionally
  keeping players of the same club apart.
* ``seat_avoiding_repeats`` seats a re-seated round (points format) so that
  players who already met are kept apart as far as possible: fewest repeated
  pairs first, then fewest pairs repeated from the last round. Up to
  ``LINEAR_FROM`` players by a swap search (``REPEAT_AVOIDING_ALGORITHM``,
  unchanged), above it by a linear-time greedy plus bounded swaps
  (``LINEAR_ALGORITHM``); optionally the short tables go to the players with
  the fewest short-table seats so far; optionally club mates apart (above
  any repeat); for small fields with several rounds left, the remaining
  rounds planned jointly (``tournament.schedule``, ``LOOKAHEAD_ALGORITHM``).
  The plan reports a lower bound on the unavoidable repeats
  (``unavoidable_repeats``), the short-table spread, the club floor and how
  many rounds ahead stay repeat-free against the most possible
  (``further_rounds_bound``; ``repeat_free_rounds_bound`` from scratch).

Every draw sorts the player ids first and then uses ``random.Random(seed)``, so
the same seed and the same set of players give the same plan whatever order
the database returned them in. The plan carries the seed and an algorithm
version string; both are stored with the round so the draw can be recomputed.

One module per algorithm; this package re-exports the public names (``seating.X``):

* ``sizes``: table sizes and the ways out (``SeatingImpossible``, ``SeatingOption``);
* ``plan``: ``SeatingPlayer`` in, ``SeatingPlan`` out;
* ``pairs``: pairs, meetings, club conflicts and the lexicographic weights;
* ``swaps``: the swap search shared by the draws (``_SwapSearch``, ``_improve``);
* ``draw``: ``seat_players`` (shuffle and cut, clubs dealt apart);
* ``request``: ``SeatingRequest`` and the field prepared from it once for every path;
* ``repeats``: ``seat_avoiding_repeats`` / ``seat_round`` of a ``SeatingRequest``, which
  picks one of the paths below and then repairs the short tables;
* ``dense``: round by round up to ``LINEAR_FROM`` (with fixed seats too);
* ``linear``: above ``LINEAR_FROM``;
* ``lookahead``: the rounds left planned together (``schedule.plan_schedule``);
* ``design``: a known design's classes (``schedule.plan_from_design``);
* ``short_tables``: short-table fairness;
* ``bounds``: the repeats no seating avoids, the repeat-free rounds any schedule reaches;
* ``fixed``: fixed seats (``place_fixed``); ``numbering``: a new table's number.
"""

from __future__ import annotations

from tournament.seating.bounds import further_rounds_bound, repeat_free_rounds_bound, unavoidable_repeats
from tournament.seating.dense import PATIENCE, REPEAT_AVOIDING_ALGORITHM, TRIANGLE_LIMIT
from tournament.seating.draw import CLUBS_APART_ALGORITHM, SEATING_ALGORITHM, seat_players
from tournament.seating.fixed import (
    FIXED_FEWER_TABLES,
    FIXED_NUMBER_HELD,
    FIXED_TABLE_FULL,
    FixedPlacement,
    UnkeptSeat,
    place_fixed,
)
from tournament.seating.linear import (
    LINEAR_ALGORITHM,
    LINEAR_CAPPED_ALGORITHM,
    LINEAR_FROM,
    LINEAR_PASSES,
    LINEAR_SWAP_WORK,
    SWAP_TABLES,
    WINDOW,
)
from tournament.seating.lookahead import LOOKAHEAD_ALGORITHM
from tournament.seating.numbering import smallest_free_number
from tournament.seating.pairs import (
    MetInput,
    Pair,
    add_meetings,
    club_conflicts,
    count_repeated_pairs,
    repeat_free_run,
    table_pairs,
)
from tournament.seating.plan import SeatingPlan, SeatingPlayer
from tournament.seating.repeats import CLUBS_SUFFIX, FIXED_SUFFIX, seat_avoiding_repeats, seat_round
from tournament.seating.request import SeatingRequest
from tournament.seating.short_tables import (
    POLISH_TABLES,
    SHORT_FAIR_SUFFIX,
    SHUFFLE_SUFFIX,
    short_size,
    short_table_spread,
)
from tournament.seating.sizes import (
    FEWER_PLAYERS,
    FINAL_OF_ALL,
    LARGER_TABLE,
    MORE_PLAYERS,
    ONE_FEWER,
    ONE_LARGER_TABLE,
    ONE_MORE_ADVANCES,
    ONE_SMALLER_TABLE,
    PLAIN_ROUND,
    SMALLER_TABLE,
    PlannedRound,
    SeatingImpossible,
    SeatingOption,
    explain_impossible,
    table_sizes,
    widened_options,
)
from tournament.seating.swaps import DEFAULT_ATTEMPTS, DEFAULT_WORK_LIMIT, GIVE_UP

__all__ = [
    "CLUBS_APART_ALGORITHM",
    "CLUBS_SUFFIX",
    "DEFAULT_ATTEMPTS",
    "DEFAULT_WORK_LIMIT",
    "FEWER_PLAYERS",
    "FINAL_OF_ALL",
    "FIXED_FEWER_TABLES",
    "FIXED_NUMBER_HELD",
    "FIXED_SUFFIX",
    "FIXED_TABLE_FULL",
    "GIVE_UP",
    "LARGER_TABLE",
    "LINEAR_ALGORITHM",
    "LINEAR_CAPPED_ALGORITHM",
    "LINEAR_FROM",
    "LINEAR_PASSES",
    "LINEAR_SWAP_WORK",
    "LOOKAHEAD_ALGORITHM",
    "MORE_PLAYERS",
    "ONE_FEWER",
    "ONE_LARGER_TABLE",
    "ONE_MORE_ADVANCES",
    "ONE_SMALLER_TABLE",
    "PATIENCE",
    "PLAIN_ROUND",
    "POLISH_TABLES",
    "REPEAT_AVOIDING_ALGORITHM",
    "SEATING_ALGORITHM",
    "SHORT_FAIR_SUFFIX",
    "SHUFFLE_SUFFIX",
    "SMALLER_TABLE",
    "SWAP_TABLES",
    "TRIANGLE_LIMIT",
    "WINDOW",
    "FixedPlacement",
    "MetInput",
    "Pair",
    "PlannedRound",
    "SeatingImpossible",
    "SeatingOption",
    "SeatingPlan",
    "SeatingPlayer",
    "SeatingRequest",
    "UnkeptSeat",
    "add_meetings",
    "club_conflicts",
    "count_repeated_pairs",
    "explain_impossible",
    "further_rounds_bound",
    "place_fixed",
    "repeat_free_rounds_bound",
    "repeat_free_run",
    "seat_avoiding_repeats",
    "seat_players",
    "seat_round",
    "short_size",
    "short_table_spread",
    "smallest_free_number",
    "table_pairs",
    "table_sizes",
    "unavoidable_repeats",
    "widened_options",
]
