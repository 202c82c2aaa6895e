"""Ties and missed rounds as the organiser announced them (issue 28): the points ranking never
lets the start number decide a place, a play-off is due exactly where the settings ask for one
and its result orders the tied players; each missed-round setting counts late arrivals, pauses
and withdrawals as its words say (totals computed by hand here); the play-off round through the
services and pages (seated, entered, corrected, finishing refused until it is decided); the
settings form refuses bad values."""

from __future__ import annotations

import itertools
import random

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game, GameStatus
from tournament import enums
from tournament.desk.registration import set_fixed_seat
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.formats.points import rules as points
from tournament.formats.points import selectors as points_selectors
from tournament.formats.points import services as points_services
from tournament.models import Player, Round, Table, Tournament
from tournament.play import corrections
from tournament.tests.formats.points.helpers import points_field, record, start
from tournament.tests.helpers import refreshed, set_dealer, set_settings
from tournament.tests.settings_page import organiser_login, settings_data  # noqa: F401 (fixture)

MISSED = (
    points.MISSED_ROUND_HIGHEST,
    points.MISSED_ROUND_AVERAGE,
    points.MISSED_OWN_AVERAGE,
    points.MISSED_RANKED_AFTER,
)
CRITERIA = (
    (),
    (points.RULE_GAMES_WON,),
    (points.RULE_BEST_ROUND,),
    ("games_won", "best_round"),
    ("best_round", "games_won"),
)
EVERY_SETTING = [
    points.RankingRules(missed=m, tie_breaks=c, tie_places=p, tie_resolution=r)
    for m, c, p, r in itertools.product(
        MISSED, CRITERIA, (points.TIE_PODIUM, points.TIE_ALL), (points.TIE_PLAYOFF, points.TIE_SHARED)
    )
]


# --------------------------------------------------------------------------
# Pure: random fields with few distinct values (ties everywhere), every setting
# --------------------------------------------------------------------------


@st.composite
def fields(draw: st.DrawFn) -> tuple[dict[int, int], list[points.GameResult], dict[int, set[int]], set[int]]:
    """2-9 players, up to 3 rounds of one game per table with points from {0, 5, 10}, some
    players sitting a round out; and the players still checked in (able to play a play-off)."""
    count = draw(st.integers(2, 9))
    ids = list(range(1, count + 1))
    start = dict(zip(ids, draw(st.permutations(ids)), strict=True))
    games: list[points.GameResult] = []
    seated: dict[int, set[int]] = {}
    for number in range(1, draw(st.integers(0, 3)) + 1):
        present = [pid for pid in ids if draw(st.integers(0, 5))]  # about one in six sits out
        seated[number] = set(present)
        for first in range(0, len(present), 3):
            table = present[first : first + 3]
            if len(table) < 2:
                continue
            winner = draw(st.sampled_from(table))
            cards = {pid: draw(st.sampled_from((0, 5, 10))) for pid in table if pid != winner}
            games.append(points.GameResult(number, winner, points.game_penalties(winner, cards)))
    able = {pid for pid in ids if draw(st.integers(0, 7))}
    return start, games, seated, able


def ranking_key(rows: list[points.StandingRow]) -> dict[int, tuple[int, str]]:
    return {row.player_id: (row.place, row.decided_by) for row in rows}


@settings(max_examples=60, deadline=None)
@given(field=fields(), shuffle=st.randoms(use_true_random=False))
def test_the_start_number_never_decides_a_place(field, shuffle) -> None:  # type: ignore[no-untyped-def]
    """Whatever the setting, drawing the start numbers again changes no player's place nor the
    rule named for it (only the order of the rows of a shared place)."""
    start, games, seated, able = field
    numbers = list(start.values())
    shuffle.shuffle(numbers)
    redrawn = dict(zip(start, numbers, strict=True))
    for rules in EVERY_SETTING:
        rows = points.standings(start, games, seated, rules, can_play=able)
        assert ranking_key(rows) == ranking_key(points.standings(redrawn, games, seated, rules, can_play=able))
        assert "start_number" not in {row.decided_by for row in rows}
        # Places are a standard competition ranking: a place is one more than the rows above it
        # (shared places repeat: 4, 4, 6).
        for index, row in enumerate(rows):
            assert row.place == 1 + sum(1 for other in rows if other.place < row.place)
            assert row.place <= index + 1


