"""What every write does, whatever it writes (desk, play, formats).

The contract of a service (a function that writes):

- keyword-only arguments, the acting user passed as ``actor``;
- one ``transaction.atomic()``; the rows it changes are locked with
  ``select_for_update`` in one order: tournament (``lock_tournament``), then
  player or round, then table (``tournament.play.core.lock_table``). Two
  tablets writing at once are serialised by the database;
- ``bump`` the tournament's version (the public pages' ETag) and write an
  ``audit`` entry;
- raise ``ServiceError`` (``tournament.errors``) with a translated message for
  anything the user can fix, with nothing changed. Table services wrap
  themselves in ``refusals_audited`` so that each refusal leaves a trace.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction

from tournament import versions
from tournament.errors import ServiceError
from tournament.middleware import current_origin
from tournament.models import AuditEntry, Player, Table, Tournament

User = AbstractBaseUser | AnonymousUser
logger = logging.getLogger(__name__)
ServiceFunction = TypeVar("ServiceFunction", bound=Callable[..., Any])


def acting_user(user: User | None) -> Any:
    """The user to store as who did it (None for the system and anonymous users)."""
    return user if user is not None and user.is_authenticated else None


# The detail keys that name the table and the player an audit entry concerns, as the services
# pass them (the first present wins). Every value under these keys is a primary key of a row
# of the entry's tournament: ``table``/``table_id`` a Table's, ``player``/``player_id`` (desk,
# first dealer, a lost chip), ``winner``/``winner_id`` (a game won) and ``loser``/``loser_id``
# (a chip lost) a Player's. Keys holding numbers rather than ids (``tables`` and ``players`` of
# the round services, ``table_number``, ``start_number``) are left alone.
TABLE_KEYS = ("table", "table_id")
PLAYER_KEYS = ("player", "player_id", "winner", "winner_id", "loser", "loser_id")


def named_id(detail: dict[str, Any], keys: tuple[str, ...]) -> int | None:
    """The first integer under ``keys`` in ``detail`` (None when there is none)."""
    for key in keys:
        value = detail.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


class PassHolder(AnonymousUser):
    """The actor of a desk service called by a player with their pass (the online sign-up, "Withdraw"
    on the pass page): no user; ``audit`` writes its entries as the player (``actor_player``), the
    player ``player_id`` names, or (None) the player the entry concerns (a sign-up: the new player)."""

    def __init__(self, player_id: int | None = None) -> None:
        super().__init__()
        self.player_id = player_id


def audit(tournament: Tournament | None, user: User | None, action: str, /, **detail: Any) -> None:
    """Write who did what (``action``, a stable code) with its details (JSON).

    The entry also records the table and the player it concerns (from the detail
    keys in ``TABLE_KEYS`` and ``PLAYER_KEYS``: the caller guarantees they are rows
    of ``tournament``) and where the write came from (the request's page and device,
    see ``tournament.middleware``; empty outside a request).
    """
    player_id = named_id(detail, PLAYER_KEYS)
    by_player = (user.player_id or player_id) if isinstance(user, PassHolder) else None
    _write(
        tournament,
        user,
        action,
        detail,
        table_id=named_id(detail, TABLE_KEYS),
        player_id=player_id,
        actor_player_id=by_player,
    )


def audit_by_player(tournament: Tournament, actor_player_id: int, action: str, /, **detail: Any) -> None:
    """Write an entry done by a player with their pass (``tournament.passes``): no user, the
    player as ``actor_player`` (the audit list says "Name (player pass)"); otherwise as ``audit``."""
    _write(
        tournament,
        None,
        action,
        detail,
        table_id=named_id(detail, TABLE_KEYS),
        player_id=named_id(detail, PLAYER_KEYS),
        actor_player_id=actor_player_id,
    )


def _write(
    tournament: Tournament | None,
    user: User | None,
    action: str,
    detail: dict[str, Any],
    *,
    table_id: int | None,
    player_id: int | None,
    actor_player_id: int | None = None,
) -> None:
    origin = current_origin()
    AuditEntry.objects.create(
        tournament=tournament,
        actor=acting_user(user),
        actor_player_id=actor_player_id,
        action=action,
        detail=detail,
        table_id=table_id,
        player_id=player_id,
        source=origin.source if origin is not None else "",
        device=origin.device_line if origin is not None else "",
    )


def bump(tournament: Tournament) -> None:
    """Raise the tournament's version: every cached page and ETag of it is stale now.

    One query, as an ``UPDATE … RETURNING`` (PostgreSQL, SQLite 3.35+): it reads back the
    new version under the row lock. The cached state of the polls (``tournament.versions``)
    is dropped at once and the new one is published when the transaction commits, so a
    poll answered from the cache never sees a version that was rolled back. ``tournament``
    is given the new version (a later ``save()`` of it cannot put back the old one).
    """
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in ("version", "public_key", "display_language", "listed"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Tournament._meta.db_table)} SET {quote('version')} = {quote('version')} + 1 "
            f"WHERE {quote('id')} = %s RETURNING {columns}",
            [tournament.pk],
        )
        row = cursor.fetchone()
    versions.forget(tournament.pk)
    if row is None:  # no such row (deleted): nothing to publish
        return
    tournament.version = row[0]
    state = versions.State(tournament.pk, row[0], row[1], row[2], bool(row[3]))
    transaction.on_commit(lambda: versions.publish(state))


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends (the first lock of every write)."""
    return Tournament.objects.select_for_update().get(pk=tournament_id)


