"""Results at a table: the one way every result entry starts (``start_entry``), the first
dealer, and the table services each format builds from its own hooks.

A result is never overwritten: an undo marks the game voided; the table is
recomputed from its valid games by the format's ``refresh``. Every entry
carries an idempotency key (a retry gets the game already recorded back,
marked ``replayed``) and the table version the tablet saw (a stale view is
refused). Each service below follows ``tournament.writes`` and audits its
refusals.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, GameScore, GameStatus, number_after
from games.rules import uno
from tournament import enums
from tournament.errors import ServiceError
from tournament.models import Player, Seat, Table, Tournament
from tournament.play.core import check_writable, lock_table
from tournament.writes import User, acting_user, audit, bump, lock_tournament, refusals_audited

# Recompute a table from its valid games (the format's rules): (tournament, table, actor).
Refresh = Callable[[Tournament, Table, User], None]
# The card points left in the other hands, as entered on the calculator: {player: (points, hand)}.
# Read (and checked) only when called: formats that count no card points never ask.
CardPointsReader = Callable[[], dict[int, tuple[int, dict[str, int]]]]
# Points of one game per player: (tournament, table, winner, card points) -> {player: (points, hand detail)}.
Score = Callable[[Tournament, Table, int, CardPointsReader], dict[int, tuple[int, dict[str, Any]]]]
# A format's own guard before a table write: (tournament, table); raises ServiceError.
Guard = Callable[[Tournament, Table], None]


def _cache(instance: models.Model, name: str, rows: Iterable[models.Model]) -> None:
    """Hand ``rows`` to ``instance`` as its prefetched ``name`` (as ``prefetch_related`` would)."""
    queryset = getattr(instance, name).get_queryset()
    queryset._result_cache = list(rows)
    queryset._prefetch_done = True
    if not hasattr(instance, "_prefetched_objects_cache"):
        instance._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    instance._prefetched_objects_cache[name] = queryset  # type: ignore[attr-defined]


@dataclass(frozen=True)
class TableRead:
    """A table as read before the tournament lock: its version at that moment, its seats in
    seat order (players loaded) and every game, undone ones too (scores loaded).

    Every change to a table's seats or games moves its version on in the same transaction
    (``tables.save_outcome``, the first dealer, a close, a correction), and the version is
    read first: while the locked table still has ``version``, what was read is what is there.
    """

    version: int
    seats: list[Seat]
    games: list[Game]

    @property
    def played(self) -> int:
        return sum(1 for game in self.games if game.status == GameStatus.VALID)

    @property
    def next_number(self) -> int:
        """One after the last valid game (``games.models.number_after``)."""
        return number_after(self.games)

    @property
    def pending(self) -> Game | None:
        """A player's entry at this table waiting for a table-mate's confirmation (at most one)."""
        return next((game for game in self.games if game.status == GameStatus.PENDING), None)

    def replay(self, idempotency_key: str) -> Game | None:
        """The game of this table already recorded with ``idempotency_key`` (marked ``replayed``,
        its winner and loser loaded from the seats), or None. A pending entry is no replay: its key
        comes back when it is confirmed (``EntryStart.pending``)."""
        existing = next(
            (
                game
                for game in self.games
                if game.idempotency_key == idempotency_key and game.status != GameStatus.PENDING
            ),
            None,
        )
        if existing is None:
            return None
        players = {seat.player_id: seat.player for seat in self.seats}
        for relation in ("winner", "loser"):
            player = players.get(getattr(existing, f"{relation}_id"))
            if player is not None:  # (else the name is read when it is shown)
                setattr(existing, relation, player)
        existing.replayed = True
        return existing

    def prime_locked_table(self, table: Table, game: Game, scores: list[GameScore]) -> None:
        """Give the locked ``table`` what was read, with ``game`` just written, so that the
        format's refresh (``tables.tally``) reads nothing again."""
        _cache(game, "scores", scores)
        _cache(table, "seats", self.seats)
        # A confirmed pending entry is the same row: it is in ``games`` already, now valid.
        _cache(table, "games", [*(known for known in self.games if known.pk != game.pk), game])


