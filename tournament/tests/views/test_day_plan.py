"""The expected plan's pages (public, printed, projector, rounds page) and the plan kept true during
the day: games recorded with known times move the expected final as their median length does."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tournament import day_plan, enums
from tournament.models import Round, Table, Tournament
from tournament.selectors import day_plan as day_plan_selectors
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import seated, set_dealer, url
from tournament.tests.settings_page import organiser_login, settings_data
from tournament.tests.views.scenarios import field, lose, start_round, win
from tournament.tests.views.test_query_counts import quick_field

pytestmark = pytest.mark.django_db
organiser = organiser_login


def _plan_page(client: Client, tournament: Tournament) -> str:
    response = client.get(reverse("tournament:plan", args=[tournament.public_key]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_public_plan_says_for_how_many_and_follows_the_registrations(client: Client) -> None:
    tournament = TournamentFactory(start_time=dt.time(10, 0))
    PlayerFactory.create_batch(23, tournament=tournament)
    PlayerFactory.create_batch(2, tournament=tournament, status=enums.PlayerStatus.WAITING)
    PlayerFactory.create_batch(3, tournament=tournament, status=enums.PlayerStatus.WITHDRAWN)
    page = _plan_page(client, tournament)
    assert "With 23 players registered" in page
    assert "If all 2 players on the waiting list come (25 players)" in page
    plan = day_plan_selectors.read(tournament)
    # The rows are the planner's rounds, from 10:00, the final last.
    assert (
        plan.plan.rows[0].start is not None and timezone.localtime(plan.plan.rows[0].start).strftime("%H:%M") == "10:00"
    )
    assert "Final expected at about" in page and plan.final_name == "Final"
    assert "Main round 1" in page and "Lucky-loser round" in page
    PlayerFactory(tournament=tournament)
    assert "With 24 players registered" in _plan_page(client, tournament)


def test_without_a_start_time_the_plan_gives_durations(client: Client) -> None:
    tournament = TournamentFactory(format=enums.Format.POINTS)
    PlayerFactory.create_batch(7, tournament=tournament)
    page = _plan_page(client, tournament)
    assert "No start time is set yet" in page
    assert "Round 4" in page and "about 24 min" in page  # 3 games of 8 minutes at its table of 4


def test_too_few_players_say_so(client: Client) -> None:
    tournament = TournamentFactory(format=enums.Format.LIFE_BANDS, game=enums.Game.SCHOCKEN)
    PlayerFactory.create_batch(2, tournament=tournament)
    assert "too few players for a round" in _plan_page(client, tournament)


def test_the_projector_shows_the_plan_before_the_day_and_the_print_pack_prints_it(client: Client, staff_user) -> None:  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(format=enums.Format.LIFE_BANDS, game=enums.Game.SCHOCKEN, start_time=dt.time(17, 0))
    PlayerFactory.create_batch(12, tournament=tournament)
    screen = client.get(reverse("tournament:projector", args=[tournament.public_key])).content.decode()
    assert 'data-view="plan"' in screen and "Grand final" in screen and "about 17:00" in screen
    # The families in the hall ask when it ends, not only when the grand final starts.
    end = day_plan_selectors.read(tournament).plan.end
    assert end is not None and f"The end at about {end:%H:%M}." in screen
    client.force_login(staff_user(tournament, enums.Role.DESK))
    assert url("print_plan", tournament) in client.get(url("print_pack", tournament)).content.decode()
    printed = client.get(url("print_plan", tournament)).content.decode()
    assert "With 12 players registered" in printed and "Consolation round" in printed


def _record_games(tournament: Tournament, rnd: Round, minutes: dict[int, float]) -> None:
    """Two games at every table of ``rnd``, entered ``minutes[table number]`` apart from the table's start."""
    for table in Table.objects.filter(round=rnd).order_by("number"):
        set_dealer(tournament, table)
        winner = seated(table)[0]
        for _ in range(2):
            win(tournament, table, winner)
    for table in Table.objects.filter(round=rnd):
        assert table.started_at is not None
        for number, game in enumerate(Game.objects.filter(table=table).order_by("number"), 1):
            entered = table.started_at + dt.timedelta(minutes=minutes[table.number] * number)
            Game.objects.filter(pk=game.pk).update(entered_at=entered)


