"""Seating benchmark, pure Python (no database): the points format's repeat-avoiding round.

    make bench            (runs this after the page benchmark)
    .venv/bin/python bench/seating.py

For 50, 1,000 and 10,000 players, four rounds are seated with
``seat_avoiding_repeats`` (seeds 1-4) to build the history; the fifth round is
the one measured: wall time (best of ``BENCH_SEATING_RUNS``, default 3; one run
for 10,000) and peak memory traced by ``tracemalloc`` in a separate, untimed
run (tracing slows the code down). Also printed: the algorithm used, the
repeated pairs, the lower bound on unavoidable repeats and the short-table
spread. Results go to ``bench/seating.json`` (``fields``).

Then the lookahead (``rounds_left``) against the best known schedules (the
social golfer problem): each field seated round by round for its rounds, each
round re-planned from the history alone with ``rounds_left`` = rounds, ..., 1,
seeds 1-3: the repeat-free rounds reached (the fewest over the seeds) against
``repeat_free_rounds_bound``, and the CPU time per round (mean and largest).
Results in ``seating.json`` (``lookahead``).

Then the known repeat-free schedules (issue 28): for each case of ``DESIGN_CASES``
(players, rounds, table size: all tables of that size), the rounds seated as the
points format seats them (history, ``rounds_left``, the earlier rounds' tables),
seeds 1-3: the repeat-free rounds reached (the fewest over the seeds) against
``designs.known_rounds``, and the CPU time per round (mean and largest).
Results in ``seating.json`` (``designs``).
"""

from __future__ import annotations

import json
import os
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament import designs  # noqa: E402 (needs the path above)
from tournament.seating import (  # noqa: E402 (needs the path above)
    SeatingPlan,
    add_meetings,
    repeat_free_rounds_bound,
    seat_avoiding_repeats,
    short_size,
    table_pairs,
)

SIZES = (50, 1_000, 10_000)
HISTORY_ROUNDS = 4
RUNS = int(os.environ.get("BENCH_SEATING_RUNS", "3"))


def _history(n: int) -> tuple[dict[frozenset[int], int], set[frozenset[int]], dict[int, int]]:
    """Met pairs, the last round's pairs and short-table seats after ``HISTORY_ROUNDS`` rounds."""
    met: dict[frozenset[int], int] = {}
    last: set[frozenset[int]] = set()
    short_seats: dict[int, int] = {}
    for number in range(1, HISTORY_ROUNDS + 1):
        plan = seat_avoiding_repeats(range(n), number, met, last, short_table_history=short_seats)
        short = short_size(plan.sizes, 3)
        for table in plan.tables:
            if len(table) == short:
                for pid in table:
                    short_seats[pid] = short_seats.get(pid, 0) + 1
        met = add_meetings(met, plan.tables)
        last = table_pairs(plan.tables)
    return met, last, short_seats


def _seat(
    n: int, met: dict[frozenset[int], int], last: set[frozenset[int]], short_seats: dict[int, int]
) -> SeatingPlan:
    """The measured round: the fifth, seed 99."""
    return seat_avoiding_repeats(range(n), 99, met, last, short_table_history=short_seats)


#: (players, rounds, preferred, largest, short-table history passed).
LOOKAHEAD_CASES = (
    (9, 4, 3, 4, True),
    (12, 4, 3, 4, True),
    (13, 5, 3, 4, False),
    (13, 5, 3, 4, True),
    (15, 7, 3, 4, True),
    (16, 5, 4, 5, True),
    (18, 8, 3, 4, True),
    (21, 10, 3, 4, True),
    (25, 6, 5, 6, True),
    (27, 13, 3, 4, True),
)
LOOKAHEAD_SEEDS = (1, 2, 3)


def _lookahead(n: int, rounds: int, preferred: int, largest: int, fair: bool, seed: int) -> tuple[int, list[float]]:
    """Repeat-free rounds reached (leading run) and each round's CPU seconds."""
    met: dict[frozenset[int], int] = {}
    last: set[frozenset[int]] = set()
    short_seats: dict[int, int] = {}
    history: list[tuple[tuple[int, ...], ...]] = []
    reached, clean, times = 0, True, []
    for number in range(rounds):
        started = time.process_time()
        plan = seat_avoiding_repeats(
            range(n),
            seed * 100 + number,
            met,
            last,
            preferred,
            largest,
            short_table_history=short_seats if fair else None,
            rounds_left=rounds - number,
            history_rounds=history,
        )
        times.append(time.process_time() - started)
        clean = clean and plan.repeated_pairs == 0
        reached += clean
        short = short_size(plan.sizes, preferred)
        for table in plan.tables:
            if len(table) == short:
                for pid in table:
                    short_seats[pid] = short_seats.get(pid, 0) + 1
        met = add_meetings(met, plan.tables)
        last = table_pairs(plan.tables)
        history.append(plan.tables)
    return reached, times


