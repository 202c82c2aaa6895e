"""The projector's lists in windows (``selectors.screen``): every rotation shows the next window
of every list, the read follows the window, and both ways of reading give the same screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tournament import enums, simulation
from tournament.errors import ServiceError
from tournament.formats import registry
from tournament.models import Player, Round, Table, Tournament
from tournament.selectors import public
from tournament.selectors import screen as screen_selectors
from tournament.tests.helpers import field_at_once, record_one_result
from tournament.tests.views.test_polling import play_a_little

FORMATS = [enums.Format.KNOCKOUT, enums.Format.LIFE_BANDS, enums.Format.POINTS]


@pytest.fixture
def small_windows(monkeypatch):  # type: ignore[no-untyped-def]
    """Windows of a few items, so that a test field takes several."""
    monkeypatch.setattr(screen_selectors, "TABLES_WINDOW", 2)
    monkeypatch.setattr(screen_selectors, "ALPHA_WINDOW", 5)
    monkeypatch.setattr(screen_selectors, "STANDINGS_WINDOW", 7)


def read(tournament: Tournament, cycle: int, whole: bool, monkeypatch) -> screen_selectors.Screen:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(screen_selectors, "WHOLE_READ_CAPACITY", 10**9 if whole else 0)
    return screen_selectors.read(tournament, cycle)


def expected_from_snapshot(tournament: Tournament, cycle: int) -> dict[str, object]:
    """What the screen of ``cycle`` must show, cut from the whole public snapshot."""
    snap = public.snapshot(tournament)
    live = snap.live_tables
    lines = snap.where_lines()
    shown = snap.bracket_rounds
    cap = screen_selectors.bracket_cap(len(shown))

    def cut(items: list, size: int) -> list:  # type: ignore[type-arg]
        window = screen_selectors.window_of(len(items), size, cycle)
        return items[window.offset : window.offset + size]

    return {
        "tables": cut(list(live), screen_selectors.TABLES_WINDOW),
        "alphabetical": cut(lines, screen_selectors.ALPHA_WINDOW),
        "standings": cut(snap.standings, screen_selectors.STANDINGS_WINDOW),
        "bracket": [(rnd.label, rnd.tables[:cap], len(rnd.tables)) for rnd in shown],
        "top": snap.ranking[:3],
    }


def states(fmt: str) -> Iterator[Tournament]:
    """A tournament after its first result, then with half its first round played (and, with rounds
    played at once, a consolation table beside the main round); another played to the end."""
    tournament = simulation.create_field(fmt=fmt, players=23, seed=11)
    # Namesakes: equal names keep one order, or a window's edge could show one of them twice.
    namesakes = list(tournament.players.order_by("-pk").values_list("pk", flat=True)[:7])
    Player.objects.filter(pk__in=namesakes).update(name="Anna Moser")
    play_a_little(tournament)
    yield tournament
    first = Round.objects.filter(tournament=tournament).order_by("number").first()
    assert first is not None
    for table in list(first.tables.filter(status=enums.TableStatus.PLAYING).order_by("number"))[1::2]:
        record_one_result(tournament, table)
    tournament.refresh_from_db()
    yield tournament
    if registry.of(tournament).parallel_rounds:
        # Players out at their tables wait in a pool; a consolation table plays beside the main round.
        for _ in range(3):
            for table in Table.objects.filter(round__tournament=tournament, status=enums.TableStatus.PLAYING):
                with contextlib.suppress(ServiceError):  # seat 1 is out already
                    record_one_result(tournament, table)
        tournament.refresh_from_db()
        registry.of(tournament).next_step(tournament=tournament, actor=None, action="consolation")
        assert Round.objects.filter(tournament=tournament, status=enums.RoundStatus.RUNNING).count() == 2
        tournament.refresh_from_db()
        yield tournament
    finished = simulation.create_field(fmt=fmt, players=23, seed=12)
    simulation.simulate(finished, seed=12)
    finished.refresh_from_db()
    assert finished.status == enums.TournamentStatus.FINISHED
    yield finished


@pytest.mark.django_db
@pytest.mark.core
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_window_is_the_snapshot_cut_and_both_reads_agree(fmt, small_windows, monkeypatch):
    for tournament in states(fmt):
        whole = read(tournament, 0, True, monkeypatch)
        assert whole.windows > 1 or tournament.status == enums.TournamentStatus.FINISHED  # cut in play
        for cycle in range(whole.windows + 1):  # and once round again
            by_window = read(tournament, cycle, False, monkeypatch)
            assert by_window == read(tournament, cycle, True, monkeypatch), (fmt, cycle)
            expected = expected_from_snapshot(tournament, cycle)
            assert by_window.tables == expected["tables"]
            assert by_window.alphabetical == expected["alphabetical"]
            assert by_window.standings == expected["standings"]
            assert [(c.label, c.tables, c.total) for c in by_window.bracket] == expected["bracket"]
            assert by_window.ranking_top == expected["top"]


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_windowed_read_costs_the_same_queries_at_20_and_200_players(fmt, small_windows, monkeypatch):
    counts = []
    for players in (20, 200):
        tournament = field_at_once(fmt=fmt, players=players, seed=4)
        play_a_little(tournament)
        tournament.refresh_from_db()
        for cycle in (0, 3):
            cache.clear()  # the ranking rows too: each read as the first after a write
            with CaptureQueriesContext(connection) as queries:
                read(tournament, cycle, False, monkeypatch)
            counts.append(len(queries))
    assert len(set(counts)) == 1, counts
    # Rounds, their tables counted, the format's extras, the window's tables, the live names, the
    # bracket's first tables, and for a format ranked in play its standings (who sat, and the
    # ranking's own three). Life bands: one more for the players between rounds ("Where do I
    # sit?" names the round they wait for: ``life_bands.selectors.waiting``, issue 27). Points: no
    # bracket (its table winners read like a ranking beside the standings, issue 28).
    assert counts[0] == {enums.Format.KNOCKOUT: 5, enums.Format.LIFE_BANDS: 8, enums.Format.POINTS: 8}[fmt]


@given(st.integers(0, 10_000), st.integers(1, 500), st.integers(0, 50))
def test_the_windows_of_a_list_show_every_item_once_per_round_of_cycles(total, size, start):
    window = screen_selectors.window_of(total, size, start)
    shown = []
    for cycle in range(start, start + window.count):
        window = screen_selectors.window_of(total, size, cycle)
        assert 0 <= window.offset < max(total, 1)
        shown.extend(range(window.offset, min(window.offset + size, total)))
    assert sorted(shown) == list(range(total))
    assert window.windowed == (total > size)


@pytest.mark.django_db
def test_the_poll_asks_for_a_rotation_and_bad_values_answer_the_first(client, small_windows):
    tournament = simulation.create_field(fmt=enums.Format.KNOCKOUT, players=23, seed=5)
    play_a_little(tournament)
    path = reverse("tournament:projector_screen", args=[tournament.public_key])
    first = client.get(path)
    assert first.status_code == 200
    body = first.content.decode()
    assert 'data-cycle="0"' in body and 'data-offset="0"' in body
    second = client.get(path + "?cycle=1")
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert 'data-cycle="1"' in second.content.decode()
    assert 'data-offset="2"' in second.content.decode()  # the second window of tables
    # The same rotation again, unchanged: a 304; a bad value is the first rotation.
    assert client.get(path + "?cycle=1", HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 304
    for bad in ("-1", "x", "1e3", "٣", "99999999", ""):
        answer = client.get(path + "?cycle=" + bad, HTTP_IF_NONE_MATCH=first["ETag"])
        assert answer.status_code in (200, 304), bad
        if answer.status_code == 200:
            assert 'data-cycle="0"' in answer.content.decode() or bad == "99999999", bad


@pytest.mark.django_db
def test_withdrawn_players_stand_where_they_sat_in_both_reads(small_windows, monkeypatch):
    """The windowed read asks only of players not checked in whether they ever sat: one who sat
    in round 1 and withdrew stays in the standings, one who withdrew before sitting is not there."""
    from tournament import desk
    from tournament.formats.points import services as points_services
    from tournament.tests.views.test_query_counts import decide_fast, playing_tables

    tournament = simulation.create_field(fmt=enums.Format.POINTS, players=13, seed=5)
    never_sat, sat_once = tournament.players.order_by("pk").values_list("pk", flat=True)[:2]
    desk.withdraw_player(tournament=tournament, actor=None, player_id=never_sat, confirmed=True)
    points_services.start_round(tournament=tournament, actor=None, seed=1)
    decide_fast(tournament, playing_tables(tournament))
    desk.withdraw_player(tournament=tournament, actor=None, player_id=sat_once, confirmed=True)
    points_services.start_round(tournament=tournament, actor=None, seed=2)
    tournament.refresh_from_db()
    whole = read(tournament, 0, True, monkeypatch)
    for cycle in range(whole.windows + 1):
        assert read(tournament, cycle, False, monkeypatch) == read(tournament, cycle, True, monkeypatch), cycle
    standing = [row.player.pk for row in public.snapshot(tournament).standings]
    assert len(standing) == 12 and sat_once in standing and never_sat not in standing
