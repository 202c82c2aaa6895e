"""The projector on the beamers halls have: 1920x1080, 1280x800, 1280x720 and 1024x768.

Read from 10 m, a name must show in full: it may wrap onto a second line, but is never
cut to a few letters, never ends in "…" and never breaks inside a word (only at spaces
and after hyphens: "Dell'Acqua-" / "Bergmann"). A page that cannot hold its names on
a smaller screen is paged again by projector.js (``body[data-paged]``), so nothing
runs off the screen either.

Every view is checked at every size (``fit_problems``); the first page of each kind is
saved to test-artifacts/projector/ (``<players>-<size>-<view>.png``) for a person to look at.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tournament import desk, enums, simulation
from tournament.formats.points import services as points_services
from tournament.models import CheckIn, Player, Round, Tournament
from tournament.tests.browser.conftest import TIMEOUT_MS
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import set_settings

pytestmark = pytest.mark.browser

SIZES = {
    "1920x1080": {"width": 1920, "height": 1080},
    "1280x800": {"width": 1280, "height": 800},
    "1280x720": {"width": 1280, "height": 720},
    "1024x768": {"width": 1024, "height": 768},
}
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "projector"
SEED = 20260614
# Names at 30 design pixels or more: 30 px on a screen 1080 px high, as much of the wall on any other.
MIN_NAME_DESIGN_PX = 30
# The names of a hall in South Tyrol: short and long, with apostrophes, hyphens and two first names.
FIRST_NAMES = [
    "Alessandro",
    "Maximilian",
    "Anna-Lena",
    "Katharina",
    "Valentina",
    "Jo",
    "Eva",
    "Elias",
    "Giovanni Battista",
    "Marie-Luise",
    "Lukas",
    "Sophie",
]
LAST_NAMES = [
    "Dell'Acqua-Bergmann",
    "Schwarzenbacher",
    "Oberhollenzer",
    "Di Benedetto",
    "Huber",
    "Wallnöfer",
    "Zanotelli-Pichler",
    "Rossi",
    "Hinterwaldner",
    "Gruber",
    "Mastrantonio",
    "Kofler",
]
# The longest names a podium has to hold (the first three go on it).
PODIUM_NAMES = [
    "Maximilian Schwarzenbacher-Oberhollenzer",
    "Alessandro Dell'Acqua-Bergmann",
    "Giovanni Battista Mastrantonio",
    "Anna-Lena Hinterwaldner-Zanotelli",
    "Marie-Luise Wolkensteiner",
    "Katharina Dell'Antonio-Gruber",
    "Valentina Di Benedetto-Kofler",
    "Elias Untertrifaller",
    "Sophie Oberhollenzer-Wallnöfer",
]
LONG_TITLE = "Stadtmeisterschaft UNO 2026 – Bezirk Bozen, Vorrunde zur Landesmeisterschaft"


# --- fixtures -------------------------------------------------------------------------


@pytest.fixture
def points_field(transactional_db) -> Callable[..., Tournament]:  # type: ignore[no-untyped-def]
    """points_field(players, names=None, **settings) -> a points tournament, everyone checked in,
    start numbers drawn (built in bulk). The projector stays on the view a test shows."""

    def make(players: int, names: list[str] | None = None, **settings: object) -> Tournament:
        rng = random.Random(SEED + players)
        tournament = TournamentFactory(
            format=enums.Format.POINTS, capacity=players, checklist=[], venue="Palasport Bolzano"
        )
        set_settings(tournament, display_rotation_seconds=600, **settings)
        batch = [
            PlayerFactory(
                tournament=tournament,
                status=enums.PlayerStatus.CHECKED_IN,
                name=names[index] if names else f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
            )
            for index in range(players)
        ]
        CheckIn.objects.bulk_create(CheckIn(player=player) for player in batch)
        desk.draw_start_numbers(tournament=tournament, actor=None, seed=SEED)
        tournament.refresh_from_db()
        return tournament

    return make


@pytest.fixture
def projector_at(browser: Browser, live_server) -> Iterator[Callable[..., Page]]:  # type: ignore[no-untyped-def]
    """projector_at(tournament, "1280x720", lang="") -> the projector in a fresh English context of
    that size (in ``lang`` with ``?lang=``), its lists paged to the screen. JavaScript errors and
    failed static files fail the test."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def make(tournament: Tournament, size: str, lang: str = "") -> Page:
        context = browser.new_context(viewport=SIZES[size], locale="en-US", base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        context.on("weberror", lambda error: problems.append(f"JavaScript error: {error.error}"))
        context.on(
            "response",
            lambda response: (
                problems.append(f"{response.status} for {response.url}")
                if "/static/" in response.url and response.status >= 400
                else None
            ),
        )
        contexts.append(context)
        page = context.new_page()
        page.goto(reverse("tournament:projector", args=[tournament.public_key]) + (f"?lang={lang}" if lang else ""))
        expect(page.locator("body[data-paged]")).to_have_count(1)
        expect(page.locator("#screen [data-view].active")).to_have_count(1)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


# --- helpers --------------------------------------------------------------------------


def in_play(tournament: Tournament, decided: int) -> Round:
    """Round 1 seated, its first ``decided`` tables played to the end."""
    rng = random.Random(SEED)
    rnd = points_services.start_round(tournament=tournament, actor=None, seed=SEED)
    for table in rnd.tables.order_by("number")[:decided]:
        simulation.play_table(tournament, table, rng, None)
    tournament.refresh_from_db()
    return rnd


def finished(tournament: Tournament) -> Tournament:
    """One round of one game at every table, then the end (the podium and the final standings)."""
    set_settings(tournament, rounds_planned=1, games_per_round=1)
    tournament.refresh_from_db()
    simulation.simulate(tournament, seed=SEED)
    assert tournament.status == enums.TournamentStatus.FINISHED
    return tournament


def views(page: Page, kind: str) -> int:
    return page.locator(f'#screen [data-view="{kind}"]').count()


def show_view(page: Page, kind: str, index: int = 0) -> None:
    """Make the ``index``-th view of ``kind`` the visible one (what the rotation does in turn)."""
    found = page.evaluate(
        """([kind, index]) => {
            const all = [...document.querySelectorAll('#screen [data-view]')];
            const wanted = all.filter((v) => v.dataset.view === kind)[index];
            if (!wanted) return false;
            all.forEach((v) => v.classList.toggle('active', v === wanted));
            return true;
        }""",
        [kind, index],
    )
    assert found, f"no {kind} view number {index + 1}"
    expect(page.locator(f'#screen [data-view="{kind}"]').nth(index)).to_be_visible()


def fit_problems(page: Page) -> list[str]:
    """What a spectator would miss on the visible view: a name that does not show in full (wider
    than its box, set to end in "…", or broken inside a word), a name smaller than 30 design
    pixels, anything off the screen, and a cut title."""
    viewport = page.viewport_size
    assert viewport is not None
    min_px = MIN_NAME_DESIGN_PX * min(viewport["height"] / 1080, viewport["width"] / 1440) - 0.5
    found: list[str] = page.evaluate(
        """(minPx) => {
            const problems = [];
            const text = (el) => el.textContent.trim().replace(/\\s+/g, ' ');
            const view = document.querySelector('#screen [data-view].active');
            const area = view.getBoundingClientRect();
            if (document.documentElement.scrollWidth > innerWidth) problems.push('the page is wider than the screen');
            for (const el of document.querySelectorAll('.pj-head *')) {
                const box = el.getBoundingClientRect();
                if (box.width && (box.right > innerWidth + 1 || box.left < -1 || box.top < -1)) {
                    problems.push('off the screen: ' + el.tagName + ' "' + text(el).slice(0, 40) + '"');
                }
            }
            const title = document.querySelector('.pj-title h1');
            if (title.scrollWidth > title.clientWidth + 1) problems.push('title cut: ' + text(title));
            for (const el of view.querySelectorAll('*')) {
                const box = el.getBoundingClientRect();
                if (!box.width || !box.height) continue;
                if (box.bottom > area.bottom + 1 || box.right > area.right + 1 || box.left < area.left - 1) {
                    problems.push('off the screen: ' + el.className + ' "' + text(el).slice(0, 40) + '"');
                }
            }
            // A word (up to a space, or up to and with a hyphen) whose letters lie on two lines.
            const broken = (el) => {
                const words = [];
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (const match of node.data.matchAll(/[^\\s-]+-?/g)) {
                        const range = document.createRange();
                        range.setStart(node, match.index);
                        range.setEnd(node, match.index + match[0].length);
                        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
                        const tops = new Set(boxes.map((r) => Math.round(r.top)));
                        if (tops.size > 1) words.push(match[0]);
                    }
                }
                return words;
            };
            for (const el of view.querySelectorAll('.nm, .step-name')) {
                const style = getComputedStyle(el);
                const name = '"' + text(el) + '"';
                if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
                    problems.push('name cut: ' + name + ' (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
                }
                if (style.textOverflow !== 'clip') problems.push('name may end in …: ' + name);
                if (parseFloat(style.fontSize) < minPx) {
                    problems.push('name too small (' + style.fontSize + '): ' + name);
                }
                for (const word of broken(el)) problems.push('word broken: "' + word + '" in ' + name);
            }
            return problems;
        }""",
        min_px,
    )
    return found


def whole_words_broken(page: Page, selector: str) -> list[str]:
    """The words (up to a space, hyphens included) of the visible ``selector`` elements whose
    letters lie on more than one line."""
    found: list[str] = page.evaluate(
        """(selector) => {
            const words = [];
            for (const el of document.querySelectorAll('#screen [data-view].active ' + selector)) {
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (const match of node.data.matchAll(/\\S+/g)) {
                        const range = document.createRange();
                        range.setStart(node, match.index);
                        range.setEnd(node, match.index + match[0].length);
                        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
                        if (new Set(boxes.map((r) => Math.round(r.top))).size > 1) words.push(match[0]);
                    }
                }
            }
            return words;
        }""",
        selector,
    )
    return found


def shoot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def tour(page: Page, kinds: tuple[str, ...], prefix: str | None = None) -> list[str]:
    """Show every page of each kind in turn and check it; save the first page of each kind."""
    problems: list[str] = []
    for kind in kinds:
        count = views(page, kind)
        assert count, f"no {kind} view"
        for index in range(count):
            show_view(page, kind, index)
            problems += [f"{kind} {index + 1}/{count}: {problem}" for problem in fit_problems(page)]
            if prefix and index == 0:
                shoot(page, f"{prefix}-{kind}")
    return problems


def names_shown(page: Page, kind: str) -> list[str]:
    return [name.strip() for name in page.locator(f'#screen [data-view="{kind}"] .nm').all_text_contents()]


# --- tests ----------------------------------------------------------------------------


def test_no_name_is_cut_at_1280x720_with_50_players_in_play(points_field, projector_at) -> None:  # type: ignore[no-untyped-def]
    tournament = points_field(50, name="Campionato provinciale UNO di Bolzano 2026")
    rnd = in_play(tournament, decided=5)
    projector = projector_at(tournament, "1280x720")

    # No bracket: the points format's table winners read like a ranking beside the standings (issue 28).
    assert tour(projector, ("tables", "alphabetical", "standings")) == []
    # Paged to the screen, nobody lost: every player on the seating lists, every table once.
    players = sorted(tournament.players.values_list("name", flat=True))
    assert sorted(names_shown(projector, "alphabetical")) == players
    assert sorted(names_shown(projector, "tables")) == players
    assert sorted(names_shown(projector, "standings")) == players
    numbers = projector.locator('#screen [data-view="tables"] .pj-table-no').all_text_contents()
    assert numbers == [f"Table {table.number}" for table in rnd.tables.order_by("number")]
    # Each page says which of how many it is.
    pages = views(projector, "alphabetical")
    counters = projector.locator('#screen [data-view="alphabetical"] [data-page]').all_text_contents()
    assert counters == ([f"{n}/{pages}" for n in range(1, pages + 1)] if pages > 1 else [""])


def test_the_podium_never_splits_a_name(points_field, projector_at) -> None:  # type: ignore[no-untyped-def]
    tournament = finished(points_field(len(PODIUM_NAMES), names=PODIUM_NAMES, name=LONG_TITLE))
    # The three longest names on the podium, the longest first.
    podium = [int(line.split("\t")[1]) for line in simulation.ranking_lines(tournament)[:3]]
    for number, name in zip(podium, PODIUM_NAMES[:3], strict=True):
        Player.objects.filter(tournament=tournament, start_number=number).update(name=name)
    for size in ("1280x800", *[other for other in SIZES if other != "1280x800"]):
        projector = projector_at(tournament, size)
        expect(projector.locator('#screen [data-view="podium"]')).to_have_class(re.compile(r"\bactive\b"))
        expect(projector.locator(".step-name")).to_have_text(PODIUM_NAMES[:3])
        assert fit_problems(projector) == [], size
        # Set so that a surname such as "Dell'Acqua-Bergmann" stays whole; only one too long for
        # any line at 30 design pixels breaks, and then after its hyphen.
        assert whole_words_broken(projector, ".step-name") == ["Schwarzenbacher-Oberhollenzer"], size
        shoot(projector, f"podium-long-names-{size}")


@pytest.mark.long
@pytest.mark.parametrize("players", [50, 250])
def test_every_view_fits_every_beamer(points_field, projector_at, players: int) -> None:  # type: ignore[no-untyped-def]
    """Seating by table, by name and the standings in play (no bracket for points, issue 28); the
    podium and the final standings at the end. Screenshots: test-artifacts/projector/<players>-<size>-<view>.png."""
    playing = points_field(players, name=LONG_TITLE if players > 100 else "Torneo UNO di Merano 2026")
    in_play(playing, decided=players // 10)
    done = finished(points_field(players, name="Stadtmeisterschaft UNO 2026"))
    problems: list[str] = []
    kinds = ("tables", "alphabetical", "standings")
    # Italian and German words are long ("Disposizione ai tavoli", "Strafpunkte"): the narrower screens.
    for lang, size, heading in (("it", "1024x768", "Dove mi siedo?"), ("de", "1280x800", "Wo sitze ich?")):
        translated = projector_at(playing, size, lang=lang)
        expect(translated.locator('#screen [data-view="alphabetical"] h2').first).to_contain_text(heading)
        problems += [f"{lang} {p}" for p in tour(translated, kinds, f"{players}-{size}-{lang}")]
    for size in SIZES:
        projector = projector_at(playing, size)
        problems += [f"{size} {p}" for p in tour(projector, kinds, f"{players}-{size}")]
        end = projector_at(done, size)
        problems += [f"{size} {p}" for p in tour(end, ("podium",), f"{players}-{size}")]
        problems += [f"{size} final {p}" for p in tour(end, ("standings",), f"{players}-{size}-final")]
    assert problems == []


def test_a_screen_keeps_its_language_across_polls(points_field, projector_at) -> None:  # type: ignore[no-untyped-def]
    """The hall's screens follow the tournament (here: each browser's language, English); one
    screen opened with ?lang=it stays Italian when a result brings new content."""
    tournament = points_field(9)
    rnd = in_play(tournament, decided=0)
    projector = projector_at(tournament, "1280x720", lang="it")
    show_view(projector, "tables")
    heading = projector.locator('#screen [data-view="tables"].active h2')
    expect(heading).to_contain_text("Disposizione ai tavoli")
    expect(projector.locator("html")).to_have_attribute("lang", "it")
    simulation.play_table(tournament, rnd.tables.get(number=1), random.Random(SEED), None)
    # The poll brings the decided table, in Italian, on the same kind of view.
    expect(projector.locator('#screen [data-view="tables"].active .pj-table.status-decided')).to_have_count(1)
    expect(heading).to_contain_text("Disposizione ai tavoli")
    assert fit_problems(projector) == []


def knockout_field(stop_at: str) -> Tournament:
    """The eighteen-player knockout championship (``tests.play.championship``) with the hall's long
    names: ``"lucky_losers"``: main round 1 played (its six tables are listed by winner), the
    lucky-loser round seated; ``"end"``: played to its end (a duel for place 2 in the Final)."""
    from tournament.tests.play import championship

    if stop_at == "end":
        tournament = championship.to_the_end(championship.to_the_final()).tournament
    else:
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=18, seed=championship.SEED)
        first = championship.next_round(tournament, seed=1)
        assert first is not None
        for table in first.tables.order_by("number"):
            championship.play_in_turns(tournament, table)
        championship.next_round(tournament, seed=2)
    rng = random.Random(SEED)
    for player in tournament.players.order_by("pk"):
        player.name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        player.save(update_fields=["name"])
    # The screen reads again (a new version), and stays on the view a test shows.
    Tournament.objects.filter(pk=tournament.pk).update(
        display_rotation_seconds=600, name="Unterwassermeisterschaft 2026", version=tournament.version + 1
    )
    tournament.refresh_from_db()
    return tournament


def bracket_labels(page: Page) -> list[str]:
    """Every table's label in the bracket's views ("Table", "Duel"); asserts that each table has one
    (a box's title and a listed winner's line alike)."""
    bracket = page.locator('#screen [data-view="bracket"]')
    titles = bracket.locator(".pj-btitle").count() + bracket.locator(".pj-compact li").count()
    labels = bracket.locator(".pj-blabel").all_text_contents()
    assert len(labels) == titles and titles > 0, (labels, titles)
    return labels


@pytest.mark.parametrize("stop_at", ["lucky_losers", "end"])
def test_the_knockout_bracket_says_table_and_duel_on_every_beamer(  # type: ignore[no-untyped-def]
    transactional_db, projector_at, stop_at: str
) -> None:
    """Issue 26: main round 1's winners were listed as 1-6 beside their names, read as places. Every
    table of the bracket now says "Table" (a duel "Duel"), in German and Italian too, and nothing is
    cut; after the end "Where do I sit?" names each finalist once. Screenshots:
    knockout-<stop_at>-<size>-bracket.png."""
    tournament = knockout_field(stop_at)
    problems: list[str] = []
    for size in SIZES:
        projector = projector_at(tournament, size)
        problems += [f"{size} {p}" for p in tour(projector, ("bracket",), f"knockout-{stop_at}-{size}")]
        labels = bracket_labels(projector)
        assert set(labels) == ({"Table", "Duel"} if stop_at == "end" else {"Table"}), labels
        if stop_at == "lucky_losers":  # main round 1 listed by winner: each line says "Table"
            lines = projector.locator('#screen [data-view="bracket"] .pj-compact li b').all_text_contents()
            assert [" ".join(line.split()) for line in lines] == [f"Table {n}" for n in range(1, 7)], lines
        else:
            finalists = tournament.players.filter(
                seats__table__round__stage=enums.Stage.FINAL, seats__table__is_duel=False
            ).values_list("name", flat=True)
            assert sorted(names_shown(projector, "alphabetical")) == sorted(finalists)
            problems += [f"{size} {p}" for p in tour(projector, ("alphabetical",), f"knockout-{stop_at}-{size}")]
    for lang, table in (("de", "Tisch"), ("it", "Tavolo")):
        projector = projector_at(tournament, "1280x720", lang=lang)
        problems += [f"{lang} {p}" for p in tour(projector, ("bracket",), f"knockout-{stop_at}-1280x720-{lang}")]
        assert table in bracket_labels(projector)
    assert problems == []
