"""The one name of a round and of a table, as every page, the log, the corrections, the
exports, the printouts and ``api.json`` say it, in the reader's language.

A round is named by its stage and its number within the stage ("Main round 2",
"Lucky-loser round", "Final", "Consolation round", "Grand final"; in a format with one stage,
the points format, "Round 2"), never by the
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


# The format of every tournament this process has read (``note_format``: a tournament is always
# read before its rounds are named). A format is fixed once play has started, so a round's name
# never changes under it; a reused id is written over when its new tournament is read.
_FORMAT_OF: dict[int, str] = {}


def note_format(tournament_id: int, fmt: str) -> None:
    """Remember the format of tournament ``tournament_id`` (``Tournament`` does on every read and save)."""
    if _FORMAT_OF.get(tournament_id) != fmt:
        _FORMAT_OF[tournament_id] = fmt


def plain_round(stage: str, tournament_id: int | None) -> bool:
    """Whether a round of ``stage`` is named plainly, "Round 2" and not "Main round 2": the main
    stage of a format whose spec says so (points: nothing is played beside its rounds; its
    play-offs keep their own name). Unknown to this process (a tournament never read here), a
    round keeps its stage's name."""
    fmt = _FORMAT_OF.get(tournament_id) if tournament_id is not None else None
    if fmt is None or stage != enums.Stage.MAIN:
        return False
    from tournament.formats import registry  # the formats import the models, which import this module

    record = registry.FORMATS.get(fmt)
    return record is not None and record.spec.plain_round_names


def stage_name(stage: str, tournament_id: int | None = None) -> str:
    """The stage alone: "Main round", "Consolation round" (the CSV's stage column); "Round" in a
    format with one stage (``plain_round``)."""
    if plain_round(stage, tournament_id):
        return _("Round")
    try:
        return str(enums.Stage(stage).label)
    except ValueError:
        return str(stage)


def round_name(stage: str, stage_number: int, tournament_id: int | None = None) -> str:
    """ "Main round 2", "Lucky-loser round", "Final" (``Round.__str__``); "Round 2" in a format with
    one stage (points: ``plain_round``)."""
    if plain_round(stage, tournament_id):
        return _("Round %(number)s") % {"number": stage_number}
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
        round_name(rnd.stage, rnd.stage_number, rnd.tournament_id),
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
