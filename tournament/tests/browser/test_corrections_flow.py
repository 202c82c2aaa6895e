"""The organiser corrects a closed table in chromium, on a desk screen and on a tablet.

Twenty-one players, seven tables of three; every table closed and the lucky-loser
round seated. At table 7 the referee tapped the wrong winner in the last game. The
organiser opens table 7, "Correct results", picks the right winner, gives a reason,
reads what the correction changes (the wrong winner now plays the lucky-loser round
in place of the right one, no game played there yet), confirms, and the projector
shows the right player at that table of the next round.

A correction that cannot be carried on (issue 26): in an eighteen-player championship whose Final
is seated, a main-round-2 game is given to the table's third player, so nobody would have won the
table. The page says so in words, names the table and the Final's, and keeps the chosen player
and the typed reason; the advice (correct another game instead) then works. The same in German,
with the log and the correction preview.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tournament import enums, simulation
from tournament.formats.knockout import services as knockout_services
from tournament.models import Player, Seat, StaffRole, Table, Tournament
from tournament.tests.helpers import refreshed, seated, set_dealer
from tournament.tests.play import championship
from tournament.tests.play.test_corrections import close
from tournament.tests.views.scenarios import win

pytestmark = pytest.mark.browser

DESK = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}


def closed_round_one(organiser) -> tuple[Tournament, Table, int, int]:  # type: ignore[no-untyped-def]
    """Round 1 of 21 players played and closed, the lucky-loser round seated. At every table
    seats 1 and 2 won alternately, seat 1 the last game; returns table 7 and those two."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=21, seed=7)
    Tournament.objects.filter(pk=tournament.pk).update(display_rotation_seconds=60)
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    knockout_services.generate_next_round(tournament=tournament, actor=None, seed=7)
    for table in Table.objects.filter(round__tournament=tournament).order_by("number"):
        a, b, _c = set_dealer(tournament, table)
        needed = refreshed(table).wins_needed or 1
        for winner in [a, b] * (needed - 1) + [a]:
            win(tournament, table, winner)
        close(tournament, table)
    knockout_services.generate_next_round(tournament=tournament, actor=None, seed=8)
    table7 = Table.objects.get(round__tournament=tournament, round__number=1, number=7)
    wrong, right = seated(table7)[:2]
    return tournament, table7, wrong, right


@pytest.mark.parametrize("screen", ["desk", "tablet"])
def test_the_organiser_corrects_a_closed_table_and_the_projector_follows(  # type: ignore[no-untyped-def]
    new_tablet, public_projector, organiser, screenshot, screen: str
) -> None:
    tournament, table7, wrong, right = closed_round_one(organiser)
    names = dict(Player.objects.filter(pk__in=[wrong, right]).values_list("pk", "name"))
    next_table = Seat.objects.get(table__round__number=2, table__round__tournament=tournament, player_id=right).table

    page: Page = new_tablet(organiser.username)
    if screen == "desk":
        page.set_viewport_size(DESK)
    page.goto(f"/t/{tournament.pk}/referee/tables/{table7.pk}/")
    page.get_by_role("link", name="Correct results").click()
    expect(page.get_by_role("heading", name="Corrections · Table 7")).to_be_visible()

    last = table7.games.order_by("-number").first()
    assert last is not None
    game = page.locator(f"#game-{last.pk}")
    game.get_by_text(f"Correct or void game {last.number}").click()
    form = game.locator("form.correction-form").first
    form.get_by_label(names[right], exact=True).check()
    form.get_by_label("Why (required)").fill("The referee tapped the wrong player")
    form.get_by_role("button", name="Show what changes").click()

    consequences = page.locator("#correction-consequences")
    expect(consequences).to_contain_text(f"won by {names[right]} instead of won by {names[wrong]}")
    replaced = f"Lucky-loser round · Table {next_table.number}: {names[wrong]} replaces {names[right]}"
    expect(consequences).to_contain_text(replaced)
    expect(consequences).to_contain_text("no game has been played there yet")
    screenshot(page, f"corrections-consequences-{screen}")
    assert Seat.objects.filter(table=next_table, player_id=right).exists()  # nothing changed yet

    consequences.get_by_role("button", name="Confirm the correction").click()
    expect(page.locator(".messages")).to_contain_text(f"Game {last.number} is corrected.")
    expect(page.locator(f"#game-{last.pk}")).to_have_class("correction-game is-void")
    screenshot(page, f"corrections-done-{screen}")
    assert Seat.objects.filter(table=next_table, player_id=wrong).exists()
    assert not Seat.objects.filter(table=next_table, player_id=right).exists()

    projector = public_projector(tournament)
    article = projector.locator(".pj-table").filter(has_text=f"Table {next_table.number}")
    expect(article.first).to_contain_text(names[wrong])
    expect(article.first).not_to_contain_text(names[right])
    if screen == "desk":
        screenshot(projector, "corrections-projector")


