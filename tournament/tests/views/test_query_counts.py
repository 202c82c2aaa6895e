"""Each page costs the same, pinned number of queries at 20 and at 500 players, for every format.

One matrix over the formats: a field of 20 and a field of 500 players play the
same steps -- results through the format's record (``registry.of``), the
organiser's steps through the format's services, and the tables nobody watches
decided at once, in bulk, as the rules would (``decide_fast``) -- and at each
moment (round 1 played a little, a later round, the finished tournament) every
page is counted: the referee's list, the table cards, the table page of a fresh,
a playing and a decided table (life bands: also the half tracker), the rounds
page, the ranking, both CSV exports, the audit log, the desk's pages, and the
public projector, its screen, ``api.json`` and the phone page's search. Every
count must be the same at both sizes.

Big fields and whole tournaments: marked slow (left out of the SQLite smoke run).
"""

from __future__ import annotations

import random
import uuid
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Sequence

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import Max, Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameScore
from tournament import desk, enums
from tournament.errors import NeedsChoice, ServiceError
from tournament.formats import registry
from tournament.formats.knockout import rules as knockout_rules
from tournament.formats.knockout import services as knockout_services
from tournament.formats.life_bands import dry_run as life_bands_dry_run
from tournament.formats.life_bands import rules as life_bands_rules
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.life_bands import services as life_bands_services
from tournament.formats.points import services as points_services
from tournament.models import CheckIn, LedgerEntry, Player, PoolEntry, Round, Seat, Table, Tournament
from tournament.selectors import screen as screen_selectors
from tournament.tests.factories import TournamentFactory, players_in_bulk
from tournament.tests.helpers import refreshed, seated, set_dealer, set_settings, undo, url
from tournament.tests.views.scenarios import FORMATS, cut_band, lose, win
from tournament.writes import bump

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SIZES = (20, 500)
# Every format, the longest run first (pytest-xdist hands it out first).
LONGEST_FIRST = [enums.Format.LIFE_BANDS, enums.Format.POINTS, enums.Format.KNOCKOUT]
LONGEST_FIRST += [fmt for fmt in FORMATS if fmt not in LONGEST_FIRST]
CUT = enums.LedgerKind.BAND_CUT
STAFF_PAGES = ["referee_tables", "rounds", "ranking", "export_standings", "export_games", "audit_log"]
DESK_PAGES = ["desk", "check_in", "settings", "staff"]
PUBLIC_PAGES = ["projector", "projector_screen", "api", "find"]

EVERY_PAGE = (*STAFF_PAGES, *DESK_PAGES, "table_cards", "referee_table", "half_tracker", *PUBLIC_PAGES)
# The pages counted at the moment between round 1 and the end (those the formats' old tests counted there).
IN_BETWEEN = {
    enums.Format.KNOCKOUT: ("referee_tables", "referee_table", "table_cards", "rounds", "ranking"),
    enums.Format.LIFE_BANDS: ("referee_tables", "rounds", "ranking", "referee_table", "half_tracker", *PUBLIC_PAGES),
    enums.Format.POINTS: ("referee_tables", "rounds", "ranking", "export_standings", "export_games", "referee_table"),
}
# One moment of play: its name, the tables whose referee page is counted (by role) and the pages counted.
Moment = tuple[str, dict[str, Table], Collection[str]]


def quick_field(fmt: str, size: int) -> Tournament:
    """``size`` checked-in players with drawn start numbers (no per-player services: fast)."""
    fmt_record = registry.get(fmt)
    tournament = TournamentFactory(format=fmt, game=fmt_record.games[0], capacity=size, checklist=[])
    if fmt == enums.Format.POINTS:
        # Ties share their place: the tables decided in bulk tie on the podium, and the finish
        # would wait for a play-off (its pages are measured in tests/formats/points/test_ties.py).
        set_settings(tournament, round_time_limit_minutes=25, points_tie_resolution="shared")
    players = players_in_bulk(size, tournament=tournament, status=enums.PlayerStatus.CHECKED_IN)
    CheckIn.objects.bulk_create(CheckIn(player=player) for player in players)
    desk.draw_start_numbers(tournament=tournament, actor=None, seed=size)
    tournament.refresh_from_db()
    return tournament


# --------------------------------------------------------------------------
# Deciding the tables nobody watches, at once
# --------------------------------------------------------------------------


def decide_fast(tournament: Tournament, tables: list[Table]) -> None:
    """Decide the playing ``tables`` as the rules would, without a service call per game (fast)."""
    {
        enums.Format.KNOCKOUT: decide_knockout,
        enums.Format.LIFE_BANDS: decide_life_bands,
        enums.Format.POINTS: decide_points,
    }[tournament.format](tournament, tables)


def save_at_once(objects: Sequence[Model], fields: list[str]) -> None:
    """Save ``fields`` of many rows with one UPDATE per distinct set of values (faster than
    ``bulk_update``'s CASE over thousands of rows)."""
    groups: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for obj in objects:
        groups[tuple(getattr(obj, field) for field in fields)].append(obj.pk)
    for values, pks in groups.items():
        type(objects[0])._default_manager.filter(pk__in=pks).update(**dict(zip(fields, values, strict=True)))


