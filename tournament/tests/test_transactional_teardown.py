"""The suite's own teardown of a transactional test (root ``conftest._empty_tables_by_delete``):
on PostgreSQL it deletes every row where Django's flush truncated, and must leave the next test
the same database a flush would: every table empty but the content types and permissions that
``migrate`` made, and those complete."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.test import TransactionTestCase

from conftest import _STATIC_TABLES

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only]


def row_counts() -> dict[str, int]:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def test_a_transactional_teardown_leaves_what_a_flush_leaves() -> None:
    permissions = Permission.objects.count()
    content_types = ContentType.objects.count()
    assert permissions and content_types
    call_command("simulate_tournament", "--format", "points", "--players", "5", stdout=StringIO(), stderr=StringIO())
    written = {table for table, count in row_counts().items() if count and table not in _STATIC_TABLES}
    # The dry run wrote to the tables a real evening writes to, linked by foreign keys.
    assert {"tournament_tournament", "tournament_player", "tournament_seat", "games_game"} <= written

    TransactionTestCase()._fixture_teardown()  # the teardown every transactional test ends with

    left = {table: count for table, count in row_counts().items() if count and table not in _STATIC_TABLES}
    assert left == {}
    assert Permission.objects.count() == permissions
    assert ContentType.objects.count() == content_types
    assert Permission.objects.filter(codename="change_tournament").exists()
