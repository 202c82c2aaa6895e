"""The CSV import against hostile and odd input (``tournament.desk.registration``, the import page).

Files as spreadsheet programs really save them (UTF-16 "Unicode text" with tabs,
UTF-8 with a byte order mark, Windows-1252, Mac Roman) import with their umlauts;
files that are no CSV (an image, an xlsx, binary bytes), too large, NUL bytes,
an open quote, 50 columns, a 10,000-character name, an empty upload: each gives a
translated message on the page (422) and saves nothing, never a 500. And an import
writes in bulk: the same queries for 50 rows as for 10,000.
"""

from __future__ import annotations

import random
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournament import enums
from tournament.desk import registration
from tournament.errors import ServiceError
from tournament.models import AuditEntry, Player
from tournament.selectors import desk as desk_selectors
from tournament.tests.desk.helpers import snapshot
from tournament.tests.factories import TournamentFactory
from tournament.tests.helpers import url

pytestmark = pytest.mark.core

Status = enums.PlayerStatus

UMLAUTS = "Name;Verein\r\nJosef Höller;TSV Groß-Umstadt\r\nÄnne Süß;Café „Zur Post“\r\n"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
XLSX = b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00" + b"[Content_Types].xml" + bytes(range(256))


def unicode_text(text: str, encoding: str) -> bytes:
    """Excel's "Unicode text": UTF-16 with a byte order mark, tab separated."""
    mark = b"\xff\xfe" if encoding == "utf-16-le" else b"\xfe\xff"
    return mark + text.replace(";", "\t").encode(encoding)


# --- decoding ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(unicode_text(UMLAUTS, "utf-16-le"), id="utf-16-le"),
        pytest.param(unicode_text(UMLAUTS, "utf-16-be"), id="utf-16-be"),
        pytest.param(b"\xef\xbb\xbf" + UMLAUTS.encode(), id="utf-8-bom"),
        pytest.param(UMLAUTS.encode(), id="utf-8"),
        pytest.param(UMLAUTS.encode("cp1252"), id="cp1252"),
        pytest.param(UMLAUTS.replace("„Zur Post“", "Zur Post").encode("latin-1"), id="latin-1"),
        pytest.param(UMLAUTS.replace("\r\n", "\r").encode("mac_roman"), id="mac-roman"),
    ],
)
def test_every_encoding_a_spreadsheet_saves_reads_the_umlauts(raw: bytes) -> None:
    report = registration.parse_player_csv(registration.decode_player_csv(raw), set())
    assert report.errors == []
    assert (report.rows[0].name, report.rows[0].club) == ("Josef Höller", "TSV Groß-Umstadt")
    assert report.rows[1].name == "Änne Süß"


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(PNG, id="png"),
        pytest.param(XLSX, id="xlsx"),
        pytest.param(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512), id="xls"),
        pytest.param(b"%PDF-1.7\n" + bytes(100), id="pdf"),
        pytest.param(random.Random(1).randbytes(5000), id="random-bytes"),
        pytest.param("Anna;TSV\nBernd;TSV\n".encode("utf-16-le"), id="utf-16-without-mark"),
        pytest.param(b"\xff\xfeA\x00n\x00n", id="utf-16-cut-in-half"),
    ],
)
def test_a_file_that_is_no_csv_is_refused_saying_to_save_as_csv(raw: bytes) -> None:
    with pytest.raises(ServiceError) as refused:
        registration.decode_player_csv(raw)
    assert "CSV" in refused.value.message and "Save as" in refused.value.message


def test_a_stray_nul_byte_is_left_for_the_parse_to_report() -> None:
    text = registration.decode_player_csv(b"Anna;TSV\nBe\x00rnd;TSV\nCarla;TSV\n")
    report = registration.parse_player_csv(text, set())
    assert report.bad_lines == [2]
    assert "NUL" in dict(report.errors)[2]
    assert [row.name for row in report.rows] == ["Anna", "Carla"]


