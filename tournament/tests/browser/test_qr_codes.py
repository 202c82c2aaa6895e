"""Every QR code scans: decoded by zbar from real pictures, as a phone's camera would see them.

The projector's "Find your table" at 1024x768, 1280x720 and 1920x1080 (screenshots of the
screen), the printed player list and the table cards (printed to A4 PDF by chromium and
rasterised at 150 dpi by poppler's pdftoppm, and screenshots in print media). Each picture is
decoded with zbarimg (Debian's zbar-tools: ``make zbar``) and the address compared with the
link the code must open. The pictures stay in test-artifacts/qr/ for a person to look at.

Before issue 29 the projector's code was a fixed-size SVG in a smaller box (its right-hand
finder pattern cut) with a one-module quiet zone, and the player list's likewise: neither decoded.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tournament import enums, qr, simulation
from tournament.formats.knockout import dry_run as knockout_dry_run
from tournament.models import StaffRole, Tournament

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "qr"
PROJECTOR_SIZES = [(1024, 768), (1280, 720), (1920, 1080)]
A4 = {"width": 794, "height": 1123}
SEED = 20260614
# Screen pixels a module needs at least for a camera (and zbar) to tell the modules apart.
MIN_MODULE_PX = 3


def zbar_tools() -> None:
    missing = [tool for tool in ("zbarimg", "pdftoppm") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: make zbar installs zbar-tools and poppler-utils", pytrace=False)


def decoded(picture: Path) -> list[str]:
    """Every QR code zbar finds in the picture, as text (empty when none decodes)."""
    answer = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(picture)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return [line for line in answer.stdout.splitlines() if line]


def pdf_pictures(pdf: Path) -> list[Path]:
    """The PDF's pages as PNG pictures at 150 dpi (pdftoppm), next to it."""
    prefix = pdf.with_suffix("")
    pages = re.compile(rf"{re.escape(prefix.name)}-\d+\.png")
    for old in pdf.parent.iterdir():
        if pages.fullmatch(old.name):
            old.unlink()
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(prefix)], check=True, timeout=120)
    return sorted(path for path in pdf.parent.iterdir() if pages.fullmatch(path.name))


def knockout(players: int) -> Tournament:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=SEED)
    Tournament.objects.filter(pk=tournament.pk).update(display_rotation_seconds=60)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def artifacts() -> Path:
    zbar_tools()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.mark.parametrize(("width", "height"), PROJECTOR_SIZES)
def test_the_projectors_code_scans_at_every_size(browser, live_server, artifacts, width, height):  # type: ignore[no-untyped-def]
    tournament = knockout(16)
    knockout_dry_run.seat_next_round(tournament, actor=None, seed=SEED)  # a board under the header
    find_link = live_server.url + reverse("tournament:find", args=[tournament.public_key])
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("tournament:projector", args=[tournament.public_key]))
        code = page.locator(".pj-qr svg")
        expect(code).to_be_visible()
        expect(page.locator("#screen .view").first).to_be_visible()
        box = code.bounding_box()
        assert box is not None
        # Whole on the screen, quiet zone included, and modules large enough to tell apart.
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box
        assert box["width"] / qr.modules(find_link) >= MIN_MODULE_PX, (box, qr.modules(find_link))
        picture = artifacts / f"projector-{width}x{height}.png"
        page.screenshot(path=str(picture))
        assert decoded(picture) == [find_link]
    finally:
        context.close()


def test_the_printed_player_list_and_the_table_cards_scan(new_tablet, clerk, live_server, artifacts):  # type: ignore[no-untyped-def]
    tournament = knockout(12)
    started = knockout_dry_run.seat_next_round(tournament, actor=None, seed=SEED).round
    assert started is not None
    StaffRole.objects.create(tournament=tournament, user=clerk, role=enums.Role.ORGANISER)
    page: Page = new_tablet(clerk.username)
    find_link = live_server.url + reverse("tournament:find", args=[tournament.public_key])

    # The player list: on paper (PDF -> 150 dpi) and as the print view shows it.
    page.goto(reverse("tournament:print_players", args=[tournament.pk]))
    expect(page.locator(".find-qr svg")).to_be_visible()
    page.set_viewport_size(A4)
    page.emulate_media(media="print")
    page.screenshot(path=str(artifacts / "player-list-print.png"))
    assert decoded(artifacts / "player-list-print.png") == [find_link]
    page.pdf(path=str(artifacts / "player-list.pdf"), format="A4", prefer_css_page_size=True)
    first_page = pdf_pictures(artifacts / "player-list.pdf")[0]
    assert decoded(first_page) == [find_link]

    # Table cards, from the print pack and from the referees' list: each card's code opens its table.
    tables = list(started.tables.order_by("number"))
    expected = sorted(
        live_server.url + reverse("tournament:referee_table", args=[tournament.pk, table.pk]) for table in tables
    )
    for name, url in [
        ("table-cards-pack", reverse("tournament:print_table_cards", args=[tournament.pk, started.number])),
        ("table-cards", reverse("tournament:table_cards", args=[tournament.pk, started.number])),
    ]:
        page.emulate_media(media="screen")
        page.goto(url)
        expect(page.locator("svg.qr-code")).to_have_count(len(tables))
        page.emulate_media(media="print")
        page.pdf(path=str(artifacts / f"{name}.pdf"), format="A4", prefer_css_page_size=True)
        found = [link for picture in pdf_pictures(artifacts / f"{name}.pdf") for link in decoded(picture)]
        assert sorted(found) == expected, name