def _final_at(tournament: Tournament, now: dt.datetime) -> dt.datetime:
    found = day_plan_selectors.read(tournament, now)
    last = found.plan.last
    assert last is not None and last.start is not None and not last.started
    return last.start


def test_the_expected_final_follows_the_median_game_length(client: Client) -> None:
    tournament = field(enums.Format.KNOCKOUT, 15, seed=3)
    Tournament.objects.filter(pk=tournament.pk).update(start_time=dt.time(10, 0))
    tournament.refresh_from_db()
    rnd = start_round(tournament, seed=3)
    tournament.refresh_from_db()
    tables = Table.objects.filter(round=rnd).count()
    assert rnd.started_at is not None and tables == 5
    now = rnd.started_at + dt.timedelta(minutes=1)
    timing = day_plan_selectors.timing_of(tournament)
    plan = day_plan.knockout_plan(15, day_plan.knockout.KnockoutSettings())

    def expected(pace: float) -> dt.datetime:
        timed = day_plan.schedule(plan, day_plan.with_pace(timing, pace), None, anchor=(0, rnd.started_at), now=now)
        end = timed[-1].start
        assert end is not None
        return day_plan.rounded(end)

    _record_games(tournament, rnd, dict.fromkeys(range(1, tables + 1), 6))
    at_six = _final_at(tournament, now)
    assert at_six == expected(1.0)  # 6 minutes a game at tables of 3: the settings' pace
    for length in (9, 12):
        for table in Table.objects.filter(round=rnd):
            for number, game in enumerate(Game.objects.filter(table=table).order_by("number"), 1):
                Game.objects.filter(pk=game.pk).update(
                    entered_at=table.started_at + dt.timedelta(minutes=length * number)
                )
        assert _final_at(tournament, now) == expected(length / 6)
    assert expected(2.0) > expected(1.5) > at_six
    # One very slow table does not move the median: the final stays where the others put it.
    for table in Table.objects.filter(round=rnd):
        length = 60 if table.number == 1 else 12
        for number, game in enumerate(Game.objects.filter(table=table).order_by("number"), 1):
            Game.objects.filter(pk=game.pk).update(entered_at=table.started_at + dt.timedelta(minutes=length * number))
    assert _final_at(tournament, now) == expected(2.0)
    # The projector says it, and the organiser sees the tables still playing.
    screen = client.get(reverse("tournament:projector", args=[tournament.public_key])).content.decode()
    assert "Final expected at about" in screen
    holding = day_plan_selectors.holding_tables(tournament)
    assert len(holding) == day_plan_selectors.HOLDING_TABLES and all(table.games == 2 for table in holding)


PLAN_PAGES = {"plan": True, "print_plan": False}


def _count(client: Client, path: str) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


# Queries of the plan's pages before and during play, pinned (equal at 20 and 500 players; the
# client is logged in, so the session and the user are read on the public page too): the plan's
# reads are the counts, the tables with their rounds and, once a table is seated, the games' times.
PINNED = {
    "before/plan": 6,
    "before/print_plan": 7,
    "during/plan": 7,
    "during/print_plan": 8,
}


