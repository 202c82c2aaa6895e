"""WCAG 2.2 AA on every page: axe-core on every page each role reaches, in every format.

For each format one tournament in play is seeded (``tests/views/scenarios``: tables waiting for
a dealer, playing and decided; life bands with players in the pool), with a player still to
check in, a no-show and equipment to hand back, and a second tournament ready for round 1. The
pages are found the way the roles find them: each role's links are followed from its start page
(``tests/views/crawling.crawl``: the organiser, the desk -- whose print pack reaches every
printout --, the referee, and the public from the projector and the phone page), plus the pages
no link leads to (the login, the accessibility statement, the error page). Each page is opened
in Chromium as that role and audited once per URL pattern (the referee's and the corrections'
table pages once per table state), with the states a person brings about on it (the calculator's
hands, a phone's search that finds a player). The projector and the phone page, laid out
differently by language, are audited in German too.

What is audited once (issue 31: the suite's time): a page that shows nothing of the format
(``FORMAT_INDEPENDENT``: the login, the home page, the club's register and season) in the first
format's run only, and a printed sheet (``SHEETS``) as the first role that reaches it; every format's
run still checks that each of its pages is reached.

``test_every_url_pattern_is_audited_or_skipped_for_a_reason`` lists Django's URL patterns: a new
page fails the suite until it is audited here (reached by a role's links, or named in
``UNLINKED``) or skipped with its reason in ``SKIPPED``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums
from tournament.desk import tombola
from tournament.formats import registry
from tournament.models import ChecklistItem, Club, Person, Player, Series, SeriesEvent, StaffRole, Tournament
from tournament.passes import services as pass_services
from tournament.tests.browser.axe import describe, serious, violations
from tournament.tests.browser.conftest import PASSWORD, TABLET, TIMEOUT_MS, log_in
from tournament.tests.factories import PlayerFactory
from tournament.tests.views import scenarios
from tournament.tests.views.crawling import crawl

pytestmark = pytest.mark.browser

PUBLIC = "public"
# Each audited page and its serious/critical findings, for a human to read (git-ignored).
REPORTS = Path(__file__).resolve().parents[3] / "test-artifacts"
ROLES = [enums.Role.ORGANISER, enums.Role.DESK, enums.Role.REFEREE]
ORGANISER = enums.Role.ORGANISER
START = {enums.Role.ORGANISER: "rounds", enums.Role.DESK: "desk", enums.Role.REFEREE: "referee_tables"}

# URL patterns that are not pages a person reads, each with its reason. Everything else must be
# audited in every format it belongs to.
SKIPPED = {
    # Not HTML: files and data for other programs.
    "tournament:api": "JSON for other programs",
    "tournament:export_standings": "CSV",
    "tournament:export_games": "CSV",
    "tournament:audit_csv": "CSV",
    "tournament:export_tournament": "gzipped JSON backup",
    "tournament:service_worker": "the service worker's script",
    "healthz": "plain-text health check",
    "favicon": "redirects to the static icon",
    # Redirects to a page audited under its own name.
    "tournament:enter": "redirects to the role's start page",
    "tournament:projector_by_number": "redirects to the projector",
    "tournament:screen_by_number": "redirects to the projector's screen",
    "tournament:find_by_number": "redirects to the phone page",
    "tournament:api_by_number": "redirects to api.json",
    "tournament:plan_by_number": "redirects to the expected plan",
    "logout": "POST only: logs out and redirects",
    # The projector's polled fragment: audited inside the projector page, where it is shown.
    "tournament:projector_screen": "a fragment of the projector, audited there",
    # POST only: each answers with a fragment of the page it was posted from (audited with that
    # page after the action in the keyboard flows) or a redirect.
    "set_language": "POST only",
    "tournament:register": "POST only (the desk's form)",
    "tournament:toggle_check": "POST only (check-in row)",
    "tournament:player_check_in": "POST only (check-in row)",
    "tournament:undo_check_in": "POST only (check-in row)",
    "tournament:withdraw": "POST only (check-in row)",
    "tournament:no_show": "POST only (check-in row)",
    "tournament:reinstate": "POST only (check-in row)",
    "tournament:toggle_returned": "POST only (equipment row)",
    "tournament:add_checklist_item": "POST only (settings)",
    "tournament:remove_checklist_item": "POST only (settings)",
    "tournament:add_window": "POST only (settings)",
    "tournament:scoring": "POST only (settings)",
    "tournament:new_public_link": "POST only (settings)",
    "tournament:remove_staff": "POST only (staff)",
    "tournament:next_round": "POST only (rounds page)",
    "tournament:set_dealer": "POST only (referee's table)",
    "tournament:record_game": "POST only (referee's table)",
    "tournament:undo_game": "POST only (referee's table)",
    "tournament:close_table": "POST only (referee's table)",
    "tournament:call_time": "POST only (referee's table)",
    "tournament:final_target": "POST only (knockout final's table)",
    "tournament:points_pause": "POST only (points field)",
    "tournament:points_back": "POST only (points field)",
    "tournament:points_seat": "POST only (points preview)",
    "tournament:tombola_add": "POST only (tombola)",
    "tournament:tombola_rename": "POST only (tombola)",
    "tournament:tombola_move": "POST only (tombola)",
    "tournament:tombola_remove": "POST only (tombola)",
    "tournament:tombola_absent": "POST only (tombola)",
    "tournament:tombola_settings": "POST only (tombola)",
    "tournament:tombola_draw": "POST only (tombola)",
    "tournament:tombola_screen": "POST only (tombola)",
    "tournament:new_pass": "POST only (the desk's pass page)",
    "tournament:pass_sit_down": "POST only (the player's pass page)",
    "tournament:fee_paid": "POST only (the desk's check-in row)",
    "tournament:pass_here": "POST only (the player's pass page: self check-in)",
    "tournament:arrived_list": "a region of the check-in page (its poll), audited with the page",
    # The club's register (issue 33).
    "tournament:club_register_csv": "CSV",
    "tournament:rename_club": "POST only (the register page)",
    "tournament:set_club": "POST only (settings)",
    "tournament:register_suggest": "a fragment of the desk (htmx), audited there in test_register_flow",
    "tournament:pass_record": "POST only (the player's table page: a game, through the outbox)",
    "tournament:pass_dealer": "POST only (the player's table page: the first dealer)",
    "tournament:pass_confirm": "POST only (the player's table page and pass: Confirm)",
    "tournament:pass_reject": "POST only (the player's table page and pass: Not right)",
    "tournament:pass_call": "POST only (the player's table page: Call a referee)",
    "tournament:confirm_pending": "POST only (the referee's table page: a player's entry confirmed)",
    "tournament:reject_pending": "POST only (the referee's table page: a player's entry rejected)",
    "tournament:clear_call": "POST only (the referee's table page: Handled)",
    # The club's season (issue 33).
    "tournament:series_csv": "CSV",
}
# Django's admin: its own pages, not this site's (staff use the tournament pages).
SKIPPED_NAMESPACES = ("admin:",)
# Pages no role's link leads to, opened by their address: name -> (role, address builder).
UNLINKED: dict[str, tuple[str, Callable[[scenarios.Scenario], str]]] = {
    "login": (PUBLIC, lambda s: reverse("login")),
    "tournament:accessibility": (PUBLIC, lambda s: reverse("tournament:accessibility")),
    # The expected plan of the day (the phone page links to it; named here so it is audited in any case).
    "tournament:plan": (PUBLIC, lambda s: reverse("tournament:plan", args=[s.ready.public_key])),
    # The desk keeps equipment only where an item is handed back (arranged below).
    "tournament:equipment": (enums.Role.DESK, lambda s: reverse("tournament:equipment", args=[s.tournament.pk])),
    # A player's pass (its link is printed on the start card): a player seated at a playing table.
    "tournament:pass": (PUBLIC, lambda s: pass_of_playing(s)),
    # The player's table on the phone (issue 32, item 4): players at the table enter (turned on here).
    "tournament:pass_table": (PUBLIC, lambda s: pass_table_of_playing(s)),
    # Sign-up before the day: the phone page links it only while the organiser allows it (turned on here).
    "tournament:sign_up": (PUBLIC, lambda s: sign_up_of(s)),
    # "Withdraw from the tournament", asked first (linked from the pass page).
    "tournament:pass_withdraw": (PUBLIC, lambda s: withdraw_of_playing(s)),
    # The club's register (issue 33): reached from the home page's "My clubs" and the settings; here its
    # page, "Merge into…" and "Copy players from…" of a club the organiser runs (``club_of``).
    "tournament:club_register": (
        enums.Role.ORGANISER,
        lambda s: reverse("tournament:club_register", args=[club_of(s).pk]),
    ),
    "tournament:merge_person": (
        enums.Role.ORGANISER,
        lambda s: reverse("tournament:merge_person", args=[club_of(s).pk, club_of(s).people.order_by("pk")[0].pk]),
    ),
    "tournament:copy_players": (enums.Role.ORGANISER, lambda s: copy_page_of(s)),
    # The club's rating list (issue 33, item 3), linked from the register page.
    "tournament:club_ratings": (
        enums.Role.ORGANISER,
        lambda s: reverse("tournament:club_ratings", args=[club_of(s).pk]),
    ),
    # Self check-in (issue 32, item 3): the entrance page as a player who chose "Is this you?"
    # (``arrange`` turns self check-in and check-in by name on; the poster is in the print pack).
    "tournament:entrance": (
        PUBLIC,
        lambda s: (
            reverse("tournament:entrance", args=[s.tournament.public_key])
            + f"?player={Player.objects.get(tournament=s.tournament, name='Rosa Registered').pk}"
        ),
    ),
    # The club's season (issue 33): the series pages of the organiser's club (``series_of``), a
    # person's history, the public series page, its projector screen and "my season" on the pass.
    "tournament:series_list": (ORGANISER, lambda s: reverse("tournament:series_list", args=[club_of(s).pk])),
    "tournament:series_create": (ORGANISER, lambda s: reverse("tournament:series_create", args=[club_of(s).pk])),
    "tournament:series": (ORGANISER, lambda s: on_series(s, "series")),
    "tournament:series_edit": (ORGANISER, lambda s: on_series(s, "series_edit")),
    "tournament:series_print": (ORGANISER, lambda s: on_series(s, "series_print")),
    "tournament:person_history": (
        ORGANISER,
        lambda s: reverse("tournament:person_history", args=[club_of(s).pk, club_of(s).people.order_by("pk")[0].pk]),
    ),
    "tournament:series_public": (PUBLIC, lambda s: reverse("tournament:series_public", args=[series_of(s).public_key])),
    "tournament:series_screen": (PUBLIC, lambda s: reverse("tournament:series_screen", args=[series_of(s).public_key])),
    "tournament:pass_season": (PUBLIC, lambda s: pass_of_playing(s).rstrip("/") + "/season/"),
}


def series_of(scenario: scenarios.Scenario) -> Series:
    """A series of the organiser's club over the scenario's tournaments (none finished: named as not counted)."""
    club = club_of(scenario)
    series = Series.objects.filter(club=club).first()
    if series is None:
        series = Series.objects.create(club=club, name="A11y league")
        SeriesEvent.objects.bulk_create(
            SeriesEvent(series=series, tournament_id=pk) for pk in (scenario.tournament.pk, scenario.ready.pk)
        )
    return series


def on_series(scenario: scenarios.Scenario, name: str) -> str:
    return reverse(f"tournament:{name}", args=[club_of(scenario).pk, series_of(scenario).pk])


def club_of(scenario: scenarios.Scenario) -> Club:
    """The club of the scenario's tournaments, run by the organiser, with two look-alike people."""
    club = Club.objects.filter(name="A11y club").first()
    if club is None:
        club = Club.objects.create(name="A11y club")
        club.organisers.add(*get_user_model().objects.filter(username=f"{enums.Role.ORGANISER}-a11y"))
        Person.objects.create(club=club, name="Georg Meyer", team="TSV Nord", member_number="12")
        Person.objects.create(club=club, name="Georg Mayer", team="TSV Nord")
        Tournament.objects.filter(pk__in=[scenario.tournament.pk, scenario.ready.pk]).update(club=club)
    return club


