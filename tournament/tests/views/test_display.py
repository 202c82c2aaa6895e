"""Public pages: no login, no staff data, no writes, cheap polls, fixed query counts."""

from __future__ import annotations

import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import desk, enums, simulation
from tournament.formats.knockout import dry_run as knockout_dry_run
from tournament.formats.life_bands import services as life_bands_services
from tournament.models import CheckIn, Player, Round, Seat
from tournament.selectors import screen as screen_selectors
from tournament.tests.factories import TournamentFactory, players_in_bulk
from tournament.tests.helpers import field_at_once

pytestmark = [pytest.mark.core, pytest.mark.django_db]

PUBLIC = ["projector", "projector_screen", "find", "api"]


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


def field_in_play(players: int, seed: int = 1):
    """A knockout tournament with round 1 seated and one table decided."""
    if players <= 60:
        tournament = field_at_once(fmt=enums.Format.KNOCKOUT, players=players, seed=seed)
    else:
        tournament = TournamentFactory(capacity=players, checklist=[])
        batch = players_in_bulk(players, tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
        CheckIn.objects.bulk_create(CheckIn(player=p) for p in batch)
        desk.draw_start_numbers(tournament=tournament, actor=None, seed=seed)
    knockout_dry_run.seat_next_round(tournament, actor=None, seed=seed)
    table = Round.objects.get(tournament=tournament).tables.order_by("number").first()
    simulation.play_table(tournament, table, random.Random(seed), None)
    tournament.refresh_from_db()
    return tournament


def url(name, tournament, **query):
    path = reverse(f"tournament:{name}", args=[tournament.public_key])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_projector_shows_seating_without_login(client):
    tournament = field_in_play(7)
    body = client.get(url("projector", tournament)).content.decode()
    assert "Seating by table" in body
    assert "Where do I sit?" in body
    for player in Player.objects.filter(tournament=tournament):
        assert player.name in body


def test_no_staff_data_on_public_pages(client):
    tournament = field_in_play(7)
    for player in Player.objects.filter(tournament=tournament):
        player.contact = f"secret-{player.pk}@example.org"
        player.save()
    for name in PUBLIC:
        body = client.get(url(name, tournament, q="a")).content.decode()
        for player in Player.objects.filter(tournament=tournament):
            assert player.contact not in body, name
        assert "Diving licence" not in body and "override" not in body


@pytest.mark.parametrize("name", PUBLIC)
def test_public_pages_accept_no_writes(client, name):
    tournament = field_in_play(6)
    version = tournament.version
    assert client.post(url(name, tournament)).status_code == 405
    tournament.refresh_from_db()
    assert tournament.version == version


@pytest.mark.parametrize("name", ["projector_screen", "api"])
def test_unchanged_poll_is_a_304_from_one_query(client, name):
    tournament = field_in_play(6)
    first = client.get(url(name, tournament))
    assert first.status_code == 200
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url(name, tournament), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert len(queries) <= 1
    assert again.content == b""


def test_a_result_changes_the_etag_and_the_screen(client, settings):
    settings.PUBLIC_RENDER_SECONDS = 0  # no one-second window (tournament.renderings): the change at once
    tournament = field_in_play(6)
    first = client.get(url("projector_screen", tournament))
    table = Round.objects.get(tournament=tournament).tables.filter(status=enums.TableStatus.PLAYING).first()
    simulation.play_table(tournament, table, random.Random(3), None)
    after = client.get(url("projector_screen", tournament), HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    assert after.content != first.content


def test_json_api(client):
    tournament = field_in_play(7)
    data = client.get(url("api", tournament)).json()
    assert data["tournament"]["name"] == tournament.name
    assert data["rounds"][0]["stage"] == "main"
    seated = [seat["name"] for table in data["rounds"][0]["tables"] for seat in table["seats"]]
    assert sorted(seated) == sorted(Player.objects.filter(tournament=tournament).values_list("name", flat=True))
    assert "contact" not in str(data)


def test_find_my_table_by_name_and_number(client):
    tournament = field_in_play(7)
    player = Player.objects.filter(tournament=tournament).order_by("start_number").last()
    seat = player.seats.get()
    body = client.get(url("find", tournament, q=player.start_number)).content.decode()
    assert player.name in body
    if seat.table.status == enums.TableStatus.PLAYING:
        assert f"Table {seat.table.number}" in body and f"seat {seat.position + 1}" in body
    else:
        assert "place" in body
    body = client.get(url("find", tournament, q="zzzz-nobody")).content.decode()
    assert "Nobody matches" in body


def _history(body: str) -> list[str]:
    """The phone page's "Your results" lines, whitespace folded."""
    history = re.search(r'<ul class="find-history">(.*?)</ul>', body, re.S)
    assert history is not None, "no results on the phone page"
    return [re.sub(r"\s+", " ", line).strip() for line in re.findall(r"<li>(.*?)</li>", history.group(1), re.S)]


@pytest.mark.parametrize("fmt", [enums.Format.POINTS, enums.Format.LIFE_BANDS, enums.Format.KNOCKOUT])
def test_the_phone_shows_each_table_as_its_format_counts(client, fmt):
    """Points: the penalty points taken there (what the format ranks by); life bands: the band
    cut or the chips left (they count no games won); knockout: games won, points in a final
    to a points target. In the player's language."""
    tournament = simulation.create_field(fmt=fmt, players=12, seed=4)
    simulation.simulate(tournament, seed=4)
    player = Player.objects.filter(tournament=tournament, seats__isnull=False).order_by("start_number").first()
    seats = list(player.seats.select_related("table__round").order_by("pk"))  # in the order seated
    lines = _history(client.get(url("find", tournament, q=player.start_number)).content.decode())
    assert len(lines) == len(seats)
    for line, seat in zip(lines, seats, strict=True):
        counted = line.split(": ", 1)[1].split(" · ")[0]
        if fmt == enums.Format.POINTS or seat.table.points_target:
            expected = f"{seat.points} point{'s' * (seat.points != 1)}"
        elif fmt == enums.Format.LIFE_BANDS:
            # Out of the grand final: no band is cut there.
            out = "out" if seat.table.round.stage == enums.Stage.GRAND_FINAL else "band cut"
            expected = out if seat.out_order is not None else f"{seat.chips} chip{'s' * (seat.chips != 1)}"
        else:
            expected = f"{seat.games_won} game{'s' * (seat.games_won != 1)} won"
        assert counted == expected, (line, seat)
        assert line.endswith(f" · place {seat.place}") == (seat.place is not None)
    asked = client.get(url("find", tournament, q=player.start_number), HTTP_ACCEPT_LANGUAGE="de")
    german = _history(asked.content.decode())
    assert len(german) == len(lines) and german != lines
    assert not re.search(r"\b(points?|chips?|band cut|games? won|place)\b", " ".join(german)), german


def test_the_phone_sends_a_player_to_the_table_they_sit_at_now(client, monkeypatch, settings):
    """Life bands refill the consolation round (an early round number) while the main round goes
    on: a player cut in main round 3 sits next in the consolation round. Before every table is
    played, each player seated at a table in play is sent to that table, and their results come
    in the order they were seated."""
    from tournament.formats.life_bands import dry_run
    from tournament.selectors import public

    settings.PUBLIC_RENDER_SECONDS = 0  # every step is looked at at once (renderings)
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=12, seed=4)
    played = dry_run.play_table
    checked: list[int] = []  # players checked seated at a consolation table after a later round

    def check_then_play(tournament, table, rng, actor):  # type: ignore[no-untyped-def]
        seated_now = Seat.objects.filter(
            table__round__tournament=tournament, table__status=enums.TableStatus.PLAYING, out_order__isnull=True
        ).select_related("table__round")
        for seat in seated_now:
            found = public.lookup(tournament, [seat.player])[0]
            last_round, last_table, _last_seat = found.rounds[-1]
            assert (last_round.number, last_table.number) == (seat.table.round.number, seat.table.number)
            numbers = [rnd.number for rnd, _table, _seat in found.rounds]
            if numbers != sorted(numbers):
                checked.append(seat.player_id)
                body = client.get(url("find", tournament, q=seat.player.start_number)).content.decode()
                assert f"Table {seat.table.number} · seat {seat.position + 1}" in body
        return played(tournament, table, rng, actor)

    monkeypatch.setattr(dry_run, "play_table", check_then_play)
    simulation.simulate(tournament, seed=4)
    assert checked, "no player sat in the consolation round after a later main round: the case is not covered"


def test_finished_tournament_shows_podium(client):
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=4, seed=2)
    simulation.simulate(tournament, seed=2)
    body = client.get(url("projector_screen", tournament)).content.decode()
    assert "Podium" in body
    assert client.get(url("api", tournament)).json()["standings"][0]["place"] == 1