def reference_groups(rows: list[points.StandingRow], rules: points.RankingRules) -> list[list[int]]:
    """Players equal on everything the rules compare, computed from the rows' own figures."""

    def key(row: points.StandingRow) -> tuple[object, ...]:
        criteria = {
            points.RULE_GAMES_WON: -row.games_won,
            points.RULE_BEST_ROUND: row.best_round if row.best_round is not None else 10**9,
        }
        after = (bool(row.missed_rounds), len(row.missed_rounds)) if rules.missed == points.MISSED_RANKED_AFTER else ()
        return (row.games_played == 0, *after, row.total, *(criteria[code] for code in rules.tie_breaks))

    groups: dict[tuple[object, ...], list[int]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row.player_id)
    return [group for group in groups.values() if len(group) > 1]


@settings(max_examples=60, deadline=None)
@given(field=fields(), seed=st.integers(0, 10**6))
def test_a_playoff_is_due_exactly_where_the_settings_ask_and_its_result_orders_the_tied(field, seed) -> None:  # type: ignore[no-untyped-def]
    start, games, seated, able = field
    rng = random.Random(seed)
    for rules in EVERY_SETTING:
        rows = points.standings(start, games, seated, rules, can_play=able)
        by_player = {row.player_id: row for row in rows}
        expected = []
        for group in reference_groups(rows, rules):
            place = min(by_player[pid].place for pid in group)
            in_scope = rules.tie_places == points.TIE_ALL or place <= points.PODIUM
            playing = [pid for pid in group if pid in able]
            if rules.tie_resolution == points.TIE_PLAYOFF and in_scope and by_player[group[0]].games_played:
                if len(playing) > 1:
                    expected.append((place, frozenset(playing)))
                continue
            # Every other tie: a shared place, named so.
            assert {by_player[pid].place for pid in group} == {place}
            assert {by_player[pid].decided_by for pid in group} == {points.RULE_SHARED}
        due = points.due_playoffs(rows)
        assert sorted((tie.place, frozenset(tie.players)) for tie in due) == sorted(expected)
        # Play them: every tied player gets other points; the play-off orders them by its points.
        playoffs = []
        for tie in due:
            scores = rng.sample(range(0, 60, 3), len(tie.players))
            played = dict(zip(tie.players, scores, strict=True))
            winner = min(played, key=played.__getitem__)
            playoffs.append(points.Playoff(frozenset(tie.players), played, {winner: 1}, decided=True))
        after = points.standings(start, games, seated, rules, playoffs, able)
        assert points.due_playoffs(after) == []
        placed = {row.player_id: row for row in after}
        for tie, playoff in zip(due, playoffs, strict=True):
            order = sorted(tie.players, key=lambda pid: playoff.points[pid])
            assert [placed[pid].place for pid in order] == list(range(tie.place, tie.place + len(order)))
            assert {placed[pid].decided_by for pid in order} == {points.RULE_PLAYOFF}
            # The play-off's points never count in the totals.
            assert all(placed[pid].total == by_player[pid].total for pid in order)