def copy_page_of(scenario: scenarios.Scenario) -> str:
    """ "Copy players from…" of an empty tournament of the club (its earlier events listed)."""
    empty = Tournament.objects.create(
        name="Next evening",
        date=scenario.tournament.date,
        game=scenario.tournament.game,
        format=scenario.tournament.format,
        club=club_of(scenario),
    )
    StaffRole.objects.create(
        tournament=empty,
        user=get_user_model().objects.get(username=f"{enums.Role.ORGANISER}-a11y"),
        role=enums.Role.ORGANISER,
    )
    return reverse("tournament:copy_players", args=[empty.pk])


def sign_up_of(scenario: scenarios.Scenario) -> str:
    """The sign-up page of the scenario's tournament not yet in play, with online sign-up on."""
    Tournament.objects.filter(pk=scenario.ready.pk).update(online_signup=True, rules_text="Rules.")
    return reverse("tournament:sign_up", args=[scenario.ready.public_key])


def withdraw_of_playing(scenario: scenarios.Scenario) -> str:
    """The withdrawal question of a seated player's pass (``pass_of_playing``)."""
    token = pass_of_playing(scenario).rstrip("/").rsplit("/", 1)[1]
    return reverse("tournament:pass_withdraw", kwargs={"token": token})


def pass_table_of_playing(scenario: scenarios.Scenario) -> str:
    """The table page of a seated player's pass, with players entering their tables."""
    Tournament.objects.filter(pk=scenario.tournament.pk).update(table_entry=enums.TableEntry.BOTH)
    token = pass_of_playing(scenario).rstrip("/").rsplit("/", 1)[1]
    return reverse("tournament:pass_table", kwargs={"token": token})


