"""The printouts of a whole field are streamed (``tournament.streaming``): the seating by table
and A–Z, the printed ranking.

- Sent in parts: the answer is a stream whose first piece is the page's head (the print bar)
  and whose parts follow; all of the data is read before the first piece, so sending the
  parts runs no query.
- The parts are rendered in the request's language, also when another language is active
  in the thread by the time the server sends them (the view has returned by then).
- Cut into many parts (sheets and row chunks made small here), nothing is lost or doubled:
  every seat appears once, on its page of the right count, the ranking's places run 1..n
  in order.
- ``streamed_page`` refuses a template without the mark when there are parts to send.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from tournament.models import Seat, Tournament
from tournament.selectors import printing
from tournament.selectors import ranking as ranking_selectors
from tournament.streaming import streamed_page
from tournament.tests.helpers import assert_places_ranked
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    Scenario,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
    scenario_fixture,
)
from tournament.views import printing as printing_views

STREAMED = ["print_seating", "print_seating_by_name", "print_ranking"]


def decided_by(tournament: Tournament, language: str) -> set[str]:
    """The ranking's "decided by" words in ``language``."""
    with translation.override(language):
        return {str(row.decided_by_label) for row in ranking_selectors.rows(tournament) if row.decided_by_label}


def path(name: str, tournament_id: int) -> str:
    return reverse(f"tournament:{name}", args=[tournament_id, *([1] if name != "print_ranking" else [])])


@pytest.fixture(name="small_parts")
def small_parts_fixture(monkeypatch):  # type: ignore[no-untyped-def]
    """Sheets of two tables or three names and ranking parts of four rows: many parts."""
    monkeypatch.setattr(printing, "TABLES_PER_SHEET", 2)
    monkeypatch.setattr(printing, "NAMES_PER_SHEET", 3)
    monkeypatch.setattr(printing_views, "RANKING_ROWS_PER_PART", 4)


@pytest.mark.django_db
@pytest.mark.parametrize("name", STREAMED)
@pytest.mark.parametrize("fmt", FORMATS)
def test_sent_in_parts_in_the_request_language_without_queries(
    client, login_as, scenario: Scenario, name, small_parts, django_assert_num_queries
):
    tournament = scenario.tournament
    login_as("desk", tournament)
    response = client.get(path(name, tournament.pk), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and response.streaming
    pieces = iter(response.streaming_content)
    head = next(pieces).decode()
    assert 'class="print-bar no-print"' in head and tournament.name in head
    with translation.override("it"), django_assert_num_queries(0):
        rest = [piece.decode() for piece in pieces]
    assert len(rest) >= 3, "two parts or more, then the tail"
    html = head + "".join(rest)
    assert html.rstrip().endswith("</html>")
    if name == "print_ranking":
        german, english = (decided_by(tournament, language) for language in ("de", "en"))
        assert german and all(f'<td class="decided">{label}</td>' in unescape(html) for label in german)
        assert not any(f'<td class="decided">{label}</td>' in unescape(html) for label in english - german)
    else:
        assert "Seite 1 von" in html and "Page 1 of" not in html
    assert "Pagina" not in html and "Tavolo" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_many_parts_lose_and_double_nothing(client, login_as, scenario: Scenario, small_parts):
    tournament = scenario.tournament
    login_as("organiser", tournament)
    seats = Seat.objects.filter(table__round__tournament=tournament, table__round__number=1)
    expected = sorted((seat.player.name, seat.table.number, seat.position + 1) for seat in seats)

    by_name = unescape(client.get(path("print_seating_by_name", tournament.pk)).content.decode())
    lines = re.findall(
        r'<tr><td class="name">([^<]+)</td><td class="num">[^<]*</td>'
        r'<td class="num table-no">(\d+)</td><td class="num">(\d+)</td></tr>',
        by_name,
    )
    assert sorted((name, int(table), int(seat)) for name, table, seat in lines) == expected
    pages = -(-len(expected) // 3)
    assert [int(n) for n in re.findall(r"Page (\d+) of (?:\d+)", by_name)] == list(range(1, pages + 1))
    assert set(re.findall(r"Page \d+ of (\d+)", by_name)) == {str(pages)}

    by_table = unescape(client.get(path("print_seating", tournament.pk)).content.decode())
    numbers = [int(n) for n in re.findall(r"<h3>Table (\d+)", by_table)]
    assert numbers == sorted({table for _name, table, _seat in expected} | set(numbers))
    assert len(re.findall(r'<td class="name">', by_table)) == len(expected)

    ranking = client.get(path("print_ranking", tournament.pk)).content.decode()
    places = [int(n) for n in re.findall(r'<td class="num place">(\d+)</td>', ranking)]
    assert_places_ranked(places)  # every row once, in order; a tie shares its place (points, issue 28)
    assert len(places) == tournament.players.count()


@pytest.mark.django_db
def test_a_template_without_the_mark_is_refused_when_there_are_parts(tournament):
    request = RequestFactory().get("/")
    with pytest.raises(ValueError, match="stream_here"):
        streamed_page(
            request,
            "tournament/print/_sheet_head.html",
            {"tournament": tournament},
            "tournament/print/_ranking_rows.html",
            [{}],
        )
    # Without parts (a ranking without rows) the page is sent whole.
    page = streamed_page(
        request,
        "tournament/print/_sheet_head.html",
        {"tournament": tournament, "title": "T", "page": 1, "pages": 1},
        "tournament/print/_ranking_rows.html",
        [],
    )
    assert tournament.name in page.content.decode()
