"""Players record their own table (issue 32, item 4): the services. A player's entry waits for a
table-mate's confirmation and counts nowhere until then; a pass acts only for its player, at their
own table, while it plays; a pending entry blocks every other entry; "Not right" calls a referee;
referees and the organiser confirm and reject too."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache

from games.models import Game, GameStatus
from tournament import enums
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.models import AuditEntry, PlayerPass, Seat, Table, Tournament
from tournament.passes import services, table_entry
from tournament.play import pending
from tournament.selectors import ranking as ranking_selectors
from tournament.tests.helpers import refreshed, seated, set_dealer
from tournament.tests.views.scenarios import FORMATS, field, lose, snapshot, start_round, win
from tournament.writes import REFUSED

pytestmark = pytest.mark.django_db
SEED = 20261127


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    cache.clear()
    yield
    cache.clear()


class Table4:
    """A tournament in round 1 whose players enter their tables, one table and its players' passes."""

    def __init__(self, fmt: str, mode: str = enums.TableEntry.PLAYERS, players: int = 12) -> None:
        self.tournament = field(fmt, players, SEED)
        self.tournament.table_entry = mode
        self.tournament.save(update_fields=["table_entry"])
        rnd = start_round(self.tournament, SEED)
        tables = list(rnd.tables.order_by("number"))
        self.table, self.other_table = tables[0], tables[1]
        self.ids = seated(self.table)
        self.passes = {
            pid: services.issue_pass(tournament=self.tournament, actor=None, player_id=pid)[0].pk for pid in self.ids
        }
        self.fmt = registry.of(self.tournament)
        if self.fmt.entry == "winner":
            set_dealer(self.tournament, self.table)

    def posted(self, result: int, *, key: str | None = None, version: int | None = None) -> dict[str, str]:
        """The form a phone posts: ``result`` wins (or loses, life bands); the others hold 5 points."""
        data = {"version": str(refreshed(self.table).version if version is None else version)}
        data["key"] = key or uuid.uuid4().hex
        if self.fmt.entry == "loser":
            data["loser"] = str(result)
        else:
            data["winner"] = str(result)
            if self.fmt.counts_card_points(self.table):
                data.update({f"points_{pid}": "5" for pid in self.ids if pid != result})
        return data

    def enter(self, by: int, result: int, **kwargs: object) -> Game:
        posted = self.posted(result, **kwargs)  # type: ignore[arg-type]
        return table_entry.enter(pass_id=self.passes[by], table_id=self.table.pk, data=posted).game

    def confirm(self, by: int, game: Game) -> Game:
        return table_entry.confirm(
            pass_id=self.passes[by], table_id=self.table.pk, game_id=game.pk, version=refreshed(self.table).version
        ).game

    def figures(self) -> list[tuple[object, ...]]:
        return list(
            Seat.objects.filter(table=self.table)
            .order_by("position")
            .values_list("games_won", "points", "chips", "out_order", "place")
        )


# --- entry and confirmation, every format -----------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_entry_waits_and_counts_once_a_table_mate_confirms(fmt: str) -> None:
    at = Table4(fmt)
    anna, ben = at.ids[0], at.ids[1]
    before, ranking_before = at.figures(), ranking_selectors.rows(at.tournament) if fmt == "points" else None
    game = at.enter(anna, ben)
    assert (game.status, game.entered_by_player_id, game.entered_by_id) == (GameStatus.PENDING, anna, None)
    # Waiting, it counts nowhere: the seats and the ranking are as they were.
    assert at.figures() == before
    if fmt == "points":
        cache.clear()
        assert ranking_selectors.rows(Tournament.objects.get(pk=at.tournament.pk)) == ranking_before
    confirmed = at.confirm(ben, game)
    assert confirmed.pk == game.pk
    game.refresh_from_db()
    assert (game.status, game.confirmed_by_player_id, game.entered_by_player_id) == (GameStatus.VALID, ben, anna)
    assert game.confirmed_at is not None and at.figures() != before
    # The same figures as a referee's tap: replay it on the other table and compare the moved seat.
    if fmt == "life_bands":
        assert Seat.objects.get(table=at.table, player_id=ben).chips == at.table.chips_per_player - 1
    else:
        assert Game.objects.get(pk=game.pk).winner_id == ben
    actions = list(AuditEntry.objects.filter(actor_player__isnull=False).values_list("action", "actor_player_id"))
    assert ("entry_pending", anna) in actions and ("entry_confirmed", ben) in actions


