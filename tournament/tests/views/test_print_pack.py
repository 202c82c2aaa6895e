"""The print pack (``views.printing``): who may print, what each printable holds, what it costs.

- Roles: the desk and the organiser (and a superuser) print; a referee, staff of
  another tournament and users without a role get 403; anonymous users are sent
  to the login page. A round the tournament does not have (999, one only another
  tournament has, a number too big for the column) is 404, never 500.
- Contents: a result slip per table with the tournament, the round, each player's
  name and start number, one line per game the table can take at most (asked of
  the format's record and the table), a signature line for the referee and each
  player; the seating of a round by table and by name; the final ranking with the
  tournament's name, date and venue, the final's points and the duel that decided
  a tie.
- Query counts: every page costs the same pinned number of queries for a finished
  tournament of 9 and of 24 players, in every format.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import formats

from tournament import enums, simulation
from tournament.formats import registry
from tournament.formats.knockout import services as knockout
from tournament.models import Round, Seat, Table, Tournament
from tournament.play import results
from tournament.selectors import printing
from tournament.tests.helpers import OUTSIDERS, count_queries, field_at_once, refreshed, tied_final
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    Scenario,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
    scenario_fixture,
    snapshot,
)

KNOCKOUT, LIFE_BANDS, POINTS = enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS
ROUND_PAGES = ["print_table_cards", "print_seating", "print_seating_by_name", "print_result_slips"]
PAGES = ["print_pack", *ROUND_PAGES, "print_ranking"]
PRINTERS = ["desk", "organiser", "superuser"]
WHO = [*PRINTERS, "referee", *(who for who in OUTSIDERS if who not in PRINTERS), "anonymous"]


def path(name: str, tournament: Tournament, round_number: int = 1) -> str:
    args: list[object] = [tournament.pk]
    if name in ROUND_PAGES:
        args.append(round_number)
    return reverse(f"tournament:{name}", args=args)


def slips(html: str) -> dict[int, str]:
    """Each result slip's HTML by its table number."""
    parts = re.split(r'<section class="sheet slip[^"]*" id="slip-(\d+)">', html)
    return {int(number): body.split("</section>", 1)[0] for number, body in zip(parts[1::2], parts[2::2], strict=True)}


def game_lines(slip: str) -> int:
    return len(re.findall(r'<th class="slip-game" scope="row">\d+</th>', slip))


# --------------------------------------------------------------------------
# Roles and bad ids (tournaments in play: ``scenarios``)
# --------------------------------------------------------------------------


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_who_may_print(client, login_as, scenario: Scenario, name, who):
    tournament = scenario.tournament
    if who != "anonymous":
        login_as(who, tournament)  # staff of another tournament: creates that tournament
    before = snapshot()
    response = client.get(path(name, tournament))
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    elif who in PRINTERS:
        assert response.status_code == 200
        assert tournament.name in response.content.decode()
    else:
        assert response.status_code == 403
    assert snapshot() == before, "printing writes nothing"


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("name", ROUND_PAGES)
@pytest.mark.parametrize("fmt", [KNOCKOUT])
def test_a_round_the_tournament_does_not_have_is_404(client, login_as, scenario: Scenario, name):
    login_as("organiser", scenario.tournament)
    for number in (999, 0, 2**40):
        assert client.get(path(name, scenario.tournament, number)).status_code == 404, number
    # Round 1 exists in the tournament in play, not in ``ready`` (nothing seated yet): its organiser gets 404.
    login_as("organiser", scenario.ready)
    assert client.get(path(name, scenario.ready, 1)).status_code == 404


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("name", PAGES)
def test_an_unknown_tournament_is_404(client, login_as, tournament, name):
    login_as("superuser", tournament)
    assert (
        client.get(reverse(f"tournament:{name}", args=[999_999, *([1] if name in ROUND_PAGES else [])])).status_code
        == 404
    )


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_pack_lists_every_printable(client, login_as, scenario: Scenario):
    tournament = scenario.tournament
    login_as("desk", tournament)
    html = client.get(path("print_pack", tournament)).content.decode()
    for name in ROUND_PAGES:
        assert f'href="{path(name, tournament, 1)}"' in html, name
    assert f'href="{reverse("tournament:print_cards", args=[tournament.pk])}"' in html
    assert f'href="{path("print_ranking", tournament)}"' in html
    empty = client.get(path("print_pack", scenario.ready))
    assert empty.status_code == 403  # the desk clerk holds no role in ``ready``
    login_as("organiser", scenario.ready)
    assert "No round is seated yet" in client.get(path("print_pack", scenario.ready)).content.decode()


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_desk_and_rounds_pages_link_to_the_pack(client, login_as, scenario: Scenario):
    tournament = scenario.tournament
    login_as("organiser", tournament)
    link = f'href="{path("print_pack", tournament)}"'
    assert link in client.get(reverse("tournament:desk", args=[tournament.pk])).content.decode()
    assert link in client.get(reverse("tournament:rounds", args=[tournament.pk])).content.decode()


