"""Pieces of a public page rendered once per process, by what they show.

A projector screen is many pieces (a table's box, a page of names, a page of standings,
the bracket), and a write changes few of them: a result changes one table, its bracket
line and the standings, never the alphabetical seating. ``render`` keeps each piece's
HTML under everything it is rendered from (the template, the language and the plain
values it shows, compared in full, never by a hash alone), so a screen rendered again
after a write renders only the pieces whose values changed and copies the rest.

Kept in the process, not in the shared cache: a piece is cheap to render once per
process, a new process (a deploy, a new template) starts empty, so no piece outlives the
template it came from, and reading hundreds of pieces back from Redis would cost what
rendering them costs. The memo is bounded by the characters it holds (least recently
used first out), so a big field or many tournaments cannot grow it without end.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

MAX_CHARACTERS = 32 * 1024 * 1024  # some 32 MB of HTML per process


class Memo:
    """A least-recently-used map from a piece's key to its HTML, bounded by characters."""

    def __init__(self, max_characters: int = MAX_CHARACTERS) -> None:
        self.max_characters = max_characters
        self.characters = 0
        self._pieces: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()  # gthread workers share the process

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            html = self._pieces.get(key)
            if html is not None:
                self._pieces.move_to_end(key)
            return html

    def put(self, key: Hashable, html: str) -> None:
        with self._lock:
            old = self._pieces.pop(key, None)
            if old is not None:
                self.characters -= len(old)
            if len(html) > self.max_characters:
                return
            self._pieces[key] = html
            self.characters += len(html)
            while self.characters > self.max_characters:
                _key, evicted = self._pieces.popitem(last=False)
                self.characters -= len(evicted)

    def __len__(self) -> int:
        return len(self._pieces)

    def clear(self) -> None:
        with self._lock:
            self._pieces.clear()
            self.characters = 0


memo = Memo()


_PLAIN = frozenset({str, int, float, bool, type(None)})


def frozen(value: Any) -> Hashable:
    """``value`` as a hashable value that compares equal exactly when what it shows does:
    frozen dataclasses as they are (they compare field by field; their fields must be plain
    values), other dataclasses field by field, lists and tuples item by item, mappings item by item.
    Model instances are refused: a piece must be rendered from plain values, or its key
    would not say what it shows."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            # Compared by value already (``PublicTable``, ``PublicSeat``: plain fields only).
            hash(value)
            return value
        return (type(value).__name__, *(frozen(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if type(value) is tuple and all(type(item) in _PLAIN for item in value):
        return value  # a line of plain values (a name's line, a standings line): already a key
    if isinstance(value, (list, tuple)):
        return tuple(frozen(item) for item in value)
    if isinstance(value, Mapping):
        return tuple((key, frozen(item)) for key, item in value.items())
    if hasattr(value, "_meta"):
        raise TypeError(f"a fragment is rendered from plain values, not from {type(value).__name__}")
    hash(value)
    return value  # type: ignore[no-any-return]


class _Key:
    """A piece's key with its hash computed once: the memo hashes a key on every lookup, move
    and store, and hashing a table's frozen values walks every seat again."""

    __slots__ = ("_hash", "parts")

    def __init__(self, parts: tuple[Hashable, ...]) -> None:
        self.parts = parts
        self._hash = hash(parts)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # Equal hashes are not enough: the values are compared in full.
        return isinstance(other, _Key) and self._hash == other._hash and self.parts == other.parts


def render(template_name: str, context: Mapping[str, Any], shows: Any = None) -> SafeString:
    """The HTML of ``template_name`` rendered with ``context`` in the active language, from the
    memo when a piece with the same template, language and ``shows`` was rendered before.

    ``shows`` is everything the piece shows (by default the context itself): plain values,
    dataclasses and lists of them (``frozen``). Whatever the template reads must be in it."""
    key = _Key((template_name, translation.get_language(), frozen(context if shows is None else shows)))
    html = memo.get(key)
    if html is None:
        html = render_to_string(template_name, dict(context))
        memo.put(key, html)
    return mark_safe(html)  # our own template's output, escaped as it was rendered