def seats_by_table(tables: list[Table]) -> dict[int, list[Seat]]:
    """The seats of each table in seat order, their players loaded (one query)."""
    seats: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    for seat in Seat.objects.filter(table__in=tables).select_related("player").order_by("table_id", "position"):
        seats[seat.table_id].append(seat)
    return seats


def decide_knockout(tournament: Tournament, tables: list[Table]) -> None:
    """Seat 1 wins the table, the last seat won one game; places by games won, then start number
    (the seats written at once, no games)."""
    tables = [table for table in tables if not table.is_duel]
    seats_of = seats_by_table(tables)
    changed: list[Seat] = []
    for table in tables:
        seats = seats_of[table.pk]
        wins = {seat.player_id: 0 for seat in seats}
        wins[seats[-1].player_id] = 1
        wins[seats[0].player_id] = table.wins_needed or 1
        start = {seat.player_id: seat.player.start_number or 0 for seat in seats}
        order = knockout_rules.table_places(wins, start)
        for seat in seats:
            seat.games_won = wins[seat.player_id]
            seat.place = order.index(seat.player_id) + 1
            seat.advances = seat.place == 1
        changed += seats
        table.status = enums.TableStatus.DECIDED
    save_at_once(changed, ["games_won", "place", "advances"])
    save_at_once(tables, ["status"])


def decide_points(tournament: Tournament, tables: list[Table]) -> None:
    """Give every table (none played yet) its games at once: seat 1 wins every game, everyone else
    holds 3 points a game (games, scores and seats written at once)."""
    assert not Game.objects.filter(table__in=tables).exists()
    seats_of = seats_by_table(tables)
    games = [
        Game(table=table, number=number, winner_id=seats_of[table.pk][0].player_id, dealer_position=number - 1)
        for table in tables
        for number in range(1, tournament.games_per_round + 1)
    ]
    Game.objects.bulk_create(games)
    GameScore.objects.bulk_create(
        GameScore(game=game, player_id=seat.player_id, points=0 if seat.player_id == game.winner_id else 3)
        for game in games
        for seat in seats_of[game.table_id]
    )
    changed: list[Seat] = []
    for table in tables:
        for place, seat in enumerate(seats_of[table.pk], start=1):
            seat.games_won = tournament.games_per_round if place == 1 else 0
            seat.points = 0 if place == 1 else 3 * tournament.games_per_round
            seat.place = place
            changed.append(seat)
        table.status = enums.TableStatus.DECIDED
    save_at_once(changed, ["games_won", "points", "place"])
    save_at_once(tables, ["status"])


def decide_life_bands(tournament: Tournament, tables: list[Table]) -> None:
    """The first seats still in lose every chip they have left (all but one in the grand final).

    The games and their ledger entries are written at once. A table nobody played at
    is then settled at once as ``refresh_table`` would settle it (seats, band cuts, the
    pool); a table with games played, and the grand final, by ``refresh_table`` itself.
    """
    seats_of: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    for seat in Seat.objects.filter(table__in=tables).order_by("table_id", "position"):
        seats_of[seat.table_id].append(seat)
    numbers = dict(
        Game.objects.filter(table__in=tables)
        .values("table_id")
        .annotate(last=Max("number"))
        .values_list("table_id", "last")
    )
    games: list[Game] = []
    fresh: dict[int, list[Seat]] = {}  # a table nobody played at -> the seats that go out, in order
    for table in tables:
        seats = seats_of[table.pk]
        grand_final = table.round.stage == enums.Stage.GRAND_FINAL
        still_in = [seat for seat in seats if seat.out_order is None]
        out = life_bands_rules.players_out_at(len(seats), grand_final=grand_final) - (len(seats) - len(still_in))
        first = numbers.get(table.pk, 0) + 1
        losers = [seat.player_id for seat in still_in[:out] for _ in range(seat.chips)]
        games += [
            Game(table=table, number=first + index, loser_id=pid, idempotency_key=uuid.uuid4().hex)
            for index, pid in enumerate(losers)
        ]
        if first == 1 and not grand_final:
            fresh[table.pk] = still_in[:out]
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
    settle_at_once(tournament, [table for table in tables if table.pk in fresh], seats_of, fresh, games)
    for table in tables:
        if table.pk not in fresh:
            life_bands_services.refresh_table(tournament, table, None)
        assert table.status == enums.TableStatus.DECIDED, table


def settle_at_once(
    tournament: Tournament,
    tables: list[Table],
    seats_of: dict[int, list[Seat]],
    outs: dict[int, list[Seat]],
    games: list[Game],
) -> None:
    """What ``life_bands.services.refresh_table`` does to a decided table whose players went out
    one after the other in ``outs`` order, for many tables at once: seats, band cuts, the pool."""
    last_game = {(game.table_id, game.loser_id): game for game in games}
    bands = life_bands_selectors.bands_left(tournament, [seat.player_id for seats in outs.values() for seat in seats])
    changed: list[Seat] = []
    cuts: list[LedgerEntry] = []
    pool: list[PoolEntry] = []
    now = timezone.now()
    for table in tables:
        out_order = {seat.player_id: index for index, seat in enumerate(outs[table.pk], start=1)}
        consolation = table.round.stage == enums.Stage.CONSOLATION
        for seat in seats_of[table.pk]:
            pid = seat.player_id
            if pid in out_order:
                seat.chips, seat.out_order, seat.advances = 0, out_order[pid], False
                game = last_game[(table.pk, pid)]
                cuts.append(
                    LedgerEntry(tournament=tournament, player_id=pid, table=table, game=game, kind=CUT, bands=-1)
                )
                if bands[pid] - 1 > 0 and not (consolation and table.is_final):
                    pool.append(PoolEntry(tournament=tournament, player_id=pid, source_table=table))
            else:
                seat.advances = True
                if consolation and not table.is_final:  # survivors of a consolation table wait again
                    pool.append(PoolEntry(tournament=tournament, player_id=pid, source_table=table))
            changed.append(seat)
        table.status, table.decided_at, table.version = enums.TableStatus.DECIDED, now, table.version + 1
    save_at_once(changed, ["chips", "out_order", "advances"])
    LedgerEntry.objects.bulk_create(cuts)
    PoolEntry.objects.bulk_create(pool)
    save_at_once(tables, ["status", "decided_at", "version"])
    bump(tournament)


