"""Issue 12 items 5 and 6: the final played to points or to wins, and duels of any length that
decide every tied place by play (never by start number).

The pure rules (``final_state``, ``duel_plan``) are property-tested over many player counts and
point distributions; the services play finals through ``record_game``; the settings page refuses
bad values with translated messages and saves nothing.
"""

from __future__ import annotations

import itertools
import random
import uuid

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game, GameScore, GameStatus
from tournament import enums, simulation
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.base import FormatError
from tournament.formats.knockout import rules as knockout
from tournament.formats.knockout import selectors as knockout_selectors
from tournament.formats.knockout import services as knockout_services
from tournament.models import Table, Tournament
from tournament.play import results
from tournament.tests.helpers import set_settings
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (the "organiser" fixture)

# --- pure: the final and its duels ---------------------------------------------------------------


def play_final(
    players: int, kind: str, target: int, game_winners: list[int], gains: list[int]
) -> tuple[dict[int, int], knockout.FinalState]:
    """Play games (winner index, points gained) until someone reaches ``target``."""
    ids = list(range(1, players + 1))
    scores = dict.fromkeys(ids, 0)
    start = {pid: pid for pid in ids}
    state = knockout.final_state(scores, target, start)
    for winner_index, gain in zip(game_winners, gains, strict=False):
        if state.winner is not None:
            break
        winner = ids[winner_index % players]
        scores[winner] += 1 if kind == knockout.FINAL_TO_WINS else gain
        state = knockout.final_state(scores, target, start)
    return scores, state


def play_duels(state: knockout.FinalState, luck: dict[int, int]) -> tuple[tuple[int, ...], list[knockout.DuelResult]]:
    """Play every duel the plan asks for; a duel is won by the luckiest of its players."""
    duels: list[knockout.DuelResult] = []
    for _ in range(100):
        plan = knockout.duel_plan(state, duels)
        assert sorted(plan.standing) == sorted(state.order)
        if plan.order is not None:
            assert not plan.needed and plan.standing == plan.order
            return plan.order, duels
        assert plan.needed, "an undecided final always has a duel to play"
        for needed in plan.needed:
            duels.append(knockout.DuelResult(players=needed.players, winner=max(needed.players, key=luck.get)))
    raise AssertionError("the duels never end")