# --- parsing ----------------------------------------------------------------------------------


def test_tab_separated_with_commas_in_the_cells() -> None:
    """As many commas as tabs: the tab wins (Excel's "Unicode text" with "Last, First" names)."""
    report = registration.parse_player_csv("Name\tVerein\nHöller, Josef\tTSV Nord, e.V.\n", set())
    assert [(row.name, row.club) for row in report.rows] == [("Höller, Josef", "TSV Nord, e.V.")]


@pytest.mark.parametrize("bad", ["\x00", "\ufffd"])
def test_a_nul_or_unreadable_character_anywhere_in_a_row_makes_it_bad(bad: str) -> None:
    report = registration.parse_player_csv(f"Anna;TSV\nBernd;TSV{bad}\n;;x{bad}\nCarla\n", set())
    assert report.bad_lines == [2, 3]
    assert [row.name for row in report.rows] == ["Anna", "Carla"]


def test_a_quote_left_open_swallowing_lines_is_reported() -> None:
    report = registration.parse_player_csv('Anna;TSV\n"Bernd;TSV\nCarla;TSV\n', set())
    assert report.bad_lines == [2]
    assert "quote" in report.errors[0][1]


def test_more_players_than_the_limit_is_an_error_for_the_whole_file() -> None:
    rows = [f"P{n}" for n in range(registration.MAX_IMPORT_ROWS + 1)]
    report = registration.parse_player_csv("Name\n" + "\n".join(rows) + "\n", set())
    assert report.rows == []
    assert len(report.errors) == 1
    assert str(registration.MAX_IMPORT_ROWS) in report.errors[0][1]
    exactly = registration.parse_player_csv("\n".join(rows[:-1]), set())
    assert len(exactly.rows) == registration.MAX_IMPORT_ROWS and exactly.errors == []


# --- the bulk import --------------------------------------------------------------------------


def player_lines(count: int) -> str:
    return "".join(f"Player {n:05d};Club {n % 50};p{n}@example.org\n" for n in range(count))


def shape(queries: list[dict[str, str]]) -> list[str]:
    """The queries in order, each INSERT as its table only, runs of one table's INSERTs as one
    (on SQLite ``bulk_create`` splits a bulk insert under its limit of variables per query)."""
    shapes: list[str] = []
    for query in queries:
        sql = query["sql"]
        insert = re.match(r'INSERT INTO "?(\w+)"?', sql)
        # Literals differ between two tournaments (their ids, the savepoints' names): compare the rest.
        literals = re.sub(r"\b\d+\b", "N", re.sub(r"'(?:[^']|'')*'", "S", sql))
        current = f"INSERT {insert.group(1)}" if insert else re.sub(r'"?s\w*_x\w*"?', "SP", literals)
        if not (insert and shapes and shapes[-1] == current):
            shapes.append(current)
    return shapes


