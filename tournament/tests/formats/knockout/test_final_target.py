"""Issue 26, item 2: the final's target agreed with the finalists on the day.

"Ziel: Als erster eine bestimmte Punktezahl (z.B. 200) oder eine bestimmte Anzahl an Siegen ...
Genaueres wird am Veranstaltungstag mit der Turnierleitung und den Finalisten vereinbart." The
finalists are known once the final is seated, so its target can change until the final's first
game is recorded: in the settings or at the final's table, audited, shown to the referee, on the
projector and in api.json. After the first game the change is refused with the reason and nothing
changes (a correction of the final's games stays possible).
"""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games.models import GameStatus
from tournament import enums, simulation
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.knockout import services as knockout_services
from tournament.models import AuditEntry, Table, Tournament
from tournament.play import corrections
from tournament.tests.formats.knockout.test_final_settings import close, final_of, fresh, win
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (the "organiser" fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.core]


def settings_url(tournament: Tournament) -> str:
    return reverse("tournament:settings", args=[tournament.pk])


def table_url(tournament: Tournament, table: Table) -> str:
    return reverse("tournament:referee_table", args=[tournament.pk, table.pk])


def target_url(tournament: Tournament, table: Table) -> str:
    return reverse("tournament:final_target", args=[tournament.pk, table.pk])


def api(client, tournament: Tournament) -> dict:
    return client.get(reverse("tournament:api", args=[tournament.public_key])).json()


def final_in_api(document: dict) -> dict:
    final = next(r for r in document["rounds"] if r["stage"] == enums.Stage.FINAL)
    return next(t for t in final["tables"] if t["number"] == 1)


def test_the_settings_page_changes_a_seated_final_until_its_first_game(organiser, staff_user, client) -> None:
    """The issue's own test: 500 -> 200 before the first game, seen by api.json and the referee,
    the final ends at 200; the same change after the first game refused, nothing changed."""
    tournament, table, (a, b, c) = final_of(3)
    assert fresh(table).points_target == 500
    page = organiser(tournament)
    form = page.get(settings_url(tournament)).content.decode()
    assert "The final is seated (first to 500 points): a change applies to it until its first game." in form

    response = page.post(settings_url(tournament), settings_data(tournament, final_points_target=200), follow=True)
    assert response.status_code == 200
    assert "Settings saved. The seated final now plays first to 200 points (was first to 500 points)." in (
        response.content.decode()
    )
    assert fresh(table).points_target == 200 and fresh(table).wins_needed is None
    entry = AuditEntry.objects.get(tournament=tournament, action="final_target_changed")
    assert entry.detail["now"] == "first to 200 points" and entry.detail["was"] == "first to 500 points"
    assert final_in_api(api(client, tournament))["points_target"] == 200

    referee = client
    referee.force_login(staff_user(tournament, enums.Role.REFEREE))
    seen = referee.get(table_url(tournament, table)).content.decode()
    assert "first to 200 points" in seen and "first to 500 points" not in seen
    assert 'id="final-target"' not in seen, "only the organiser sets the target"

    # The first game: 120 points for a; 200 is not reached, the final plays on.
    win(tournament, table, a, card_points={b: 60, c: 60})
    before_tournament = Tournament.objects.values().get(pk=tournament.pk)
    before_table = Table.objects.values().get(pk=table.pk)
    page = organiser(tournament)
    refused = page.post(settings_url(tournament), settings_data(tournament, final_points_target=300))
    assert refused.status_code == 422
    body = refused.content.decode()
    assert "The final has started (1 game recorded): it stays first to 200 points." in body
    assert "its games can still be corrected" in body
    assert Tournament.objects.values().get(pk=tournament.pk) == before_tournament, "nothing saved"
    assert Table.objects.values().get(pk=table.pk) == before_table
    assert "The final has started (first to 200 points)" in page.get(settings_url(tournament)).content.decode()

    # The final ends at 200: 80 more points for a.
    win(tournament, table, a, card_points={b: 40, c: 40})
    assert fresh(table).status == enums.TableStatus.DECIDED
    assert fresh(table).seats.get(player_id=a).points == 200


