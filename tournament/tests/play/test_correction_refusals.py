"""Corrections that say what they do (issue 26): every refusal names the real reason, the table by
its one name ("Main round 2 · Table 2", never "table 2 of round 3") and the later tables it would
reach, and says what can still be done; each piece of advice is tried and works. Nothing changes
in the database on a refusal.

The championship (``championship.to_the_final``) is built once for the module; each test's
writes are rolled back.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from django.utils import translation

from tournament import enums, simulation
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.knockout import rules as knockout
from tournament.formats.knockout import services as knockout_services
from tournament.models import AuditEntry, Round, Seat, Table
from tournament.play import corrections
from tournament.seating import SeatingOption
from tournament.tests.helpers import refreshed, seated
from tournament.tests.play.championship import (  # noqa: F401 (the fixtures built, championship)
    Championship,
    built_fixture,
    championship_fixture,
    last_game,
    to_the_end,
)
from tournament.tests.play.test_corrections import snapshot
from tournament.writes import REFUSED

pytestmark = [pytest.mark.django_db]

REASON = "the referee tapped the wrong player"
# How the old messages named a place: by the tournament-wide round number.
OLD_NAMES = re.compile(r"\b(of|in) round \d|\btable \d+ of round|Correct the later rounds first")


def table_of_three(championship: Championship, stage: str, stage_number: int = 1) -> Table:
    return next(t for t in championship.tables(stage, stage_number) if t.seats.count() == 3)


def correction(table: Table, game: Any = None, **extra: Any) -> dict[str, Any]:
    game = game or last_game(table)
    return {
        "tournament": table.round.tournament,
        "fmt": registry.of(table.round.tournament),
        "actor": None,
        "table_id": table.pk,
        "game_id": game.pk,
        "version": refreshed(table).version,
        "reason": REASON,
        **extra,
    }


def refused(service: Any, **kwargs: Any) -> str:
    """The refusal's message; nothing changed, and the refusal is in the log with that reason."""
    before = snapshot(kwargs["tournament"])
    with pytest.raises(ServiceError) as error:
        service(**kwargs)
    assert snapshot(kwargs["tournament"]) == before
    message = error.value.message
    assert AuditEntry.objects.filter(action=REFUSED, detail__reason=message).exists()
    assert not OLD_NAMES.search(message), message
    return message


def names(*pids: int) -> list[str]:
    return [Seat.objects.filter(player_id=pid).first().player.name for pid in pids]  # type: ignore[union-attr]


