"""Names found with a typo: "nicolo" finds Niccolò, "Höler" finds Höller. Pure: no Django.

The search first matches folded text as before (``tournament.folding``: every typed word a part
of the stored search text). Where that finds too few, ``NameIndex.similar`` ranks the players
whose words are *like* the typed ones: each typed word (in its plain and its digraph form) is
compared with every distinct word of the field's names and clubs by rapidfuzz's normalised Indel
similarity (``fuzz.ratio``, 0-100); a player qualifies when each typed word is like one of their
words (or a part of their search text, as today), and ranks by the weakest of those likenesses.

One edit in a word of 6 letters or more leaves at least 83 (a letter added or dropped 91, one
changed or two swapped 83); ``CUTOFF`` is 80. Words of fewer than ``MIN_FUZZY_LETTERS`` are only
matched as parts, never by likeness (two letters are like half the field).

The index holds a field's distinct words once (a field of 20,000 has a few thousand), so a typed
word is compared with those, not with 20,000 names; it is built from ``(id, folded)`` pairs
(``Player.folded``) once per tournament version by the caller.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from tournament import folding

CUTOFF = 80.0
MIN_FUZZY_LETTERS = 4


@dataclass
class NameIndex:
    """Each distinct word of the field's search texts and the players whose text holds it."""

    words: list[str] = field(default_factory=list)
    players_of: list[list[int]] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)

    @classmethod
    def build(cls, rows: Iterable[tuple[int, str]]) -> NameIndex:
        """From ``(player id, Player.folded)`` pairs."""
        holders: dict[str, list[int]] = defaultdict(list)
        texts: dict[int, str] = {}
        for player_id, folded in rows:
            texts[player_id] = folded
            for word in set(folded.split()) - {"|"}:
                holders[word].append(player_id)
        return cls(words=list(holders), players_of=list(holders.values()), texts=texts)

    def _like(self, typed: tuple[str, str]) -> dict[int, float]:
        """Players with a word like ``typed`` (plain and digraph forms), each with the best likeness."""
        best: dict[int, float] = {}
        forms = {form for form in typed if len(form) >= MIN_FUZZY_LETTERS}
        for form in forms:
            for _word, score, index in process.extract(
                form, self.words, scorer=fuzz.ratio, score_cutoff=CUTOFF, limit=None
            ):
                for player_id in self.players_of[index]:
                    if score > best.get(player_id, 0.0):
                        best[player_id] = score
        return best

    def similar(self, query: str, *, exclude: Sequence[int] = (), limit: int = 50) -> list[int]:
        """Up to ``limit`` player ids like ``query``, most alike first (ties by search text),
        leaving out ``exclude`` (those the folded match found already)."""
        typed = folding.query_words(query)
        if not typed or not any(len(word) >= MIN_FUZZY_LETTERS for word, _folded in typed):
            return []
        # A player the folded match did not find has at least one word found by likeness: only
        # those are looked at, never the whole field.
        likes = [self._like(word) for word in typed]
        scores: dict[int, float] = {}
        for player_id in set().union(*likes):
            text = self.texts[player_id]
            weakest = 100.0
            for (plain, digraph), like in zip(typed, likes, strict=True):
                # A word typed right (a part of the text) counts as fully alike.
                score = 100.0 if plain in text or digraph in text else like.get(player_id, 0.0)
                weakest = min(weakest, score)
            if weakest >= CUTOFF:
                scores[player_id] = weakest
        left_out = set(exclude)
        ranked = sorted(
            (pid for pid in scores if pid not in left_out), key=lambda pid: (-scores[pid], self.texts[pid], pid)
        )
        return ranked[:limit]
