"""CSV injection (``tournament.views.exports``): no cell of any export runs as a formula.

Players and clubs named like spreadsheet formulas (``=1+1``, ``@SUM(...)``,
``=HYPERLINK(...)``, ``+1``, ``-2+3``, also after spaces, a tab or a carriage
return and in full-width forms) are registered, play, and appear in
standings.csv, games.csv and the audit log's CSV. Every text cell must come out
as text (a leading apostrophe), every number the app computes as a plain number.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game
from tournament import enums
from tournament.desk import register_player
from tournament.models import Player
from tournament.tests.formats.points.helpers import round_two_under_way
from tournament.views.exports import spreadsheet_safe

pytestmark = [pytest.mark.django_db]

HOSTILE = [
    "=1+1",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    '=HYPERLINK("http://x","y")',
    "+1",
    "-2+3",
    "  =1+1",
    "\t=1+1",
    "\r=1+1",
    "＝1+1",  # full-width equals sign
    "﹢1",  # small plus sign
    "＠SUM(A1)",  # full-width commercial at
    "\n-1",
]

INTEGER = re.compile(r"-?\d+")


def runs_as_formula(cell: str) -> bool:
    """What a spreadsheet program would evaluate (an independent reading of OWASP's rule)."""
    if INTEGER.fullmatch(cell):
        return False  # a plain number, not a formula
    if cell[:1] in ("\t", "\r"):
        return True
    first = cell.lstrip()[:1]
    return first != "" and unicodedata.normalize("NFKC", first)[0] in "=+-@"


def read_csv(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    text = response.content.decode("utf-8").removeprefix("\ufeff")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))


def assert_safe(rows: list[list[str]]) -> None:
    unsafe = [cell for row in rows for cell in row if runs_as_formula(cell)]
    assert unsafe == []


@pytest.fixture
def hostile(client, staff_user):  # type: ignore[no-untyped-def]
    """A points tournament in round 2 whose 12 players and clubs are named like formulas, one more
    registered through the desk (its audit entry names it), games entered by a user named like one
    (a negative number the app writes stays a number: ``spreadsheet_safe``'s cases below)."""
    tournament, _table = round_two_under_way()
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    for player, name, club in zip(players, HOSTILE, reversed(HOSTILE), strict=True):
        Player.objects.filter(pk=player.pk).update(name=name, club=club)
    register_player(tournament=tournament, actor=None, name="=2+2", club="@club", contact="-1")
    evil = get_user_model().objects.create_user(username="=cmd", password="pw-for-tests-123")
    Game.objects.filter(table__round__tournament=tournament).update(entered_by=evil)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    return client, tournament


def test_standings_csv_writes_formula_names_as_text_and_numbers_as_numbers(hostile):  # type: ignore[no-untyped-def]
    client, tournament = hostile
    header, *rows = read_csv(client.get(reverse("tournament:export_standings", args=[tournament.pk])))
    assert_safe([header, *rows])
    column = {label: index for index, label in enumerate(header)}
    names = [row[column["Name"]] for row in rows]
    assert "'=1+1" in names and "'-2+3" in names and "'\t=1+1" in names and "'＝1+1" in names
    assert {row[column["Club"]] for row in rows} >= {"'+1", "'@SUM(1+1)*cmd|' /C calc'!A0"}
    for label in ("Place", "Start number", "Penalty points", "Games won", "Games played"):
        assert all(INTEGER.fullmatch(row[column[label]]) for row in rows), label


def test_games_csv_writes_formula_names_as_text_and_numbers_as_numbers(hostile):  # type: ignore[no-untyped-def]
    client, tournament = hostile
    header, *rows = read_csv(client.get(reverse("tournament:export_games", args=[tournament.pk])))
    assert_safe([header, *rows])
    column = {label: index for index, label in enumerate(header)}
    names = {row[column["Name"]] for row in rows}
    assert names == {"'" + name for name in HOSTILE}
    assert {row[column["Entered by"]] for row in rows} == {"'=cmd"}
    # The points format's cards are said as cards ("2×7, 1×+2": never read as a formula), or not at all.
    cards = [row[column["Cards"]] for row in rows]
    assert any("×" in value for value in cards)
    assert all(re.fullmatch(r"\d+×[^,]+(, \d+×[^,]+)*", value) for value in cards if value)
    for label in ("Round", "Table", "Game", "Start number", "Points"):
        assert all(INTEGER.fullmatch(row[column[label]]) for row in rows), label


def test_audit_csv_writes_formula_names_as_text(hostile):  # type: ignore[no-untyped-def]
    client, tournament = hostile
    header, *rows = read_csv(client.get(reverse("tournament:audit_csv", args=[tournament.pk])))
    assert_safe([header, *rows])
    column = {label: index for index, label in enumerate(header)}
    assert any(row[column["Description"]].startswith("'=2+2 registered.") for row in rows)
    assert "'=2+2" in {row[column["Player"]] for row in rows}


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@A1", "'@A1"),
        ("\t1", "'\t1"),
        ("\r1", "'\r1"),
        (" \u3000=1", "' \u3000=1"),  # ideographic space before the sign
        ("＝1", "'＝1"),
        ("－1", "'－1"),
        ("﹫x", "'﹫x"),
        ("'=1", "'=1"),  # already escaped: left alone
        ("Anna-Lena", "Anna-Lena"),
        ("1-2", "1-2"),
        ("", ""),
        (None, ""),
        (-5, -5),
        (0, 0),
        (2.5, 2.5),
        (Decimal("-1.5"), Decimal("-1.5")),
    ],
)
def test_spreadsheet_safe(value: object, written: object) -> None:
    assert spreadsheet_safe(value) == written
