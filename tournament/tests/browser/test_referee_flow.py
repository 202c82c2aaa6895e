"""Referee tablets and the organiser's rounds page, end to end in chromium.

A knockout field is created through the services (``simulation.create_field``);
everything a person does on the day happens in the browser: the organiser seats
round 1 and generates the lucky-loser round, a referee picks the first dealer,
records a table to its decision, undoes and redoes a game and closes the table,
a stale second tablet is refused, and the final is entered with the hand
calculator. Screenshots land in test-artifacts/screenshots/ for a human to look at.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from games.models import Game, GameScore, GameStatus
from tournament import enums, simulation
from tournament.formats.knockout import services as knockout_services
from tournament.models import Round, Seat, StaffRole, Table, Tournament
from tournament.tests.browser.tablet import (
    DESK,
    assert_same_document,
    assert_tap_target,
    expect_status,
    mark_document,
    nav,
    panel,
    seated,
)
from tournament.tests.helpers import set_settings

pytestmark = pytest.mark.browser

SEED = 20260614
# Comfortable for a wet finger: well above the 44-48 px usually recommended.
# Round headings name the stage; the numbering style ("Main round 1", "Main round · round 1") may vary.
MAIN_ROUND_1 = re.compile(r"^\s*Main round\b.*\b1\s*$")
LUCKY_LOSER_ROUND = re.compile(r"^\s*Lucky-loser round\b")


# --- fixtures -------------------------------------------------------------------------


@pytest.fixture
def knockout_field(organiser, referee) -> Callable[..., Tournament]:  # type: ignore[no-untyped-def]
    """knockout_field(players, **settings) -> a knockout tournament, checked in, start numbers drawn.

    The organiser and the referee get their roles; ``settings`` are stored on
    the tournament before anything is seated.
    """

    def make(players: int, **settings: object) -> Tournament:
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=SEED)
        if settings:
            set_settings(tournament, **settings)
            tournament.refresh_from_db()
        StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
        StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
        return tournament

    return make


@pytest.fixture
def organiser_desk(new_tablet, organiser) -> Page:  # type: ignore[no-untyped-def]
    """The organiser's own browser (a desk-sized window), logged in."""
    page = new_tablet(organiser.username)
    page.set_viewport_size(DESK)
    return page


# --- helpers --------------------------------------------------------------------------


def open_tournament(page: Page, tournament: Tournament) -> None:
    """From "My tournaments", tap the tournament (desk for the organiser, tables for a referee)."""
    page.goto(reverse("tournament:home"))
    page.get_by_role("link", name=tournament.name).click()


def open_rounds(page: Page, tournament: Tournament) -> None:
    open_tournament(page, tournament)
    nav(page).get_by_role("link", name="Rounds").click()
    expect(page.get_by_role("heading", name="Rounds", exact=True)).to_be_visible()


def seat_rows(page: Page) -> Locator:
    return page.locator("#table-panel ol.seats > li.seat")


def tallies(page: Page) -> Locator:
    return seat_rows(page).locator(".tally-value")


def expect_tallies(page: Page, wins: list[int]) -> None:
    expect(tallies(page)).to_have_text([str(w) for w in wins])


def expect_dealer(page: Page, position: int) -> None:
    """Exactly one "deals" badge, on the seat at ``position``."""
    expect(panel(page).locator(".badge-dealer")).to_have_count(1)
    expect(seat_rows(page).nth(position).locator(".badge-dealer")).to_have_text("deals")
    expect(seat_rows(page).nth(position)).to_have_class(re.compile(r"\bis-dealer\b"))


def pick_dealer(page: Page, seats: list[Seat], position: int) -> None:
    """The dealer pick: one big button per player in seat order; tap who drew highest."""
    expect(page.get_by_role("heading", name="Who drew the highest number card?")).to_be_visible()
    buttons = page.locator(".dealer-pick button")
    expect(buttons).to_have_count(len(seats))
    expect(buttons).to_contain_text([s.player.name for s in seats])
    for seat, button in zip(seats, buttons.all(), strict=True):
        expect(button.locator(".startno-chip")).to_have_text(str(seat.player.start_number))
    buttons.nth(position).click()
    expect(page.locator(".dealer-pick")).to_have_count(0)


