"""A tournament's version in the shared cache: a poll that changes nothing reads no database.

Every write bumps ``Tournament.version`` under the tournament's row lock
(``tournament.writes.bump``). The state the polls need (version, public key,
projector language, listed) is kept in the cache under the tournament's id, and
the tournament's id under its public key:

- ``bump`` forgets the state at once (inside the transaction: a test that never
  commits, or a rolled-back write, reads the row again) and, when the transaction
  commits, publishes the new state (``publish``, with ``cache.set``);
- a reader that misses reads the row (one query) and fills the cache with
  ``cache.add``, never ``set``: a reader that read the row just before a commit
  can never overwrite the state that commit published;
- a public key is checked against the state it leads to: a renewed key (the
  state names the new one) is looked up again and, being gone, is a 404.

How long a state is trusted (``settings.VERSION_CACHE_SECONDS``): with a cache
that every process shares (Redis, ``settings.SHARED_CACHE``) a minute, which
only bounds what a write outside the services (the admin, a restored backup)
leaves stale; with the per-process default (LocMem) one second, since another
process's write is never seen there (``make run`` has two workers).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from tournament.models import Tournament

logger = logging.getLogger(__name__)

_STATE = "tv2:state:"
_KEY = "tv2:key:"
# Public key -> tournament id, also kept in each process: a key is random and never passes to
# another tournament, so the mapping needs no expiry, only the check against the state.
_IDS: dict[str, int] = {}
_IDS_MAX = 10_000
_FIELDS = ("pk", "version", "public_key", "display_language", "listed")


@dataclass(frozen=True)
class State:
    """What a poll needs to know of a tournament, without reading it."""

    tournament_id: int
    version: int
    public_key: str
    display_language: str
    listed: bool


def seconds() -> int:
    """How long a cached state is trusted (see the module docstring)."""
    return int(getattr(settings, "VERSION_CACHE_SECONDS", 60 if getattr(settings, "SHARED_CACHE", False) else 1))


def _cached(key: str) -> Any:
    """The cache's entry, or None when the cache cannot be reached (the database answers then)."""
    try:
        return cache.get(key)
    except Exception:
        logger.warning("The cache cannot be read; the database answers", exc_info=True)
        return None


def _quietly(operation: str, *args: Any) -> None:
    """A cache write that may fail (the cache is down) without failing the request or the write."""
    try:
        getattr(cache, operation)(*args)
    except Exception:
        logger.warning("The cache cannot be written (%s)", operation, exc_info=True)


def _fill(row: tuple[int, int, str, str, bool] | None) -> State | None:
    if row is None:
        return None
    state = State(*row)
    timeout = seconds()
    _quietly("add", _STATE + str(state.tournament_id), state, timeout)
    _quietly("add", _KEY + state.public_key, state.tournament_id, timeout)
    return state


def state(tournament_id: int) -> State | None:
    """The tournament's state: from the cache, else one query (None: no such tournament)."""
    found = _cached(_STATE + str(tournament_id))
    if isinstance(found, State):
        return found
    return _fill(Tournament.objects.filter(pk=tournament_id).values_list(*_FIELDS).first())


def state_by_key(public_key: str) -> State | None:
    """The state of the tournament with this public key: one cache read once this process
    has seen the key (else two), else one query (None: no tournament has this key, e.g. it
    was renewed)."""
    tournament_id = _IDS.get(public_key)
    if tournament_id is None:
        tournament_id = _cached(_KEY + public_key)
    if tournament_id is not None:
        found = state(tournament_id)
        if found is not None and found.public_key == public_key:
            _remember(public_key, found.tournament_id)
            return found
        _IDS.pop(public_key, None)  # renewed (or gone): ask the database
        _quietly("delete", _KEY + public_key)
    found = _fill(Tournament.objects.filter(public_key=public_key).values_list(*_FIELDS).first())
    if found is not None:
        _remember(public_key, found.tournament_id)
    return found


def _remember(public_key: str, tournament_id: int) -> None:
    if len(_IDS) >= _IDS_MAX:
        _IDS.clear()
    _IDS[public_key] = tournament_id


def version(tournament_id: int) -> int | None:
    """The tournament's version (the basis of every ETag); None: no such tournament."""
    found = state(tournament_id)
    return found.version if found is not None else None


def version_by_key(public_key: str) -> int | None:
    """The version of the tournament with this public key; None: no such tournament."""
    found = state_by_key(public_key)
    return found.version if found is not None else None


def forget(tournament_id: int, public_key: str = "") -> None:
    """Drop the cached state (and the key's entry): the next reader reads the row."""
    if public_key:
        _IDS.pop(public_key, None)
    _quietly("delete_many", [_STATE + str(tournament_id)] + ([_KEY + public_key] if public_key else []))


def publish(found: State) -> None:
    """Store the state a committed write left (``writes.bump``, on commit)."""
    timeout = seconds()
    entries = {_STATE + str(found.tournament_id): found, _KEY + found.public_key: found.tournament_id}
    _quietly("set_many", entries, timeout)
