"""Table numbers: the number a new table takes while other tables are still in play."""

from __future__ import annotations

from collections.abc import Iterable


def smallest_free_number(held: Iterable[int]) -> int:
    """The number a new table takes: the smallest from 1 that no table still in play holds
    (``held``), so that the tables playing at the same time never share a number and the
    numbers stay those of the physical tables, reused as they become free (the main round's
    and the consolation round's tables draw from one sequence)."""
    taken = set(held)
    number = 1
    while number in taken:
        number += 1
    return number
