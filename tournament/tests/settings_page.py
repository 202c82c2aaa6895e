"""The organiser's settings page in tests: the form's current values as a POST, and a logged-in organiser."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from tournament import enums
from tournament.forms import TournamentSettingsForm
from tournament.models import Tournament


def settings_data(tournament: Tournament, **changes: object) -> dict[str, object]:
    """What the settings form posts unchanged for ``tournament``, with ``changes`` applied
    (a checkbox set to False is left out, as a browser does)."""
    form = TournamentSettingsForm(instance=tournament)
    data: dict[str, object] = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else value
    data.update(changes)
    return {name: value for name, value in data.items() if value is not False}


@pytest.fixture(name="organiser")
def organiser_login(client: Client, staff_user) -> Callable[[Tournament], Client]:  # type: ignore[no-untyped-def]
    """organiser(tournament) -> the test client, logged in as that tournament's organiser."""

    def login(tournament: Tournament) -> Client:
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        return client

    return login