def test_an_import_takes_the_same_queries_for_50_rows_as_for_10000(db, django_user_model) -> None:  # type: ignore[no-untyped-def]
    actor = django_user_model.objects.create_user("desk-bulk")

    def queries(count: int) -> list[dict[str, str]]:
        tournament = TournamentFactory(capacity=count // 2)  # half of them on the waiting list
        with CaptureQueriesContext(connection) as captured:
            report = registration.import_players_csv(tournament=tournament, actor=actor, text=player_lines(count))
        assert (report.imported, report.waitlisted) == (count, count - count // 2)
        return captured.captured_queries

    few, many = queries(50), queries(10_000)
    assert shape(few) == shape(many)
    if connection.vendor == "postgresql":  # one INSERT per table, whatever the count
        assert len(few) == len(many)


def test_a_bulk_import_audits_each_player_and_keeps_the_file_order_on_the_waiting_list(small, desk) -> None:  # type: ignore[no-untyped-def]
    registration.register_player(tournament=small, actor=desk, name="Already Here")
    report = registration.import_players_csv(tournament=small, actor=desk, text="Emil\nDora\nCarla\nBernd\n")
    assert (report.imported, report.waitlisted) == (4, 2)
    assert [p.name for p in desk_selectors.waiting_list(small)] == ["Carla", "Bernd"]
    entries = AuditEntry.objects.filter(
        tournament=small, action="player_registered", player__name__in=["Emil", "Bernd"]
    )
    assert {(e.player.name, e.actor, e.detail["waiting"], e.detail["name"]) for e in entries} == {
        ("Emil", desk, False, "Emil"),
        ("Bernd", desk, True, "Bernd"),
    }
    assert AuditEntry.objects.filter(tournament=small, action="players_imported").count() == 1


# --- the import page: every bad upload is a message, nothing saved, never a 500 ---------------


def upload(client, tournament, content: bytes | None, name: str = "players.csv", **extra: str):  # type: ignore[no-untyped-def]
    data: dict[str, object] = dict(extra)
    if content is not None:
        data["file"] = SimpleUploadedFile(name, content)
    return client.post(url("import", tournament), data)


BAD_UPLOADS = {
    "no file": (None, "This field is required"),
    "empty file": (b"", "The submitted file is empty"),
    "only blank lines": (b"\r\n \r\n", "The file is empty"),
    "only a header": (b"Name;Verein;Kontakt\r\n", "The file holds no players"),
    "50 columns": (b"Anna;TSV\r\n" + b";".join([b"x"] * 50) + b"\r\n", "50 columns, at most 3 expected"),
    "a name of 10,000 characters": (b"Anna\r\n" + b"x" * 10_000 + b"\r\n", "The name is longer than 120 characters"),
    "a quote left open": (b'Anna;TSV\r\n"Bernd;TSV\r\nCarla;TSV\r\n', "is a quote left open?"),
    "a quote left open over a huge cell": (b'Anna\n"' + b"x" * 200_000 + b"\n", "a cell is far too long"),
    "a NUL byte": (b"Anna;TSV\r\nBernd\x00;TSV\r\n", "NUL byte"),
    "a png": (PNG, "This is not a CSV file"),
    "an xlsx": (XLSX, "This is not a CSV file"),
    "random bytes": (random.Random(2).randbytes(3000), "This is not a CSV file"),
    "larger than 1 MB": (b"Anna;TSV\r\n" * 110_000, "larger than 1 MB"),
    "too many players": (
        "".join(f"P{n}\n" for n in range(registration.MAX_IMPORT_ROWS + 1)).encode(),
        f"more than {registration.MAX_IMPORT_ROWS} players",
    ),
}


# Bad files with a good row beside the bad one: "import only the good rows" imports that row.
WITH_GOOD_ROWS = {"50 columns", "a name of 10,000 characters", "a quote left open", "a NUL byte"}


@pytest.mark.parametrize(
    ("case", "skip_bad_rows"),
    [(case, False) for case in sorted(BAD_UPLOADS)]
    + [(case, True) for case in sorted(BAD_UPLOADS) if case not in WITH_GOOD_ROWS],
)
def test_every_bad_upload_is_a_message_and_saves_nothing(desk_client, tournament, case, skip_bad_rows) -> None:  # type: ignore[no-untyped-def]
    content, message = BAD_UPLOADS[case]
    state = snapshot(tournament)
    response = upload(desk_client, tournament, content, **({"skip_bad_rows": "on"} if skip_bad_rows else {}))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert snapshot(tournament) == state


def test_skipping_bad_rows_imports_the_good_rows_beside_a_nul_byte(desk_client, tournament) -> None:  # type: ignore[no-untyped-def]
    response = upload(desk_client, tournament, b"Anna;TSV\r\nBernd\x00;TSV\r\nCarla;TSV\r\n", skip_bad_rows="on")
    assert response.status_code == 302
    assert sorted(Player.objects.filter(tournament=tournament).values_list("name", flat=True)) == ["Anna", "Carla"]


def test_the_second_step_with_the_nul_row_sent_back_imports_only_the_good_rows(desk_client, tournament) -> None:  # type: ignore[no-untyped-def]
    """The page sends the checked text back in a hidden field; the browser turns the NUL into U+FFFD."""
    first = upload(desk_client, tournament, b"Anna;TSV\r\nBernd\x00;TSV\r\n")
    assert first.status_code == 422 and 'enctype="multipart/form-data"' in first.content.decode()
    response = desk_client.post(url("import", tournament), {"text": "Anna;TSV\r\nBernd\ufffd;TSV\r\n"})
    assert response.status_code == 302
    assert list(Player.objects.filter(tournament=tournament).values_list("name", flat=True)) == ["Anna"]


@pytest.mark.parametrize("text", ["", "  \r\n"])
def test_a_second_step_without_the_text_is_a_message_and_saves_nothing(desk_client, tournament, text) -> None:  # type: ignore[no-untyped-def]
    state = snapshot(tournament)
    response = desk_client.post(url("import", tournament), {"text": text, "skip_bad_rows": "on"})
    assert response.status_code == 422
    assert "upload the file again" in response.content.decode()
    assert snapshot(tournament) == state


def test_a_second_step_with_a_nul_character_is_refused_and_saves_nothing(desk_client, tournament) -> None:  # type: ignore[no-untyped-def]
    """Never sent by the page (the browser makes U+FFFD of it): refused by the site's NUL guard
    (config.middleware, 400) or, without it, by the form (422); never a 500."""
    state = snapshot(tournament)
    response = desk_client.post(url("import", tournament), {"text": "Anna;TSV\r\nBe\x00rnd;TSV\r\n"})
    assert response.status_code in (400, 422)
    assert snapshot(tournament) == state


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(unicode_text(UMLAUTS, "utf-16-le"), id="utf-16-le"),
        pytest.param(unicode_text(UMLAUTS, "utf-16-be"), id="utf-16-be"),
        pytest.param(b"\xef\xbb\xbf" + UMLAUTS.encode(), id="utf-8-bom"),
        pytest.param(UMLAUTS.encode("cp1252"), id="cp1252"),
    ],
)
def test_upload_in_every_encoding_imports_the_umlauts(desk_client, tournament, raw) -> None:  # type: ignore[no-untyped-def]
    response = upload(desk_client, tournament, raw, name="players.txt")
    assert response.status_code == 302
    assert set(Player.objects.filter(tournament=tournament).values_list("name", "club")) == {
        ("Josef Höller", "TSV Groß-Umstadt"),
        ("Änne Süß", "Café „Zur Post“"),
    }


@pytest.mark.slow  # the SQLite smoke run keeps the query-shape test of 10,000 rows above
def test_an_upload_of_10000_rows_imports_every_player(desk_client, tournament) -> None:  # type: ignore[no-untyped-def]
    response = upload(desk_client, tournament, ("Name;Verein;Kontakt\n" + player_lines(10_000)).encode())
    assert response.status_code == 302
    assert Player.objects.filter(tournament=tournament).count() == 10_000
    assert Player.objects.filter(tournament=tournament, status=Status.REGISTERED).count() == tournament.capacity
    assert AuditEntry.objects.filter(tournament=tournament, action="player_registered").count() == 10_000


def test_a_finished_tournament_takes_no_import(tournament) -> None:
    """Like a single registration: a finished tournament is closed to newcomers."""
    from tournament import desk
    from tournament.models import Player, Tournament

    Tournament.objects.filter(pk=tournament.pk).update(status=enums.TournamentStatus.FINISHED)
    tournament.refresh_from_db()
    report = desk.import_players_csv(tournament=tournament, actor=None, text="name\nLate Larry\n")
    assert report.errors == [(0, "The tournament is finished; no more registrations.")]
    assert not report.applied
    assert not Player.objects.filter(tournament=tournament).exists()