class TestFinalToWinsAndDuels:
    @settings(max_examples=300, deadline=None)
    @given(
        players=st.integers(2, 8),
        kind=st.sampled_from([knockout.FINAL_TO_POINTS, knockout.FINAL_TO_WINS]),
        target=st.integers(1, 6),
        game_winners=st.lists(st.integers(0, 7), min_size=60, max_size=60),
        gains=st.lists(st.sampled_from([0, 1, 2, 20, 50]), min_size=60, max_size=60),
        luck_seed=st.integers(0, 10_000),
        start_seed=st.integers(0, 10_000),
    )
    def test_every_final_ends_in_a_strict_order_decided_by_play(
        self, players, kind, target, game_winners, gains, luck_seed, start_seed
    ):
        goal = target if kind == knockout.FINAL_TO_WINS else 20 * target
        scores, state = play_final(players, kind, goal, game_winners, gains)
        if state.winner is None:
            assert knockout.duel_plan(state, []).order is None
            return
        ids = sorted(scores)
        luck = dict(zip(ids, random.Random(luck_seed).sample(range(1000), len(ids)), strict=True))
        order, duels = play_duels(state, luck)
        assert sorted(order) == ids and len(set(order)) == len(order), "a complete strict order"
        assert order[0] == state.winner and all(scores[order[0]] > scores[p] for p in order[1:])
        for above_index, above in enumerate(order):
            for below in order[above_index + 1 :]:
                assert scores[above] >= scores[below], "more points (wins) rank higher"
                if scores[above] == scores[below]:
                    assert any(duel.winner == above and below in duel.players for duel in duels), (
                        "a tie is decided by a duel the higher player won against the lower"
                    )
        # Start numbers only seat the duels: other start numbers give the same order.
        other_start = dict(zip(ids, random.Random(start_seed).sample(ids, len(ids)), strict=True))
        assert play_duels(knockout.final_state(scores, goal, other_start), luck)[0] == order

    def test_three_way_tie_is_played_out_place_by_place(self):
        state = knockout.final_state({1: 0, 2: 0, 3: 0, 4: 3}, 3, {1: 4, 2: 3, 3: 2, 4: 1})
        plan = knockout.duel_plan(state, [])
        assert plan.needed == (knockout.DuelNeeded(players=(3, 2, 1), place=2),)
        first = knockout.DuelResult(players=(3, 2, 1), winner=1)
        plan = knockout.duel_plan(state, [first])
        assert plan.needed == (knockout.DuelNeeded(players=(3, 2), place=3),) and plan.order is None
        assert plan.standing == (4, 1, 3, 2), "the first duel's winner keeps place 2 at once"
        plan = knockout.duel_plan(state, [first, knockout.DuelResult(players=(3, 2), winner=2)])
        assert plan.order == (4, 1, 2, 3) and not plan.needed
        # The start numbers would have said 4, 3, 2, 1: play said otherwise.

    def test_a_playing_duel_holds_its_group(self):
        state = knockout.final_state({1: 2, 2: 2, 3: 5}, 5, {1: 2, 2: 1, 3: 3})
        plan = knockout.duel_plan(state, [knockout.DuelResult(players=(2, 1))])
        assert plan.needed == () and plan.order is None and plan.wanted == {(1, 2)}

    def test_duel_winner_outside_the_duel_refused(self):
        state = knockout.final_state({1: 2, 2: 2, 3: 5}, 5, {1: 2, 2: 1, 3: 3})
        with pytest.raises(FormatError) as caught:
            knockout.duel_plan(state, [knockout.DuelResult(players=(1, 2), winner=3)])
        assert caught.value.code == "duel_players_mismatch"

    def test_settings_listed_for_the_knockout_only(self):
        for name in ("final_target_kind", "final_wins_target", "duel_wins_needed"):
            assert name in knockout.SETTINGS
        assert knockout.KnockoutSettings().duel_wins_needed == knockout.DUEL_WINS_NEEDED == 1
        assert knockout.KnockoutSettings().final_target_kind == knockout.FINAL_TO_POINTS


# --- services ------------------------------------------------------------------------------------


def key() -> str:
    return uuid.uuid4().hex


def fresh(table: Table) -> Table:
    table.refresh_from_db()
    return table


def win(tournament: Tournament, table: Table, player_id: int, **extra) -> Game:
    table.refresh_from_db()
    return knockout_services.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=player_id,
        version=table.version,
        idempotency_key=key(),
        **extra,
    )


def deal(tournament: Tournament, table: Table) -> list[int]:
    ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
    results.set_first_dealer(
        tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=fresh(table).version
    )
    return ids


def close(tournament: Tournament, table: Table) -> None:
    knockout_services.close_table(tournament=tournament, actor=None, table_id=table.pk, version=fresh(table).version)


def final_of(players: int, **values) -> tuple[Tournament, Table, list[int]]:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=players)
    set_settings(tournament, **values)
    tournament.refresh_from_db()
    table = knockout_services.generate_next_round(tournament=tournament, actor=None).round.tables.get()
    return tournament, table, deal(tournament, table)


def duels(table: Table) -> list[Table]:
    return list(Table.objects.filter(round=table.round, is_duel=True).order_by("number"))


