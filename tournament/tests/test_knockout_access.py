"""Who may open the referee and round pages, and what they cost in queries.

Every referee view and every organiser view of knockout play against every
role: only the tournament's referees and organisers record results (403 for
everyone else, with nothing saved; anonymous users go to the login page), and
only organisers start rounds. The referee pages, the rounds page and the
ranking issue the same number of queries at 20 and at 500 players.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest
from django.db.models import Prefetch
from django.urls import reverse

from games.models import Game, GameScore
from tournament import enums, play_services, services, simulation
from tournament.formats import knockout
from tournament.models import AuditEntry, CheckIn, Player, Round, Seat, Table, Tournament
from tournament.services import REFUSED
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import OUTSIDERS, count_queries, refreshed, set_dealer, undo, url

pytestmark = [pytest.mark.core, pytest.mark.django_db]

REFEREE_GETS = ["referee_tables", "referee_table", "table_cards", "ranking"]
REFEREE_POSTS = ["set_dealer", "record_game", "undo_game", "close_table"]
ORGANISER_VIEWS = ["rounds", "next_round"]


def record(tournament: Tournament, table: Table, winner: int, **extra: object) -> Game:
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
    """Round 1 of nine players: table 1 waits for its first dealer, table 2 is
    playing (one game), table 3 is decided but not closed."""

    tournament: Tournament
    fresh: Table
    playing: Table
    decided: Table

    def requests(self, names: list[str]) -> list[tuple[str, str, dict[str, object]]]:
        """(method, path, data) of each view, with data that would be accepted."""
        t = self.tournament
        fresh, playing, decided = (refreshed(x) for x in (self.fresh, self.playing, self.decided))
        first = fresh.seats.order_by("position").first()
        assert first is not None
        winner = playing.seats.order_by("position").last()
        assert winner is not None
        known = {
            "referee_tables": ("get", url("referee_tables", t), {}),
            "referee_table": ("get", url("referee_table", t, playing.pk), {}),
            "table_cards": ("get", url("table_cards", t, 1), {}),
            "ranking": ("get", url("ranking", t), {}),
            "set_dealer": (
                "post",
                url("set_dealer", t, fresh.pk),
                {"player": first.player_id, "version": fresh.version},
            ),
            "record_game": (
                "post",
                url("record_game", t, playing.pk),
                {"winner": winner.player_id, "version": playing.version, "key": uuid.uuid4().hex},
            ),
            "undo_game": ("post", url("undo_game", t, playing.pk), {"version": playing.version}),
            "close_table": ("post", url("close_table", t, decided.pk), {"version": decided.version}),
            "rounds": ("get", url("rounds", t), {}),
            "next_round": ("post", url("next_round", t), {}),
        }
        return [known[name] for name in names]


@pytest.fixture
def field() -> Field:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=9, seed=4)
    rnd = play_services.generate_next_round(tournament=tournament, actor=None, seed=4).round
    assert rnd is not None
    fresh, playing, decided = rnd.tables.order_by("number")
    a, _b, _c = set_dealer(tournament, playing)
    record(tournament, playing, a)
    d, _e, _f = set_dealer(tournament, decided)
    for _ in range(refreshed(decided).wins_needed or 0):
        record(tournament, decided, d)
    assert refreshed(decided).status == enums.TableStatus.DECIDED
    tournament.refresh_from_db()
    return Field(tournament, fresh, playing, decided)


@pytest.fixture
def ready() -> Tournament:
    """Start numbers drawn, no round yet: "next round" would seat round 1."""
    return simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=5)


def snapshot(*tournaments: Tournament) -> tuple[object, ...]:
    """Everything a result or a round would change."""
    return (
        sorted(Game.objects.values_list("pk", "status", "table_id")),
        GameScore.objects.count(),
        sorted(Round.objects.values_list("pk", "status")),
        sorted(Table.objects.values_list("pk", "status", "version", "first_dealer_position")),
        sorted(Seat.objects.values_list("pk", "games_won", "place", "points")),
        AuditEntry.objects.exclude(action=REFUSED).count(),  # a refusal leaves only its trace
        [Tournament.objects.get(pk=t.pk).version for t in tournaments],
        [Tournament.objects.get(pk=t.pk).status for t in tournaments],
    )


class TestForbidden:
    @pytest.mark.parametrize("who", OUTSIDERS)
    def test_referee_and_organiser_views_refused(self, client, login_as, field, ready, who):
        login_as(who, field.tournament)
        before = snapshot(field.tournament, ready)
        requests = field.requests(REFEREE_GETS + REFEREE_POSTS + ORGANISER_VIEWS)
        requests.append(("post", url("next_round", ready), {}))
        for method, path, data in requests:
            response = getattr(client, method)(path, data)
            assert response.status_code == 403, (who, path, response.status_code)
            htmx = getattr(client, method)(path, data, HTTP_HX_REQUEST="true")
            assert htmx.status_code == 403, (who, path, "htmx")
        assert snapshot(field.tournament, ready) == before
        assert not Round.objects.filter(tournament=ready).exists()

    def test_referee_may_not_run_rounds(self, client, login_as, field, ready):
        login_as("referee", field.tournament)
        before = snapshot(field.tournament, ready)
        for method, path, data in field.requests(ORGANISER_VIEWS):
            assert getattr(client, method)(path, data).status_code == 403, path
        login_as("referee", ready)
        assert client.post(url("next_round", ready)).status_code == 403
        assert snapshot(field.tournament, ready) == before

    def test_anonymous_goes_to_login(self, client, field, ready):
        before = snapshot(field.tournament, ready)
        requests = field.requests(REFEREE_GETS + REFEREE_POSTS + ORGANISER_VIEWS)
        requests.append(("post", url("next_round", ready), {}))
        for method, path, data in requests:
            response = getattr(client, method)(path, data)
            assert response.status_code == 302, path
            assert response["Location"].startswith(reverse("login")), path
        assert snapshot(field.tournament, ready) == before

    def test_a_referee_who_left_loses_access(self, client, login_as, field):
        """The role removed (the organiser's staff page): the next tap is refused."""
        user = login_as("referee", field.tournament)
        _method, path, data = field.requests(["record_game"])[0]
        field.tournament.staff.filter(user=user).delete()
        before = snapshot(field.tournament)
        assert client.post(path, data).status_code == 403
        assert snapshot(field.tournament) == before

    def test_table_of_another_tournament_through_own_url(self, client, login_as, field):
        """A referee of tournament B cannot reach tournament A's tables through B's URLs."""
        other = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=9)
        login_as("referee", other)
        before = snapshot(field.tournament, other)
        playing = refreshed(field.playing)
        winner = playing.seats.first()
        assert winner is not None
        assert client.get(url("referee_table", other, playing.pk)).status_code == 404
        for name, data in [
            ("record_game", {"winner": winner.player_id, "version": playing.version, "key": "cross"}),
            ("undo_game", {"version": playing.version}),
            ("close_table", {"version": refreshed(field.decided).version}),
            ("set_dealer", {"player": winner.player_id, "version": refreshed(field.fresh).version}),
        ]:
            table = field.decided if name == "close_table" else field.fresh if name == "set_dealer" else playing
            response = client.post(url(name, other, table.pk), data)
            assert response.status_code == 404, name
        assert snapshot(field.tournament, other) == before

    def test_unknown_tournament_is_404_for_staff(self, client, login_as, field):
        login_as("organiser", field.tournament)
        assert client.get(reverse("tournament:referee_tables", args=[999_999])).status_code == 404


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
        ((_m, path, data),) = field.requests(["record_game"])
        assert client.post(path, data).status_code == 302
        assert games.count() == 2
        assert games.order_by("-pk").first().entered_by == user  # type: ignore[union-attr]

        ((_m, path, data),) = field.requests(["undo_game"])
        assert client.post(path, data).status_code == 302
        assert games.filter(status="voided").count() == 1

        ((_m, path, data),) = field.requests(["close_table"])
        assert client.post(path, data).status_code == 302
        assert refreshed(field.decided).status == enums.TableStatus.CLOSED

    @pytest.mark.parametrize("who", ["organiser", "superuser"])
    def test_organiser_views(self, client, login_as, ready, who):
        login_as(who, ready)
        assert client.get(url("rounds", ready)).status_code == 200
        response = client.post(url("next_round", ready))
        assert response.status_code == 302 and response["Location"] == url("rounds", ready)
        assert Round.objects.filter(tournament=ready).count() == 1

    def test_stale_post_from_an_allowed_referee_is_refused_with_nothing_saved(self, client, login_as, field):
        login_as("referee", field.tournament)
        ((_m, path, data),) = field.requests(["record_game"])
        stale = {**data, "version": int(data["version"]) - 1}  # type: ignore[call-overload]
        before = snapshot(field.tournament)
        response = client.post(path, stale)
        assert response.status_code == 409
        assert "changed on another tablet" in response.content.decode()
        assert snapshot(field.tournament) == before


