"""The print pack in chromium: every printable as an A4 PDF and as print-media screenshots.

A knockout tournament of 40 players is played to its end through the services
(``simulation``); a few players get long names and clubs. The desk clerk opens
the print pack and each printable from its button: start-number cards, table
cards with QR codes, the seating by table and by name, the result slips of the
first round and of the final, and the final ranking. Each is printed with
``page.pdf(format="A4")`` into test-artifacts/print/ and must have exactly the
expected number of pages (a sheet that did not fit its page would add one; a
slip split across pages too); the players' names are on the page, none is cut,
and the navigation and buttons are not printed. The slips of the other formats
(chips, card points) are printed the same way.

Screenshots of each printable in print media at 794x1123 (A4 at 96 dpi) land
in test-artifacts/print/ for a human to look at: a full page, and the first
sheet on its own. A result slip's printed grid is also looked at in the PDF as
chromium's PDF viewer shows it (``<name>-pdf.png``): every line of its grid is
there, the right border too (chromium prints only the page area, and a line in
the last pixel column of the layout was lost: issue 26).
"""

from __future__ import annotations

import math
import re
import struct
import zlib
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tournament import enums, simulation
from tournament.formats import registry
from tournament.models import Player, Round, StaffRole, Table, Tournament
from tournament.selectors import printing

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "print"
A4 = {"width": 794, "height": 1123}
# The printed width inside print.css's 12 mm page margins: the layout the checks for cut text see.
A4_INSIDE_MARGINS = {"width": 703, "height": 1032}
SEED = 20260614
NAME = "Österreichische Unterwasser-UNO-Staatsmeisterschaft 2026"
VENUE = "Hallenbad Eggenberg, Graz"
# Longer than any box on a card, a slip or a list: it must wrap, never be cut.
LONG_NAMES = [
    ("Maximiliane-Theresia von Hohenberg-Schwarzenstein", "Tauchsportverein Unterwasserrugby Hohenems"),
    ("Bartholomäus Wolfgang Oberkirchner-Langenfeld", ""),
]
START_CARDS_PER_PAGE = 6  # app.css: two columns of three 7 cm cards (each carries its pass: QR code and link)
A4_WIDTH_PX = 210 / 25.4 * 96  # 793.7: the PDF page's width in CSS pixels
PAGE_MARGIN_PX = 12 / 25.4 * 96  # print.css: @page margin 12 mm


def pdf_pages(data: bytes) -> int:
    """Pages of a PDF written by chromium (Skia writes each page object uncompressed)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


def print_and_look(page: Page, name: str, *, pages: int, names: list[str]) -> None:
    """Print the open page to test-artifacts/print/<name>.pdf and check it: ``pages`` A4 pages, every
    name on it, no name cut, nothing of the screen's navigation printed; with screenshots in print
    media (the whole page, and the first sheet on its own) for a human to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(A4)
    page.emulate_media(media="print")
    # The pictures first: a failed check below is looked at in them.
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    first = page.locator(".sheet, .start-card").first
    if first.count():
        first.screenshot(path=str(ARTIFACTS / f"{name}-first.png"))
    data = page.pdf(path=str(ARTIFACTS / f"{name}.pdf"), format="A4", prefer_css_page_size=True)
    page.set_viewport_size(A4_INSIDE_MARGINS)
    for hidden in (".topbar", ".tournament-nav", ".print-bar", "button[data-print]"):
        for element in page.locator(hidden).all():
            expect(element).to_be_hidden()
    text = page.locator("main").inner_text()
    missing = [player for player in names if player not in text]
    assert not missing, f"{name}: names missing {missing}"
    cut = page.evaluate(
        """() => [
            ...[...document.querySelectorAll("main .name, main .player, main td, main th")].filter(
              (el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === "ellipsis"),
            ...[...document.querySelectorAll("main .table-card, main .start-card")].filter(
              (el) => el.scrollHeight > el.clientHeight + 1),
          ].map((el) => el.textContent.trim().replace(/\\s+/g, " "))"""
    )
    assert not cut, f"{name}: text cut or overflowing its box: {cut}"
    assert pdf_pages(data) == pages, f"{name}: {pdf_pages(data)} pages, expected {pages}"
    page.emulate_media(media="screen")
    page.set_viewport_size(A4)


