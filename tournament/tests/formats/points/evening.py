"""The Italian points evening of issue 28, small: a points tournament in round 2 with a player
at a playing table, one whose table is done, a paused player, a withdrawn one, a late arrival
seated in round 2 and one checked in after round 2 was seated (not seated yet).

Used by the phone page's and the public pages' tests (``tests/views/test_points_public.py``)
and by the browser test that looks at them (``tests/browser/test_points_words.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tournament import desk, enums, simulation
from tournament.formats.points import services as points_services
from tournament.models import Player, Round, Table, Tournament
from tournament.tests.formats.points.helpers import play_round, start
from tournament.tests.helpers import set_settings

NAME = "Torneo UNO Patronato Carità di San Giuseppe"


@dataclass(frozen=True)
class Evening:
    tournament: Tournament
    second: Round
    playing: Player  # at a table of round 2 still playing
    done: Player  # their round-2 table is decided
    paused: Player  # pauses from round 2
    withdrawn: Player  # withdrew after round 1
    joined: Player  # checked in after round 1, seated in round 2
    waiting: Player  # checked in after round 2 was seated: not seated yet
    playing_table: Table


def evening(players: int = 13, seed: int = 5) -> Evening:
    """Round 1 played, round 2 seated with one table still playing (see the module's docstring)."""
    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=players, seed=seed)
    set_settings(tournament, name=NAME, rounds_planned=4, games_per_round=1, capacity=players + 4, venue="Patronato")
    tournament.refresh_from_db()
    play_round(tournament, start(tournament, seed=1))
    by_number = {p.start_number: p for p in Player.objects.filter(tournament=tournament)}
    paused, withdrawn = by_number[2], by_number[3]
    points_services.pause_player(tournament=tournament, actor=None, player_id=paused.pk)
    desk.withdraw_player(tournament=tournament, actor=None, player_id=withdrawn.pk, confirmed=True)
    joined = _late(tournament, "Lena Ritardo")
    second = start(tournament, seed=2)
    waiting = _late(tournament, "Marta Tardi")
    tables = list(second.tables.order_by("number"))
    playing_table = tables[-1]
    rng = random.Random(seed)
    for table in tables[:-1]:
        simulation.play_table(tournament, table, rng, None)
    playing = playing_table.seats.order_by("position").first().player  # type: ignore[union-attr]
    done = tables[0].seats.exclude(player=joined).order_by("position").first().player  # type: ignore[union-attr]
    tournament.refresh_from_db()
    return Evening(
        tournament=tournament,
        second=second,
        playing=playing,
        done=done,
        paused=Player.objects.get(pk=paused.pk),
        withdrawn=Player.objects.get(pk=withdrawn.pk),
        joined=Player.objects.get(pk=joined.pk),
        waiting=Player.objects.get(pk=waiting.pk),
        playing_table=playing_table,
    )


def _late(tournament: Tournament, name: str) -> Player:
    player = desk.register_player(tournament=tournament, actor=None, name=name, club="", confirm_same_name=True).player
    desk.check_in_player(tournament=tournament, actor=None, player_id=player.pk)
    return Player.objects.get(pk=player.pk)


def finish(evening: Evening) -> Tournament:
    """Play round 2 out, then rounds 3 and 4, and finish."""
    tournament = evening.tournament
    simulation.play_table(tournament, evening.playing_table, random.Random(3), None)
    for number in (3, 4):
        play_round(tournament, start(tournament, seed=number), seed=number)
    points_services.finish(tournament=tournament, actor=None, confirmed=True)
    tournament.refresh_from_db()
    return tournament