class TestClosedFinal:
    """Once the final is closed its result stands, duel included (through the referee pages)."""

    @pytest.fixture
    def closed_final(self, client, login_as):
        tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=3, seed=2)
        tournament.final_points_target = 100
        tournament.save()
        final = play_services.generate_next_round(tournament=tournament, actor=None).round.tables.get()
        a, b, c = set_dealer(tournament, final)
        record(tournament, final, a, card_points={b: 60, c: 60})  # b and c tie on 0 points: a duel
        duel = Table.objects.get(round=final.round, is_duel=True)
        d1, d2 = set_dealer(tournament, duel)
        record(tournament, duel, d2)
        login_as("referee", tournament)
        response = client.post(url("close_table", tournament, final.pk), {"version": refreshed(final).version})
        assert response.status_code == 302
        assert refreshed(final).status == enums.TableStatus.CLOSED
        return tournament, final, duel, (a, d2, d1)

    def test_undoing_the_duel_is_refused(self, client, closed_final):
        tournament, final, duel, order = closed_final
        before = snapshot(tournament)
        places = dict(final.seats.values_list("player_id", "place"))
        assert places == {pid: place for place, pid in enumerate(order, start=1)}
        response = client.post(url("undo_game", tournament, duel.pk), {"version": refreshed(duel).version})
        assert response.status_code == 409
        assert "The final is closed" in response.content.decode()
        assert snapshot(tournament) == before
        assert refreshed(final).status == enums.TableStatus.CLOSED
        assert dict(final.seats.values_list("player_id", "place")) == places

    def test_closing_the_duel_finishes_the_tournament(self, client, closed_final):
        tournament, _final, duel, order = closed_final
        response = client.post(url("close_table", tournament, duel.pk), {"version": refreshed(duel).version})
        assert response.status_code == 302
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        ranking = client.get(url("ranking", tournament))
        assert ranking.status_code == 200
        body = ranking.content.decode()
        names = [Player.objects.get(pk=pid).name for pid in order]
        assert body.index(names[0]) < body.index(names[1]) < body.index(names[2])
        before = snapshot(tournament)
        for name, data in [("undo_game", {}), ("record_game", {"winner": order[2], "key": "late"})]:
            response = client.post(url(name, tournament, duel.pk), {"version": refreshed(duel).version, **data})
            assert response.status_code == 409, name
            assert "closed" in response.content.decode()
        assert snapshot(tournament) == before


