"""The words a trial found wrong: times, file names, the game log, the rounds' order, band cuts, counters."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone, translation

from tournament import desk, enums
from tournament.models import RegistrationWindow, StartNumberDraw, Tournament
from tournament.tests.factories import PlayerFactory
from tournament.tests.helpers import url
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    Scenario,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
)
from tournament.views.exports import file_stem

pytestmark = [pytest.mark.django_db]


def test_english_times_use_the_24_hour_clock(desk_client, tournament) -> None:
    opens = timezone.make_aware(datetime.datetime(2026, 11, 21, 7, 30))
    RegistrationWindow.objects.create(tournament=tournament, opens_at=opens, closes_at=opens.replace(hour=23))
    body = desk_client.get(url("desk", tournament)).content.decode()
    assert "07:30 – 23:30" in body
    assert "a.m." not in body and "p.m." not in body


def test_a_draw_without_a_person_does_not_say_by_whom(desk_client, tournament) -> None:
    StartNumberDraw.objects.create(tournament=tournament, seed=7, drawn_by=None, algorithm="v1")
    body = desk_client.get(url("draw", tournament)).content.decode()
    assert "Drawn" in body and " by ?" not in body


@pytest.mark.parametrize(
    ("name", "stem"),
    [("Großer Preis von Graz", "grosser-preis-von-graz"), ("Torneo Città di Trento", "torneo-citta-di-trento")],
)
def test_export_file_names_keep_every_letter(tournament, name, stem) -> None:
    tournament.name = name
    assert file_stem(tournament) == stem
    tournament.name = "— —"
    assert file_stem(tournament) == f"tournament-{tournament.pk}"


def test_an_export_is_named_after_the_tournament(organiser_client, tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(name="Großes Turnier")
    response = organiser_client.get(url("export_standings", tournament))
    assert 'filename="grosses-turnier-standings.csv"' in response["Content-Disposition"]


def test_the_counters_speak_of_many_players_in_italian(desk_client, tournament) -> None:
    PlayerFactory.create_batch(2, tournament=tournament)
    with translation.override("it"):
        body = desk_client.get(url("desk", tournament), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Iscritti" in body and "Presenti" in body


SCENARIOS = [enums.Format.POINTS, enums.Format.LIFE_BANDS, enums.Format.KNOCKOUT]


def test_the_points_game_log_names_whose_points_they_are(client, built, staff_user) -> None:
    scenario = built[enums.Format.POINTS]
    client.force_login(staff_user(scenario.tournament, enums.Role.REFEREE))
    body = client.get(url("referee_table", scenario.tournament, scenario.decided.pk)).content.decode()
    names = {seat.player.name for seat in scenario.decided.seats.select_related("player")}
    first_game = body[body.index("Game 1:") :].split("</li>")[0]
    scored = re.findall(r"· ([^·<]+?) (\d+) points?", first_game)
    assert scored, first_game
    assert {name for name, _points in scored} <= names


def test_the_rounds_page_shows_the_newest_round_first(built, staff_user, client) -> None:
    scenario = built[enums.Format.KNOCKOUT]
    rounds = list(scenario.tournament.rounds.order_by("number"))
    client.force_login(staff_user(scenario.tournament, enums.Role.ORGANISER))
    if len(rounds) < 2:
        from tournament.models import Round

        Round.objects.create(tournament=scenario.tournament, number=2, stage=rounds[0].stage, stage_number=2, seed=1)
        rounds = list(scenario.tournament.rounds.order_by("number"))
    body = client.get(url("rounds", scenario.tournament)).content.decode()
    labels = [str(rnd) for rnd in rounds]
    assert body.index(labels[-1]) < body.index(labels[0])


def test_a_main_round_band_cut_moves_to_the_consolation_round(client, built, staff_user) -> None:
    scenario = built[enums.Format.LIFE_BANDS]
    client.force_login(staff_user(scenario.tournament, enums.Role.REFEREE))
    body = client.get(url("referee_table", scenario.tournament, scenario.decided.pk)).content.decode()
    assert "band cut · to the consolation round" in body
    assert "band cut · out" not in body.replace("last band cut · out", "")


def test_a_services_window_time_is_kept_in_the_tournaments_zone(tournament) -> None:
    opens = timezone.make_aware(datetime.datetime(2026, 11, 21, 19, 30))
    window = desk.add_registration_window(
        tournament=tournament, actor=None, opens_at=opens, closes_at=opens + datetime.timedelta(hours=1)
    )
    assert timezone.localtime(window.opens_at).hour == 19
