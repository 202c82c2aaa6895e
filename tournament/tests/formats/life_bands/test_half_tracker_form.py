"""The half tracker's form contract (``tournament.formats.life_bands.views.half_tracker``).

Each post carries the game's state, the kept game's revision and one round of throws; the
scored game is kept for the table (``TrackerGame``), nothing else is written. Bad input of
any kind is answered 422 with a translated reason (naming the player whose throw does not
exist) and never a 500; a state that does not fit the table shows the kept (or a new) game.
Sharp play is the server's decision from the table's start, not the posted flag. The page
also holds what ``static/js/half_tracker.js`` needs (the pad, the store key, the throws'
words) and nothing a strict Content-Security-Policy forbids.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import schocken
from tournament import enums
from tournament.formats.life_bands import views as tracker_views
from tournament.models import Round, Table, Tournament, TrackerGame
from tournament.tests.views.scenarios import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(client, staff_user, table_of_four):  # type: ignore[no-untyped-def]
    client.force_login(staff_user(table_of_four[0], enums.Role.REFEREE))
    return client


def path(tournament: Tournament, table: Table) -> str:
    return reverse("tournament:half_tracker", args=[tournament.pk, table.pk])


def fresh_state(players: list[int], **fields: str) -> dict[str, str]:
    return {
        "players": ",".join(map(str, players)),
        "stock": "13",
        "lids": ",".join("0" for _ in players),
        "half_losers": "",
        "sharp": "0",
        "starter": "0",
        **fields,
    }


GOOD_ROUND = {"dice_0": "1 1 3", "dice_1": "6 5 2", "dice_2": "4 2 1", "dice_3": "3 2 2"}


def hidden(page: str) -> dict[str, str]:
    """The state fields the answer carries to the next post."""
    form = page.split("data-tracker-form", 1)[1]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))


def start_sharp_clock(table: Table, *, past: bool) -> None:
    """Move the table's (and its round's) start so that sharp play has begun, or has not."""
    minutes = table.round.tournament.sharp_play_minutes
    started = timezone.now() - timedelta(minutes=minutes + 1 if past else minutes - 5)
    Table.objects.filter(pk=table.pk).update(started_at=started)
    Round.objects.filter(pk=table.round_id).update(started_at=started)


# --- a good round ---------------------------------------------------------------------------


def test_a_round_of_throws_moves_the_lids(referee, table_of_four):
    tournament, table, players = table_of_four
    before = snapshot()
    response = referee.post(path(tournament, table), {**fresh_state(players), **GOOD_ROUND})
    page = response.content.decode()
    assert response.status_code == 200
    assert "(Schock 3) decides" in page and "(322) takes 3 lids." in page
    assert hidden(page) | {"csrfmiddlewaretoken": ""} == {
        "csrfmiddlewaretoken": "",
        "players": ",".join(map(str, players)),
        "stock": "10",
        "lids": "0,0,0,3",
        "half_losers": "",
        "decider_loser": "",
        "sharp": "0",
        "starter": "3",  # the round's loser throws first next
        "revision": "1",  # the game is kept for the table: one round scored
        "mark": "0:0",  # no game recorded at the table yet
    }
    assert snapshot() == before  # no result, no chip: only the kept game
    kept = TrackerGame.objects.get(table=table)
    assert kept.revision == 1 and kept.state["lids"] == "0,0,0,3"


def test_a_one_laid_aside_makes_a_123_a_simple_throw(referee, table_of_four):
    tournament, table, players = table_of_four
    round_ = {"dice_0": "6 6 5", "dice_1": "5 5 4", "dice_2": "3 2 1", "dice_3": "6 5 4"}
    straight = referee.post(path(tournament, table), {**fresh_state(players), **round_, "rolls_2": "2"})
    assert "(Straße 456) decides" in straight.content.decode()  # 123 is a Straße, the lower one
    # The same round scored again (taken back) on the revision the tablet now holds.
    again = {**fresh_state(players), **round_, "rolls_2": "2", "kept_2": "1", "revision": "1"}
    laid_aside = referee.post(path(tournament, table), again)
    # 321 with its 1 laid aside is the lowest simple throw: it takes the Straße's 2 lids.
    assert "(321) takes 2 lids." in laid_aside.content.decode()


# --- bad input: a translated reason, nothing saved, no 500 ------------------------------------

BAD_THROWS = [
    ({"dice_1": "7 1 1"}, "Enter three dice (1–6) for {name1}, e.g. 6 5 2."),
    ({"dice_1": "abc"}, "Enter three dice (1–6) for {name1}, e.g. 6 5 2."),
    ({"dice_1": ""}, "Enter three dice (1–6) for {name1}, e.g. 6 5 2."),
    ({"dice_1": "1 1"}, "Enter three dice (1–6) for {name1}, e.g. 6 5 2."),
    ({"dice_1": "1 1 1 1"}, "Enter three dice (1–6) for {name1}, e.g. 6 5 2."),
    ({"dice_2": "٣ ٢ ١"}, "Enter three dice (1–6) for {name2}, e.g. 6 5 2."),  # Arabic-Indic digits
    ({"rolls_1": "0"}, "Choose 1, 2 or 3 rolls for {name1}."),
    ({"rolls_1": "4"}, "Choose 1, 2 or 3 rolls for {name1}."),
    ({"rolls_1": "x"}, "Choose 1, 2 or 3 rolls for {name1}."),
    ({"rolls_1": "9" * 5000}, "Choose 1, 2 or 3 rolls for {name1}."),
    ({"kept_0": "1"}, "{name0}: only ones that the throw shows"),  # laid aside in a single roll
    ({"rolls_1": "2", "kept_1": "1"}, "{name1}: only ones that the throw shows"),  # 652 has no one
    ({"rolls_0": "3", "kept_0": "3"}, "{name0}: only ones that the throw shows"),
    ({"rolls_0": "3", "kept_0": "-1"}, "{name0}: only ones that the throw shows"),
    ({"rolls_0": "3", "kept_0": "x"}, "{name0}: only ones that the throw shows"),
]


@pytest.mark.parametrize(("change", "reason"), BAD_THROWS)
def test_a_throw_that_cannot_exist_is_refused_with_the_player_named(referee, table_of_four, change, reason):
    tournament, table, players = table_of_four
    names = {f"name{seat}": table.seats.get(player_id=pid).player.name for seat, pid in enumerate(players)}
    state = fresh_state(players)
    before = snapshot()
    response = referee.post(path(tournament, table), {**state, **GOOD_ROUND, **change})
    page = response.content.decode()
    assert response.status_code == 422
    assert 'id="tracker-error"' in page and reason.format(**names) in page
    assert hidden(page)["lids"] == state["lids"] and hidden(page)["stock"] == "13"  # the round did not count
    assert 'value="3 2 2"' in page  # what was typed is shown again, to correct it
    assert snapshot() == before


def test_a_refused_throw_over_htmx_answers_the_partial(referee, table_of_four):
    tournament, table, players = table_of_four
    response = referee.post(
        path(tournament, table), {**fresh_state(players), **GOOD_ROUND, "dice_3": "0 0 0"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert page.lstrip().startswith('<div id="tracker"') and "<html" not in page
    assert "Enter three dice (1–6) for" in page


def bad_states(players: list[int]) -> list[dict[str, str]]:
    a, b, c, d = players
    stranger = max(players) + 1000
    return [
        {"players": f"{a},{b},{c},{stranger}"},  # someone not at the table
        {"players": f"{a},{b},{c}"},  # a player left out of the half
        {"players": f"{b},{a},{c},{d}"},  # not in seat order
        {"players": f"{a},{a},{c},{d}"},
        {"players": ""},
        {"players": "x"},
        {"lids": "0,0,0"},
        {"lids": "0,0,0,0,0"},
        {"lids": "0,0,0,-1"},
        {"stock": "12"},
        {"stock": "99", "lids": "0,0,0,0"},
        {"stock": "zwölf"},
        {"stock": ""},
        {"stock": "1" * 5000},
        {"starter": "4"},
        {"starter": "-1"},
        {"starter": "x"},
        {"stock": "0", "lids": "0,6,7,0", "starter": "0"},  # seat 0 holds no lids: it throws no more
        {"stock": "0", "lids": "13,0,0,0"},  # the half is over already
        {"half_losers": str(stranger)},
        {"half_losers": f"{a},{b}", "players": f"{b},{a}", "lids": "0,0"},  # the decider's order is turned
        {"half_losers": f"{a},{b}", "sharp": "1"},  # sharp play has one half only
        {"half_losers": f"{a},{b},{c}"},
    ]


def test_a_state_that_does_not_fit_the_table_starts_a_new_game(referee, table_of_four):
    tournament, table, players = table_of_four
    before = snapshot()
    for change in bad_states(players):
        response = referee.post(path(tournament, table), {**fresh_state(players), **GOOD_ROUND, **change})
        page = response.content.decode()
        assert response.status_code == 422, change
        assert "could not read this game&#x27;s state" in page, change
        assert hidden(page) == {**hidden(page), **fresh_state(players)}, change  # a new game, first half
        assert "13 lids in the middle" in page
    assert snapshot() == before


def test_a_missing_state_field_is_a_bad_state(referee, table_of_four):
    tournament, table, players = table_of_four
    for field in ("stock", "lids"):
        state = fresh_state(players)
        del state[field]
        response = referee.post(path(tournament, table), {**state, **GOOD_ROUND})
        assert response.status_code == 422 and "could not read" in response.content.decode()


def test_throws_posted_to_a_decided_game_are_refused(referee, table_of_four):
    tournament, table, players = table_of_four
    a = players[0]
    pitsch_patsch = fresh_state(players, half_losers=f"{a},{a}", stock="0", lids="13,0,0,0")
    response = referee.post(path(tournament, table), {**pitsch_patsch, **GOOD_ROUND})
    page = response.content.decode()
    assert response.status_code == 422
    assert "This game is already decided" in page and "loses the game." in page
    new = referee.post(path(tournament, table), {"action": "new"})
    assert new.status_code == 200 and "13 lids in the middle" in new.content.decode()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(
        st.sampled_from(
            ["players", "stock", "lids", "half_losers", "sharp", "starter", "action"]
            + [f"{kind}_{seat}" for kind in ("dice", "rolls", "kept") for seat in range(5)]
        ),
        st.one_of(st.text(max_size=12), st.from_regex(r"[0-9,\- ]{0,12}", fullmatch=True)),
    )
)
def test_no_post_ever_answers_500(referee, table_of_four, data):
    tournament, table, _players = table_of_four
    response = referee.post(path(tournament, table), data)
    assert response.status_code in (200, 409, 422, 400)  # 400: NUL characters; 409: an older revision


# --- sharp play is the server's decision --------------------------------------------------------


def test_a_game_that_begins_after_the_limit_is_sharp_whatever_the_form_says(referee, table_of_four):
    tournament, table, players = table_of_four
    start_sharp_clock(table, past=True)
    page = referee.post(path(tournament, table), {**fresh_state(players, sharp="0"), **GOOD_ROUND}).content.decode()
    assert hidden(page)["sharp"] == "1" and "sharp play" in page
    assert 'data-when-sharp role="status">' in page  # the banner is shown, not hidden


def test_a_game_that_begins_before_the_limit_is_not_sharp_whatever_the_form_says(referee, table_of_four):
    tournament, table, players = table_of_four
    start_sharp_clock(table, past=False)
    page = referee.post(path(tournament, table), {**fresh_state(players, sharp="1"), **GOOD_ROUND}).content.decode()
    assert hidden(page)["sharp"] == "0" and "sharp play" not in page


def test_a_game_under_way_at_the_limit_ends_with_two_halves(referee, table_of_four):
    tournament, table, players = table_of_four
    start_sharp_clock(table, past=True)
    under_way = fresh_state(players, stock="10", lids="0,0,0,3", starter="3")
    page = referee.post(path(tournament, table), {**under_way, **GOOD_ROUND}).content.decode()
    assert hidden(page)["sharp"] == "0"
    assert "Sharp play has begun: this game ends normally with two halves" in page
    assert 'data-when-pending role="status">' in page


def test_the_half_of_a_sharp_game_decides_it(referee, table_of_four):
    tournament, table, players = table_of_four
    start_sharp_clock(table, past=True)
    schock_out = {**GOOD_ROUND, "dice_0": "1 1 1"}  # the lowest (322) takes all 13 lids
    page = referee.post(path(tournament, table), {**fresh_state(players), **schock_out}).content.decode()
    loser = table.seats.get(player_id=players[3]).player.name
    assert "Game over" in page and f"{loser} loses the game." in page


def test_the_grand_final_never_plays_sharp(referee, table_of_four):
    tournament, table, players = table_of_four
    start_sharp_clock(table, past=True)
    Round.objects.filter(pk=table.round_id).update(stage=enums.Stage.GRAND_FINAL)
    page = referee.get(path(tournament, table)).content.decode()
    assert "data-tracker-clock" not in page and hidden(page)["sharp"] == "0"
    page = referee.post(path(tournament, table), {**fresh_state(players, sharp="1"), **GOOD_ROUND}).content.decode()
    assert hidden(page)["sharp"] == "0"


def test_the_clock_counts_from_the_table_start(referee, table_of_four):
    tournament, table, _players = table_of_four
    start_sharp_clock(table, past=True)
    page = referee.get(path(tournament, table)).content.decode()
    clock = re.search(
        r'class="sharp tracker-clock is-sharp" data-tracker-clock data-elapsed="(\d+)" '
        r'data-sharp-after="(\d+)"',
        page,
    )
    assert clock is not None
    assert int(clock[2]) == tournament.sharp_play_minutes * 60 and int(clock[1]) >= int(clock[2])


# --- what the page holds for the tap pad -------------------------------------------------------


def test_the_page_holds_the_pad_and_the_words_of_every_throw(referee, table_of_four):
    tournament, table, _players = table_of_four
    page = referee.get(path(tournament, table)).content.decode()
    assert page.count('class="pad-face"') == 6 and page.count("data-pick=") == 4
    assert f'data-store-key="spielleitung.tracker.v1:{tournament.pk}:{table.pk}"' in page
    assert f'data-version="{table.version}"' in page
    words = json.loads(page.split('<script id="tracker-throws" type="application/json">')[1].split("</script>")[0])

    def shown(key: str) -> tuple[object, object]:
        return words[key]["word"], words[key]["lids"]

    assert shown("111-1-0") == ("Schock-Out", "all lids")
    assert shown("113-2-0") == ("Schock 3", "3 lids")
    assert shown("555-1-0") == ("General 5", "3 lids")
    assert shown("456-3-0") == ("Straße 456", "2 lids")
    assert shown("256-1-0") == ("652 · simple throw", "1 lid")
    assert shown("123-2-1") == ("321 · simple throw", "1 lid") and "123-1-1" not in words
    assert "113-2-1" not in words  # laying a one aside changes nothing there


def test_the_words_rank_throws_as_the_rules_do():
    for street in schocken.StreetRule:
        words = tracker_views.throw_words(street)
        throws = {
            key: schocken.Throw((int(key[0]), int(key[1]), int(key[2])), rolls=int(key[4]), ones_kept=int(key[6]))
            for key in words
        }
        keys = list(throws)
        for first in keys[::7]:
            for second in keys[::5]:
                a, b = throws[first], throws[second]
                expected = schocken.ranking([a, b], street)[0] == 0  # a, thrown first, ranks higher
                assert (words[first]["rank"] >= words[second]["rank"]) == expected, (first, second, street)


def test_the_page_keeps_to_a_strict_content_security_policy(referee, table_of_four):
    tournament, table, _players = table_of_four
    page = referee.get(path(tournament, table)).content.decode().split('<main id="main">', 1)[1]
    assert " style=" not in page and "hx-on" not in page
    assert not re.search(r"\son[a-z]+=", page)
    for tag in re.findall(r"<script[^>]*>", page):
        assert " src=" in tag or 'type="application/json"' in tag, tag
    assert re.search(r'<script type="module" src="/static/js/half_tracker\.js"></script>', page)


@pytest.mark.parametrize("street", list(schocken.StreetRule))
def test_every_one_tap_throw_has_its_word_and_the_pad_lists_them_best_first(street):
    """The pad's 56 throw buttons: each resolves to a word of the script's table in any roll, and
    they stand in the order of the rules (best first), as the referee looks for them."""
    grid = tracker_views.throw_grid(street)
    words = tracker_views.throw_words(street)
    assert len(grid) == 56 and len({button["dice"] for button in grid}) == 56
    for button in grid:
        for rolls in (1, 2, 3):
            assert f"{''.join(sorted(button['dice']))}-{rolls}-0" in words
    ranks = [words[f"{''.join(sorted(button['dice']))}-1-0"]["rank"] for button in grid]
    assert ranks == sorted(ranks, reverse=True)
    assert grid[0]["word"] == "Schock-Out" and grid[-1]["dice"] == "221"
