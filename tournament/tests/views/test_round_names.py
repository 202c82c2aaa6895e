"""One name per round everywhere (issue 26): the log, the correction preview, the CSV exports, the
printed seating, api.json, the ranking and the projector name a round as every page does ("Main
round 2", "Lucky-loser round", "Final"), never by the tournament-wide number ("round 3"), and a
duel of the final as a duel. Translated when shown: German and Italian too. After the end,
"Where do I sit?" names each player once.

The championship (eighteen players: main round 1, the lucky-loser round, main round 2 as the
tournament's third round, the Final) is built once for the module.
"""

from __future__ import annotations

import csv
import html
import io
import re
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from tournament import enums
from tournament.formats import registry
from tournament.models import Round, Table
from tournament.play import corrections
from tournament.selectors import audit as audit_selectors
from tournament.selectors import printing, public, screen
from tournament.selectors import ranking as ranking_selectors
from tournament.tests.helpers import refreshed, url
from tournament.tests.play.championship import (  # noqa: F401 (the fixture built)
    Championship,
    built_fixture,
    last_game,
    to_the_end,
)

pytestmark = [pytest.mark.django_db]

# The tournament-wide number where a name belongs: "table 2 of round 3", "round 3".
NUMBERED = re.compile(r"\b(of|in) round \d|· round \d|^Round \d+ ·|\bRound \d+ seated")


@pytest.fixture
def ended(built: Championship, db) -> Championship:  # type: ignore[no-untyped-def]
    """The championship played to its end (a duel for place 2 in the Final)."""
    built.tournament.refresh_from_db()
    return to_the_end(built)


