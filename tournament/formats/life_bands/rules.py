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
- Grand final: the order of elimination gives places 4, 3, 2 (each decided as the player
  goes out); the last player left wins. Everyone else is ranked by when they went out
  (later is better); while play goes on, those still in by what the format counts: still
  in the main round, bands left, chips (``rank_players``).

Any count from 3 players can be seated. The main round (``plan_main``) asks the
organiser where its count does not split into tables of the settings (5 at
3-4), with what keeps every player at a table (``seating.widened_options``):
a larger table (5 at one table of 5: 2 go out there, as at 4, and 3 are left
for the final table), or a smaller one, never below 3 (6 at tables of exactly
4: two tables of 3, 1 out at each). Nobody can be left out or added: a player
who sat out a round would keep a band the others risked. The consolation pool
(``plan_pool``) never needs a choice: it seats who it can and the rest wait
for the players still to come (survivors return to it). The grand final seats
whoever reached it at one table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tournament.formats.base import CLUBS_APART, SEATING_SETTINGS, FormatError, FormatSpec, rank_by
from tournament.seating import LARGER_TABLE, SeatingImpossible, SeatingOption, table_sizes, widened_options

# The tournament settings this format reads (the settings page shows these).
SETTINGS = (
    *SEATING_SETTINGS,
    CLUBS_APART,
    "life_bands",
    "chips_per_table",
    "chips_grand_final",
    "sharp_play_minutes",
    "schocken_street",
)
SPEC = FormatSpec(
    slug="life_bands", stages=("main", "consolation", "grand_final"), min_players=3, settings_used=SETTINGS
)

GRAND_FINAL_SIZE = 4
WINNERS_PER_FINAL_TABLE = 2
# The largest final table whose decision leaves exactly 2 winners (2 out at 4, 1 at 3).
FINAL_TABLE_MAX = 4
# The table sizes the rules know (1 goes out at 3, 2 at 4): a main-round table outside them
# gets a note on its round, and no table is ever made smaller than RULES_SMALLEST.
RULES_SMALLEST = 3
RULES_LARGEST = 4


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


def grand_final_place(table_size: int, out_order: int) -> int:
    """The place of the grand finalist who went out ``out_order``-th (1 = first out): the order of
    elimination gives the places from the back (4, 3, 2 at a table of 4). Decided the moment
    the player goes out, before the grand final ends."""
    return table_size - out_order + 1


def is_sharp_play(started_at: datetime, now: datetime, minutes: int, *, grand_final: bool) -> bool:
    """After ``minutes`` every table but the grand final plays one half only."""
    return not grand_final and now - started_at >= timedelta(minutes=minutes)


# --- main round -------------------------------------------------------------------


@dataclass(frozen=True)
class MainPlan:
    """What the main round does next with its ``survivors``.

    ``winners`` set: the main round is over, they reach the grand final.
    ``final_table`` set: seat them at the main round's final table.
    Otherwise seat ``sizes`` tables, drawn at tables of ``preferred``..``largest`` (the
    bounds the seating takes its sizes from), with ``chosen`` the organiser's option where
    the settings' sizes do not fit; ``options`` alone when the organiser must choose first.
    """

    winners: tuple[int, ...] = ()
    final_table: tuple[int, ...] = ()
    sizes: tuple[int, ...] = ()
    options: tuple[SeatingOption, ...] = ()
    preferred: int = 0
    largest: int = 0
    chosen: SeatingOption | None = None