def tap_won(page: Page, position: int) -> None:
    seat_rows(page).nth(position).get_by_role("button", name="Won").click()


# --- tests ----------------------------------------------------------------------------


def test_referee_records_a_table_to_its_decision_and_the_organiser_advances(  # type: ignore[no-untyped-def]
    new_tablet, organiser_desk, knockout_field, organiser, referee, screenshot
) -> None:
    tournament = knockout_field(6)

    # 1. The organiser seats round 1: two tables of three.
    desk = organiser_desk
    open_rounds(desk, tournament)
    expect(desk.locator(".next-round")).to_contain_text("6 players are checked in.")
    desk.get_by_role("button", name="Seat round 1").click()
    expect(desk.locator(".messages")).to_contain_text(re.compile(r"Main round\b.* seated: 2 tables\."))
    bracket_tables = desk.locator(".bracket-round").first.locator(".bracket-table")
    expect(bracket_tables).to_have_count(2)
    for table in bracket_tables.all():
        expect(table.locator("li")).to_have_count(3)
    expect(desk.locator(".next-round")).to_contain_text("2 tables are still playing.")
    round_1 = Round.objects.get(tournament=tournament, number=1)
    assert round_1.stage == enums.Stage.MAIN
    table_1, table_2 = round_1.tables.order_by("number")
    assert [t.seats.count() for t in (table_1, table_2)] == [3, 3]
    seats = seated(table_1)
    names = [s.player.name for s in seats]

    # 2. The referee opens "Tables" and taps table 1.
    page = new_tablet(referee.username)
    open_tournament(page, tournament)
    expect(page.get_by_role("heading", level=1)).to_have_text(MAIN_ROUND_1)
    cards = page.locator(".table-grid a.table-card")
    expect(cards).to_have_count(2)
    expect(cards.nth(0).locator(".seat-names li")).to_contain_text(names)
    for card in cards.all():
        assert_tap_target(card, "a table card")
    screenshot(page, "referee-tables")
    page.locator("#table-link-1").click()
    expect(page.get_by_role("heading", name="Table 1", exact=True)).to_be_visible()
    expect(panel(page).locator(".table-head")).to_contain_text(re.compile(r"Main round\b.*first to win 3 games", re.S))
    expect_status(page, "Playing")
    screenshot(page, "referee-dealer-pick")

    # The second player in seat order drew the highest card: they deal game 1.
    first_dealer = 1
    mark_document(page)
    pick_dealer(page, seats, first_dealer)
    expect(seat_rows(page)).to_have_count(3)
    expect(seat_rows(page).locator(".seat-name")).to_contain_text(names)  # seat order
    expect_dealer(page, first_dealer)
    expect_tallies(page, [0, 0, 0])
    table_1.refresh_from_db()
    assert table_1.first_dealer_position == first_dealer
    for row in seat_rows(page).all():
        assert_tap_target(row.get_by_role("button", name="Won"), "a Won button")

    # One tap per game on "Won"; the seat at position 0 reaches 3 wins in game 4.
    winners = [0, 1, 0, 0]
    wins = [0, 0, 0]
    for number, winner in enumerate(winners, start=1):
        tap_won(page, winner)
        wins[winner] += 1
        expect_tallies(page, wins)
        expect(panel(page).locator(".game-log li")).to_have_count(number)
        expect(panel(page).locator(".game-log li").nth(number - 1)).to_contain_text(f"Game {number}: {names[winner]}")
        if number < len(winners):
            expect_status(page, "Playing")
            expect_dealer(page, (first_dealer + number) % 3)  # one seat on after every game
            expect(panel(page).locator(".decided-banner")).to_have_count(0)
        if number == 3:
            screenshot(page, "referee-table-playing")
    assert_same_document(page, "recording a game")

    expect_status(page, "Decided")
    expect(panel(page).locator(".decided-banner")).to_have_text(f"{names[0]} wins the table.")
    expect(panel(page).get_by_role("button", name="Won")).to_have_count(0)
    expect(panel(page).locator(".badge-dealer")).to_have_count(0)
    expect(seat_rows(page).nth(0)).to_contain_text("place 1")
    expect(seat_rows(page).nth(1)).to_contain_text("place 2")
    expect(seat_rows(page).nth(2)).to_contain_text("place 3")
    expect(panel(page).get_by_role("button", name="Confirm result and close table")).to_be_visible()
    screenshot(page, "referee-table-decided")

    # Undo game 4 (confirmed in the browser's dialog): playing again, one win fewer.
    dialogs: list[str] = []

    def accept(dialog) -> None:  # type: ignore[no-untyped-def]
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    page.get_by_role("button", name="Undo game 4").click()
    expect_status(page, "Playing")
    expect_tallies(page, [2, 1, 0])
    expect(panel(page).locator(".decided-banner")).to_have_count(0)
    expect_dealer(page, (first_dealer + 3) % 3)
    expect(panel(page).locator(".game-log li.is-void")).to_have_count(1)
    expect(panel(page).locator(".game-log li.is-void")).to_contain_text("Game 4")
    expect(panel(page).locator(".game-log li.is-void")).to_contain_text("Undone")
    expect(page.get_by_role("button", name="Undo game 3")).to_be_visible()
    assert dialogs == [f"Undo game 4 (won by {names[0]})?"]
    assert Game.objects.filter(table=table_1, status=GameStatus.VOIDED).count() == 1

    # Redo the game: decided again. It is game 4 again, as the referee counts and the paper slip
    # numbers it (the undone game 4 stays, struck through).
    tap_won(page, 0)
    expect_tallies(page, [3, 1, 0])
    expect_status(page, "Decided")
    expect(panel(page).locator(".decided-banner")).to_have_text(f"{names[0]} wins the table.")
    expect(page.get_by_role("button", name="Undo game 4")).to_be_visible()
    expect(panel(page).locator(".game-log li:not(.is-void)").last).to_contain_text(f"Game 4: {names[0]}")

    # Confirm and close: no more undo, no more results.
    page.get_by_role("button", name="Confirm result and close table").click()
    expect_status(page, "Closed")
    expect(page.get_by_role("button", name=re.compile(r"^↶ Undo game"))).to_have_count(0)
    expect(page.get_by_role("button", name="Confirm result and close table")).to_have_count(0)
    expect(panel(page).locator(".decided-banner")).to_have_text(f"{names[0]} wins the table.")
    assert_same_document(page, "undo, redo and close")
    # The undo and the irreversible close both ask before they act.
    assert len(dialogs) == 2 and "only the organiser can correct" in dialogs[1], dialogs

    table_1.refresh_from_db()
    assert table_1.status == enums.TableStatus.CLOSED
    games = Game.objects.filter(table=table_1)
    valid = list(games.filter(status=GameStatus.VALID).order_by("number"))
    voided = list(games.filter(status=GameStatus.VOIDED))
    assert [g.number for g in valid] == [1, 2, 3, 4]  # the undone game 4 gave its number back
    assert [g.winner_id for g in valid] == [seats[i].player_id for i in (0, 1, 0, 0)]
    assert [g.dealer_position for g in valid] == [1, 2, 0, 1]
    assert all(g.entered_by_id == referee.pk for g in valid)
    assert [(g.number, g.voided_by_id) for g in voided] == [(4, referee.pk)]
    assert [(s.games_won, s.place, s.advances) for s in seated(table_1)] == [
        (3, 1, True),
        (1, 2, False),
        (0, 3, False),
    ]

    # 4. Table 2 is played through the services; the organiser generates the next round.
    simulation.play_table(tournament, table_2, random.Random(SEED), organiser)
    table_2.refresh_from_db()
    assert table_2.status == enums.TableStatus.DECIDED
    nav(desk).get_by_role("link", name="Rounds").click()
    expect(desk.locator(".next-round")).to_contain_text("Every table of the round is decided.")
    desk.get_by_role("button", name="Generate the next round").click()
    expect(desk.locator(".messages")).to_contain_text(re.compile(r"Lucky-loser round\b.* seated"))
    lucky_round = desk.locator(".bracket-round").first  # the newest round first
    expect(lucky_round.get_by_role("heading", level=2)).to_have_text(LUCKY_LOSER_ROUND)
    losers = [s.player.name for t in (table_1, table_2) for s in seated(t) if s.place != 1]
    expect(lucky_round.locator(".bracket-table li")).to_have_count(len(losers))
    for name in losers:
        expect(lucky_round.locator(".bracket-table")).to_contain_text(name)
    screenshot(desk, "organiser-rounds-bracket")
    round_2 = Round.objects.get(tournament=tournament, number=2)
    assert round_2.stage == enums.Stage.LUCKY_LOSER
    assert {s.player.name for s in Seat.objects.filter(table__round=round_2).select_related("player")} == set(losers)

    # The referee's table list follows the new round.
    nav(page).get_by_role("link", name="Tables").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(LUCKY_LOSER_ROUND)