@pytest.mark.parametrize("name", PUBLIC)
@pytest.mark.parametrize("whole", [True, False], ids=["read whole", "read by window"])
def test_query_count_same_at_20_and_1000_players(client, name, whole, monkeypatch):
    # The projector's screen is read whole or window by window (selectors.screen): each way
    # costs the same at both sizes.
    monkeypatch.setattr(screen_selectors, "WHOLE_READ_CAPACITY", 10**9 if whole else 0)
    counts = []
    for size in (20, 1000):
        cache.clear()
        tournament = field_in_play(size)
        query = {"q": "1"} if name == "find" else {}  # start number 1 exists in both
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(name, tournament, **query))
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_life_bands_projector_shows_chips_bands_and_pool(client):
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=4)
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=1)
    table = rnd.tables.order_by("number").first()
    loser = table.seats.order_by("position").first().player
    for _ in range(2):
        table.refresh_from_db()
        life_bands_services.record_loss(
            tournament=tournament,
            actor=None,
            table_id=table.pk,
            loser_id=loser.pk,
            version=table.version,
            idempotency_key=f"k{_}",
        )
    body = client.get(url("projector_screen", tournament)).content.decode()
    assert 'class="pj-chip"' in body and 'class="pj-band"' in body
    assert "waiting pool" in body and loser.name in body
    assert "data-sharp-at" in body
    # The table's start is read where sharp play shows it (and only there: public_tables).
    assert re.search(r'data-started-at="\d{4}-\d\d-\d\dT', body)
    data = client.get(url("api", tournament)).json()
    assert data["pool"] == [{"start_number": loser.start_number, "name": loser.name}]
    out = next(s for t in data["rounds"][0]["tables"] for s in t["seats"] if s["name"] == loser.name)
    assert out["out"] is True and out["life_bands"] == 1 and out["chips"] == 0


def test_points_projector_shows_standings(client):
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=9, seed=2)
    tournament.rounds_planned = 1
    tournament.save()
    simulation.simulate(tournament, seed=2)
    body = client.get(url("projector_screen", tournament)).content.decode()
    assert "Final standings" in body and "Penalty points" in body
    data = client.get(url("api", tournament)).json()
    standings = data["standings"]
    assert [row["place"] for row in standings] == list(range(1, 10))
    assert standings == sorted(standings, key=lambda row: row["points"])
    # Chips and life bands are life bands' own: a points seat says games won and points only.
    seats = [seat for rnd in data["rounds"] for table in rnd["tables"] for seat in table["seats"]]
    assert seats and all("chips" not in seat and "life_bands" not in seat and "points" in seat for seat in seats)
