"""The accessibility statement: public, linked from every page's footer, in each language, with the
organiser's contact where one is set (``SPIELLEITUNG_ACCESSIBILITY_CONTACT``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db]

STATEMENT = reverse("tournament:accessibility")


def test_the_statement_is_public_and_says_what_is_tested_and_its_limits(client, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    with django_assert_num_queries(0):
        response = client.get(STATEMENT)
    assert response.status_code == 200
    page = response.content.decode()
    for words in (
        "WCAG 2.2",
        "axe-core",
        "keyboard alone",
        "Known limits",
        "reduced motion",
        "Ask at the tournament desk",
    ):
        assert words in page, words


def test_every_page_links_to_the_statement_in_its_footer(client, tournament) -> None:  # type: ignore[no-untyped-def]
    for path in (reverse("login"), reverse("tournament:find", args=[tournament.public_key])):
        page = client.get(path).content.decode()
        assert f'<footer class="site-footer no-print"><a href="{STATEMENT}">Accessibility</a></footer>' in page, path


def test_the_organisers_contact_is_named_when_set(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SPIELLEITUNG_ACCESSIBILITY_CONTACT = "turnier@kegelclub.example"
    page = client.get(STATEMENT).content.decode()
    assert '<a href="mailto:turnier@kegelclub.example">turnier@kegelclub.example</a>' in page
    assert "Ask at the tournament desk" not in page
    settings.SPIELLEITUNG_ACCESSIBILITY_CONTACT = "+43 660 1234567"
    assert "+43 660 1234567" in client.get(STATEMENT).content.decode()


@pytest.mark.parametrize(
    ("language", "heading", "address"),
    [
        ("de", "Erklärung zur Barrierefreiheit", "sagen Sie es bitte der Turnierleitung"),
        ("it", "Dichiarazione di accessibilità", "dillo all'organizzatore"),
    ],
)
def test_the_statement_in_german_and_italian(client, language: str, heading: str, address: str) -> None:  # type: ignore[no-untyped-def]
    page = client.get(STATEMENT, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in page
    assert heading in page
    assert address in page
    assert "Known limits" not in page
