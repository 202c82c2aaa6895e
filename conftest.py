"""Shared fixtures: users with each role, tournaments of a given size."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tournament import enums
from tournament.tests.factories import PlayerFactory, StaffRoleFactory, TournamentFactory

ROLES = [enums.Role.ORGANISER, enums.Role.DESK, enums.Role.REFEREE]

# The properties check what holds, not how fast: speed is measured by ``make bench``. On a machine
# busy with another suite, a 200 ms deadline or the "input generation is slow" health check fails a
# property that holds, so neither applies; each test's own ``@settings`` still sets its examples.
hypothesis_settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("suite")


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashes() -> object:
    """Passwords hash with MD5 in the tests. The production hasher (PBKDF2 at a million rounds) is
    slow on purpose, and every staff user a fixture made cost about a second of the suite's time;
    what the tests check is who may do what, not the hash. ``config/settings.py`` keeps Django's
    hashers for the site."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


# Tables that ``migrate`` fills and nothing changes after: emptying them only made post_migrate
# write the same rows again after every transactional test.
_STATIC_TABLES = frozenset({"django_content_type", "auth_permission"})


def _empty_tables_by_delete(test_case) -> bool:  # type: ignore[no-untyped-def]
    """A transactional test's teardown on PostgreSQL: every row of the test's tables deleted in one
    transaction, where Django's ``flush`` TRUNCATEs them. TRUNCATE makes new files for each of the
    41 tables and their indexes: about 0.8 s a test on a busy 2-core machine, for tables that hold a
    few hundred rows, which DELETE empties in about 0.05 s. Django's foreign keys are deferrable, so
    the order of the deletes does not matter. The content types and permissions stay
    (``_STATIC_TABLES``); post_migrate still runs, as after a flush, and finds them complete.
    False (nothing done) for anything but the plain case: a subset of the apps, a serialized
    rollback or another database is left to Django's own teardown."""
    from django.core.management.sql import emit_post_migrate_signal
    from django.db import connections, transaction

    names = test_case._databases_names(include_mirrors=False)
    plain = test_case.available_apps is None and not test_case.serialized_rollback
    if not plain or any(connections[name].vendor != "postgresql" for name in names):
        return False
    for name in names:
        connection = connections[name]
        tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
        with transaction.atomic(using=name), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for table in sorted(set(tables) - _STATIC_TABLES):
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
        emit_post_migrate_signal(verbosity=0, interactive=False, db=name)
    return True


@pytest.fixture(scope="session", autouse=True)
def _transactional_teardown_by_delete() -> Iterator[None]:
    """Transactional tests (``transactional_db``, ``live_server``: the browser tests) end with
    ``_empty_tables_by_delete`` where it applies, else with Django's flush."""
    from django.test import TransactionTestCase

    django_teardown = TransactionTestCase._fixture_teardown

    def teardown(test_case):  # type: ignore[no-untyped-def]
        if not _empty_tables_by_delete(test_case):
            django_teardown(test_case)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", teardown)
        yield