def read_csv(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8").removeprefix("\ufeff")
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def test_main_round_2_is_the_third_round(ended: Championship) -> None:
    """The case that gave rounds two names: main round 2 is the tournament's round 3."""
    assert ended.round(enums.Stage.MAIN, 2).number == 3
    assert str(ended.round(enums.Stage.MAIN, 2)) == "Main round 2"


def test_the_log_names_rounds_and_tables_as_the_pages_do(client, login_as, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    tournament = ended.tournament
    offered = audit_selectors.choices(tournament)
    rows = audit_selectors.audit_rows(tournament, audit_selectors.AuditFilter(), offered)
    texts = [row.description for row in rows]
    assert not [text for text in texts if NUMBERED.search(text)]
    main_two = ended.tables(enums.Stage.MAIN, 2)[0]
    assert any(text.startswith(f"Main round 2 · Table {main_two.number}: ") for text in texts)
    assert {"Main round 1 seated.", "Lucky-loser round seated.", "Main round 2 seated.", "Final seated."} <= set(texts)
    duel = Table.objects.get(round__tournament=tournament, is_duel=True)
    assert any(text.startswith("Final · Duel for place 2: ") and "won game 1" in text for text in texts)
    assert offered.tables[duel.pk].name == "Final · Duel for place 2"
    # The page: the rows, the table filter's groups and choices.
    login_as("organiser", tournament)
    page = html.unescape(client.get(url("audit_log", tournament) + "?page=1").content.decode())
    assert f"Main round 2 · Table {main_two.number}" in page
    assert '<optgroup label="Main round 2">' in page and '<optgroup label="Final">' in page
    assert "· round 3" not in page and "Round 3 ·" not in page
    # In German and Italian, the same names translated.
    german = html.unescape(client.get(url("audit_log", tournament), HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert f"Hauptrunde 2 · Tisch {main_two.number}: " in german and "Finale · Stechen um Platz 2: " in german
    italian = html.unescape(client.get(url("audit_log", tournament), HTTP_ACCEPT_LANGUAGE="it").content.decode())
    assert f"Turno principale 2 · Tavolo {main_two.number}: " in italian and "Finale · Spareggio" in italian


def test_the_log_csv_keeps_the_numbers_and_adds_the_names(client, login_as, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    login_as("organiser", ended.tournament)
    header, *lines = read_csv(client.get(url("audit_csv", ended.tournament)).content)
    column = {name: index for index, name in enumerate(header)}
    main_two = ended.tables(enums.Stage.MAIN, 2)[0]
    found = [
        line for line in lines if line[column["Description"]].startswith(f"Main round 2 · Table {main_two.number}:")
    ]
    assert found
    for line in found:
        assert line[column["Round"]] == "3" and line[column["Table"]] == str(main_two.number)
        assert line[column["Round name"]] == "Main round 2"
        assert line[column["Table name"]] == f"Table {main_two.number}"


def test_the_games_csv_names_the_round_and_the_duel(client, login_as, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    login_as("organiser", ended.tournament)
    header, *lines = read_csv(client.get(url("export_games", ended.tournament)).content)
    column = {name: index for index, name in enumerate(header)}
    named = {(line[column["Round"]], line[column["Round name"]]) for line in lines}
    assert named == {("1", "Main round 1"), ("2", "Lucky-loser round"), ("3", "Main round 2"), ("4", "Final")}
    duel = Table.objects.get(round__tournament=ended.tournament, is_duel=True)
    final = [line for line in lines if line[column["Round"]] == "4"]
    assert {line[column["Table name"]] for line in final if line[column["Table"]] == str(duel.number)} == {
        "Duel for place 2"
    }
    german = read_csv(client.get(url("export_games", ended.tournament), HTTP_ACCEPT_LANGUAGE="de").content)
    assert "Hauptrunde 2" in {line[column["Round name"]] for line in german[1:]}


def test_the_correction_preview_names_rounds_as_the_pages_do(ended: Championship) -> None:
    """A main-round-2 game given to its table's runner-up after the end: the Final's seat changes
    hands; every line names the tables by their one names (in German too)."""
    table = next(t for t in ended.tables(enums.Stage.MAIN, 2) if t.seats.count() == 3)
    _a, b = ended.pattern[table.pk]
    kwargs = {
        "tournament": ended.tournament,
        "fmt": registry.of(ended.tournament),
        "actor": None,
        "table_id": table.pk,
        "game_id": last_game(table).pk,
        "version": refreshed(table).version,
        "reason": "wrong player",
        "winner_id": b,
    }
    for language, where in (("en", "Final · Table 1"), ("de", "Finale · Tisch 1"), ("it", "Finale · Tavolo 1")):
        with translation.override(language), pytest.raises(corrections.ConfirmConsequences) as asked:
            corrections.correct_game(**kwargs)
        lines = asked.value.lines + asked.value.blocked
        assert not [line for line in lines if NUMBERED.search(line)], lines
        assert any(line.startswith(where) for line in lines), lines


def test_api_json_names_rounds_and_tables_beside_their_numbers(client, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    document = client.get(reverse("tournament:api", args=[ended.tournament.public_key])).json()
    rounds = {rnd["number"]: rnd for rnd in document["rounds"]}
    assert rounds[3]["label"] == "Main round 2" and rounds[3]["stage_number"] == 2
    assert [table["name"] for table in rounds[4]["tables"]] == ["Table 1", "Duel for place 2"]
    assert [table["number"] for table in rounds[4]["tables"]] == [1, 2]
    with translation.override("de"):
        german = public.as_json(public.snapshot(ended.tournament))
    assert [table["name"] for table in german["rounds"][3]["tables"]] == ["Tisch 1", "Stechen um Platz 2"]


def test_the_ranking_says_which_main_round_a_player_reached(ended: Championship) -> None:
    reached = {str(row.reached) for row in ranking_selectors.ranking(ended.tournament).rows}
    assert {"Final", "Main round 2", "Lucky-loser round"} <= reached
    assert not [label for label in reached if label.startswith("Round ")]


def test_where_do_i_sit_names_each_finalist_once(client, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    """After the end the projector's list and the printed seating of the Final name each player
    once: the duel's players at the duel (their last table), the winner at the final's table."""
    tournament = ended.tournament
    final_round = ended.round(enums.Stage.FINAL)
    duel = Table.objects.get(round=final_round, is_duel=True)
    duelists = set(duel.seats.values_list("player__name", flat=True))
    finalists = set(ended.final.seats.values_list("player__name", flat=True))
    shown = screen.read(tournament).alphabetical
    assert Counter(line.name for line in shown) == Counter(finalists)
    assert {line.name for line in shown if line.is_duel} == duelists
    # The same from the window-by-window read of a big field.
    Tournament = type(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(capacity=screen.WHOLE_READ_CAPACITY + 1)
    tournament.refresh_from_db()
    assert sorted(screen.read(tournament).alphabetical) == sorted(shown)
    # The projector's page.
    page = client.get(reverse("tournament:projector", args=[tournament.public_key])).content.decode()
    alpha = page[page.index('data-view="alphabetical"') :]
    alpha = alpha[: alpha.index("</section>")]
    for name in finalists:
        assert alpha.count(f'<span class="nm">{html.escape(name)}</span>') == 1, name
    # The printed seating of the Final by name.
    seating = printing.seating(tournament, final_round.number)
    assert seating is not None
    assert sorted(line.player.name for line in seating.by_name) == sorted(finalists)
    assert {line.player.name for line in seating.by_name if line.table.is_duel} == duelists


def test_the_projector_bracket_says_table(client, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    """Main round 1's winners are listed with "Table N", never a bare number that reads as a place."""
    page = client.get(reverse("tournament:projector", args=[ended.tournament.public_key])).content.decode()
    bracket = page[page.index('data-view="bracket"') :]
    labels = re.findall(r'<span class="pj-blabel">([^<]+)</span>', bracket)
    assert labels.count("Table") >= len(Round.objects.filter(tournament=ended.tournament)) and "Duel" in labels
    assert not re.search(r"<b>\d+</b>", bracket)


def test_the_phone_page_names_the_duel_by_its_place(client, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    """A finalist who played the duel for place 2: their card says their final place once, and the
    duel's line says which place it was for (its own "place 1" would read as the final's)."""
    duel = Table.objects.get(round__tournament=ended.tournament, is_duel=True)
    seat = duel.seats.get(place=1)
    page = client.get(
        reverse("tournament:find", args=[ended.tournament.public_key]) + f"?q={seat.player.start_number}"
    ).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", html.unescape(page[page.index('id="find-results"') :])).split())
    assert "Final place: 2" in text
    assert "Final · Table 1: 0 points · place 2" in text
    won = "1 game won" if seat.games_won == 1 else f"{seat.games_won} games won"
    assert f"Final · Duel for place 2: {won}" in text and f"Duel for place 2: {won} · place" not in text


def test_the_duel_table_shows_the_places_it_decides(client, login_as, ended: Championship) -> None:  # type: ignore[no-untyped-def]
    """The referee's duel for place 2: its winner reads "place 2" and the other "place 3" (the duel's
    own places 1 and 2 read as the final's: the winner of the duel for place 2 was "place 1")."""
    duel = Table.objects.get(round__tournament=ended.tournament, is_duel=True)
    assert duel.duel_for_place == 2 and duel.seats.count() == 2
    login_as("referee", ended.tournament)
    page = client.get(url("referee_table", ended.tournament, duel.pk)).content.decode()
    seats = page[page.index('<ol class="seats">') :].split("</ol>")[0].split('<li class="seat')[1:]
    badges = {}
    for row in seats:
        name = re.search(r'<span class="seat-name">([^<]+)', row)
        assert name is not None
        badges[html.unescape(name.group(1).strip())] = re.findall(r'<span class="badge">([^<]+)</span>', row)
    winner = duel.seats.select_related("player").get(place=1).player.name
    other = duel.seats.select_related("player").get(place=2).player.name
    assert badges == {winner: ["place 2"], other: ["place 3"]}
    # The heading and the banner say which duel it is and what its winner won.
    assert "<h1>Duel for place 2</h1>" in page
    assert f"{html.escape(winner)} wins the duel for place 2." in page and "wins the table" not in page
