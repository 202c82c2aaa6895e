"""What branching on the format got wrong, and stays right now that every view asks
the format's record (issue "one play core, each format a plugin").

Each test names the bug it guards against:

- the knockout standings export ranked by "fewer points" and its games export
  held only the final's games; the Schocken exports were empty, and no format
  but points linked its exports;
- the referees' table list dropped the consolation tables still playing once
  the main round was re-seated;
- the half tracker answered 500 on a decided grand final and ignored sharp play;
- "decided by" said "place in the final" where a duel decided, and "place in
  the grand final" for a player who never reached it;
- ``auto_advance`` did nothing for the points format;
- the settings page showed life bands and chips on a knockout tournament;
- a Schocken tournament got the diving checklist;
- the grand final's round stayed "running" in api.json after the tournament
  finished, and life-bands standings there carried ``games_won: null``.
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tournament import enums, simulation
from tournament.formats import registry
from tournament.formats.knockout import rules as knockout_rules
from tournament.formats.knockout import services as knockout
from tournament.formats.life_bands import rules as life_bands_rules
from tournament.formats.life_bands import services as life_bands
from tournament.formats.points import services as points
from tournament.models import Round, Seat, Table, Tournament
from tournament.play import results
from tournament.tests.helpers import refreshed, seated, set_dealer, set_settings, tied_final, url

pytestmark = [pytest.mark.core, pytest.mark.django_db]


def rows_of(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.status_code
    return list(csv.reader(io.StringIO(response.content.decode("utf-8").removeprefix("\ufeff")), delimiter=";"))


def finished(fmt: str, players: int, seed: int) -> Tournament:
    tournament = simulation.create_field(fmt=fmt, players=players, seed=seed)
    simulation.simulate(tournament, seed=seed)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    return tournament


@pytest.fixture
def organiser(client, staff_user):  # type: ignore[no-untyped-def]
    def login(tournament: Tournament) -> None:
        client.force_login(staff_user(tournament, enums.Role.ORGANISER))

    return login


# --- exports ----------------------------------------------------------------------------


def test_knockout_standings_export_follows_the_knockout_ranking(client, organiser):
    tournament = finished(enums.Format.KNOCKOUT, 9, seed=4)
    organiser(tournament)
    header, *rows = rows_of(client.get(url("export_standings", tournament)))
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
    ranking = registry.of(tournament).ranking(tournament)
    assert [line[:3] for line in rows] == [
        [str(row.place), str(row.player.start_number), row.player.name] for row in ranking
    ]
    assert rows[0][4] == "Final"
    assert not any("fewer points" in line[-1] for line in rows)
    assert {line[-1] for line in rows[3:]} <= {"round reached", "games won", "tie: lower start number"}


def test_knockout_games_export_holds_every_game(client, organiser):
    tournament = finished(enums.Format.KNOCKOUT, 9, seed=4)
    organiser(tournament)
    _header, *rows = rows_of(client.get(url("export_games", tournament)))
    games = Game.objects.filter(table__round__tournament=tournament)
    expected = sum(game.table.seats.count() for game in games.select_related("table"))
    assert len(rows) == expected
    assert {line[0] for line in rows} == {
        str(n) for n in Round.objects.filter(tournament=tournament).values_list("number", flat=True)
    }, "every round's games, not only the final's"
    winners = {line[4] for line in rows if line[0] == "1"}
    assert winners and "" not in winners


def test_schocken_exports_are_filled(client, organiser):
    tournament = finished(enums.Format.LIFE_BANDS, 8, seed=2)
    organiser(tournament)
    header, *rows = rows_of(client.get(url("export_standings", tournament)))
    assert header == ["Place", "Start number", "Name", "Club", "Reached", "Decided by"]
    assert [line[0] for line in rows] == [str(n) for n in range(1, 9)]
    assert rows[0][4] == "Grand final" and all(line[2] for line in rows)
    header, *games = rows_of(client.get(url("export_games", tournament)))
    losers = {line[5] for line in games}
    assert len(games) == sum(
        game.table.seats.count() for game in Game.objects.filter(table__round__tournament=tournament)
    )
    assert "" not in losers, "every Schocken game names its loser"


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS])
def test_every_format_links_its_exports(client, organiser, fmt):
    tournament = finished(fmt, 8, seed=3)
    organiser(tournament)
    page = client.get(url("ranking", tournament)).content.decode()
    assert url("export_standings", tournament) in page and url("export_games", tournament) in page


# --- the referees' list and the half tracker ---------------------------------------------


def life_bands_field(players: int, seed: int) -> Tournament:
    return simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=players, seed=seed)


def lose_all_chips(tournament: Tournament, table: Table, loser: int) -> None:
    while Seat.objects.get(table=table, player_id=loser).out_order is None:
        life_bands.record_loss(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            loser_id=loser,
            version=refreshed(table).version,
            idempotency_key=uuid.uuid4().hex,
        )


def play_out(tournament: Tournament, table: Table) -> None:
    """Losers in seat order until the table is decided."""
    while refreshed(table).status == enums.TableStatus.PLAYING:
        alive = Seat.objects.filter(table=table, out_order__isnull=True).order_by("position").first()
        assert alive is not None
        lose_all_chips(tournament, table, alive.player_id)


def test_referee_list_keeps_consolation_tables_after_the_main_round_is_reseated(client, staff_user):
    tournament = life_bands_field(12, seed=7)
    first = life_bands.start_main_round(tournament=tournament, actor=None, seed=7)
    assert first is not None
    for table in first.tables.order_by("number"):
        play_out(tournament, table)
    consolation = life_bands.form_consolation_tables(tournament=tournament, actor=None, seed=7)
    assert consolation, "the pool seats a consolation table"
    second = life_bands.start_main_round(tournament=tournament, actor=None, seed=8)
    assert second is not None
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    page = client.get(url("referee_tables", tournament)).content.decode()
    for table in [*second.tables.all(), *consolation]:
        path = url("referee_table", tournament, table.pk)
        assert path in page, f"{table} is missing from the referees' list"


@pytest.fixture
def decided_grand_final():
    tournament = life_bands_field(4, seed=5)
    main = life_bands.start_main_round(tournament=tournament, actor=None, seed=5)
    assert main is not None
    while True:
        playing = Table.objects.filter(round__tournament=tournament, status=enums.TableStatus.PLAYING).first()
        if playing is not None:
            play_out(tournament, playing)
            continue
        if not life_bands.advance(tournament=tournament, actor=None, seed=5):
            break
    grand_final = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.GRAND_FINAL)
    assert grand_final.status == enums.TableStatus.DECIDED
    return tournament, grand_final


def test_half_tracker_on_a_decided_grand_final_says_so(client, staff_user, decided_grand_final):
    tournament, table = decided_grand_final
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    path = url("half_tracker", tournament, table.pk)
    response = client.get(path)
    assert response.status_code == 200
    assert "This table is decided: there is no game left to track." in response.content.decode()
    posted = client.post(path, {"players": "1,2", "stock": "13", "lids": "0,0"}, HTTP_HX_REQUEST="true")
    assert posted.status_code == 409


def test_half_tracker_starts_in_sharp_play_after_the_limit(client, staff_user):
    tournament = life_bands_field(6, seed=3)
    rnd = life_bands.start_main_round(tournament=tournament, actor=None, seed=3)
    assert rnd is not None
    table = rnd.tables.order_by("number").first()
    assert table is not None
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    path = url("half_tracker", tournament, table.pk)
    assert "sharp play" not in client.get(path).content.decode()
    Table.objects.filter(pk=table.pk).update(
        started_at=timezone.now() - timedelta(minutes=tournament.sharp_play_minutes + 1)
    )
    assert "sharp play" in client.get(path).content.decode()


# --- "decided by" ------------------------------------------------------------------------


def test_a_duel_is_named_as_what_decided(client, staff_user):
    # a wins with 30 points; b and c keep 0 each: tied, they play a duel.
    tournament, final, (a, b, c) = tied_final()
    duel = Table.objects.get(round=final.round, is_duel=True)
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
    ranking = registry.of(tournament).ranking(tournament)
    assert [(row.player.pk, row.decided_by) for row in ranking] == [
        (a, ""),
        (c, knockout_rules.RULE_FINAL_PLACE),
        (b, knockout_rules.RULE_DUEL),
    ]
    client.force_login(staff_user(tournament, enums.Role.REFEREE))
    assert "tie in the final: duel" in client.get(url("ranking", tournament)).content.decode()


def test_the_first_below_the_grand_final_did_not_reach_it():
    tournament = finished(enums.Format.LIFE_BANDS, 9, seed=9)
    ranking = registry.of(tournament).ranking(tournament)
    finalists = [row for row in ranking if row.reached_stage == enums.Stage.GRAND_FINAL]
    assert len(finalists) == 4
    below = ranking[len(finalists)]
    assert below.decided_by == life_bands_rules.RULE_NOT_IN_GRAND_FINAL
    assert str(below.decided_by_label) == "did not reach the grand final"
    assert all(row.decided_by != life_bands_rules.RULE_GRAND_FINAL for row in ranking[len(finalists) :])


# --- settings and automatic advancement -------------------------------------------------------


def win_and_close(tournament: Tournament, table: Table) -> None:
    """Seat 1 deals and wins the table's one game (everyone else holds 5), then the table closes."""
    winner = set_dealer(tournament, table)[0]
    points.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=winner,
        version=refreshed(table).version,
        idempotency_key=uuid.uuid4().hex,
        card_points={pid: 5 for pid in seated(table) if pid != winner},
    )
    points.close_table(tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version)