# --------------------------------------------------------------------------
# Contents
# --------------------------------------------------------------------------

# What a table of three in round 1 records on paper, and how many games it can take at most:
# knockout first to 3 wins (2 + 2 + 2 short, then the decider), life bands 2 chips each (the last
# one in keeps a chip), points 3 games a round.
SLIP_OF_THREE = {
    KNOCKOUT: ("Each game: a cross in the winner's box.", 7),
    LIFE_BANDS: ("Each game: a cross in the box of the player who lost it (one chip handed in).", 5),
    POINTS: ("Each game: circle the winner's box and write the card points counted in the boxes.", 3),
}


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_result_slip_per_table(client, login_as, scenario: Scenario):
    tournament = scenario.tournament
    Tournament.objects.filter(pk=tournament.pk).update(venue="Hallenbad Eggenberg")
    login_as("desk", tournament)
    html = client.get(path("print_result_slips", tournament)).content.decode()
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=1).order_by("number"))
    by_table = slips(html)
    assert sorted(by_table) == [table.number for table in tables]
    how, lines = SLIP_OF_THREE[scenario.fmt]
    for table in tables:
        slip = by_table[table.number]
        seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
        assert len(seats) == 3
        assert tournament.name in slip and "Hallenbad Eggenberg" in slip
        assert f"Table {table.number}" in slip and str(table.round) in slip
        for seat in seats:
            assert (
                f'<span class="slip-no">{seat.player.start_number}</span><span class="name">{seat.player.name}</span>'
                in slip
            )
        assert how in unescape(slip)
        assert game_lines(slip) == lines
        # One box per player in each game line, and a signature for the referee and each player.
        assert slip.count("<td></td>") == 3 * (lines + 2)
        assert slip.count('class="slip-signature"') == 1 + len(seats)
        assert "Referee" in slip


@pytest.mark.django_db
def test_a_final_to_points_has_open_lines_and_a_duel_has_one():
    tournament, final, _players = tied_final()
    rnd = printing.round_with_tables(tournament, final.round.number)
    assert rnd is not None
    slip_of = {slip.table.is_duel: slip for slip in printing.result_slips(tournament, rnd)}
    assert slip_of[False].records == printing.RECORDS_CARD_POINTS
    assert slip_of[False].continued and len(slip_of[False].games) == printing.SLIP_LINES
    assert slip_of[True].records == printing.RECORDS_WINS
    assert len(slip_of[True].games) == 1 and not slip_of[True].continued  # two players, first to 1 win


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("fmt", [KNOCKOUT])
def test_a_long_match_fills_the_slip_and_goes_on_on_the_back(client, login_as, scenario: Scenario):
    """First to 9 wins at a table of three can take 25 games: the slip keeps to its page."""
    tournament = scenario.tournament
    Table.objects.filter(round__tournament=tournament).update(wins_needed=9)
    login_as("desk", tournament)
    html = client.get(path("print_result_slips", tournament)).content.decode()
    by_table = slips(html)
    assert len(by_table) == 3
    for slip in by_table.values():
        assert game_lines(slip) == printing.SLIP_LINES
        assert "More games: go on on the back of this slip." in slip


@pytest.mark.core
@pytest.mark.django_db
@pytest.mark.parametrize("fmt", [KNOCKOUT])
def test_the_seating_by_table_and_by_name(client, login_as, scenario: Scenario):
    tournament = scenario.tournament
    login_as("desk", tournament)
    by_table = client.get(path("print_seating", tournament)).content.decode()
    by_name = client.get(path("print_seating_by_name", tournament)).content.decode()
    seats = list(
        Seat.objects.filter(table__round__tournament=tournament, table__round__number=1).select_related(
            "player", "table"
        )
    )
    assert len(seats) == 9
    for seat in seats:
        assert seat.player.name in by_table
    rows = re.findall(
        r'<tr><td class="name">([^<]+)</td><td class="num">(\d+)</td><td class="num table-no">(\d+)</td>'
        r'<td class="num">(\d+)</td></tr>',
        by_name,
    )
    expected = sorted(seats, key=lambda seat: (seat.player.name.casefold(), seat.player.start_number))
    assert rows == [
        (seat.player.name, str(seat.player.start_number), str(seat.table.number), str(seat.position + 1))
        for seat in expected
    ]