def playing_tables(tournament: Tournament) -> list[Table]:
    return list(
        Table.objects.filter(round__tournament=tournament, status=enums.TableStatus.PLAYING)
        .select_related("round")
        .order_by("pk")
    )


# --------------------------------------------------------------------------
# The same steps at every size, per format
# --------------------------------------------------------------------------


def knockout_round(tournament: Tournament) -> Round | None:
    try:
        started = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=1)
    except NeedsChoice as choice:
        started = knockout_services.generate_next_round(
            tournament=tournament, actor=None, seed=1, choice=choice.options[0].code
        )
    return started.round


def play_knockout(tournament: Tournament, size: int, facts: dict[str, int], client: Client) -> Iterator[Moment]:
    # Round 1: table 1 decided with an undone game among its games, table 2 playing, the rest untouched.
    first = knockout_round(tournament)
    assert first is not None
    assert first.tables.count() == size // 3
    played, playing, fresh = first.tables.order_by("number")[:3]
    a, b, c, *_rest = set_dealer(tournament, played)
    win(tournament, played, a)
    win(tournament, played, b)
    undo(tournament, played)
    win(tournament, played, c)
    while refreshed(played).status == enums.TableStatus.PLAYING:
        win(tournament, played, a)
    x, *_others = set_dealer(tournament, playing)
    win(tournament, playing, x)
    yield "round1", {"decided": played, "playing": playing, "fresh": fresh}, EVERY_PAGE

    # On to the final (every other table decided at once).
    rnd: Round | None = first
    while rnd is not None and rnd.stage != enums.Stage.FINAL:
        decide_fast(tournament, playing_tables(tournament))
        rnd = knockout_round(tournament)
    assert rnd is not None
    final = rnd.tables.get()
    y, z, w, *more = set_dealer(tournament, final)
    win(tournament, final, y, card_points=dict.fromkeys((z, w, *more), 5))
    win(tournament, final, z, hands={p: {"wild_draw_four": 1, "7": 2} for p in (y, w, *more)})
    win(tournament, final, w, card_points=dict.fromkeys((y, z, *more), 10))
    undo(tournament, final)
    win(tournament, final, y, card_points={z: 300, w: 250, **dict.fromkeys(more, 0)})
    assert refreshed(final).status == enums.TableStatus.DECIDED
    assert not Table.objects.filter(round=rnd, is_duel=True).exists()
    yield "final", {"decided": final}, IN_BETWEEN[enums.Format.KNOCKOUT]

    # Closing the final finishes the tournament.
    registry.of(tournament).close_table(
        tournament=tournament, actor=None, table_id=final.pk, version=refreshed(final).version
    )
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    facts["rounds"] = rnd.number
    facts["ranked"] = y  # the champion
    yield "finished", {"closed": final}, EVERY_PAGE


def play_points(tournament: Tournament, size: int, facts: dict[str, int], client: Client) -> Iterator[Moment]:
    # Round 1: table 1 decided (hands, typed points, an undone game), table 2 playing, the rest untouched.
    first = points_services.start_round(tournament=tournament, actor=None, seed=1)
    played, playing, fresh = first.tables.order_by("number")[:3]
    a, b, c, *rest = set_dealer(tournament, played)
    win(tournament, played, a, hands={b: {"wild_draw_four": 1, "7": 2}, c: {"skip": 1}, **{p: {} for p in rest}})
    win(tournament, played, b)
    undo(tournament, played)
    while refreshed(played).status == enums.TableStatus.PLAYING:
        win(tournament, played, c)
    x, *_others = set_dealer(tournament, playing)
    win(tournament, playing, x)
    yield "round1", {"decided": played, "playing": playing, "fresh": fresh}, EVERY_PAGE

    # Round 2 after everyone played round 1 (time called at table 2); one player withdrew (keeps their points).
    registry.of(tournament).call_time(  # type: ignore[misc]
        tournament=tournament, actor=None, table_id=playing.pk, version=refreshed(playing).version
    )
    decide_fast(tournament, playing_tables(tournament))
    desk.withdraw_player(tournament=tournament, actor=None, player_id=a, confirmed=True)
    second = points_services.start_round(tournament=tournament, actor=None, seed=2)
    assert second.tables.count() == (size - 1) // 3
    table, fresh_too = second.tables.order_by("number")[:2]
    y, z, *_more = set_dealer(tournament, table)
    win(tournament, table, y)
    win(tournament, table, z)
    undo(tournament, table)
    yield "round2", {"playing": table, "fresh": fresh_too}, IN_BETWEEN[enums.Format.POINTS]

    # Finished: every table decided, the standings final.
    registry.of(tournament).call_time(  # type: ignore[misc]
        tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
    )
    decide_fast(tournament, playing_tables(tournament))
    registry.of(tournament).next_step(tournament=tournament, actor=None, action="finish", confirmed=True)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    assert len(registry.of(tournament).ranking(tournament)) == size
    facts["ranked"] = a  # withdrew after round 1, still ranked
    facts["scores"] = GameScore.objects.filter(game__table__round__tournament=tournament).count()
    yield "finished", {"decided": table}, EVERY_PAGE