def test_points_auto_advance_seats_the_next_round():
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=2)
    set_settings(tournament, auto_advance=True, games_per_round=1, rounds_planned=2)
    tournament.refresh_from_db()
    first = points.start_round(tournament=tournament, actor=None, seed=2)
    for table in first.tables.order_by("number"):
        win_and_close(tournament, table)
    assert Round.objects.filter(tournament=tournament).count() == 2, "closing the last table seats round 2"
    second = Round.objects.get(tournament=tournament, number=2)
    for table in second.tables.all():
        win_and_close(tournament, table)
    assert Round.objects.filter(tournament=tournament).count() == 2, "no round beyond the planned ones"
    assert refreshed_tournament(tournament).status == enums.TournamentStatus.RUNNING, "finishing stays a decision"


def refreshed_tournament(tournament: Tournament) -> Tournament:
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize(
    ("fmt", "shown", "hidden"),
    [
        (
            enums.Format.KNOCKOUT,
            ["wins_needed", "final_points_target"],
            ["life_bands", "chips_per_table", "rounds_planned"],
        ),
        (
            enums.Format.LIFE_BANDS,
            ["life_bands", "chips_per_table", "sharp_play_minutes"],
            ["wins_needed", "rounds_planned"],
        ),
        (enums.Format.POINTS, ["rounds_planned", "games_per_round"], ["life_bands", "wins_needed", "final_size"]),
    ],
)
def test_settings_show_only_what_the_format_uses(client, organiser, fmt, shown, hidden):
    tournament = simulation.create_field(fmt=fmt, players=4, seed=1)
    organiser(tournament)
    page = client.get(url("settings", tournament)).content.decode()
    for name in [*shown, "name", "capacity"]:
        assert f'name="{name}"' in page, name
    for name in hidden:
        assert f'name="{name}"' not in page, name
    scoring = "scoring_table" in registry.get(fmt).settings_used
    assert (reverse("tournament:scoring", args=[tournament.pk]) in page) == scoring