def pass_of_playing(scenario: scenarios.Scenario) -> str:
    """The pass page of a player at the scenario's playing table (a new pass)."""
    player = Player.objects.filter(seats__table=scenario.playing).first()
    assert player is not None
    _pass, token = pass_services.issue_pass(tournament=scenario.tournament, actor=None, player_id=player.pk)
    return reverse("tournament:pass", kwargs={"token": token})


# The public pages look the same to staff: audited once, without a login.
PUBLIC_PAGES = {
    "tournament:projector",
    "tournament:find",
    "tournament:accessibility",
    "tournament:plan",
    "tournament:pass",
    "tournament:sign_up",
    "tournament:pass_withdraw",
    "tournament:entrance",
    "tournament:pass_table",
    "tournament:series_public",
    "tournament:series_screen",
    "tournament:pass_season",
}
# Patterns audited once per table state (dealer pick, playing, decided), not once in all.
EACH_VARIANT = {"tournament:referee_table", "tournament:table_corrections"}
# Pages that show nothing of the tournament's format: the site's own pages, the club's register and
# its season. Every format's run still reaches each of them (the check for missing pages holds in
# every format); they are audited in the first format's run only, as each role that reaches them.
FORMAT_INDEPENDENT = {
    "login",
    "tournament:accessibility",
    "tournament:home",
    "tournament:create",
    "tournament:club_register",
    "tournament:club_ratings",
    "tournament:merge_person",
    "tournament:edit_person",
    "tournament:copy_players",
    "tournament:person_history",
    "tournament:series_list",
    "tournament:series_create",
    "tournament:series",
    "tournament:series_edit",
    "tournament:series_print",
    "tournament:series_public",
    "tournament:series_screen",
    "tournament:pass_season",
}
# The printed sheets: the same sheet whoever prints it. Audited once per format, as the first role
# in ``ROLES`` that reaches it (the organiser); what differs by role, the menu above the sheet, is
# audited on each role's own pages. The print pack itself, a page with the role's links, is not a sheet.
SHEETS = {
    f"tournament:print_{sheet}"
    for sheet in (
        "cards",
        "entrance",
        "plan",
        "players",
        "ranking",
        "result_slips",
        "seating",
        "seating_by_name",
        "table_cards",
        "tombola",
    )
}


