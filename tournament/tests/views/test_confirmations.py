"""The confirmation step of the destructive actions, through the views (issue 11):
drawing start numbers again, withdrawing a player, finishing a points tournament early.

The first POST (no ``confirm=1``) answers the question in place (the whole page
without htmx, the region with it) with the service's words and changes nothing;
``confirm=1`` acts; any other value of ``confirm`` is a no, never an error. Who may
do it at all is unchanged (403 for the wrong role, also with ``confirm=1``).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament import enums
from tournament.desk import start_numbers
from tournament.models import Player, StartNumberDraw, Tournament
from tournament.tests.desk.helpers import checked_in_players, numbers_of
from tournament.tests.factories import PlayerFactory
from tournament.tests.formats.points.helpers import play_round, points_field, start
from tournament.tests.helpers import url

pytestmark = [pytest.mark.core, pytest.mark.django_db]

HTMX = {"HTTP_HX_REQUEST": "true"}
# (A NUL character never reaches the view: config.middleware answers 400, see test_hostile_input.py.)
GARBAGE = ["", "0", "yes", "true", "1 ", "２", "\x01", "1;drop"]


def htmx(target: str) -> dict[str, str]:
    return {**HTMX, "HTTP_HX_TARGET": target}


def body(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


# --- draw again ------------------------------------------------------------------------


@pytest.fixture
def drawn(tournament, staff_user):  # type: ignore[no-untyped-def]
    desk_user = staff_user(tournament, enums.Role.DESK)
    checked_in_players(tournament, desk_user, 6)
    start_numbers.draw_start_numbers(tournament=tournament, actor=desk_user, seed=1)
    return tournament


class TestDrawAgain:
    def test_first_draw_needs_no_confirmation(self, desk_client, tournament, staff_user):
        checked_in_players(tournament, staff_user(tournament, enums.Role.DESK), 3)
        response = desk_client.post(url("draw", tournament), {"seed": "7"})
        assert response.status_code == 302
        assert StartNumberDraw.objects.filter(tournament=tournament).count() == 1

    def test_first_post_shows_the_question_and_changes_nothing(self, desk_client, drawn):
        before = numbers_of(drawn)
        response = desk_client.post(url("draw", drawn), {"seed": "42"})
        assert response.status_code == 200
        page = body(response)
        assert "All 6 checked-in players get new start numbers." in page
        assert "must be printed again" in page
        assert "Yes, draw again" in page and "Cancel" in page
        assert 'name="confirm" value="1"' in page and 'name="seed" value="42"' in page
        assert "<html" in page, "without htmx: the whole page"
        assert numbers_of(drawn) == before
        assert StartNumberDraw.objects.filter(tournament=drawn).count() == 1

    def test_confirmed_post_draws_again(self, desk_client, drawn):
        before = numbers_of(drawn)
        response = desk_client.post(url("draw", drawn), {"seed": "42", "confirm": "1"})
        assert response.status_code == 302
        assert numbers_of(drawn) != before
        assert StartNumberDraw.objects.filter(tournament=drawn).latest("pk").seed == 42

    def test_htmx_answers_the_question_in_place_then_redirects(self, desk_client, drawn):
        before = numbers_of(drawn)
        response = desk_client.post(url("draw", drawn), {"seed": "42"}, **htmx("draw-step"))
        assert response.status_code == 200
        page = body(response)
        assert page.lstrip().startswith('<section class="card no-print" id="draw-step">')
        assert "All 6 checked-in players get new start numbers." in page
        assert 'hx-post="{}"'.format(url("draw", drawn)) in page
        assert numbers_of(drawn) == before
        confirmed = desk_client.post(url("draw", drawn), {"seed": "42", "confirm": "1"}, **htmx("draw-step"))
        assert confirmed.status_code == 200 and confirmed["HX-Redirect"] == url("draw", drawn)
        assert numbers_of(drawn) != before

    def test_cancel_in_place_shows_the_form_again(self, desk_client, drawn):
        response = desk_client.get(url("draw", drawn), **htmx("draw-step"))
        assert response.status_code == 200
        page = body(response)
        assert "Draw again" in page and "Yes, draw again" not in page and "<html" not in page

    @pytest.mark.parametrize("value", GARBAGE)
    def test_any_other_confirm_value_is_a_no(self, desk_client, drawn, value):
        before = numbers_of(drawn)
        response = desk_client.post(url("draw", drawn), {"seed": "42", "confirm": value})
        assert response.status_code == 200 and "Yes, draw again" in body(response)
        assert numbers_of(drawn) == before

    def test_bad_seed_is_a_form_error_not_a_question(self, desk_client, drawn):
        response = desk_client.post(url("draw", drawn), {"seed": "not-a-number", "confirm": "1"})
        assert response.status_code == 422 and "Yes, draw again" not in body(response)
        assert StartNumberDraw.objects.filter(tournament=drawn).count() == 1

    def test_after_play_started_still_refused_even_confirmed(self, desk_client, drawn):
        Tournament.objects.filter(pk=drawn.pk).update(status=enums.TournamentStatus.RUNNING)
        before = numbers_of(drawn)
        response = desk_client.post(url("draw", drawn), {"confirm": "1"})
        assert response.status_code == 422
        assert "can no longer be drawn again" in body(response)
        assert numbers_of(drawn) == before

    @pytest.mark.parametrize("role", [enums.Role.REFEREE, None])
    def test_without_the_desk_role_refused(self, client, drawn, staff_user, make_user, role):
        client.force_login(staff_user(drawn, role) if role else make_user())
        before = numbers_of(drawn)
        assert client.post(url("draw", drawn), {"confirm": "1"}).status_code == 403
        assert numbers_of(drawn) == before


# --- withdraw --------------------------------------------------------------------------


def status(player: Player) -> str:
    return Player.objects.values_list("status", flat=True).get(pk=player.pk)


class TestWithdraw:
    def test_first_post_asks_without_javascript(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament, name="Anna Berger")
        response = desk_client.post(url("withdraw", tournament, player.pk), {"q": "Anna"})
        assert response.status_code == 200
        page = body(response)
        assert "Withdraw Anna Berger?" in page and "Yes, withdraw" in page
        assert "<html" in page and 'name="q" value="Anna"' in page
        assert reverse("tournament:check_in", args=[tournament.pk]) + "?q=Anna" in page
        assert status(player) == enums.PlayerStatus.REGISTERED

    def test_htmx_answers_in_the_row(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament, name="Anna Berger")
        response = desk_client.post(url("withdraw", tournament, player.pk), **htmx(f"player-{player.pk}"))
        assert response.status_code == 200
        page = body(response)
        assert page.lstrip().startswith(f'<article class="player-row is-registered" id="player-{player.pk}"')
        assert "Withdraw Anna Berger?" in page and f'hx-target="#player-{player.pk}"' in page
        assert status(player) == enums.PlayerStatus.REGISTERED
        confirmed = desk_client.post(url("withdraw", tournament, player.pk), {"confirm": "1"}, **HTMX)
        assert confirmed.status_code == 200 and "Yes, withdraw" not in body(confirmed)
        assert status(player) == enums.PlayerStatus.WITHDRAWN

    def test_confirmed_without_javascript_withdraws(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament)
        response = desk_client.post(url("withdraw", tournament, player.pk), {"confirm": "1"})
        assert response.status_code == 302
        assert status(player) == enums.PlayerStatus.WITHDRAWN

    @pytest.mark.parametrize("value", GARBAGE)
    def test_any_other_confirm_value_is_a_no(self, desk_client, tournament, value):
        player = PlayerFactory(tournament=tournament)
        response = desk_client.post(url("withdraw", tournament, player.pk), {"confirm": value}, **HTMX)
        assert response.status_code == 200 and "Yes, withdraw" in body(response)
        assert status(player) == enums.PlayerStatus.REGISTERED

    def test_already_withdrawn_is_refused_as_before(self, desk_client, tournament):
        player = PlayerFactory(tournament=tournament, status=enums.PlayerStatus.WITHDRAWN, name="Bea")
        response = desk_client.post(url("withdraw", tournament, player.pk), {"confirm": "1"}, **HTMX)
        assert "Bea has already withdrawn." in body(response) and "Yes, withdraw" not in body(response)

    def test_unknown_player_is_refused_not_asked(self, desk_client, tournament):
        response = desk_client.post(url("withdraw", tournament, 999_999), {"confirm": "0"})
        assert response.status_code in (302, 404)

    def test_in_play_the_question_says_the_table_plays_on(self, client, staff_user):
        tournament = points_field(players=12, seed=2)
        table = start(tournament).tables.order_by("number").first()
        seat = table.seats.select_related("player").first()
        client.force_login(staff_user(tournament, enums.Role.DESK))
        response = client.post(url("withdraw", tournament, seat.player_id), **HTMX)
        assert response.status_code == 200
        assert f"{seat.player.name} sits at table {table.number} of Round 1, which is still playing" in body(response)
        assert status(seat.player) == enums.PlayerStatus.CHECKED_IN

    @pytest.mark.parametrize("role", [enums.Role.REFEREE, None])
    def test_without_the_desk_role_refused(self, client, tournament, staff_user, make_user, role):
        player = PlayerFactory(tournament=tournament)
        client.force_login(staff_user(tournament, role) if role else make_user())
        response = client.post(url("withdraw", tournament, player.pk), {"confirm": "1"})
        assert response.status_code == 403
        assert status(player) == enums.PlayerStatus.REGISTERED


# --- finish early (points) -------------------------------------------------------------


@pytest.fixture
def after_round_one():  # type: ignore[no-untyped-def]
    # Not about ties: a tie after round 1 shares its place instead of asking for a play-off first
    # (finishing with a play-off due: tests/formats/points/test_ties.py).
    tournament = points_field(rounds_planned=4, points_tie_resolution="shared")
    play_round(tournament, start(tournament, seed=1))
    return tournament


def tournament_status(tournament: Tournament) -> str:
    return Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk)


FINISH = {"action": "finish"}
WARNING = "Round 1 of 4 is done. Rounds 2–4 will not be played; the ranking after round 1 becomes final."


class TestFinishEarly:
    @pytest.fixture
    def organiser(self, client, staff_user, after_round_one):  # type: ignore[no-untyped-def]
        client.force_login(staff_user(after_round_one, enums.Role.ORGANISER))
        return client

    def test_the_rounds_page_sets_the_finish_apart(self, organiser, after_round_one):
        page = body(organiser.get(url("rounds", after_round_one)))
        seat, finish = page.index("Seat round 2"), page.index("Finish the tournament")
        assert seat < page.index('class="finish-early"') < finish
        assert 'class="btn btn-danger" type="submit">Finish the tournament' in page

    def test_first_post_shows_the_warning_and_changes_nothing(self, organiser, after_round_one):
        response = organiser.post(url("next_round", after_round_one), FINISH)
        assert response.status_code == 200
        page = body(response)
        assert WARNING in page and "Yes, finish now" in page and "<html" in page
        assert 'name="action" value="finish"' in page and 'name="confirm" value="1"' in page
        assert tournament_status(after_round_one) == enums.TournamentStatus.RUNNING

    def test_htmx_shows_the_warning_in_place(self, organiser, after_round_one):
        response = organiser.post(url("next_round", after_round_one), FINISH, **htmx("rounds-body"))
        assert response.status_code == 200
        page = body(response)
        assert page.lstrip().startswith('<div id="rounds-body"') and "<html" not in page
        assert WARNING in page and "data-dirty" in page, "the poller leaves the question alone"
        assert tournament_status(after_round_one) == enums.TournamentStatus.RUNNING

    def test_confirmed_finishes(self, organiser, after_round_one):
        response = organiser.post(url("next_round", after_round_one), {**FINISH, "confirm": "1"})
        assert response.status_code == 302 and response["Location"] == url("ranking", after_round_one)
        assert tournament_status(after_round_one) == enums.TournamentStatus.FINISHED

    def test_confirmed_under_htmx_redirects_the_browser(self, organiser, after_round_one):
        response = organiser.post(url("next_round", after_round_one), {**FINISH, "confirm": "1"}, **HTMX)
        assert response.status_code == 200 and response["HX-Redirect"] == url("ranking", after_round_one)
        assert tournament_status(after_round_one) == enums.TournamentStatus.FINISHED

    @pytest.mark.parametrize("value", GARBAGE)
    def test_any_other_confirm_value_is_a_no(self, organiser, after_round_one, value):
        response = organiser.post(url("next_round", after_round_one), {**FINISH, "confirm": value})
        assert response.status_code == 200 and WARNING in body(response)
        assert tournament_status(after_round_one) == enums.TournamentStatus.RUNNING

    def test_while_tables_play_refused_as_before(self, organiser, after_round_one):
        start(after_round_one, seed=2)
        for extra in ({}, HTMX):
            response = organiser.post(url("next_round", after_round_one), {**FINISH, "confirm": "1"}, **extra)
            assert response.status_code == 409 and "still playing" in body(response)
        assert tournament_status(after_round_one) == enums.TournamentStatus.RUNNING

    def test_seating_the_next_round_asks_nothing(self, organiser, after_round_one):
        response = organiser.post(url("next_round", after_round_one), {"action": "round"})
        assert response.status_code == 302

    @pytest.mark.parametrize("role", [enums.Role.DESK, enums.Role.REFEREE])
    def test_without_the_organiser_role_refused(self, client, staff_user, after_round_one, role):
        client.force_login(staff_user(after_round_one, role))
        response = client.post(url("next_round", after_round_one), {**FINISH, "confirm": "1"})
        assert response.status_code == 403
        assert tournament_status(after_round_one) == enums.TournamentStatus.RUNNING
