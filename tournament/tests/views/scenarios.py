"""Tournaments in play for the view tests: one small scenario per format, and a snapshot of the state.

``build(fmt)`` returns a ``Scenario``: a tournament of the format in round 1 with a
table waiting for its first dealer (UNO formats), a playing table and a decided
table, plus ``ready``, another tournament of the same format with its start
numbers drawn and nothing seated (the organiser's next step would seat round 1).
``Scenario.requests(names)`` gives the (method, path, data) of each staff view of
play with data that would be accepted (see ``Scenario.requests`` for the few that
the scenario makes refusable on purpose).

``shared(django_db_blocker)`` builds the scenarios once for a whole test module:
they stay inside one open transaction that every test nests in (each test's writes
are rolled back after it), rolled back at the module's end, so nothing leaks into
other modules.

The module's fixtures (``built``, ``scenario``, and the autouse ``_cheap_clients``) are
imported by the test modules that use them (there is no conftest here).

``snapshot()`` is everything a result, an organiser's step or a setting would
change; a refused request must leave it as it was.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cached_property

import pytest
from django.test.client import ClientHandler

from games.models import Game, GameScore
from games.rules.uno import HOUSE_RULES_SCORING
from tournament import enums
from tournament.formats import registry
from tournament.formats.knockout import dry_run as knockout_dry_run
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.life_bands import services as life_bands_services
from tournament.formats.points import services as points_services
from tournament.models import AuditEntry, LedgerEntry, PoolEntry, Round, Seat, Table, Tournament
from tournament.tests.helpers import (
    built_for_the_module,
    field_at_once,
    refreshed,
    seated,
    set_dealer,
    set_settings,
    url,
)
from tournament.writes import REFUSED

FORMATS = [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS]
UNO_FORMATS = [enums.Format.KNOCKOUT, enums.Format.POINTS]

Request = tuple[str, str, dict[str, object]]
# Requests of ``Scenario.requests`` that act on ``ready``, not on the tournament in play.
ON_READY = {"next_round", "scoring"}

# The half tracker's state after the first throws of a table of three: Schock 3 decides, the 322 takes 3 lids.
TRACKER_THROWS = {
    "stock": "13",
    "lids": "0,0,0",
    "half_losers": "",
    "sharp": "0",
    "starter": "0",
    "dice_0": "6 5 2",
    "dice_1": "1 1 3",
    "dice_2": "3 2 2",
}


# --------------------------------------------------------------------------
# Results through the format's record (the services every view uses)
# --------------------------------------------------------------------------


def win(tournament: Tournament, table: Table, winner: int, *, actor: object = None, **extra: object) -> Game:
    """``winner`` wins a game at an UNO table (entered by ``actor``); where card points count,
    everyone else holds 5 unless given."""
    fmt = registry.of(tournament)
    if fmt.counts_card_points(table) and "card_points" not in extra and "hands" not in extra:
        extra["card_points"] = {pid: 5 for pid in seated(table) if pid != winner}
    return fmt.record_result(
        tournament=tournament,
        actor=actor,
        table_id=table.pk,
        winner_id=winner,
        version=refreshed(table).version,
        idempotency_key=uuid.uuid4().hex,
        **extra,
    )


def lose(tournament: Tournament, table: Table, loser: int, *, actor: object = None) -> Game:
    """``loser`` hands in a chip at a life-bands table (entered by ``actor``)."""
    return registry.of(tournament).record_result(
        tournament=tournament,
        actor=actor,
        table_id=table.pk,
        loser_id=loser,
        version=refreshed(table).version,
        idempotency_key=uuid.uuid4().hex,
    )


def cut_band(tournament: Tournament, table: Table, loser: int) -> None:
    """``loser`` hands in every chip they have left: their band is cut."""
    while Seat.objects.get(table=table, player_id=loser).out_order is None:
        lose(tournament, table, loser)


def start_round(tournament: Tournament, seed: int) -> Round:
    """Seat the next (main) round with a fixed seed (the format's service: the record's step draws its own)."""
    if tournament.format == enums.Format.KNOCKOUT:
        # The first option where the organiser is asked (9 players: round 1 as usual, a runner-up later).
        rnd = knockout_dry_run.seat_next_round(tournament, actor=None, seed=seed).round
    elif tournament.format == enums.Format.LIFE_BANDS:
        rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=seed)
    else:
        rnd = points_services.start_round(tournament=tournament, actor=None, seed=seed)
    assert rnd is not None
    return rnd


def field(fmt: str, players: int, seed: int) -> Tournament:
    """``players`` checked in and start numbers drawn, written as the desk's services write them
    (``helpers.field_at_once``)."""
    tournament = field_at_once(fmt=fmt, players=players, seed=seed)
    assert tournament.auto_advance is False
    return tournament


# --------------------------------------------------------------------------
# The scenarios
# --------------------------------------------------------------------------


@dataclass
class Scenario:
    """A tournament in round 1 and another one ready to start (see the module docstring)."""

    tournament: Tournament
    fresh: Table | None  # waits for its first dealer (UNO formats only)
    playing: Table  # one game played
    decided: Table  # decided, not closed
    ready: Tournament

    @property
    def fmt(self) -> str:
        return self.tournament.format

    @cached_property
    def seated(self) -> dict[int, list[int]]:
        """Player ids at each table of the scenario in seat order (they never change)."""
        tables = [table for table in (self.fresh, self.playing, self.decided) if table is not None]
        return {table.pk: seated(table) for table in tables}

    def tournament_of(self, name: str) -> Tournament:
        """The tournament the request ``name`` acts on (``ready`` for its round 1 and its scoring table)."""
        return self.ready if name in ON_READY else self.tournament

    def requests(self, names: Iterable[str]) -> list[Request]:
        """(method, path, data) of each view, with data that would be accepted.

        Besides the views' own names: ``half_tracker_post`` (the tracker's next throws),
        the organiser's steps -- ``next_round`` seats ``ready``'s round 1, the others
        are taken on the tournament in play: ``next_round_playing`` (refused: tables
        still play), life bands' ``consolation`` (accepted: three wait in the pool) and
        ``grand_final`` (refused: not over yet), points' ``finish`` (refused: tables
        still play) -- and points' ``scoring`` (the scoring table of ``ready``) and
        ``scoring_locked`` (refused: card points are recorded in the tournament).
        """
        t, ready, playing, decided = self.tournament, self.ready, self.playing, self.decided
        tables = [table for table in (self.fresh, playing, decided) if table is not None]
        version = dict(Table.objects.filter(pk__in=[table.pk for table in tables]).values_list("pk", "version"))
        ids = self.seated[playing.pk]
        main = {enums.Format.LIFE_BANDS: "main", enums.Format.POINTS: "round"}.get(t.format, "")
        known: dict[str, Request] = {
            "referee_tables": ("get", url("referee_tables", t), {}),
            "referee_table": ("get", url("referee_table", t, playing.pk), {}),
            "table_cards": ("get", url("table_cards", t, 1), {}),
            "ranking": ("get", url("ranking", t), {}),
            "undo_game": ("post", url("undo_game", t, playing.pk), {"version": version[playing.pk]}),
            "close_table": ("post", url("close_table", t, decided.pk), {"version": version[decided.pk]}),
            "call_time": ("post", url("call_time", t, playing.pk), {"version": version[playing.pk]}),
            "half_tracker": ("get", url("half_tracker", t, playing.pk), {}),
            "half_tracker_post": (
                "post",
                url("half_tracker", t, playing.pk),
                {"players": ",".join(map(str, ids)), **TRACKER_THROWS},
            ),
            "rounds": ("get", url("rounds", t), {}),
            "next_round": ("post", url("next_round", ready), {"action": main} if main else {}),
            "next_round_playing": ("post", url("next_round", t), {"action": main} if main else {}),
            "consolation": ("post", url("next_round", t), {"action": "consolation"}),
            "grand_final": ("post", url("next_round", t), {"action": "grand_final"}),
            "finish": ("post", url("next_round", t), {"action": "finish"}),
            "scoring": ("post", url("scoring", ready), {"preset": "house_rules", **HOUSE_RULES_SCORING}),
            "scoring_locked": ("post", url("scoring", t), {"preset": "house_rules", **HOUSE_RULES_SCORING}),
            "export_standings": ("get", url("export_standings", t), {}),
            "export_games": ("get", url("export_games", t), {}),
            "audit_log": ("get", url("audit_log", t), {}),
            # The desk's "Fee paid" (issue 32, item 2) for a seated player.
            "fee_paid": ("post", url("fee_paid", t, ids[0]), {"paid": "1"}),
            # A player's entry waiting at the table (issue 32, item 4): none waits in the scenario, so
            # confirming or rejecting is refused in words; "Handled" answers a call (none: nothing changes).
            "confirm_pending": (
                "post",
                url("confirm_pending", t, playing.pk),
                {"game": 0, "version": version[playing.pk]},
            ),
            "reject_pending": ("post", url("reject_pending", t, playing.pk), {"game": 0}),
            "clear_call": ("post", url("clear_call", t, playing.pk), {}),
        }
        if self.fresh is not None:
            fresh = self.fresh
            dealer = {"player": self.seated[fresh.pk][0], "version": version[fresh.pk]}
            known["set_dealer"] = ("post", url("set_dealer", t, fresh.pk), dealer)
        if t.format == enums.Format.LIFE_BANDS:
            entry: dict[str, object] = {"loser": ids[1]}
        elif t.format == enums.Format.POINTS:
            a, b, c = ids
            entry = {"winner": c, f"points_{a}": "12", f"hand_{b}_wild_draw_four": "1"}
        else:
            entry = {"winner": ids[-1]}
        known["record_game"] = (
            "post",
            url("record_game", t, playing.pk),
            {**entry, "version": version[playing.pk], "key": uuid.uuid4().hex},
        )
        return [known[name] for name in names]


def knockout_scenario() -> Scenario:
    """Round 1 of nine players: table 1 waits for its first dealer, table 2 is playing (one game),
    table 3 is decided but not closed."""
    tournament = field(enums.Format.KNOCKOUT, 9, seed=4)
    fresh, playing, decided = start_round(tournament, seed=4).tables.order_by("number")
    a, _b, _c = set_dealer(tournament, playing)
    win(tournament, playing, a)
    d, _e, _f = set_dealer(tournament, decided)
    for _ in range(refreshed(decided).wins_needed or 0):
        win(tournament, decided, d)
    return Scenario(tournament, fresh, playing, decided, ready=field(enums.Format.KNOCKOUT, 6, seed=5))


def life_bands_scenario() -> Scenario:
    """Round 1 of twelve players (four tables of 3): table 1 is playing (one chip lost), tables
    2-4 are decided (one band cut each, not closed), so 3 players wait in the pool."""
    tournament = field(enums.Format.LIFE_BANDS, 12, seed=4)
    playing, *others = start_round(tournament, seed=4).tables.order_by("number")
    assert [len(seated(t)) for t in (playing, *others)] == [3, 3, 3, 3]
    lose(tournament, playing, seated(playing)[0])
    for table in others:
        cut_band(tournament, table, seated(table)[0])
        assert refreshed(table).status == enums.TableStatus.DECIDED
    assert len(life_bands_selectors.state(tournament).pool) == 3
    return Scenario(tournament, None, playing, others[0], ready=field(enums.Format.LIFE_BANDS, 6, seed=5))


def points_scenario() -> Scenario:
    """Round 1 of nine players with a time limit: table 1 waits for its first dealer, table 2 is
    playing (one game), table 3 is decided (its three games) but not closed."""
    tournament = field(enums.Format.POINTS, 9, seed=4)
    set_settings(tournament, round_time_limit_minutes=30)
    tournament.refresh_from_db()
    fresh, playing, decided = start_round(tournament, seed=4).tables.order_by("number")
    a, _b, _c = set_dealer(tournament, playing)
    win(tournament, playing, a)
    for winner in set_dealer(tournament, decided):
        win(tournament, decided, winner)
    return Scenario(tournament, fresh, playing, decided, ready=field(enums.Format.POINTS, 6, seed=5))


BUILDERS = {
    enums.Format.KNOCKOUT: knockout_scenario,
    enums.Format.LIFE_BANDS: life_bands_scenario,
    enums.Format.POINTS: points_scenario,
}


def build(fmt: str) -> Scenario:
    scenario = BUILDERS[fmt]()
    assert refreshed(scenario.decided).status == enums.TableStatus.DECIDED
    assert refreshed(scenario.playing).status == enums.TableStatus.PLAYING
    scenario.tournament.refresh_from_db()
    return scenario


def shared(django_db_blocker, formats: Iterable[str] = FORMATS) -> AbstractContextManager[dict[str, Scenario]]:  # type: ignore[no-untyped-def]
    """The scenarios of ``formats`` for a whole module (``helpers.built_for_the_module``): each
    test's writes are rolled back, and all of it at the module's end."""
    return built_for_the_module(django_db_blocker, lambda: {fmt: build(fmt) for fmt in formats})


# --------------------------------------------------------------------------
# Fixtures for the modules that import them (``from ...scenarios import fixtures``)
# --------------------------------------------------------------------------


@pytest.fixture(scope="module", name="built")
def built_fixture(request, django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """The scenario of each format the module lists in ``SCENARIOS`` (default: all), built once
    for the module; each test's writes are rolled back."""
    with shared(django_db_blocker, getattr(request.module, "SCENARIOS", FORMATS)) as by_format:
        yield by_format