# --------------------------------------------------------------------------
# Query counts at 20 and at 500 players
# --------------------------------------------------------------------------


def quick_field(size: int) -> Tournament:
    """``size`` checked-in players with drawn start numbers (no per-player services: fast)."""
    tournament = TournamentFactory(capacity=size, checklist=[])
    players = PlayerFactory.create_batch(size, tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    CheckIn.objects.bulk_create(CheckIn(player=player) for player in players)
    services.draw_start_numbers(tournament=tournament, actor=None, seed=size)
    tournament.refresh_from_db()
    return tournament


def decide_the_rest(rnd: Round) -> None:
    """Decide every open table of ``rnd`` at once, as the rules would (no games recorded: fast).

    Seat 1 wins the table, the last seat won one game; places by games won, then start number.
    """
    tables = list(
        rnd.tables.filter(status=enums.TableStatus.PLAYING, is_duel=False).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
    )
    changed: list[Seat] = []
    for table in tables:
        seats = list(table.seats.all())
        wins = {seat.player_id: 0 for seat in seats}
        wins[seats[-1].player_id] = 1
        wins[seats[0].player_id] = table.wins_needed or 1
        start = {seat.player_id: seat.player.start_number or 0 for seat in seats}
        order = knockout.table_places(wins, start)
        for seat in seats:
            seat.games_won = wins[seat.player_id]
            seat.place = order.index(seat.player_id) + 1
            seat.advances = seat.place == 1
        changed += seats
        table.status = enums.TableStatus.DECIDED
    Seat.objects.bulk_update(changed, ["games_won", "place", "advances"])
    Table.objects.bulk_update(tables, ["status"])


def next_round(tournament: Tournament) -> Round | None:
    try:
        started = play_services.generate_next_round(tournament=tournament, actor=None, seed=1)
    except play_services.NeedsChoice as choice:
        started = play_services.generate_next_round(
            tournament=tournament, actor=None, seed=1, choice=choice.options[0].code
        )
    return started.round


def measure(client, staff_user, size: int) -> tuple[dict[str, int], int]:
    """Query counts of the pages at three moments of a tournament of ``size`` players."""
    tournament = quick_field(size)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    counts: dict[str, int] = {}

    # Round 1: table 1 decided with an undone game among its games, table 2 playing, the rest untouched.
    first = next_round(tournament)
    assert first is not None
    assert first.tables.count() == size // 3
    played, playing = first.tables.order_by("number")[:2]
    a, b, c, *_rest = set_dealer(tournament, played)
    record(tournament, played, a)
    record(tournament, played, b)
    undo(tournament, played)
    record(tournament, played, c)
    while refreshed(played).status == enums.TableStatus.PLAYING:
        record(tournament, played, a)
    x, *_others = set_dealer(tournament, playing)
    record(tournament, playing, x)
    for name, path in [
        ("referee_tables", url("referee_tables", tournament)),
        ("referee_table", url("referee_table", tournament, played.pk)),
        ("referee_table_playing", url("referee_table", tournament, playing.pk)),
        ("referee_table_fresh", url("referee_table", tournament, first.tables.order_by("number")[2].pk)),
        ("table_cards", url("table_cards", tournament, first.number)),
        ("rounds", url("rounds", tournament)),
        ("ranking", url("ranking", tournament)),
    ]:
        counts[f"round1/{name}"] = count_queries(client, path)

    # On to the final (every other table decided at once).
    rnd: Round | None = first
    while rnd is not None and rnd.stage != enums.Stage.FINAL:
        decide_the_rest(rnd)
        rnd = next_round(tournament)
    assert rnd is not None
    final = rnd.tables.get()
    y, z, w, *_more = set_dealer(tournament, final)
    record(tournament, final, y, card_points=dict.fromkeys((z, w, *_more), 5))
    record(tournament, final, z, hands={p: {"wild_draw_four": 1, "7": 2} for p in (y, w, *_more)})
    record(tournament, final, w, card_points=dict.fromkeys((y, z, *_more), 10))
    undo(tournament, final)
    record(tournament, final, y, card_points={z: 300, w: 250, **dict.fromkeys(_more, 0)})
    assert refreshed(final).status == enums.TableStatus.DECIDED
    assert not Table.objects.filter(round=rnd, is_duel=True).exists()
    for name, path in [
        ("referee_tables", url("referee_tables", tournament)),
        ("referee_table", url("referee_table", tournament, final.pk)),
        ("table_cards", url("table_cards", tournament, rnd.number)),
        ("rounds", url("rounds", tournament)),
        ("ranking", url("ranking", tournament)),
    ]:
        counts[f"final/{name}"] = count_queries(client, path)

    # Closing the final finishes the tournament.
    play_services.close_table(tournament=tournament, actor=None, table_id=final.pk, version=refreshed(final).version)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    body = client.get(url("ranking", tournament)).content.decode()
    assert Player.objects.get(pk=y).name in body
    for name in ["rounds", "ranking", "referee_tables"]:
        counts[f"finished/{name}"] = count_queries(client, url(name, tournament))
    counts["finished/referee_table"] = count_queries(client, url("referee_table", tournament, final.pk))
    return counts, rnd.number


def test_query_counts_do_not_grow_with_players(client, staff_user):
    small, small_rounds = measure(client, staff_user, 20)
    large, large_rounds = measure(client, staff_user, 500)
    assert large_rounds > small_rounds  # more rounds on the pages, too
    differ = {page: (small[page], large[page]) for page in small if small[page] != large[page]}
    assert differ == {}, f"queries at 20 vs 500 players: {differ}"