def test_a_stale_second_tablet_is_refused_and_records_nothing(  # type: ignore[no-untyped-def]
    new_tablet, knockout_field, organiser, referee, browser_user, screenshot
) -> None:
    tournament = knockout_field(6)
    started = knockout_services.generate_next_round(tournament=tournament, actor=organiser, seed=SEED)
    assert started.round is not None
    table = started.round.tables.get(number=1)
    seats = seated(table)
    url = reverse("tournament:referee_table", args=[tournament.pk, table.pk])

    first = new_tablet(referee.username)
    first.goto(url)
    pick_dealer(first, seats, 0)
    expect_dealer(first, 0)

    # A second tablet opens the same table before any game is recorded on the first.
    second_referee = browser_user("referee-2")
    StaffRole.objects.create(tournament=tournament, user=second_referee, role=enums.Role.REFEREE)
    second = new_tablet(second_referee.username)
    second.goto(url)
    expect_tallies(second, [0, 0, 0])
    expect_dealer(second, 0)

    tap_won(first, 1)
    expect_tallies(first, [0, 1, 0])
    assert Game.objects.filter(table=table).count() == 1

    # The second tablet still shows the old state; its tap is refused.
    mark_document(second)
    tap_won(second, 2)
    error = second.locator("#table-error")
    expect(error).to_have_text(re.compile(r"Table 1 was changed on another tablet\."))
    expect(second.get_by_role("alert")).to_contain_text("changed on another tablet")
    expect_tallies(second, [0, 1, 0])  # the panel now shows the current state
    expect_dealer(second, 1)
    expect(second.locator(".game-log li")).to_have_count(1)
    assert_same_document(second, "the refused tap")
    screenshot(second, "referee-stale-message")
    assert list(Game.objects.filter(table=table).values_list("number", "winner_id", "status")) == [
        (1, seats[1].player_id, GameStatus.VALID)
    ]
    assert [s.games_won for s in seated(table)] == [0, 1, 0]

    # Once it has the current state, the second tablet records normally.
    tap_won(second, 2)
    expect_tallies(second, [0, 1, 1])
    expect(second.locator("#table-error")).to_have_count(0)
    assert Game.objects.filter(table=table, status=GameStatus.VALID).count() == 2


