"""Two referee tablets (800x1280, one German, one Italian) on one Schocken table of four.

- Whole games in the tracker, each with a decider: the second tablet opens the tracker in the
  middle of a game and continues the same game (same half, lids, thrower); a round scored on
  the first tablet's older state is refused and the game shown as it stands.
- A decided game never gives way to a next game silently: on either tablet it offers
  "Record: X loses a chip" (the outbox's entry: version, idempotency key), and that one tap
  records the loss; the next game then begins with that loser (with the next player in seat
  order when the loser went out: Anna's second loss cuts her band at this table).
- Taps: the same scripted games entered die by die (the pad before) and with one tap per
  throw (the pad now), counted for a 4-player game with a decider and a 3-player game; the
  figures are printed (pytest -s) and must at least halve.
Screenshots land in test-artifacts/screenshots/ (German, one Italian).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from games.models import Game
from tournament import enums, simulation
from tournament.formats.life_bands import services as life_bands
from tournament.models import StaffRole, Table, Tournament
from tournament.tests.browser.conftest import SCREENSHOTS, go_offline, go_online
from tournament.tests.browser.tablet import MIN_TAP_PX, assert_tap_target, seated

pytestmark = pytest.mark.browser

SEED = 20261126

# A round: one (dice, rolls tapped or None) per thrower in turn order. The turn order follows the
# rules (each round begun by the last round's receiver), so the same script gives the same game
# whoever begins. Four players: the half is lost by the half's first thrower, or (second half)
# by the fourth after it; the decider by its first thrower: a decider every game, and the game
# lost by the player who began it.
HALF_OF_FOUR = [
    [("652", None), ("311", None), ("421", None), ("322", None)],  # opening: one roll each
    [("666", 2), ("541", None), ("653", None), ("331", None)],  # the others follow the first's 2 rolls
    [("511", None), ("642", None), ("643", None), ("621", None)],
    [("111", None), ("652", None), ("552", None), ("442", None)],  # Schock-Out: the lowest loses the half
]
SECOND_HALF_OF_FOUR = [*HALF_OF_FOUR[:3], [("111", None), ("652", None), ("442", None), ("552", None)]]
HALF_OF_THREE = [
    [("652", None), ("311", None), ("322", None)],
    [("666", 2), ("541", None), ("331", None)],
    [("511", None), ("642", None), ("621", None)],
    [("111", None), ("652", None), ("442", None)],
]
DECIDER = [[("311", None), ("652", None)], [("111", None), ("322", None)]]
GAME_OF_FOUR = [*HALF_OF_FOUR, *SECOND_HALF_OF_FOUR, *DECIDER]
GAME_OF_THREE = [*HALF_OF_THREE, *HALF_OF_THREE, *DECIDER]


@pytest.fixture
def schocken_table(referee) -> tuple[Tournament, Table, list[str]]:  # type: ignore[no-untyped-def]
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=SEED)
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    rnd = life_bands.start_main_round(tournament=tournament, actor=None, seed=SEED)
    assert rnd is not None
    table = rnd.tables.get()
    return tournament, table, [seat.player.name for seat in seated(table)]


def in_language(page: Page, language: str, live_server_url: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server_url}])


def screen(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


class Taps:
    """Counts every tap on the tracker's pad and its score button."""

    def __init__(self) -> None:
        self.count = 0

    def click(self, page: Page, selector: str) -> None:
        page.locator(f"#tracker {selector}").click()
        self.count += 1


def revision(page: Page) -> int:
    return int(page.locator('#tracker input[name="revision"]').first.input_value())


def expect_step(page: Page, step: str) -> None:
    expect(page.locator(f'#tracker[data-step="{step}"]')).to_be_visible()


