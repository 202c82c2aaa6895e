"""A deviation from the plain rule is asked in words, recorded on the round and shown on the
organiser's page; the public pages (the projector's bracket, api.json) read only the public note:
who moved up or stayed out, never the organiser's choice or the planner's forecast (issue 26)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tournament import enums, simulation
from tournament.errors import NeedsChoice
from tournament.formats.knockout import services as knockout_services
from tournament.models import AuditEntry, Round, Seat
from tournament.selectors import public

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def play_round(tournament, rnd: Round, seed: int) -> None:
    for table in rnd.tables.all():
        simulation.play_table(tournament, table, random.Random(seed), None)


def seven_players_after_round_one():
    """Seven players: tables of 4 and 3 (no other way for round 1: its note says the lucky-loser
    round will need a table of 5), five losers for the lucky-loser round."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=7, seed=3)
    first = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1).round
    assert first.seating_note.startswith("Expected: Lucky-loser round at one table of 5, outside 3 to 4;")
    assert first.public_note == ""
    assert sorted(t.seats.count() for t in first.tables.all()) == [3, 4]
    play_round(tournament, first, 1)
    return tournament, first


def test_the_lucky_loser_round_asks_and_records_the_choice(client, staff_user) -> None:
    tournament, first = seven_players_after_round_one()
    with pytest.raises(NeedsChoice) as caught:
        knockout_services.generate_next_round(tournament=tournament, actor=None, seed=2)
    codes = [o.code for o in caught.value.options]
    # One table of 5 reaches a final of 3; dropping a loser comes last. (3 + 2 would lead to a final
    # of 4 with as many tables outside the sizes: no choice, not offered.)
    assert codes == ["one_larger_table", "one_fewer"]

    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.post(reverse("tournament:next_round", args=[tournament.pk]))
    assert page.status_code == 409
    body = page.content.decode()
    words = "Lucky-loser round at one table of 5, outside 3 to 4. Then: a final of 3 players."
    assert 'value="one_larger_table"' in body and words in body
    assert 'value="one_larger_table" required checked' in body, "the first option is ticked"
    assert 'value="one_fewer" required >' in body, "leaving players out is never ticked"

    lucky = knockout_services.generate_next_round(
        tournament=tournament, actor=None, seed=2, choice="one_larger_table"
    ).round
    losers = set(Seat.objects.filter(table__round=first).exclude(place=1).values_list("player_id", flat=True))
    seated = set(Seat.objects.filter(table__round=lucky).values_list("player_id", flat=True))
    assert len(losers) == 5 and seated == losers, "every round-1 loser plays"
    assert [t.seats.count() for t in lucky.tables.all()] == [5]
    assert words in lucky.seating_note and lucky.public_note == ""
    started = AuditEntry.objects.get(tournament=tournament, action="round_started", detail__round=lucky.number)
    assert started.detail["choice"] == "one_larger_table" and started.detail["dropped"] == []

    # The organiser's words stay on the staff pages; the public pages have no planner's note.
    document = client.get(reverse("tournament:api", args=[tournament.public_key])).json()
    assert [r["note"] for r in document["rounds"]] == ["", ""]
    snap = public.snapshot(tournament)
    assert snap.rounds[1].note == ""
    screen = client.get(reverse("tournament:projector_screen", args=[tournament.public_key])).content.decode()
    assert "outside 3 to 4" not in screen and "organiser" not in screen.lower()
    rounds_page = client.get(reverse("tournament:rounds", args=[tournament.pk])).content.decode()
    assert words in rounds_page


def test_a_plain_round_records_no_note() -> None:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=17, seed=3)
    first = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1).round
    assert first.seating_note == "" and first.public_note == ""


def test_tables_of_four_chosen_for_the_final_are_noted() -> None:
    """23 players: 7 + 5 winners; round 2 seats the 12 at three tables of 4 (not four of 3)."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=23, seed=3)
    for number in (1, 2):
        rnd = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=number).round
        play_round(tournament, rnd, number)
    second = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=3).round
    assert second.stage == enums.Stage.MAIN
    assert sorted(t.seats.count() for t in second.tables.all()) == [4, 4, 4]
    assert "4 + 4 + 4" in second.seating_note
    play_round(tournament, second, 3)
    final = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=4).round
    assert final.stage == enums.Stage.FINAL and final.tables.get().seats.count() == 3