def test_a_confirmed_entry_that_decides_the_table_decides_it() -> None:
    at = Table4(enums.Format.KNOCKOUT)
    anna, ben = at.ids[0], at.ids[1]
    table = refreshed(at.table)
    for _game in range(table.wins_needed):
        at.confirm(anna, at.enter(ben, ben))
    assert refreshed(at.table).status == enums.TableStatus.DECIDED


# --- refusals: the guards ---------------------------------------------------------------------------


def test_the_enterer_cannot_confirm_their_own_entry() -> None:
    at = Table4(enums.Format.KNOCKOUT)
    game = at.enter(at.ids[0], at.ids[1])
    with pytest.raises(ServiceError, match="You entered this game yourself"):
        at.confirm(at.ids[0], game)
    assert Game.objects.get(pk=game.pk).status == GameStatus.PENDING
    assert AuditEntry.objects.filter(action=REFUSED, actor_player_id=at.ids[0]).exists()


def test_another_tables_entry_is_refused_and_nothing_saved() -> None:
    at = Table4(enums.Format.POINTS)
    before = snapshot()
    with pytest.raises(ServiceError, match="You do not sit at this table"):
        table_entry.enter(pass_id=at.passes[at.ids[0]], table_id=at.other_table.pk, data=at.posted(at.ids[0]))
    with pytest.raises(ServiceError, match="You do not sit at this table"):
        table_entry.call_referee(pass_id=at.passes[at.ids[0]], table_id=at.other_table.pk)
    assert snapshot() == before


def test_a_revoked_pass_is_refused() -> None:
    at = Table4(enums.Format.LIFE_BANDS)
    game = at.enter(at.ids[0], at.ids[1])
    services.issue_pass(tournament=at.tournament, actor=None, player_id=at.ids[1])  # Ben's old pass is replaced
    before = snapshot()
    with pytest.raises(ServiceError, match="replaced"):
        at.confirm(at.ids[1], game)
    with pytest.raises(ServiceError, match="replaced"):
        at.enter(at.ids[1], at.ids[2])
    assert snapshot() == before


def test_a_table_not_playing_or_referees_only_is_refused() -> None:
    at = Table4(enums.Format.KNOCKOUT)
    before = snapshot()
    Table.objects.filter(pk=at.table.pk).update(status=enums.TableStatus.DECIDED)
    with pytest.raises(ServiceError, match="no longer plays"):
        at.enter(at.ids[0], at.ids[1])
    Table.objects.filter(pk=at.table.pk).update(status=enums.TableStatus.PLAYING)
    Tournament.objects.filter(pk=at.tournament.pk).update(table_entry=enums.TableEntry.REFEREES)
    with pytest.raises(ServiceError, match="referees enter the results"):
        at.enter(at.ids[0], at.ids[1])
    assert snapshot()[0] == before[0] and not Game.objects.exists()


def test_a_retry_with_the_same_key_answers_replayed_and_a_stale_version_is_refused() -> None:
    at = Table4(enums.Format.POINTS)
    posted = at.posted(at.ids[1])
    first = table_entry.enter(pass_id=at.passes[at.ids[0]], table_id=at.table.pk, data=posted).game
    again = table_entry.enter(pass_id=at.passes[at.ids[0]], table_id=at.table.pk, data=posted).game
    assert again.pk == first.pk and again.replayed and Game.objects.count() == 1
    at.confirm(at.ids[1], first)
    # After its confirmation the retry still answers the same game.
    assert table_entry.enter(pass_id=at.passes[at.ids[0]], table_id=at.table.pk, data=posted).game.pk == first.pk
    with pytest.raises(ServiceError, match="was changed on another tablet"):
        at.enter(at.ids[2], at.ids[2], version=1)
    assert Game.objects.count() == 1


def test_a_pending_entry_blocks_every_other_entry_with_what_to_do() -> None:
    at = Table4(enums.Format.KNOCKOUT)
    anna = Seat.objects.get(table=at.table, player_id=at.ids[0]).player
    at.enter(anna.pk, at.ids[1])
    words = f"{anna.name}'s entry for game 1 waits for confirmation: confirm it or say it is not right first."
    with pytest.raises(ServiceError) as refused:
        at.enter(at.ids[2], at.ids[2])
    assert refused.value.message == words
    with pytest.raises(ServiceError) as refused:
        win(at.tournament, at.table, at.ids[2])  # a referee's tap
    assert refused.value.message == words
    assert Game.objects.count() == 1


