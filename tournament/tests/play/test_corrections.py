"""The organiser's corrections, for every format: a closed table corrected before the next round
exists, after it exists with no game played there, and after games were played there. Each time
the consequences are shown first (nothing saved), confirming applies exactly them, and the stored
tables and ranking equal a recomputation from the valid games."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from games.models import Game, GameStatus
from tournament import enums
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.life_bands import services as life_bands_services
from tournament.models import AuditEntry, PoolEntry, Seat, Table, Tournament
from tournament.play import corrections
from tournament.tests.helpers import refreshed, seated, set_dealer
from tournament.tests.views.scenarios import field, lose, start_round, win

pytestmark = [pytest.mark.core, pytest.mark.django_db]

REASON = "the referee tapped the wrong player"


# --- helpers --------------------------------------------------------------------------------


def close(tournament: Tournament, table: Table) -> None:
    registry.of(tournament).close_table(
        tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
    )


def last_game(table: Table) -> Game:
    game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
    assert game is not None
    return game


def on_last_game(tournament: Tournament, table: Table) -> dict[str, Any]:
    """The organiser's correction of the table's last valid game, as the page posts it."""
    return {
        "tournament": tournament,
        "fmt": registry.of(tournament),
        "actor": None,
        "table_id": table.pk,
        "game_id": last_game(table).pk,
        "version": refreshed(table).version,
        "reason": REASON,
    }


def confirmed(service: Any, **kwargs: Any) -> Any:
    """Call a correction twice as the organiser's page does: read the consequences, then confirm."""
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        service(**kwargs)
    return asked.value, service(**kwargs, confirm=asked.value.fingerprint)


def state(tournament: Tournament) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    ranking = [(row.place, row.player.pk, row.decided_by) for row in registry.of(tournament).ranking(tournament)]
    seats = list(
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("pk")
        .values_list("table_id", "player_id", "games_won", "points", "chips", "place", "advances", "out_order")
    )
    return ranking, seats


def assert_recomputed(tournament: Tournament) -> None:
    """The stored outcome equals a recomputation of every table from its valid games."""
    stored = state(tournament)
    fmt = registry.of(tournament)
    with transaction.atomic():
        for table in Table.objects.filter(round__tournament=tournament).order_by("pk"):
            fmt.corrections.refresh(tournament, Table.objects.select_for_update().get(pk=table.pk), None)
        assert state(tournament) == stored
        transaction.set_rollback(True)


def snapshot(tournament: Tournament) -> tuple[Any, ...]:
    return (
        state(tournament),
        list(Game.objects.filter(table__round__tournament=tournament).values_list("pk", "status").order_by("pk")),
        list(PoolEntry.objects.filter(tournament=tournament).values_list("pk", "left_reason").order_by("pk")),
        list(Table.objects.filter(round__tournament=tournament).values_list("pk", "status").order_by("pk")),
    )


# --- knockout -------------------------------------------------------------------------------


def knockout_round_one() -> tuple[Tournament, list[Table], dict[int, list[int]]]:
    """Nine players, three tables of three. At each table seat 1 and seat 2 win alternately,
    seat 1 the last game: seat 1 wins the table, correcting the last game makes seat 2 win."""
    tournament = field(enums.Format.KNOCKOUT, 9, seed=4)
    tables = list(start_round(tournament, seed=4).tables.order_by("number"))
    order = {}
    for table in tables:
        a, b, _c = set_dealer(tournament, table)
        needed = refreshed(table).wins_needed or 1
        for winner in [a, b] * (needed - 1) + [a]:
            win(tournament, table, winner)
        assert refreshed(table).status == enums.TableStatus.DECIDED
        close(tournament, table)
        order[table.pk] = [a, b]
    return tournament, tables, order


def correct_to(tournament: Tournament, table: Table, winner: int, **extra: Any) -> Any:
    return confirmed(
        corrections.correct_game,
        **on_last_game(tournament, table),
        winner_id=winner,
        **extra,
    )


