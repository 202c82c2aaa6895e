"""Two tablets (or two organiser taps) at the same moment on a life-bands
tournament, on real PostgreSQL connections.

Each scenario runs twice, as for the knockout format:
- ``simultaneous``: both threads are released by a barrier at once;
- ``interleaved``: the first thread keeps its transaction open after the
  service call while the second calls its service, which forces the race.

After every race the table and the pool must be consistent: each seat's chips
and out order follow from the valid games alone, every chip handed in has
exactly one ledger entry, nobody waits twice in the pool, and nobody sits at
two playing tables.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.life_bands import services as life_bands_services
from tournament.models import LedgerEntry, PoolEntry, Round, Seat, Table, Tournament
from tournament.tests.helpers import seated
from tournament.tests.races import HOLD_SECONDS, MODES, POSTGRES_RACES, STALE, one_stale_refusal, run_two, unexpected

pytestmark = POSTGRES_RACES


def user(username: str) -> object:
    return get_user_model().objects.create(username=username)


def version(table: Table) -> int:
    table.refresh_from_db()
    return table.version


def lose(tournament: Tournament, table: Table, loser: int, *, key: str | None = None, at: int | None = None) -> Game:
    return life_bands_services.record_loss(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        loser_id=loser,
        version=version(table) if at is None else at,
        idempotency_key=key or uuid.uuid4().hex,
    )


def cut_band(tournament: Tournament, table: Table, loser: int) -> None:
    while Seat.objects.get(table=table, player_id=loser).out_order is None:
        lose(tournament, table, loser)


def assert_table_consistent(table: Table) -> None:
    """Chips, out order and decision follow from the valid games; one ledger entry per game."""
    table.refresh_from_db()
    valid = list(Game.objects.filter(table=table, status=GameStatus.VALID).order_by("number"))
    numbers = [game.number for game in valid]
    assert len(set(numbers)) == len(numbers)
    chips = dict.fromkeys(seated(table), table.chips_per_player or 0)
    out: list[int] = []
    for game in valid:
        assert LedgerEntry.objects.filter(game=game, kind=enums.LedgerKind.CHIP_LOST).count() == 1
        chips[game.loser_id] -= 1
        if chips[game.loser_id] == 0:
            out.append(game.loser_id)
    assert all(count >= 0 for count in chips.values())
    for seat in table.seats.all():
        assert seat.chips == chips[seat.player_id]
        assert seat.out_order == (out.index(seat.player_id) + 1 if seat.player_id in out else None)
    decided = life_bands.table_decided(len(chips), len(out))
    # A decided table is closed once a player of it is seated elsewhere (``services._close_tables_left``).
    assert table.status in (
        (enums.TableStatus.DECIDED, enums.TableStatus.CLOSED) if decided else (enums.TableStatus.PLAYING,)
    )
    cuts = LedgerEntry.objects.filter(table=table, kind=enums.LedgerKind.BAND_CUT).exclude(
        game__status=GameStatus.VOIDED
    )
    assert sorted(cuts.values_list("player_id", flat=True)) == sorted(out)


def assert_pool_consistent(tournament: Tournament) -> None:
    """Nobody waits twice, nobody waits while playing, nobody sits at two playing tables."""
    waiting = list(
        PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).values_list("player_id", flat=True)
    )
    assert len(waiting) == len(set(waiting)), "the pool holds a player twice"
    playing = list(
        Seat.objects.filter(
            table__round__tournament=tournament, table__status=enums.TableStatus.PLAYING, out_order__isnull=True
        ).values_list("player_id", flat=True)
    )
    twice = [pid for pid, n in Counter(playing).items() if n > 1]
    assert twice == [], "players at two tables at once"
    assert not set(waiting) & set(playing), "players waiting in the pool while playing"
    seated_from_pool = PoolEntry.objects.filter(tournament=tournament, left_reason=PoolEntry.Left.SEATED)
    for entry in seated_from_pool:
        assert entry.seated_at_table is not None
        assert entry.seated_at_table.seats.filter(player_id=entry.player_id).exists()


# --------------------------------------------------------------------------
# Two tablets on one table
# --------------------------------------------------------------------------


@dataclass
class Setup:
    tournament: Tournament
    table: Table
    ids: list[int]


@pytest.fixture
def setup() -> Setup:
    """Round 1 of eight players: two tables of 4, no game yet."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=31)
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=31)
    assert rnd is not None
    table = rnd.tables.order_by("number").first()
    assert table is not None and len(seated(table)) == 4
    return Setup(tournament, table, seated(table))


