"""Any player count from 3 can be seated in the life-bands format (issue 12, item 7).

Pure: ``rules.plan_main`` never raises; where the survivors do not split into
tables of the settings it offers ways that seat them all (a larger table, or a
smaller one never below 3), each of which shrinks the main round towards its
final table; ``plan_pool`` never needs a choice. Services: 5 players at 3-4
raise ``NeedsChoice`` with the options in words, nothing saved; the choice seats
the round with a note saying why; a code that is not an option asks again,
nothing saved; a table of 5 that the settings allow is explained in the note
too. The organiser's page shows the options and posting one seats the round;
the dry run and ``simulate_tournament`` take the first one.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import enums, seating, simulation
from tournament.errors import NeedsChoice
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.life_bands import selectors as life_bands_selectors
from tournament.formats.life_bands import services as life_bands_services
from tournament.models import AuditEntry, Round, Table, Tournament
from tournament.play.rounds import option_label
from tournament.tests.helpers import set_settings, url
from tournament.tests.strategies import table_sizes
from tournament.tests.views.scenarios import snapshot

sizes_settings = table_sizes


# --------------------------------------------------------------------------
# Pure
# --------------------------------------------------------------------------


@pytest.mark.core
class TestPlanMain:
    @settings(max_examples=400, deadline=None)
    @given(count=st.integers(min_value=3, max_value=400), sizes=sizes_settings)
    def test_seats_everyone_or_offers_ways_that_do(self, count: int, sizes: tuple[int, int]) -> None:
        preferred, largest = sizes
        survivors = list(range(count))
        plan = life_bands.plan_main(survivors, preferred, largest)
        if plan.final_table:
            assert count <= life_bands.FINAL_TABLE_MAX
            return
        if plan.sizes:
            assert not plan.options and plan.chosen is None
            assert sum(plan.sizes) == count and all(preferred <= size <= largest for size in plan.sizes)
            assert list(plan.sizes) == seating.table_sizes(count, plan.preferred, plan.largest)
            return
        assert plan.options, "no way to seat them"
        assert {o.code for o in plan.options} <= {seating.LARGER_TABLE, seating.SMALLER_TABLE}
        for option in plan.options:
            chosen = life_bands.plan_main(survivors, preferred, largest, option.code)
            assert chosen.chosen == option and chosen.sizes == option.sizes and sum(chosen.sizes) == count
            assert list(chosen.sizes) == seating.table_sizes(count, chosen.preferred, chosen.largest)
            assert min(chosen.sizes) >= min(preferred, life_bands.RULES_SMALLEST)
            # Every table leaves someone and sends someone out: the main round shrinks and goes on.
            left = sum(size - life_bands.players_out_at(size) for size in chosen.sizes)
            assert life_bands.WINNERS_PER_FINAL_TABLE <= left < count
        assert life_bands.plan_main(survivors, preferred, largest, "one_fewer") == plan

    @settings(max_examples=200, deadline=None)
    @given(count=st.integers(min_value=0, max_value=400), sizes=sizes_settings, more_coming=st.booleans())
    def test_the_pool_never_needs_a_choice(self, count: int, sizes: tuple[int, int], more_coming: bool) -> None:
        preferred, largest = sizes
        plan = life_bands.plan_pool(list(range(count)), more_coming=more_coming, preferred=preferred, largest=largest)
        assert sum(plan.sizes) + len(plan.winners) <= count
        assert all(min(preferred, count) <= size <= max(largest, 2) for size in plan.sizes)
        if count >= max(preferred, 3):
            assert plan.sizes  # enough wait: a table is formed at once

    def test_the_defaults(self) -> None:
        """At 3-4 only 5 survivors need a choice: one table of 5."""
        for count in range(3, 200):
            plan = life_bands.plan_main(list(range(count)), 3, 4)
            assert bool(plan.options) == (count == 5), count
        assert [(o.code, o.sizes) for o in life_bands.plan_main(list(range(5)), 3, 4).options] == [
            (seating.LARGER_TABLE, (5,))
        ]


# --------------------------------------------------------------------------
# Services
# --------------------------------------------------------------------------


def lb_field(players: int, seed: int = 1, **settings: object) -> Tournament:
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=players, seed=seed)
    if settings:
        set_settings(tournament, **settings)
        tournament.refresh_from_db()
    return tournament


def needs_choice(tournament: Tournament, choice: str = "") -> NeedsChoice:
    before = snapshot()
    with pytest.raises(NeedsChoice) as asked:
        life_bands_services.start_main_round(tournament=tournament, actor=None, seed=7, choice=choice)
    assert snapshot() == before, "a question saves nothing"
    return asked.value


def main_round(tournament: Tournament, choice: str = "") -> Round:
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=7, choice=choice)
    assert rnd is not None
    return rnd


@pytest.mark.core
@pytest.mark.django_db
class TestServices:
    def test_five_players_ask_with_the_options_in_words(self) -> None:
        asked = needs_choice(lb_field(5))
        assert asked.message == "5 players cannot be split into tables of 3 to 4. Choose how to go on."
        assert [option_label(o) for o in asked.options] == ["Allow a table of 5: tables of 5."]

    def test_the_choice_seats_the_round_with_a_note(self) -> None:
        tournament = lb_field(5)
        rnd = main_round(tournament, "larger_table")
        assert [t.seats.count() for t in rnd.tables.all()] == [5]
        assert not rnd.tables.get().is_final  # 2 go out, the 3 left play the final table
        assert rnd.seating_note == (
            "5 players cannot be split into tables of 3 to 4; chosen: Allow a table of 5: tables of 5."
        )
        entry = AuditEntry.objects.get(tournament=tournament, action="main_round_started")
        assert entry.detail["choice"] == "larger_table"

    def test_a_code_that_is_not_an_option_asks_again(self) -> None:
        tournament = lb_field(5)
        for bad in ["one_fewer", "smaller_table", "bye"]:
            asked = needs_choice(tournament, bad)
            assert asked.message.startswith(f"“{bad}” is not one of the ways to seat 5 players. 5 players cannot")
        assert not Round.objects.filter(tournament=tournament).exists()

    def test_a_table_of_five_the_settings_allow_is_explained(self) -> None:
        rnd = main_round(lb_field(5, table_size_max=5))
        assert [t.seats.count() for t in rnd.tables.all()] == [5]
        assert rnd.seating_note == (
            "5 players: one table of 5. The settings allow tables of up to 5; "
            "2 players go out at a table of more than 4, as at 4."
        )

    def test_tables_of_three_and_four_need_no_note(self) -> None:
        rnd = main_round(lb_field(7))
        assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 4]
        assert rnd.seating_note == ""

    def test_tables_of_exactly_four_offer_two_tables_of_three(self) -> None:
        tournament = lb_field(6, table_size=4, table_size_max=4)
        asked = needs_choice(tournament)
        assert [o.code for o in asked.options] == ["smaller_table", "larger_table"]
        rnd = main_round(tournament, "smaller_table")
        assert sorted(t.seats.count() for t in rnd.tables.all()) == [3, 3]
        assert "chosen: Allow a table of 3: tables of 3 + 3." in rnd.seating_note

    @pytest.mark.parametrize(("players", "largest"), [(5, 4), (12, 5), (13, 5)])
    def test_dry_runs_end_with_a_complete_ranking_and_explain_large_tables(self, players: int, largest: int) -> None:
        tournament = lb_field(players, seed=players, table_size_max=largest)
        simulation.simulate(tournament, seed=players)
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        assert [row.place for row in life_bands_selectors.ranking(tournament)] == list(range(1, players + 1))
        for rnd in Round.objects.filter(tournament=tournament).exclude(stage=enums.Stage.GRAND_FINAL):
            for table in rnd.tables.all():
                if table.seats.count() > 4:
                    assert rnd.seating_note, f"{rnd}: a table of {table.seats.count()} without a note"
                    if rnd.stage == enums.Stage.CONSOLATION:
                        assert f"Table {table.number}: {table.seats.count()} players" in rnd.seating_note

    def test_the_command_prints_the_ranking_and_the_choices(self) -> None:
        out, err = io.StringIO(), io.StringIO()
        call_command("simulate_tournament", "--format", "life_bands", "--players", "5", stdout=out, stderr=err)
        assert [line.split("\t")[0] for line in out.getvalue().splitlines()] == ["1", "2", "3", "4", "5"]
        assert "choice: larger_table (round 1): 5 players cannot be split" in err.getvalue()


# --------------------------------------------------------------------------
# The organiser's page
# --------------------------------------------------------------------------


@pytest.mark.core
@pytest.mark.django_db
def test_the_rounds_page_offers_the_options_and_seats_the_choice(client, login_as) -> None:  # type: ignore[no-untyped-def]
    tournament = lb_field(5)
    login_as("organiser", tournament)
    before = snapshot()
    asked = client.post(url("next_round", tournament), {"action": "main"})
    assert asked.status_code == 409
    page = asked.content.decode()
    assert "5 players cannot be split into tables of 3 to 4. Choose how to go on." in page
    assert 'name="choice" value="larger_table"' in page and "Allow a table of 5: tables of 5." in page
    assert 'name="action" value="main"' in page
    assert snapshot() == before

    seated = client.post(url("next_round", tournament), {"action": "main", "choice": "larger_table"})
    assert seated.status_code == 302
    (table,) = Table.objects.filter(round__tournament=tournament)
    assert table.seats.count() == 5
    shown = client.get(url("rounds", tournament)).content.decode()
    assert "chosen: Allow a table of 5: tables of 5." in shown
