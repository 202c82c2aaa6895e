"""The optional second confirmation (``Tournament.confirm_results``): a decided table counts only
after another person closes it on their own device. Until then it waits (the organiser and the
referees see "waiting for confirmation", the projector and api.json "provisional") and no next
round, consolation table or grand final uses it. Confirming your own entry is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournament import enums
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.models import AuditEntry, Table, Tournament
from tournament.tests.helpers import refreshed, seated, set_dealer, url
from tournament.tests.views.scenarios import field, lose, start_round, win

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def decided_by(tournament: Tournament, table: Table, actor: Any) -> None:
    """``actor`` enters every game of ``table`` (one player loses or wins them all) until it is decided."""
    uno = registry.of(tournament).entry == "winner"
    player = set_dealer(tournament, table)[0] if uno else seated(table)[0]
    while refreshed(table).status == enums.TableStatus.PLAYING:
        if uno:
            win(tournament, table, player, actor=actor)
        else:
            lose(tournament, table, player, actor=actor)


def close(tournament: Tournament, table: Table, actor: Any) -> Table:
    return registry.of(tournament).close_table(
        tournament=tournament, actor=actor, table_id=table.pk, version=refreshed(table).version
    )


def with_confirmation(fmt: str, players: int) -> Tournament:
    tournament = field(fmt, players, seed=4)
    Tournament.objects.filter(pk=tournament.pk).update(confirm_results=True)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.POINTS, enums.Format.LIFE_BANDS])
def test_the_person_who_entered_cannot_confirm_another_can(staff_user, fmt: str) -> None:
    tournament = with_confirmation(fmt, 9)
    referee, other = staff_user(tournament, enums.Role.REFEREE), staff_user(tournament, enums.Role.REFEREE)
    table = start_round(tournament, seed=4).tables.order_by("number").first()
    assert table is not None
    decided_by(tournament, table, referee)
    version = refreshed(table).version
    with pytest.raises(ServiceError, match="entered this result yourself"):
        close(tournament, table, referee)
    assert refreshed(table).status == enums.TableStatus.DECIDED and refreshed(table).version == version
    assert AuditEntry.objects.filter(action="entry_refused", detail__attempt="close_table").exists()
    close(tournament, table, other)
    table.refresh_from_db()
    assert table.status == enums.TableStatus.CLOSED and table.confirmed_by == other


def test_without_the_setting_the_referee_closes_their_own_table(staff_user) -> None:
    tournament = field(enums.Format.KNOCKOUT, 9, seed=4)
    referee = staff_user(tournament, enums.Role.REFEREE)
    table = start_round(tournament, seed=4).tables.order_by("number").first()
    assert table is not None
    decided_by(tournament, table, referee)
    assert close(tournament, table, referee).status == enums.TableStatus.CLOSED


def test_the_next_round_waits_for_the_confirmation(staff_user) -> None:
    tournament = with_confirmation(enums.Format.KNOCKOUT, 9)
    referee, organiser = staff_user(tournament, enums.Role.REFEREE), staff_user(tournament, enums.Role.ORGANISER)
    tables = list(start_round(tournament, seed=4).tables.order_by("number"))
    for table in tables:
        decided_by(tournament, table, referee)
    for table in tables[:2]:
        close(tournament, table, organiser)
    with pytest.raises(ServiceError, match=f"second person to confirm their result: {tables[2].number}"):
        registry.of(tournament).next_step(tournament=tournament, actor=organiser)
    close(tournament, tables[2], organiser)
    registry.of(tournament).next_step(tournament=tournament, actor=organiser)
    assert tournament.rounds.count() == 2


def test_life_bands_pool_waits_for_the_confirmation(staff_user) -> None:
    tournament = with_confirmation(enums.Format.LIFE_BANDS, 12)
    referee, organiser = staff_user(tournament, enums.Role.REFEREE), staff_user(tournament, enums.Role.ORGANISER)
    table = start_round(tournament, seed=4).tables.order_by("number").first()
    assert table is not None
    decided_by(tournament, table, referee)
    assert life_bands_selectors.state(tournament).pool == []  # the cut band is not confirmed yet
    close(tournament, table, organiser)
    assert life_bands_selectors.state(tournament).pool == [seated(table)[0]]


def test_pages_show_the_waiting_table(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = with_confirmation(enums.Format.KNOCKOUT, 9)
    referee, organiser = staff_user(tournament, enums.Role.REFEREE), staff_user(tournament, enums.Role.ORGANISER)
    table = start_round(tournament, seed=4).tables.order_by("number").first()
    assert table is not None
    decided_by(tournament, table, referee)
    client.force_login(referee)
    own = client.get(url("referee_table", tournament, table.pk)).content.decode()
    assert "Waiting for a second person" in own and "Confirm result and close table" not in own
    assert "waiting for confirmation" in client.get(url("referee_tables", tournament)).content.decode()
    client.force_login(organiser)
    theirs = client.get(url("referee_table", tournament, table.pk)).content.decode()
    assert "Confirm result and close table" in theirs
    assert "waiting for confirmation" in client.get(url("rounds", tournament)).content.decode()
    api = Client().get(reverse("tournament:api", args=[tournament.public_key])).json()
    states = {t["number"]: t["provisional"] for t in api["rounds"][0]["tables"]}
    assert states[table.number] is True and list(states.values()).count(True) == 1
    screen = Client().get(reverse("tournament:projector_screen", args=[tournament.public_key])).content.decode()
    assert "provisional" in screen


def test_the_setting_is_on_the_settings_page(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = field(enums.Format.POINTS, 6, seed=4)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.get(url("settings", tournament)).content.decode()
    assert 'name="confirm_results"' in page
