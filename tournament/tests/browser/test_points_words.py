"""The Italian points evening looked at (issue 28), in Italian and German: the phone page in
each player's state (390x844), the projector at three sizes, and the organiser's rounds page,
the desk's check-in and the referee's table on the tablet (800x1280). Screenshots land in
test-artifacts/screenshots/ (words-<language>-*.png); the content is asserted beside them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tournament import enums
from tournament.models import Player
from tournament.selectors import ranking as ranking_selectors
from tournament.tests.browser.conftest import PASSWORD, TABLET, TIMEOUT_MS
from tournament.tests.factories import StaffRoleFactory
from tournament.tests.formats.points.evening import Evening, evening

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SCREENS = {
    "1920": {"width": 1920, "height": 1080},
    "1280": {"width": 1280, "height": 720},
    "1024": {"width": 1024, "height": 768},
}
LOCALES = {"it": "it-IT", "de": "de-DE"}
WORDS = {
    "it": {
        "total": "Totale",
        "place": "Posto in classifica",
        "paused": "Sei in pausa dal turno 2",
        "withdrawn": "Ti sei ritirato dopo il turno 1",
        "waiting": "Giochi dal turno 3",
        "done": "Attendi l'assegnazione dei posti del turno 3",
        "round": "Turno 2",
        "main": "Turno principale",
        "planner": "Coppie ripetute",
        "table_done": "Il tuo tavolo ha finito",
    },
    "de": {
        "total": "Summe",
        "place": "Platz in der Rangliste",
        "paused": "Sie setzen ab Runde 2 aus",
        "withdrawn": "Sie haben sich nach Runde 1 abgemeldet",
        "waiting": "Sie spielen ab Runde 3",
        "done": "Warten Sie auf die Sitzordnung von Runde 3",
        "round": "Runde 2",
        "main": "Hauptrunde",
        "planner": "Wiederholte Paare",
        "table_done": "Ihr Tisch ist fertig",
    },
}


# Shows the first view of a kind (the screen rotates through them; a screenshot is taken at once).
SHOW_VIEW = """(view) => {
  const all = [...document.querySelectorAll('#screen [data-view]')];
  const target = all.find((el) => el.dataset.view === view);
  if (!target) return false;
  all.forEach((el) => el.classList.toggle('active', el === target));
  return true;
}"""


@pytest.fixture
def contexts(browser: Browser, live_server) -> Iterator[Callable[..., BrowserContext]]:  # type: ignore[no-untyped-def]
    made: list[BrowserContext] = []

    def make(viewport: dict[str, int], locale: str) -> BrowserContext:
        context = browser.new_context(viewport=viewport, locale=locale, base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


def cut_off(page: Page) -> list[str]:
    """Texts on the page that are cut: an element whose content is wider than its box while it
    hides the overflow, or the page wider than the screen."""
    return page.evaluate(
        """() => {
          const cut = [];
          if (document.documentElement.scrollWidth > window.innerWidth + 1) cut.push('page wider than the screen');
          for (const el of document.querySelectorAll('body *')) {
            const style = getComputedStyle(el);
            const hides = style.overflow === 'hidden' || style.overflowX === 'hidden'
              || style.textOverflow === 'ellipsis';
            // (a label only for screen readers is 1 px wide on purpose)
            if (el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && hides && el.textContent.trim())
              cut.push(el.tagName + ': ' + el.textContent.trim().slice(0, 60));
          }
          return cut;
        }"""
    )


def shot(page: Page, name: str) -> None:
    from tournament.tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.mark.long
@pytest.mark.parametrize("language", ["it", "de"])
def test_the_points_evening_looked_at(contexts, browser_user, language: str) -> None:  # type: ignore[no-untyped-def]
    night: Evening = evening()
    tournament = night.tournament
    words = WORDS[language]
    locale = LOCALES[language]
    rows = {row.player.pk: row for row in ranking_selectors.rows(tournament)}

    # The phone page, a player in each state.
    phone = contexts(PHONE, locale).new_page()
    states: dict[str, Player] = {
        "playing": night.playing,
        "done": night.done,
        "paused": night.paused,
        "withdrawn": night.withdrawn,
        "joined": night.joined,
        "waiting": night.waiting,
    }
    for state, player in states.items():
        phone.goto(reverse("tournament:find", args=[tournament.public_key]) + f"?q={player.start_number}")
        card = phone.locator(".find-card")
        expect(card).to_contain_text(player.name)
        if state in {"done", "paused", "withdrawn", "joined", "playing"}:
            row = rows[player.pk]
            expect(card.locator(".find-total")).to_contain_text(f"{words['total']}")
            expect(card.locator(".find-total")).to_contain_text(str(row.points))
            expect(card.locator(".find-total")).to_contain_text(f"{words['place']}")
            expect(card.locator(".find-total dd").last).to_have_text(str(row.place))
        if state in words:
            expect(card).to_contain_text(words[state])
        if state in {"paused", "withdrawn", "waiting"}:
            expect(card).not_to_contain_text(words["table_done"])
        expect(card).not_to_contain_text(words["main"])
        assert cut_off(phone) == []
        shot(phone, f"words-{language}-phone-{state}")

    # The projector at three sizes: standings and tables, none of the planner's figures.
    for size, viewport in SCREENS.items():
        projector = contexts(viewport, locale).new_page()
        projector.goto(reverse("tournament:projector", args=[tournament.public_key]))
        expect(projector.locator("#screen [data-view].active")).to_have_count(1)
        html = projector.content()
        assert words["planner"] not in html and night.second.seating_note not in html
        assert 'data-view="bracket"' not in html
        for view in ("tables", "standings"):
            shown = projector.evaluate(SHOW_VIEW, view)
            assert shown, view
            projector.screenshot(path=str(_screens() / f"words-{language}-projector-{size}-{view}.png"))

    # The organiser's tablet: rounds page, check-in, the referee's table.
    organiser = browser_user(f"orga-{language}")
    StaffRoleFactory(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    tablet = contexts(TABLET, locale).new_page()
    tablet.goto(reverse("login"))
    tablet.locator("#id_username").fill(organiser.username)
    tablet.locator("#id_password").fill(PASSWORD)
    tablet.locator("#id_password").press("Enter")
    tablet.wait_for_url(lambda url: "login" not in url)
    tablet.goto(reverse("tournament:rounds", args=[tournament.pk]))
    expect(tablet.locator("main")).to_contain_text(words["round"])
    expect(tablet.locator("main")).not_to_contain_text(words["main"])
    assert cut_off(tablet) == []
    shot(tablet, f"words-{language}-tablet-rounds")
    tablet.goto(reverse("tournament:check_in", args=[tournament.pk]))
    assert cut_off(tablet) == []
    shot(tablet, f"words-{language}-tablet-check-in")
    tablet.goto(reverse("tournament:referee_table", args=[tournament.pk, night.playing_table.pk]))
    expect(tablet.locator("main")).to_contain_text({"it": "Turno 2 · 1 partita;", "de": "Runde 2 · 1 Spiel;"}[language])
    assert cut_off(tablet) == []
    shot(tablet, f"words-{language}-tablet-referee-table")


def _screens():  # type: ignore[no-untyped-def]
    from tournament.tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