def test_knockout_closed_table_before_the_next_round() -> None:
    tournament, tables, order = knockout_round_one()
    table = tables[2]
    _a, b = order[table.pk]
    asked, game = correct_to(tournament, table, b)
    assert any("instead of" in line for line in asked.lines)
    assert any("goes on yes → no" in line for line in asked.lines)
    table.refresh_from_db()
    assert table.status == enums.TableStatus.CLOSED  # still decided: stays closed
    winner = Seat.objects.get(table=table, place=1)
    assert winner.player_id == b and game.winner_id == b
    old = game.supersedes
    assert old.status == GameStatus.SUPERSEDED and old.void_reason == REASON and game.correction_reason == REASON
    assert AuditEntry.objects.filter(tournament=tournament, action="game_corrected").count() == 1
    assert_recomputed(tournament)


def test_knockout_after_the_next_round_is_seated_with_no_game_played() -> None:
    tournament, tables, order = knockout_round_one()
    lucky = start_round(tournament, seed=5)  # the lucky-loser round: every loser of round 1
    table = tables[0]
    a, b = order[table.pk]
    assert Seat.objects.filter(table__round=lucky, player_id=b).exists()
    before = snapshot(tournament)
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        corrections.correct_game(
            **on_last_game(tournament, table),
            winner_id=b,
        )
    assert snapshot(tournament) == before  # shown, not done
    swap = [line for line in asked.value.lines if "replaces" in line]
    assert len(swap) == 1 and "no game has been played there yet" in swap[0]
    correct_to(tournament, table, b)
    assert Seat.objects.filter(table__round=lucky, player_id=a).exists()  # now a loser: plays the lucky losers
    assert not Seat.objects.filter(table__round=lucky, player_id=b).exists()
    assert_recomputed(tournament)


def test_knockout_after_games_were_played_downstream() -> None:
    tournament, tables, order = knockout_round_one()
    lucky = start_round(tournament, seed=5)
    table = tables[1]
    a, b = order[table.pk]
    downstream = Table.objects.get(round=lucky, seats__player_id=b)
    set_dealer(tournament, downstream)
    win(tournament, downstream, b)
    kwargs: dict[str, Any] = {
        **on_last_game(tournament, table),
        "winner_id": b,
    }
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        corrections.correct_game(**kwargs)
    assert asked.value.blocked and "1 game played there would be voided" in asked.value.blocked[0]
    # Confirming without voiding the downstream games is not enough: nothing changes.
    before = snapshot(tournament)
    with pytest.raises(corrections.ConfirmConsequences):
        corrections.correct_game(**kwargs, confirm=asked.value.fingerprint)
    assert snapshot(tournament) == before
    with pytest.raises(corrections.ConfirmConsequences) as again:
        corrections.correct_game(**kwargs, void_downstream=True)
    corrections.correct_game(**kwargs, void_downstream=True, confirm=again.value.fingerprint)
    assert not downstream.games.filter(status=GameStatus.VALID).exists()
    assert downstream.games.filter(status=GameStatus.VOIDED).count() == 1
    assert Seat.objects.filter(table=downstream, player_id=a).exists()
    assert_recomputed(tournament)


# --- life bands -----------------------------------------------------------------------------


def life_bands_round_one() -> tuple[Tournament, list[Table], dict[int, list[int]]]:
    """Twelve players, four tables of three: at each table seat 2 loses all but one chip, then
    seat 1 all of theirs (the last game). Correcting that last game makes seat 2 lose the band."""
    tournament = field(enums.Format.LIFE_BANDS, 12, seed=4)
    tables = list(start_round(tournament, seed=4).tables.order_by("number"))
    order = {}
    for table in tables:
        a, b, _c = seated(table)
        chips = refreshed(table).chips_per_player or 1
        for _ in range(chips - 1):
            lose(tournament, table, b)
            lose(tournament, table, a)
        lose(tournament, table, a)
        assert refreshed(table).status == enums.TableStatus.DECIDED
        close(tournament, table)
        order[table.pk] = [a, b]
    return tournament, tables, order


def correct_loser(tournament: Tournament, table: Table, loser: int, **extra: Any) -> Any:
    return confirmed(
        corrections.correct_game,
        **on_last_game(tournament, table),
        loser_id=loser,
        **extra,
    )