def read_table(tournament: Tournament, table_id: int) -> TableRead:
    """Read a table of ``tournament`` for a result entry without locking anything (four queries);
    refused for a table of another tournament."""
    table = (
        Table.objects.filter(pk=table_id, round__tournament=tournament)
        .only("pk", "version")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("games", queryset=Game.objects.prefetch_related("scores").order_by("number", "pk")),
        )
        .first()
    )
    if table is None:
        raise ServiceError(_("This table does not exist in this tournament."))
    return TableRead(version=table.version, seats=list(table.seats.all()), games=list(table.games.all()))


@dataclass(frozen=True)
class EntryStart:
    """A result entry under way: ``replayed`` where the key was recorded before (nothing more is
    written: return it), else the tournament and the table locked, and ``read`` current under the
    lock."""

    replayed: Game | None = None
    tournament: Tournament | None = None
    table: Table | None = None
    read: TableRead | None = None
    # The player's entry this one confirms (its key): the recorder makes that row valid in place.
    pending: Game | None = None


@contextlib.contextmanager
def start_entry(tournament: Tournament, table_id: int, version: int, idempotency_key: str) -> Iterator[EntryStart]:
    """The one way every result entry starts (a winner, a loser, the formats alike).

    Before the tournament lock (the hall's taps queue there): a malformed key is refused, the
    table is read, and a retry of an entry recorded at this table is answered from it. Then, in
    the caller's transaction: the tournament and the table are locked; where the version moved, the
    first send of this retry may have been recorded while it waited, and is answered; otherwise the
    table must be writable at ``version`` and not yet decided, and is read again if it changed
    since the first read. A key recorded at another table is refused by the insert (it is unique).

    While a player's entry waits for confirmation at the table (``GameStatus.PENDING``), every other
    entry is refused with what to do; an entry carrying the pending entry's own key is its
    confirmation (``passes.table_entry``, ``play.pending``): ``EntryStart.pending``.
    """
    if not idempotency_key or len(idempotency_key) > 64:
        raise ServiceError(_("The form is incomplete; reload the page."))
    read = read_table(tournament, table_id)
    replay = read.replay(idempotency_key)
    if replay is not None:
        yield EntryStart(replayed=replay)
        return
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        if table.version != version:
            replay = _replayed_game(idempotency_key, table_id)
            if replay is not None:
                yield EntryStart(replayed=replay)
                return
        if read.version != table.version:
            read = read_table(locked, table_id)
        pending = read.pending
        if pending is not None and pending.idempotency_key != idempotency_key:
            raise ServiceError(waiting_message(pending, read.seats))
        check_writable(table, version)
        if table.status == enums.TableStatus.DECIDED:
            raise ServiceError(_("Table %(number)d is already decided.") % {"number": table.number})
        yield EntryStart(tournament=locked, table=table, read=read, pending=pending)


def waiting_message(pending: Game, seats: Iterable[Seat]) -> str:
    """Why an entry is refused while a player's entry waits for confirmation, and what to do."""
    names = {seat.player_id: seat.player.name for seat in seats}
    return _(
        "%(name)s's entry for game %(number)d waits for confirmation: confirm it or say it is not right first."
    ) % {"name": names.get(pending.entered_by_player_id, "?"), "number": pending.number}


def write_game(entry: EntryStart, actor: User, **fields: Any) -> Game:
    """Write the game of a result entry (the recorders' one insert): a new game, or the pending
    player's entry this entry confirms, made valid in place (the same row, number and key; its
    ``entered_by`` stays empty: a player entered it). A staff entry at a table that called a
    referee answers the call (``Table.referee_called_at`` cleared, audited)."""
    assert entry.table is not None and entry.tournament is not None
    if acting_user(actor) is not None and entry.table.referee_called_at is not None:
        clear_referee_call(entry.tournament, entry.table, actor, why="entry")
    if entry.pending is not None:
        game = entry.pending
        fields.pop("entered_by", None)
        for name, value in fields.items():
            setattr(game, name, value)
        game.status = GameStatus.VALID
        game.save(update_fields=[*(name for name in fields if name != "table"), "status"])
        return game
    try:
        return Game.objects.create(**fields)
    except IntegrityError:
        # The key was recorded at another table (no tablet sends that): the transaction is
        # rolled back as the refusal leaves it.
        raise ServiceError(_("The form is incomplete; reload the page.")) from None


