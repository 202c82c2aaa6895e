"""The whole 14-player underwater championship in chromium, as people play it on the day (issue 26).

Fifteen players registered, fourteen checked in, one no-show; start numbers drawn (through the
desk's services: the point is the play). Then, in the browser:

1. The organiser (desk, 1280x800) seats round 1: the rules leave a choice at 14 players, the
   options come in words, the first ("3 + 3 + 3 + 3 + 2 (one table of 2)") is ticked and taken;
   no option offers seven tables of 2.
2. A referee (tablet, 800x1280) plays round 1's table of 2 with "Won" taps and closes it; the
   other tables are played through the services. The lucky-loser round is asked in German
   (the language switch) and main round 2 again in English: the first option each time.
3. The final is seated to 500 points. At the final's table the organiser sets "first to 200
   points" (the form in German too); the referee's tablet, open on the final, follows with its
   poll, the projector shows it. The final is played with the hand calculator to 200 / 40 / 40;
   the duel for place 2 is played with "Won" taps (its winner reads "place 2"); both tables
   are closed and the tournament is decided.
4. After the end the organiser corrects a game of main round 2 (preview, confirm); a correction
   that would leave the table undecided is refused and the typed reason stays in the form.
5. The ranking page (1280x800) shows the final's points and the duel; the projector (1920x1080
   and 1280x720) shows the podium with the final's points; "Where do I sit?" names each
   finalist once.

Tables the referee does not play on the tablet are played through the services (seats 1 and 2
win in turn: ``championship.play_in_turns``); the draws are the page's own (random seeds), so
each run seats other players. Screenshots of every step land in test-artifacts/screenshots/
(``championship-*``): desk 1280x800, tablet 800x1280, projector 1920x1080 and 1280x720.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Locator, Page, expect

from tournament import desk, enums
from tournament.formats import registry
from tournament.models import Player, Round, Seat, StaffRole, Table, Tournament
from tournament.tests.browser.conftest import TIMEOUT_MS
from tournament.tests.browser.tablet import expect_status, nav, panel
from tournament.tests.browser.test_projector_fit import fit_problems, names_shown, show_view
from tournament.tests.helpers import refreshed
from tournament.tests.play.championship import last_game, play_in_turns

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
PROJECTORS = {"1920x1080": {"width": 1920, "height": 1080}, "1280x720": {"width": 1280, "height": 720}}
Shoot = Callable[[Page, str], Path]
# A referee's tablet polls its table every 5 s: a change made elsewhere shows within one poll.
POLL_MS = 12_000

PLAYERS = [
    ("Anna Huber", "Tauchclub Bozen"),
    ("Bernd Gruber", "Tauchclub Bozen"),
    ("Carla Rossi", "Circolo Subacqueo Trento"),
    ("David Bauer", ""),
    ("Eva Wagner", "UW-Rugby Meran"),
    ("Franz Pichler", "UW-Rugby Meran"),
    ("Gina Moser", ""),
    ("Hans Steiner", "Tauchclub Bozen"),
    ("Ilse Ferrari", "Circolo Subacqueo Trento"),
    ("Jonas Kofler", ""),
    ("Klara Wallnöfer", "UW-Rugby Meran"),
    ("Luca Bianchi", "Circolo Subacqueo Trento"),
    ("Maria Oberhollenzer", ""),
    ("Nico Dell'Acqua", "Tauchclub Bozen"),
]
NO_SHOW = ("Otto Hinterwaldner", "UW-Rugby Meran")


# --- arranging ------------------------------------------------------------------------


def registered_field(organiser, referee) -> Tournament:  # type: ignore[no-untyped-def]
    """Fifteen registered, fourteen checked in, the fifteenth a no-show, start numbers drawn."""
    tournament = desk.create_tournament(
        actor=organiser,
        name="Underwater championship 2026",
        date=datetime.date.today(),
        venue="Hallenbad Bozen",
        game=registry.get(enums.Format.KNOCKOUT).games[0],
        format=enums.Format.KNOCKOUT,
        capacity=16,
        entry_fee=0,
    )
    # The projector stays on the view a test shows (no rotation while a screenshot is taken).
    Tournament.objects.filter(pk=tournament.pk).update(display_rotation_seconds=600)
    for name, club in PLAYERS:
        player = desk.register_player(tournament=tournament, actor=organiser, name=name, club=club).player
        desk.check_in_player(tournament=tournament, actor=organiser, player_id=player.pk)
    absent = desk.register_player(tournament=tournament, actor=organiser, name=NO_SHOW[0], club=NO_SHOW[1]).player
    desk.mark_no_show(tournament=tournament, actor=organiser, player_id=absent.pk)
    desk.draw_start_numbers(tournament=tournament, actor=organiser, seed=26)
    StaffRole.objects.create(tournament=tournament, user=referee, role=enums.Role.REFEREE)
    tournament.refresh_from_db()
    return tournament


def round_of(tournament: Tournament, stage: str, stage_number: int = 1) -> Round:
    return Round.objects.get(tournament=tournament, stage=stage, stage_number=stage_number)


def sizes(rnd: Round) -> list[int]:
    return [table.seats.count() for table in rnd.tables.order_by("number")]


def seat_order(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("position"))


# --- the organiser's rounds page --------------------------------------------------------


def question(page: Page) -> Locator:
    return page.locator(".next-round [role=alert]")


def options(page: Page) -> Locator:
    return page.locator(".next-round fieldset label")


def seat_with_the_first_option(page: Page, submit: str) -> str:
    """The first option is ticked; the organiser takes it. Returns its words."""
    first = options(page).first
    expect(first.get_by_role("radio")).to_be_checked()
    words = " ".join(first.inner_text().split())
    page.get_by_role("button", name=submit).click()
    return words


# --- the referee's tablet ---------------------------------------------------------------


def seat_rows(page: Page) -> Locator:
    return page.locator("#table-panel ol.seats > li.seat")


def pick_dealer(page: Page, position: int) -> None:
    buttons = page.locator(".dealer-pick button")
    buttons.nth(position).click()
    expect(page.locator(".dealer-pick")).to_have_count(0)


def tap_won(page: Page, position: int, games: int) -> None:
    """``position`` wins game ``games``: one tap, then the game log has ``games`` lines."""
    seat_rows(page).nth(position).get_by_role("button", name="Won").click()
    expect(panel(page).locator(".game-log li:not(.is-void)")).to_have_count(games)


def close_table(page: Page) -> None:
    page.get_by_role("button", name="Confirm result and close table").click()
    expect_status(page, "Closed")


def record_final_game(page: Page, winner: Seat, hands: dict[Seat, list[str]], games: int) -> None:
    """A game of the final through the hand calculator: tap the winner, then each card left in
    the other hands (the calculator keys' names), then "Record game"."""
    entry = page.locator("form.final-entry")
    expect(entry.get_by_role("heading", name=f"Game {games}: who went out first?")).to_be_visible()
    entry.locator(".winner-option", has_text=winner.player.name).click()
    for seat, cards in hands.items():
        calculator = entry.locator(f'fieldset[data-calculator][data-player="{seat.player_id}"]')
        for card in cards:
            calculator.get_by_role("button", name=card, exact=True).click()
    entry.get_by_role("button", name="Record game").click()
    expect(panel(page).locator(".game-log li:not(.is-void)")).to_have_count(games)


@contextmanager
def projector_at(browser: Browser, live_server, tournament: Tournament, size: str) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    """The public projector page in a fresh English context of ``size``, its lists paged to the screen."""
    context = browser.new_context(viewport=PROJECTORS[size], locale="en-US", base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(reverse("tournament:projector", args=[tournament.public_key]))
        expect(page.locator("body[data-paged]")).to_have_count(1)
        yield page
    finally:
        context.close()


# --- the steps of the day ---------------------------------------------------------------


def seat_round_one(desk_page: Page, tournament: Tournament, screenshot: Shoot) -> Round:
    """The organiser seats round 1: the question, the options in words, the first one taken."""
    desk_page.goto(reverse("tournament:desk", args=[tournament.pk]))
    expect(desk_page.locator('#desk-counters [data-counter="checked_in"]')).to_have_text(re.compile(r"^\s*14\b"))
    screenshot(desk_page, "championship-01-desk")
    nav(desk_page).get_by_role("link", name="Rounds").click()
    expect(desk_page.locator(".next-round")).to_contain_text("14 players are checked in.")
    desk_page.get_by_role("button", name="Seat round 1").click()

    expect(question(desk_page)).to_contain_text("Main round 1: 14 players.")
    expect(question(desk_page)).to_contain_text("the final cannot have exactly 3 players")
    labels = [" ".join(text.split()) for text in options(desk_page).all_inner_texts()]
    assert labels[0].startswith("Main round 1 at tables of 3 + 3 + 3 + 3 + 2 (one table of 2)"), labels
    for label in labels:  # nothing like round 1 at seven tables of 2
        assert "2 + 2 + 2 + 2 + 2 + 2 + 2" not in label and "7 tables of 2" not in label, label
    assert len(labels) >= 2 and all("tables of" in label for label in labels), labels
    # The page polls itself every 5 s; the open question is marked so the poll leaves it alone.
    expect(desk_page.locator(".next-round form[data-dirty]")).to_have_count(1)
    screenshot(desk_page, "championship-02-question-desk")
    assert seat_with_the_first_option(desk_page, "Seat the next round") == labels[0]
    expect(desk_page.locator(".messages")).to_contain_text("Main round 1 seated: 5 tables.")
    round_1 = round_of(tournament, enums.Stage.MAIN)
    assert sorted(sizes(round_1)) == [2, 3, 3, 3, 3]
    screenshot(desk_page, "championship-03-round-1-desk")
    return round_1


def play_the_table_of_two(tablet: Page, tournament: Tournament, round_1: Round, screenshot: Shoot) -> None:
    """The referee taps through round 1's table of 2: the dealer, four games, the close."""
    pair = next(table for table in round_1.tables.all() if table.seats.count() == 2)
    tablet.goto(reverse("tournament:home"))
    tablet.get_by_role("link", name=tournament.name).click()
    expect(tablet.get_by_role("heading", level=1)).to_have_text("Main round 1")
    expect(tablet.locator("a.table-card")).to_have_count(5)
    screenshot(tablet, "championship-04-tables-tablet")
    tablet.locator(f"#table-link-{pair.number}").click()
    expect(panel(tablet).locator(".table-head")).to_contain_text(
        re.compile(r"Main round 1\b.*first to win 3 games", re.S)
    )
    pick_dealer(tablet, 1)
    for games, winner in enumerate([0, 1, 0, 0], start=1):
        tap_won(tablet, winner, games)
        if games == 2:
            expect(seat_rows(tablet).locator(".tally-value")).to_have_text(["1", "1"])
            screenshot(tablet, "championship-05-table-of-2-playing-tablet")
    expect_status(tablet, "Decided")
    expect(panel(tablet).locator(".decided-banner")).to_have_text(f"{seat_order(pair)[0].player.name} wins the table.")
    screenshot(tablet, "championship-05-table-of-2-decided-tablet")
    close_table(tablet)
    assert [(seat.games_won, seat.place) for seat in seat_order(pair)] == [(3, 1), (1, 2)]
    for table in round_1.tables.exclude(pk=pair.pk).order_by("number"):
        play_in_turns(tournament, table)


def seat_to_the_final(desk_page: Page, tournament: Tournament, screenshot: Shoot) -> dict[int, tuple[int, int]]:
    """In German: the lucky-loser round (the usual tables, seated at once: its note expects the table
    of 2 in main round 2), main round 2 (asked again: the table of 2 now); in English the final.
    Every table played through the services. Returns main round 2's (winner, runner-up) by table."""
    nav(desk_page).get_by_role("link", name="Rounds").click()
    expect(desk_page.locator(".next-round")).to_contain_text("Every table of the round is decided.")
    desk_page.get_by_role("button", name="DE", exact=True).click()
    desk_page.get_by_role("button", name="Nächste Runde erstellen").click()
    expect(desk_page.locator(".messages")).to_contain_text("Lucky-Loser-Runde eingeteilt: 3 Tische.")
    lucky = round_of(tournament, enums.Stage.LUCKY_LOSER)
    assert sizes(lucky) == [3, 3, 3]
    assert lucky.seating_note.startswith("Voraussichtlich: Hauptrunde 2 an Tischen mit 3 + 3 + 2 (ein Tisch mit")
    for table in lucky.tables.order_by("number"):
        play_in_turns(tournament, table)

    desk_page.reload()  # the tables were played elsewhere: the organiser looks again
    desk_page.get_by_role("button", name="Nächste Runde erstellen").click()
    expect(question(desk_page)).to_contain_text("Hauptrunde 2: 8 Spieler.")
    expect(options(desk_page).first).to_contain_text("Hauptrunde 2 an Tischen mit 3 + 3 + 2 (ein Tisch mit 2 Spielern)")
    screenshot(desk_page, "championship-06-question-desk-de")
    seat_with_the_first_option(desk_page, "Nächste Runde einteilen")
    expect(desk_page.locator(".messages")).to_contain_text("Hauptrunde 2 eingeteilt: 3 Tische.")
    desk_page.get_by_role("button", name="EN", exact=True).click()
    expect(desk_page.get_by_role("heading", name="Rounds", exact=True)).to_be_visible()
    screenshot(desk_page, "championship-07-main-round-2-seated-desk")
    main_2 = round_of(tournament, enums.Stage.MAIN, 2)
    assert sorted(sizes(main_2)) == [2, 3, 3]
    pattern = {table.pk: play_in_turns(tournament, table) for table in main_2.tables.order_by("number")}

    desk_page.reload()
    desk_page.get_by_role("button", name="Generate the next round").click()
    expect(desk_page.locator(".messages")).to_contain_text("Final seated: 1 table.")
    screenshot(desk_page, "championship-08-final-seated-desk")
    return pattern


def agree_the_target(desk_page: Page, tablet: Page, final: Table, screenshot: Shoot) -> None:
    """The referee has the final open (500 points); the organiser sets 200 at the final's table;
    the tablet follows."""
    nav(tablet).get_by_role("link", name="Tables").click()
    expect(tablet.get_by_role("heading", level=1)).to_have_text("Final")
    tablet.locator("#table-link-1").click()
    rules = panel(tablet).locator(".table-head")
    expect(rules).to_contain_text("first to 500 points")
    expect(tablet.locator("#final-target")).to_have_count(0)  # only the organiser sets it

    desk_page.locator(".next-round").get_by_role("link", name="Table 1").click()
    form = desk_page.locator("#final-target")
    expect(form.get_by_role("heading", name="Target agreed with the finalists")).to_be_visible()
    expect(form.get_by_label("first to")).to_have_value("500")
    desk_page.get_by_role("button", name="DE", exact=True).click()
    expect(form.get_by_role("heading", name="Mit den Finalisten vereinbartes Ziel")).to_be_visible()
    expect(form.get_by_label("zuerst auf")).to_have_value("500")
    screenshot(desk_page, "championship-09-final-target-desk-de")
    desk_page.get_by_role("button", name="EN", exact=True).click()
    expect(form.get_by_role("heading", name="Target agreed with the finalists")).to_be_visible()
    screenshot(desk_page, "championship-10-final-target-desk")
    form.get_by_label("Played to").select_option("points")
    form.get_by_label("first to").fill("200")
    form.get_by_role("button", name="Set the target").click()
    expect(desk_page.locator(".messages")).to_contain_text(
        "The seated final now plays first to 200 points (was first to 500 points)."
    )
    expect(panel(desk_page).locator(".table-head")).to_contain_text("first to 200 points")
    assert refreshed(final).points_target == 200

    # The referee's tablet, open on the final, follows with its next poll.
    expect(rules).to_contain_text("first to 200 points", timeout=POLL_MS)
    screenshot(tablet, "championship-11-final-200-tablet")


def play_the_final(tablet: Page, final: Table, screenshot: Shoot) -> tuple[Seat, Seat, Seat]:
    """The final with the hand calculator: 40 / 40, then 200 for the first seat; the two on 40
    play the duel for place 2 (the higher start number wins it); both tables closed. Returns the
    places 1, 2, 3."""
    a, b, c = seat_order(final)
    pick_dealer(tablet, 0)
    record_final_game(tablet, b, {a: ["+2 20 points"], c: ["+2 20 points"]}, 1)
    expect(tablet.locator("#final-target")).to_have_count(0)
    record_final_game(tablet, c, {a: ["+2 20 points"], b: ["+2 20 points"]}, 2)
    entry = tablet.locator("form.final-entry")
    expect(entry.get_by_role("heading", name="Game 3: who went out first?")).to_be_visible()
    entry.locator(".winner-option", has_text=a.player.name).click()
    for seat in (b, c):
        calculator = entry.locator(f'fieldset[data-calculator][data-player="{seat.player_id}"]')
        calculator.get_by_role("button", name="Wild +4 50 points", exact=True).click()
        calculator.get_by_role("button", name="Wild +4 50 points", exact=True).click()
        expect(calculator.locator(".calc-total")).to_have_value("100")
    expect(entry.locator("[data-winner-total]")).to_have_text("200")
    screenshot(tablet, "championship-13-final-calculator-tablet")
    entry.get_by_role("button", name="Record game").click()
    expect_status(tablet, "Decided")
    expect(seat_rows(tablet).locator(".tally-value")).to_have_text(["200", "40", "40"])
    expect(panel(tablet)).to_contain_text("Players are tied on points: a duel decides their places.")
    screenshot(tablet, "championship-14-final-decided-tablet")
    assert [seat.points for seat in seat_order(final)] == [200, 40, 40] and seat_order(final)[0].place == 1

    duel = Table.objects.get(round=final.round, is_duel=True)
    duel_seats = seat_order(duel)
    assert {seat.player_id for seat in duel_seats} == {b.player_id, c.player_id} and duel.duel_for_place == 2
    won = max(range(2), key=lambda index: duel_seats[index].player.start_number or 0)
    tablet.get_by_role("link", name="Open the duel").click()
    expect(tablet.get_by_role("heading", name="Duel for place 2", exact=True)).to_be_visible()
    pick_dealer(tablet, 0)
    for games in range(1, (duel.wins_needed or 1) + 1):
        tap_won(tablet, won, games)
    expect_status(tablet, "Decided")
    # The duel's places are the final's: its winner takes place 2, the other place 3.
    expect(seat_rows(tablet).nth(won).locator(".badge")).to_have_text("place 2")
    expect(seat_rows(tablet).nth(1 - won).locator(".badge")).to_have_text("place 3")
    screenshot(tablet, "championship-15-duel-tablet")
    close_table(tablet)
    tablet.goto(reverse("tournament:referee_table", args=[final.round.tournament_id, final.pk]))
    close_table(tablet)
    return a, duel_seats[won], duel_seats[1 - won]


def correct_after_the_end(
    desk_page: Page, tournament: Tournament, table: Table, pattern: tuple[int, int], screenshot: Shoot
) -> None:
    """At a closed table of main round 2: a correction that would leave it undecided is refused
    and keeps what was typed; a correction of a runner-up's game is previewed and confirmed."""
    first, second = pattern
    third = next(seat.player_id for seat in table.seats.all() if seat.player_id not in (first, second))
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    desk_page.goto(reverse("tournament:table_corrections", args=[tournament.pk, table.pk]))
    expect(desk_page.get_by_role("heading", name=f"Corrections · Table {table.number}")).to_be_visible()
    expect(desk_page.locator("main")).to_contain_text("Main round 2 · first to win 3 games")

    last = last_game(table)
    game = desk_page.locator(f"#game-{last.pk}")
    game.get_by_text(f"Correct or void game {last.number}").click()
    correction = game.locator("form.correction-form").first
    correction.get_by_label(names[third], exact=True).check()
    typed = f"{names[third]} won the last game, says the scorer"
    correction.get_by_label("Why (required)").fill(typed)
    correction.get_by_role("button", name="Show what changes").click()
    expect(desk_page.locator("#correction-error")).to_contain_text(
        f"After this correction Main round 2 · Table {table.number} would no longer be decided"
    )
    correction = desk_page.locator(f"#game-{last.pk} form.correction-form").first
    expect(correction.get_by_label(names[third], exact=True)).to_be_checked()
    expect(correction.get_by_label("Why (required)")).to_have_value(typed)
    screenshot(desk_page, "championship-16-correction-refused-desk")
    assert Seat.objects.get(table=table, place=1).player_id == first  # nothing changed

    second_game = table.games.get(number=2, status="valid")
    game = desk_page.locator(f"#game-{second_game.pk}")
    game.get_by_text("Correct or void game 2").click()
    correction = game.locator("form.correction-form").first
    correction.get_by_label(names[third], exact=True).check()
    correction.get_by_label("Why (required)").fill(f"{names[third]} won game 2, not {names[second]}")
    correction.get_by_role("button", name="Show what changes").click()
    consequences = desk_page.locator("#correction-consequences")
    expect(consequences).to_contain_text(f"Main round 2 · Table {table.number}, {names[second]}: games won 2 → 1")
    screenshot(desk_page, "championship-17-correction-preview-desk")
    consequences.get_by_role("button", name="Confirm the correction").click()
    expect(desk_page.locator(".messages")).to_contain_text("Game 2 is corrected.")
    assert Seat.objects.get(table=table, player_id=second).games_won == 1
    assert Seat.objects.get(table=table, place=1).player_id == first


# --- the test ---------------------------------------------------------------------------


@pytest.mark.long
def test_the_whole_underwater_championship(  # type: ignore[no-untyped-def]
    browser: Browser, live_server, new_tablet, organiser, referee, screenshot: Shoot
) -> None:
    tournament = registered_field(organiser, referee)
    assert tournament.players.filter(status=enums.PlayerStatus.CHECKED_IN).count() == 14
    assert tournament.final_points_target == 500

    # 1. The organiser at the desk seats round 1.
    desk_page: Page = new_tablet(organiser.username)
    desk_page.set_viewport_size(DESK)
    round_1 = seat_round_one(desk_page, tournament, screenshot)

    # 2. A referee's tablet: the table of 2; then the rounds to the final.
    tablet: Page = new_tablet(referee.username)
    tablet.on("dialog", lambda dialog: dialog.accept())  # the close asks first
    play_the_table_of_two(tablet, tournament, round_1, screenshot)
    pattern = seat_to_the_final(desk_page, tournament, screenshot)
    final = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.FINAL)
    assert final.points_target == 500 and final.seats.count() == 3

    # 3. The target agreed with the finalists; the projector shows it; the final and its duel.
    agree_the_target(desk_page, tablet, final, screenshot)
    for size in PROJECTORS:
        with projector_at(browser, live_server, tournament, size) as projector:
            show_view(projector, "tables")
            expect(projector.locator('#screen [data-view="tables"].active .pj-target')).to_have_text("to 200 points")
            assert not fit_problems(projector), fit_problems(projector)
            screenshot(projector, f"championship-12-final-projector-{size}")
    first, second, third = play_the_final(tablet, final, screenshot)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED

    # 4. A correction after the end, at a table of three of main round 2.
    main_2 = round_of(tournament, enums.Stage.MAIN, 2)
    table = next(t for t in main_2.tables.order_by("number") if t.seats.count() == 3)
    correct_after_the_end(desk_page, tournament, table, pattern[table.pk], screenshot)

    # 5. The ranking page: the final's points and the duel.
    nav(desk_page).get_by_role("link", name="Ranking").click()
    expect(desk_page.get_by_role("heading", name="Final ranking")).to_be_visible()
    heads = [head.strip() for head in desk_page.locator("#ranking thead th").all_inner_texts()]
    points, duel = heads.index("Points in the final"), heads.index("Duel")

    def cells(seat: Seat) -> list[str]:
        return [text.strip() for text in desk_page.locator(f"#player-{seat.player_id} td").all_inner_texts()]

    assert [cells(seat)[0] for seat in (first, second, third)] == ["1", "2", "3"]
    assert [cells(seat)[points] for seat in (first, second, third)] == ["200", "40", "40"]
    assert [cells(seat)[duel] for seat in (first, second, third)] == [
        "",
        "won the duel for place 2",
        "lost the duel for place 2",
    ]
    screenshot(desk_page, "championship-18-ranking-desk")

    # The podium on the projector with the final's points; the bracket; "Where do I sit?" names
    # each finalist once.
    names = [seat.player.name for seat in (first, second, third)]
    for size in PROJECTORS:
        with projector_at(browser, live_server, tournament, size) as projector:
            podium = projector.locator('#screen [data-view="podium"]')
            expect(podium).to_be_visible()  # the first view at the end
            expect(podium.locator(".step-name")).to_have_text(names)
            expect(podium.locator(".step-result")).to_have_text(
                ["200 points", "40 points · won the duel for place 2", "40 points · lost the duel for place 2"]
            )
            assert not fit_problems(projector), fit_problems(projector)
            screenshot(projector, f"championship-19-podium-projector-{size}")
            show_view(projector, "bracket")
            bracket = projector.locator('#screen [data-view="bracket"]')
            expect(bracket.locator(".pj-col h3").last).to_have_text("Final")
            expect(bracket.locator(".pj-col").last.locator(".pj-blabel")).to_have_text(["Table", "Duel"])
            assert not fit_problems(projector), fit_problems(projector)
            screenshot(projector, f"championship-20-bracket-projector-{size}")
            show_view(projector, "alphabetical")
            assert sorted(names_shown(projector, "alphabetical")) == sorted(names)
            assert not fit_problems(projector), fit_problems(projector)
            screenshot(projector, f"championship-21-where-do-i-sit-projector-{size}")