def test_a_schocken_tournament_does_not_get_the_diving_checklist(client, make_user):
    client.force_login(make_user())
    form = client.get(reverse("tournament:create")).content.decode()
    assert "Own dice and cup" in form, "each format's list is on the page for the format switch"
    # Posted with the first format's list untouched: the Schocken tournament gets its own list.
    knockout_list = "\n".join(str(item) for item in registry.get(enums.Format.KNOCKOUT).default_checklist())
    response = client.post(
        reverse("tournament:create"),
        {
            "name": "Schocken-Turnier",
            "date": "2026-12-05",
            "game": enums.Game.SCHOCKEN,
            "format": enums.Format.LIFE_BANDS,
            "capacity": 40,
            "entry_fee": "3",
            "checklist": knockout_list,
        },
    )
    assert response.status_code == 302
    created = Tournament.objects.get(name="Schocken-Turnier")
    labels = list(created.checklist_items.order_by("position").values_list("label", flat=True))
    assert labels == [str(item) for item in registry.get(enums.Format.LIFE_BANDS).default_checklist()]
    assert not any("Diving" in label for label in labels)


# --- api.json ---------------------------------------------------------------------------------


def test_api_after_a_life_bands_tournament_finished(client):
    tournament = finished(enums.Format.LIFE_BANDS, 7, seed=7)
    document = client.get(reverse("tournament:api", args=[tournament.public_key])).json()
    assert document["tournament"]["status"] == "finished"
    assert {rnd["status"] for rnd in document["rounds"]} == {"finished"}, "no round stays running"
    assert document["standings"], "the final standings are published"
    for row in document["standings"]:
        assert "games_won" not in row
        assert row["reached"] in {"grand_final", "main", "consolation"}
    assert document["standings"][0]["reached"] == "grand_final"