@pytest.mark.django_db
class TestFinalToWins:
    def test_played_to_wins_without_card_points(self):
        tournament, table, (a, b, c) = final_of(3, final_target_kind="wins", final_wins_target=2)
        table = fresh(table)
        assert table.wins_needed == 2 and table.points_target is None
        assert not registry.of(tournament).counts_card_points(table)
        for winner in (b, a, a):
            win(tournament, table, winner)
        table = fresh(table)
        assert table.status == enums.TableStatus.DECIDED
        assert dict(table.seats.values_list("player_id", "place")) == {a: 1, b: 2, c: 3}
        assert not GameScore.objects.filter(game__table=table).exists(), "no card points at a final to wins"
        assert not duels(table)
        close(tournament, table)
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        assert [row.player.pk for row in knockout_selectors.ranking(tournament)][:3] == [a, b, c]

    def test_the_referee_page_shows_no_calculator(self, client, staff_user):
        tournament, table, (a, _b, _c) = final_of(3, final_target_kind="wins", final_wins_target=2)
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        page = client.get(reverse("tournament:referee_table", args=[tournament.pk, table.pk]))
        assert page.status_code == 200
        assert "data-calculator-form" not in page.content.decode()
        assert "first to win 2 games" in page.content.decode()
        url = reverse("tournament:record_game", args=[tournament.pk, table.pk])
        response = client.post(
            url, {"winner": a, "version": fresh(table).version, "key": key()}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        assert fresh(table).seats.get(player_id=a).games_won == 1

    def test_points_final_is_unchanged_by_default(self, client, staff_user):
        tournament, table, _ids = final_of(3)
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        page = client.get(reverse("tournament:referee_table", args=[tournament.pk, table.pk])).content.decode()
        assert "data-calculator-form" in page
        table = fresh(table)
        assert tournament.final_target_kind == "points"
        assert table.points_target == tournament.final_points_target and table.wins_needed is None
        assert registry.of(tournament).counts_card_points(table)

    def test_three_way_tie_resolved_by_play(self):
        tournament, table, (a, b, c, d) = final_of(4, final_target_kind="wins", final_wins_target=2, final_size=4)
        for _ in range(2):
            win(tournament, table, a)
        table = fresh(table)
        assert table.status == enums.TableStatus.DECIDED
        [first] = duels(table)
        assert sorted(first.seats.values_list("player_id", flat=True)) == sorted([b, c, d])
        assert first.wins_needed == 1 and first.duel_for_place == 2
        with pytest.raises(ServiceError, match="duel for the tied places is still open"):
            close(tournament, table)
        # The player with the highest start number wins the first duel: play, not start numbers, decides.
        numbers = {s.player_id: s.player.start_number for s in first.seats.select_related("player")}
        first_winner = max((b, c, d), key=numbers.__getitem__)
        deal(tournament, first)
        win(tournament, first, first_winner)
        assert fresh(first).status == enums.TableStatus.DECIDED
        _first, second = duels(table)
        rest = sorted({b, c, d} - {first_winner})
        assert sorted(second.seats.values_list("player_id", flat=True)) == rest
        assert second.duel_for_place == 3
        assert fresh(table).seats.get(player_id=first_winner).place == 2
        second_winner = max(rest, key=numbers.__getitem__)
        deal(tournament, second)
        win(tournament, second, second_winner)
        # Undoing the first duel now would change who plays the second: refused.
        with pytest.raises(ServiceError, match="next duel has started"):
            knockout_services.undo_last_game(
                tournament=tournament, actor=None, table_id=first.pk, version=fresh(first).version
            )
        last = min(rest, key=numbers.__getitem__)
        assert dict(fresh(table).seats.values_list("player_id", "place")) == {
            a: 1,
            first_winner: 2,
            second_winner: 3,
            last: 4,
        }
        for tbl in (first, second, table):
            close(tournament, tbl)
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        ranking = knockout_selectors.ranking(tournament)
        assert [row.player.pk for row in ranking][:4] == [a, first_winner, second_winner, last]

    def test_undoing_the_final_drops_unplayed_duels(self):
        tournament, table, (a, _b, _c) = final_of(3, final_target_kind="wins", final_wins_target=1)
        win(tournament, table, a)
        assert len(duels(table)) == 1
        knockout_services.undo_last_game(
            tournament=tournament, actor=None, table_id=table.pk, version=fresh(table).version
        )
        assert not duels(table)
        assert fresh(table).status == enums.TableStatus.PLAYING

    def test_duel_with_two_games(self):
        tournament, table, (a, b, c) = final_of(3, final_target_kind="wins", final_wins_target=1, duel_wins_needed=2)
        win(tournament, table, a)
        [duel] = duels(table)
        assert duel.wins_needed == 2
        deal(tournament, duel)
        win(tournament, duel, c)
        assert fresh(duel).status == enums.TableStatus.PLAYING, "one game does not decide a duel to two"
        win(tournament, duel, b)
        win(tournament, duel, c)
        assert fresh(duel).status == enums.TableStatus.DECIDED
        assert dict(fresh(table).seats.values_list("player_id", "place")) == {a: 1, c: 2, b: 3}

    def test_points_final_tie_with_longer_duel(self):
        tournament, table, (a, b, c) = final_of(3, final_points_target=50, duel_wins_needed=3)
        win(tournament, table, a, card_points={b: 25, c: 25})
        [duel] = duels(table)
        assert duel.wins_needed == 3
        deal(tournament, duel)
        for winner in (b, c, b, c, b):
            win(tournament, duel, winner)
        assert dict(fresh(table).seats.values_list("player_id", "place")) == {a: 1, b: 2, c: 3}
        assert Game.objects.filter(table=duel, status=GameStatus.VALID).count() == 5


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (7, 3), (13, 4)])
def test_whole_tournament_with_a_final_to_wins(players, seed):
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=seed)
    set_settings(tournament, final_target_kind="wins", final_wins_target=2, duel_wins_needed=2)
    simulation.simulate(tournament, seed=seed)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    final = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.FINAL, is_duel=False)
    assert final.points_target is None and final.wins_needed == 2
    assert not GameScore.objects.filter(game__table__round__tournament=tournament).exclude(points=0).exists()
    seats = sorted(final.seats.all(), key=lambda seat: seat.place)
    assert [seat.place for seat in seats] == list(range(1, len(seats) + 1))
    assert seats[0].games_won == 2
    for above, below in itertools.pairwise(seats):
        assert above.games_won >= below.games_won
    for duel in Table.objects.filter(round=final.round, is_duel=True):
        assert duel.wins_needed == 2 and duel.seats.filter(place=1, games_won=2).exists()
    ranking = knockout_selectors.ranking(tournament)
    assert [row.place for row in ranking] == list(range(1, players + 1))
    assert [row.player.pk for row in ranking][: len(seats)] == [seat.player_id for seat in seats]


