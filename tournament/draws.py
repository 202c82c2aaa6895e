"""Start numbers by lot, pure and reproducible.

The same seed and the same set of player ids always give the same numbers:
ids are sorted first so the database's row order does not matter.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

START_NUMBER_ALGORITHM = "sorted-shuffle-v1"


def new_seed() -> int:
    """A fresh seed that fits a signed 64-bit column and is easy to read out."""
    return secrets.randbelow(10**9)


def draw_start_numbers(player_ids: Iterable[int], seed: int) -> list[tuple[int, int]]:
    """Return (player_id, start_number) pairs, numbers 1..n in order."""
    order = sorted(set(player_ids))
    random.Random(seed).shuffle(order)
    return [(player_id, number) for number, player_id in enumerate(order, start=1)]
