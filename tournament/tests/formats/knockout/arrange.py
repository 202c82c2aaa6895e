"""A knockout tournament arranged up to its final, and the final played with a tie that a
duel decides: shared by the ranking's tests (pages, CSV, api.json) and its browser test."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass

from tournament import enums, simulation
from tournament.errors import NeedsChoice
from tournament.formats.knockout import services
from tournament.models import Round, Table, Tournament
from tournament.play import results


@dataclass(frozen=True)
class Final:
    """The final's table and its players in seat order (start numbers ascending)."""

    tournament: Tournament
    table: Table
    players: list[int]


def up_to_the_final(players: int = 9, *, seed: int = 7, target: int = 100, to_wins: bool = False) -> Final:
    """A field of ``players`` played (random results, seeded) until its final is seated, the final
    played to ``target`` points (or, ``to_wins``, to ``target`` games won)."""
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=players, seed=seed)
    if to_wins:
        tournament.final_target_kind = "wins"
        tournament.final_wins_target = target
    else:
        tournament.final_points_target = target
    tournament.save()
    rng = random.Random(seed)
    for _ in range(20):
        try:
            started = services.generate_next_round(tournament=tournament, actor=None, seed=rng.getrandbits(31))
        except NeedsChoice as needs:
            started = services.generate_next_round(
                tournament=tournament, actor=None, seed=rng.getrandbits(31), choice=needs.options[0].code
            )
        rnd = started.round
        assert rnd is not None
        if rnd.stage == enums.Stage.FINAL:
            table = rnd.tables.get(is_duel=False)
            ids = list(table.seats.order_by("position").values_list("player_id", flat=True))
            results.set_first_dealer(
                tournament=tournament, actor=None, table_id=table.pk, player_id=ids[0], version=table.version
            )
            table.refresh_from_db()
            return Final(tournament=tournament, table=table, players=ids)
        for table in rnd.tables.order_by("number"):
            simulation.play_table(tournament, table, rng, None)
    raise AssertionError("no final within 20 rounds")


def win(tournament: Tournament, table: Table, winner: int, points: dict[int, int] | None = None) -> None:
    """``winner`` wins a game at ``table`` (``points``: the card points left in the others' hands)."""
    table.refresh_from_db()
    services.record_game(
        tournament=tournament,
        actor=None,
        table_id=table.pk,
        winner_id=winner,
        version=table.version,
        idempotency_key=uuid.uuid4().hex,
        card_points=points,
    )


def duels(final: Final) -> list[Table]:
    return list(Table.objects.filter(round=final.table.round, is_duel=True).order_by("number"))


def play_duel(final: Final, duel: Table, winner: int) -> None:
    """The duel's first seat deals; ``winner`` wins it (one game: ``Tournament.duel_wins_needed``)."""
    first = duel.seats.order_by("position").values_list("player_id", flat=True)[0]
    results.set_first_dealer(
        tournament=final.tournament, actor=None, table_id=duel.pk, player_id=first, version=duel.version
    )
    while True:
        duel.refresh_from_db()
        if duel.status != enums.TableStatus.PLAYING:
            return
        win(final.tournament, duel, winner)


def close(final: Final) -> None:
    """Close the duels, then the final: the tournament finishes."""
    for table in [*duels(final), final.table]:
        table.refresh_from_db()
        services.close_table(tournament=final.tournament, actor=None, table_id=table.pk, version=table.version)
    final.tournament.refresh_from_db()
    assert final.tournament.status == enums.TournamentStatus.FINISHED


def finished_with_duel(players: int = 9, *, seed: int = 7) -> Final:
    """The final to 100 points: ``a`` (seat 1) reaches 120, ``b`` and ``c`` are tied at 30 and
    play the duel for place 2, which ``c`` wins. Closed: the tournament is finished."""
    final = up_to_the_final(players, seed=seed)
    a, b, c = final.players
    win(final.tournament, final.table, b, {a: 30, c: 0})
    win(final.tournament, final.table, c, {a: 30, b: 0})
    win(final.tournament, final.table, a, {b: 60, c: 60})
    (duel,) = duels(final)
    play_duel(final, duel, c)
    close(final)
    return final


def last_main_round(tournament: Tournament) -> Round:
    return Round.objects.filter(tournament=tournament).exclude(stage=enums.Stage.FINAL).order_by("-number")[0]
