"""Who may open the points-format pages, and what they cost in queries.

Every referee view and every organiser view of a points tournament against
every role: only the tournament's referees and organisers record results and
call time (403 for everyone else, with nothing saved; anonymous users go to
the login page); only organisers seat rounds, finish, change the scoring table
and download the CSV exports. The rounds page, the standings, the referee
pages and both exports issue the same number of queries at 20 and at 500
players.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest
from django.urls import reverse

from games.models import Game, GameScore, GameStatus
from games.rules.uno import HOUSE_RULES_SCORING
from tournament import enums, play_services, points_services, services, simulation
from tournament.models import AuditEntry, CheckIn, Player, Round, Seat, Table, Tournament
from tournament.services import REFUSED
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import OUTSIDERS, count_queries, refreshed, seated, set_dealer, undo, url

pytestmark = [pytest.mark.core, pytest.mark.django_db]

REFEREE_GETS = ["referee_tables", "referee_table", "table_cards", "ranking"]
REFEREE_POSTS = ["set_dealer", "record_game", "undo_game", "close_table", "call_time"]
ORGANISER_VIEWS = ["rounds", "next_round", "finish", "export_standings", "export_games", "scoring"]


def record(tournament: Tournament, table: Table, winner: int, **extra: object) -> Game:
    if "card_points" not in extra and "hands" not in extra:
        extra["card_points"] = {pid: 5 for pid in seated(table) if pid != winner}
    return play_services.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=winner,
        version=refreshed(table).version,
        idempotency_key=uuid.uuid4().hex,
        **extra,  # type: ignore[arg-type]
    )


# --------------------------------------------------------------------------
# Roles
# --------------------------------------------------------------------------


@dataclass
class Field:
    """Round 1 of nine players with a time limit: table 1 waits for its first
    dealer, table 2 is playing (one game), table 3 is decided but not closed."""

    tournament: Tournament
    fresh: Table
    playing: Table
    decided: Table

    def requests(self, names: list[str]) -> list[tuple[str, str, dict[str, object]]]:
        """(method, path, data) of each view, with data that would be accepted."""
        t = self.tournament
        fresh, playing, decided = (refreshed(x) for x in (self.fresh, self.playing, self.decided))
        first = seated(fresh)[0]
        a, b, c = seated(playing)
        known = {
            "referee_tables": ("get", url("referee_tables", t), {}),
            "referee_table": ("get", url("referee_table", t, playing.pk), {}),
            "table_cards": ("get", url("table_cards", t, 1), {}),
            "ranking": ("get", url("ranking", t), {}),
            "set_dealer": ("post", url("set_dealer", t, fresh.pk), {"player": first, "version": fresh.version}),
            "record_game": (
                "post",
                url("record_game", t, playing.pk),
                {
                    "winner": c,
                    "version": playing.version,
                    "key": uuid.uuid4().hex,
                    f"points_{a}": "12",
                    f"hand_{b}_wild_draw_four": "1",
                },
            ),
            "undo_game": ("post", url("undo_game", t, playing.pk), {"version": playing.version}),
            "close_table": ("post", url("close_table", t, decided.pk), {"version": decided.version}),
            "call_time": ("post", url("call_time", t, playing.pk), {"version": playing.version}),
            "rounds": ("get", url("rounds", t), {}),
            "next_round": ("post", url("next_round", t), {"action": "round"}),
            "finish": ("post", url("next_round", t), {"action": "finish"}),
            "export_standings": ("get", url("export_standings", t), {}),
            "export_games": ("get", url("export_games", t), {}),
            "scoring": ("post", url("scoring", t), {"preset": "house_rules", **HOUSE_RULES_SCORING}),
        }
        return [known[name] for name in names]


@pytest.fixture
def field() -> Field:
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=9, seed=4)
    Tournament.objects.filter(pk=tournament.pk).update(round_time_limit_minutes=30)
    tournament.refresh_from_db()
    rnd = points_services.start_round(tournament=tournament, actor=None, seed=4)
    fresh, playing, decided = rnd.tables.order_by("number")
    a, _b, _c = set_dealer(tournament, playing)
    record(tournament, playing, a)
    d, e, f = set_dealer(tournament, decided)
    for winner in (d, e, f):
        record(tournament, decided, winner)
    assert refreshed(decided).status == enums.TableStatus.DECIDED
    tournament.refresh_from_db()
    return Field(tournament, fresh, playing, decided)


@pytest.fixture
def ready() -> Tournament:
    """Start numbers drawn, no round yet: "next round" would seat round 1."""
    return simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=5)


def snapshot(*tournaments: Tournament) -> tuple[object, ...]:
    """Everything a result, a round or a setting would change."""
    return (
        sorted(Game.objects.values_list("pk", "status", "table_id")),
        GameScore.objects.count(),
        sorted(Round.objects.values_list("pk", "status")),
        sorted(Table.objects.values_list("pk", "status", "version", "first_dealer_position", "time_called_at")),
        sorted(Seat.objects.values_list("pk", "games_won", "place", "points")),
        AuditEntry.objects.exclude(action=REFUSED).count(),  # a refusal leaves only its trace
        [Tournament.objects.values_list("version", "status", "scoring_table").get(pk=t.pk) for t in tournaments],
    )


class TestForbidden:
    @pytest.mark.parametrize("who", OUTSIDERS)
    def test_referee_and_organiser_views_refused(self, client, login_as, field, ready, who):
        login_as(who, field.tournament)
        before = snapshot(field.tournament, ready)
        requests = field.requests(REFEREE_GETS + REFEREE_POSTS + ORGANISER_VIEWS)
        requests.append(("post", url("next_round", ready), {"action": "round"}))
        for method, path, data in requests:
            response = getattr(client, method)(path, data)
            assert response.status_code == 403, (who, path, response.status_code)
            htmx = getattr(client, method)(path, data, HTTP_HX_REQUEST="true")
            assert htmx.status_code == 403, (who, path, "htmx")
        assert snapshot(field.tournament, ready) == before
        assert not Round.objects.filter(tournament=ready).exists()

    def test_referee_may_not_run_rounds_or_export(self, client, login_as, field, ready):
        login_as("referee", field.tournament)
        before = snapshot(field.tournament, ready)
        for method, path, data in field.requests(ORGANISER_VIEWS):
            assert getattr(client, method)(path, data).status_code == 403, path
        login_as("referee", ready)
        assert client.post(url("next_round", ready), {"action": "round"}).status_code == 403
        assert snapshot(field.tournament, ready) == before

    def test_desk_may_not_see_the_standings_or_exports(self, client, login_as, field):
        login_as("desk", field.tournament)
        for name in ["ranking", "export_standings", "export_games"]:
            ((method, path, data),) = field.requests([name])
            assert getattr(client, method)(path, data).status_code == 403, name

    def test_anonymous_goes_to_login(self, client, field, ready):
        before = snapshot(field.tournament, ready)
        requests = field.requests(REFEREE_GETS + REFEREE_POSTS + ORGANISER_VIEWS)
        requests.append(("post", url("next_round", ready), {"action": "round"}))
        for method, path, data in requests:
            response = getattr(client, method)(path, data)
            assert response.status_code == 302, path
            assert response["Location"].startswith(reverse("login")), path
        assert snapshot(field.tournament, ready) == before

    def test_table_of_another_tournament_through_own_url(self, client, login_as, field):
        other = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=9)
        login_as("referee", other)
        before = snapshot(field.tournament, other)
        playing = refreshed(field.playing)
        assert client.get(url("referee_table", other, playing.pk)).status_code == 404
        for name in ["record_game", "undo_game", "call_time"]:
            data = {"winner": seated(playing)[0], "version": playing.version, "key": "cross"}
            assert client.post(url(name, other, playing.pk), data).status_code == 404, name
        assert snapshot(field.tournament, other) == before


class TestAllowed:
    @pytest.mark.parametrize("who", ["referee", "organiser", "superuser"])
    def test_referee_views(self, client, login_as, field, who):
        user = login_as(who, field.tournament)
        for method, path, _data in field.requests(REFEREE_GETS):
            assert getattr(client, method)(path).status_code == 200, path

        ((_m, path, data),) = field.requests(["set_dealer"])
        assert client.post(path, data).status_code == 302
        assert refreshed(field.fresh).first_dealer_position == 0

        games = Game.objects.filter(table=field.playing)
        a, b, c = seated(field.playing)
        ((_m, path, data),) = field.requests(["record_game"])
        assert client.post(path, data).status_code == 302
        assert games.count() == 2
        latest = games.order_by("-pk").first()
        assert latest.entered_by == user
        assert dict(latest.scores.values_list("player_id", "points")) == {a: 12, b: 50, c: 0}

        ((_m, path, data),) = field.requests(["undo_game"])
        assert client.post(path, data).status_code == 302
        assert games.filter(status=GameStatus.VOIDED).count() == 1

        ((_m, path, data),) = field.requests(["call_time"])
        assert client.post(path, data).status_code == 302
        assert refreshed(field.playing).status == enums.TableStatus.DECIDED

        ((_m, path, data),) = field.requests(["close_table"])
        assert client.post(path, data).status_code == 302
        assert refreshed(field.decided).status == enums.TableStatus.CLOSED

    @pytest.mark.parametrize("who", ["organiser", "superuser"])
    def test_organiser_views(self, client, login_as, field, ready, who):
        login_as(who, field.tournament)
        for name in ["rounds", "export_standings", "export_games"]:
            ((method, path, _data),) = field.requests([name])
            assert getattr(client, method)(path).status_code == 200, name
        before = snapshot(field.tournament)
        ((_m, path, data),) = field.requests(["next_round"])
        assert client.post(path, data).status_code == 409, "tables still playing"
        ((_m, path, data),) = field.requests(["scoring"])
        assert client.post(path, data).status_code == 422, "card points recorded: locked"
        assert snapshot(field.tournament) == before

        login_as(who, ready)
        response = client.post(url("scoring", ready), {"preset": "house_rules", **HOUSE_RULES_SCORING})
        assert response.status_code == 302
        ready.refresh_from_db()
        assert ready.scoring_table == dict(HOUSE_RULES_SCORING)
        assert client.get(url("rounds", ready)).status_code == 200
        response = client.post(url("next_round", ready), {"action": "round"})
        assert response.status_code == 302 and response["Location"] == url("rounds", ready)
        assert Round.objects.filter(tournament=ready).count() == 1

    def test_settings_page_shows_the_lock(self, client, login_as, field):
        login_as("organiser", field.tournament)
        locked = "the scoring table is locked"
        assert locked in client.get(url("settings", field.tournament)).content.decode()
        other = simulation.create_field(fmt=enums.Format.POINTS, players=6, seed=6)
        rnd = points_services.start_round(tournament=other, actor=None, seed=1)
        table = rnd.tables.order_by("number").first()
        a, _b, _c = set_dealer(other, table)
        record(other, table, a)
        undo(other, table)  # the only game undone: nothing counts, the table may change
        login_as("organiser", other)
        assert locked not in client.get(url("settings", other)).content.decode()

    def test_stale_post_from_an_allowed_referee_is_refused_with_nothing_saved(self, client, login_as, field):
        login_as("referee", field.tournament)
        ((_m, path, data),) = field.requests(["record_game"])
        stale = {**data, "version": int(data["version"]) - 1}  # type: ignore[call-overload]
        before = snapshot(field.tournament)
        response = client.post(path, stale)
        assert response.status_code == 409
        assert "changed on another tablet" in response.content.decode()
        assert snapshot(field.tournament) == before


# --------------------------------------------------------------------------
# Query counts at 20 and at 500 players
# --------------------------------------------------------------------------


def quick_field(size: int) -> Tournament:
    """``size`` checked-in players with drawn start numbers (no per-player services: fast)."""
    tournament = TournamentFactory(format=enums.Format.POINTS, capacity=size, checklist=[])
    Tournament.objects.filter(pk=tournament.pk).update(round_time_limit_minutes=25)
    players = PlayerFactory.create_batch(size, tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    CheckIn.objects.bulk_create(CheckIn(player=player) for player in players)
    services.draw_start_numbers(tournament=tournament, actor=None, seed=size)
    tournament.refresh_from_db()
    return tournament


def decide_the_rest(tournament: Tournament, rnd: Round) -> None:
    """Give every open table of ``rnd`` (none played yet) its games at once (bulk, no services: fast).

    Seat 1 wins every game; everyone else holds 3 points per game.
    """
    tables = list(rnd.tables.filter(status=enums.TableStatus.PLAYING).prefetch_related("seats"))
    assert not Game.objects.filter(table__in=tables).exists()
    games = [
        Game(table=table, number=number, winner_id=seats[0].player_id, dealer_position=number - 1)
        for table in tables
        for seats in [sorted(table.seats.all(), key=lambda s: s.position)]
        for number in range(1, tournament.games_per_round + 1)
    ]
    Game.objects.bulk_create(games)
    GameScore.objects.bulk_create(
        GameScore(game=game, player_id=seat.player_id, points=0 if seat.player_id == game.winner_id else 3)
        for game in games
        for seat in next(t for t in tables if t.pk == game.table_id).seats.all()
    )
    changed: list[Seat] = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        for place, seat in enumerate(seats, start=1):
            seat.games_won = tournament.games_per_round if place == 1 else 0
            seat.points = 0 if place == 1 else 3 * tournament.games_per_round
            seat.place = place
        changed += seats
        table.status = enums.TableStatus.DECIDED
    Seat.objects.bulk_update(changed, ["games_won", "points", "place"])
    Table.objects.bulk_update(tables, ["status"])


PAGES = ["rounds", "ranking", "referee_tables", "export_standings", "export_games"]


def measure(client, staff_user, size: int) -> tuple[dict[str, int], int]:
    """Query counts of the pages at three moments of a points tournament of ``size`` players."""
    tournament = quick_field(size)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    counts: dict[str, int] = {}

    def measure_all(moment: str, tables: dict[str, Table]) -> None:
        for name in PAGES:
            counts[f"{moment}/{name}"] = count_queries(client, url(name, tournament))
        for name, table in tables.items():
            counts[f"{moment}/referee_table_{name}"] = count_queries(client, url("referee_table", tournament, table.pk))

    # Round 1: table 1 decided (hands, typed points, an undone game), table 2 playing, the rest untouched.
    first = points_services.start_round(tournament=tournament, actor=None, seed=1)
    played, playing, fresh = first.tables.order_by("number")[:3]
    a, b, c, *rest = set_dealer(tournament, played)
    record(tournament, played, a, hands={b: {"wild_draw_four": 1, "7": 2}, c: {"skip": 1}, **{p: {} for p in rest}})
    record(tournament, played, b)
    undo(tournament, played)
    while refreshed(played).status == enums.TableStatus.PLAYING:
        record(tournament, played, c)
    x, *_others = set_dealer(tournament, playing)
    record(tournament, playing, x)
    measure_all("round1", {"decided": played, "playing": playing, "fresh": fresh})

    # Round 2 after everyone played round 1; one player withdrew (keeps their points).
    play_services.call_time(tournament=tournament, actor=None, table_id=playing.pk, version=refreshed(playing).version)
    decide_the_rest(tournament, first)
    services.withdraw_player(tournament=tournament, actor=None, player_id=a)
    second = points_services.start_round(tournament=tournament, actor=None, seed=2)
    assert second.tables.count() == (size - 1) // 3
    table = second.tables.order_by("number").first()
    y, z, *_more = set_dealer(tournament, table)
    record(tournament, table, y)
    record(tournament, table, z)
    undo(tournament, table)
    measure_all("round2", {"playing": table})

    # Finished: every table decided, the standings final.
    play_services.call_time(tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version)
    decide_the_rest(tournament, second)
    points_services.finish(tournament=tournament, actor=None)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    standings = points_services.standings(tournament)
    assert len(standings) == size
    assert Player.objects.get(pk=a).name in client.get(url("ranking", tournament)).content.decode()
    measure_all("finished", {"closed": table})
    scores = GameScore.objects.filter(game__table__round__tournament=tournament).count()
    export = client.get(url("export_games", tournament)).content.decode("utf-8")
    assert len(export.strip().splitlines()) == scores + 1
    return counts, scores


def test_query_counts_do_not_grow_with_players(client, staff_user):
    small, small_scores = measure(client, staff_user, 20)
    large, large_scores = measure(client, staff_user, 500)
    assert large_scores > 20 * small_scores  # far more rows on the pages, too
    differ = {page: (small[page], large[page]) for page in small if small[page] != large[page]}
    assert differ == {}, f"queries at 20 vs 500 players: {differ}"
    print("queries per page (same at 20 and 500 players):", small)