def play_life_bands(tournament: Tournament, size: int, facts: dict[str, int], client: Client) -> Iterator[Moment]:
    # Round 1: table 1 with chips lost, an undone game and a band cut (decided); every
    # other table but table 2 decided at once; the pool seated at consolation tables: the
    # first decided (a player out of the tournament, survivors back in the pool), the
    # second playing; then a band cut at table 2, still playing, puts one more in the pool.
    first = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=1)
    assert first is not None
    played, playing, *rest = first.tables.select_related("round").order_by("number")
    assert len(seated(played)) == len(seated(playing)) == 4
    a, b, c, _d = seated(played)
    lose(tournament, played, a)
    lose(tournament, played, b)
    undo(tournament, played)
    lose(tournament, played, a)
    cut_band(tournament, played, c)
    assert refreshed(played).status == enums.TableStatus.DECIDED
    decide_fast(tournament, rest)
    assert len(life_bands_selectors.state(tournament).pool) >= 6
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
    waiting = life_bands_selectors.pool_players(tournament)
    assert len(waiting) == 3  # 2 survivors and the late cut
    body = client.get(url("rounds", tournament)).content.decode()
    assert all(entry.player.name in body for entry in waiting)
    yield "round1", {"decided": played, "playing": playing, "consolation": playing_too}, EVERY_PAGE

    # Round 2: the survivors re-seated, a second consolation wave.
    rng = random.Random(size)
    for table in (playing, playing_too):
        life_bands_dry_run.play_table(tournament, table, rng, None)
    decide_fast(tournament, playing_tables(tournament))
    second = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=2)
    assert second is not None and second.stage_number == 2
    table = second.tables.order_by("number").first()
    assert table is not None
    lose(tournament, table, seated(table)[0])
    undo(tournament, table)
    lose(tournament, table, seated(table)[1])
    assert life_bands_services.form_consolation_tables(tournament=tournament, actor=None, seed=2)
    ranking = registry.of(tournament).ranking(tournament)
    assert len(ranking) == size and [row.place for row in ranking] == list(range(1, size + 1))
    yield "round2", {"playing": table}, IN_BETWEEN[enums.Format.LIFE_BANDS]

    # Finished: the organiser seats whatever can be seated, the tables are decided at once,
    # the grand final is played through the services and its closing ends the tournament.
    grand_final = None
    for _step in range(1_000):
        if grand_final is not None and refreshed(grand_final).status == enums.TableStatus.DECIDED:
            break
        try:
            try:
                done = life_bands_services.advance(tournament=tournament, actor=None, seed=3)
            except NeedsChoice as choice:
                done = life_bands_services.advance(
                    tournament=tournament, actor=None, seed=3, choice=choice.options[0].code
                )
        except ServiceError:
            done = ""
        if done == "grand_final":
            grand_final = Table.objects.get(round__tournament=tournament, round__stage=enums.Stage.GRAND_FINAL)
            loser = seated(grand_final)[-1]
            lose(tournament, grand_final, loser)
            undo(tournament, grand_final)
            lose(tournament, grand_final, loser)
        elif not done:
            decide_fast(tournament, playing_tables(tournament))
    assert grand_final is not None and refreshed(grand_final).status == enums.TableStatus.DECIDED
    registry.of(tournament).close_table(
        tournament=tournament, actor=None, table_id=grand_final.pk, version=refreshed(grand_final).version
    )
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    ranking = registry.of(tournament).ranking(tournament)
    assert [row.place for row in ranking] == list(range(1, size + 1))
    facts["ranked"] = ranking[0].player.pk
    yield "finished", {"decided": grand_final}, EVERY_PAGE


PLAYS: dict[str, Callable[[Tournament, int, dict[str, int], Client], Iterator[Moment]]] = {
    enums.Format.KNOCKOUT: play_knockout,
    enums.Format.LIFE_BANDS: play_life_bands,
    enums.Format.POINTS: play_points,
}


# --------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------


def pages(tournament: Tournament, tables: dict[str, Table], kinds: Collection[str]) -> dict[str, tuple[str, bool]]:
    """The path of each page of ``kinds`` (names in ``EVERY_PAGE``) and whether it is public."""
    found: dict[str, tuple[str, str, bool]] = {}  # name -> kind, path, public
    for name in STAFF_PAGES + DESK_PAGES:
        found[name] = (name, url(name, tournament), False)
    latest = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert latest is not None
    found["table_cards"] = ("table_cards", url("table_cards", tournament, latest.number), False)
    for role, table in tables.items():
        found[f"referee_table_{role}"] = ("referee_table", url("referee_table", tournament, table.pk), False)
        if tournament.format == enums.Format.LIFE_BANDS:
            found[f"half_tracker_{role}"] = ("half_tracker", url("half_tracker", tournament, table.pk), False)
    for name in PUBLIC_PAGES:
        query = "?q=1" if name == "find" else ""  # start number 1 exists in every field
        found[name] = (name, reverse(f"tournament:{name}", args=[tournament.public_key]) + query, True)
    return {name: (path, public) for name, (kind, path, public) in found.items() if kind in kinds}


