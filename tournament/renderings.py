"""Rendered public pages in the shared cache: a version renders once, and at most once a second.

The rule for the projector's screen, the phone page's results and ``api.json``:

- The cache keeps one entry per page, tournament and language (and what the page
  was asked for, such as a search): the latest rendering, the version it shows and
  when it was made. It is stored as the bytes sent (``api.json`` is encoded once,
  not per request).
- That rendering is served while its version is the tournament's, and for
  ``FRESH_SECONDS`` (1 s; ``settings.PUBLIC_RENDER_SECONDS``) after it was made
  even when the version has moved on:
  during play every write bumps the version, and 1,000 spectators must not each
  render the page again. So a page is rendered at most once a second per
  tournament and language, whatever the number of spectators or writes.
- A page that is dear to render is kept longer: for ``COST_FACTOR`` (5) times what
  its rendering took, when that is more than the second. Rendering then takes at
  most a fifth of one process's time during play, whatever the size of the field:
  a 5,000-player projector screen (0.04–0.5 s to render with its lists in windows,
  by format and machine) is some 1–2.5 s behind at most, a 50-player one stays
  within the second.
- Its ETag names the version it shows (not the tournament's), so the first poll
  after the second has passed sees the change: no poll gets a stale 304 for longer
  than ``FRESH_SECONDS``, or than another process takes to render the new version.
- One process renders (a lock taken with ``cache.add``, released after, expiring
  after ``LOCK_SECONDS`` if that process dies); meanwhile the others serve the
  previous rendering, or, when there is none yet, wait up to ``WAIT_SECONDS`` for
  it before rendering themselves. No stampede after a write.

- A rendering is stored compressed (gzip, once, when it is made) and sent as stored to
  every client that accepts gzip (``respond``): every browser does. A 900-player screen
  is some 340 KB of HTML and 25 KB compressed; 1,000 spectators polling it during play
  would otherwise move the full size out of the cache and onto the network on every
  changed poll, and compress nothing (no compressing middleware). A client that does
  not accept gzip gets it decompressed.

With the per-process default cache (LocMem) all this holds per process; with Redis
(``REDIS_URL``) for every process together.
"""

from __future__ import annotations

import gzip
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

logger = logging.getLogger(__name__)

FRESH_SECONDS = 1.0
COST_FACTOR = 5.0
LOCK_SECONDS = 10
WAIT_SECONDS = 1.0
KEEP_SECONDS = 60 * 60
KEY_PREFIX = "rn3:"  # rn3: stored compressed (the keys of bench/run.py follow it)


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Rendering:
    """A page as sent: the version it shows, when it was made (``time.time()``), its bytes
    compressed with gzip (``body`` gives them as rendered)."""

    version: int
    made_at: float
    gzipped: bytes
    took: float = 0.0  # seconds the rendering took (build and compression)

    @property
    def body(self) -> bytes:
        return gzip.decompress(self.gzipped)


def respond(request: HttpRequest, rendering: Rendering, content_type: str = "text/html; charset=utf-8") -> HttpResponse:
    """The response carrying ``rendering``: its compressed bytes as stored when the client accepts
    gzip, else the bytes as rendered; either way varying on Accept-Encoding."""
    if _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(rendering.gzipped, content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(rendering.body, content_type=content_type)
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def _get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:
        logger.warning("The cache cannot be read; the page is rendered", exc_info=True)
        return None


def _try(operation: str, *args: Any) -> Any:
    try:
        return getattr(cache, operation)(*args)
    except Exception:
        logger.warning("The cache cannot be written (%s)", operation, exc_info=True)
        return None


def fresh_seconds() -> float:
    """The window of the rule: ``settings.PUBLIC_RENDER_SECONDS``, default ``FRESH_SECONDS``
    (0: every new version is rendered at once, for tests that write and look at once)."""
    return float(getattr(settings, "PUBLIC_RENDER_SECONDS", FRESH_SECONDS))


def kept_seconds(rendering: Rendering) -> float:
    """How long ``rendering`` is served after it was made although the version moved on: the
    second (``fresh_seconds``), or ``COST_FACTOR`` times what it took when that is longer; none
    when the window is 0 (tests that write and look at once)."""
    fresh = fresh_seconds()
    return max(fresh, rendering.took * COST_FACTOR) if fresh > 0 else 0.0


def age(rendering: Rendering) -> float:
    """Seconds since ``rendering`` was made: how old the state it shows is once the version moved on."""
    return max(0.0, time.time() - rendering.made_at)


def _usable(found: Any, version: int) -> bool:
    return isinstance(found, Rendering) and (
        found.version == version or time.time() - found.made_at < kept_seconds(found)
    )


def latest(
    name: str, tournament_id: int, version: int, build: Callable[[], tuple[int, bytes]], *, keep: int = KEEP_SECONDS
) -> Rendering:
    """The rendering of page ``name`` of a tournament to serve now (see the module docstring).

    ``version`` is the tournament's version as the poll knows it; ``build()`` renders
    the page from the database and returns the version it read with the bytes (that
    version labels the rendering, so a label never claims more than it shows).
    ``keep``: how long an unused rendering stays in the cache.
    """
    key = f"{KEY_PREFIX}{tournament_id}:{name}"
    found = _get(key)
    if _usable(found, version):
        return found  # type: ignore[no-any-return]
    lock = key + ":lock"
    if _try("add", lock, 1, LOCK_SECONDS) is False:
        if isinstance(found, Rendering):
            return found  # another process renders the new version: the previous one meanwhile
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
            found = _get(key)
            if isinstance(found, Rendering):
                return found
        return _render(key, build, keep)  # the other process is slow: do not keep the visitor waiting
    try:
        return _render(key, build, keep)
    finally:
        _try("delete", lock)


def _render(key: str, build: Callable[[], tuple[int, bytes]], keep: int) -> Rendering:
    started = time.monotonic()
    shown, body = build()
    # mtime=0: the same page compresses to the same bytes. Level 6 (zlib's default, not gzip's 9):
    # a 3 MB screen compresses in 42 ms instead of 150 ms, 2 % larger.
    gzipped = gzip.compress(body, compresslevel=6, mtime=0)
    rendering = Rendering(version=shown, made_at=time.time(), gzipped=gzipped, took=time.monotonic() - started)
    _try("set", key, rendering, keep)
    return rendering