def test_other_settings_save_while_the_final_plays(organiser) -> None:
    """Only a change of the final's target meets the started final: a new name still saves."""
    tournament, table, (a, b, c) = final_of(3)
    win(tournament, table, a, card_points={b: 10, c: 10})
    response = organiser(tournament).post(settings_url(tournament), settings_data(tournament, name="Renamed"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Renamed" and fresh(table).points_target == 500


def test_the_final_is_set_at_its_table_to_wins(organiser) -> None:
    """At the final's table the organiser agrees "first to win 2 games": no calculator, no card
    points, the final is decided by games won."""
    tournament, table, (a, b, c) = final_of(3)
    page = organiser(tournament)
    shown = page.get(table_url(tournament, table)).content.decode()
    assert 'id="final-target"' in shown and "data-calculator-form" in shown
    response = page.post(target_url(tournament, table), {"kind": "wins", "target": "2"}, follow=True)
    body = response.content.decode()
    assert "The seated final now plays first to win 2 games (was first to 500 points)." in body
    assert "data-calculator-form" not in body
    table = fresh(table)
    assert (table.points_target, table.wins_needed) == (None, 2)
    tournament.refresh_from_db()
    assert (tournament.final_target_kind, tournament.final_wins_target) == ("wins", 2)
    for winner in (b, a, a):
        win(tournament, table, winner)
    table = fresh(table)
    assert table.status == enums.TableStatus.DECIDED
    assert dict(table.seats.values_list("player_id", "place")) == {a: 1, b: 2, c: 3}
    assert 'id="final-target"' not in page.get(table_url(tournament, table)).content.decode()


def test_after_the_first_game_the_table_form_is_gone_and_the_service_refuses(organiser) -> None:
    tournament, table, (a, b, c) = final_of(3)
    win(tournament, table, a, card_points={b: 10, c: 10})
    page = organiser(tournament)
    assert 'id="final-target"' not in page.get(table_url(tournament, table)).content.decode()
    version = fresh(table).version
    response = page.post(target_url(tournament, table), {"kind": "points", "target": "200"}, follow=True)
    assert "The final has started (1 game recorded): it stays first to 500 points." in response.content.decode()
    assert fresh(table).points_target == 500 and fresh(table).version == version
    tournament.refresh_from_db()
    assert tournament.final_points_target == 500, "the setting is not changed either"


def test_an_undone_first_game_opens_the_target_again(organiser) -> None:
    """An undone game is not recorded: the target can still be agreed."""
    tournament, table, (a, b, c) = final_of(3)
    win(tournament, table, a, card_points={b: 10, c: 10})
    knockout_services.undo_last_game(tournament=tournament, actor=None, table_id=table.pk, version=fresh(table).version)
    assert not fresh(table).games.filter(status=GameStatus.VALID).exists()
    done = knockout_services.set_final_target(tournament=tournament, actor=None, kind="points", target=200)
    assert done == "The seated final now plays first to 200 points (was first to 500 points)."
    assert fresh(table).points_target == 200


def test_a_correction_of_the_final_stays_possible_after_the_refusal() -> None:
    tournament, table, (a, b, c) = final_of(3, final_points_target=100)
    game = win(tournament, table, a, card_points={b: 10, c: 10})
    with pytest.raises(ServiceError, match="The final has started"):
        knockout_services.set_final_target(tournament=tournament, actor=None, kind="points", target=50)
    kwargs = {
        "tournament": tournament,
        "fmt": registry.of(tournament),
        "actor": None,
        "table_id": table.pk,
        "game_id": game.pk,
        "version": fresh(table).version,
        "reason": "b went out first",
        "winner_id": b,
        "card_points": {a: 30, c: 5},
    }
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        corrections.correct_game(**kwargs)
    corrections.correct_game(**kwargs, confirm=asked.value.fingerprint)
    assert fresh(table).seats.get(player_id=b).points == 35 and fresh(table).points_target == 100


@pytest.mark.parametrize(
    ("kind", "target", "message"),
    [
        ("goals", "200", "Choose whether the final is played to points or to wins."),
        ("points", "0", "Type a whole number from 1 to 100000 as the final's target."),
        ("points", "abc", "Type a whole number from 1 to 100000 as the final's target."),
        ("points", "²", "Type a whole number from 1 to 100000 as the final's target."),
        ("points", "-5", "Type a whole number from 1 to 100000 as the final's target."),
        ("points", "100001", "Type a whole number from 1 to 100000 as the final's target."),
        ("wins", "51", "Type a whole number from 1 to 50 as the final's target."),
        ("wins", "", "Type a whole number from 1 to 50 as the final's target."),
        ("", "3", "Choose whether the final is played to points or to wins."),
    ],
)
def test_bad_targets_are_refused_with_what_was_typed_kept(organiser, kind, target, message) -> None:
    tournament, table, _ids = final_of(3)
    before = (Tournament.objects.values().get(pk=tournament.pk), Table.objects.values().get(pk=table.pk))
    page = organiser(tournament)
    response = page.post(target_url(tournament, table), {"kind": kind, "target": target})
    assert response.status_code == 302 and "#final-target" in response["Location"]
    shown = page.get(response["Location"])
    assert shown.status_code == 200
    body = html.unescape(shown.content.decode())
    assert message in body
    if target.isdecimal():
        assert f'value="{target}"' in body, "what was typed is still in the field"
    assert (Tournament.objects.values().get(pk=tournament.pk), Table.objects.values().get(pk=table.pk)) == before


def test_a_referee_cannot_set_the_target(client, staff_user) -> None:
    tournament, table, _ids = final_of(3)
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    response = client.post(target_url(tournament, table), {"kind": "points", "target": "200"})
    assert response.status_code == 403
    assert fresh(table).points_target == 500


def test_before_the_final_is_seated_the_target_is_a_setting() -> None:
    """Before the final is seated the table's form does not exist; the service says where to set it."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=6)
    knockout_services.generate_next_round(tournament=tournament, actor=None)
    with pytest.raises(ServiceError, match=r"The final is not seated yet: set its target in the settings\."):
        knockout_services.set_final_target(tournament=tournament, actor=None, kind="points", target=200)
    tournament.refresh_from_db()
    assert tournament.final_points_target == 500


def test_the_projector_and_the_log_show_the_agreed_target(organiser, client) -> None:
    tournament, _table, _ids = final_of(3)
    knockout_services.set_final_target(tournament=tournament, actor=None, kind="points", target=250)
    screen = client.get(reverse("tournament:projector_screen", args=[tournament.public_key])).content.decode()
    assert "to 250 points" in screen and "to 500 points" not in screen
    log = html.unescape(
        organiser(tournament).get(reverse("tournament:audit_log", args=[tournament.pk])).content.decode()
    )
    assert "The seated final's target changed: first to 250 points instead of first to 500 points." in log


def test_closing_the_final_still_finishes_after_a_change(organiser) -> None:
    tournament, table, (a, _b, c) = final_of(3)
    knockout_services.set_final_target(tournament=tournament, actor=None, kind="wins", target=2)
    for winner in (c, a, c):
        win(tournament, table, winner)
    close(tournament, table)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