def test_a_playoff_that_ties_again_makes_a_further_one_due_and_a_shared_place_below_the_podium() -> None:
    start = {1: 3, 2: 1, 3: 2, 4: 4}
    # Everyone 0 points, one win: 1, 2 and 3 tie on place 1 (4 did not play: last).
    games = [points.GameResult(1, pid, {pid: 0}) for pid in (1, 2, 3)]
    rules = points.RankingRules()
    rows = points.standings(start, games, None, rules)
    assert points.due_playoffs(rows) == [points.DuePlayoff(1, (2, 3, 1))]  # (listed by start number)
    # The play-off: 1 wins; 2 and 3 tie on 8 points for place 2 -> a further play-off for them.
    first = points.Playoff(frozenset({1, 2, 3}), {1: 0, 2: 8, 3: 8}, {1: 1}, decided=True)
    rows = points.standings(start, games, None, rules, [first])
    assert [(row.place, row.player_id, row.decided_by) for row in rows[:3]] == [
        (1, 1, points.RULE_PLAYOFF),
        (2, 2, points.RULE_PLAYOFF_DUE),
        (2, 3, points.RULE_PLAYOFF_DUE),
    ]
    assert points.due_playoffs(rows) == [points.DuePlayoff(2, (2, 3))]
    playing = points.Playoff(frozenset({2, 3}))
    rows = points.standings(start, games, None, rules, [first, playing])
    assert {row.decided_by for row in rows[1:3]} == {points.RULE_PLAYOFF_PLAYING}
    second = points.Playoff(frozenset({2, 3}), {2: 4, 3: 0}, {3: 1}, decided=True)
    rows = points.standings(start, games, None, rules, [first, second])
    assert [(row.place, row.player_id) for row in rows] == [(1, 1), (2, 3), (3, 2), (4, 4)]
    # Sharing instead: one play-off tie for places 2-3 of a field where the podium ends at 3 ...
    shared = points.RankingRules(tie_resolution=points.TIE_SHARED)
    assert [(row.place, row.decided_by) for row in points.standings(start, games, None, shared)][:3] == [
        (1, points.RULE_SHARED)
    ] * 3
    # ... and a play-off tie out of the podium (places 4-5) shares the place.
    start5 = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
    games5 = [points.GameResult(1, 1, {1: 0, 2: 1, 3: 2, 4: 7, 5: 7})]
    rows5 = points.standings(start5, games5, None, rules)
    assert [(row.place, row.decided_by) for row in rows5][3:] == [(4, points.RULE_SHARED), (4, points.RULE_SHARED)]
    assert points.due_playoffs(rows5) == []


def test_a_withdrawn_player_in_a_tie_plays_no_playoff() -> None:
    start = {1: 1, 2: 2, 3: 3}
    games = [points.GameResult(1, pid, {pid: 0}) for pid in (1, 2, 3)]
    rows = points.standings(start, games, None, points.RankingRules(), can_play={2, 3})
    assert [(row.place, row.player_id, row.decided_by) for row in rows] == [
        (1, 2, points.RULE_PLAYOFF_DUE),
        (1, 3, points.RULE_PLAYOFF_DUE),
        (3, 1, points.RULE_NO_PLAYOFF),
    ]


# --------------------------------------------------------------------------
# Missed rounds: one scenario, every setting, totals by hand
# --------------------------------------------------------------------------

# Round 1 seats 1-4 (5 arrives late), round 2 seats 1, 2, 3, 5 (4 pauses), round 3 seats 1, 2, 4, 5
# (3 withdrew after round 2). One game a round.
SEATED = {1: {1, 2, 3, 4}, 2: {1, 2, 3, 5}, 3: {1, 2, 4, 5}}
GAMES = [
    points.GameResult(1, 1, {1: 0, 2: 20, 3: 30, 4: 40}),
    points.GameResult(2, 5, {1: 12, 2: 8, 3: 20, 5: 0}),
    points.GameResult(3, 2, {1: 6, 2: 0, 4: 30, 5: 14}),
]
START = {1: 5, 2: 4, 3: 3, 4: 2, 5: 1}
# Played: 1: 0+12+6 = 18; 2: 20+8+0 = 28; 3 (withdrew): 30+20 = 50; 4 (paused in 2): 40+30 = 70;
# 5 (joined in 2): 0+14 = 14.