def test_the_final_is_entered_with_the_hand_calculator(  # type: ignore[no-untyped-def]
    new_tablet, organiser_desk, knockout_field, referee, screenshot
) -> None:
    tournament = knockout_field(3, final_points_target=50)
    assert tournament.scoring_table["wild_draw_four"] == 50 and tournament.scoring_table["draw_two"] == 20

    # Three players: the first round is the final, one table.
    desk = organiser_desk
    open_rounds(desk, tournament)
    desk.get_by_role("button", name="Seat round 1").click()
    expect(desk.locator(".messages")).to_contain_text(re.compile(r"\bFinal\b.* seated"))
    expect(desk.locator(".bracket-round").first.get_by_role("heading", name="Final")).to_be_visible()
    expect(desk.locator(".bracket-table")).to_have_count(1)
    final = Table.objects.get(round__tournament=tournament)
    assert final.points_target == 50 and final.round.stage == enums.Stage.FINAL
    seats = seated(final)
    winner, first_other, second_other = seats[0], seats[1], seats[2]

    page = new_tablet(referee.username)
    open_tournament(page, tournament)
    expect(page.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    page.locator("#table-link-1").click()
    expect(panel(page).locator(".table-head")).to_contain_text(re.compile(r"Final\b.*first to 50 points", re.S))
    pick_dealer(page, seats, 2)

    entry = page.locator("form.final-entry")
    expect(entry.get_by_role("heading", name="Game 1: who went out first?")).to_be_visible()
    options = entry.locator(".winner-option")
    expect(options).to_have_count(3)
    expect(options).to_contain_text([s.player.name for s in seats])
    expect(options.nth(2).locator(".badge-dealer")).to_have_text("deals")
    for option in options.all():
        assert_tap_target(option, "a winner option")

    # The winner: tap anywhere on their row; their calculator disappears.
    options.nth(0).click()
    expect(options.nth(0).get_by_role("radio")).to_be_checked()

    def calculator(seat: Seat) -> Locator:
        return entry.locator(f'fieldset[data-calculator][data-player="{seat.player_id}"]')

    expect(calculator(winner)).to_be_hidden()
    expect(calculator(first_other)).to_be_visible()
    expect(calculator(second_other)).to_be_visible()

    first_calc = calculator(first_other)
    total = first_calc.locator(".calc-total")
    first_calc.get_by_role("button", name="Wild +4 50 points", exact=True).click()
    expect(total).to_have_value("50")
    first_calc.get_by_role("button", name="7", exact=True).click()
    expect(total).to_have_value("57")
    expect(first_calc.locator("[data-calc-hand]")).to_have_text("Wild +4 · 7")  # in the order tapped
    for key in first_calc.locator(".calc-key").all():
        assert_tap_target(key, f"calculator key {key.inner_text()!r}")

    second_calc = calculator(second_other)
    second_calc.get_by_role("button", name="+2 20 points", exact=True).click()
    expect(second_calc.locator(".calc-total")).to_have_value("20")
    screenshot(page, "referee-final-calculator")

    entry.get_by_role("button", name="Record game").click()
    expect_status(page, "Decided")
    expect(panel(page).locator(".decided-banner")).to_have_text(f"{winner.player.name} wins the table.")
    expect(tallies(page)).to_have_text(["77", "0", "0"])
    expect(panel(page).locator(".game-log li").first).to_contain_text(f"Game 1: {winner.player.name} · 77 points")
    expect(page.locator("form.final-entry")).to_have_count(0)
    screenshot(page, "referee-final-decided")

    final.refresh_from_db()
    assert final.status == enums.TableStatus.DECIDED
    game = Game.objects.get(table=final)
    scores = {s.player_id: s for s in GameScore.objects.filter(game=game)}
    assert scores[winner.player_id].points == 77
    assert scores[first_other.player_id].hand == {"cards": 57, "hand": {"7": 1, "wild_draw_four": 1}}
    assert scores[second_other.player_id].hand == {"cards": 20, "hand": {"draw_two": 1}}
    final_seats = {s.player_id: (s.points, s.place) for s in seated(final)}
    assert final_seats[winner.player_id] == (77, 1)
    assert final_seats[first_other.player_id][0] == final_seats[second_other.player_id][0] == 0
    # Both others have 0 points: the rules break that tie with a duel table.
    duel = Table.objects.get(round=final.round, is_duel=True)
    assert {s.player_id for s in duel.seats.all()} == {first_other.player_id, second_other.player_id}