@pytest.mark.django_db
def test_the_final_ranking_names_the_tournament_the_final_points_and_the_duel(client, login_as):
    tournament, final, (a, b, c) = tied_final()
    Tournament.objects.filter(pk=tournament.pk).update(venue="Hallenbad Eggenberg")
    duel = Table.objects.get(round=final.round, is_duel=True)
    login_as("desk", tournament)
    html = client.get(path("print_ranking", tournament)).content.decode()
    assert "Duel for place 2:" in html and "still playing" in html
    results.set_first_dealer(
        tournament=tournament, actor=None, table_id=duel.pk, player_id=c, version=refreshed(duel).version
    )
    knockout.record_game(
        tournament=tournament,
        actor=None,
        table_id=duel.pk,
        winner_id=c,
        version=refreshed(duel).version,
        idempotency_key="duel-1",
    )
    html = client.get(path("print_ranking", tournament)).content.decode()
    assert tournament.name in html and "Hallenbad Eggenberg" in html
    assert formats.date_format(tournament.date, "DATE_FORMAT") in html
    assert "Points in the final (to 20)" in html
    names = {seat.player_id: seat.player.name for seat in Seat.objects.filter(table=final).select_related("player")}
    rows = re.findall(r'<td class="num place">(\d+)</td>.*?<td class="name">([^<]+)', html, flags=re.S)
    assert [(place, name.strip()) for place, name in rows] == [("1", names[a]), ("2", names[c]), ("3", names[b])]
    # The final's points per player, and what decided b's place.
    finalists = re.findall(
        r'<li><span class="place">(\d+)\.</span><span class="no">\d+</span><span class="name">([^<]+)</span>'
        r'<span class="points">([^<]+)</span></li>',
        html,
    )
    assert finalists == [("1", names[a], "30 points"), ("2", names[c], "0 points"), ("3", names[b], "0 points")]
    assert "tie in the final: duel" in html
    assert "Duel for place 2:" in html and "still playing" not in html
    assert f'<span class="name">{names[c]}</span> (1 game won)' in html


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", [LIFE_BANDS, POINTS])
def test_a_ranking_without_a_points_final_has_no_final_column(client, login_as, fmt):
    tournament = simulation.create_field(fmt=fmt, players=6, seed=2)
    simulation.simulate(tournament, seed=2)
    login_as("desk", tournament)
    html = client.get(path("print_ranking", tournament)).content.decode()
    assert "Points in the final" not in html and "Provisional" not in html
    title = registry.of(tournament).ranking_title
    assert str(title) in html
    assert html.count('<td class="num place">') == 6


# --------------------------------------------------------------------------
# Query counts: finished tournaments of 9 and 24 players
# --------------------------------------------------------------------------

SIZES = (9, 24)
# Each page's queries, the same at both sizes: five on every staff page (session, user, tournament,
# roles, and the navigation's equipment link), then the pack's rounds and its count of start-number
# cards, a round with its tables and seats, or the format's ranking with the final's points and duels.
ROUND_PAGE = 8
COMMON = {"print_pack": 7, **{f"{moment}/{name}": ROUND_PAGE for moment in ("first", "last") for name in ROUND_PAGES}}
PINNED = {
    KNOCKOUT: {**COMMON, "print_ranking": 11},
    LIFE_BANDS: {**COMMON, "print_ranking": 11},
    POINTS: {**COMMON, "print_ranking": 10},
}


@pytest.fixture(scope="module")
def finished(django_db_setup, django_db_blocker) -> Iterator[dict[tuple[str, int], Tournament]]:  # type: ignore[no-untyped-def]
    """Every format played to its end at each size, once for the module (rolled back at its end)."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            played = {}
            for fmt in FORMATS:
                for size in SIZES:
                    tournament = field_at_once(fmt=fmt, players=size, seed=size)
                    simulation.simulate(tournament, seed=size)
                    assert tournament.status == enums.TournamentStatus.FINISHED
                    played[fmt, size] = tournament
            yield played
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def counted(client, tournament: Tournament) -> dict[str, int]:  # type: ignore[no-untyped-def]
    last = Round.objects.filter(tournament=tournament).order_by("-number").values_list("number", flat=True).first()
    assert last is not None and last > 1
    counts = {name: count_queries(client, path(name, tournament)) for name in ("print_pack", "print_ranking")}
    for moment, number in (("first", 1), ("last", last)):
        for name in ROUND_PAGES:
            counts[f"{moment}/{name}"] = count_queries(client, path(name, tournament, number))
    return counts


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_query_counts_do_not_grow_with_the_field(client, login_as, finished, fmt):
    counts = {}
    for size in SIZES:
        tournament = finished[fmt, size]
        login_as("desk", tournament)
        counts[size] = counted(client, tournament)
    assert counts[SIZES[0]] == counts[SIZES[1]], "a page's queries grow with the field"
    assert counts[SIZES[0]] == PINNED[fmt], counts[SIZES[0]]