def test_not_right_voids_the_entry_and_calls_a_referee() -> None:
    at = Table4(enums.Format.LIFE_BANDS)
    game = at.enter(at.ids[0], at.ids[1])
    before = at.figures()
    table_entry.reject(pass_id=at.passes[at.ids[2]], table_id=at.table.pk, game_id=game.pk, reason="Ben did not lose")
    game.refresh_from_db()
    table = refreshed(at.table)
    assert (game.status, game.void_reason) == (GameStatus.VOIDED, "Ben did not lose")
    assert table.referee_called_at is not None and table.referee_called_by_id == at.ids[2]
    assert table.referee_call_reason == enums.RefereeCall.DISAGREEMENT and at.figures() == before
    # The table plays on: a new entry is taken.
    assert at.enter(at.ids[1], at.ids[1]).status == GameStatus.PENDING


def test_the_enterer_takes_an_entry_back_without_a_call() -> None:
    at = Table4(enums.Format.POINTS)
    game = at.enter(at.ids[0], at.ids[1])
    table_entry.reject(pass_id=at.passes[at.ids[0]], table_id=at.table.pk, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == GameStatus.VOIDED
    assert refreshed(at.table).referee_called_at is None


def test_a_referee_confirms_or_rejects_a_pending_entry_and_answers_the_call(staff_user) -> None:  # type: ignore[no-untyped-def]
    at = Table4(enums.Format.KNOCKOUT, mode=enums.TableEntry.BOTH)
    referee = staff_user(at.tournament, enums.Role.REFEREE)
    table_entry.call_referee(pass_id=at.passes[at.ids[0]], table_id=at.table.pk)
    assert refreshed(at.table).referee_call_reason == enums.RefereeCall.ASKED
    game = at.enter(at.ids[0], at.ids[1])
    pending.reject_entry(tournament=at.tournament, actor=referee, table_id=at.table.pk, game_id=game.pk)
    assert refreshed(at.table).referee_called_at is None
    game = at.enter(at.ids[0], at.ids[1])
    version = refreshed(at.table).version
    recorded = pending.confirm_entry(
        tournament=at.tournament,
        fmt=registry.of(at.tournament),
        actor=referee,
        table_id=at.table.pk,
        game_id=game.pk,
        version=version,
    )
    game.refresh_from_db()
    assert recorded.game.pk == game.pk and (game.status, game.confirmed_by_id) == (GameStatus.VALID, referee.pk)
    # A second "Confirm" (a double tap) answers the same game, nothing new.
    version = refreshed(at.table).version
    again = pending.confirm_entry(
        tournament=at.tournament,
        fmt=registry.of(at.tournament),
        actor=referee,
        table_id=at.table.pk,
        game_id=game.pk,
        version=version,
    )
    assert again.game.replayed and Game.objects.filter(status=GameStatus.VALID).count() == 1


def test_a_staff_entry_answers_the_tables_call(staff_user) -> None:  # type: ignore[no-untyped-def]
    at = Table4(enums.Format.LIFE_BANDS, mode=enums.TableEntry.BOTH)
    assert table_entry.call_referee(pass_id=at.passes[at.ids[0]], table_id=at.table.pk)
    assert not table_entry.call_referee(pass_id=at.passes[at.ids[1]], table_id=at.table.pk)  # already called
    lose(at.tournament, at.table, at.ids[0], actor=staff_user(at.tournament, enums.Role.REFEREE))
    assert refreshed(at.table).referee_called_at is None
    assert AuditEntry.objects.filter(action="referee_call_cleared").count() == 1


def test_a_player_out_at_the_table_no_longer_enters() -> None:
    at = Table4(enums.Format.LIFE_BANDS)
    Seat.objects.filter(table=at.table, player_id=at.ids[0]).update(out_order=1)
    with pytest.raises(ServiceError, match="You are out at this table"):
        at.enter(at.ids[0], at.ids[1])


def test_a_pass_of_another_tournament_never_reaches_this_table() -> None:
    at = Table4(enums.Format.KNOCKOUT)
    elsewhere = Table4(enums.Format.KNOCKOUT)
    with pytest.raises(ServiceError, match="You do not sit at this table"):
        table_entry.enter(pass_id=elsewhere.passes[elsewhere.ids[0]], table_id=at.table.pk, data=at.posted(at.ids[0]))
    assert not Game.objects.exists()
    assert PlayerPass.objects.count() == 2 * len(at.ids)
