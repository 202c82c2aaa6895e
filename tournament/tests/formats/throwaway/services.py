"""The throwaway format's writes, built from the play core's table services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournament.errors import UnknownStep
from tournament.formats import entries
from tournament.formats.record import StepDone
from tournament.models import Table, Tournament
from tournament.play import corrections, results
from tournament.play.tables import save_outcome, save_tally, tally
from tournament.tests.formats.throwaway import rules
from tournament.writes import User


def refresh_table(tournament: Tournament, table: Table, actor: User) -> None:
    result = tally(table)
    decided = rules.table_decided(result.wins, tournament.first_to)
    places = {pid: place for place, pid, _rule in rules.rank(result.wins, result.start_numbers)} if decided else {}
    save_tally(table, result, places, decided=decided)
    save_outcome(tournament, table, decided=decided)


def score_game(
    tournament: Tournament, table: Table, winner_id: int, priced: results.Priced
) -> dict[int, tuple[int, dict[str, Any]]]:
    """Games only: no card points."""
    return {}


def _after_close(tournament: Tournament, table: Table, actor: User) -> None:
    return None


def next_step(
    *, tournament: Tournament, actor: User, action: str = "", choice: str = "", confirmed: bool = False
) -> StepDone:
    raise UnknownStep(_("Unknown action."))


record_result = results.winner_recorder(score=score_game, refresh=refresh_table)
result_entry = entries.WinnerEntry(record_result)
undo_result = results.undoer(refresh=refresh_table)
close_table = results.closer(after=_after_close)
CORRECTIONS = corrections.CorrectionHooks(
    refresh=refresh_table,
    rescore=results.rescorer(score_game),
    give_back=corrections.no_give_back,
    downstream=corrections.no_swaps,
    after_swap=corrections.nothing_after_swap,
)
