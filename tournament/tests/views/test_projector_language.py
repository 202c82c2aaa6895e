"""The projector speaks the hall's language: the tournament's ``display_language``, or one
screen's ``?lang=de|it|en`` (kept by its polls); an unknown ``?lang=`` is ignored. And it
says what is true about the consolation pool: with automatic advancement the app forms the
next table, without it the organiser does."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import enums, simulation
from tournament.formats.life_bands import services as life_bands_services
from tournament.forms import TournamentSettingsForm
from tournament.models import AuditEntry, Tournament
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (the "organiser" fixture)
from tournament.tests.views.test_display import field_in_play

pytestmark = [pytest.mark.core, pytest.mark.django_db]

# A visitor whose browser asks for English: what the screen shows is the tournament's choice.
ENGLISH_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "en"}
SAYS = {
    "en": ("Where do I sit?", "Find your table"),
    "de": ("Wo sitze ich?", "Tisch finden"),
    "it": ("Dove mi siedo?", "Trova il tuo tavolo"),
}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


def url(name: str, tournament: Tournament, lang: str | None = None) -> str:
    path = reverse(f"tournament:{name}", args=[tournament.public_key])
    return path if lang is None else f"{path}?lang={lang}"


def speaks(body: str, language: str) -> bool:
    return all(text in body for text in SAYS[language])


def italian(players: int = 7) -> Tournament:
    tournament = field_in_play(players)
    Tournament.objects.filter(pk=tournament.pk).update(display_language="it")
    tournament.refresh_from_db()
    return tournament


def test_the_projector_speaks_the_tournament_s_language(client):
    tournament = italian()
    response = client.get(url("projector", tournament), **ENGLISH_BROWSER)
    body = response.content.decode()
    assert speaks(body, "it") and not speaks(body, "en")
    assert '<html lang="it">' in body
    assert response["Content-Language"] == "it"
    screen = client.get(url("projector_screen", tournament), **ENGLISH_BROWSER)
    assert "Dove mi siedo?" in screen.content.decode()
    assert screen["ETag"].endswith('-it"')
    # The rounds' labels too (the snapshot is read in the screen's language).
    assert "Turno principale 1" in screen.content.decode() and "Main round" not in screen.content.decode()


def test_without_a_setting_each_screen_shows_its_browser_s_language(client):
    tournament = field_in_play(7)
    assert tournament.display_language == ""
    assert speaks(client.get(url("projector", tournament), HTTP_ACCEPT_LANGUAGE="de").content.decode(), "de")
    assert speaks(client.get(url("projector", tournament), **ENGLISH_BROWSER).content.decode(), "en")


@pytest.mark.parametrize("lang", ["de", "en", "DE"])
def test_one_screen_asks_for_another_language_and_its_polls_keep_it(client, lang):
    tournament = italian()
    wanted = lang.lower()
    page = client.get(url("projector", tournament, lang), **ENGLISH_BROWSER)
    body = page.content.decode()
    assert speaks(body, wanted) and not speaks(body, "it")
    assert f'<html lang="{wanted}">' in body
    # The poll asks for the same language; its ETag (and the fragment cache) names it.
    poll = url("projector_screen", tournament, wanted)
    assert f'hx-get="{poll}"' in body
    assert f'data-etag="&quot;screen-{tournament.public_key}-{tournament.version}-{wanted}&quot;"' in body
    screen = client.get(poll, **ENGLISH_BROWSER)
    assert SAYS[wanted][0] in screen.content.decode()
    assert screen["Content-Language"] == wanted
    with CaptureQueriesContext(connection) as queries:
        again = client.get(poll, HTTP_IF_NONE_MATCH=screen["ETag"], **ENGLISH_BROWSER)
    assert again.status_code == 304 and len(queries) <= 1
    # The hall's other screens stay Italian: the cached fragments are kept apart by language.
    hall = client.get(url("projector_screen", tournament), **ENGLISH_BROWSER)
    assert "Dove mi siedo?" in hall.content.decode()
    assert hall["ETag"] != screen["ETag"]
    assert client.get(poll, HTTP_IF_NONE_MATCH=hall["ETag"], **ENGLISH_BROWSER).status_code == 200


@pytest.mark.parametrize("lang", ["xx", "", "fr", "de-at-x-very-long", "%00", "<script>"])
def test_an_unknown_lang_is_ignored(client, lang):
    tournament = italian()
    page = client.get(url("projector", tournament, lang), **ENGLISH_BROWSER)
    assert page.status_code in (200, 400)  # 400: a NUL character is refused before any view
    if page.status_code == 200:
        body = page.content.decode()
        assert speaks(body, "it")
        assert f'hx-get="{url("projector_screen", tournament)}"' in body  # the poll asks for nothing
    screen = client.get(url("projector_screen", tournament, lang), **ENGLISH_BROWSER)
    assert screen.status_code in (200, 400)
    if screen.status_code == 200:
        assert screen["ETag"].endswith('-it"')


def test_the_screen_follows_a_new_setting_at_once(client, organiser):
    tournament = field_in_play(7)
    first = client.get(url("projector_screen", tournament), **ENGLISH_BROWSER)
    assert "Where do I sit?" in first.content.decode()
    organiser(tournament)
    response = client.post(
        reverse("tournament:settings", args=[tournament.pk]), settings_data(tournament, display_language="de")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.display_language == "de"
    entry = AuditEntry.objects.filter(tournament=tournament, action="tournament_updated").latest("pk")
    assert entry.detail["fields"] == ["display_language"]
    # The next poll (the version moved on) is German.
    client.logout()
    poll = client.get(url("projector_screen", tournament), HTTP_IF_NONE_MATCH=first["ETag"], **ENGLISH_BROWSER)
    assert poll.status_code == 200 and "Wo sitze ich?" in poll.content.decode()


def test_the_settings_form_offers_the_site_s_languages_and_the_browser_s():
    tournament = field_in_play(6)
    form = TournamentSettingsForm(instance=tournament)
    field = form.fields["display_language"]
    assert [code for code, _label in field.choices] == ["", "de", "it", "en"]
    assert str(field.label) == "Projector: language"
    assert "?lang=" in str(field.help_text)
    assert TournamentSettingsForm(settings_data(tournament, display_language="it"), instance=tournament).is_valid()
    refused = TournamentSettingsForm(settings_data(tournament, display_language="fr"), instance=tournament)
    assert not refused.is_valid() and "display_language" in refused.errors


def test_a_refused_language_saves_nothing(client, organiser):
    tournament = field_in_play(6)
    version = tournament.version
    organiser(tournament)
    response = client.post(
        reverse("tournament:settings", args=[tournament.pk]), settings_data(tournament, display_language="xx")
    )
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.display_language == "" and tournament.version == version


def test_the_settings_page_shows_the_language_setting(client, organiser):
    tournament = italian(6)
    organiser(tournament)
    page = client.get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
    assert 'name="display_language"' in page
    assert '<option value="it" selected>' in page
    # Links for one screen in another language.
    projector = reverse("tournament:projector", args=[tournament.public_key])
    for code, name in (("de", "Deutsch"), ("it", "italiano"), ("en", "English")):
        assert f'<a href="{projector}?lang={code}" lang="{code}">{name}</a>' in page


# --- the consolation pool says who forms the next table ---------------------------------


def life_bands_with_a_pool(auto_advance: bool) -> Tournament:
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=4)
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=1)
    table = rnd.tables.order_by("number").first()
    loser = table.seats.order_by("position").first().player
    for attempt in range(2):  # both chips: the band is cut, the loser waits in the pool
        table.refresh_from_db()
        life_bands_services.record_loss(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            loser_id=loser.pk,
            version=table.version,
            idempotency_key=f"pool-{attempt}",
        )
    # Set afterwards, so that nothing is seated from the pool yet (the version moves on: a new screen).
    Tournament.objects.filter(pk=tournament.pk).update(auto_advance=auto_advance, version=F("version") + 1)
    tournament.refresh_from_db()
    return tournament


def test_without_automatic_advancement_the_pool_says_the_organiser_forms_the_table(client):
    body = client.get(url("projector_screen", life_bands_with_a_pool(False)), **ENGLISH_BROWSER).content.decode()
    assert "waiting pool" in body
    assert "The organiser forms the next consolation table when enough players wait." in body
    assert "formed as soon as" not in body


def test_with_automatic_advancement_the_pool_says_the_table_is_formed_at_once(client):
    body = client.get(url("projector_screen", life_bands_with_a_pool(True)), **ENGLISH_BROWSER).content.decode()
    assert "A new consolation table is formed as soon as enough players wait." in body
    assert "The organiser forms" not in body
