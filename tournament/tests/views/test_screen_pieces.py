"""The projector's screen from pieces kept by what they show (``tournament.fragments``).

A piece kept in the process must never show what was true before: every screen rendered
with the pieces of earlier screens must equal the same screen rendered from nothing.
"""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from tournament import enums, fragments, simulation
from tournament.models import Player, Table, Tournament
from tournament.selectors import screen as screen_selectors
from tournament.tests.helpers import record_one_result
from tournament.tests.views.test_polling import play_a_little
from tournament.views import display

FORMATS = [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS]


def screen(tournament: Tournament, language: str = "en") -> str:
    tournament.refresh_from_db()
    with translation.override(language):
        return display.render_to_string(
            "tournament/display/_screen.html", display.screen_context(screen_selectors.read(tournament))
        )


def from_nothing(tournament: Tournament, language: str = "en") -> str:
    fragments.memo.clear()
    return screen(tournament, language)


@pytest.mark.django_db
@pytest.mark.core
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_screen_from_kept_pieces_equals_one_from_nothing(fmt):
    tournament = simulation.create_field(fmt=fmt, players=20, seed=5)
    first = play_a_little(tournament)
    for language in ("en", "de"):
        screen(tournament, language)  # the pieces of this state kept
    # A result at another table, a renamed player and a table decided: each shows at once.
    other = Table.objects.filter(round__tournament=tournament).exclude(pk=first.pk).order_by("number").first()
    assert other is not None
    record_one_result(tournament, other)
    renamed = other.seats.order_by("position").last()
    assert renamed is not None
    Player.objects.filter(pk=renamed.player_id).update(name="Zoë Neuname-Übermorgen")
    for language in ("en", "de"):
        kept = screen(tournament, language)
        assert kept == from_nothing(tournament, language)
        assert "Zoë Neuname-Übermorgen" in kept
    assert len(fragments.memo) > 0


@pytest.mark.django_db
@pytest.mark.core
def test_the_pieces_follow_the_language():
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=6, seed=2)  # round 1 without a question
    play_a_little(tournament)
    english, german = screen(tournament, "en"), screen(tournament, "de")
    assert "Table 1" in english and "Tisch 1" in german
    assert "Tisch" not in english


def test_a_model_instance_is_refused_as_what_a_piece_shows():
    with pytest.raises(TypeError):
        fragments.frozen([{"player": Player(name="A")}])


@dataclasses.dataclass
class Line:
    name: str
    numbers: list[int]


@given(st.lists(st.tuples(st.text(max_size=6), st.lists(st.integers(-3, 3), max_size=4)), max_size=8))
def test_frozen_is_equal_exactly_when_the_values_are(items):
    lines = [Line(name, numbers) for name, numbers in items]
    copy = [Line(line.name, list(line.numbers)) for line in lines]
    assert fragments.frozen(lines) == fragments.frozen(copy)
    assert hash(fragments.frozen(lines)) == hash(fragments.frozen(copy))
    if lines:
        copy[-1].numbers.append(9)
        assert fragments.frozen(lines) != fragments.frozen(copy)


_plain = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4))


@given(st.lists(st.tuples(_plain, _plain, _plain), max_size=8), st.data())
def test_lines_of_plain_values_are_keys_as_they_are(lines, data):
    """The projector's name and standings lines (tuples of plain values) are their own keys; a
    line holding a list or a model is still frozen item by item or refused."""
    page = {"lines": lines}
    copy = {"lines": [tuple(line) for line in lines]}
    assert fragments.frozen(page) == fragments.frozen(copy)
    if lines:
        index = data.draw(st.integers(0, len(lines) - 1))
        changed = [*lines]
        changed[index] = (*lines[index][:2], "changed" if lines[index][2] != "changed" else None)
        assert fragments.frozen(page) != fragments.frozen({"lines": changed})
    assert fragments.frozen(("a", [1, 2])) == ("a", (1, 2))
    with pytest.raises(TypeError):
        fragments.frozen(("a", Player(name="A")))


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(0, 40)), max_size=60), st.integers(10, 120))
def test_the_memo_holds_at_most_its_characters(puts, limit):
    memo = fragments.Memo(max_characters=limit)
    for key, size in puts:
        memo.put(key, "x" * size)
        held = dict(memo._pieces)
        assert memo.characters == sum(len(html) for html in held.values()) <= limit
        # The piece just rendered is kept unless it alone is over the limit.
        assert (held.get(key) == "x" * size) == (size <= limit)


def test_the_memo_drops_the_least_recently_used_piece_first():
    memo = fragments.Memo(max_characters=30)
    for key in "abc":
        memo.put(key, key * 10)
    assert memo.get("a") == "a" * 10  # used: b is now the oldest
    memo.put("d", "d" * 10)
    assert memo.get("b") is None
    assert [memo.get(key) for key in "acd"] == ["a" * 10, "c" * 10, "d" * 10]
    assert memo.characters == 30