def plan_main(survivors: Sequence[int], preferred: int, largest: int, choice: str = "") -> MainPlan:
    """The next main round for ``survivors`` (in a stable order).

    Where the count does not split into tables of ``preferred``..``largest``, the options of
    ``seating.widened_options`` (a larger table, or a smaller one of at least 3; one always
    exists): ``choice`` naming one seats the round that way; without it (or with a code that
    is not among them) the plan carries the options. A choice is ignored where the sizes fit.
    """
    count = len(survivors)
    if count <= WINNERS_PER_FINAL_TABLE:
        return MainPlan(winners=tuple(survivors))
    # A final table has at most 4 seats: at 5 or more, more than 2 would be left.
    if count <= FINAL_TABLE_MAX:
        return MainPlan(final_table=tuple(survivors))
    options = widened_options(count, preferred, largest, RULES_SMALLEST)
    if not options:
        try:
            sizes = table_sizes(count, preferred, largest)
        except SeatingImpossible:  # not reached: widened_options has an option for every count
            raise FormatError("no_seating_possible", players=count) from None
        return MainPlan(sizes=tuple(sizes), preferred=preferred, largest=largest)
    chosen = next((option for option in options if option.code == choice), None)
    if chosen is None:
        return MainPlan(options=tuple(options))
    size = chosen.params["size"]
    low, high = (preferred, size) if chosen.code == LARGER_TABLE else (size, largest)
    return MainPlan(sizes=chosen.sizes, preferred=low, largest=high, chosen=chosen)


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

    No count needs the organiser's choice: where the waiting players do not
    split (5 at 3-4), a table of ``preferred`` is formed and the rest wait for
    its survivors, who return to the pool (a consolation table always leaves
    survivors), so nobody is stuck and no table leaves the settings' sizes.
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
RULE_STILL_IN_MAIN = "still_in_main"
RULE_MORE_BANDS = "more_bands"
RULE_MORE_CHIPS = "more_chips"
RULE_WENT_OUT_LATER = "went_out_later"
RULE_START_NUMBER = "start_number"


@dataclass(frozen=True)
class RankEntry:
    place: int
    player_id: int
    grand_final_place: int | None
    out_sequence: int | None
    decided_by: str = ""


def _grand_final_places(grand_final: Sequence[int] | Mapping[int, int | None]) -> dict[int, int | None]:
    """Each grand finalist's place (None while still in it), from the mapping or the finished order."""
    if isinstance(grand_final, Mapping):
        return dict(grand_final)
    return {pid: index for index, pid in enumerate(grand_final, start=1)}


@dataclass(frozen=True)
class _Standing:
    """What ranks a player: the grand final's places, who is out, and the live counts."""

    gf_place: dict[int, int | None]
    out_sequence: Mapping[int, int]
    main: frozenset[int]
    bands_left: Mapping[int, int]
    chips_now: Mapping[int, int]

    def alive(self, pid: int) -> bool:
        """Still playing outside the grand final: the live counts rank them."""
        return pid not in self.gf_place and pid not in self.out_sequence

    def chips_of(self, pid: int) -> int:
        """The chips that count for the player: a finalist's only while still in the grand final."""
        if pid in self.gf_place:
            return self.chips_now.get(pid, 0) if self.gf_place[pid] is None else 0
        return self.chips_now.get(pid, 0) if self.alive(pid) else 0


def rank_players(
    start_numbers: Mapping[int, int],
    grand_final: Sequence[int] | Mapping[int, int | None],
    out_sequence: Mapping[int, int],
    *,
    in_main: Collection[int] = (),
    bands: Mapping[int, int] | None = None,
    chips: Mapping[int, int] | None = None,
) -> list[RankEntry]:
    """Everyone by what the format counts, best first.

    ``grand_final``: the grand finalists. A sequence lists a finished grand final best first
    (the winner, then the reverse order of elimination: its index is the place); a mapping
    gives each finalist's place, ``None`` while the player is still in it (or qualified and
    waiting for it). ``out_sequence``: players out of the tournament, a higher number went out
    later. While play goes on (the live counts, ignored for finalists and players out):
    ``in_main`` are still in the main round, ``bands`` their life bands left, ``chips`` the
    chips at their latest table.

    The order: grand finalists first (still in it above those placed, then by place); then
    still in the main round, more bands left, more chips (for finalists still in the grand
    final too), went out later, and the lower start number last: a start number decides only
    where every other rule ties. A finished tournament (everyone but the finalists out) is
    ranked by the grand final's places, then by who went out later.
    """
    now = _Standing(
        gf_place=_grand_final_places(grand_final),
        out_sequence=out_sequence,
        main=frozenset(in_main),
        bands_left=bands or {},
        chips_now=chips or {},
    )
    gf_place = now.gf_place
    ranked = rank_by(
        start_numbers,
        [
            # The player above reached the grand final; this one did not.
            (RULE_NOT_IN_GRAND_FINAL, lambda pid: pid not in gf_place),
            (RULE_GRAND_FINAL, lambda pid: gf_place.get(pid) or 0),
            (RULE_STILL_IN_MAIN, lambda pid: not (now.alive(pid) and pid in now.main)),
            (RULE_MORE_BANDS, lambda pid: -now.bands_left.get(pid, 0) if now.alive(pid) else 0),
            (RULE_MORE_CHIPS, lambda pid: -now.chips_of(pid)),
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
