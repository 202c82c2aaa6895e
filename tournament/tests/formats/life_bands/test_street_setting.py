"""Issue 12 item 8: when a Schocken "Straße" counts ("Zählt nur in einem Wurf") is the
tournament's choice: in any roll (all three dice in one roll; the default) or only in the first.

The pure rules are property-tested; the half tracker scores a round with the tournament's
setting; the settings page shows it for life bands only and refuses bad values.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from games.rules import schocken
from games.rules.schocken import StreetRule, Throw, ThrowKind
from tournament import enums, simulation
from tournament.formats.life_bands import rules as life_bands
from tournament.formats.life_bands import services as life_bands_services
from tournament.formats.life_bands import settings as life_bands_settings
from tournament.models import Tournament
from tournament.tests.helpers import set_settings
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (the "organiser" fixture)

# --- pure ----------------------------------------------------------------------------------------

dice = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


@st.composite
def throws(draw: st.DrawFn) -> Throw:
    values = draw(dice)
    rolls = draw(st.integers(1, 3))
    ones = 0 if rolls == 1 else draw(st.integers(0, min(2, values.count(1))))
    return Throw(values, rolls=rolls, ones_kept=ones)


class TestStreetRule:
    def test_street_on_the_second_roll(self):
        late = Throw((4, 5, 6), rolls=2)
        assert schocken.throw_kind(late) is ThrowKind.STRASSE
        assert schocken.throw_kind(late, StreetRule.ANY_ROLL) is ThrowKind.STRASSE
        assert schocken.throw_kind(late, StreetRule.FIRST_ROLL) is ThrowKind.SIMPLE
        assert schocken.lid_value(late, StreetRule.FIRST_ROLL) == 1
        assert schocken.throw_label(late, StreetRule.FIRST_ROLL) == "654"
        assert schocken.throw_label(late) == late.label == "Straße 456"

    def test_street_on_the_first_roll_counts_either_way(self):
        first = Throw((2, 3, 4), rolls=1)
        for street in StreetRule:
            assert schocken.throw_kind(first, street) is ThrowKind.STRASSE
            assert schocken.lid_value(first, street) == 2

    @given(throw=throws())
    def test_only_later_streets_change(self, throw):
        anywhere = schocken.throw_kind(throw, StreetRule.ANY_ROLL)
        first_only = schocken.throw_kind(throw, StreetRule.FIRST_ROLL)
        if anywhere is ThrowKind.STRASSE and throw.rolls > 1:
            assert first_only is ThrowKind.SIMPLE
        else:
            assert first_only is anywhere

    @given(
        players=st.integers(2, 5),
        rounds=st.lists(st.lists(throws(), min_size=5, max_size=5), min_size=1, max_size=40),
        street=st.sampled_from(list(StreetRule)),
    )
    def test_halves_keep_their_lids_under_either_rule(self, players, rounds, street):
        state = schocken.HalfState.start(players)
        for round_throws in rounds:
            if state.is_over:
                break
            order = schocken.turn_order(state, state.active[0])
            outcome = schocken.play_round(state, list(zip(order, round_throws, strict=False)), street)
            expected = schocken.lid_value(dict(zip(order, round_throws, strict=False))[outcome.highest], street)
            assert outcome.lids <= expected or outcome.schock_out
            state = outcome.state
            assert state.stock + sum(state.lids) == schocken.LIDS_PER_HALF

    @given(round_throws=st.lists(throws(), min_size=2, max_size=6), street=st.sampled_from(list(StreetRule)))
    def test_ranking_is_strict(self, round_throws, street):
        order = schocken.ranking(round_throws, street)
        assert sorted(order) == list(range(len(round_throws)))
        keys = [schocken.rank_key(round_throws[i], i, street) for i in order]
        assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)

    def test_listed_for_life_bands_only(self):
        from tournament.formats.knockout import rules as knockout

        assert "schocken_street" in life_bands.SETTINGS
        assert "schocken_street" not in knockout.SETTINGS
        assert {choice.value for choice in StreetRule} == set(life_bands_settings.StreetRule.values)


# --- the half tracker --------------------------------------------------------------------------


def tracker_table(street: str):
    tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=8, seed=4)
    set_settings(tournament, schocken_street=street)
    tournament.refresh_from_db()
    rnd = life_bands_services.start_main_round(tournament=tournament, actor=None, seed=1)
    return tournament, rnd.tables.order_by("number").first()


@pytest.mark.django_db
class TestHalfTracker:
    @pytest.fixture
    def referee(self, client, staff_user):
        def login(tournament):
            client.force_login(staff_user(tournament, enums.Role.REFEREE))
            return client

        return login

    def score_round(self, client, tournament, table):
        url = reverse("tournament:half_tracker", args=[tournament.pk, table.pk])
        players = list(table.seats.order_by("position").values_list("player_id", flat=True))
        data = {
            "players": ",".join(map(str, players)),
            "stock": "13",
            "lids": ",".join("0" for _ in players),
            "half_losers": "",
            "sharp": "0",
            "starter": "0",
        }
        # Seat 0 throws 4 5 6 in its second roll; the others simple throws; the last is lowest.
        others = ["6 6 5", "5 3 2", "4 2 1"]
        data["dice_0"], data["rolls_0"] = "4 5 6", "2"
        for seat in range(1, len(players)):
            data[f"dice_{seat}"], data[f"rolls_{seat}"] = others[seat - 1], "1"
        return client.post(url, data).content.decode()

    def test_street_on_the_second_roll_counts_by_default(self, referee):
        tournament, table = tracker_table(StreetRule.ANY_ROLL)
        page = self.score_round(referee(tournament), tournament, table)
        assert "Straße 456" in page and "takes 2 lids" in page
        assert "A Straße counts in any roll" in page

    def test_street_on_the_second_roll_does_not_count_when_first_roll_only(self, referee):
        tournament, table = tracker_table(StreetRule.FIRST_ROLL)
        page = self.score_round(referee(tournament), tournament, table)
        assert "Straße" not in page.split('id="tracker-message"')[1].split("</div>")[0]
        assert "(665) decides" in page and "takes 1 lid." in page
        assert "A Straße counts only in the first roll" in page


# --- the settings page -----------------------------------------------------------------------


@pytest.mark.django_db
class TestSettingsPage:
    def test_shown_for_life_bands_with_the_rule_quoted(self, organiser):
        tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=1)
        page = organiser(tournament).get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
        assert 'name="schocken_street"' in page and "zählt nur in einem Wurf" in page
        assert 'name="duel_wins_needed"' not in page and 'name="final_target_kind"' not in page

    def test_saved(self, organiser):
        tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=1)
        data = settings_data(tournament, schocken_street="first_roll")
        response = organiser(tournament).post(reverse("tournament:settings", args=[tournament.pk]), data)
        assert response.status_code == 302
        tournament.refresh_from_db()
        assert tournament.schocken_street == "first_roll"

    def test_bad_value_refused_in_the_users_language(self, organiser):
        tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=4, seed=1)
        before = Tournament.objects.values().get(pk=tournament.pk)
        data = settings_data(tournament, schocken_street="third_roll", name="Renamed")
        response = organiser(tournament).post(
            reverse("tournament:settings", args=[tournament.pk]), data, HTTP_ACCEPT_LANGUAGE="de"
        )
        assert response.status_code == 422
        assert "keine gültige Auswahl" in response.content.decode()
        assert Tournament.objects.values().get(pk=tournament.pk) == before