# --- the settings page -----------------------------------------------------------------------


@pytest.mark.django_db
class TestSettingsPage:
    def test_knockout_shows_the_final_and_duel_settings(self, organiser):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=4, seed=1)
        page = organiser(tournament).get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
        for name in ("final_target_kind", "final_wins_target", "duel_wins_needed"):
            assert f'name="{name}"' in page
        assert 'name="schocken_street"' not in page
        assert "a certain number of wins" in page, "the help text quotes the rule"

    def test_saved(self, organiser):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=4, seed=1)
        client = organiser(tournament)
        data = settings_data(tournament, final_target_kind="wins", final_wins_target=4, duel_wins_needed=2)
        response = client.post(reverse("tournament:settings", args=[tournament.pk]), data)
        assert response.status_code == 302, response.content.decode()[:2000]
        tournament.refresh_from_db()
        assert (tournament.final_target_kind, tournament.final_wins_target, tournament.duel_wins_needed) == (
            "wins",
            4,
            2,
        )

    @pytest.mark.parametrize(
        ("field", "value", "german"),
        [
            ("final_wins_target", 0, "größer oder gleich 1"),
            ("duel_wins_needed", 0, "größer oder gleich 1"),
            ("duel_wins_needed", 10, "kleiner oder gleich 9"),
            ("final_target_kind", "goals", "keine gültige Auswahl"),
            ("final_wins_target", "many", "ganze Zahl"),
        ],
    )
    def test_bad_values_refused_in_the_users_language(self, organiser, field, value, german):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=4, seed=1)
        client = organiser(tournament)
        before = Tournament.objects.values().get(pk=tournament.pk)
        data = settings_data(tournament, **{field: value}, name="Renamed")
        response = client.post(reverse("tournament:settings", args=[tournament.pk]), data, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 422
        assert german in response.content.decode()
        assert Tournament.objects.values().get(pk=tournament.pk) == before, "nothing saved"
