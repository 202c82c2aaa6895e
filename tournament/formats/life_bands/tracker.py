"""The half tracker's game in progress, kept on the server per table (``TrackerGame``).

Every tablet that opens a table's tracker continues the same game: the kept state is read
when the page is shown, and each scored round is written here. Writes are compare-and-set
on ``revision``: a tablet that scored on an older revision (another tablet scored a round
meanwhile) is refused with ``StaleGame`` and shown the kept game, never overwrites it
silently. No audit entry and no tournament version: the kept game is a referee's working
copy, not a result (the result is the loser recorded at the table, which is audited).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournament.models import TrackerGame


class StaleGame(Exception):
    """The posted round was scored on an older revision than the kept one."""

    def __init__(self, kept: TrackerGame) -> None:
        super().__init__(f"revision {kept.revision}")
        self.kept = kept


def results_mark(games: list[Any]) -> str:
    """What the kept game follows at its table: "<valid games>:<id of the last valid game>".

    A result recorded, undone or corrected at the table changes it, so the kept game is then
    stale and the tracker starts the next game from the table's games. Other version changes
    (time called, a confirmation) leave a game in progress alone.
    """
    valid = [game.pk for game in games if game.status == "valid"]
    return f"{len(valid)}:{valid[-1] if valid else 0}"


def kept_game(table_id: int) -> TrackerGame | None:
    return TrackerGame.objects.filter(table_id=table_id).first()


def keep_game(*, table_id: int, revision: int, results_mark: str, state: dict[str, str]) -> TrackerGame:
    """Keep ``state`` as the table's game in progress if the kept one is still at ``revision``.

    One transaction, the table's row of kept games locked; raises ``StaleGame`` (nothing
    written) when another tablet wrote a newer revision. Returns the kept row, its revision one up.
    """
    with transaction.atomic():
        TrackerGame.objects.get_or_create(table_id=table_id)
        kept = TrackerGame.objects.select_for_update().get(table_id=table_id)
        if kept.revision != revision:
            raise StaleGame(kept)
        kept.state = state
        kept.results_mark = results_mark
        kept.revision += 1
        kept.save(update_fields=["state", "results_mark", "revision", "updated_at"])
        return kept