def png_pixels(data: bytes) -> tuple[int, int, list[list[int]]]:
    """Width, height and grey values (0 black .. 255 white) of an 8-bit RGB(A) PNG (a screenshot)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    step = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(chunks), width * step
    rows: list[list[int]] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                line[i] = (line[i] + near[2]) & 255
        rows.append([sum(line[x * step : x * step + 3]) // 3 for x in range(width)])
        previous = line
    return width, height, rows


def dark_runs(values: list[int]) -> list[tuple[int, int]]:
    """The runs of dark pixels along a line of grey values: (first, last) of each."""
    runs: list[tuple[int, int]] = []
    for x, value in enumerate(values):
        if value < 128:
            if runs and runs[-1][1] == x - 1:
                runs[-1] = (runs[-1][0], x)
            else:
                runs.append((x, x))
    return runs


# The PDF viewer's width for the check: a page shown about 4 pixels to the CSS pixel, so that a line
# the print clipped is gone from the picture, not left as a sliver.
VIEWER_WIDTH = 3200


def assert_printed_grid_whole(browser: Browser, page: Page, name: str) -> None:
    """The first result slip of the open page as printed in ``<name>.pdf`` (``print_and_look``),
    its first page shown by chromium's PDF viewer (saved as ``<name>-pdf.png``): across the first
    game's line a vertical line for every column's left edge and for the last one's right edge.
    Where a line is lost in print (the right border was), the line count is one short."""
    page.set_viewport_size(A4_INSIDE_MARGINS)
    page.emulate_media(media="print")
    layout = page.evaluate(
        """() => { const sheet = document.querySelector(".slip"), grid = sheet.querySelector(".slip-grid");
          const row = grid.querySelector("tbody tr").getBoundingClientRect(), top = sheet.getBoundingClientRect().top;
          return {top: row.top - top, height: row.height, columns: grid.querySelectorAll("thead th").length}; }"""
    )
    page.emulate_media(media="screen")
    page.set_viewport_size(A4)
    height = round(VIEWER_WIDTH * 1.42)
    context = browser.new_context(viewport={"width": VIEWER_WIDTH, "height": height})
    try:
        viewer = context.new_page()
        viewer.goto((ARTIFACTS / f"{name}.pdf").as_uri() + "#page=1&toolbar=0&view=FitH")

        def strip(x: int, y: int, width: int, tall: int) -> list[list[int]]:
            clip = {"x": x, "y": y, "width": width, "height": tall}
            return png_pixels(viewer.screenshot(clip=clip))[2]

        # The viewer draws the page some time after loading (nothing in the page to wait for): the
        # line across its middle, until it shows the white page beside the dark background and is the
        # same twice in a row. "More than one colour" alone let a loaded run take the viewer's grey
        # frame, drawn before the page, for it; "some white" alone would take a blank white view.
        middle: list[int] = []
        for _attempt in range(80):
            viewer.wait_for_timeout(250)
            line = strip(0, height // 2, VIEWER_WIDTH, 1)[0]
            if line == middle and any(value > 250 for value in line) and len(set(line)) > 1:
                break
            middle = line
        else:
            raise AssertionError(f"{name}: the PDF viewer showed no page")
        white = [x for x, value in enumerate(middle) if value > 250]
        left, right = white[0], white[-1]  # the page, white on the viewer's dark background
        column = strip(left + 3, 0, 1, height)
        top = next(y for y in range(height) if column[y][0] > 250)
        scale = (right - left + 1) / A4_WIDTH_PX
        y = round(top + (PAGE_MARGIN_PX + layout["top"] + layout["height"] * 0.25) * scale)
        lines = dark_runs(strip(left, y, right - left + 1, 1)[0])
        viewer.screenshot(path=str(ARTIFACTS / f"{name}-pdf.png"))
    finally:
        context.close()
    assert len(lines) == layout["columns"] + 1, f"{name}: {len(lines)} lines across the grid, {lines}"
    # The grid's outer lines lie where the page's margins put them, the right one too.
    margin = PAGE_MARGIN_PX * scale
    assert abs(lines[0][0] - margin) <= 2 * scale, (lines, margin)
    assert abs((right - left) - lines[-1][1] - margin) <= 3 * scale, (lines, margin)


def open_from_pack(page: Page, tournament: Tournament, link: str, *, round_number: int | None = None) -> None:
    """Go to the print pack and follow one of its buttons (in a round's row when given)."""
    page.goto(reverse("tournament:print_pack", args=[tournament.pk]))
    scope = page.locator(f"#print-round-{round_number}") if round_number else page.locator("main")
    scope.get_by_role("link", name=link, exact=True).first.click()
    expect(page.locator("main")).to_contain_text(tournament.name)


def names_in(tournament: Tournament, round_number: int) -> list[str]:
    return list(
        Player.objects.filter(seats__table__round__tournament=tournament, seats__table__round__number=round_number)
        .order_by("name")
        .values_list("name", flat=True)
    )


def finished(fmt: str, players: int) -> Tournament:
    """A tournament of ``fmt`` played to its end, with the name, venue and long names above."""
    tournament = simulation.create_field(fmt=fmt, players=players, seed=SEED)
    simulation.simulate(tournament, seed=SEED)
    Tournament.objects.filter(pk=tournament.pk).update(name=NAME, venue=VENUE)
    # The first players of round 1's first table get the long names (they are on every printable).
    first_table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    for seat, (name, club) in zip(first_table.seats.order_by("position"), LONG_NAMES, strict=False):
        Player.objects.filter(pk=seat.player_id).update(name=name, club=club)
    tournament.refresh_from_db()
    return tournament


def tables_in(tournament: Tournament, round_number: int) -> int:
    return Table.objects.filter(round__tournament=tournament, round__number=round_number).count()


@pytest.mark.long
def test_every_printable_of_a_finished_knockout(new_tablet, clerk):  # type: ignore[no-untyped-def]
    tournament = finished(enums.Format.KNOCKOUT, 40)
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)
    page = new_tablet(clerk.username)
    # The desk page leads to the pack.
    page.goto(reverse("tournament:desk", args=[tournament.pk]))
    page.get_by_role("link", name="Print pack").click()
    expect(page.get_by_role("heading", name="Print pack", exact=True)).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "00-pack.png"), full_page=True)

    everyone = list(Player.objects.filter(tournament=tournament).order_by("name").values_list("name", flat=True))
    assert len(everyone) == 40
    open_from_pack(page, tournament, "Start-number cards")
    print_and_look(page, "01-start-cards", pages=math.ceil(40 / START_CARDS_PER_PAGE), names=everyone)

    tables = tables_in(tournament, 1)
    seated = names_in(tournament, 1)
    assert len(seated) == 40
    open_from_pack(page, tournament, "Table cards with QR", round_number=1)
    assert page.locator(".table-card").count() == tables
    print_and_look(page, "02-table-cards", pages=math.ceil(tables / printing.CARDS_PER_SHEET), names=seated)

    open_from_pack(page, tournament, "Seating by table", round_number=1)
    print_and_look(page, "03-seating-by-table", pages=math.ceil(tables / printing.TABLES_PER_SHEET), names=seated)

    open_from_pack(page, tournament, "Seating A–Z", round_number=1)
    rows = page.locator(".seating-names tbody tr td.name")
    assert rows.all_inner_texts() == sorted(seated, key=str.casefold)
    print_and_look(page, "04-seating-by-name", pages=math.ceil(40 / printing.NAMES_PER_SHEET), names=seated)

    open_from_pack(page, tournament, "Result slips", round_number=1)
    assert page.locator(".slip").count() == tables
    page.screenshot(path=str(ARTIFACTS / "05-result-slips-on-screen.png"))  # the sheets previewed as pages
    print_and_look(page, "05-result-slips-round-1", pages=tables, names=seated)
    assert_printed_grid_whole(page.context.browser, page, "05-result-slips-round-1")

    final = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert final is not None and final.stage == enums.Stage.FINAL
    open_from_pack(page, tournament, "Result slips", round_number=final.number)
    expect(page.locator(".slip").first).to_contain_text("first to 500 points")
    print_and_look(
        page,
        "06-result-slips-final",
        pages=tables_in(tournament, final.number),
        names=names_in(tournament, final.number),
    )
    assert_printed_grid_whole(page.context.browser, page, "06-result-slips-final")

    open_from_pack(page, tournament, "Final ranking")
    sheet = page.locator(".sheet-ranking")
    expect(sheet).to_contain_text(NAME)
    expect(sheet).to_contain_text(VENUE)
    expect(sheet).to_contain_text("Points in the final (to 500)")
    expect(page.locator("#print-ranking tbody tr")).to_have_count(40)
    # The Print button opens the browser's print dialogue (static/js/app.js; no inline script).
    page.evaluate("() => { window.print = () => { window.printed = true; }; }")
    page.get_by_role("button", name="Print", exact=True).click()
    assert page.evaluate("() => window.printed === true")
    print_and_look(page, "07-final-ranking", pages=2, names=everyone)


