"""Format B: life bands and chips, a consolation round and a grand final. Pure.

Source: the Schocken tournament rules (rules/README.md, format B).

- Every player starts with ``life_bands`` bands (2). At each new table every
  player gets ``chips_per_table`` chips (2; 3 in the grand final). A game's
  loser hands in a chip; a player without chips has a band cut and leaves the
  table. A table of 4 is decided when 2 players are out, a table of 3 when 1 is
  (the grand final: when one player is left).
- Main round: its survivors are re-seated round after round; at most 4 left
  play the main round's final table, whose 2 winners reach the grand final
  (never more than 4, whatever the largest table size: 2 must be left).
- Consolation round: a player whose band is cut and who still has one joins a
  waiting pool, refilled continuously. Tables are formed as soon as enough
  players wait; survivors return to the pool. When nothing more can arrive and
  at most 4 remain, they play the consolation final table; its 2 winners reach
  the grand final. A player whose last band is cut is out of the tournament.
- Grand final: the order of elimination gives places 4, 3, 2; the last player
  left wins. Everyone else is ranked by when they went out (later is better).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec, rank_by
from tournament.seating import SeatingImpossible, table_sizes

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (*SEATING_SETTINGS, CLUBS_APART, "life_bands", "chips_per_table", "chips_grand_final", "sharp_play_minutes")
SPEC = FormatSpec(
    slug="life_bands", stages=("main", "consolation", "grand_final"), min_players=3, settings_used=SETTINGS
)

GRAND_FINAL_SIZE = 4
WINNERS_PER_FINAL_TABLE = 2
# The largest final table whose decision leaves exactly 2 winners (2 out at 4, 1 at 3).
FINAL_TABLE_MAX = 4


def players_out_at(table_size: int, *, grand_final: bool = False) -> int:
    """How many players leave a table before it is decided: 2 at 4+, 1 at 3;
    in the grand final all but one."""
    if table_size < 2:
        raise FormatError("table_too_small", size=table_size)
    if grand_final:
        return table_size - 1
    return 2 if table_size >= 4 else 1


def table_decided(table_size: int, players_out: int, *, grand_final: bool = False) -> bool:
    return players_out >= players_out_at(table_size, grand_final=grand_final)


def is_sharp_play(started_at: datetime, now: datetime, minutes: int, *, grand_final: bool) -> bool:
    """After ``minutes`` every table but the grand final plays one half only."""
    return not grand_final and now - started_at >= timedelta(minutes=minutes)


# --- main round -------------------------------------------------------------------


@dataclass(frozen=True)
class MainPlan:
    """What the main round does next with its ``survivors``.

    ``winners`` set: the main round is over, they reach the grand final.
    ``final_table`` set: seat them at the main round's final table.
    Otherwise seat ``sizes`` tables (``options`` when the count does not split).
    """

    winners: tuple[int, ...] = ()
    final_table: tuple[int, ...] = ()
    sizes: tuple[int, ...] = ()
    options: tuple[object, ...] = ()


def plan_main(survivors: Sequence[int], preferred: int, largest: int, choice: str = "") -> MainPlan:
    """The next main round for ``survivors`` (in a stable order)."""
    count = len(survivors)
    if count <= WINNERS_PER_FINAL_TABLE:
        return MainPlan(winners=tuple(survivors))
    # A final table has at most 4 seats: at 5 or more, more than 2 would be left.
    if count <= FINAL_TABLE_MAX:
        return MainPlan(final_table=tuple(survivors))
    try:
        return MainPlan(sizes=tuple(table_sizes(count, preferred, largest)))
    except SeatingImpossible as impossible:
        options = tuple(o for o in impossible.options if o.code == "larger_table")
        if choice == "larger_table" and options:
            return MainPlan(sizes=tuple(table_sizes(count, preferred, largest + 1)))
        if not options:
            raise FormatError("no_seating_possible", players=count) from None
        return MainPlan(options=options)


# --- consolation pool ---------------------------------------------------------------


@dataclass(frozen=True)
class PoolPlan:
    """Tables to form now from the front of the pool, in order.

    ``final`` marks the consolation final table; ``winners`` are pool players
    who reach the grand final without another table (too few players left).
    """

    sizes: tuple[int, ...] = ()
    final: bool = False
    winners: tuple[int, ...] = ()


def plan_pool(pool: Sequence[int], *, more_coming: bool, preferred: int = 3, largest: int = 4) -> PoolPlan:
    """How to seat the waiting pool (oldest first).

    ``more_coming`` is true while main-round or consolation tables are still
    playing (their losers and survivors will arrive). Then tables are formed as
    soon as ``preferred`` players wait; with exactly ``largest`` waiting, one
    table of ``largest`` so nobody is left alone to stall. When nothing more can
    arrive and at most ``largest`` remain, they are the consolation final
    table (2 of them or fewer reach the grand final directly).
    """
    count = len(pool)
    if not more_coming:
        if count <= WINNERS_PER_FINAL_TABLE:
            return PoolPlan(winners=tuple(pool))
        if count <= min(largest, FINAL_TABLE_MAX):
            return PoolPlan(sizes=(count,), final=True)
    if count < preferred:
        return PoolPlan()
    if count <= largest:
        return PoolPlan(sizes=(count,))
    try:
        return PoolPlan(sizes=tuple(table_sizes(count, preferred, largest)))
    except SeatingImpossible:
        # e.g. 5 waiting at tables of 3-4: seat 3 now, 2 wait for the survivors.
        return PoolPlan(sizes=(preferred,))


# --- ranking --------------------------------------------------------------------------

RULE_GRAND_FINAL = "grand_final_place"
RULE_NOT_IN_GRAND_FINAL = "not_in_grand_final"
RULE_WENT_OUT_LATER = "went_out_later"
RULE_START_NUMBER = "start_number"


@dataclass(frozen=True)
class RankEntry:
    place: int
    player_id: int
    grand_final_place: int | None
    out_sequence: int | None
    decided_by: str = ""


def rank_players(
    start_numbers: Mapping[int, int],
    grand_final_order: Sequence[int],
    out_sequence: Mapping[int, int],
) -> list[RankEntry]:
    """Grand finalists by their place, then everyone else by when they went out
    (a higher ``out_sequence`` is later and ranks higher), then start number.

    ``grand_final_order`` lists the grand finalists best first (the winner, then
    the reverse order of elimination); players still in play rank above those
    who went out.
    """
    gf_place = {pid: index for index, pid in enumerate(grand_final_order, start=1)}
    ranked = rank_by(
        start_numbers,
        [
            # The player above reached the grand final; this one did not.
            (RULE_NOT_IN_GRAND_FINAL, lambda pid: pid not in gf_place),
            (RULE_GRAND_FINAL, lambda pid: gf_place.get(pid, 0)),
            (RULE_WENT_OUT_LATER, lambda pid: -(out_sequence.get(pid) or 10**12)),
            (RULE_START_NUMBER, lambda pid: start_numbers[pid]),
        ],
    )
    return [
        RankEntry(
            place=place,
            player_id=pid,
            grand_final_place=gf_place.get(pid),
            out_sequence=out_sequence.get(pid),
            decided_by=decided_by,
        )
        for place, pid, decided_by in ranked
    ]