def clear_referee_call(tournament: Tournament, table: Table, actor: User, *, why: str) -> None:
    """The referee came to ``table`` (locked): its call is answered. Audited ``referee_call_cleared``."""
    table.referee_called_at = None
    table.referee_called_by = None
    table.referee_call_reason = ""
    Table.objects.filter(pk=table.pk).update(referee_called_at=None, referee_called_by=None, referee_call_reason="")
    audit(tournament, actor, "referee_call_cleared", table=table.pk, why=why)


def _replayed_game(idempotency_key: str, table_id: int) -> Game | None:
    """The game already recorded with ``idempotency_key`` (marked ``replayed``), or None.

    Refused when the key was recorded at another table (a tablet never sends that)."""
    existing = (
        Game.objects.filter(idempotency_key=idempotency_key)
        .exclude(status=GameStatus.PENDING)
        .select_related("winner", "loser")
        .first()
    )
    if existing is None:
        return None
    if existing.table_id != table_id:
        raise ServiceError(_("The form is incomplete; reload the page."))
    existing.replayed = True
    return existing


def stamp_table_version(game: Game, table: Table) -> None:
    """Keep the table's version right after ``game`` on the game (see ``Game.table_version``)."""
    game.table_version = table.version
    game.save(update_fields=["table_version"])


@refusals_audited("set_first_dealer")
def set_first_dealer(*, tournament: Tournament, actor: User, table_id: int, player_id: int, version: int) -> Table:
    """Record who drew the highest card: that player deals the first game.

    Idempotent: picking the dealer the table already has (a tablet re-sending
    its tap after a lost answer) changes nothing and is not refused.
    """
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        table = lock_table(locked, table_id)
        check_writable(table, None)
        seat = table.seats.filter(player_id=player_id).first()
        if seat is None:
            raise ServiceError(_("This player does not sit at table %(number)d.") % {"number": table.number})
        if table.first_dealer_position == seat.position:
            return table
        check_writable(table, version)
        if table.games.filter(status=GameStatus.VALID).exists():
            raise ServiceError(_("Games have been played; the first dealer can no longer change."))
        table.first_dealer_position = seat.position
        table.version += 1
        table.save(update_fields=["first_dealer_position", "version"])
        bump(locked)
        audit(locked, actor, "first_dealer_set", table=table.pk, player=player_id)
    return table


def priced_hands(
    tournament: Tournament,
    seated: set[int],
    winner_id: int,
    card_points: Mapping[int, int] | None,
    hands: Mapping[int, Mapping[str, int]] | None,
) -> dict[int, tuple[int, dict[str, int]]]:
    """Card points left in each other player's hand, priced with the tournament's scoring table.

    A hand tapped on the calculator wins over nothing, but a typed total that
    disagrees with it is refused; without a hand the typed points count.
    Returns {player: (points, hand)} for every seated player but the winner.
    """
    hands = hands or {}
    values: dict[int, tuple[int, dict[str, int]]] = {}
    for pid in seated - {winner_id}:
        typed = (card_points or {}).get(pid)
        if pid in hands:
            try:
                value = uno.hand_points(hands[pid], tournament.scoring_table)
            except (KeyError, ValueError):
                raise ServiceError(_("A hand holds an unknown card or a negative count.")) from None
            if typed is not None and typed != value:
                # The tapped cards and the typed total must never disagree silently.
                raise ServiceError(
                    _(
                        "The cards tapped for a player count %(cards)d points, but %(typed)d was typed. "
                        "Check the hand and record the game again."
                    )
                    % {"cards": value, "typed": typed}
                )
        elif typed is not None:
            value = typed
        else:
            raise ServiceError(_("Enter the card points of every player who did not win."))
        if value < 0:
            raise ServiceError(_("Card points cannot be negative."))
        if value > uno.MAX_CARD_POINTS or any(count > uno.MAX_CARDS_OF_A_KIND for count in hands.get(pid, {}).values()):
            raise ServiceError(
                _("A hand of more than %(max)d points cannot be right. Check the cards and record the game again.")
                % {"max": uno.MAX_CARD_POINTS}
            )
        values[pid] = (value, dict(hands.get(pid, {})))
    if card_points and set(card_points) - seated:
        raise ServiceError(_("Points were entered for a player who does not sit at this table."))
    return values


