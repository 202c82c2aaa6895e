"""A harness for races between two tablets: two service calls on two real
PostgreSQL connections at the same moment (or one holding its locks while the
other tries). Used by the concurrency tests of every format."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import connection, transaction

from tournament.errors import ServiceError

HOLD_SECONDS = 0.5
TIMEOUT = 30

POSTGRES_RACES = [
    pytest.mark.postgres_only,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]
MODES = pytest.mark.parametrize("interleaved", [False, True], ids=["simultaneous", "interleaved"])


@dataclass
class Outcome:
    value: object = None
    error: BaseException | None = None
    elapsed: float = 0.0


def run_two(first: Callable[[], object], second: Callable[[], object], *, interleaved: bool) -> list[Outcome]:
    """Run two service calls on two connections at the same time; return their outcomes.

    ``interleaved``: the first call keeps its transaction (and locks) open for
    ``HOLD_SECONDS`` after it is done, so the second one certainly has to wait.
    """
    barrier = threading.Barrier(2, timeout=TIMEOUT)
    first_done = threading.Event()
    outcomes = [Outcome(), Outcome()]

    def worker(index: int, call: Callable[[], object]) -> None:
        outcome = outcomes[index]
        started = time.monotonic()
        try:
            connection.ensure_connection()  # connect before the start line, not after
            barrier.wait()
            if interleaved and index == 0:
                with transaction.atomic():
                    outcome.value = call()
                    first_done.set()
                    time.sleep(HOLD_SECONDS)  # keep the locks while the other tablet tries
                return
            if interleaved:
                assert first_done.wait(TIMEOUT)
            started = time.monotonic()
            outcome.value = call()
        except BaseException as error:
            outcome.error = error
        finally:
            outcome.elapsed = time.monotonic() - started
            first_done.set()
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread hung: deadlock?"
    return outcomes


def unexpected(outcomes: list[Outcome]) -> list[BaseException]:
    """Errors other than a clean ServiceError (an IntegrityError here is a bug)."""
    return [o.error for o in outcomes if o.error is not None and not isinstance(o.error, ServiceError)]


STALE = "changed on another tablet"


def one_stale_refusal(outcomes: list[Outcome], table: object) -> list[object]:
    """Two tablets tapped on the same version: exactly one game stands, the other tap was
    refused as stale (nothing else went wrong). Returns the table's games (just that one)."""
    from games.models import Game

    assert unexpected(outcomes) == []
    successes = [o for o in outcomes if o.error is None]
    failures = [o for o in outcomes if o.error is not None]
    assert len(successes) == 1 and len(failures) == 1
    assert STALE in failures[0].error.message  # type: ignore[union-attr]
    games = list(Game.objects.filter(table=table))
    assert [g.pk for g in games] == [successes[0].value.pk]  # type: ignore[attr-defined]
    return games  # type: ignore[return-value]