@pytest.fixture(name="scenario")
def scenario_fixture(built, fmt: str) -> Scenario:
    """The scenario of the test's ``fmt`` (a parameter of the test)."""
    return built[fmt]  # type: ignore[no-any-return]


@pytest.fixture(scope="module", name="client_handler")
def client_handler_fixture() -> ClientHandler:
    return ClientHandler(enforce_csrf_checks=False)


@pytest.fixture(autouse=True, name="_cheap_clients")
def cheap_clients_fixture(client, client_handler):  # type: ignore[no-untyped-def]
    """Roles, not static files, are under test here (passwords hash fast in every test: the root
    conftest): the module's test clients share one handler, whose middleware is loaded once (WhiteNoise
    scans the static files each time, 0.2 s). Cookies and the session stay each client's own."""
    client.handler = client_handler


def snapshot() -> tuple[object, ...]:
    """Everything a result, an organiser's step or a setting would change, in every tournament.

    A refusal leaves only its trace in the audit log (``entry_refused``), so those entries are left out.
    """
    return (
        list(Game.objects.order_by("pk").values_list("pk", "status", "table_id", "winner_id", "loser_id")),
        list(GameScore.objects.order_by("pk").values_list("pk", "points")),
        list(LedgerEntry.objects.order_by("pk").values_list("pk", "kind", "chips", "bands")),
        list(
            PoolEntry.objects.order_by("pk").values_list(
                "pk", "player_id", "left_at", "left_reason", "seated_at_table_id"
            )
        ),
        list(Round.objects.order_by("pk").values_list("pk", "status")),
        list(
            Table.objects.order_by("pk").values_list(
                "pk", "status", "version", "first_dealer_position", "time_called_at"
            )
        ),
        list(
            Seat.objects.order_by("pk").values_list(
                "pk", "games_won", "place", "points", "chips", "out_order", "advances"
            )
        ),
        list(AuditEntry.objects.exclude(action=REFUSED).order_by("pk").values_list("pk", "action")),
        list(Tournament.objects.order_by("pk").values_list("pk", "version", "status", "scoring_table")),
    )
