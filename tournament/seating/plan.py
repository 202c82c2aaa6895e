"""The data a seating takes and gives: ``SeatingPlayer`` in, ``SeatingPlan`` out."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.seating.fixed import UnkeptSeat


@dataclass(frozen=True)
class SeatingPlayer:
    """A player to seat: the database id, the club (``""`` for none), the start number.

    Only ``id`` and ``club`` influence the draw; ``start_number`` is carried for
    callers that want it beside the plan.
    """

    id: int
    club: str = ""
    start_number: int | None = None


@dataclass(frozen=True)
class SeatingPlan:
    """A round's seating: player ids per table, in seat order.

    ``seed`` and ``algorithm`` are stored with the round. ``club_conflicts``
    counts pairs of players of the same (non-empty) club at one table;
    ``repeated_pairs`` counts pairs at one table who met before and
    ``repeats_from_last_round`` those of them who sat together in the last round
    (both 0 for draws that do not look at history). ``unavoidable_repeats`` is
    a lower bound on the repeated pairs any seating of the round must have
    (``unavoidable_repeats()``), so the organiser sees how close the plan is;
    ``short_table_spread`` is the largest minus the smallest number of
    short-table seats among the round's players, this round included
    (``short_table_spread()``). Both are 0 for draws that do not compute them.

    From ``seat_avoiding_repeats`` also: ``club_floor``, the fewest same-club
    pairs any seating of the round can have (``_club_lower_bound``; compare
    with ``club_conflicts``); ``planned_rounds``, how many rounds were planned
    jointly (1 without the lookahead); ``repeat_free_ahead``, how many of the
    planned rounds, this one first, hold no repeated pair (against the history
    and each other; 0 if this round has a repeat); ``repeat_free_ahead_bound``,
    the most any seating could reach there (``min(rounds_left,
    further_rounds_bound(...))``): the organiser's "how close".
    """

    tables: tuple[tuple[int, ...], ...]
    seed: int
    algorithm: str
    club_conflicts: int = 0
    repeated_pairs: int = 0
    repeats_from_last_round: int = 0
    unavoidable_repeats: int = 0
    short_table_spread: int = 0
    club_floor: int = 0
    planned_rounds: int = 1
    repeat_free_ahead: int = 0
    repeat_free_ahead_bound: int = 0
    #: With fixed seats (``seat_avoiding_repeats(fixed=...)``): per table the number it must take
    #: (None: any free number), and the fixed seats that could not be kept (``place_fixed``).
    numbers: tuple[int | None, ...] = ()
    unkept: tuple[UnkeptSeat, ...] = ()

    @property
    def sizes(self) -> tuple[int, ...]:
        """The number of players at each table."""
        return tuple(len(table) for table in self.tables)

    @property
    def player_ids(self) -> tuple[int, ...]:
        """Every seated player id, table by table, in seat order."""
        return tuple(pid for table in self.tables for pid in table)
