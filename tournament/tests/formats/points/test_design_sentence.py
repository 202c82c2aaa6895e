"""Issue 28: the organiser's preview and the round's note say whether the known repeat-free
schedule for the field is reached (points format)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tournament import designs, enums
from tournament.formats.points import services as points_services
from tournament.seating import SeatingPlan
from tournament.tests.formats.points.helpers import play_round, points_field, start


def plan_of(tables: list[tuple[int, ...]], ahead: int) -> SeatingPlan:
    return SeatingPlan(tables=tuple(tables), seed=1, algorithm="x", repeat_free_ahead=ahead)


def kirkman_round(ahead: int) -> SeatingPlan:
    return plan_of([tuple(range(start, start + 3)) for start in range(0, 21, 3)], ahead)


def test_the_sentence_in_each_case() -> None:
    with translation.override("en"):
        full = points_services.design_sentence(kirkman_round(10), [], 10)
        short = points_services.design_sentence(kirkman_round(8), [], 10)
        planned = points_services.design_sentence(kirkman_round(4), [], 4)
        fewer = points_services.design_sentence(kirkman_round(3), [], 4)
    prefix = "For 21 players at tables of 3, 10 rounds without a repeated pair are known to exist; "
    assert full == prefix + "this plan reaches all 10."
    assert short == prefix + "this plan reaches 8 of 10."
    assert planned == prefix + "this plan keeps all 4 planned rounds free of repeats."
    assert fewer == prefix + "this plan keeps 3 of the 4 planned rounds free of repeats."


def test_earlier_rounds_count_and_a_repeat_stops_the_run() -> None:
    """Two earlier rounds without a repeat and the plan's 8 ahead reach all 10; the same round
    twice leaves only the first (and the plan's rounds do not count after a repeat)."""
    classes = designs.resolution(21, 3)
    assert classes is not None
    first, second = ([list(table) for table in group] for group in classes[:2])
    with translation.override("en"):
        clean = points_services.design_sentence(kirkman_round(8), [first, second], 10)
        repeated = points_services.design_sentence(kirkman_round(8), [first, first], 10)
    assert clean.endswith("this plan reaches all 10.")
    assert repeated.endswith("this plan reaches 1 of 10.")


def test_nothing_where_nothing_is_known() -> None:
    """Mixed table sizes, or a field without more than one known round: no sentence."""
    mixed = plan_of([(0, 1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)], 1)
    assert points_services.design_sentence(mixed, [], 5) == ""
    alone = plan_of(
        [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15), (16, 17, 18, 19), (20, 21, 22, 23)], 1
    )
    assert points_services.design_sentence(alone, [], 5) == ""  # 24 at tables of 4: nothing known here


def test_german_and_italian() -> None:
    with translation.override("de"):
        german = points_services.design_sentence(kirkman_round(8), [], 10)
    with translation.override("it"):
        italian = points_services.design_sentence(kirkman_round(10), [], 10)
    assert german == (
        "Für 21 Spieler an Tischen mit 3 sind 10 Runden ohne wiederholtes Paar bekanntermaßen möglich; "
        "dieser Plan erreicht 8 von 10."
    )
    assert italian == (
        "Per 21 giocatori a tavoli da 3 è noto che esistono 10 turni senza coppie ripetute; "
        "questo piano li raggiunge tutti e 10."
    )


@pytest.mark.django_db
def test_twenty_one_players_reach_the_kirkman_system_round_after_round(client, staff_user) -> None:  # type: ignore[no-untyped-def]
    """21 players at tables of 3 over 10 rounds: the preview says the plan reaches all 10, the
    stored round carries the sentence, and the next round continues without a repeat."""
    tournament = points_field(players=21, rounds_planned=10, games_per_round=1, table_size=3, table_size_max=3)
    sentence = (
        "For 21 players at tables of 3, 10 rounds without a repeated pair are known to exist; this plan reaches all 10."
    )
    with translation.override("en"):
        for number in range(3):
            planned = points_services.plan_next_round(tournament, seed=number + 5)
            assert sentence in planned.note
            assert planned.plan.repeated_pairs == 0
            assert planned.plan.repeat_free_ahead == 10 - number
            round_ = start(tournament, seed=number + 5)
            assert sentence in round_.seating_note
            play_round(tournament, round_, seed=number)
            tournament.refresh_from_db()
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.get(
        reverse("tournament:points_preview", args=[tournament.pk, 4]), {"seed": 3}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert sentence in page.content.decode()
