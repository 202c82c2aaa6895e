"""A table's page is read in one moment (``selectors.moment.read_snapshot``): a table-mate's entry
committed while another phone reads the table (its row first, then its games) is shown either
whole, the pending line with the version it made, or not yet. Without it, a phone showed the
pending line with the version from before the entry, and its Confirm was refused as "changed on
another tablet" (a browser run on a slow machine)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client

from tournament import enums
from tournament.models import Table
from tournament.selectors import play as play_selectors
from tournament.tests.passes.test_table_entry import Table4
from tournament.tests.passes.test_table_entry_views import HTMX, Phones
from tournament.tests.races import POSTGRES_RACES, TIMEOUT

pytestmark = POSTGRES_RACES
T = TypeVar("T")


def read_while_written(read: Callable[[], T], write: Callable[[], object]) -> T:
    """``read()`` in another thread, on its own connection; ``write()`` commits in this one right
    after that thread has read a table's row (its first query of ``tournament_table``) and before
    its next query. Returns what ``read()`` returned."""
    row_read, written = threading.Event(), threading.Event()
    results: list[T] = []
    errors: list[BaseException] = []

    def pause_after_the_tables_row(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        result = execute(sql, params, many, context)
        if sql.lstrip().startswith("SELECT") and 'FROM "tournament_table"' in sql and not row_read.is_set():
            row_read.set()
            assert written.wait(TIMEOUT), "the write was not committed"
        return result

    def reader_thread() -> None:
        try:
            with connection.execute_wrapper(pause_after_the_tables_row):
                results.append(read())
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    reader = threading.Thread(target=reader_thread)
    reader.start()
    try:
        assert row_read.wait(TIMEOUT), "the table's row was never read"
        write()
    finally:
        written.set()
        reader.join(TIMEOUT)
    assert not reader.is_alive() and not errors, errors
    return results[0]


@pytest.mark.parametrize("fmt", ["knockout", "life_bands", "points"])
def test_an_entry_committed_mid_read_is_shown_whole_or_not_yet(fmt: str) -> None:
    table4 = Table4(fmt)
    before = Table.objects.get(pk=table4.table.pk).version
    anna, ben = table4.ids[0], table4.ids[1]

    seen = read_while_written(
        lambda: play_selectors.table_view(table4.tournament, table4.table.pk), lambda: table4.enter(anna, ben)
    )

    # The moment before the entry: no pending line, and the version of that moment.
    assert seen.pending is None
    assert seen.table.version == before
    # Read again: the entry with the version it made, so a table-mate's Confirm counts.
    now = play_selectors.table_view(table4.tournament, table4.table.pk)
    assert now.pending is not None and now.table.version == Table.objects.get(pk=table4.table.pk).version > before
    confirmed = table4.confirm(ben, now.pending)
    assert confirmed.status == "valid"


def test_a_poll_answered_while_an_entry_lands_is_not_kept_by_its_etag() -> None:
    """The phone's ETag names the tournament's version read before the table: a poll whose read the
    entry overtook carries the older ETag, so the next poll brings the entry (a 304 never keeps the
    phone on the moment before it)."""
    at = Phones(enums.Format.KNOCKOUT)
    anna, ben = at.ids[0], at.ids[1]

    def enter() -> None:
        answer = Client().post(at.url("pass_record", anna), at.entry(ben), **HTMX)
        assert answer.status_code == 200, answer.content.decode()[-500:]

    first: HttpResponse = read_while_written(lambda: Client().get(at.url("pass_table", ben), **HTMX), enter)
    assert first.status_code == 200 and "pending-entry" not in first.content.decode()

    again = Client().get(at.url("pass_table", ben), HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 200, "the poll's ETag kept the phone on the moment before the entry"
    assert f"{at.names[anna]} entered: {at.names[ben]} won game 1" in again.content.decode()