@pytest.mark.parametrize(
    ("fmt", "players", "kind"),
    [(enums.Format.LIFE_BANDS, 12, "chips"), (enums.Format.POINTS, 10, "card-points")],
)
def test_result_slips_of_the_other_formats(new_tablet, clerk, fmt, players, kind):  # type: ignore[no-untyped-def]
    tournament = finished(fmt, players)
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)
    page = new_tablet(clerk.username)
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert last is not None
    for number in sorted({1, last.number}):
        open_from_pack(page, tournament, "Result slips", round_number=number)
        print_and_look(
            page,
            f"08-result-slips-{kind}-round-{number}",
            pages=tables_in(tournament, number),
            names=names_in(tournament, number),
        )
        assert_printed_grid_whole(page.context.browser, page, f"08-result-slips-{kind}-round-{number}")
    open_from_pack(page, tournament, str(registry.of(tournament).ranking_title))
    print_and_look(page, f"09-ranking-{kind}", pages=1, names=list(tournament.players.values_list("name", flat=True)))


def test_a_printout_cut_short_says_so_and_will_not_print(new_tablet, clerk):  # type: ignore[no-untyped-def]
    """The seating A–Z is streamed sheet by sheet (``tournament.streaming``). Whole, it shows no
    warning and prints; cut short after its first sheet (the connection broke while it loaded,
    as a dropped Wi-Fi or a proxy's timeout would), it says so in the clerk's words, on screen
    and on paper, and its Print button is off until the page is loaded again."""
    tournament = finished(enums.Format.KNOCKOUT, 40)
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.DESK)
    page = new_tablet(clerk.username)
    page.set_viewport_size({"width": 1280, "height": 800})
    path = reverse("tournament:print_seating_by_name", args=[tournament.pk, 1])
    page.goto(path)
    expect(page.locator(".sheet")).to_have_count(math.ceil(40 / printing.NAMES_PER_SHEET))
    expect(page.locator("#print-incomplete")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_enabled()

    def cut_after_the_first_sheet(route):  # type: ignore[no-untyped-def]
        response = route.fetch()
        body = response.body()
        marker = b'<section class="sheet">'
        second = body.index(marker, body.index(marker) + 1)
        route.fulfill(response=response, body=body[:second])

    page.route(f"**{path}", cut_after_the_first_sheet)
    page.reload()
    expect(page.locator(".sheet")).to_have_count(1)
    warning = page.get_by_role("alert")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("Not every sheet arrived")
    expect(warning).to_contain_text("Reload the page before you print")
    expect(page.get_by_role("button", name="Print")).to_be_disabled()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "09-cut-short-desk.png"))
    page.emulate_media(media="print")
    expect(warning).to_be_visible()  # printed anyway (Ctrl+P): the first page says it is not whole

    page.unroute(f"**{path}")
    page.emulate_media(media="screen")
    page.reload()
    expect(page.locator("#print-incomplete")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_enabled()