def to_audit(fmt: str, pages: list[Target]) -> list[Target]:
    """The reached pages that this format's run audits (``FORMAT_INDEPENDENT``, ``SHEETS``)."""
    first_format = fmt == scenarios.FORMATS[0]
    kept: list[Target] = []
    sheets_seen: set[str] = set()
    for target in pages:
        if target.name in FORMAT_INDEPENDENT and not first_format:
            continue
        if target.name in SHEETS:
            if target.name in sheets_seen:
                continue
            sheets_seen.add(target.name)
        kept.append(target)
    return kept


def url_names() -> set[str]:
    """Every named URL pattern of the site, with its namespace ("tournament:desk")."""
    names: set[str] = set()

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix)
            elif pattern.name:
                names.add(prefix + pattern.name)

    walk(get_resolver().url_patterns, "")
    return {name for name in names if not name.startswith(SKIPPED_NAMESPACES)}


def own_pages(fmt: str) -> set[str]:
    """The names of the patterns a format adds (its own pages), namespaced."""
    return {f"tournament:{pattern.name}" for pattern in registry.FORMATS[fmt].urlpatterns}


def expected_pages(fmt: str) -> set[str]:
    others = {name for other in registry.FORMATS if other != fmt for name in own_pages(other)}
    return url_names() - set(SKIPPED) - others


