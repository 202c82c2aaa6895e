"""Two referee tablets writing to one table at the same moment, on real PostgreSQL connections.

Each scenario runs twice, as for the desk (the desk's ``test_concurrency.py``):
- ``simultaneous``: both threads are released by a barrier at once;
- ``interleaved``: the first thread keeps its transaction open after the
  service call while the second thread calls its service. This forces the race
  every time: without the tournament row lock the second call would read the
  table before the first one's game and act on a stale state.

After every race the table must be consistent: each seat's games won equals
the number of valid games that player won, the decision and places follow
from them, and nothing was written by a refused call.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.formats.knockout import rules as knockout
from tournament.formats.knockout import services as knockout_services
from tournament.models import Round, Table, Tournament
from tournament.play import results
from tournament.tests.races import HOLD_SECONDS, MODES, POSTGRES_RACES, STALE, one_stale_refusal, run_two, unexpected

pytestmark = POSTGRES_RACES


def user(username: str) -> object:
    """A staff account (no password: hashing one costs more than the race)."""
    return get_user_model().objects.create(username=username)


@dataclass
class Setup:
    tournament: Tournament
    table: Table
    ids: list[int]
    left: object
    right: object

    def version(self) -> int:
        self.table.refresh_from_db()
        return self.table.version

    def record(self, winner: int, *, version: int | None, key: str, actor: object | None = None) -> Game:
        return knockout_services.record_game(
            tournament=self.tournament,
            actor=actor,
            table_id=self.table.pk,
            winner_id=winner,
            version=version,  # type: ignore[arg-type]
            idempotency_key=key,
        )

    def undo(self, *, version: int | None, actor: object | None = None) -> Game:
        return knockout_services.undo_last_game(
            tournament=self.tournament,
            actor=actor,
            table_id=self.table.pk,
            version=version,  # type: ignore[arg-type]
        )


@pytest.fixture
def setup() -> Setup:
    """Round 1 of six players; table 1 has its first dealer and no game yet."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=21)
    rnd = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=21).round
    assert rnd is not None
    table = rnd.tables.order_by("number").first()
    assert table is not None
    ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
    results.set_first_dealer(
        tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=table.version
    )
    table.refresh_from_db()
    left, right = (user("tablet-left"), user("tablet-right"))
    return Setup(tournament, table, ids, left, right)


def assert_consistent(table: Table) -> None:
    """The stored tallies, decision and places follow from the valid games alone."""
    table.refresh_from_db()
    valid = list(Game.objects.filter(table=table, status=GameStatus.VALID).order_by("number"))
    numbers = [game.number for game in valid]
    assert len(set(numbers)) == len(numbers)
    seats = list(table.seats.select_related("player").order_by("position"))
    wins = {seat.player_id: sum(1 for game in valid if game.winner_id == seat.player_id) for seat in seats}
    for seat in seats:
        assert seat.games_won == wins[seat.player_id], (seat, wins)
    decided = any(count >= (table.wins_needed or 1) for count in wins.values())
    assert table.status == (enums.TableStatus.DECIDED if decided else enums.TableStatus.PLAYING)
    if decided:
        start = {seat.player_id: seat.player.start_number for seat in seats}
        order = knockout.table_places(wins, start)
        assert {seat.player_id: seat.place for seat in seats} == {pid: i for i, pid in enumerate(order, 1)}
    else:
        assert all(seat.place is None for seat in seats)
    # The dealer moved one seat left after every valid game.
    for played, game in enumerate(valid):
        assert game.dealer_position == (table.first_dealer_position + played) % len(seats)


# --------------------------------------------------------------------------
# (a) Two tablets, one table, the same view, different games
# --------------------------------------------------------------------------


@MODES
def test_two_tablets_record_on_one_table_with_the_same_view(setup, interleaved):
    a, b, _c = setup.ids
    version = setup.version()

    outcomes = run_two(
        lambda: setup.record(a, version=version, key="left-" + uuid.uuid4().hex, actor=setup.left),
        lambda: setup.record(b, version=version, key="right-" + uuid.uuid4().hex, actor=setup.right),
        interleaved=interleaved,
    )

    games = one_stale_refusal(outcomes, setup.table)
    assert setup.version() == version + 1
    assert_consistent(setup.table)
    if interleaved:  # the first tablet's game stands; the second waited for its lock
        assert outcomes[0].error is None and games[0].winner_id == a
        assert outcomes[1].elapsed >= HOLD_SECONDS * 0.8


