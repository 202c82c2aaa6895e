"""Who may open the life-bands pages, and what they cost in queries.

Every staff view of a life-bands (Schocken) tournament against every role:
only the tournament's referees and organisers tap "Lost", undo, close a table
and use the half tracker (403 for everyone else, with nothing saved; anonymous
users go to the login page); only organisers open the rounds page and seat the
main round, consolation tables and the grand final. The referee table, the
rounds page with a waiting pool and consolation tables, the ranking and the
public pages issue the same number of queries at 20 and at 500 players.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Game, GameStatus
from tournament import enums, life_bands_services, services, simulation
from tournament.formats import life_bands
from tournament.models import AuditEntry, CheckIn, LedgerEntry, PoolEntry, Round, Seat, Table, Tournament
from tournament.services import REFUSED
from tournament.tests.factories import PlayerFactory, TournamentFactory
from tournament.tests.helpers import OUTSIDERS, count_queries, refreshed, seated, url

pytestmark = [pytest.mark.core, pytest.mark.django_db]

REFEREE_VIEWS = ["referee_tables", "referee_table", "half_tracker", "ranking"]
REFEREE_WRITES = ["record_game", "undo_game", "close_table", "half_tracker_post"]
ORGANISER_VIEWS = ["rounds", "next_main", "next_consolation", "next_grand_final"]


def lose(tournament: Tournament, table: Table, loser: int) -> Game:
    return life_bands_services.record_loss(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        loser_id=loser,
        version=refreshed(table).version,
        idempotency_key=uuid.uuid4().hex,
    )


def undo(tournament: Tournament, table: Table) -> Game:
    return life_bands_services.undo_last_loss(
        tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
    )


def cut_band(tournament: Tournament, table: Table, loser: int) -> None:
    """``loser`` hands in every chip they have left: their band is cut."""
    while Seat.objects.get(table=table, player_id=loser).out_order is None:
        lose(tournament, table, loser)


# --------------------------------------------------------------------------
# Roles
# --------------------------------------------------------------------------


@dataclass
class Field:
    """Round 1 of twelve players (four tables of 3): table 1 is playing (one
    chip lost), tables 2-4 are decided (one band cut each, not closed), so 3
    players wait in the pool."""

    tournament: Tournament
    playing: Table
    decided: Table

    def requests(self, names: list[str]) -> list[tuple[str, str, dict[str, object]]]:
        """(method, path, data) of each view, with data that would be accepted where it can be."""
        t = self.tournament
        playing, decided = refreshed(self.playing), refreshed(self.decided)
        ids = seated(playing)
        known: dict[str, tuple[str, str, dict[str, object]]] = {
            "referee_tables": ("get", url("referee_tables", t), {}),
            "referee_table": ("get", url("referee_table", t, playing.pk), {}),
            "half_tracker": ("get", url("half_tracker", t, playing.pk), {}),
            "ranking": ("get", url("ranking", t), {}),
            "record_game": (
                "post",
                url("record_game", t, playing.pk),
                {"loser": ids[1], "version": playing.version, "key": uuid.uuid4().hex},
            ),
            "undo_game": ("post", url("undo_game", t, playing.pk), {"version": playing.version}),
            "close_table": ("post", url("close_table", t, decided.pk), {"version": decided.version}),
            "half_tracker_post": (
                "post",
                url("half_tracker", t, playing.pk),
                {
                    "players": ",".join(map(str, ids)),
                    "stock": "13",
                    "lids": "0,0,0",
                    "half_losers": "",
                    "sharp": "0",
                    "starter": "0",
                    "dice_0": "6 5 2",
                    "dice_1": "1 1 3",
                    "dice_2": "3 2 2",
                },
            ),
            "rounds": ("get", url("rounds", t), {}),
            "next_main": ("post", url("next_round", t), {"action": "main"}),
            "next_consolation": ("post", url("next_round", t), {"action": "consolation"}),
            "next_grand_final": ("post", url("next_round", t), {"action": "grand_final"}),
        }
        return [known[name] for name in names]


def life_field(players: int, seed: int) -> Tournament:
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=players, seed=seed)
    assert tournament.auto_advance is False
    return tournament


@pytest.fixture
def field() -> Field:
    tournament = life_field(12, seed=4)
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=4)
    assert rnd is not None
    playing, *others = rnd.tables.order_by("number")
    assert [len(seated(t)) for t in (playing, *others)] == [3, 3, 3, 3]
    lose(tournament, playing, seated(playing)[0])
    for table in others:
        cut_band(tournament, table, seated(table)[0])
        assert refreshed(table).status == enums.TableStatus.DECIDED
    assert len(life_bands_services.state(tournament).pool) == 3
    tournament.refresh_from_db()
    return Field(tournament, playing, others[0])


@pytest.fixture
def other() -> Tournament:
    """Another life-bands tournament, its start numbers drawn, nothing seated."""
    return life_field(6, seed=5)


def snapshot(*tournaments: Tournament) -> tuple[object, ...]:
    """Everything a result or an organiser step would change."""
    return (
        sorted(Game.objects.values_list("pk", "status", "table_id", "loser_id")),
        sorted(LedgerEntry.objects.values_list("pk", "kind", "chips", "bands")),
        sorted(PoolEntry.objects.values_list("pk", "player_id", "left_at", "left_reason", "seated_at_table_id")),
        sorted(Round.objects.values_list("pk", "status")),
        sorted(Table.objects.values_list("pk", "status", "version")),
        sorted(Seat.objects.values_list("pk", "chips", "out_order", "advances", "place")),
        AuditEntry.objects.exclude(action=REFUSED).count(),  # a refusal leaves only its trace
        [Tournament.objects.get(pk=t.pk).version for t in tournaments],
        [Tournament.objects.get(pk=t.pk).status for t in tournaments],
    )


class TestForbidden:
    @pytest.mark.parametrize("who", OUTSIDERS)
    def test_every_view_refused(self, client, login_as, field, other, who):
        login_as(who, field.tournament)
        before = snapshot(field.tournament, other)
        requests = field.requests(REFEREE_VIEWS + REFEREE_WRITES + ORGANISER_VIEWS)
        requests.append(("post", url("next_round", other), {"action": "main"}))
        for method, path, data in requests:
            response = getattr(client, method)(path, data)
            assert response.status_code == 403, (who, path, data, response.status_code)
            htmx = getattr(client, method)(path, data, HTTP_HX_REQUEST="true")
            assert htmx.status_code == 403, (who, path, data, "htmx")
        assert snapshot(field.tournament, other) == before
        assert not Round.objects.filter(tournament=other).exists()

    def test_anonymous_goes_to_login(self, client, field, other):
        before = snapshot(field.tournament, other)
        requests = field.requests(REFEREE_VIEWS + REFEREE_WRITES + ORGANISER_VIEWS)
        requests.append(("post", url("next_round", other), {"action": "main"}))
        for method, path, data in requests:
            response = getattr(client, method)(path, data)
            assert response.status_code == 302, path
            assert response["Location"].startswith(reverse("login")), path
        assert snapshot(field.tournament, other) == before

    def test_referee_may_not_run_the_rounds(self, client, login_as, field, other):
        login_as("referee", field.tournament)
        before = snapshot(field.tournament, other)
        for method, path, data in field.requests(ORGANISER_VIEWS):
            assert getattr(client, method)(path, data).status_code == 403, (path, data)
            assert getattr(client, method)(path, data, HTTP_HX_REQUEST="true").status_code == 403, (path, data)
        login_as("referee", other)
        for action in ("main", "consolation", "grand_final"):
            assert client.post(url("next_round", other), {"action": action}).status_code == 403
        assert snapshot(field.tournament, other) == before
        assert not Round.objects.filter(tournament=other).exists()

    def test_a_referee_who_left_loses_access(self, client, login_as, field):
        user = login_as("referee", field.tournament)
        ((_m, path, data),) = field.requests(["record_game"])
        field.tournament.staff.filter(user=user).delete()
        before = snapshot(field.tournament)
        assert client.post(path, data).status_code == 403
        assert snapshot(field.tournament) == before

    def test_table_of_another_tournament_through_own_url(self, client, login_as, field, other):
        """A referee of tournament B cannot reach tournament A's tables through B's URLs."""
        login_as("referee", other)
        before = snapshot(field.tournament, other)
        playing, decided = refreshed(field.playing), refreshed(field.decided)
        loser = seated(playing)[1]
        assert client.get(url("referee_table", other, playing.pk)).status_code == 404
        assert client.get(url("half_tracker", other, playing.pk)).status_code == 404
        for name, table, data in [
            ("record_game", playing, {"loser": loser, "version": playing.version, "key": "cross"}),
            ("undo_game", playing, {"version": playing.version}),
            ("close_table", decided, {"version": decided.version}),
        ]:
            assert client.post(url(name, other, table.pk), data).status_code == 404, name
        assert snapshot(field.tournament, other) == before


class TestAllowed:
    @pytest.mark.parametrize("who", ["referee", "organiser", "superuser"])
    def test_referee_views(self, client, login_as, field, who):
        user = login_as(who, field.tournament)
        for method, path, _data in field.requests(REFEREE_VIEWS):
            assert getattr(client, method)(path).status_code == 200, path

        ((_m, path, data),) = field.requests(["half_tracker_post"])
        before = snapshot(field.tournament)
        body = client.post(path, data, HTTP_HX_REQUEST="true").content.decode()
        assert "takes 3 lids" in body  # Schock 3 decides, the 322 takes 3
        assert snapshot(field.tournament) == before  # the tracker saves nothing

        playing = field.playing
        loser = seated(playing)[1]
        ((_m, path, data),) = field.requests(["record_game"])
        assert client.post(path, data).status_code == 302
        game = Game.objects.filter(table=playing).order_by("-pk").first()
        assert game is not None and game.loser_id == loser and game.entered_by == user
        assert LedgerEntry.objects.filter(game=game, kind=enums.LedgerKind.CHIP_LOST, chips=-1).count() == 1
        assert Seat.objects.get(table=playing, player_id=loser).chips == 1

        ((_m, path, data),) = field.requests(["undo_game"])
        assert client.post(path, data).status_code == 302
        assert Game.objects.get(pk=game.pk).status == GameStatus.VOIDED
        assert Seat.objects.get(table=playing, player_id=loser).chips == 2
        assert LedgerEntry.objects.filter(game=game, kind=enums.LedgerKind.CORRECTION, chips=1).count() == 1

        ((_m, path, data),) = field.requests(["close_table"])
        assert client.post(path, data).status_code == 302
        assert refreshed(field.decided).status == enums.TableStatus.CLOSED

    def test_htmx_taps_answer_with_the_panel(self, client, login_as, field):
        login_as("referee", field.tournament)
        ((_m, path, data),) = field.requests(["record_game"])
        response = client.post(path, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        body = response.content.decode()
        assert body.lstrip().startswith('<div id="table-panel"') and "chip-icon" in body
        assert "<html" not in body

    def test_stale_tap_is_refused_with_nothing_saved(self, client, login_as, field):
        login_as("referee", field.tournament)
        ((_m, path, data),) = field.requests(["record_game"])
        stale = {**data, "version": int(data["version"]) - 1}  # type: ignore[call-overload]
        before = snapshot(field.tournament)
        response = client.post(path, stale)
        assert response.status_code == 409
        assert "changed on another tablet" in response.content.decode()
        assert snapshot(field.tournament) == before

    def test_a_tap_without_a_loser_is_refused(self, client, login_as, field):
        login_as("referee", field.tournament)
        ((_m, path, data),) = field.requests(["record_game"])
        before = snapshot(field.tournament)
        response = client.post(path, {**data, "loser": ""})
        assert response.status_code == 409
        assert "Tap the player who lost the game." in response.content.decode()
        assert snapshot(field.tournament) == before

    @pytest.mark.parametrize("who", ["organiser", "superuser"])
    def test_organiser_runs_every_step(self, client, login_as, field, who):
        tournament = field.tournament
        login_as(who, tournament)
        assert client.get(url("rounds", tournament)).status_code == 200

        # The main round cannot be re-seated while table 1 plays: refused, nothing saved.
        before = snapshot(tournament)
        refused = client.post(url("next_round", tournament), {"action": "main"})
        assert refused.status_code == 409 and "still playing" in refused.content.decode()
        assert snapshot(tournament) == before

        # Three wait: one tap forms a consolation table while the main round plays on.
        response = client.post(url("next_round", tournament), {"action": "consolation"})
        assert response.status_code == 302 and response["Location"] == url("rounds", tournament)
        consolation = Round.objects.get(tournament=tournament, stage=enums.Stage.CONSOLATION)
        assert sorted(Seat.objects.filter(table__round=consolation).values_list("player_id", flat=True)) == sorted(
            PoolEntry.objects.filter(left_reason=PoolEntry.Left.SEATED).values_list("player_id", flat=True)
        )
        assert not PoolEntry.objects.filter(tournament=tournament, left_at__isnull=True).exists()

        # Table 1 decided: the survivors are re-seated.
        cut_band(tournament, field.playing, seated(field.playing)[0])
        response = client.post(url("next_round", tournament), {"action": "main"})
        assert response.status_code == 302
        main = Round.objects.filter(tournament=tournament, stage=enums.Stage.MAIN).order_by("number")
        assert main.count() == 2 and main.last().tables.count() == 2  # type: ignore[union-attr]

        # The grand final is refused until both rounds are over.
        refused = client.post(url("next_round", tournament), {"action": "grand_final"})
        assert refused.status_code == 409 and "not over yet" in refused.content.decode()
        assert client.post(url("next_round", tournament), {"action": "jump"}).status_code == 400

    def test_grand_final_of_four(self, client, login_as):
        """Four players: the main final, its 2 out qualify from the pool directly, then the grand final."""
        tournament = life_field(4, seed=8)
        login_as("organiser", tournament)
        assert client.post(url("next_round", tournament), {"action": "main"}).status_code == 302
        final = Table.objects.get(round__tournament=tournament)
        assert final.is_final
        a, b, *_rest = seated(final)
        cut_band(tournament, final, a)
        cut_band(tournament, final, b)
        assert client.post(url("next_round", tournament), {"action": "consolation"}).status_code == 302
        assert client.post(url("next_round", tournament), {"action": "grand_final"}).status_code == 302
        gf = Round.objects.get(tournament=tournament, stage=enums.Stage.GRAND_FINAL).tables.get()
        assert sorted(seated(gf)) == sorted(seated(final))
        assert set(gf.seats.values_list("chips", flat=True)) == {tournament.chips_grand_final}
        assert client.post(url("next_round", tournament), {"action": "grand_final"}).status_code == 409


# --------------------------------------------------------------------------
# Query counts at 20 and at 500 players
# --------------------------------------------------------------------------

STAFF_PAGES = ["rounds", "ranking", "referee_tables"]
PUBLIC_PAGES = ["projector", "projector_screen", "api", "find"]


def quick_field(size: int) -> Tournament:
    """``size`` checked-in players with drawn start numbers (no per-player services: fast)."""
    tournament = TournamentFactory(
        capacity=size, checklist=[], format=enums.Format.LIFE_BANDS, game=enums.Game.SCHOCKEN
    )
    players = PlayerFactory.create_batch(size, tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    CheckIn.objects.bulk_create(CheckIn(player=player) for player in players)
    services.draw_start_numbers(tournament=tournament, actor=None, seed=size)
    tournament.refresh_from_db()
    return tournament


def decide_fast(tournament: Tournament, tables: list[Table]) -> None:
    """Decide ``tables`` as the rules would, without a service call per game (fast).

    The first seats lose every chip (2 out at a table of 4, 1 at a table of 3);
    the games and their ledger entries are written at once, then the service's
    own reconciliation derives seats, band cuts and pool entries from them.
    """
    games: list[Game] = []
    for table in tables:
        ids = seated(table)
        out = life_bands.players_out_at(len(ids))
        losers = [pid for pid in ids[:out] for _ in range(table.chips_per_player or 0)]
        games += [
            Game(table=table, number=number, loser_id=pid, idempotency_key=uuid.uuid4().hex)
            for number, pid in enumerate(losers, start=1)
        ]
    Game.objects.bulk_create(games)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            tournament=tournament,
            player_id=game.loser_id,
            table_id=game.table_id,
            game=game,
            kind=enums.LedgerKind.CHIP_LOST,
            chips=-1,
        )
        for game in games
    )
    for table in tables:
        life_bands_services._refresh(tournament, table, None)
        assert table.status == enums.TableStatus.DECIDED


def measure(client, staff_user, size: int) -> tuple[dict[str, int], int]:
    """Query counts of the pages at two moments of a life-bands tournament of ``size`` players."""
    tournament = quick_field(size)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    counts: dict[str, int] = {}

    def measure_all(moment: str, tables: dict[str, Table]) -> None:
        for name in STAFF_PAGES:
            counts[f"{moment}/{name}"] = count_queries(client, url(name, tournament))
        for name, table in tables.items():
            counts[f"{moment}/referee_table_{name}"] = count_queries(client, url("referee_table", tournament, table.pk))
            counts[f"{moment}/half_tracker_{name}"] = count_queries(client, url("half_tracker", tournament, table.pk))
        for name in PUBLIC_PAGES:
            cache.clear()  # rendered once per version: count the real work
            query = "?q=1" if name == "find" else ""  # start number 1 exists in both fields
            counts[f"{moment}/{name}"] = count_queries(client, url(name, tournament) + query)

    # Round 1: table 1 with chips lost, an undone game and a band cut (decided); every
    # other table but table 2 decided at once; the pool seated at consolation tables: the
    # first decided (a player out of the tournament, survivors back in the pool), the
    # second playing; then a band cut at table 2, still playing, puts one more in the pool.
    first = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=1)
    assert first is not None
    played, playing, *rest = first.tables.order_by("number")
    assert len(seated(played)) == len(seated(playing)) == 4
    a, b, c, _d = seated(played)
    lose(tournament, played, a)
    lose(tournament, played, b)
    undo(tournament, played)
    lose(tournament, played, a)
    cut_band(tournament, played, c)
    assert refreshed(played).status == enums.TableStatus.DECIDED
    decide_fast(tournament, rest)
    assert len(life_bands_services.state(tournament).pool) >= 6
    tables = life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=1)
    assert len(tables) >= 2
    decided, playing_too = tables[:2]
    x, y, *_more = seated(decided)
    lose(tournament, decided, y)
    cut_band(tournament, decided, x)  # their last band: out of the tournament
    if len(seated(decided)) == 4:
        cut_band(tournament, decided, y)
    assert refreshed(decided).status == enums.TableStatus.DECIDED
    lose(tournament, playing_too, seated(playing_too)[0])
    cut_band(tournament, playing, seated(playing)[1])
    assert refreshed(playing).status == enums.TableStatus.PLAYING
    waiting = life_bands_services.pool_players(tournament)
    assert len(waiting) == 3  # 2 survivors and the late cut
    body = client.get(url("rounds", tournament)).content.decode()
    assert all(entry.player.name in body for entry in waiting)
    measure_all("round1", {"decided": played, "playing": playing, "consolation": playing_too})

    # Round 2: the survivors re-seated, a second consolation wave.
    rng = random.Random(size)
    for table in (playing, playing_too):
        simulation.play_schocken_table(tournament, table, rng, None)
    decide_fast(tournament, tables[2:])
    second = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=2)
    assert second is not None and second.stage_number == 2
    table = second.tables.order_by("number").first()
    assert table is not None
    lose(tournament, table, seated(table)[0])
    undo(tournament, table)
    lose(tournament, table, seated(table)[1])
    assert life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=2)
    ranking = life_bands_services.final_ranking(tournament)
    assert len(ranking) == size and [row.place for row in ranking] == list(range(1, size + 1))
    measure_all("round2", {"playing": table})
    return counts, Table.objects.filter(round__tournament=tournament).count()


def test_query_counts_do_not_grow_with_players(client, staff_user):
    small, small_tables = measure(client, staff_user, 20)
    large, large_tables = measure(client, staff_user, 500)
    assert large_tables > 10 * small_tables  # far more tables (and pool entries) on the pages
    differ = {page: (small[page], large[page]) for page in small if small[page] != large[page]}
    assert differ == {}, f"queries at 20 vs 500 players: {differ}"