@pytest.mark.parametrize(
    ("missed", "order", "totals", "missed_rounds"),
    [
        # Highest of the round: round 1: 40, round 2: 20, round 3: 30.
        (
            points.MISSED_ROUND_HIGHEST,
            [1, 2, 5, 3, 4],
            {1: 18, 2: 28, 3: 50 + 30, 4: 70 + 20, 5: 14 + 40},
            {3: ((3, 30),), 4: ((2, 20),), 5: ((1, 40),)},
        ),
        # Average of the round: (0+20+30+40)/4 = 22.5 -> 23, (12+8+20+0)/4 = 10, (6+0+30+14)/4 = 12.5 -> 13.
        (
            points.MISSED_ROUND_AVERAGE,
            [1, 2, 5, 3, 4],
            {1: 18, 2: 28, 3: 50 + 13, 4: 70 + 10, 5: 14 + 23},
            {3: ((3, 13),), 4: ((2, 10),), 5: ((1, 23),)},
        ),
        # Own average: 3: (30+20)/2 = 25; 4: (40+30)/2 = 35; 5: (0+14)/2 = 7.
        (
            points.MISSED_OWN_AVERAGE,
            [1, 5, 2, 3, 4],
            {1: 18, 2: 28, 3: 50 + 25, 4: 70 + 35, 5: 14 + 7},
            {3: ((3, 25),), 4: ((2, 35),), 5: ((1, 7),)},
        ),
        # Ranked after: 1 and 2 played every round; 3, 4 and 5 two rounds each, by their totals.
        (
            points.MISSED_RANKED_AFTER,
            [1, 2, 5, 3, 4],
            {1: 18, 2: 28, 3: 50, 4: 70, 5: 14},
            {3: ((3, 0),), 4: ((2, 0),), 5: ((1, 0),)},
        ),
    ],
)
def test_each_missed_round_setting_counts_late_arrival_pause_and_withdrawal(missed, order, totals, missed_rounds):  # type: ignore[no-untyped-def]
    rows = points.standings(START, GAMES, SEATED, points.RankingRules(missed=missed))
    assert [row.player_id for row in rows] == order
    assert [row.place for row in rows] == [1, 2, 3, 4, 5]
    assert {row.player_id: row.total for row in rows} == totals
    assert {row.player_id: row.missed_rounds for row in rows if row.missed_rounds} == missed_rounds
    if missed == points.MISSED_RANKED_AFTER:
        assert [row.decided_by for row in rows] == ["", "total", "every_round", "total", "total"]


def test_ranked_after_puts_more_rounds_played_first() -> None:
    # 1 played both rounds (40), 2 only round 2 (5), 3 only round 1 ... and 4 both (30).
    seated = {1: {1, 3, 4}, 2: {1, 2, 4}}
    games = [points.GameResult(1, 3, {1: 20, 3: 0, 4: 10}), points.GameResult(2, 2, {1: 20, 2: 0, 4: 20})]
    rows = points.standings({1: 1, 2: 2, 3: 3, 4: 4}, games, seated, points.RankingRules(missed="ranked_after"))
    # 4 (30) and 1 (40) played every round; 2 and 3 one round each on 0 points, one win: tied
    # on place 3, the podium: a play-off is due.
    assert [(row.place, row.player_id, row.decided_by) for row in rows] == [
        (1, 4, ""),
        (2, 1, "total"),
        (3, 2, points.RULE_PLAYOFF_DUE),
        (3, 3, points.RULE_PLAYOFF_DUE),
    ]


# --------------------------------------------------------------------------
# The play-off through the services and the pages
# --------------------------------------------------------------------------


def tied_on_first(**settings: object) -> tuple[Tournament, dict[str, int]]:
    """6 players, one round of one game at two tables of 3: the winners tie on place 1 (0 points,
    one win, best round 0); the two players on 9 points tie on place 5."""
    tournament = points_field(
        players=6, rounds_planned=1, games_per_round=1, table_size=3, table_size_max=3, **settings
    )
    rnd = start(tournament)
    who: dict[str, int] = {}
    for label, table in zip("ab", rnd.tables.order_by("number"), strict=True):
        first, second, third = [seat.player_id for seat in table.seats.order_by("position")]
        set_dealer(tournament, table)
        record(tournament, table, first, points={second: 5 if label == "a" else 7, third: 9})
        who.update({f"{label}1": first, f"{label}2": second, f"{label}3": third})
    return tournament, who