def test_every_url_pattern_is_audited_or_skipped_for_a_reason() -> None:
    """A new URL pattern is either reached by a role in some format, named in UNLINKED, or skipped."""
    every = url_names()
    assert not set(SKIPPED) - every, f"skipped patterns that no longer exist: {set(SKIPPED) - every}"
    assert set(UNLINKED) <= every
    assert not (FORMAT_INDEPENDENT | SHEETS) - every, (FORMAT_INDEPENDENT | SHEETS) - every
    # A format's own page is never "format-independent"; every printed sheet is named in SHEETS.
    assert not FORMAT_INDEPENDENT & {name for fmt in registry.FORMATS for name in own_pages(fmt)}
    printed = {name for name in every if name.startswith("tournament:print_")} - {"tournament:print_pack"}
    assert printed == SHEETS, printed ^ SHEETS
    for fmt in scenarios.FORMATS:
        assert expected_pages(fmt) & own_pages(fmt) == own_pages(fmt) - set(SKIPPED)


# --------------------------------------------------------------------------
# The seeded tournament of a format
# --------------------------------------------------------------------------


@dataclass
class Target:
    role: str
    name: str
    path: str


def arrange(scenario: scenarios.Scenario) -> dict[str, object]:
    """Players in every desk state, equipment kept, a user per role; returns the users by role."""
    tournament = scenario.tournament
    ChecklistItem.objects.create(tournament=tournament, label="Own deck", position=9, returnable=True)
    # Self check-in on (issue 32, item 3): a self-declared item, the pass's "I'm here", the poster.
    ChecklistItem.objects.create(
        tournament=tournament, label="Own dice and cup", position=10, kind=ChecklistItem.Kind.SELF
    )
    type(tournament).objects.filter(pk=tournament.pk).update(self_check_in=True, check_in_by_name=True)
    PlayerFactory(tournament=tournament, name="Rosa Registered")
    PlayerFactory(tournament=tournament, name="Nora No-show", status=enums.PlayerStatus.NO_SHOW)
    PlayerFactory(tournament=tournament, name="Willi Withdrawn", status=enums.PlayerStatus.WITHDRAWN)
    # The tombola (issue 30): in play, a prize won, one drawn again for an absent winner and one
    # open (the organiser's page and the printout); the tournament ready for round 1 shows its draw
    # on the projector (audited apart below, so the tournament's own projector keeps its tables).
    for each, shown in ((tournament, False), (scenario.ready, True)):
        for name in ("Bottle of wine", "Diving mask", "Dive computer"):
            tombola.add_prize(tournament=each, actor=None, name=name)
        tombola.draw_next(tournament=each, actor=None)
        tombola.draw_next(tournament=each, actor=None)
        tombola.mark_absent(
            tournament=each, actor=None, prize_id=each.tombola_prizes.get(position=2).pk, confirmed=True
        )
        tombola.show_on_screen(tournament=each, actor=None, shown=shown)
    users: dict[str, object] = {}
    for role in ROLES:
        user = get_user_model().objects.create_user(username=f"{role}-a11y", password=PASSWORD)
        for each in (tournament, scenario.ready):
            StaffRole.objects.create(tournament=each, user=user, role=role)
        users[role] = user
    return users


