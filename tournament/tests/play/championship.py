"""A knockout championship played to the seated final, for the tests of names and corrections.

``to_the_final()``: eighteen players (main round 1: six tables of three; the lucky-loser round;
main round 2: 4 + 3 + 3) with every table played in one pattern: the players in seats 1 and 2
win in turn, seat 1 the last game (a, b, a, b, a at three wins needed). So correcting a table's
last game to seat 2 makes seat 2 its winner; to seat 3, nobody has won yet. Every table of main
round 2 is closed and the Final is seated, nothing played there.

``shared(django_db_blocker)`` builds one for a whole test module, in a transaction each test
nests in (rolled back after each test, and at the module's end); the fixtures ``built`` (once a
module) and ``championship`` (each test, read again) use it: import ``built_fixture`` and
``championship_fixture`` into a test module.

``to_the_end(championship)`` plays the Final (two finalists tie, so a duel for place 2 is seated
and played) and finishes the tournament.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

import pytest

from games.models import Game, GameStatus
from tournament import enums, simulation
from tournament.errors import NeedsChoice
from tournament.formats import registry
from tournament.formats.knockout import services as knockout_services
from tournament.models import Round, Table, Tournament
from tournament.tests.helpers import built_for_the_module, refreshed, set_dealer
from tournament.tests.views.scenarios import win

PLAYERS = 18
SEED = 26


@dataclass
class Championship:
    tournament: Tournament
    # Table pk -> (seat 1, seat 2): the table's winner and the player who won every other game.
    pattern: dict[int, tuple[int, int]] = field(default_factory=dict)

    def round(self, stage: str, stage_number: int = 1) -> Round:
        return Round.objects.get(tournament=self.tournament, stage=stage, stage_number=stage_number)

    def tables(self, stage: str, stage_number: int = 1) -> list[Table]:
        return list(self.round(stage, stage_number).tables.order_by("number"))

    @property
    def final(self) -> Table:
        return Table.objects.get(round=self.round(enums.Stage.FINAL), is_duel=False)


def last_game(table: Table) -> Game:
    game = table.games.filter(status=GameStatus.VALID).order_by("-number").first()
    assert game is not None
    return game


def close(tournament: Tournament, table: Table) -> None:
    registry.of(tournament).close_table(
        tournament=tournament, actor=None, table_id=table.pk, version=refreshed(table).version
    )


def play_in_turns(tournament: Tournament, table: Table) -> tuple[int, int]:
    """Seats 1 and 2 win in turn, seat 1 the last game; the table is closed."""
    a, b, *_rest = set_dealer(tournament, table)
    needed = refreshed(table).wins_needed or 1
    for winner in [a, b] * (needed - 1) + [a]:
        win(tournament, table, winner)
    assert refreshed(table).status == enums.TableStatus.DECIDED
    close(tournament, table)
    return a, b


def next_round(tournament: Tournament, seed: int) -> Round | None:
    try:
        started = knockout_services.generate_next_round(tournament=tournament, actor=None, seed=seed)
    except NeedsChoice as needs:
        started = knockout_services.generate_next_round(
            tournament=tournament, actor=None, seed=seed, choice=needs.options[0].code
        )
    return started.round


def to_the_final(players: int = PLAYERS) -> Championship:
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=SEED)
    championship = Championship(tournament)
    for seed in range(SEED, SEED + 10):
        rnd = next_round(tournament, seed)
        assert rnd is not None
        if rnd.stage == enums.Stage.FINAL:
            return championship
        for table in rnd.tables.order_by("number"):
            championship.pattern[table.pk] = play_in_turns(tournament, table)
    raise AssertionError("no final after ten rounds")


def to_the_end(championship: Championship) -> Championship:
    """The Final (to points): seat 1 reaches the target in one game, the two others tie on no
    points, so a duel for place 2 is seated (and won by its seat 1); the Final is closed."""
    tournament = championship.tournament
    final = championship.final
    a, *others = set_dealer(tournament, final)
    target = refreshed(final).points_target or 0
    win(tournament, final, a, card_points={others[0]: target, **dict.fromkeys(others[1:], 0)})
    duel = Table.objects.get(round=final.round, is_duel=True)
    championship.pattern[duel.pk] = play_in_turns(tournament, duel)
    close(tournament, final)
    tournament.refresh_from_db()
    assert tournament.status == enums.TournamentStatus.FINISHED
    return championship


def shared(django_db_blocker) -> AbstractContextManager[Championship]:  # type: ignore[no-untyped-def]
    """``to_the_final()`` once for a test module (``tests.helpers.built_for_the_module``)."""
    return built_for_the_module(django_db_blocker, to_the_final)


@pytest.fixture(scope="module", name="built")
def built_fixture(django_db_setup, django_db_blocker) -> Iterator[Championship]:  # type: ignore[no-untyped-def]
    """The championship to the seated Final, once for the module (rolled back at its end)."""
    with shared(django_db_blocker) as championship:
        yield championship


@pytest.fixture(name="championship")
def championship_fixture(built: Championship, db) -> Championship:  # type: ignore[no-untyped-def]
    """``built`` as each test finds it (every test's changes are rolled back)."""
    built.tournament.refresh_from_db()
    return built