@pytest.fixture(autouse=True)
def _english() -> object:
    """Every test starts in English: a request in another language (Accept-Language, the
    language cookie) leaves that language active in the thread for whatever runs next."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _versions_kept_for_the_whole_test(request):  # type: ignore[no-untyped-def]
    """A tournament's cached version (``tournament.versions``) is trusted for an hour in a test,
    not the per-process default of one second. With one second, how many queries a page costs
    depended on the clock: a GET more than a second after the version was cached read it again
    (one query more), so on a busy machine a query-count test that compares two GETs failed
    (``test_the_referee_page_costs_the_same_with_a_refusal_shown``: 9 == 8). The services' writes
    forget and publish the version as in production, so nothing a test checks goes stale. The
    browser tests keep the default: their live server shares this process, and some change a row
    behind the services' back and wait for the page to see it. (It replaces the same setting that
    the pass, polling and public-cache tests each made for themselves.)"""
    if request.node.get_closest_marker("browser") is not None:
        yield
        return
    from django.test import override_settings

    with override_settings(VERSION_CACHE_SECONDS=3600):
        yield


@pytest.fixture(autouse=True)
def _fresh_local_cache() -> None:
    """Each test starts with an empty cache in this process. On SQLite a rolled-back test's ids are
    used again, so a public rendering kept by tournament id and version from an earlier test would
    be served to the next one (PostgreSQL never reuses ids). A shared Redis is left alone: the other
    workers use it at the same time."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    backend = caches["default"]
    if isinstance(backend, LocMemCache):
        backend.clear()


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):  # type: ignore[no-untyped-def]
    """Tests render templates without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def tournament(db):  # type: ignore[no-untyped-def]
    return TournamentFactory()


@pytest.fixture
def make_user(db) -> Callable[..., object]:  # type: ignore[no-untyped-def]
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **extra: object) -> object:
        name = username or f"user{next(counter)}"
        return get_user_model().objects.create_user(username=name, password="pw-for-tests-123", **extra)

    return make


@pytest.fixture
def staff_user(make_user):  # type: ignore[no-untyped-def]
    """staff_user(tournament, role) -> a user holding that role in the tournament."""

    def make(tournament, role: str):  # type: ignore[no-untyped-def]
        user = make_user(f"{role}-{tournament.pk}-{get_user_model().objects.count()}")
        StaffRoleFactory(tournament=tournament, user=user, role=role)
        return user

    return make


@pytest.fixture
def desk_client(client, tournament, staff_user):  # type: ignore[no-untyped-def]
    client.force_login(staff_user(tournament, enums.Role.DESK))
    return client


@pytest.fixture
def organiser_client(client, tournament, staff_user):  # type: ignore[no-untyped-def]
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    return client


@pytest.fixture
def players(tournament):  # type: ignore[no-untyped-def]
    return PlayerFactory.create_batch(5, tournament=tournament)


@pytest.fixture
def login_as(client, staff_user, make_user):  # type: ignore[no-untyped-def]
    """login_as(who, tournament): log the test client in as one kind of person.

    ``who``: desk, referee, organiser (of ``tournament``), referee_elsewhere and
    organiser_elsewhere (of another tournament of the same format), no_role, superuser.
    """

    def login(who: str, tournament):  # type: ignore[no-untyped-def]
        def elsewhere(role: str):  # type: ignore[no-untyped-def]
            return staff_user(TournamentFactory(format=tournament.format, game=tournament.game), role)

        makers = {
            "desk": lambda: staff_user(tournament, enums.Role.DESK),
            "referee": lambda: staff_user(tournament, enums.Role.REFEREE),
            "organiser": lambda: staff_user(tournament, enums.Role.ORGANISER),
            "referee_elsewhere": lambda: elsewhere(enums.Role.REFEREE),
            "organiser_elsewhere": lambda: elsewhere(enums.Role.ORGANISER),
            "no_role": lambda: make_user(),
            "superuser": lambda: make_user(is_superuser=True),
        }
        user = makers[who]()
        client.force_login(user)
        return user

    return login


# Fixtures through which a test reaches the database.
_DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def _django_group(item: pytest.Item) -> int:
    """pytest-django's order: tests in a rolled-back transaction (0), transactional tests (1), the
    rest (2). Its own hook has sorted the items so; ``_long_modules_first`` keeps the groups."""
    from django.test import TestCase, TransactionTestCase
    from pytest_django.fixtures import validate_django_db

    cls = getattr(item, "cls", None)
    if cls is not None and issubclass(cls, TransactionTestCase):
        return 0 if issubclass(cls, TestCase) else 1
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    transaction, reset_sequences, *_ = validate_django_db(marker) if marker is not None else (False, False)
    if (
        transaction
        or reset_sequences
        or {
            "transactional_db",
            "live_server",
        }
        & fixtures
    ):
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


def _long_modules_first(items: list[pytest.Item]) -> None:
    """Within each of pytest-django's groups, the modules holding a test marked ``long`` (tens of
    seconds) run first. xdist hands out the tests in this order, so a long test no longer starts
    last and keeps one worker busy while the other has nothing left to do. A module's tests stay
    together (its module-scoped fixtures are built once per worker)."""
    groups = [_django_group(item) for item in items]
    assert groups == sorted(groups), "pytest-django sorts its groups otherwise now: see _django_group"
    long_modules = {item.path for item in items if item.get_closest_marker("long") is not None}
    items.sort(key=lambda item: (_django_group(item), item.path not in long_modules))


@pytest.hookimpl(trylast=True)  # after pytest-django has sorted the tests into its groups
def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """The modules with long tests first (``_long_modules_first``). On SQLite (the smoke run of
    ``make test``) only tests that touch the database run.

    The smoke run is there to show the embedded default stores and reads what PostgreSQL
    does; a pure test (rules, seating, folding) gives the same answer on either database,
    so running it twice only costs time. ``make test`` runs every test on PostgreSQL.
    """
    from django.conf import settings

    _long_modules_first(items)
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        return
    kept, pure = [], []
    for item in items:
        touches_database = item.get_closest_marker("django_db") is not None or bool(
            _DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        )
        (kept if touches_database else pure).append(item)
    if pure:
        config.hook.pytest_deselected(items=pure)
        items[:] = kept
