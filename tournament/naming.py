"""The one name of a round and of a table, as every page, the log, the corrections, the
exports, the printouts and ``api.json`` say it, in the reader's language.

A round is named by its stage and its number within the stage ("Main round 2",
"Lucky-loser round", "Final", "Consolation round", "Grand final"), never by the
tournament-wide ``Round.number`` (main round 2 may be the tournament's third round, after
the lucky-loser round). A table is "Table 3", a duel of the knockout final "Duel" (in
sentences "Duel for place 2", where its place is known); where the round is not said
around it, the round comes first: "Main round 2 · Table 3", "Final · Duel for place 2".

Nothing is stored: every name is made when it is shown, so it follows the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from tournament import enums

if TYPE_CHECKING:
    from tournament.models import Table

# Stages with one round each: named by the stage alone.
_SINGLE = frozenset({enums.Stage.FINAL, enums.Stage.GRAND_FINAL, enums.Stage.LUCKY_LOSER, enums.Stage.CONSOLATION})


def stage_name(stage: str) -> str:
    """The stage alone: "Main round", "Consolation round" (the CSV's stage column)."""
    try:
        return str(enums.Stage(stage).label)
    except ValueError:
        return str(stage)


def round_name(stage: str, stage_number: int) -> str:
    """ "Main round 2", "Lucky-loser round", "Final" (``Round.__str__``)."""
    label = stage_name(stage)
    if stage in _SINGLE:
        return label
    return f"{label} {stage_number}"


def table_label(number: int, *, is_duel: bool = False, duel_for_place: int | None = None) -> str:
    """A table within its round: "Table 3", "Duel for place 2" (a duel without a place: "Duel")."""
    if is_duel:
        if duel_for_place:
            return _("Duel for place %(place)s") % {"place": duel_for_place}
        return _("Duel")
    return _("Table %(number)s") % {"number": number}


def table_name(round_label: str, number: int, *, is_duel: bool = False, duel_for_place: int | None = None) -> str:
    """A table with its round, where nothing around it says the round: "Main round 2 · Table 3"."""
    return _("%(round)s · %(table)s") % {
        "round": round_label,
        "table": table_label(number, is_duel=is_duel, duel_for_place=duel_for_place),
    }


def of_table(table: Table) -> str:
    """The one name of a ``Table`` (its round read from ``table.round``)."""
    rnd = table.round
    return table_name(
        round_name(rnd.stage, rnd.stage_number),
        table.number,
        is_duel=table.is_duel,
        duel_for_place=table.duel_for_place,
    )


def and_list(names: Iterable[object]) -> str:
    """Names joined as a list in the reader's language: "A", "A and B", "A, B and C"
    (German "A, B und C", Italian "A, B e C"); "" for none. The template filter
    ``and_list`` (``{% load lists %}``) says the same on the pages."""
    return str(get_text_list([str(name) for name in names], _("and")))


def names_list(names: list[str], limit: int = 6) -> str:
    """Names joined by commas; beyond ``limit``, "… and N more"."""
    if len(names) <= limit:
        return ", ".join(names)
    return _("%(names)s and %(count)d more") % {"names": ", ".join(names[:limit]), "count": len(names) - limit}