def play_round(
    page: Page, throws: list[tuple[str, int | None]], taps: Taps, *, by_throw: bool, screenshot: str | None = None
) -> None:
    """One round tapped (one tap per throw, or die by die) and scored; waits for the server's answer.
    ``screenshot``: taken once the first throw is in."""
    expect(page.locator("#tracker form.is-tapping")).to_be_visible()
    expect(page.locator("#tracker tr[data-seat]")).to_have_count(len(throws))
    before = revision(page)
    for dice, rolls in throws:
        if rolls is not None:
            taps.click(page, f'[data-pad] [data-roll="{rolls}"]')
        if by_throw:
            taps.click(page, f'[data-pad] [data-throw="{dice}"]')
        else:
            if page.locator("#tracker [data-faces]").is_hidden():
                # The die-by-die pad (kept open on this tablet): not counted, the old pad had no fold.
                page.locator("#tracker [data-dice-toggle]").click()
            for face in dice:
                taps.click(page, f'[data-pad] [data-face="{face}"]')
        if screenshot:
            screen(page, screenshot)
            screenshot = None
    taps.click(page, "[data-score]")
    expect(page.locator(f'#tracker input[name="revision"][value="{before + 1}"]').first).to_be_attached()


def play_game(page: Page, rounds: list[list[tuple[str, int | None]]], *, by_throw: bool) -> int:
    """A whole game from its first round; the taps it took."""
    taps = Taps()
    for throws in rounds:
        play_round(page, throws, taps, by_throw=by_throw)
    expect_step(page, "done")
    return taps.count


def record_from_tracker(page: Page, loser: str, table: Table, games: int) -> None:
    """The one tap that records the tracker's loser (through the outbox), then the next game."""
    button = page.locator("#tracker [data-record-loser]")
    expect(button).to_have_attribute("data-record-loser", loser)
    button.click()
    expect(page.locator("#tracker[data-fresh='1']")).to_be_visible()  # the next game, from the server
    assert Game.objects.filter(table=table, status="valid").count() == games
    assert Game.objects.filter(table=table, status="valid").order_by("-number").first().loser.name == loser  # type: ignore[union-attr]


def assert_rows_above_pad(page: Page) -> None:
    """Every thrower's row is on screen above the pad (which stays at the bottom): nothing cut."""
    controls = page.locator("#tracker .tracker-controls").bounding_box()
    assert controls is not None
    for row in page.locator("#tracker tr[data-seat]").all():
        box = row.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= controls["y"] + 1, box


def starter(page: Page) -> str:
    return page.locator("#tracker tr[data-seat]").first.get_attribute("data-name") or ""