def counted(client: Client, path: str) -> tuple[int, str]:
    """Queries one GET of ``path`` costs (it must answer 200), and the page."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
        # A streamed export reads while it is sent: count that too.
        body = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == 200, path
    return len(queries), body.decode("utf-8")


def measure(client: Client, staff_user, fmt: str, size: int) -> tuple[dict[str, int], dict[str, int]]:  # type: ignore[no-untyped-def]
    """Query counts of the pages at each moment of a tournament of ``size`` players, and a few facts."""
    tournament = quick_field(fmt, size)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    phone = Client()
    phone.handler = client.handler  # (its middleware is loaded once)
    counts: dict[str, int] = {}
    facts: dict[str, int] = {}
    body: dict[str, str] = {}
    for moment, tables, kinds in PLAYS[fmt](tournament, size, facts, client):
        for name, (path, public) in pages(tournament, tables, kinds).items():
            cache.clear()  # the public pages are rendered once per version: count the real work
            counts[f"{moment}/{name}"], body[name] = counted(phone if public else client, path)
    # The finished tournament's ranking and games.
    # The ranking page shows its first places (in pages); the standings CSV has every row.
    assert Player.objects.get(pk=facts["ranked"]).name in body["export_standings"]
    facts["game_lines"] = len(body["export_games"].strip().splitlines())
    facts["tables"] = Table.objects.filter(round__tournament=tournament).count()
    if fmt == enums.Format.POINTS:
        assert facts["game_lines"] == facts["scores"] + 1  # one line per score, and the header
    return counts, facts


# The queries each page costs at each moment, pinned: a change that adds a query to a page
# shows here (update the figure when the query is worth it, and say why in the commit).
PINNED: dict[str, dict[str, int]] = {
    enums.Format.KNOCKOUT: {
        "round1/referee_tables": 9,
        "round1/rounds": 17,  # + the playing tables named; + the plan, holding tables (30); + not sat down (32)
        "round1/ranking": 9,
        "round1/export_standings": 8,
        "round1/export_games": 7,
        "round1/audit_log": 10,
        "round1/desk": 10,  # + the checklist with its hand-outs counted (issue 30)
        "round1/check_in": 11,
        "round1/settings": 10,  # + the seated final and its games (issue 26), + the clubs run (issue 33)
        "round1/staff": 6,
        "round1/table_cards": 8,
        "round1/referee_table_decided": 10,
        "round1/referee_table_playing": 10,
        "round1/referee_table_fresh": 9,
        "round1/projector": 7,  # + the expected plan: counts, tables, games (issue 30)
        "round1/projector_screen": 7,  # + the expected plan: counts, tables, games (issue 30)
        "round1/api": 4,
        "round1/find": 6,  # + the tombola prizes the players found won (issue 30)
        "final/referee_tables": 9,
        "final/rounds": 16,  # + the plan, the tables holding up (issue 30); + who has not sat down (issue 32)
        "final/ranking": 9,
        "final/table_cards": 8,
        "final/referee_table_decided": 11,
        "finished/referee_tables": 10,
        "finished/rounds": 11,
        "finished/ranking": 9,
        "finished/export_standings": 8,
        "finished/export_games": 7,
        "finished/audit_log": 10,
        "finished/desk": 10,  # + the checklist with its hand-outs counted (issue 30)
        "finished/check_in": 11,
        "finished/settings": 10,  # + the seated final and its games (issue 26), + the clubs run (issue 33)
        "finished/staff": 6,
        "finished/table_cards": 8,
        "finished/referee_table_closed": 11,
        "finished/projector": 8,
        "finished/projector_screen": 8,
        "finished/api": 8,
        "finished/find": 10,  # + the tombola prizes the players found won (issue 30)
    },
    enums.Format.LIFE_BANDS: {
        "round1/referee_tables": 9,
        "round1/rounds": 26,  # + the plan, the tables holding up (issue 30); + who has not sat down (issue 32)
        # + each player's latest seat (chips, a survived final table) and the pool's qualified:
        # the ranking during play counts bands and chips (issue 27).
        "round1/ranking": 10,
        "round1/export_standings": 9,
        "round1/export_games": 7,
        "round1/audit_log": 10,
        "round1/desk": 10,  # + the checklist with its hand-outs counted (issue 30)
        "round1/check_in": 11,
        "round1/settings": 9,  # + the clubs the organiser runs (the "Organising club" card, issue 33)
        "round1/staff": 6,
        "round1/table_cards": 8,
        # Closed once its cut players were seated at a consolation table: the referee's page says
        # where its players are now (``life_bands.selectors.went_on``: three queries, issue 27).
        "round1/referee_table_decided": 14,
        "round1/half_tracker_decided": 9,
        "round1/referee_table_playing": 11,
        "round1/half_tracker_playing": 10,  # +1: the game kept for the table (TrackerGame)
        "round1/referee_table_consolation": 11,
        "round1/half_tracker_consolation": 10,  # +1: the game kept for the table (TrackerGame)
        # The public pages read who waits between rounds ("Where do I sit?": ``reads.waiting``, issue 27).
        "round1/projector": 10,  # + the expected plan: counts, tables, games (issue 30)
        "round1/projector_screen": 10,  # + the expected plan: counts, tables, games (issue 30)
        "round1/api": 7,
        "round1/find": 9,  # + the tombola prizes the players found won (issue 30)
        "round2/referee_tables": 9,
        "round2/rounds": 26,  # + the plan, the tables holding up (issue 30); + who has not sat down (issue 32)
        "round2/ranking": 10,
        "round2/referee_table_playing": 11,
        "round2/half_tracker_playing": 10,  # +1: the game kept for the table (TrackerGame)
        "round2/projector": 10,  # + the expected plan: counts, tables, games (issue 30)
        "round2/projector_screen": 10,  # + the expected plan: counts, tables, games (issue 30)
        "round2/api": 7,
        "round2/find": 9,  # + the tombola prizes the players found won (issue 30)
        "finished/referee_tables": 10,
        "finished/rounds": 23,
        "finished/ranking": 9,
        "finished/export_standings": 8,
        "finished/export_games": 7,
        "finished/audit_log": 10,
        "finished/desk": 10,  # + the checklist with its hand-outs counted (issue 30)
        "finished/check_in": 11,
        "finished/settings": 9,  # + the clubs the organiser runs (the "Organising club" card, issue 33)
        "finished/staff": 6,
        "finished/table_cards": 8,
        "finished/referee_table_decided": 11,
        "finished/half_tracker_decided": 9,
        "finished/projector": 10,
        "finished/projector_screen": 10,
        "finished/api": 10,
        "finished/find": 12,  # + the tombola prizes the players found won (issue 30)
    },
    enums.Format.POINTS: {
        "round1/referee_tables": 9,
        "round1/rounds": 19,  # + the playing tables named; + the plan, holding tables (30); + not sat down (32)
        "round1/ranking": 8,
        "round1/export_standings": 7,
        "round1/export_games": 7,
        "round1/audit_log": 10,
        "round1/desk": 10,  # + the checklist with its hand-outs counted (issue 30)
        "round1/check_in": 11,
        "round1/settings": 9,  # + the clubs the organiser runs (the "Organising club" card, issue 33)
        "round1/staff": 6,
        "round1/table_cards": 8,
        "round1/referee_table_decided": 10,
        "round1/referee_table_playing": 10,
        "round1/referee_table_fresh": 9,
        "round1/projector": 10,  # + the expected plan: counts, tables, games (issue 30)
        "round1/projector_screen": 10,  # + the expected plan: counts, tables, games (issue 30)
        "round1/api": 7,
        # The phone shows the player's total and place (issue 28): the standings' three queries
        # (players, round totals, seats), once per version for every phone (``ranking.rows``).
        "round1/find": 9,  # + the tombola prizes the players found won (issue 30)
        "round2/referee_tables": 9,
        "round2/rounds": 19,  # + the plan, the tables holding up (issue 30); + who has not sat down (issue 32)
        "round2/ranking": 8,
        "round2/export_standings": 7,
        "round2/export_games": 7,
        "round2/referee_table_playing": 10,
        "round2/referee_table_fresh": 9,
        "finished/referee_tables": 10,
        "finished/rounds": 13,
        "finished/ranking": 8,
        "finished/export_standings": 7,
        "finished/export_games": 7,
        "finished/audit_log": 10,
        "finished/desk": 10,  # + the checklist with its hand-outs counted (issue 30)
        "finished/check_in": 11,
        "finished/settings": 9,  # + the clubs the organiser runs (the "Organising club" card, issue 33)
        "finished/staff": 6,
        "finished/table_cards": 8,
        "finished/referee_table_decided": 10,
        "finished/projector": 7,
        "finished/projector_screen": 7,
        "finished/api": 7,
        "finished/find": 9,  # + the tombola prizes the players found won (issue 30)
    },
}


@pytest.fixture(autouse=True)
def _projector_reads_whole(monkeypatch):  # type: ignore[no-untyped-def]
    # Both sizes read the projector's screen whole (a big field reads it window by window, with
    # its own fixed count: test_screen_windows.py), so the pins compare one way of reading.
    monkeypatch.setattr(screen_selectors, "WHOLE_READ_CAPACITY", 10**9)


@pytest.mark.parametrize("fmt", LONGEST_FIRST)
def test_every_page_costs_the_same_at_20_and_500_players(client, staff_user, fmt):
    (small, small_facts), (large, large_facts) = (measure(client, staff_user, fmt, size) for size in SIZES)
    assert large_facts["tables"] > 10 * small_facts["tables"]  # far more on the pages, too
    if fmt == enums.Format.KNOCKOUT:
        assert large_facts["rounds"] > small_facts["rounds"]  # more rounds on the pages
    else:  # (knockout decides the tables nobody watches without games)
        assert large_facts["game_lines"] > 10 * small_facts["game_lines"]
    if fmt == enums.Format.POINTS:
        assert large_facts["scores"] > 20 * small_facts["scores"]
    assert small.keys() == large.keys() == PINNED[fmt].keys()
    differ = {page: (small[page], large[page]) for page in small if small[page] != large[page]}
    assert differ == {}, f"queries at 20 vs 500 players: {differ}"
    moved = {page: (PINNED[fmt][page], small[page]) for page in small if small[page] != PINNED[fmt][page]}
    assert moved == {}, f"queries (pinned, now): {moved}"


# --------------------------------------------------------------------------
# The tombola's pages (issue 30): the organiser's page, the printout, the projector showing the
# draw, and a winner's phone page, at 20 and 500 players with 12 prizes drawn
# --------------------------------------------------------------------------

TOMBOLA_PINNED = {
    "tombola": 9,  # + the prizes, their draws (with players), those present and the draws' players
    "print_tombola": 7,
    "projector": 4,  # the prizes and their draws (two queries) instead of the screen's lists
    "projector_screen": 4,
    "find": 6,  # + the prizes the player found won
}


def tombola_counts(client: Client, staff_user, size: int) -> tuple[dict[str, int], dict[str, str]]:  # type: ignore[no-untyped-def]
    from tournament.desk import tombola as tombola_service

    tournament = quick_field(enums.Format.KNOCKOUT, size)
    organiser = staff_user(tournament, enums.Role.ORGANISER)
    client.force_login(organiser)
    for number in range(1, 13):
        tombola_service.add_prize(tournament=tournament, actor=organiser, name=f"Prize {number}")
    for _ in range(10):
        tombola_service.draw_next(tournament=tournament, actor=organiser)
    first = tombola_service.mark_absent(
        tournament=tournament, actor=organiser, prize_id=tournament.tombola_prizes.get(position=2).pk, confirmed=True
    )
    assert first.draw is not None
    tournament.refresh_from_db()
    winner = first.draw.player
    paths = {
        "tombola": (url("tombola", tournament), False),
        "print_tombola": (url("print_tombola", tournament), False),
        "projector": (reverse("tournament:projector", args=[tournament.public_key]), True),
        "projector_screen": (reverse("tournament:projector_screen", args=[tournament.public_key]), True),
        "find": (reverse("tournament:find", args=[tournament.public_key]) + f"?q={winner.start_number}", True),
    }
    phone = Client()
    phone.handler = client.handler
    counts, bodies = {}, {}
    for name, (path, public) in paths.items():
        cache.clear()
        counts[name], bodies[name] = counted(phone if public else client, path)
    assert winner.name in bodies["projector"] and "Prize 2" in bodies["projector"]
    assert "You won prize 2" in bodies["find"]
    assert bodies["print_tombola"].count("among") >= 11
    return counts, bodies


def test_the_tombola_pages_cost_the_same_at_20_and_500_players(client, staff_user):  # type: ignore[no-untyped-def]
    (small, _), (large, _) = (tombola_counts(client, staff_user, size) for size in SIZES)
    assert small == large, f"queries at 20 vs 500 players: {small} {large}"
    assert small == TOMBOLA_PINNED


# --------------------------------------------------------------------------
# The club's register (issue 33): the register page (whole, searched, a later page), "Merge into…",
# the desk's suggestions as a name is typed, the desk with a suggestion picked, "Copy players
# from…" and the CSV, at 20 and 500 people who played in three events
# --------------------------------------------------------------------------

REGISTER_PINNED = {
    # session, user, club, its organiser, count, page, log, the possible duplicates (the marked, the
    # twins), the organisers
    "club_register": 10,
    "club_register_search": 10,
    "club_register_typo": 11,  # + the people alike (the index is read once per register version)
    "club_register_page_2": 10,
    "merge_person": 8,  # the duplicate with its events instead of the log, the candidates alike
    "register_suggest": 8,  # session, user, tournament, roles, club, count, page, the people alike
    "desk_with_person": 11,  # the desk's page with the person picked
    "copy_players": 7,  # session, user, tournament, roles, the sources with their counts, the refusal's count
    "club_register_csv": 5,  # session, user, club, its organiser, the register (one chunk of people)
}


def register_counts(client: Client, size: int) -> tuple[dict[str, int], dict[str, str]]:
    from tournament.desk import register as register_services
    from tournament.models import Person, StaffRole
    from tournament.selectors import register as register_selectors
    from tournament.tests.factories import UserFactory

    organiser = UserFactory(username=f"register-organiser-{size}")
    organiser.save()  # the factory sets the password after saving: keep the session's hash valid
    club = register_services.create_club(actor=organiser, name=f"Club of {size}")
    people = Person.objects.bulk_create(
        Person(club=club, name=f"Person {n:04d}", team="TSV", folded=f"person {n:04d} | tsv", identity=f"p{n}")
        for n in range(size)
    )
    events = [TournamentFactory(club=club, name=f"Evening {n}", checklist=[]) for n in range(3)]
    for tournament in events:
        Player.objects.bulk_create(
            Player(tournament=tournament, name=p.name, club="TSV", name_key=p.name.lower(), folded=p.folded, person=p)
            for p in people
        )
    duplicate = Person.objects.create(club=club, name="Person 0000", team="TSV Nord")
    register_services.merge_persons(club=club, actor=organiser, duplicate_id=duplicate.pk, keep_id=people[0].pk)
    empty = TournamentFactory(club=club, name="Next evening", checklist=[])
    StaffRole.objects.create(tournament=empty, user=organiser, role=enums.Role.ORGANISER)
    client.force_login(organiser)
    club.refresh_from_db()
    register_selectors.person_index(club)  # the index of this register version, as after the first keystroke
    paths = {
        "club_register": reverse("tournament:club_register", args=[club.pk]),
        "club_register_search": reverse("tournament:club_register", args=[club.pk]) + "?q=person 00",
        "club_register_typo": reverse("tournament:club_register", args=[club.pk]) + "?q=persn 0007",
        "club_register_page_2": reverse("tournament:club_register", args=[club.pk]) + "?page=2",
        "merge_person": reverse("tournament:merge_person", args=[club.pk, people[5].pk]),
        "register_suggest": url("register_suggest", empty) + "?name=Persn 0007",
        "desk_with_person": url("desk", empty) + f"?person={people[7].pk}",
        "copy_players": url("copy_players", empty),
        "club_register_csv": reverse("tournament:club_register_csv", args=[club.pk]),
    }
    counts, bodies = {}, {}
    for name, path in paths.items():
        counts[name], bodies[name] = counted(client, path)
    assert "Person 0007" in bodies["register_suggest"] and "Person 0007" in bodies["club_register_typo"]
    assert 'value="Person 0007"' in bodies["desk_with_person"]
    assert bodies["club_register_csv"].count("\n") == size + 2  # the header and everyone, merged ones too
    return counts, bodies


def test_the_register_pages_cost_the_same_at_20_and_500_people(client):  # type: ignore[no-untyped-def]
    (small, _), (large, _) = (register_counts(client, size) for size in SIZES)
    assert small == large, f"queries at 20 vs 500 people: {small} {large}"
    assert small == REGISTER_PINNED


# --------------------------------------------------------------------------
# The club's season (issue 33): the series page (staff), the public series page and its
# projector screen, a person's history and "my season" through the pass, over 12 finished
# evenings of 20 and of 500 people (built in bulk), computed afresh (cache cleared) and kept
# --------------------------------------------------------------------------

# Computed afresh, a page reads each finished event's ranking (three queries an event: 36 for the
# twelve, whatever the field) besides its own few; kept, only the versions and the names shown.
SEASON_PINNED = {
    "series": 45,  # the 7 kept below, the players' links and the tournaments, the 36 of the rankings
    "series (kept)": 7,  # session, user, club, its organiser, the series, its events, the names shown
    "series_public": 41,
    "series_public (kept)": 3,  # the series with its club, its events, the names shown
    "series_screen": 41,
    "series_screen (kept)": 3,
    "person_history": 49,  # + the club's events, the person's players, the closed tables' seats, the series
    "person_history (kept)": 10,
    "pass_season": 46,
    "pass_season (kept)": 7,
}
SEASON_EVENTS = 12


def season_counts(client: Client, size: int) -> tuple[dict[str, int], dict[str, str]]:
    from tournament.desk import register as register_services
    from tournament.passes import services as pass_services
    from tournament.season import series_rules
    from tournament.tests.factories import UserFactory
    from tournament.tests.season.helpers import bulk_evening, bulk_people, series_of

    organiser = UserFactory(username=f"season-organiser-{size}")
    organiser.save()  # the factory sets the password after saving: keep the session's hash valid
    club = register_services.create_club(actor=organiser, name=f"Season club of {size}")
    people = bulk_people(club, size)
    events = [bulk_evening(club, people, week=week, seed=size + week) for week in range(SEASON_EVENTS)]
    series = series_of(club, events, points_preset=series_rules.PRESET_CLUB_CLASSIC, best_n=8, minimum_events=3)
    player = events[-1].players.get(person=people[7])
    _, token = pass_services.issue_pass(tournament=events[-1], actor=None, player_id=player.pk)
    client.force_login(organiser)
    phone = Client()
    phone.handler = client.handler
    paths = {
        "series": (reverse("tournament:series", args=[club.pk, series.pk]), False),
        "series_public": (reverse("tournament:series_public", args=[series.public_key]), True),
        "series_screen": (reverse("tournament:series_screen", args=[series.public_key]), True),
        "person_history": (reverse("tournament:person_history", args=[club.pk, people[7].pk]), False),
        "pass_season": (reverse("tournament:pass_season", args=[token]), True),
    }
    counts, bodies = {}, {}
    for name, (path, public) in paths.items():
        cache.clear()  # computed afresh: every event's ranking and the club's rating read
        counts[name], bodies[name] = counted(phone if public else client, path)
        counts[f"{name} (kept)"], _ = counted(phone if public else client, path)
    assert "Regular 0007" in bodies["person_history"] and "<svg" in bodies["person_history"]
    assert bodies["series"].count('data-person="') == min(size, season_selectors_page_size())
    assert "Evening 12" in bodies["pass_season"]
    return counts, bodies


def season_selectors_page_size() -> int:
    from tournament.selectors import season as season_selectors

    return season_selectors.PAGE_SIZE


def test_the_season_pages_cost_the_same_at_20_and_500_people(client):  # type: ignore[no-untyped-def]
    (small, _), (large, _) = (season_counts(client, size) for size in SIZES)
    assert small == large, f"queries at 20 vs 500 people: {small} {large}"
    assert small == SEASON_PINNED
