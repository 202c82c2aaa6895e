"""Search and sort folding (``tournament.folding``): the spellings people type find the person."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament import folding

pytestmark = pytest.mark.core

# The names of the desk trial and the ways they were typed (issue: "search needs the exact accents").
SPELLINGS = {
    "Maria Höller": ["holler", "hoeller", "Höller", "HOELLER", "maria h"],
    "Thomas Groß": ["gross", "Gröss", "groß", "GROSS", "thomas gr"],
    "Anna Oberhofer": ["oberhofer", "Oberhofer", "ober"],
    "Nicolò Bianchi": ["Nicolo", "nicolò", "nico", "bianchi nicolo"],
    "Rüdiger Weiß": ["Rudiger", "Ruediger", "rüdiger", "weiss", "weis"],
    "Zoë Müller": ["zoe", "Zoë", "mueller", "muller"],
    "Änne Jäger": ["anne", "aenne", "jager", "jaeger"],
    "Manuela Ferrà": ["ela", "manuela", "ferra", "ferrà"],
    "Søren Ødegård": ["soren", "odegard"],
}
TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=40)


@pytest.mark.parametrize(("name", "typed"), [(name, typed) for name, all in SPELLINGS.items() for typed in all])
def test_every_spelling_finds_the_name(name: str, typed: str) -> None:
    assert folding.matches(typed, name), (typed, folding.search_text(name))


def test_by_club_too() -> None:
    assert folding.matches("tauchclub", "Eva Moser", "Tauchclub Süd")
    assert folding.matches("eva sud", "Eva Moser", "Tauchclub Süd")
    assert not folding.matches("nord", "Eva Moser", "Tauchclub Süd")


def test_other_names_are_not_found() -> None:
    assert not folding.matches("holler", "Maria Huber")
    assert not folding.matches("maria groß", "Maria Höller")


def test_sorting_by_the_plain_form_is_german_and_italian_dictionary_order() -> None:
    names = ["Michaela", "Mägdalena", "Zoë", "Änne", "Ömer", "Otto", "Nicolò", "Nico", "Ulla", "Über"]
    assert sorted(names, key=lambda name: (folding.plain(name), name)) == [
        "Änne",
        "Mägdalena",
        "Michaela",
        "Nico",
        "Nicolò",
        "Ömer",
        "Otto",
        "Über",
        "Ulla",
        "Zoë",
    ]


@given(TEXT)
def test_folding_is_idempotent_and_ascii(text: str) -> None:
    once = folding.plain(text)
    assert folding.plain(once) == once
    assert once.isascii()
    assert folding.digraphs(folding.digraphs(text)) == folding.digraphs(folding.digraphs(folding.digraphs(text)))


@given(TEXT)
def test_a_name_finds_itself_in_any_case_and_composition(name: str) -> None:
    for typed in (name, name.upper(), name.lower(), unicodedata.normalize("NFD", name)):
        assert folding.matches(typed, name)


@given(TEXT, st.data())
def test_any_part_of_a_word_finds_the_name(name: str, data: st.DataObject) -> None:
    words = folding.plain(name).split()
    if not words:
        return
    word = data.draw(st.sampled_from(words))
    start = data.draw(st.integers(0, len(word) - 1))
    end = data.draw(st.integers(start + 1, len(word)))
    assert folding.matches(word[start:end], name)


@given(TEXT, TEXT)
def test_search_text_fits_its_column(name: str, club: str) -> None:
    assert len(folding.search_text(name * 4, club * 4)) <= folding.SEARCH_TEXT_MAX


def test_a_query_of_only_punctuation_has_no_words() -> None:
    assert folding.query_words("  -- ,, ") == []