@pytest.mark.long
def test_two_tablets_play_whole_games_and_never_drop_a_loser(  # type: ignore[no-untyped-def]
    new_tablet, live_server, referee, schocken_table
) -> None:
    tournament, table, (anna, bert, carl, dora) = schocken_table
    url = reverse("tournament:half_tracker", args=[tournament.pk, table.pk])
    german = new_tablet(referee.username)
    in_language(german, "de", live_server.url)
    italian = new_tablet(referee.username)
    in_language(italian, "it", live_server.url)

    # Game 1 (four players), die by die as before. The table's first game goes in seat order.
    german.goto(url)
    expect(german.locator("#tracker-starter")).to_contain_text(anna)
    assert starter(german) == anna
    screen(german, "tracker-de-first-game")
    before_four = Taps()
    for throws in HALF_OF_FOUR:
        play_round(german, throws, before_four, by_throw=False)
    expect_step(german, "second_half")

    # The second tablet opens the tracker: the same game, its second half, its loser throwing first.
    italian.goto(url)
    expect_step(italian, "second_half")
    assert starter(italian) == anna
    expect(italian.locator("#tracker .tracker-lids")).to_have_text(["0", "0", "0", "0"])
    assert_rows_above_pad(italian)
    screen(italian, "tracker-it-second-tablet")
    play_round(italian, SECOND_HALF_OF_FOUR[0], before_four, by_throw=False)

    # The first tablet, still on the round before, scores it too: refused, the game shown as it stands.
    stale = Taps()
    for dice, _rolls in SECOND_HALF_OF_FOUR[0]:
        stale.click(german, f'[data-pad] [data-throw="{dice}"]')
    stale.click(german, "[data-score]")
    expect(german.locator("#tracker-error")).to_be_visible()
    expect(german.locator('#tracker input[name="stock"]')).to_have_value("10")
    expect(german.locator("#tracker [data-take-back]")).to_be_hidden()  # not another tablet's round
    screen(german, "tracker-de-refused-stale")
    for throws in SECOND_HALF_OF_FOUR[1:]:
        play_round(german, throws, before_four, by_throw=False)
    expect_step(german, "decider")
    expect(german.locator("#tracker tr[data-seat]")).to_have_count(2)
    assert starter(german) == anna  # the first-half loser throws first in the decider
    for throws in DECIDER:
        play_round(german, throws, before_four, by_throw=False)
    expect_step(german, "done")
    expect(german.locator("#tracker-message")).to_contain_text(anna)
    screen(german, "tracker-de-decided")

    # Never a silent next game: the other tablet shows the same decided game and its record button.
    italian.reload()
    expect_step(italian, "done")
    expect(italian.locator("#tracker [data-record-loser]")).to_have_attribute("data-record-loser", anna)
    expect(italian.locator("#tracker [data-discard]")).to_be_visible()  # only on purpose, asked first
    assert Game.objects.filter(table=table).count() == 0

    # One tap records Anna's loss through the outbox; the next game begins with her.
    record_from_tracker(german, anna, table, games=1)
    german.locator("#tracker [data-dice-toggle]").click()  # folded again: one tap per throw from here
    expect(german.locator("#tracker [data-faces]")).to_be_hidden()
    assert starter(german) == anna
    expect(german.locator("#tracker-starter")).to_contain_text(anna)
    expect(german.locator("#tracker [data-tracker-note]")).to_be_visible()  # "saved", in German
    assert_rows_above_pad(german)
    for dice in ("111", "654", "221"):
        assert_tap_target(german.locator(f'#tracker [data-throw="{dice}"]'), dice, minimum=MIN_TAP_PX)
    screen(german, "tracker-de-next-game")

    # Game 2 (four players) with one tap per throw.
    after_four = Taps()
    for index, throws in enumerate(GAME_OF_FOUR):
        shot = "tracker-de-throw-pad" if index == 1 else None
        play_round(german, throws, after_four, by_throw=True, screenshot=shot)
    expect_step(german, "done")

    # Anna loses again: her second chip, her band is cut; game 3 begins with Bert, next in seat order.
    record_from_tracker(german, anna, table, games=2)
    expect(german.locator("#tracker tr[data-seat]")).to_have_count(3)
    assert starter(german) == bert

    # Games 3 and 4 (three players): one tap per throw, then die by die. Dora loses game 3 and
    # begins game 4, which Carl loses.
    after_three = play_game(german, GAME_OF_THREE, by_throw=True)
    # The loss tapped without a connection waits in the outbox (shown above the tracker, the
    # button waiting too) and is recorded once the connection is back.
    go_offline(german)
    german.locator("#tracker [data-record-loser]").click()
    expect(german.locator("#outbox .outbox-entry.is-waiting")).to_contain_text(dora)
    expect(german.locator("#tracker [data-record-loser]")).to_be_disabled()
    expect(german.locator("#tracker [data-discard]")).to_be_hidden()
    screen(german, "tracker-de-record-waiting")
    assert Game.objects.filter(table=table, status="valid").count() == 2
    go_online(german)
    expect(german.locator("#tracker[data-fresh='1']")).to_be_visible(timeout=15_000)
    assert Game.objects.filter(table=table, status="valid").count() == 3
    assert starter(german) == dora
    italian.reload()
    assert starter(italian) == dora  # the other tablet follows
    before_three = play_game(german, GAME_OF_THREE, by_throw=False)
    record_from_tracker(german, carl, table, games=4)

    print(  # the figures for the report (pytest -s)
        f"\nTaps per game: four players with a decider {before_four.count} -> {after_four.count}, "
        f"three players with a decider {before_three} -> {after_three} (plus one tap to record the loser)"
    )
    assert after_four.count * 2 <= before_four.count
    assert after_three * 2 <= before_three