def confirmed(service: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(corrections.ConfirmConsequences) as asked:
        service(**kwargs)
    service(**kwargs, confirm=asked.value.fingerprint)
    return asked.value.lines


# --- a table that would no longer be decided ----------------------------------------------------


def test_a_correction_that_leaves_main_round_2_without_a_winner_says_so(championship: Championship) -> None:
    """The issue's case: a game of main round 2 corrected (not voided) so that nobody has won the
    table yet, after the Final was seated from it."""
    table = table_of_three(championship, enums.Stage.MAIN, 2)
    a, b = championship.pattern[table.pk]
    c = next(pid for pid in seated(table) if pid not in (a, b))
    message = refused(corrections.correct_game, **correction(table, winner_id=c))
    anna, ben, carla = names(a, b, c)
    assert message.startswith(f"After this correction Main round 2 · Table {table.number} would no longer be decided")
    # Where it stands, player by player: the rule (three wins) is not reached.
    assert f"{anna} with 2 games won" in message and f"{ben} with 2 games won" in message
    assert f"{carla} with 1 game won" in message
    assert "would need more games" in message
    assert "Final · Table 1" in message  # the later table, by its one name
    assert "Correct nothing" in message and "correct that one so that the table stays decided" in message
    # The old advice ("correct the game instead of voiding it") is gone: this was a correction.
    assert "instead of voiding" not in message


def test_voiding_such_a_game_gives_the_same_reason(championship: Championship) -> None:
    table = table_of_three(championship, enums.Stage.MAIN, 2)
    message = refused(corrections.void_game, **correction(table))
    assert f"Main round 2 · Table {table.number} would no longer be decided" in message
    assert "Final · Table 1" in message


def test_the_advice_works_another_game_corrected_keeps_the_table_decided(championship: Championship) -> None:
    """ "If a different game was entered wrongly, correct that one": game 2 (seat 2's) given to
    seat 3 keeps seat 1 the winner; the correction is shown, confirmed and kept."""
    table = table_of_three(championship, enums.Stage.MAIN, 2)
    a, b = championship.pattern[table.pk]
    c = next(pid for pid in seated(table) if pid not in (a, b))
    game_two = table.games.get(number=2, status="valid")
    lines = confirmed(corrections.correct_game, **correction(table, game_two, winner_id=c))
    assert lines[0].startswith("Game 2: won by")
    assert refreshed(table).status == enums.TableStatus.CLOSED
    assert Seat.objects.get(table=table, place=1).player_id == a
    assert Seat.objects.filter(table=championship.final, player_id=a).exists()


def test_a_new_winner_of_main_round_2_goes_to_the_final_in_the_named_seat(championship: Championship) -> None:
    table = table_of_three(championship, enums.Stage.MAIN, 2)
    a, b = championship.pattern[table.pk]
    anna, ben = names(a, b)
    lines = confirmed(corrections.correct_game, **correction(table, winner_id=b))
    assert f"Final · Table 1: {ben} replaces {anna}; no game has been played there yet." in lines
    assert any(line.startswith(f"Main round 2 · Table {table.number}, {anna}: games won 3 → 2") for line in lines)
    assert not any(OLD_NAMES.search(line) for line in lines), lines
    assert Seat.objects.filter(table=championship.final, player_id=b).exists()


# --- a change that reaches a closed table others were seated from -----------------------------------


def test_a_new_winner_in_main_round_1_reaching_a_played_lucky_loser_table_is_refused(
    championship: Championship,
) -> None:
    """Seat 2 of a main-round-1 table would win it: seat 1 would then play the lucky-loser round
    in seat 2's place, but that table was played and main round 2 seated from it."""
    table = championship.tables(enums.Stage.MAIN, 1)[0]
    a, b = championship.pattern[table.pk]
    lucky = Table.objects.get(round=championship.round(enums.Stage.LUCKY_LOSER), seats__player_id=b)
    message = refused(corrections.correct_game, **correction(table, winner_id=b))
    anna, ben = names(a, b)
    assert message.startswith(
        f"After this correction {anna} would take the seat of {ben} at Lucky-loser round · Table {lucky.number}."
    )
    assert "already played and closed" in message
    later = Table.objects.filter(seats__player_id__in=seated(lucky), round__stage=enums.Stage.MAIN, round__number=3)
    for seated_later in later:
        assert f"Main round 2 · Table {seated_later.number}" in message
    assert "Correct nothing; only a correction that leaves the same players going on" in message


def test_the_advice_works_a_correction_keeping_who_goes_on(championship: Championship) -> None:
    """ "Only a correction that leaves the same players going on can still be made": at the same
    main-round-1 table, game 2 given to seat 3 keeps seat 1 the winner and seat 2 the runner-up."""
    table = championship.tables(enums.Stage.MAIN, 1)[0]
    a, b = championship.pattern[table.pk]
    c = next(pid for pid in seated(table) if pid not in (a, b))
    game_two = table.games.get(number=2, status="valid")
    confirmed(corrections.correct_game, **correction(table, game_two, winner_id=c))
    assert Seat.objects.get(table=table, place=1).player_id == a


# --- the knockout's own refusals: the next round planned again -------------------------------------


@pytest.mark.parametrize(
    ("plan", "words"),
    [
        ("finished", "the tournament would end after Main round 2, but Final is already seated (Final · Table 1)"),
        ("choice", "the organiser would have to choose again how to seat Final"),
        ("count", "players would go on to Final instead of the 3 seated there (Final · Table 1)"),
    ],
)
def test_a_next_round_that_would_be_seated_otherwise_is_named(
    championship: Championship, monkeypatch: pytest.MonkeyPatch, plan: str, words: str
) -> None:
    """Where the rules would seat the next round otherwise (the tournament over, a new choice, another
    count), the refusal says which and names the seated round's tables. (Changing a table's winner
    does not do that today, so the planner's answer is replaced here.)"""
    real = knockout.plan_next_round

    def planned(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        if plan == "finished":
            return knockout.Finished(ranking=())
        option = SeatingOption(code="plain_round", sizes=(3,))
        if plan == "choice":
            return dataclasses.replace(found, options=(option,))
        return dataclasses.replace(found, players=found.players[:-1])

    monkeypatch.setattr(knockout_services.knockout, "plan_next_round", planned)
    table = table_of_three(championship, enums.Stage.MAIN, 2)
    _a, b = championship.pattern[table.pk]
    message = refused(corrections.correct_game, **correction(table, winner_id=b))
    assert message.startswith("After this correction")
    assert words in message
    assert "a correction cannot" in message
    assert message.endswith(
        "Correct nothing; only a correction that leaves the same players going on (another game, card points) "
        "can still be made."
    )


# --- reopening -------------------------------------------------------------------------------------


def test_reopening_a_table_the_final_was_seated_from_names_both(championship: Championship) -> None:
    table = championship.tables(enums.Stage.MAIN, 2)[0]
    message = refused(
        corrections.reopen_table,
        tournament=championship.tournament,
        actor=None,
        table_id=table.pk,
        version=refreshed(table).version,
        reason=REASON,
    )
    assert message.startswith(f"Main round 2 · Table {table.number} can no longer be reopened")
    assert "Final · Table 1" in message and "correct a game instead" in message


# --- after the end: the final and its duel -----------------------------------------------------------


def test_a_duel_that_decides_the_final_is_named(championship: Championship) -> None:
    """The duel's refusal names the duel (a round after the final does not exist in a knockout;
    one is added here so that the refusal is reached)."""
    to_the_end(championship)
    final = championship.final
    duel = Table.objects.get(round=final.round, is_duel=True)
    Round.objects.create(tournament=championship.tournament, number=final.round.number + 1, stage_number=3)
    game = duel.games.get(number=1, status="valid")
    other = next(pid for pid in seated(duel) if pid != game.winner_id)
    message = refused(corrections.correct_game, **correction(duel, game, winner_id=other))
    assert message.startswith("Final · Duel for place 2 has been played")


def test_the_refusal_reads_in_german_and_italian(championship: Championship) -> None:
    table = table_of_three(championship, enums.Stage.MAIN, 2)
    a, b = championship.pattern[table.pk]
    c = next(pid for pid in seated(table) if pid not in (a, b))
    with translation.override("de"):
        german = refused(corrections.correct_game, **correction(table, winner_id=c))
    with translation.override("it"):
        italian = refused(corrections.correct_game, **correction(table, winner_id=c))
    assert f"Hauptrunde 2 · Tisch {table.number}" in german and "Finale · Tisch 1" in german
    assert f"Turno principale 2 · Tavolo {table.number}" in italian and "Finale · Tavolo 1" in italian
    for text in (german, italian):
        assert "After this correction" not in text


# --- life bands: the grand final and the consolation tables ------------------------------------------


def test_life_bands_refusals_name_the_tables() -> None:
    """A whole life-bands tournament, then every other loser tried for its games: the refusals that
    the grand final (seated with a table's survivors) and the consolation tables (a player who would
    no longer be out already plays there) give name the tables and say what can still be done."""
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=12, seed=3)
    simulation.simulate(tournament, seed=3)
    before = snapshot(tournament)
    found: dict[str, str] = {}
    kinds = {
        "survive": re.compile(r"^After this correction .+ would survive .+ · Table \d+, but Grand final is already"),
        "no longer out": re.compile(
            r"^After this correction .+ would no longer be out at .+ · Table \d+, but already play at .+ · Table \d+"
        ),
        "undecided": re.compile(r"^After this correction .+ · Table \d+ would no longer be decided \(.+ chips? left"),
    }
    tables = Table.objects.filter(round__tournament=tournament).select_related("round").order_by("-round__number")
    for table in tables:
        for game in table.games.filter(status="valid").order_by("number"):
            for pid in seated(table):
                if pid == game.loser_id or len(found) == len(kinds):
                    continue
                try:
                    corrections.correct_game(**correction(table, game, loser_id=pid))
                except corrections.ConfirmConsequences:
                    continue
                except ServiceError as error:
                    message = error.message
                    assert not OLD_NAMES.search(message), message
                    for kind, pattern in kinds.items():
                        if kind not in found and pattern.search(message):
                            found[kind] = message
    assert set(found) == set(kinds), found
    assert found["survive"].endswith("can still be made.")
    assert "Correct nothing; only a correction that leaves the same players out at" in found["no longer out"]
    assert snapshot(tournament) == before
