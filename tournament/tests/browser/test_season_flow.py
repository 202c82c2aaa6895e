"""The club's season in chromium (issue 33): three evenings of one club played by the dry run, the
regulars linked (the first evening's players copied into the second with "Copy players from…", a
regular of last season picked from the desk's suggestion as her name is typed with a typo), the
series made on its settings page, a duplicate of the third evening merged on the register page,
and a correction in event 2 that moves the series page at once. The public series page and the
projector's series view show the same standings. axe-core finds nothing serious on each; the
series page (1280x800), the projector (1920x1080, 1280x720, 1024x768), the public series page and
the pass's "my season" (390x844) in English, German and Italian land in test-artifacts/screenshots/
for a person to look at, and none of them scrolls sideways.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import desk, enums, simulation
from tournament.desk import register
from tournament.formats import registry
from tournament.models import Club, Person, Player, Series, Tournament
from tournament.passes import services as pass_services
from tournament.tests.browser.conftest import TIMEOUT_MS, log_in
from tournament.tests.browser.test_pass_flow import no_serious_findings, not_cut
from tournament.tests.season.helpers import correct, last_round_table

pytestmark = pytest.mark.browser

FIRST_EVENING = ["Anna Höller", "Georg Meyer", "Carla Rossi", "David Huber", "Eva Moser", "Franz Pichler"]
FIRST_EVENING += ["Hans Bauer", "Ilse Wagner"]
THIRD_EVENING = [name for name in FIRST_EVENING if name != "Georg Meyer"] + ["Georg Mayer", "Gina Bianchi"]
START = datetime.date(2026, 1, 9)
LANGUAGES = (("en", "Series standings"), ("de", "Rangliste der Serie"), ("it", "Classifica della serie"))


def _evening(organiser, club: Club, number: int, names: list[str]) -> Tournament:  # type: ignore[no-untyped-def]
    """An evening of the club with ``names`` registered at the desk (each linked to the register's person)."""
    evening = desk.create_tournament(
        actor=organiser,
        name=f"Schocken evening {number}",
        date=START + datetime.timedelta(weeks=4 * (number - 1)),
        venue="Vereinsheim",
        game=registry.get(enums.Format.POINTS).games[0],
        format=enums.Format.POINTS,
        capacity=20,
        entry_fee=0,
    )
    Tournament.objects.filter(pk=evening.pk).update(club=club)
    evening.refresh_from_db()
    for name in names:
        desk.register_player(tournament=evening, actor=organiser, name=name, club="Schockfreunde")
    return evening


def _play(organiser, evening: Tournament, seed: int) -> None:  # type: ignore[no-untyped-def]
    """Everyone checked in, start numbers drawn, the evening played to its end by the dry run."""
    for player in evening.players.filter(status=enums.PlayerStatus.REGISTERED):
        desk.check_in_player(tournament=evening, actor=organiser, player_id=player.pk)
    desk.draw_start_numbers(tournament=evening, actor=organiser, seed=seed, confirmed=True)
    evening.refresh_from_db()
    simulation.simulate(evening, seed=seed)
    evening.refresh_from_db()
    assert evening.status == enums.TournamentStatus.FINISHED


def _second_evening_at_the_desk(page: Page, organiser, club: Club, first: Tournament) -> Tournament:  # type: ignore[no-untyped-def]
    """The second evening starts from the first's players ("Copy players from…"); Gina Bianchi, a
    regular of last season already in the register, is found as "Gina Biancchi" is typed."""
    second = _evening(organiser, club, 2, [])
    page.goto(reverse("tournament:copy_players", args=[second.pk]))
    page.get_by_role("button", name=f"Copy these players ({first.name})").click()
    expect(page.locator("li.success")).to_contain_text("8")
    page.goto(reverse("tournament:desk", args=[second.pk]))
    page.locator("#id_name").press_sequentially("Gina Biancchi", delay=30)
    suggestion = page.locator("#person-suggestions a.suggestion", has_text="Gina Bianchi")
    expect(suggestion).to_be_visible()
    suggestion.click()
    expect(page.locator("#id_name")).to_have_value("Gina Bianchi")
    page.get_by_role("button", name="Register", exact=True).click()
    expect(page.locator("li.success")).to_have_text("Gina Bianchi registered.")
    return second


def _make_the_series(page: Page, club: Club, evenings: list[Tournament]) -> Series:
    page.goto(reverse("tournament:series_create", args=[club.pk]))
    no_serious_findings(page, "new series")
    page.get_by_label("Name of the series").fill("Winter league 2026")
    page.get_by_label("Points per place").select_option("club_classic")
    page.get_by_label("Minimum number of events").fill("2")
    for evening in evenings:
        page.get_by_label(evening.name).check()
    page.get_by_role("button", name="Save the series").click()
    expect(page.locator("li.success")).to_have_text("The series is saved.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Winter league 2026")
    return Series.objects.get(name="Winter league 2026")


def _merge_the_duplicate(page: Page, club: Club) -> None:
    """Georg Mayer (the third evening's typo) merged into Georg Meyer on the register page."""
    meyer = Person.objects.get(club=club, name="Georg Meyer")
    mayer = Person.objects.get(club=club, name="Georg Mayer")
    page.goto(reverse("tournament:club_register", args=[club.pk]))
    page.locator(f'tr[data-person="{mayer.pk}"]').get_by_role("link", name="Merge into…").click()
    page.locator(f'tr[data-person="{meyer.pk}"]').get_by_role("button", name="Keep this one").click()
    expect(page.locator("li.success")).to_contain_text("Georg Mayer merged into Georg Meyer")


def _row(page: Page, person: Person):  # type: ignore[no-untyped-def]
    return page.locator(f'.series-table tr[data-person="{person.pk}"]')


def _swing_event_two(second: Tournament) -> Person:
    """A correction in event 2: its winner's last game is given to a table-mate, the winner holding
    300 card points. Returns the winner's person (who falls in the series)."""
    leader = registry.of(second).ranking(second)[0].player
    table = last_round_table(second, leader.pk)
    seated = list(table.seats.values_list("player_id", flat=True))
    other = next(pid for pid in seated if pid != leader.pk)
    points = {pid: (300 if pid == leader.pk else 0) for pid in seated if pid != other}
    correct(second, table, winner=other, card_points=points)
    return Person.objects.get(pk=Player.objects.get(pk=leader.pk).person_id)


@pytest.mark.long
def test_a_season_of_three_evenings(  # type: ignore[no-untyped-def]
    browser: Browser, live_server, new_tablet, browser_user, screenshot: Callable[[Page, str], Path]
) -> None:
    organiser = browser_user("organiser")
    club = register.create_club(actor=organiser, name="Schockfreunde Nord")
    Person.objects.create(club=club, name="Gina Bianchi", team="Schockfreunde")  # a regular of last season
    first = _evening(organiser, club, 1, FIRST_EVENING)
    _play(organiser, first, seed=41)
    page = new_tablet(organiser.username)
    second = _second_evening_at_the_desk(page, organiser, club, first)
    assert second.players.filter(person__isnull=False).count() == 9
    _play(organiser, second, seed=42)
    third = _evening(organiser, club, 3, THIRD_EVENING)
    _play(organiser, third, seed=43)

    series = _make_the_series(page, club, [first, second, third])
    no_serious_findings(page, "series page")
    meyer = Person.objects.get(club=club, name="Georg Meyer")
    expect(_row(page, meyer).locator("td").nth(2)).to_have_text("2")  # two events before the merge
    _merge_the_duplicate(page, club)
    page.goto(reverse("tournament:series", args=[club.pk, series.pk]))
    expect(_row(page, meyer).locator("td").nth(2)).to_have_text("3")  # the duplicate's evening follows

    falling = _swing_event_two(Tournament.objects.get(pk=second.pk))
    before = _row(page, falling).locator(".series-total").inner_text()
    page.reload()
    expect(_row(page, falling).locator(".series-total")).not_to_have_text(before)
    _look_at_the_season(browser, live_server, organiser, club, series, third, screenshot)


def _look_at_the_season(browser, live_server, organiser, club, series, third, screenshot) -> None:  # type: ignore[no-untyped-def]
    """Each page in en, de and it: axe, nothing cut, a screenshot; the projector at three sizes."""
    token = pass_services.issue_pass(tournament=third, actor=None, player_id=third.players.get(name="Anna Höller").pk)[
        1
    ]
    pages = [
        ("series-page", {"width": 1280, "height": 800}, reverse("tournament:series", args=[club.pk, series.pk])),
        ("series-public", {"width": 390, "height": 844}, reverse("tournament:series_public", args=[series.public_key])),
        ("my-season", {"width": 390, "height": 844}, reverse("tournament:pass_season", args=[token])),
    ]
    pages += [
        (f"series-projector-{size['width']}", size, reverse("tournament:series_screen", args=[series.public_key]))
        for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}, {"width": 1024, "height": 768})
    ]
    for language, heading in LANGUAGES:
        for name, size, path in pages:
            context = browser.new_context(viewport=size, locale="en-US", base_url=live_server.url)
            context.set_default_timeout(TIMEOUT_MS)
            page = context.new_page()
            if name == "series-page":
                log_in(page, organiser.username)
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
            page.goto(path)
            expect(page.locator("body")).to_contain_text("Anna Höller")
            if "projector" in name:
                expect(page.locator(".series-view h2")).to_contain_text(heading)
            no_serious_findings(page, f"{name} ({language})")
            screenshot(page, f"season-{name}-{language}")
            not_cut(page)
            context.close()
