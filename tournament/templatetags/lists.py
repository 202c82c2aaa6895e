"""``and_list``: names joined as a list in the reader's language ("A, B und C"; ``naming.and_list``)."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from tournament import naming

register = template.Library()


@register.filter
def and_list(names: Iterable[object]) -> str:
    """``{{ names|and_list }}``: "A", "A and B", "A, B and C" in the active language (escaped
    by the template like any value)."""
    return naming.and_list(names)