@MODES
def test_two_tablets_tap_lost_with_the_same_view(setup, interleaved):
    a, b, *_rest = setup.ids
    seen = version(setup.table)

    outcomes = run_two(
        lambda: lose(setup.tournament, setup.table, a, key="left-" + uuid.uuid4().hex, at=seen),
        lambda: lose(setup.tournament, setup.table, b, key="right-" + uuid.uuid4().hex, at=seen),
        interleaved=interleaved,
    )

    games = one_stale_refusal(outcomes, setup.table)
    assert LedgerEntry.objects.filter(kind=enums.LedgerKind.CHIP_LOST).count() == 1
    assert version(setup.table) == seen + 1
    assert_table_consistent(setup.table)
    if interleaved:  # the first tablet's tap stands; the second waited for the lock
        assert outcomes[0].error is None and games[0].loser_id == a
        assert outcomes[1].elapsed >= HOLD_SECONDS * 0.8


@MODES
def test_a_retry_racing_the_original_hands_in_one_chip(setup, interleaved):
    a, *_rest = setup.ids
    seen = version(setup.table)
    key = uuid.uuid4().hex

    outcomes = run_two(
        lambda: lose(setup.tournament, setup.table, a, key=key, at=seen),
        lambda: lose(setup.tournament, setup.table, a, key=key, at=seen),
        interleaved=interleaved,
    )

    # The retry is answered with the game already recorded: no error, no IntegrityError.
    assert [o.error for o in outcomes] == [None, None]
    assert outcomes[0].value.pk == outcomes[1].value.pk  # type: ignore[attr-defined]
    assert Game.objects.filter(table=setup.table).count() == 1
    assert LedgerEntry.objects.filter(kind=enums.LedgerKind.CHIP_LOST).count() == 1
    assert Seat.objects.get(table=setup.table, player_id=a).chips == 1
    assert_table_consistent(setup.table)


