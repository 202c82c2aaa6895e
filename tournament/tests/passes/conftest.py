"""The player pass's tests: one process, so a cached version is trusted as long as a test runs."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _versions_trusted(settings):  # type: ignore[no-untyped-def]
    """Every write is seen in one process, so a cached tournament version stays trusted for the
    test (with the per-process default of one second, a busy machine lets it lapse between the
    warm-up and the counted request, and the count gains the version's query)."""
    settings.VERSION_CACHE_SECONDS = 60