def winner_recorder(*, score: Score, refresh: Refresh) -> Callable[..., Game]:
    """The service that records a game's winner (UNO) for a format that scores with ``score``."""

    @refusals_audited("record_game")
    def record_game(
        *,
        tournament: Tournament,
        actor: User,
        table_id: int,
        winner_id: int,
        version: int,
        idempotency_key: str,
        card_points: Mapping[int, int] | None = None,
        hands: Mapping[int, Mapping[str, int]] | None = None,
    ) -> Game:
        """Record one game's winner (and, where the format counts them, the card points left in the
        other hands: typed in ``card_points`` or tapped in ``hands``, {player: {card: count}}).

        A retry with the same ``idempotency_key`` returns the game already recorded.
        Refused: a stale ``version``, a closed table or finished round, a decided
        table, a winner who does not sit at the table, card points for a player
        not at the table or below zero, a missing first dealer.
        """
        with start_entry(tournament, table_id, version, idempotency_key) as entry:
            if entry.replayed is not None:
                return entry.replayed
            assert entry.tournament is not None and entry.table is not None and entry.read is not None
            locked, table, read = entry.tournament, entry.table, entry.read
            players = {seat.player_id: seat.player for seat in read.seats}
            seated = set(players)
            _refuse_winner(table, seated, winner_id)

            def priced() -> dict[int, tuple[int, dict[str, int]]]:
                return priced_hands(locked, seated, winner_id, card_points, hands)

            scores = score(locked, table, winner_id, priced)
            game = _new_game(entry, players[winner_id], idempotency_key, actor)
            written = GameScore.objects.bulk_create(
                GameScore(game=game, player_id=pid, points=points, hand=hand) for pid, (points, hand) in scores.items()
            )
            read.prime_locked_table(table, game, written)
            refresh(locked, table, actor)
            if game.table_version != table.version:
                stamp_table_version(game, table)
            audit(locked, actor, "game_recorded", table=table.pk, game=game.number, winner=winner_id)
        game.table_after_entry = table  # the answer's panel is rendered from it, without reading again
        return game

    return record_game


def _refuse_winner(table: Table, seated: set[int], winner_id: int) -> None:
    """Refuse a winner who does not sit at the table, or a table whose first dealer is not set."""
    if winner_id not in seated:
        raise ServiceError(_("The winner does not sit at table %(number)d.") % {"number": table.number})
    if table.first_dealer_position is None:
        raise ServiceError(_("First tap who drew the highest card: that player deals the first game."))


def _new_game(entry: EntryStart, winner: Player, idempotency_key: str, actor: User) -> Game:
    """The game recorded at the locked table: its number, winner and dealer (the next seat after
    the games played), stamped with the version the table's refresh gives it."""
    table, read = entry.table, entry.read
    assert table is not None and read is not None and table.first_dealer_position is not None
    return write_game(
        entry,
        actor,
        table=table,
        number=read.next_number,
        winner=winner,  # loaded: the answer names the winner without a query
        dealer_position=(table.first_dealer_position + read.played) % len(read.seats),
        idempotency_key=idempotency_key,
        entered_by=acting_user(actor),
        # The version the refresh gives the table (checked after it).
        table_version=table.version + 1,
    )


