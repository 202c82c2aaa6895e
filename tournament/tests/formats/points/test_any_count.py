"""Any player count from 3 can be seated in the points format (issue 12, item 7).

Pure: ``rules.plan_tables`` (and ``seating.widened_options`` under it) never
raises for 3 players or more; it either seats everyone at tables of the
settings or offers ways that seat everyone (a larger table, or a smaller one
never below 3), and each way seats exactly its sizes. Services: 5 players at
3-4 raise ``NeedsChoice`` with the options in words, nothing saved; the choice
seats the round and the note and the audit say so; a code that is not an option
asks again, nothing saved. The organiser's page shows the options and posting
one seats the round; the dry run and ``simulate_tournament`` take the first one.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import enums, seating, simulation
from tournament.errors import NeedsChoice
from tournament.formats.base import FormatError
from tournament.formats.points import rules as points
from tournament.formats.points import services as points_services
from tournament.models import AuditEntry, Round, Table
from tournament.play.rounds import option_label
from tournament.tests.formats.points.helpers import play_round, points_field
from tournament.tests.helpers import url
from tournament.tests.strategies import table_sizes
from tournament.tests.views.scenarios import snapshot

sizes_settings = table_sizes


# --------------------------------------------------------------------------
# Pure: every count from 3 is seated or gets options
# --------------------------------------------------------------------------


@pytest.mark.core
class TestPlanTables:
    @settings(max_examples=400, deadline=None)
    @given(count=st.integers(min_value=3, max_value=400), sizes=sizes_settings)
    def test_seats_everyone_or_offers_ways_that_do(self, count: int, sizes: tuple[int, int]) -> None:
        preferred, largest = sizes
        plan = points.plan_tables(count, preferred, largest)
        if plan.sizes:
            assert not plan.options and plan.chosen is None
            assert sum(plan.sizes) == count
            assert all(preferred <= size <= largest for size in plan.sizes)
            assert list(plan.sizes) == seating.table_sizes(count, plan.preferred, plan.largest)
            # A choice is ignored where the sizes fit.
            assert points.plan_tables(count, preferred, largest, "larger_table") == plan
            return
        with pytest.raises(seating.SeatingImpossible):
            seating.table_sizes(count, preferred, largest)
        assert plan.options, "no way to seat them"
        assert {option.code for option in plan.options} <= {seating.LARGER_TABLE, seating.SMALLER_TABLE}
        for option in plan.options:
            chosen = points.plan_tables(count, preferred, largest, option.code)
            assert chosen.chosen == option and not chosen.options
            assert chosen.sizes == option.sizes and sum(chosen.sizes) == count
            # The seating takes its sizes from the bounds: the same split.
            assert list(chosen.sizes) == seating.table_sizes(count, chosen.preferred, chosen.largest)
            size = option.params["size"]
            if option.code == seating.LARGER_TABLE:
                assert size > largest and max(chosen.sizes) == size
                assert all(preferred <= seats <= size for seats in chosen.sizes)
            else:
                assert points.SMALLEST_TABLE <= size < preferred
                assert all(size <= seats <= largest for seats in chosen.sizes)
            assert min(chosen.sizes) >= min(preferred, points.SMALLEST_TABLE)
            assert option_label_params_fit(option)
        # A code that is not among the options (or none) still asks.
        assert points.plan_tables(count, preferred, largest, "one_fewer") == plan
        assert points.plan_tables(count, preferred, largest, "") == plan

    @settings(max_examples=60, deadline=None)
    @given(count=st.integers(min_value=3, max_value=120), sizes=sizes_settings, seed=st.integers(0, 2**31))
    def test_the_repeat_avoiding_seating_seats_the_chosen_sizes(
        self, count: int, sizes: tuple[int, int], seed: int
    ) -> None:
        preferred, largest = sizes
        plan = points.plan_tables(count, preferred, largest)
        if plan.options:
            plan = points.plan_tables(count, preferred, largest, plan.options[0].code)
        met = {frozenset((a, a + 1)): 1 for a in range(0, count - 1, 2)}
        drawn = seating.seat_avoiding_repeats(
            range(count), seed, met, (), plan.preferred, plan.largest, attempts=1, work_limit=5_000
        )
        assert drawn.sizes == plan.sizes
        assert sorted(drawn.player_ids) == list(range(count))

    def test_the_defaults(self) -> None:
        """At 3-4 only 5 players need a choice: one table of 5 (no bye, nobody out, no table of 2)."""
        for count in range(3, 200):
            plan = points.plan_tables(count, 3, 4)
            assert bool(plan.options) == (count == 5), count
        (option,) = points.plan_tables(5, 3, 4).options
        assert (option.code, option.sizes) == (seating.LARGER_TABLE, (5,))

    def test_other_settings(self) -> None:
        # Tables of exactly 4: 6 players at two tables of 3 first (the smaller stretch), or one of 6.
        assert [(o.code, o.sizes) for o in points.plan_tables(6, 4, 4).options] == [
            (seating.SMALLER_TABLE, (3, 3)),
            (seating.LARGER_TABLE, (6,)),
        ]
        # Tables of exactly 3: 5 players only at one table of 5 (never 3 + 2).
        assert [(o.code, o.sizes) for o in points.plan_tables(5, 3, 3).options] == [(seating.LARGER_TABLE, (5,))]
        # Fewer players than the preferred size: one table of all.
        assert [(o.code, o.sizes) for o in points.plan_tables(3, 5, 6).options] == [(seating.SMALLER_TABLE, (3,))]

    def test_fewer_than_three_are_refused(self) -> None:
        with pytest.raises(FormatError):
            points.plan_tables(2, 2, 4)


def option_label_params_fit(option: seating.SeatingOption) -> bool:
    """The option carries what ``option_label`` fills in."""
    return {"players", "size", "count"} <= set(option.params)


@pytest.mark.core
@settings(max_examples=300, deadline=None)
@given(count=st.integers(min_value=3, max_value=400), sizes=sizes_settings)
def test_widened_options_exist_for_every_count(count: int, sizes: tuple[int, int]) -> None:
    preferred, largest = sizes
    options = seating.widened_options(count, preferred, largest)
    try:
        seating.table_sizes(count, preferred, largest)
    except seating.SeatingImpossible:
        assert options
    else:
        assert options == []
    for option in options:
        assert sum(option.sizes) == count and min(option.sizes) >= 2


# --------------------------------------------------------------------------
# Services
# --------------------------------------------------------------------------


def needs_choice(tournament, **kwargs) -> NeedsChoice:  # type: ignore[no-untyped-def]
    before = snapshot()
    with pytest.raises(NeedsChoice) as asked:
        points_services.start_round(tournament=tournament, actor=None, seed=7, **kwargs)
    assert snapshot() == before, "a question saves nothing"
    return asked.value


@pytest.mark.core
@pytest.mark.django_db
class TestServices:
    def test_five_players_ask_with_the_options_in_words(self) -> None:
        tournament = points_field(players=5)
        asked = needs_choice(tournament)
        assert asked.message == "5 players cannot be split into tables of 3 to 4. Choose how to go on."
        assert asked.players == 5
        assert [option_label(o) for o in asked.options] == ["Allow a table of 5: tables of 5."]
        assert not Round.objects.filter(tournament=tournament).exists()

    def test_the_choice_seats_the_round_and_says_so(self) -> None:
        tournament = points_field(players=5)
        rnd = points_services.start_round(tournament=tournament, actor=None, seed=7, choice="larger_table")
        assert [t.seats.count() for t in rnd.tables.all()] == [5]
        assert rnd.seating_note.startswith("Repeated pairs: 0 (from the last round: 0; unavoidable: at least 0). ")
        assert rnd.seating_note.endswith(
            "5 players cannot be split into tables of 3 to 4; chosen: Allow a table of 5: tables of 5."
        )
        entry = AuditEntry.objects.get(tournament=tournament, action="points_round_started")
        assert entry.detail["choice"] == "larger_table"

    def test_a_code_that_is_not_an_option_asks_again(self) -> None:
        tournament = points_field(players=5)
        for bad in ["one_fewer", "smaller_table", "bye", "<b>x</b>"]:
            asked = needs_choice(tournament, choice=bad)
            assert asked.message.startswith(f"“{bad}” is not one of the ways to seat 5 players. 5 players cannot")
            assert [o.code for o in asked.options] == ["larger_table"]
        assert not Round.objects.filter(tournament=tournament).exists()

    def test_every_round_asks_and_the_tournament_plays_through(self) -> None:
        tournament = points_field(players=5, rounds_planned=2)
        first = points_services.start_round(tournament=tournament, actor=None, seed=1, choice="larger_table")
        play_round(tournament, first)
        needs_choice(tournament)
        second = points_services.start_round(tournament=tournament, actor=None, seed=2, choice="larger_table")
        assert second.number == 2 and "chosen: Allow a table of 5" in second.seating_note
        play_round(tournament, second)
        points_services.finish(tournament=tournament, actor=None)
        ranking = points_services.points_selectors.ranking(tournament)
        assert [row.place for row in ranking] == [1, 2, 3, 4, 5]

    def test_tables_of_exactly_four_offer_a_smaller_table(self) -> None:
        tournament = points_field(players=6, table_size=4, table_size_max=4)
        asked = needs_choice(tournament)
        assert [option_label(o) for o in asked.options] == [
            "Allow a table of 3: tables of 3 + 3.",
            "Allow a table of 6: tables of 6.",
        ]
        rnd = points_services.start_round(tournament=tournament, actor=None, seed=7, choice="smaller_table")
        assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 3]
        assert "chosen: Allow a table of 3: tables of 3 + 3." in rnd.seating_note

    def test_a_choice_is_ignored_where_the_count_splits(self) -> None:
        tournament = points_field(players=6)
        rnd = points_services.start_round(tournament=tournament, actor=None, seed=7, choice="larger_table")
        assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 3]
        assert rnd.seating_note == (
            "Repeated pairs: 0 (from the last round: 0; unavoidable: at least 0). "
            "Short tables: each player's count differs by at most 0."
        )

    def test_the_dry_run_takes_the_first_option(self) -> None:
        tournament = points_field(players=5)
        simulation.simulate(tournament, seed=3)
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        rounds = list(Round.objects.filter(tournament=tournament))
        assert rounds and all("chosen: Allow a table of 5" in r.seating_note for r in rounds)
        assert [row.place for row in points_services.points_selectors.ranking(tournament)] == [1, 2, 3, 4, 5]

    def test_the_command_prints_the_ranking_and_the_choices(self) -> None:
        out, err = io.StringIO(), io.StringIO()
        call_command("simulate_tournament", "--format", "points", "--players", "5", stdout=out, stderr=err)
        lines = out.getvalue().splitlines()
        assert [line.split("\t")[0] for line in lines] == ["1", "2", "3", "4", "5"]
        assert "choice: larger_table (round 1)" in err.getvalue()


# --------------------------------------------------------------------------
# The organiser's page
# --------------------------------------------------------------------------


@pytest.mark.core
@pytest.mark.django_db
def test_the_rounds_page_offers_the_options_and_seats_the_choice(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament = points_field(players=5)
    login_as("organiser", tournament)
    before = snapshot()
    asked = client.post(url("next_round", tournament), {"action": "round"})
    assert asked.status_code == 409
    page = asked.content.decode()
    assert "5 players cannot be split into tables of 3 to 4. Choose how to go on." in page
    assert 'name="choice" value="larger_table"' in page
    assert "Allow a table of 5: tables of 5." in page
    assert 'name="action" value="round"' in page
    assert snapshot() == before

    refused = client.post(url("next_round", tournament), {"action": "round", "choice": "one_fewer"})
    assert refused.status_code == 409 and "is not one of the ways to seat 5 players" in refused.content.decode()
    assert snapshot() == before

    seated = client.post(url("next_round", tournament), {"action": "round", "choice": "larger_table"})
    assert seated.status_code == 302 and seated["Location"] == url("rounds", tournament)
    (table,) = Table.objects.filter(round__tournament=tournament)
    assert table.seats.count() == 5
    shown = client.get(url("rounds", tournament)).content.decode()
    assert "chosen: Allow a table of 5: tables of 5." in shown