def test_life_bands_closed_table_before_the_next_round() -> None:
    tournament, tables, order = life_bands_round_one()
    table = tables[0]
    _a, b = order[table.pk]
    correct_loser(tournament, table, b)
    out = Seat.objects.get(table=table, out_order=1)
    assert out.player_id == b
    assert set(
        PoolEntry.objects.filter(left_at__isnull=True, source_table=table).values_list("player_id", flat=True)
    ) == {b}
    assert refreshed(table).status == enums.TableStatus.CLOSED
    assert_recomputed(tournament)


def test_life_bands_after_the_consolation_table_is_seated_with_no_game_played() -> None:
    tournament, tables, order = life_bands_round_one()
    consolation = life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=3)[0]
    table = next(t for t in tables if Seat.objects.filter(table=consolation, player_id=order[t.pk][0]).exists())
    a, b = order[table.pk]
    asked, _game = correct_loser(tournament, table, b)
    assert any("replaces" in line and "no game has been played there yet" in line for line in asked.lines)
    assert Seat.objects.filter(table=consolation, player_id=b).exists()
    assert not Seat.objects.filter(table=consolation, player_id=a).exists()
    assert PoolEntry.objects.get(player_id=b, source_table=table).seated_at_table_id == consolation.pk
    assert_recomputed(tournament)


def test_life_bands_after_games_were_played_downstream() -> None:
    tournament, tables, order = life_bands_round_one()
    consolation = life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=3)[0]
    table = next(t for t in tables if Seat.objects.filter(table=consolation, player_id=order[t.pk][0]).exists())
    a, b = order[table.pk]
    lose(tournament, consolation, a)
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        corrections.correct_game(
            **on_last_game(tournament, table),
            loser_id=b,
        )
    assert asked.value.blocked
    correct_loser(tournament, table, b, void_downstream=True)
    assert not consolation.games.filter(status=GameStatus.VALID).exists()
    assert Seat.objects.get(table=consolation, player_id=b).chips == refreshed(consolation).chips_per_player
    assert_recomputed(tournament)


# --- points ---------------------------------------------------------------------------------


def points_round_one() -> tuple[Tournament, list[Table]]:
    tournament = field(enums.Format.POINTS, 9, seed=4)
    tables = list(start_round(tournament, seed=4).tables.order_by("number"))
    for table in tables:
        for winner in set_dealer(tournament, table):
            win(tournament, table, winner)
        close(tournament, table)
    return tournament, tables


def test_points_closed_table_before_the_next_round() -> None:
    tournament, tables = points_round_one()
    table = tables[0]
    a, b, c = seated(table)
    asked, game = correct_to(tournament, table, a, card_points={b: 40, c: 2})
    assert any("points" in line for line in asked.lines)
    assert dict(game.scores.values_list("player_id", "points")) == {a: 0, b: 40, c: 2}  # penalty points
    valid = Game.objects.filter(table=table, status=GameStatus.VALID)
    for pid in (a, b, c):
        held = sum(valid.filter(scores__player_id=pid).values_list("scores__points", flat=True))
        assert Seat.objects.get(table=table, player_id=pid).points == held
    assert Seat.objects.get(table=table, player_id=b).points >= 40
    assert_recomputed(tournament)


def test_points_after_the_next_round_with_and_without_games_there() -> None:
    tournament, tables = points_round_one()
    second = start_round(tournament, seed=5)
    table = tables[1]
    a, b, c = seated(table)
    correct_to(tournament, table, b, card_points={a: 7, c: 8})
    assert_recomputed(tournament)
    downstream = second.tables.order_by("number").first()
    assert downstream is not None
    winner = set_dealer(tournament, downstream)[0]
    win(tournament, downstream, winner)
    asked, _game = correct_to(tournament, table, c, card_points={a: 1, b: 2})
    assert not asked.blocked  # later rounds do not depend on the results: nothing downstream
    assert downstream.games.filter(status=GameStatus.VALID).count() == 1
    assert_recomputed(tournament)