def rescorer(score: Score) -> Callable[..., None]:
    """The scores of a correcting game (``play.corrections``), priced like a tap's: ``score`` is the
    format's, the card points come from the organiser's form."""

    def rescore(
        tournament: Tournament,
        table: Table,
        game: Game,
        card_points: Mapping[int, int] | None,
        hands: Mapping[int, Mapping[str, int]] | None,
    ) -> None:
        assert game.winner_id is not None
        winner = game.winner_id
        seated = set(table.seats.values_list("player_id", flat=True))

        def priced() -> dict[int, tuple[int, dict[str, int]]]:
            return priced_hands(tournament, seated, winner, card_points, hands)

        scores = score(tournament, table, winner, priced)
        GameScore.objects.bulk_create(
            GameScore(game=game, player_id=pid, points=points, hand=hand) for pid, (points, hand) in scores.items()
        )

    return rescore


def void_last_game(table: Table, actor: User) -> Game:
    """Mark the table's last valid game voided (kept, struck through); refused when there is none."""
    game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
    if game is None:
        raise ServiceError(_("There is no game to undo."))
    game.status = GameStatus.VOIDED
    game.voided_at = timezone.now()
    game.voided_by = acting_user(actor)
    game.save(update_fields=["status", "voided_at", "voided_by"])
    return game


def _no_guard(tournament: Tournament, table: Table) -> None:
    return None


def _after_nothing(tournament: Tournament, table: Table, game: Game, actor: User) -> None:
    return None


def undoer(
    *,
    refresh: Refresh,
    guard: Guard = _no_guard,
    after_void: Callable[[Tournament, Table, Game, User], None] = _after_nothing,
) -> Callable[..., Game]:
    """The service that undoes a table's last game for a format: its ``guard`` may refuse,
    ``after_void`` writes what else the game had moved back (chips, bands), ``refresh`` recomputes."""

    @refusals_audited("undo_game")
    def undo_last_game(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Game:
        """Void the table's last valid game (kept, marked undone) until the table is closed."""
        with transaction.atomic():
            locked = lock_tournament(tournament.pk)
            table = lock_table(locked, table_id)
            check_writable(table, version)
            guard(locked, table)
            game = void_last_game(table, actor)
            after_void(locked, table, game, actor)
            refresh(locked, table, actor)
            audit(locked, actor, "game_undone", table=table.pk, game=game.number)
        return game

    return undo_last_game


def own_entry(table: Table, actor: User) -> bool:
    """``actor`` entered one of the table's valid games (a second confirmation must come from someone else)."""
    return table.games.filter(status=GameStatus.VALID, entered_by=acting_user(actor)).exists()


def closer(*, guard: Guard = _no_guard, after: Callable[[Tournament, Table, User], None]) -> Callable[..., Table]:
    """The service that closes a decided table for a format: its ``guard`` may refuse; ``after``
    runs once the close is committed (the next round, the end of the tournament), and a refusal
    there (a count that needs the organiser's choice) is left for the rounds page."""

    @refusals_audited("close_table")
    def close_table(*, tournament: Tournament, actor: User, table_id: int, version: int) -> Table:
        """Confirm a decided table's result; after this it can no longer be undone (the organiser
        corrects it). With ``Tournament.confirm_results`` the person confirming must not have
        entered any of its games."""
        with transaction.atomic():
            locked = lock_tournament(tournament.pk)
            table = lock_table(locked, table_id)
            check_writable(table, version)
            if table.status != enums.TableStatus.DECIDED:
                raise ServiceError(_("Table %(number)d is not decided yet.") % {"number": table.number})
            guard(locked, table)
            if locked.confirm_results and own_entry(table, actor):
                raise ServiceError(
                    _(
                        "You entered this result yourself: another referee or the organiser confirms it "
                        "on their own device."
                    )
                )
            table.status = enums.TableStatus.CLOSED
            table.closed_at = table.confirmed_at = timezone.now()
            table.confirmed_by = acting_user(actor)
            table.version += 1
            table.save(update_fields=["status", "closed_at", "confirmed_at", "confirmed_by", "version"])
            bump(locked)
            audit(locked, actor, "table_closed", table=table.pk)
        with contextlib.suppress(ServiceError):
            after(locked, table, actor)
        return table

    return close_table