@pytest.mark.django_db
class TestPlayoff:
    def test_finishing_is_refused_until_the_playoff_decides_the_winner(self, client, staff_user):
        tournament, who = tied_on_first()
        names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
        with pytest.raises(ServiceError, match="Tie on place 1 between") as refused:
            points_services.finish(tournament=tournament, actor=None)
        assert names[who["a1"]] in refused.value.message and names[who["b1"]] in refused.value.message
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert (rows[who["a1"]].place, rows[who["b1"]].place) == (1, 1)
        assert str(rows[who["a1"]].decided_by_label) == "tie: play-off due"
        assert (rows[who["a3"]].place, rows[who["b3"]].place) == (5, 5)
        assert str(rows[who["a3"]].decided_by_label) == "shared place"

        client.force_login(staff_user(tournament, enums.Role.ORGANISER))
        page = client.get(reverse("tournament:rounds", args=[tournament.pk])).content.decode()
        assert "Tie on place 1 between" in page and "seat a play-off" in page and 'value="playoff"' in page
        assert "Finish the tournament" not in page
        seated = client.post(reverse("tournament:next_round", args=[tournament.pk]), {"action": "playoff"})
        assert seated.status_code == 302
        playoff = Round.objects.get(tournament=tournament, stage=enums.Stage.PLAYOFF)
        table = playoff.tables.get()
        assert sorted(seat.player_id for seat in table.seats.all()) == sorted([who["a1"], who["b1"]])
        assert table.duel_for_place == 1 and str(playoff) == "Play-off 1"
        # A second tap seats nothing more.
        with pytest.raises(ServiceError, match="Tables still playing: 1"):
            points_services.seat_playoff(tournament=tournament, actor=None)
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert str(rows[who["a1"]].decided_by_label) == "tie: play-off playing"

        # The referee's table page offers the calculator and says it is a play-off.
        referee = client.get(reverse("tournament:referee_table", args=[tournament.pk, table.pk])).content.decode()
        assert "Play-off: one game; fewer penalty points rank first" in referee

        set_dealer(tournament, table)
        record(tournament, table, who["b1"], points={who["a1"]: 12})
        assert refreshed(table).status == enums.TableStatus.DECIDED  # one game decides it
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert (rows[who["b1"]].place, rows[who["a1"]].place) == (1, 2)
        assert {str(rows[pid].decided_by_label) for pid in (who["a1"], who["b1"])} == {"play-off"}
        assert (rows[who["a1"]].points, rows[who["b1"]].points) == (0, 0)  # play-off points never count

        # A correction of the play-off's game moves the winner.
        game = Game.objects.get(table=table, status=GameStatus.VALID)
        kwargs = {
            "tournament": tournament,
            "fmt": registry.of(tournament),
            "actor": None,
            "table_id": table.pk,
            "game_id": game.pk,
            "version": refreshed(table).version,
            "reason": "wrong winner",
            "winner_id": who["a1"],
            "card_points": {who["b1"]: 3},
        }
        with pytest.raises(corrections.ConfirmConsequences) as asked:
            corrections.correct_game(**kwargs)
        corrections.correct_game(**kwargs, confirm=asked.value.fingerprint)
        tournament.refresh_from_db()
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert (rows[who["a1"]].place, rows[who["b1"]].place) == (1, 2)

        finished = client.post(reverse("tournament:next_round", args=[tournament.pk]), {"action": "finish"})
        assert finished.status_code == 302
        tournament.refresh_from_db()
        assert tournament.status == enums.TournamentStatus.FINISHED
        ranking = client.get(reverse("tournament:ranking", args=[tournament.pk])).content.decode()
        assert "play-off" in ranking and "shared place" in ranking
        assert "A missed round counts the round&#x27;s highest total." in ranking
        assert "The start number never decides a place." in ranking

    def test_a_shared_place_needs_no_playoff(self):
        tournament, who = tied_on_first(points_tie_resolution="shared")
        assert points_selectors.due_playoffs(tournament) == []
        rows = {row.player.pk: row for row in points_selectors.ranking(tournament)}
        assert (rows[who["a1"]].place, rows[who["b1"]].place) == (1, 1)
        assert str(rows[who["b1"]].decided_by_label) == "shared place"
        points_services.finish(tournament=tournament, actor=None)
        assert Round.objects.filter(tournament=tournament, stage=enums.Stage.PLAYOFF).count() == 0

    def test_criteria_none_and_every_place_send_more_ties_to_a_playoff(self):
        tournament, who = tied_on_first(points_tie_places="all")
        due = points_selectors.due_playoffs(tournament)
        assert [(tie.place, sorted(tie.players)) for tie in due] == [
            (1, sorted([who["a1"], who["b1"]])),
            (5, sorted([who["a3"], who["b3"]])),
        ]
        playoff = points_services.seat_playoff(tournament=tournament, actor=None)
        assert playoff.tables.count() == 2
        assert Table.objects.filter(round=playoff, duel_for_place=5).exists()

    def test_a_playoff_table_holding_a_fixed_player_is_played_at_their_table(self):
        """Issue 29: a fixed seat holds in the play-off too; two tied players fixed to one number
        at different play-off tables: the first table keeps it, the other's note says why not."""
        tournament, who = tied_on_first(points_tie_places="all")
        for key, number in (("b1", 7), ("a3", 7)):
            set_fixed_seat(tournament=tournament, actor=None, player_id=who[key], number=number, need="wheelchair")
        playoff = points_services.seat_playoff(tournament=tournament, actor=None)
        first = Table.objects.get(round=playoff, duel_for_place=1)
        fifth = Table.objects.get(round=playoff, duel_for_place=5)
        assert first.number == 7 and first.fixed_seat and first.fixed_need == "wheelchair"
        assert fifth.number != 7 and not fifth.fixed_seat
        name = Player.objects.get(pk=who["a3"]).name
        assert f"Fixed seat not kept for {name} (table 7)" in playoff.seating_note

    def test_no_main_round_after_a_playoff(self):
        tournament, _who = tied_on_first()
        set_settings(tournament, rounds_planned=3)
        tournament.refresh_from_db()
        points_services.seat_playoff(tournament=tournament, actor=None)
        with pytest.raises(ServiceError, match="A play-off has been seated"):
            start(tournament)


