"""Names found with a typo (tournament.fuzzy): the issue's misspellings, one edit in any name of 6+
letters, and the order (most alike first)."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import folding, fuzzy

FIELD = [
    "Niccolò Bianchi",
    "Nicola Rossi",
    "Maria Höller",
    "Mario Holzer",
    "Anna Oberhofer",
    "Thomas Groß",
    "Rüdiger Weiß",
    "Zoë Mägdalena Ühl",
]


def index(names: list[str]) -> fuzzy.NameIndex:
    return fuzzy.NameIndex.build((pid, folding.search_text(name)) for pid, name in enumerate(names, start=1))


def found(names: list[str], typed: str) -> list[str]:
    return [names[pid - 1] for pid in index(names).similar(typed)]


def test_the_issues_misspellings() -> None:
    assert found(FIELD, "nicolo")[0] == "Niccolò Bianchi"
    assert found(FIELD, "Höler")[0] == "Maria Höller"
    assert found(FIELD, "hoeler")[0] == "Maria Höller"
    assert found(FIELD, "maria holer") == ["Maria Höller", "Mario Holzer"]  # the closer one first
    assert found(FIELD, "oberhofr") == ["Anna Oberhofer"]


def test_unlike_words_and_short_ones_find_nobody() -> None:
    assert found(FIELD, "xylophon") == []
    assert found(FIELD, "ni") == []  # too short to be like anything
    assert found(FIELD, "") == []
    assert found(FIELD, "anna holer") == []  # every word must be right or like one of the player's


def test_most_alike_first_and_found_ones_left_out() -> None:
    names = ["Nicolo Verdi", "Niccolo Bianchi", "Nicoletta Neri"]
    ix = index(names)
    assert ix.similar("nicolo")[0] == 1  # the same word before one a letter longer
    assert 1 not in ix.similar("nicolo", exclude=[1])
    assert ix.similar("nicolo", limit=1) == [1]


def _one_edit(word: str, position: int, letter: str, kind: int) -> str:
    position %= len(word)
    if kind == 0:  # a letter changed
        return word[:position] + letter + word[position + 1 :]
    if kind == 1:  # a letter dropped
        return word[:position] + word[position + 1 :]
    if kind == 2:  # a letter added
        return word[:position] + letter + word[position:]
    position = min(position, len(word) - 2)  # two letters swapped
    return word[:position] + word[position + 1] + word[position] + word[position + 2 :]


@settings(max_examples=200, deadline=None)
@given(
    surname=st.text(alphabet=string.ascii_lowercase, min_size=6, max_size=14),
    position=st.integers(min_value=0, max_value=20),
    letter=st.sampled_from(string.ascii_lowercase),
    kind=st.integers(min_value=0, max_value=3),
)
def test_one_edit_in_a_name_of_six_letters_or_more_still_finds_it(surname, position, letter, kind) -> None:  # type: ignore[no-untyped-def]
    names = [*FIELD, f"Eva {surname.capitalize()}"]
    typed = _one_edit(surname, position, letter, kind)
    assert len(names) in index(names).similar(typed), (surname, typed)
