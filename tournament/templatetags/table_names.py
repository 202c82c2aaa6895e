"""``table_label``: a table's name within its round in a template (``tournament.naming.table_label``),
one filter instead of a "Duel"/"Table N" branch in every template that names a table."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from tournament import naming

register = template.Library()

# What each form gives for a table and for a duel (``duel_for_place`` 2 where it has one):
FORMS = {
    "": "Table 3 / Duel",  # the short name: lists, brackets, the projector's tables
    "place": "Table 3 / Duel for place 2",  # the referee's table page
    "number": "3 / Duel",  # a column headed "Table" (the projector's names, the printed seating A-Z)
    "printed": "Table 3 / Table 3 · Duel",  # a printed sheet: the duel is played at a numbered table
}


@register.filter
def table_label(table: Any, form: str = "") -> str:
    """``{{ table|table_label }}``: "Table 3" or "Duel" for any table-like value (a ``Table``, a
    public or printed table, a line of the projector's names: ``number``, ``is_duel`` and, for
    ``"place"``, ``duel_for_place``); ``form`` one of ``FORMS``."""
    if form not in FORMS:
        raise template.TemplateSyntaxError(f"table_label: unknown form {form!r}")
    if form == "printed":
        name = naming.table_label(table.number)
        return f"{name} · {_('Duel')}" if table.is_duel else name
    if form == "number" and not table.is_duel:
        return str(table.number)
    place = getattr(table, "duel_for_place", None) if form == "place" else None
    return naming.table_label(table.number, is_duel=table.is_duel, duel_for_place=place)