def targets(scenario: scenarios.Scenario, users: dict[str, object]) -> list[Target]:
    """Each page a role reaches (once per pattern, or per table state), then the unlinked pages."""
    tournament, ready = scenario.tournament, scenario.ready
    found: list[Target] = []
    audited: set[tuple[str, str]] = set()

    def add(role: str, path: str) -> None:
        name = resolve(urlsplit(path).path).view_name
        if name in SKIPPED or (name in PUBLIC_PAGES and role != PUBLIC):
            return
        if name not in EACH_VARIANT and (role, name) in audited:
            return
        if name in EACH_VARIANT and any(t.path == path and t.role == role for t in found):
            return
        audited.add((role, name))
        found.append(Target(role, name, path))

    client = Client()
    for role in ROLES:
        client.force_login(users[role])  # type: ignore[arg-type]
        start = [
            reverse(f"tournament:{START[role]}", args=[tournament.pk]),
            reverse("tournament:home"),
            # Between rounds: the organiser's step and the points preview of round 1.
            *([reverse("tournament:rounds", args=[ready.pk])] if role == enums.Role.ORGANISER else []),
        ]
        seen, _forms = crawl(client, start, {role})
        for path, status in seen.items():
            if status == 200:
                add(role, path)
        client.logout()
    player = Player.objects.filter(tournament=tournament, seats__table=scenario.playing).first()
    assert player is not None
    seen, _forms = crawl(
        client,
        [
            reverse("tournament:projector", args=[tournament.public_key]),
            reverse("tournament:find", args=[tournament.public_key]) + f"?q={player.name.split()[0]}",
        ],
        set(),
    )
    for path, status in seen.items():
        if status == 200:
            add(PUBLIC, path)
    for role, address in UNLINKED.values():
        add(role, address(scenario))
    return found


# --------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------


def settle(page: Page) -> None:
    """Wait for the content, never a timer: the projector laid out, no htmx request running."""
    # The tournament's projector pages its lists (projector.js); the series' screen has none to page.
    if page.locator("body.projector:not(.series-projector)").count():
        expect(page.locator("body[data-paged]")).to_have_count(1)
    page.wait_for_function("() => !document.querySelector('.htmx-request')", timeout=TIMEOUT_MS)


