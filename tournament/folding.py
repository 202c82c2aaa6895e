"""Names folded for search and sorting, however they are typed. Pure: no Django.

A desk clerk types "holler", "hoeller" or "Höller"; a player on the phone types
"Rudiger"; an Italian volunteer types "Nicolo". All must find the person, and
lists must sort "Mägdalena" before "Michaela" and "Änne" before "Zoë".

- ``plain(text)``: transliterated to ASCII by anyascii (ö -> o, ß -> ss, à -> a,
  ø -> o, Æ -> AE), lower case, anything but letters and digits a single space.
  Sorting by it is German dictionary order (DIN 5007-1: ä sorts as a) and the
  Italian one (accents ignored).
- ``digraphs(text)``: ``plain`` with the German spellings of umlauts without the
  key ("ae", "oe", "ue") read as the vowel, so "hoeller" and "Höller" meet at
  "holler".
- ``search_text(name, club)``: what a player row stores (``Player.folded``): the
  name's plain and digraph forms, then the club's. It starts with the plain name,
  so it is also the sort key.
- ``query_words(query)``: each typed word as its (plain, digraph) pair; a row
  matches a word when either form is a substring of its ``search_text``, and the
  query when every word matches. Both forms are needed: the digraph form alone
  would lose "ela" in "Manuela" (stored as "manula").
"""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
# "e" after a, o or u, however many (one pass leaves no new digraph: ``digraphs`` is idempotent).
_UMLAUT_DIGRAPH = re.compile(r"([aou])e+")
# Longest stored search text: a name and a club of 120 characters each, two forms of each, separators.
SEARCH_TEXT_MAX = 600


def plain(text: str) -> str:
    """ASCII, lower case, words separated by one space: the sort key and the first search form."""
    ascii_text = anyascii(unicodedata.normalize("NFKC", text)).lower()
    return _NOT_ALNUM.sub(" ", ascii_text).strip()


def digraphs(text: str) -> str:
    """``plain`` with "ae", "oe", "ue" read as "a", "o", "u" (German umlauts typed without the key)."""
    return _UMLAUT_DIGRAPH.sub(r"\1", plain(text))


def search_text(name: str, club: str = "") -> str:
    """The folded forms of a player's name and club, name first (see the module docstring)."""
    parts = [plain(name), digraphs(name), "|", plain(club), digraphs(club)]
    return " ".join(part for part in parts if part)[:SEARCH_TEXT_MAX]


def query_words(query: str) -> list[tuple[str, str]]:
    """(plain, digraph) of every word typed; empty for a query with no letters or digits."""
    return [(word, digraphs(word)) for word in plain(query).split()]


def matches(query: str, name: str, club: str = "") -> bool:
    """Whether a player matches a typed query: the rule the database filter applies, for pure tests and lists."""
    stored = search_text(name, club)
    return all(word in stored or folded in stored for word, folded in query_words(query))
