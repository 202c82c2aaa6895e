"""Draws by lot, pure and reproducible: start numbers and the tombola.

The same seed and the same set of player ids always give the same result:
ids are sorted first so the database's row order does not matter.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

START_NUMBER_ALGORITHM = "sorted-shuffle-v1"


def new_seed() -> int:
    """A fresh seed that fits a signed 64-bit column and is easy to read out."""
    return secrets.randbelow(10**9)


def draw_start_numbers(player_ids: Iterable[int], seed: int) -> list[tuple[int, int]]:
    """Return (player_id, start_number) pairs, numbers 1..n in order."""
    order = sorted(set(player_ids))
    random.Random(seed).shuffle(order)
    return [(player_id, number) for number, player_id in enumerate(order, start=1)]


# --------------------------------------------------------------------------
# The tombola: a prize at a time, by lot among the players present
# --------------------------------------------------------------------------

TOMBOLA_ALGORITHM = "sorted-choice-v1"


def tombola_pool(
    present: Iterable[int],
    *,
    winners: Iterable[int] = (),
    absent: Iterable[int] = (),
    excluded: Iterable[int] = (),
    repeat_allowed: bool = False,
) -> list[int]:
    """The players a prize is drawn among, sorted: those ``present`` (checked in, not withdrawn),
    less those marked ``absent`` at any draw (never drawn again), those ``excluded`` by the
    settings (the podium) and, unless ``repeat_allowed``, those who hold a prize already."""
    pool = set(present) - set(absent) - set(excluded)
    if not repeat_allowed:
        pool -= set(winners)
    return sorted(pool)


def draw_tombola_winner(pool: Iterable[int], seed: int) -> int | None:
    """The winner of one prize: one of ``pool`` by lot, None for an empty pool.

    Reproducible: the same seed and the same set of ids give the same winner, whatever their
    order (sorted first, as the start numbers). A stored draw keeps its seed and its pool, so
    anyone can check it afterwards: ``draw_tombola_winner(draw.pool, draw.seed) == draw.winner``."""
    order = sorted(set(pool))
    if not order:
        return None
    return order[random.Random(seed).randrange(len(order))]


@dataclass(frozen=True)
class TombolaDrawn:
    """One draw of a tombola replayed by ``run_tombola``: the prize, its pool and the winner."""

    prize: int
    pool: tuple[int, ...]
    winner: int | None


def run_tombola(
    present: Iterable[int],
    steps: Sequence[tuple[str, int, int]],
    *,
    excluded: Iterable[int] = (),
    repeat_allowed: bool = False,
) -> tuple[dict[int, int], list[TombolaDrawn]]:
    """A whole tombola as the organiser taps it, the reference the services follow step by step.

    ``steps`` are ``("draw", prize, seed)`` (draw ``prize``, which holds no winner, with
    ``seed``) and ``("absent", prize, 0)`` (its winner is not there: the prize is open again
    and that player is never drawn again). Returns each prize's winner and every draw made;
    a draw with nobody left gives no winner (the service refuses it). A step that does not
    apply (drawing a prize that has a winner, marking an open prize) is skipped."""
    present_ids = sorted(set(present))
    excluded_ids = set(excluded)
    winners: dict[int, int] = {}
    absent: set[int] = set()
    drawn: list[TombolaDrawn] = []
    for kind, prize, seed in steps:
        if kind == "absent":
            if prize in winners:
                absent.add(winners.pop(prize))
            continue
        if prize in winners:
            continue
        pool = tombola_pool(
            present_ids,
            winners=winners.values(),
            absent=absent,
            excluded=excluded_ids,
            repeat_allowed=repeat_allowed,
        )
        winner = draw_tombola_winner(pool, seed)
        drawn.append(TombolaDrawn(prize, tuple(pool), winner))
        if winner is not None:
            winners[prize] = winner
    return winners, drawn