@MODES
def test_the_band_cutting_tap_twice_cuts_one_band(setup, interleaved):
    """The second chip of a player, sent twice at once (a Wi-Fi retry): one band cut, one pool entry."""
    a, *_rest = setup.ids
    lose(setup.tournament, setup.table, a)
    seen = version(setup.table)
    key = uuid.uuid4().hex

    outcomes = run_two(
        lambda: lose(setup.tournament, setup.table, a, key=key, at=seen),
        lambda: lose(setup.tournament, setup.table, a, key=key, at=seen),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    assert LedgerEntry.objects.filter(kind=enums.LedgerKind.BAND_CUT, player_id=a).count() == 1
    assert PoolEntry.objects.filter(player_id=a).count() == 1
    assert life_bands_selectors.bands_left(setup.tournament, [a])[a] == 1
    assert_table_consistent(setup.table)
    assert_pool_consistent(setup.tournament)


@MODES
def test_undo_racing_a_new_tap(setup, interleaved):
    a, b, *_rest = setup.ids
    lose(setup.tournament, setup.table, a)
    seen = version(setup.table)

    outcomes = run_two(
        lambda: life_bands_services.undo_last_loss(
            tournament=setup.tournament, actor=None, table_id=setup.table.pk, version=seen
        ),
        lambda: lose(setup.tournament, setup.table, b, at=seen),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sorted(o.error is None for o in outcomes) == [False, True]
    assert STALE in next(o for o in outcomes if o.error is not None).error.message  # type: ignore[union-attr]
    assert_table_consistent(setup.table)


# --------------------------------------------------------------------------
# The consolation pool
# --------------------------------------------------------------------------


@pytest.fixture
def pool_of_seven() -> Tournament:
    """Round 1 of 24 players (eight tables of 3): seven decided, table 1 still playing,
    so 7 wait in the pool while more can come."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=24, seed=32)
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=32)
    assert rnd is not None
    _playing, *others = rnd.tables.order_by("number")
    assert len(others) == 7
    for table in others:
        cut_band(tournament, table, seated(table)[0])
    assert len(life_bands_selectors.state(tournament).pool) == 7
    return tournament


def consolation_seats(tournament: Tournament) -> list[int]:
    return list(
        Seat.objects.filter(table__round__tournament=tournament, table__round__stage=enums.Stage.CONSOLATION)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


@MODES
def test_two_organiser_taps_form_the_pool_tables_once(pool_of_seven, interleaved):
    tournament = pool_of_seven
    waiting = sorted(life_bands_selectors.state(tournament).pool)
    organiser = user("organiser")

    outcomes = run_two(
        lambda: life_bands_services.form_consolation_tables(tournament=tournament, actor=organiser, seed=1),
        lambda: life_bands_services.form_consolation_tables(tournament=tournament, actor=organiser, seed=2),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    assert sorted(o.error is None for o in outcomes) == [False, True]
    failure = next(o for o in outcomes if o.error is not None)
    assert "a table needs at least 3" in failure.error.message  # type: ignore[union-attr]
    assert consolation_seats(tournament) == waiting, "each pool player seated exactly once"
    assert Round.objects.filter(tournament=tournament, stage=enums.Stage.CONSOLATION).count() == 1
    assert sorted(len(seated(t)) for t in Table.objects.filter(round__stage=enums.Stage.CONSOLATION)) == [3, 4]
    assert not PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).exists()
    assert_pool_consistent(tournament)


@MODES
def test_a_band_cut_while_the_organiser_forms_tables(pool_of_seven, interleaved):
    """The last main table cuts a band while the organiser taps: the newcomer is seated or waits, never both."""
    tournament = pool_of_seven
    table = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.MAIN, number=1)
    newcomer = seated(table)[0]
    lose(tournament, table, newcomer)
    seen = version(table)

    outcomes = run_two(
        lambda: lose(tournament, table, newcomer, at=seen),
        lambda: life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=3),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    assert_table_consistent(table)
    assert_pool_consistent(tournament)
    assert PoolEntry.objects.filter(player_id=newcomer).count() == 1
    waiting = list(PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).values_list("player_id"))
    assert len(consolation_seats(tournament)) + len(waiting) == 8


@MODES
def test_undoing_a_band_cut_while_the_organiser_seats_that_player(pool_of_seven, interleaved):
    """Either the undo comes first (the player leaves the pool, is not seated) or the
    seating does (the undo is refused: the player already plays elsewhere)."""
    tournament = pool_of_seven
    table = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.MAIN, number=2)
    cut = seated(table)[0]
    seen = version(table)

    outcomes = run_two(
        lambda: life_bands_services.undo_last_loss(tournament=tournament, actor=None, table_id=table.pk, version=seen),
        lambda: life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=4),
        interleaved=interleaved,
    )

    assert unexpected(outcomes) == []
    undo, form = outcomes
    assert form.error is None
    if undo.error is None:
        assert cut not in consolation_seats(tournament)
        assert life_bands_selectors.bands_left(tournament, [cut])[cut] == 2
        assert Seat.objects.get(table=table, player_id=cut).out_order is None
    else:
        # Seating the player closed the decided table they came from (``services._close_tables_left``):
        # the undo is refused as at any closed table; still playing, the guard names who moved on.
        message = undo.error.message  # type: ignore[attr-defined]
        assert "already play at another table" in message or "is closed" in message
        assert cut in consolation_seats(tournament)
        assert life_bands_selectors.bands_left(tournament, [cut])[cut] == 1
    if interleaved:
        assert undo.error is None
    assert_table_consistent(table)
    assert_pool_consistent(tournament)


@MODES
def test_two_last_main_tables_decided_at_once_with_auto_advance(interleaved):
    """Two referees decide the round's last tables together, then close them together: the next
    main round and the consolation tables are seated once, every player at one table. (In
    automatic mode the players move on at the close, ``services._after_close``: deciding alone
    seats nothing, so the last tap can still be undone.)"""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=6, seed=33)
    Tournament.objects.filter(pk=tournament.pk).update(auto_advance=True)
    tournament.refresh_from_db()
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=33)
    assert rnd is not None
    tables = list(rnd.tables.order_by("number"))
    assert [len(seated(t)) for t in tables] == [3, 3]
    losers = [seated(t)[0] for t in tables]
    for table, loser in zip(tables, losers, strict=True):
        lose(tournament, table, loser)  # one chip left: the next tap decides the table
    versions = [version(t) for t in tables]

    outcomes = run_two(
        *(lambda t=t, p=p, v=v: lose(tournament, t, p, at=v) for t, p, v in zip(tables, losers, versions, strict=True)),
        interleaved=interleaved,
    )

    assert [o.error for o in outcomes] == [None, None]
    for table in tables:
        assert_table_consistent(table)
    main = Round.objects.filter(tournament=tournament, stage=enums.Stage.MAIN).order_by("number")
    assert main.count() == 1, "decided, not closed: nobody moves on yet"
    versions = [version(t) for t in tables]
    close = life_bands_services.close_table
    closes = run_two(
        *(
            lambda t=t, v=v: close(tournament=tournament, actor=None, table_id=t.pk, version=v)
            for t, v in zip(tables, versions, strict=True)
        ),
        interleaved=interleaved,
    )
    assert [o.error for o in closes] == [None, None]
    assert main.count() == 2, "the survivors re-seated exactly once"
    final = main.last().tables.get()  # type: ignore[union-attr]
    assert final.is_final and len(seated(final)) == 4
    assert_pool_consistent(tournament)
    # The 2 cut players wait (a table needs 3) or nobody was seated twice.
    assert sorted(
        PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).values_list("player_id", flat=True)
    ) == sorted(losers)