# --------------------------------------------------------------------------
# (b) A Wi-Fi retry racing the original submission
# --------------------------------------------------------------------------


@MODES
def test_retry_racing_the_original_records_one_game(setup, interleaved):
    a, _b, _c = setup.ids
    version = setup.version()
    key = uuid.uuid4().hex

    outcomes = run_two(
        lambda: setup.record(a, version=version, key=key, actor=setup.left),
        lambda: setup.record(a, version=version, key=key, actor=setup.left),
        interleaved=interleaved,
    )

    # The code answers a retry with the game already recorded (not an error, not an IntegrityError).
    assert [o.error for o in outcomes] == [None, None]
    assert outcomes[0].value.pk == outcomes[1].value.pk  # type: ignore[attr-defined]
    assert Game.objects.filter(table=setup.table).count() == 1
    assert Game.objects.get(idempotency_key=key).winner_id == a
    assert setup.version() == version + 1
    assert_consistent(setup.table)


@MODES
def test_retry_racing_a_stale_tablet(setup, interleaved):
    """The original, its retry and a second tablet's tap, all on the same view: one game."""
    a, b, _c = setup.ids
    version = setup.version()
    key = uuid.uuid4().hex
    setup.record(a, version=version, key=key)  # the original got through

    outcomes = run_two(
        lambda: setup.record(a, version=version, key=key),  # its retry
        lambda: setup.record(b, version=version, key=uuid.uuid4().hex),  # the other tablet
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert outcomes[0].error is None
    assert STALE in outcomes[1].error.message  # type: ignore[union-attr]
    assert Game.objects.filter(table=setup.table).count() == 1
    assert_consistent(setup.table)


# --------------------------------------------------------------------------
# (c) Undo racing a new game
# --------------------------------------------------------------------------


def two_games_played(setup: Setup) -> int:
    a, b, _c = setup.ids
    setup.record(a, version=setup.version(), key=uuid.uuid4().hex)
    setup.record(b, version=setup.version(), key=uuid.uuid4().hex)
    return setup.version()


@MODES
def test_undo_racing_a_new_game_with_the_same_view(setup, interleaved):
    _a, _b, c = setup.ids
    version = two_games_played(setup)

    outcomes = run_two(
        lambda: setup.undo(version=version, actor=setup.left),
        lambda: setup.record(c, version=version, key=uuid.uuid4().hex, actor=setup.right),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sorted(o.error is None for o in outcomes) == [False, True]
    failure = next(o for o in outcomes if o.error is not None)
    assert STALE in failure.error.message  # type: ignore[union-attr]
    games = Game.objects.filter(table=setup.table)
    if outcomes[0].error is None:  # the undo won: game 2 undone, no third game
        assert games.count() == 2 and games.filter(status=GameStatus.VOIDED).count() == 1
    else:  # the new game won: three valid games
        assert games.count() == 3 and games.filter(status=GameStatus.VALID).count() == 3
    if interleaved:
        assert outcomes[0].error is None
    assert_consistent(setup.table)


@MODES
def test_undo_racing_a_new_game_without_version_check(setup, interleaved):
    """Even without the tablet's version (both calls accepted), the row locks
    serialise them: the tallies still follow from the valid games."""
    a, _b, c = setup.ids
    two_games_played(setup)

    outcomes = run_two(
        lambda: setup.undo(version=None),
        lambda: setup.record(c, version=None, key=uuid.uuid4().hex),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    games = Game.objects.filter(table=setup.table)
    assert games.count() == 3
    assert games.filter(status=GameStatus.VOIDED).count() == 1
    assert games.filter(status=GameStatus.VALID).count() == 2
    voided = games.get(status=GameStatus.VOIDED)
    if interleaved:  # the undo came first: it voided game 2; the new game is valid
        assert voided.number == 2
        assert games.get(pk=outcomes[1].value.pk).status == GameStatus.VALID  # type: ignore[attr-defined]
    assert games.filter(status=GameStatus.VALID, winner_id=a).count() == 1
    assert_consistent(setup.table)


@MODES
def test_two_tablets_undo_at_once(setup, interleaved):
    """A double tap on undo: one game undone, not two."""
    version = two_games_played(setup)

    outcomes = run_two(
        lambda: setup.undo(version=version),
        lambda: setup.undo(version=version),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sorted(o.error is None for o in outcomes) == [False, True]
    assert Game.objects.filter(table=setup.table, status=GameStatus.VOIDED).count() == 1
    assert_consistent(setup.table)


# --------------------------------------------------------------------------
# More races on one tournament
# --------------------------------------------------------------------------


@MODES
def test_two_tablets_set_the_first_dealer_at_once(interleaved):
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=22)
    table = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1).round.tables.first()
    first, second, _third = table.seats.order_by("position").values_list("player_id", flat=True)
    version = table.version

    outcomes = run_two(
        *(
            lambda pid=pid: results.set_first_dealer(
                tournament=tournament, actor=None, table_id=table.pk, player_id=pid, version=version
            )
            for pid in (first, second)
        ),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sorted(o.error is None for o in outcomes) == [False, True]
    table.refresh_from_db()
    assert table.version == version + 1
    winner = next(o for o in outcomes if o.error is None)
    assert table.first_dealer_position == winner.value.first_dealer_position  # type: ignore[attr-defined]


@MODES
def test_next_round_pressed_twice_at_once(interleaved):
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=23)
    organiser = user("organiser")

    outcomes = run_two(
        lambda: knockout_services.generate_next_round(
            tournament=tournament, actor=organiser, seed=1, choice="plain_round"
        ),
        lambda: knockout_services.generate_next_round(
            tournament=tournament, actor=organiser, seed=2, choice="plain_round"
        ),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sorted(o.error is None for o in outcomes) == [False, True]
    failure = next(o for o in outcomes if o.error is not None)
    assert "Tables still playing" in failure.error.message  # type: ignore[union-attr]
    assert Round.objects.filter(tournament=tournament).count() == 1


@MODES
def test_last_two_tables_closed_at_once_with_auto_advance(interleaved):
    """Two referees close the round's last tables together: exactly one next round."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=24)
    tournament.auto_advance = True
    tournament.save(update_fields=["auto_advance"])
    rnd = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1).round
    tables = list(rnd.tables.order_by("number"))
    for table in tables:
        ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
        table = results.set_first_dealer(
            tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=table.version
        )
        for _ in range(table.wins_needed or 1):
            table.refresh_from_db()
            knockout_services.record_game(
                tournament=tournament,
                actor=None,
                table_id=table.pk,
                winner_id=ids[1],
                version=table.version,
                idempotency_key=uuid.uuid4().hex,
            )
    versions = [Table.objects.get(pk=t.pk).version for t in tables]

    outcomes = run_two(
        *(
            lambda t=t, v=v: knockout_services.close_table(tournament=tournament, actor=None, table_id=t.pk, version=v)
            for t, v in zip(tables, versions, strict=True)
        ),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.stage for r in rounds] == [enums.Stage.MAIN, enums.Stage.LUCKY_LOSER]
    assert rounds[0].status == enums.RoundStatus.FINISHED
    assert rounds[1].tables.count() == 1


@MODES
def test_last_table_closed_while_the_organiser_presses_next_round(interleaved):
    """Auto-advance and the organiser's button at the same moment: one next round, never two."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=25)
    tournament.auto_advance = True
    tournament.save(update_fields=["auto_advance"])
    rnd = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1).round
    for table in rnd.tables.order_by("number"):
        ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
        table = results.set_first_dealer(
            tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=table.version
        )
        for _ in range(table.wins_needed or 1):
            table.refresh_from_db()
            knockout_services.record_game(
                tournament=tournament,
                actor=None,
                table_id=table.pk,
                winner_id=ids[2],
                version=table.version,
                idempotency_key=uuid.uuid4().hex,
            )
    first, last = rnd.tables.order_by("number")
    knockout_services.close_table(tournament=tournament, actor=None, table_id=first.pk, version=first.version)
    last.refresh_from_db()

    outcomes = run_two(
        lambda: knockout_services.close_table(
            tournament=tournament, actor=None, table_id=last.pk, version=last.version
        ),
        lambda: knockout_services.generate_next_round(tournament=tournament, actor=None, seed=3),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sum(o.error is None for o in outcomes) >= 1
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.stage for r in rounds] == [enums.Stage.MAIN, enums.Stage.LUCKY_LOSER]
    assert set(rounds[0].tables.values_list("status", flat=True)) == {enums.TableStatus.CLOSED}
    assert rounds[0].status == enums.RoundStatus.FINISHED
    if interleaved:  # the referee's close came first and advanced; the button found the new round playing
        assert outcomes[0].error is None
        assert "Tables still playing" in outcomes[1].error.message  # type: ignore[union-attr]