def lookahead() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    header = ("players", "tables", "rounds", "fair", "reached", "bound", "ms/round", "max ms")
    print("\n" + " ".join(f"{word:>8}" for word in header))
    for n, rounds, preferred, largest, fair in LOOKAHEAD_CASES:
        reached: list[int] = []
        times: list[float] = []
        for seed in LOOKAHEAD_SEEDS:
            got, spent = _lookahead(n, rounds, preferred, largest, fair, seed)
            reached.append(got)
            times.extend(spent)
        row: dict[str, object] = {
            "players": n,
            "tables": f"{preferred}-{largest}",
            "rounds": rounds,
            "short_table_history": fair,
            "repeat_free_rounds": min(reached),
            "per_seed": reached,
            "bound": repeat_free_rounds_bound(n, preferred, largest),
            "seconds_per_round": sum(times) / len(times),
            "max_seconds_per_round": max(times),
        }
        rows.append(row)
        print(
            f"{n:>8} {f'{preferred}-{largest}':>8} {rounds:>8} {fair!s:>8} {min(reached):>8} {row['bound']:>8}"
            f" {1000 * sum(times) / len(times):>8.1f} {1000 * max(times):>8.1f}"
        )
    return rows


#: (players, rounds, table size): Kirkman triple systems, resolvable (n, 4, 1) designs, 20 golfers.
DESIGN_CASES = ((15, 7, 3), (27, 13, 3), (33, 16, 3), (39, 19, 3), (16, 5, 4), (40, 13, 4), (20, 5, 4))


def known_designs() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    header = ("players", "table", "rounds", "reached", "known", "ms/round", "max ms")
    print("\n" + " ".join(f"{word:>8}" for word in header))
    for n, rounds, size in DESIGN_CASES:
        reached: list[int] = []
        times: list[float] = []
        for seed in LOOKAHEAD_SEEDS:
            got, spent = _lookahead(n, rounds, size, size, False, seed)
            reached.append(got)
            times.extend(spent)
        known = designs.known_rounds(n, size)
        row: dict[str, object] = {
            "players": n,
            "table": size,
            "rounds": rounds,
            "repeat_free_rounds": min(reached),
            "per_seed": reached,
            "known": known,
            "seconds_per_round": sum(times) / len(times),
            "max_seconds_per_round": max(times),
        }
        rows.append(row)
        print(
            f"{n:>8} {size:>8} {rounds:>8} {min(reached):>8} {known:>8}"
            f" {1000 * sum(times) / len(times):>8.1f} {1000 * max(times):>8.1f}"
        )
    return rows


def main() -> None:
    results = []
    print(f"{'players':>8} {'time ms':>10} {'peak MiB':>9} {'repeats':>8} {'bound':>6} {'spread':>6}  algorithm")
    for n in SIZES:
        met, last, short_seats = _history(n)

        times = []
        for _ in range(RUNS if n < 10_000 else 1):
            start = time.perf_counter()
            plan = _seat(n, met, last, short_seats)
            times.append(time.perf_counter() - start)
        tracemalloc.start()
        _seat(n, met, last, short_seats)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        row = {
            "players": n,
            "seconds": min(times),
            "peak_mib": peak / 2**20,
            "repeated_pairs": plan.repeated_pairs,
            "unavoidable_repeats": plan.unavoidable_repeats,
            "short_table_spread": plan.short_table_spread,
            "algorithm": plan.algorithm,
        }
        results.append(row)
        print(
            f"{n:>8} {row['seconds'] * 1000:>10.1f} {row['peak_mib']:>9.2f} {plan.repeated_pairs:>8}"
            f" {plan.unavoidable_repeats:>6} {plan.short_table_spread:>6}  {plan.algorithm}"
        )
    figures = {"fields": results, "lookahead": lookahead(), "designs": known_designs()}
    (ROOT / "bench" / "seating.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
