"""Issue 26: every option the organiser reads says in words what it does. The label of a knockout
option names the round it seats and its tables, every table outside 3 to 4 ("one table of 2",
"2 tables of 5"), the later rounds it leads to, and the final (its size, a runner-up moving up).
Property-tested over 3-400 players with random choices; no database."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.knockout import rules as knockout
from tournament.play.rounds import option_label
from tournament.seating import PlannedRound
from tournament.tests.formats.knockout.test_planner import DEFAULT, outside, play

pytestmark = pytest.mark.core

STAGE_NAMES = {knockout.LUCKY_LOSER: "Lucky-loser round", knockout.FINAL: "Final"}


def round_name(planned: PlannedRound) -> str:
    return f"Main round {planned.number}" if planned.stage == knockout.MAIN else STAGE_NAMES[planned.stage]


def outside_words(sizes: tuple[int, ...]) -> list[str]:
    counts: dict[int, int] = {}
    for size in outside(sizes):
        counts[size] = counts.get(size, 0) + 1
    return [f"one table of {size}" if count == 1 else f"{count} tables of {size}" for size, count in counts.items()]


def assert_names_its_tables(option: knockout.SeatingOption) -> None:
    label = option_label(option)
    for planned in option.forecast:
        if planned.stage == knockout.FINAL:
            players = planned.sizes[0]
            assert f"final of {players} players" in label, label
            if planned.moved_up:
                assert "runner-up" in label, label
            if players != DEFAULT.final_size:
                assert f"the rules want {DEFAULT.final_size}" in label, label
            continue
        sizes = " + ".join(map(str, planned.sizes))
        where = "one table of" if len(planned.sizes) == 1 else "tables of"
        assert f"{round_name(planned)} at {where} {sizes}" in label, label
        if len(planned.sizes) > 1:
            for words in outside_words(planned.sizes):
                assert words in label, label
        elif outside(planned.sizes):
            assert f"outside {DEFAULT.preferred} to {DEFAULT.largest}" in label, label


@settings(max_examples=150, deadline=None)
@given(n=st.integers(min_value=3, max_value=400), seed=st.integers(0, 2**32), data=st.data())
def test_every_option_names_the_tables_it_creates(n: int, seed: int, data: st.DataObject) -> None:
    game = play(n, random.Random(seed), pick=lambda plan: data.draw(st.sampled_from([o.code for o in plan.options])))
    for plan in game.asked:
        for option in plan.options:
            assert_names_its_tables(option)


def test_fourteen_players_read_one_table_of_two_first() -> None:
    """The measured case: 14 players were offered "Allow a table of 2: tables of 2 + 2 + 2 + 2 + 2 + 2 + 2"
    first; the first option now seats one table of 2 and says what follows."""
    entrants = [knockout.Entrant(id=pid, start_number=pid) for pid in range(1, 15)]
    plan = knockout.plan_next_round(entrants, [], DEFAULT)
    assert isinstance(plan, knockout.NextRound) and plan.needs_choice
    first, second = (option_label(option) for option in plan.options[:2])
    assert first == (
        "Main round 1 at tables of 3 + 3 + 3 + 3 + 2 (one table of 2). Then: Lucky-loser round at tables of "
        "3 + 3 + 3; Main round 2 at tables of 3 + 3 + 2 (one table of 2); a final of 3 players. A departure in "
        "a later round is asked again when it comes."
    )
    assert second.startswith("Main round 1 at tables of 4 + 4 + 3 + 3. Then:")
    assert "the best runner-up (most games won, then the lower start number) moves up into a final of 3" in second
    assert "2 + 2 + 2" not in " ".join(option_label(option) for option in plan.options)