# --------------------------------------------------------------------------
# The settings form
# --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("points_tie_breaks", "start_number"),
        ("points_tie_places", "the top ten"),
        ("points_tie_resolution", "coin toss"),
        ("points_missed_rounds", "0"),
        ("points_missed_rounds", ""),
    ],
)
def test_settings_refuse_bad_values_and_save_nothing(organiser, field, value):  # type: ignore[no-untyped-def]
    tournament = points_field()
    client = organiser(tournament)
    before = Tournament.objects.values_list("format_settings", "version").get(pk=tournament.pk)
    response = client.post(
        reverse("tournament:settings", args=[tournament.pk]), settings_data(tournament, **{field: value})
    )
    assert response.status_code in (200, 400, 422)
    body = response.content.decode()
    assert "Select a valid choice" in body or "This field is required" in body
    assert Tournament.objects.values_list("format_settings", "version").get(pk=tournament.pk) == before


@pytest.mark.django_db
def test_settings_show_and_save_the_rules_in_words(organiser):  # type: ignore[no-untyped-def]
    tournament = points_field()
    client = organiser(tournament)
    page = client.get(reverse("tournament:settings", args=[tournament.pk])).content.decode()
    assert "the start number never does" in page and "For late arrivals, pauses and withdrawals" in page
    data = settings_data(
        tournament, points_missed_rounds="own_average", points_tie_breaks="best_round", points_tie_resolution="shared"
    )
    client.post(reverse("tournament:settings", args=[tournament.pk]), data)
    tournament.refresh_from_db()
    assert (tournament.points_missed_rounds, tournament.points_tie_breaks, tournament.points_tie_resolution) == (
        "own_average",
        "best_round",
        "shared",
    )
    assert points_selectors.ranking_notes(tournament) == [
        "A missed round counts the player's own average of the rounds played (rounded).",
        "Equal points: the lower best round. Players still tied share the place. "
        "The start number never decides a place.",
    ]
