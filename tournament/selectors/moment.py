"""Reading one consistent moment of the database while tablets and phones write.

At PostgreSQL's default isolation (READ COMMITTED) each query sees what was committed when it
started: a read of several queries (a table, then its games) can see a write's games but the
table's version from before it, and a form carrying that version is refused as stale.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction


@contextmanager
def read_snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Every query inside reads one consistent moment of the database, while others write.

    PostgreSQL: a REPEATABLE READ, READ ONLY transaction. SQLite (WAL mode):
    a deferred read transaction (``BEGIN DEFERRED``: the settings' IMMEDIATE
    mode would take the write lock and hold up the tablets). Inside a caller's
    transaction the caller's view is used as it is.
    """
    connection = connections[using]
    if connection.in_atomic_block:
        yield
    elif connection.vendor == "postgresql":
        with transaction.atomic(using=using):
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    elif connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("ROLLBACK")  # nothing was written
    else:
        with transaction.atomic(using=using):
            yield
