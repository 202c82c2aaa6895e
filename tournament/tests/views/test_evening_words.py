"""The words of a Schocken evening (issue 27): chips per player, the consolation pool named as
the pool, names joined as a list, one form of address per language, the demo's checklist in the
reader's language."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.template import Context, Template
from django.utils import translation

from tournament import enums, naming
from tournament.management.commands.load_demo import CHECKLIST, DEMO_NAME
from tournament.models import KNOWN_CHECKLIST_LABELS, Tournament, checklist_label
from tournament.tests.helpers import url
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
)

SCENARIOS = [enums.Format.LIFE_BANDS]
LOCALE = Path(settings.BASE_DIR) / "locale"


def msgstrs(language: str) -> list[str]:
    """Every translation in the language's catalogue, its wrapped lines joined."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    blocks = re.findall(r'^msgstr(?:\[\d\])? ((?:"(?:[^"\\]|\\.)*"\n?)+)', text, re.M)
    return ["".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block)) for block in blocks]


@pytest.mark.parametrize(
    ("language", "two", "three"),
    [
        ("en", "Hans-Peter Groß and Lisa Brandt", "A, B and C"),
        ("de", "Hans-Peter Groß und Lisa Brandt", "A, B und C"),
        ("it", "Hans-Peter Groß e Lisa Brandt", "A, B e C"),
    ],
)
def test_names_are_joined_as_a_list(language, two, three) -> None:
    with translation.override(language):
        assert naming.and_list(["Hans-Peter Groß", "Lisa Brandt"]) == two
        assert naming.and_list(["A", "B", "C"]) == three
        assert naming.and_list(["A"]) == "A" and naming.and_list([]) == ""
        rendered = Template("{% load lists %}{{ names|and_list }}").render(Context({"names": ["<b>", "C"]}))
        assert rendered.startswith("&lt;b&gt;")


def test_german_says_sie_throughout() -> None:
    informal = re.compile(r"\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines)\b", re.I)
    found = [text for text in msgstrs("de") if informal.search(text)]
    assert found == [], found


def test_italian_uses_one_form_of_address() -> None:
    """The catalogue speaks to players with "tu" ("Trova il tuo tavolo"): no formal "Lei"."""
    formal = re.compile(r"\b(Lei|La preghiamo|La prego|attenda|inserisca|controlli|scelga|riprovi)\b")
    found = [text for text in msgstrs("it") if formal.search(text)]
    assert found == [], found


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "label", "help_text"),
    [("de", "Chips pro Spieler", "So viele Chips bekommt jeder Spieler"), ("it", "gettoni per giocatore", "ogni")],
)
def test_the_chips_setting_counts_per_player(client, built, staff_user, language, label, help_text) -> None:
    tournament = built[enums.Format.LIFE_BANDS].tournament
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    body = client.get(url("settings", tournament), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert label.lower() in body.lower() and help_text in body
    assert "chips pro tisch" not in body.lower() and "gettoni per tavolo" not in body.lower()


@pytest.mark.django_db
def test_the_pool_is_not_the_waiting_list(client, built, staff_user) -> None:
    scenario = built[enums.Format.LIFE_BANDS]
    # Form the pool's table: nobody waits any more.
    client.force_login(staff_user(scenario.tournament, enums.Role.ORGANISER))
    client.post(url("next_round", scenario.tournament), {"action": "consolation"})
    body = client.get(url("rounds", scenario.tournament), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Im Trostrunden-Pool wartet niemand." in body
    assert "Warteliste" not in body


def test_the_demo_checklist_is_shown_in_the_readers_language() -> None:
    assert set(CHECKLIST) <= set(KNOWN_CHECKLIST_LABELS)
    with translation.override("de"):
        assert checklist_label("Own deck checked") == "Eigenes Kartenspiel geprüft"
        assert checklist_label("Our own words") == "Our own words"
    with translation.override("it"):
        # Stored in German (created from a German desk): shown in Italian all the same.
        assert checklist_label("Eigenes Kartenspiel geprüft") == "Mazzo proprio controllato"


@pytest.mark.django_db
def test_the_demo_checklist_reads_german_at_a_german_desk(client) -> None:
    call_command("load_demo", stdout=StringIO())
    tournament = Tournament.objects.get(name=DEMO_NAME)
    client.force_login(get_user_model().objects.get(username="desk"))
    body = client.get(url("check_in", tournament), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Tauchschein (OWD)" in body and "Ärztliches Attest" in body
    for english in CHECKLIST:
        assert english not in body