# --- the other corrections and bad inputs ----------------------------------------------------


def test_void_a_game_of_a_closed_table_reopens_it() -> None:
    tournament, tables, _order = knockout_round_one()
    table = tables[0]
    game = last_game(table)
    asked, voided = confirmed(
        corrections.void_game,
        tournament=tournament,
        fmt=registry.of(tournament),
        actor=None,
        table_id=table.pk,
        game_id=game.pk,
        version=refreshed(table).version,
        reason=REASON,
    )
    assert voided.status == GameStatus.VOIDED and voided.void_reason == REASON
    assert refreshed(table).status == enums.TableStatus.PLAYING
    assert any("Closed → Playing" in line or "→" in line for line in asked.lines)
    assert_recomputed(tournament)


def test_void_refused_when_later_rounds_stand_on_the_table() -> None:
    tournament, tables, _order = knockout_round_one()
    start_round(tournament, seed=5)
    table = tables[0]
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match="no longer be decided"):
        corrections.void_game(
            **on_last_game(tournament, table),
        )
    assert snapshot(tournament) == before
    assert AuditEntry.objects.filter(action="entry_refused", detail__attempt="void_game").exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"reason": "   "}, "needs a reason"),
        ({"reason": "x" * 301}, "too long"),
        ({"version": 0}, "changed on another tablet"),
        ({"winner_id": -1}, "must sit at this table"),
        ({"game_id": -1}, "does not exist"),
    ],
)
def test_bad_corrections_are_refused_with_nothing_saved(change: dict[str, Any], message: str) -> None:
    tournament, tables, order = knockout_round_one()
    table = tables[0]
    kwargs: dict[str, Any] = {
        **on_last_game(tournament, table),
        "winner_id": order[table.pk][1],
    }
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match=message):
        corrections.correct_game(**{**kwargs, **change})
    assert snapshot(tournament) == before


def test_a_corrected_game_cannot_be_corrected_again() -> None:
    tournament, tables, order = knockout_round_one()
    table = tables[0]
    old = last_game(table)
    correct_to(tournament, table, order[table.pk][1])
    with pytest.raises(ServiceError, match="already corrected or voided"):
        corrections.correct_game(
            tournament=tournament,
            fmt=registry.of(tournament),
            actor=None,
            table_id=table.pk,
            game_id=old.pk,
            version=refreshed(table).version,
            reason=REASON,
            winner_id=order[table.pk][0],
        )


def test_a_stale_confirmation_is_asked_again() -> None:
    """Something changed between reading the consequences and confirming: nothing is saved."""
    tournament, tables, order = knockout_round_one()
    table = tables[0]
    before = snapshot(tournament)
    with pytest.raises(corrections.ConfirmConsequences):
        corrections.correct_game(
            **on_last_game(tournament, table),
            winner_id=order[table.pk][1],
            confirm="0123456789abcdef",
        )
    assert snapshot(tournament) == before


def test_change_the_first_dealer_after_games() -> None:
    tournament, tables, _order = knockout_round_one()
    table = tables[0]
    players = seated(table)
    corrections.change_first_dealer(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        player_id=players[2],
        version=refreshed(table).version,
        reason=REASON,
    )
    table.refresh_from_db()
    assert table.first_dealer_position == 2
    dealers = list(
        table.games.filter(status=GameStatus.VALID).order_by("number").values_list("dealer_position", flat=True)
    )
    assert dealers == [(2 + i) % 3 for i in range(len(dealers))]
    assert AuditEntry.objects.filter(action="first_dealer_changed", detail__reason=REASON).exists()


def test_reopen_a_closed_table_only_while_nothing_stands_on_it() -> None:
    tournament, tables, _order = knockout_round_one()
    table = tables[0]
    corrections.reopen_table(
        tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version, reason=REASON
    )
    assert refreshed(table).status == enums.TableStatus.DECIDED
    close(tournament, table)
    start_round(tournament, seed=5)
    with pytest.raises(ServiceError, match="can no longer be reopened"):
        corrections.reopen_table(
            tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version, reason=REASON
        )