REFUSED = "entry_refused"

# What a refused entry tried, kept in the audit entry (never the tournament or the actor object).
_ATTEMPT_FIELDS = ("winner_id", "loser_id", "player_id", "version", "idempotency_key", "card_points", "hands")


def refusals_audited(attempt: str) -> Callable[[ServiceFunction], ServiceFunction]:
    """Decorate a table service so that every refusal leaves a trace.

    When the service raises a ``ServiceError`` (its transaction rolled back,
    nothing saved), an ``entry_refused`` audit entry is written after the
    rollback, outside it: who (``actor``), which table (id, number, round),
    what was tried (``attempt`` and the submitted values) and why (the message
    shown). Then the error is raised again unchanged. Questions back to the
    user (``is_refusal = False``) are not audited. The service must take
    ``tournament``, ``actor`` and ``table_id`` as keyword arguments.
    """

    def decorator(service: ServiceFunction) -> ServiceFunction:
        @functools.wraps(service)
        def wrapper(**kwargs: Any) -> Any:
            try:
                return service(**kwargs)
            except ServiceError as error:
                if error.is_refusal:
                    _audit_refusal(attempt, error, kwargs)
                raise

        return wrapper  # type: ignore[return-value]

    return decorator


def audit_refusal(
    attempt: str, reason: str, *, tournament: Tournament, actor: User | None, table_id: int | None, **tried: Any
) -> None:
    """Write the ``entry_refused`` audit entry of one refused attempt (see ``refusals_audited``).

    Also for refusals decided before any service runs (a form that cannot be
    read). ``tried`` holds the submitted values; empty ones are left out. Never
    raises: a trace that cannot be written goes to the server log, and the
    person still sees the refusal itself.
    """
    detail: dict[str, Any] = {"attempt": attempt, "table": table_id, "reason": reason}
    detail.update({name: value for name, value in tried.items() if value not in (None, {}, "")})
    try:
        # The ids were submitted, not checked: link only the tournament's own table and player.
        tables = Table.objects.filter(pk=table_id, round__tournament=tournament)
        where = tables.values("number", "round__number").first()
        if where is not None:
            detail.update(table_number=where["number"], round=where["round__number"])
        player_id = named_id(detail, PLAYER_KEYS)
        if player_id is not None and not Player.objects.filter(pk=player_id, tournament=tournament).exists():
            player_id = None
        _write(
            tournament, actor, REFUSED, detail, table_id=table_id if where is not None else None, player_id=player_id
        )
    except Exception:
        logger.exception("Could not audit a refused %s at table %s", attempt, table_id)


def _audit_refusal(attempt: str, error: ServiceError, kwargs: dict[str, Any]) -> None:
    tried = {name: kwargs.get(name) for name in _ATTEMPT_FIELDS}
    audit_refusal(
        attempt,
        error.message,
        tournament=kwargs["tournament"],
        actor=kwargs.get("actor"),
        table_id=kwargs.get("table_id"),
        **tried,
    )
