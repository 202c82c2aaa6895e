"""The knockout ranking as the documents rank (issue 26): columns that read right for each stage.

A finished championship whose final to 100 points left two players tied on 30, and a duel
decided their order. The finalists show the final's points and the duel ("won the duel for
place 2"), not the games won at the final (the final is ordered by points: 4 / 1 / 2 games won
for places 1 / 2 / 3 read as wrong); everyone else the round they reached ("Main round 2", as
every page names it) and the games won at the table where they went out. The same on the
ranking page, the standings CSV, api.json, the projector's podium and the phone page, in
English and in German. A final to wins shows the games won in the final and no points column;
a final without a tie has no duel column.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournament import enums
from tournament.models import Player, Seat, Tournament
from tournament.tests.formats.knockout import arrange
from tournament.tests.helpers import url

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def words(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def ranking_table(page: str) -> tuple[list[str], dict[int, list[str]]]:
    """The ranking page's column headings and, by player id, the cells of each row."""
    table = page.split('<table class="list" id="ranking">', 1)[1].split("</table>", 1)[0]
    heads = [words(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", table.split("</thead>")[0], re.S)]
    rows = {
        int(pk): [words(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for pk, row in re.findall(r'<tr id="player-(\d+)"[^>]*>(.*?)</tr>', table, re.S)
    }
    return heads, rows


def went_out(tournament: Tournament) -> dict[int, tuple[str, int]]:
    """Each player's last table outside the duels: its round's name and the games won there."""
    last: dict[int, tuple[str, int]] = {}
    for seat in (
        Seat.objects.filter(table__round__tournament=tournament, table__is_duel=False)
        .select_related("table__round")
        .order_by("table__round__number")
    ):
        last[seat.player_id] = (str(seat.table.round), seat.games_won)
    return last


@pytest.fixture
def finished() -> arrange.Final:
    return arrange.finished_with_duel(9)


@pytest.fixture
def organiser(client: Client, staff_user, finished: arrange.Final) -> Client:  # type: ignore[no-untyped-def]
    client.force_login(staff_user(finished.tournament, enums.Role.ORGANISER))
    return client


def test_the_ranking_page_reads_right_for_each_stage(organiser, finished):
    tournament = finished.tournament
    a, b, c = finished.players
    heads, rows = ranking_table(organiser.get(url("ranking", tournament)).content.decode())
    assert heads == ["Place", "No.", "Name", "Reached", "Points in the final", "Games won", "Duel", "Decided by"]
    number = {p.pk: str(p.start_number) for p in Player.objects.filter(tournament=tournament)}
    # The podium: the final's points, no games won, the duel that decided places 2 and 3.
    assert rows[a][:1] + rows[a][3:] == ["1", "Final", "120", "–", "", ""]
    assert rows[c][:1] + rows[c][3:] == ["2", "Final", "30", "–", "won the duel for place 2", "result in the final"]
    assert rows[b][:1] + rows[b][3:] == ["3", "Final", "30", "–", "lost the duel for place 2", "tie in the final: duel"]
    # Everyone else: the round reached and the games won at the table where they went out.
    out = went_out(tournament)
    others = [pk for pk in rows if pk not in (a, b, c)]
    assert len(others) == 6
    for pk in others:
        _place, start, _name, reached, points, won, duel, _rule = rows[pk]
        assert start == number[pk]
        assert (reached, points, won, duel) == (out[pk][0], "–", str(out[pk][1]), "")
        assert reached in ("Main round 2", "Lucky-loser round", "Main round 1")
    assert sorted(int(row[0]) for row in rows.values()) == list(range(1, 10))


def test_the_csv_and_api_json_carry_the_same(organiser, finished):
    tournament = finished.tournament
    a, b, c = finished.players
    response = organiser.get(url("export_standings", tournament))
    body = b"".join(response.streaming_content).decode("utf-8").removeprefix("\ufeff")
    header, *lines = csv.reader(io.StringIO(body), delimiter=";")
    assert header == [
        "Place",
        "Start number",
        "Name",
        "Club",
        "Reached",
        "Points in the final",
        "Games won",
        "Duel",
        "Decided by",
    ]
    by_name = {line[2]: line for line in lines}
    name = {p.pk: p.name for p in Player.objects.filter(tournament=tournament)}
    assert by_name[name[a]][4:] == ["Final", "120", "", "", ""]
    assert by_name[name[c]][4:] == ["Final", "30", "", "won the duel for place 2", "result in the final"]
    assert by_name[name[b]][4:] == ["Final", "30", "", "lost the duel for place 2", "tie in the final: duel"]
    out = went_out(tournament)
    for pk, (reached, won) in out.items():
        if pk not in (a, b, c):
            assert by_name[name[pk]][4:8] == [reached, "", str(won), ""]

    document = json.loads(organiser.get(reverse("tournament:api", args=[tournament.public_key])).content)
    standings = {row["name"]: row for row in document["standings"]}
    assert standings[name[a]] == {
        "place": 1,
        "start_number": Player.objects.get(pk=a).start_number,
        "name": name[a],
        "decided_by": "",
        "reached": "final",
        "final_points": 120,
        "games_won": None,
        "duel": None,
    }
    assert standings[name[c]]["duel"] == {"for_place": 2, "won": True}
    assert standings[name[b]]["duel"] == {"for_place": 2, "won": False}
    assert (standings[name[c]]["final_points"], standings[name[b]]["final_points"]) == (30, 30)
    assert (standings[name[c]]["decided_by"], standings[name[b]]["decided_by"]) == ("final_place", "duel")
    for pk, (_reached, won) in out.items():
        if pk not in (a, b, c):
            row = standings[name[pk]]
            assert (row["final_points"], row["games_won"], row["duel"]) == (None, won, None)
            assert row["reached"] in ("main", "lucky_loser")


def test_the_podium_and_the_phone_say_the_points_and_the_duel(client, finished):
    tournament = finished.tournament
    a, b, c = finished.players
    screen = client.get(reverse("tournament:projector_screen", args=[tournament.public_key]) + "?lang=en")
    results = [words(piece) for piece in re.findall(r'<div class="step-result">(.*?)</div>', screen.content.decode())]
    assert results == ["120 points", "30 points · won the duel for place 2", "30 points · lost the duel for place 2"]
    found = client.get(
        reverse("tournament:find", args=[tournament.public_key]),
        {"q": str(Player.objects.get(pk=c).start_number)},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = words(found.content.decode())
    assert "Final place: 2 30 points · won the duel for place 2" in text
    out = went_out(tournament)
    other = next(pk for pk in out if pk not in (a, b, c))
    player = Player.objects.get(pk=other)
    found = client.get(reverse("tournament:find", args=[tournament.public_key]), {"q": str(player.start_number)})
    assert f"{out[other][0]} · {out[other][1]} game" in words(found.content.decode())


def test_in_german(client, staff_user, finished):
    tournament = finished.tournament
    _a, b, c = finished.players
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    page = client.get(url("ranking", tournament), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    heads, rows = ranking_table(page)
    assert heads == [
        "Platz",
        "Nr.",
        "Name",
        "Erreicht",
        "Punkte im Finale",
        "Gewonnene Spiele",
        "Stechen",
        "Entscheidung durch",
    ]
    assert rows[c][3:6] == ["Finale", "30", "–"] and rows[c][6] == "Stechen um Platz 2 gewonnen"
    assert rows[b][6] == "Stechen um Platz 2 verloren"
    assert any(row[3] == "Hauptrunde 2" for row in rows.values())
    screen = client.get(reverse("tournament:projector_screen", args=[tournament.public_key]) + "?lang=de")
    results = [words(piece) for piece in re.findall(r'<div class="step-result">(.*?)</div>', screen.content.decode())]
    assert results == [
        "120 Punkte",
        "30 Punkte · Stechen um Platz 2 gewonnen",
        "30 Punkte · Stechen um Platz 2 verloren",
    ]


def test_a_final_to_wins_without_a_tie(client, staff_user):
    final = arrange.up_to_the_final(9, to_wins=True, target=2)
    tournament = final.tournament
    a, b, c = final.players
    for winner in (b, a, a):
        arrange.win(tournament, final.table, winner)
    arrange.close(final)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    heads, rows = ranking_table(client.get(url("ranking", tournament)).content.decode())
    # No points column (a final to wins counts none), no duel column (no tie needed one).
    assert heads == ["Place", "No.", "Name", "Reached", "Games won", "Decided by"]
    assert [rows[pk][:1] + rows[pk][3:5] for pk in (a, b, c)] == [
        ["1", "Final", "2"],
        ["2", "Final", "1"],
        ["3", "Final", "0"],
    ]


def test_the_printed_ranking_says_the_points_and_the_duel_once(organiser, finished):
    """The printout's box above the table holds the final's points and the duel: its table leaves
    those columns out (on A4 the names keep their width)."""
    tournament = finished.tournament
    page = b"".join(organiser.get(url("print_ranking", tournament)).streaming_content).decode()
    table = page.split('id="print-ranking"', 1)[1]
    heads = [words(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", table.split("</thead>")[0], re.S)]
    assert heads == ["Place", "No.", "Name", "Reached", "Games won", "Decided by"]
    box = words(page.split('<section class="ranking-final">', 1)[1].split("</section>", 1)[0])
    assert "Points in the final (to 100)" in box and "120 points" in box and "Duel for place 2:" in box
