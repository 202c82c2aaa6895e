"""The corrections page when a correction is refused (issue 26): the page says the real reason with
the tables by their one names, nothing is saved, and the refused form is open again with what was
typed in it: the reason, the chosen winner, the card points, the first dealer. Also in German and
Italian.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from tournament import enums
from tournament.models import Seat, Table
from tournament.tests.helpers import refreshed, seated, url
from tournament.tests.play.championship import (  # noqa: F401 (the fixtures built, championship)
    Championship,
    built_fixture,
    championship_fixture,
    last_game,
    to_the_end,
)
from tournament.tests.play.test_corrections import snapshot

pytestmark = [pytest.mark.django_db]

TYPED = "Anna says Carla won the fifth game"


def table_of_three(championship: Championship) -> tuple[Table, int, int, int]:
    table = next(t for t in championship.tables(enums.Stage.MAIN, 2) if t.seats.count() == 3)
    a, b = championship.pattern[table.pk]
    c = next(pid for pid in seated(table) if pid not in (a, b))
    return table, a, b, c


def post(client: Any, table: Table, data: dict[str, Any], **headers: str) -> tuple[int, str]:
    response = client.post(url("table_corrections", table.round.tournament, table.pk), data, **headers)
    return response.status_code, response.content.decode()


def form_of(page: str, game_pk: int, action: str) -> str:
    """The HTML of the form of ``action`` for the game ``game_pk``."""
    item = page[page.index(f'id="game-{game_pk}"') :]
    item = item[: item.index("</li>")]
    start = item.index(f'name="action" value="{action}"')
    return item[start : item.index("</form>", start)]


def checked_winner(form: str) -> list[str]:
    return re.findall(r'name="winner" value="(\d+)" required checked', form)


def reason_in(form: str) -> str:
    found = re.search(r'name="reason"[^>]*value="([^"]*)"', form)
    return html.unescape(found.group(1)) if found else ""


def test_a_refused_correction_keeps_what_was_typed_and_says_why(client, login_as, championship) -> None:  # type: ignore[no-untyped-def]
    table, _a, _b, c = table_of_three(championship)
    game = last_game(table)
    login_as("organiser", championship.tournament)
    before = snapshot(championship.tournament)
    status, page = post(
        client,
        table,
        {"action": "correct", "game": game.pk, "version": refreshed(table).version, "reason": TYPED, "winner": c},
    )
    assert status == 409
    assert snapshot(championship.tournament) == before
    text = html.unescape(page)
    assert f"After this correction Main round 2 · Table {table.number} would no longer be decided" in text
    assert "Final · Table 1" in text and "Correct nothing" in text
    form = form_of(page, game.pk, "correct")
    assert checked_winner(form) == [str(c)]  # the player chosen, not the game's recorded winner
    assert reason_in(form) == TYPED
    assert '<details class="correction-forms" open>' in page[page.index(f'id="game-{game.pk}"') :][:400]
    # The other forms stay empty.
    assert reason_in(form_of(page, game.pk, "void")) == ""
    other = table.games.get(number=1, status="valid")
    assert checked_winner(form_of(page, other.pk, "correct")) == [str(other.winner_id)]
    assert reason_in(form_of(page, other.pk, "correct")) == ""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"reason": "   "}, "Say why: a correction needs a reason"),
        ({"version": "1"}, "changed on another tablet"),
    ],
)
def test_a_missing_reason_or_a_stale_version_keeps_the_choice(  # type: ignore[no-untyped-def]
    client, login_as, championship, change: dict[str, str], message: str
) -> None:
    table, _a, b, _c = table_of_three(championship)
    game = last_game(table)
    login_as("organiser", championship.tournament)
    before = snapshot(championship.tournament)
    data = {"action": "correct", "game": game.pk, "version": refreshed(table).version, "reason": TYPED, "winner": b}
    status, page = post(client, table, {**data, **change})
    assert status == 409 and message in html.unescape(page)
    assert snapshot(championship.tournament) == before
    form = form_of(page, game.pk, "correct")
    assert checked_winner(form) == [str(b)]
    assert reason_in(form) == {**data, **change}["reason"]
    # The form carries the table's current version: sent again as it stands, it goes through.
    if change.get("version"):
        version = re.search(r'name="version" value="(\d+)"', form)
        assert version is not None and int(version.group(1)) == refreshed(table).version


def test_a_refused_void_keeps_its_reason(client, login_as, championship) -> None:  # type: ignore[no-untyped-def]
    table, *_players = table_of_three(championship)
    game = last_game(table)
    login_as("organiser", championship.tournament)
    status, page = post(
        client, table, {"action": "void", "game": game.pk, "version": refreshed(table).version, "reason": TYPED}
    )
    assert status == 409 and f"Main round 2 · Table {table.number} would no longer be decided" in html.unescape(page)
    assert reason_in(form_of(page, game.pk, "void")) == TYPED
    assert reason_in(form_of(page, game.pk, "correct")) == ""


def test_refused_reopen_and_first_dealer_keep_their_reason(client, login_as, championship) -> None:  # type: ignore[no-untyped-def]
    table = championship.tables(enums.Stage.MAIN, 2)[0]
    login_as("organiser", championship.tournament)
    outsider = Seat.objects.exclude(table=table).filter(table__round__tournament=championship.tournament).first()
    assert outsider is not None
    status, page = post(
        client,
        table,
        {"action": "dealer", "player": outsider.player_id, "version": refreshed(table).version, "reason": TYPED},
    )
    text = html.unescape(page)
    assert status == 409 and f"This player does not sit at Main round 2 · Table {table.number}." in text
    dealer_form = page[page.index('value="dealer"') :]
    assert reason_in(dealer_form[: dealer_form.index("</form>")]) == TYPED
    status, page = post(client, table, {"action": "reopen", "version": refreshed(table).version, "reason": TYPED})
    # Reopening is not offered once the Final stands on the table; a stale tab that posts it is told why.
    assert status == 409 and f"Main round 2 · Table {table.number} can no longer be reopened" in html.unescape(page)


def test_card_points_typed_into_a_refused_correction_of_the_final_stay(client, login_as, championship) -> None:  # type: ignore[no-untyped-def]
    to_the_end(championship)
    final = championship.final
    game = last_game(final)
    winner, *others = seated(final)
    login_as("organiser", championship.tournament)
    data = {
        "action": "correct",
        "game": game.pk,
        "version": "1",  # a tab left open since the final's start
        "reason": TYPED,
        "winner": others[0],
        f"points_{winner}": "17",
        f"points_{others[1]}": "4",
    }
    before = snapshot(championship.tournament)
    status, page = post(client, final, data)
    assert status == 409 and "changed on another tablet" in page
    assert snapshot(championship.tournament) == before
    form = form_of(page, game.pk, "correct")
    assert checked_winner(form) == [str(others[0])]
    assert f'name="points_{winner}" min="0" max="9999" inputmode="numeric" value="17"' in form
    assert f'name="points_{others[1]}" min="0" max="9999" inputmode="numeric" value="4"' in form
    assert reason_in(form) == TYPED


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ("Hauptrunde 2 · Tisch", "Finale · Tisch 1", "Nicht geändert")),
        ("it", ("Turno principale 2 · Tavolo", "Finale · Tavolo 1", "Nessuna modifica")),
    ],
)
def test_the_refusal_in_german_and_italian(
    client, login_as, championship, language: str, words: tuple[str, ...]
) -> None:  # type: ignore[no-untyped-def]
    table, _a, _b, c = table_of_three(championship)
    game = last_game(table)
    login_as("organiser", championship.tournament)
    status, page = post(
        client,
        table,
        {"action": "correct", "game": game.pk, "version": refreshed(table).version, "reason": TYPED, "winner": c},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    text = html.unescape(page)
    assert status == 409
    for word in words:
        assert word in text, word
    assert "After this correction" not in text
    assert reason_in(form_of(page, game.pk, "correct")) == TYPED
