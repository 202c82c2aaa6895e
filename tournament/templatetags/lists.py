"""``and_list``: names joined as a list in the reader's language ("A, B und C"; ``naming.and_list``);
``lookup``: a mapping's value in a template."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template

from tournament import naming

register = template.Library()


@register.filter
def and_list(names: Iterable[object]) -> str:
    """``{{ names|and_list }}``: "A", "A and B", "A, B and C" in the active language (escaped
    by the template like any value)."""
    return naming.and_list(names)


@register.filter
def lookup(mapping: Mapping[Any, Any] | None, key: object) -> Any:
    """``{{ mapping|lookup:key }}``: the value under ``key``, or an empty list when there is none
    (the phone page's tombola prizes by player id)."""
    return (mapping or {}).get(key, [])