@pytest.mark.slow
@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS])
def test_the_plan_pages_cost_the_same_at_20_and_500_players(client: Client, staff_user, fmt: str) -> None:  # type: ignore[no-untyped-def]
    found = {}
    for size in (20, 500):
        tournament = quick_field(fmt, size)
        client.force_login(staff_user(tournament, enums.Role.DESK))
        paths = {
            "plan": reverse("tournament:plan", args=[tournament.public_key]),
            "print_plan": url("print_plan", tournament),
        }
        counts = {f"before/{name}": _count(client, path) for name, path in paths.items()}
        start_round(tournament, seed=size)
        first = Table.objects.filter(round__tournament=tournament).first()
        assert first is not None
        if fmt == enums.Format.LIFE_BANDS:
            lose(tournament, first, seated(first)[0])
        else:
            set_dealer(tournament, first)
            win(tournament, first, seated(first)[0])
        counts |= {f"during/{name}": _count(client, path) for name, path in paths.items()}
        found[size] = counts
    assert found[20] == found[500] == PINNED, found


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("start_time", "25:61"),
        ("minutes_between_rounds", "-5"),
        ("game_minutes_preferred", "0"),
        ("game_minutes_largest", "x"),
    ],
)
def test_the_plan_settings_refuse_bad_values_and_keep_good_ones(organiser, field: str, bad: str) -> None:  # type: ignore[no-untyped-def]
    tournament = TournamentFactory()
    client = organiser(tournament)
    response = client.post(url("settings", tournament), settings_data(tournament, **{field: bad}))
    assert response.status_code == 422 and "errorlist" in response.content.decode()  # refused, with its reason
    before = Tournament.objects.get(pk=tournament.pk)
    assert (before.start_time, before.minutes_between_rounds, before.game_minutes_preferred) == (None, 5, 6)
    good = {"start_time": "17:00", "minutes_between_rounds": "10", "game_minutes_preferred": "7"}
    response = client.post(url("settings", tournament), settings_data(tournament, **good))
    assert response.status_code in {200, 302}
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.start_time, after.minutes_between_rounds, after.game_minutes_preferred) == (dt.time(17, 0), 10, 7)
    # The plan starts then, with the break between rounds.
    PlayerFactory.create_batch(9, tournament=tournament)
    rows = day_plan_selectors.read(after).plan.rows
    assert rows[0].start is not None and timezone.localtime(rows[0].start).strftime("%H:%M") == "17:00"
    assert rows[1].start is not None and rows[1].start - rows[0].start >= dt.timedelta(minutes=rows[0].minutes + 5)


def test_settings_the_planner_cannot_seat_give_no_plan_not_an_error(client: Client) -> None:
    tournament = TournamentFactory(table_size=5, table_size_max=5, final_size=5)
    PlayerFactory.create_batch(7, tournament=tournament)
    page = _plan_page(client, tournament)
    assert "Expected plan" in page


@pytest.mark.parametrize("fmt", [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS])
def test_during_the_day_every_format_follows_the_round_under_way(fmt: str) -> None:
    tournament = field(fmt, 12, seed=5)  # no start time: the round under way gives the times
    rnd = start_round(tournament, seed=5)
    tournament.refresh_from_db()
    found = day_plan_selectors.read(tournament, rnd.started_at)
    assert found.started and found.with_waiting is None and found.plan.players == 12
    first, last = found.plan.rows[0], found.plan.last
    assert first.started and first.start == rnd.started_at
    assert last is not None and not last.started and last.start is not None and last.start > rnd.started_at
    starts = [row.start for row in found.plan.rows]
    assert starts == sorted(starts)  # type: ignore[type-var]


def _screen_queries(client: Client, tournament: Tournament, cycle: int) -> tuple[int, str]:
    path = reverse("tournament:projector_screen", args=[tournament.public_key])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, {"cycle": str(cycle)} if cycle else {})
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_screen_plans_once_per_version_and_before_play_reads_no_tables(client: Client) -> None:
    tournament = TournamentFactory(start_time=dt.time(10, 0))
    PlayerFactory.create_batch(23, tournament=tournament)
    tournament.refresh_from_db()
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        plan = day_plan_selectors.for_screen(tournament, any_round=False)
    # Before play the screen knows no round is seated: the players counted, no tables read.
    assert len(queries) == 1
    assert plan == day_plan_selectors.read(tournament)
    with CaptureQueriesContext(connection) as queries:
        assert day_plan_selectors.for_screen(tournament, any_round=False) == plan
    assert len(queries) == 0  # the same version: kept
    cache.clear()
    first, body = _screen_queries(client, tournament, 0)
    assert "With 23 players registered" in body
    # Another rotation of the same version: its own rendering, the plan kept (the players not
    # counted again; nor the version read: the first poll published it in the cache).
    again, body_again = _screen_queries(client, tournament, 1)
    assert "With 23 players registered" in body_again and again == first - 2
    # A write bumps the version: the screen plans again, for the new count.
    PlayerFactory(tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version + 1)
    cache.clear()
    assert "With 24 players registered" in _screen_queries(client, tournament, 0)[1]