def pick_winner(page: Page) -> bool:
    """The calculator's hands are shown once the winner is picked (points tables, the knockout final)."""
    winners = page.locator(".winner-pick input[type=radio]")
    if not winners.count():
        return False
    winners.first.check()
    expect(page.locator("[data-calculator]:visible").first).to_be_visible()
    page.locator("[data-calculator]:visible .calc-key").first.click()
    return True


# After the page is audited as it opens, the states a person brings about on it, audited again.
STATES: dict[str, Callable[[Page], bool]] = {
    "tournament:referee_table": pick_winner,
}


@pytest.fixture
def open_as(browser: Browser, live_server) -> Iterator[Callable[..., Page]]:  # type: ignore[no-untyped-def]
    contexts = []

    def make(username: str | None, *, language: str = "en-US") -> Page:
        context = browser.new_context(viewport=TABLET, locale=language, base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        if username:
            log_in(page, username)
        return page

    yield make
    for context in contexts:
        context.close()


def audit(page: Page, where: str, problems: list[str], counts: dict[str, int]) -> None:
    found = serious(violations(page))
    counts[where] = sum(len(v["nodes"]) for v in found)
    if found:
        problems.append(describe(where, found))


@pytest.mark.long
@pytest.mark.parametrize("fmt", scenarios.FORMATS)
def test_every_page_of_every_role_has_no_serious_axe_violation(fmt: str, open_as, transactional_db) -> None:  # type: ignore[no-untyped-def]
    scenario = scenarios.build(fmt)
    users = arrange(scenario)
    pages = targets(scenario, users)
    missing = expected_pages(fmt) - {target.name for target in pages}
    assert not missing, f"pages of {fmt} that no role reached and UNLINKED does not name: {sorted(missing)}"
    pages = to_audit(fmt, pages)

    problems: list[str] = []
    counts: dict[str, int] = {}
    for role in [PUBLIC, *ROLES]:
        page = open_as(None if role == PUBLIC else f"{role}-a11y")
        for target in (target for target in pages if target.role == role):
            page.goto(target.path)
            settle(page)
            where = f"{fmt} · {role} · {target.name} {target.path}"
            audit(page, where, problems, counts)
            state = STATES.get(target.name)
            if state and state(page):
                settle(page)
                audit(page, f"{where} (after {state.__name__})", problems, counts)
    # German: the pages whose layout follows the language (longer words on the projector and the phone).
    page = open_as(None, language="de-DE")
    player = Player.objects.filter(tournament=scenario.tournament, seats__table=scenario.playing).first()
    assert player is not None
    for path in (
        reverse("tournament:projector", args=[scenario.tournament.public_key]) + "?lang=de",
        reverse("tournament:find", args=[scenario.tournament.public_key]) + f"?q={player.name.split()[0]}",
        reverse("tournament:projector", args=[scenario.ready.public_key]) + "?lang=de",  # the tombola
    ):
        page.goto(path)
        settle(page)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        audit(page, f"{fmt} · de · {path}", problems, counts)
    # The projector while the tombola is drawn (one of its states, not a pattern of its own).
    page = open_as(None)
    page.goto(reverse("tournament:projector", args=[scenario.ready.public_key]))
    settle(page)
    expect(page.locator('[data-view="tombola"]')).to_be_visible()
    audit(page, f"{fmt} · public · projector (tombola)", problems, counts)
    # The 404 page (not a URL pattern, but a page a person sees; the same in every format).
    if fmt == scenarios.FORMATS[0]:
        page.goto("/t/999999/desk/")
        settle(page)
        audit(page, f"{fmt} · 404", problems, counts)

    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"axe-{fmt}.txt").write_text("".join(f"{n}\t{where}\n" for where, n in counts.items()))
    assert len(counts) > 30, counts
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------
# The club's register, part two (issue 33): "Edit" a person is a page of its own (reached from the
# register page, opened here by its address); the rest are posts of the register page and the public
# sign-up's fragment (audited with its suggestions in test_register_suggest_flow)
# --------------------------------------------------------------------------