def test_a_refused_correction_says_why_and_keeps_what_was_typed(  # type: ignore[no-untyped-def]
    new_tablet, organiser, screenshot, live_server
) -> None:
    played = championship.to_the_final()
    tournament = played.tournament
    StaffRole.objects.create(tournament=tournament, user=organiser, role=enums.Role.ORGANISER)
    table = next(t for t in played.tables(enums.Stage.MAIN, 2) if t.seats.count() == 3)
    a, b = played.pattern[table.pk]
    c = next(pid for pid in seated(table) if pid not in (a, b))
    names = dict(Player.objects.filter(pk__in=[a, b, c]).values_list("pk", "name"))
    last = championship.last_game(table)
    second = table.games.get(number=2, status="valid")
    typed = "Carla won the last game, says the referee"

    page: Page = new_tablet(organiser.username)
    page.set_viewport_size(DESK)
    page.goto(f"/t/{tournament.pk}/tables/{table.pk}/corrections/")
    game = page.locator(f"#game-{last.pk}")
    game.get_by_text(f"Correct or void game {last.number}").click()
    form = game.locator("form.correction-form").first
    form.get_by_label(names[c], exact=True).check()
    form.get_by_label("Why (required)").fill(typed)
    form.get_by_role("button", name="Show what changes").click()

    error = page.locator("#correction-error")
    expect(error).to_contain_text(
        f"After this correction Main round 2 · Table {table.number} would no longer be decided"
    )
    expect(error).to_contain_text(f"{names[c]} with 1 game won")
    expect(error).to_contain_text("its players already sit at later tables (Final · Table 1)")
    expect(error).to_contain_text("if a different game was entered wrongly, correct that one")
    # What was typed is still there, in the form that was sent, open.
    form = page.locator(f"#game-{last.pk} form.correction-form").first
    expect(form).to_be_visible()
    expect(form.get_by_label(names[c], exact=True)).to_be_checked()
    expect(form.get_by_label("Why (required)")).to_have_value(typed)
    screenshot(page, "corrections-refused-desk")
    assert Seat.objects.get(table=table, place=1).player_id == a  # nothing changed

    # The advice works: game 2 (Ben's) was the one entered wrongly; Carla won it. Ann keeps the table.
    game = page.locator(f"#game-{second.pk}")
    game.get_by_text(f"Correct or void game {second.number}").click()
    form = game.locator("form.correction-form").first
    form.get_by_label(names[c], exact=True).check()
    form.get_by_label("Why (required)").fill("Carla won game 2, not Ben")
    form.get_by_role("button", name="Show what changes").click()
    consequences = page.locator("#correction-consequences")
    expect(consequences).to_contain_text(f"Main round 2 · Table {table.number}, {names[b]}: games won 2 → 1")
    screenshot(page, "corrections-preview-desk")
    consequences.get_by_role("button", name="Confirm the correction").click()
    expect(page.locator(".messages")).to_contain_text("Game 2 is corrected.")
    assert Seat.objects.get(table=table, place=1).player_id == a

    # In German: the preview of a new winner carried into the Final (another table of main round 2),
    # the same refusal, the log.
    other = next(t for t in played.tables(enums.Stage.MAIN, 2) if t.pk != table.pk)
    winner, runner_up = played.pattern[other.pk]
    names.update(Player.objects.filter(pk__in=[winner, runner_up]).values_list("pk", "name"))
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    page.goto(f"/t/{tournament.pk}/tables/{other.pk}/corrections/")
    game = page.locator(f"#game-{championship.last_game(other).pk}")
    game.locator("summary").click()
    form = game.locator("form.correction-form").first
    form.get_by_label(names[runner_up], exact=True).check()
    form.get_by_label("Warum (Pflichtfeld)").fill("Das letzte Spiel hat der andere gewonnen")
    form.locator("button.btn-primary").click()
    consequences = page.locator("#correction-consequences")
    expect(consequences).to_contain_text(f"Finale · Tisch 1: {names[runner_up]} ersetzt {names[winner]}")
    expect(consequences).to_contain_text(f"Hauptrunde 2 · Tisch {other.number}, {names[winner]}:")
    screenshot(page, "corrections-preview-desk-de")
    last = championship.last_game(table)
    page.goto(f"/t/{tournament.pk}/tables/{table.pk}/corrections/")
    game = page.locator(f"#game-{last.pk}")
    game.locator("summary").click()
    form = game.locator("form.correction-form").first
    form.get_by_label(names[c], exact=True).check()
    form.get_by_label("Warum (Pflichtfeld)").fill(typed)
    form.locator("button.btn-primary").click()
    expect(page.locator("#correction-error")).to_contain_text(
        f"Nach dieser Korrektur wäre Hauptrunde 2 · Tisch {table.number} nicht mehr entschieden"
    )
    expect(
        page.locator(f"#game-{last.pk} form.correction-form").first.get_by_label("Warum (Pflichtfeld)")
    ).to_have_value(typed)
    screenshot(page, "corrections-refused-desk-de")
    page.goto(f"/t/{tournament.pk}/log/")
    expect(page.locator(".audit-log")).to_contain_text("Finale eingeteilt.")
    page.goto(f"/t/{tournament.pk}/log/?table={table.pk}")  # one table's entries: a page to look at
    expect(page.locator(".audit-log")).to_contain_text(f"Hauptrunde 2 · Tisch {table.number}: Spiel 2 korrigiert")
    screenshot(page, "log-desk-de")
    page.context.clear_cookies(name="django_language")
    page.goto(f"/t/{tournament.pk}/log/")
    expect(page.locator(".audit-log")).to_contain_text("Final seated.")
    page.goto(f"/t/{tournament.pk}/log/?table={table.pk}")
    expect(page.locator(".audit-log")).to_contain_text(f"Main round 2 · Table {table.number}: game 2 corrected")
    screenshot(page, "log-desk")


@pytest.fixture
def public_projector(browser, live_server):  # type: ignore[no-untyped-def]
    """public_projector(tournament) -> the projector page (1920x1080), without login, on its tables view."""
    contexts = []

    def open_projector(tournament: Tournament) -> Page:
        context = browser.new_context(viewport=PROJECTOR, locale="en-US", base_url=live_server.url)
        contexts.append(context)
        page = context.new_page()
        page.goto(f"/p/{tournament.public_key}/")
        expect(page.locator(".pj-table").first).to_be_attached()
        return page

    yield open_projector
    for context in contexts:
        context.close()