SKIPPED.update(
    {
        "tournament:add_organiser": "POST only (the register page)",
        "tournament:remove_organiser": "POST only (the register page)",
        "tournament:dismiss_duplicate": "POST only (the register page: Not the same person)",
        "tournament:sign_up_suggest": "a fragment of the sign-up (htmx), audited there in test_register_suggest_flow",
    }
)
UNLINKED["tournament:edit_person"] = (
    enums.Role.ORGANISER,
    lambda s: reverse("tournament:edit_person", args=[club_of(s).pk, club_of(s).people.order_by("pk")[0].pk]),
)

# Players record their own table (issue 32, item 4): the states a player's entry waiting for
# confirmation and a call for a referee bring to the phones, the public pages and the staff's lists.
# --------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", scenarios.FORMATS)
def test_a_waiting_entry_and_a_called_table_have_no_serious_axe_violation(  # type: ignore[no-untyped-def]
    fmt: str, browser: Browser, live_server, transactional_db, staff_user
) -> None:
    from tournament.passes import table_entry
    from tournament.tests.browser.test_pass_flow import PHONE
    from tournament.tests.passes.test_table_entry_views import Phones

    at = Phones(fmt)
    anna, ben = at.ids[0], at.ids[1]
    anna_pass, anna_token = pass_services.issue_pass(tournament=at.tournament, actor=None, player_id=anna)
    table_entry.enter(pass_id=anna_pass.pk, table_id=at.table.pk, data=at.entry(ben))
    other = at.other.seats.values_list("player_id", flat=True).first()
    assert other is not None
    caller = pass_services.issue_pass(tournament=at.tournament, actor=None, player_id=other)[0].pk
    table_entry.call_referee(pass_id=caller, table_id=at.other.pk)
    referee = staff_user(at.tournament, enums.Role.REFEREE)
    referee.set_password(PASSWORD)
    referee.save()
    key = at.tournament.public_key
    ben_start = Player.objects.get(pk=ben).start_number
    phone_pages = {
        "pass, a table-mate's entry waiting": reverse("tournament:pass", kwargs={"token": at.tokens[ben]}),
        "phone table, a table-mate's entry": reverse("tournament:pass_table", kwargs={"token": at.tokens[ben]}),
        "phone table, my entry waiting": reverse("tournament:pass_table", kwargs={"token": anna_token}),
        "find, my table waits": reverse("tournament:find", args=[key]) + f"?q={ben_start}",
    }
    staff_pages = {
        "projector, a table waits": reverse("tournament:projector", args=[key]),
        "referees' list, a called table": reverse("tournament:referee_tables", args=[at.tournament.pk]),
        "rounds, a called table": reverse("tournament:rounds", args=[at.tournament.pk]),
        "referee's table, an entry waits": reverse("tournament:referee_table", args=[at.tournament.pk, at.table.pk]),
    }
    problems: list[str] = []
    counts: dict[str, int] = {}
    for language in ("en-US", "de-DE", "it-IT"):
        context = browser.new_context(viewport=PHONE, locale=language, base_url=live_server.url, is_mobile=True)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        for where, path in phone_pages.items():
            page.goto(path)
            settle(page)
            audit(page, f"{fmt} · {language} · {where}", problems, counts)
        context.close()
    context = browser.new_context(viewport=TABLET, locale="en-US", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(staff_pages.pop("projector, a table waits"))
    settle(page)
    audit(page, f"{fmt} · projector, a table waits", problems, counts)
    log_in(page, referee.get_username())
    for where, path in staff_pages.items():
        page.goto(path)
        settle(page)
        audit(page, f"{fmt} · referee · {where}", problems, counts)
    context.close()
    assert len(counts) == 4 * 3 + 4, counts
    assert not problems, "\n".join(problems)
