"""The poll that changes nothing costs nothing; a version renders once; live play does not
invalidate everything (tournament.versions, tournament.renderings, views.display).

- A 304 of the projector, api.json, the phone page and the staff polls reads no database
  (the version comes from the cache); a cache miss reads it once and fills the cache.
- A write publishes its version when it commits; a write that is rolled back publishes
  nothing; a renewed public key is a 404 at once, whatever the cache held.
- A rendering is made once per version and language and served as the same bytes; one
  process renders while the others serve the previous rendering; within one second of a
  rendering a newer version is not rendered again, and the ETag then names the version
  the rendering shows (the next poll after the second sees the change).
- The phone page reads only the players asked for: the same queries at 20 and 500 players.
"""

from __future__ import annotations

import gzip
import itertools
import random
import time
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament import desk, enums, renderings, simulation, versions
from tournament.desk.tournaments import renew_public_key
from tournament.errors import ServiceError
from tournament.models import Round, Tournament
from tournament.tests.helpers import url as staff_url
from tournament.tests.views.test_display import field_in_play
from tournament.views import display

pytestmark = [pytest.mark.core, pytest.mark.django_db]

HX = {"HTTP_HX_REQUEST": "true"}


def public(name: str, tournament: Tournament, query: str = "") -> str:
    return reverse(f"tournament:{name}", args=[tournament.public_key]) + query


def get(client: Client, path: str, etag: str = "", **headers: str):  # type: ignore[no-untyped-def]
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **headers)
    return response, len(queries)


def play_one_table(tournament: Tournament) -> None:
    table = Round.objects.get(tournament=tournament).tables.filter(status=enums.TableStatus.PLAYING).first()
    assert table is not None
    simulation.play_table(tournament, table, random.Random(5), None)


@pytest.mark.parametrize(
    ("name", "query", "headers"),
    [
        ("projector_screen", "", {}),
        ("api", "", {}),
        ("find", "?q=1", {**HX, "HTTP_HX_TARGET": "find-results"}),
    ],
)
def test_an_unchanged_public_poll_reads_no_database(client, django_assert_num_queries, name, query, headers):
    tournament = field_in_play(6)
    path = public(name, tournament, query)
    first = client.get(path, **headers)
    assert first.status_code == 200 and first["ETag"]
    with django_assert_num_queries(0):
        again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


@pytest.mark.parametrize(("page", "target"), [("referee_tables", "tables-list"), ("rounds", "rounds-body")])
def test_an_unchanged_staff_poll_reads_no_database(client, staff_user, django_assert_num_queries, page, target):
    tournament = field_in_play(6)
    client.force_login(staff_user(tournament, enums.Role.ORGANISER))
    headers = {**HX, "HTTP_HX_TARGET": target}
    first = client.get(staff_url(page, tournament), **headers)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(staff_url(page, tournament), HTTP_IF_NONE_MATCH=first["ETag"], **headers)
    assert again.status_code == 304


def test_a_miss_reads_the_database_once_and_fills_the_cache(client):
    tournament = field_in_play(6)
    first = client.get(public("projector_screen", tournament))
    cache.clear()  # another process, an evicted entry, a restarted Redis
    response, queries = get(client, public("projector_screen", tournament), first["ETag"])
    assert (response.status_code, queries) == (304, 1)
    response, queries = get(client, public("projector_screen", tournament), first["ETag"])
    assert (response.status_code, queries) == (304, 0)


def test_a_committed_write_publishes_its_version(django_capture_on_commit_callbacks):
    tournament = field_in_play(6)
    assert versions.version(tournament.pk) == tournament.version
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        desk.update_tournament(tournament=tournament, actor=None, venue="Hall 2")
    assert callbacks, "bump registers the publication"
    with CaptureQueriesContext(connection) as queries:
        state = versions.state(tournament.pk)
    assert len(queries) == 0, "published, not read again"
    assert state is not None and state.version == tournament.version + 1
    assert state.version == Tournament.objects.get(pk=tournament.pk).version


def test_a_refused_write_publishes_nothing_and_the_cache_stays_true(django_capture_on_commit_callbacks):
    tournament = field_in_play(6)
    before = versions.version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ServiceError):
        desk.update_tournament(tournament=tournament, actor=None, table_size=5, table_size_max=4)
    assert versions.version(tournament.pk) == before == Tournament.objects.get(pk=tournament.pk).version


def test_a_write_in_the_same_transaction_is_seen_before_it_commits(client):
    """bump drops the cached state at once: a reader in the writing transaction (here the
    test's, which never commits) reads the new version, never the cached old one."""
    tournament = field_in_play(6)
    assert client.get(public("api", tournament)).status_code == 200  # the state is cached now
    desk.update_tournament(tournament=tournament, actor=None, venue="Hall 3")
    assert versions.version(tournament.pk) == Tournament.objects.get(pk=tournament.pk).version
    assert versions.version_by_key(tournament.public_key) == tournament.version + 1


def test_a_renewed_key_is_gone_at_once_though_the_cache_knew_it(client, staff_user):
    tournament = field_in_play(6)
    old = client.get(public("projector_screen", tournament))
    assert versions.version_by_key(tournament.public_key) is not None  # the old key is cached
    organiser = Client()
    organiser.force_login(staff_user(tournament, enums.Role.ORGANISER))
    response = organiser.post(reverse("tournament:new_public_link", args=[tournament.pk]), {"confirm": "1"})
    assert response.status_code == 302
    response, _ = get(client, public("projector_screen", tournament), old["ETag"])
    assert response.status_code == 404
    renewed = Tournament.objects.get(pk=tournament.pk)
    assert client.get(public("projector_screen", renewed)).status_code == 200
    # A key renewed outside the view (its cache entry left behind) is refused just the same.
    key_before = renewed.public_key
    renew_public_key(tournament=renewed, actor=None, confirmed=True)
    assert versions.state_by_key(key_before) is None


def test_a_version_renders_once_and_is_sent_as_the_same_bytes(client):
    tournament = field_in_play(6)
    first, first_queries = get(client, public("api", tournament))
    again, queries = get(client, public("api", tournament))  # no ETag: a new visitor
    assert first_queries > 0 and queries == 0
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert again["Content-Type"] == "application/json"
    stored = cache.get(f"{renderings.KEY_PREFIX}{tournament.pk}:api:en")
    assert isinstance(stored, renderings.Rendering) and stored.body == first.content


def test_within_a_second_a_new_version_is_not_rendered_again_and_the_etag_says_so(client, monkeypatch):
    now = [1_000_000.0]  # the renderings' clock, moved by hand
    # A rendering's cost is measured on the monotonic clock; a busy machine must not make it "dear"
    # (kept five times as long as it took), so each reading moves it by one millisecond only.
    ticks = itertools.count()
    clock = SimpleNamespace(time=lambda: now[0], monotonic=lambda: next(ticks) / 1000, sleep=time.sleep)
    monkeypatch.setattr(renderings, "time", clock)
    tournament = field_in_play(6)
    first = client.get(public("projector_screen", tournament))
    play_one_table(tournament)
    # Within the window: the same rendering, with its own version as ETag (a 304 for this screen).
    held, queries = get(client, public("projector_screen", tournament), first["ETag"])
    assert (held.status_code, queries) == (304, 1)  # the version was read again (the write dropped it)
    fresh_visitor, _ = get(client, public("projector_screen", tournament))
    assert fresh_visitor["ETag"] == first["ETag"] and fresh_visitor.content == first.content
    now[0] += renderings.FRESH_SECONDS * 0.9
    held, _ = get(client, public("projector_screen", tournament), first["ETag"])
    assert held.status_code == 304
    # The projector is told how old the state it shows is ("updated N s ago" counts from then).
    assert float(held["X-State-Age"]) == pytest.approx(renderings.FRESH_SECONDS * 0.9, abs=0.05)
    now[0] += renderings.FRESH_SECONDS * 0.2  # the second has passed: the next poll sees the change
    changed, _ = get(client, public("projector_screen", tournament), first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed["X-State-Age"] == "0.0"  # rendered for the current version: the state of now
    unchanged, _ = get(client, public("projector_screen", tournament), changed["ETag"])
    assert unchanged.status_code == 304 and unchanged["X-State-Age"] == "0.0"
    assert changed.content != first.content
    tournament.refresh_from_db()
    assert f"-{tournament.version}-" in changed["ETag"]


def test_a_dear_rendering_is_kept_five_times_as_long_as_it_took(monkeypatch, settings):
    """A big field's screen that takes 0.6 s to render is served for 3 s after it was made, so
    rendering takes at most a fifth of a process during play; with the window off, never."""
    now = [1_000_000.0, 50.0]  # the renderings' clocks (time, monotonic), moved by hand
    clock = SimpleNamespace(time=lambda: now[0], monotonic=lambda: now[1], sleep=time.sleep)
    monkeypatch.setattr(renderings, "time", clock)
    builds: list[int] = []

    def build(version: int):  # type: ignore[no-untyped-def]
        def rendered() -> tuple[int, bytes]:
            builds.append(version)
            now[1] += 0.6  # the rendering takes 0.6 s
            return version, f"screen {version}".encode()

        return rendered

    first = renderings.latest("dear", 999_001, 1, build(1))
    assert first.took == pytest.approx(0.6) and renderings.kept_seconds(first) == pytest.approx(3.0)
    now[0] += 2.9
    assert renderings.latest("dear", 999_001, 2, build(2)).body == b"screen 1" and builds == [1]
    now[0] += 0.2
    assert renderings.latest("dear", 999_001, 2, build(2)).body == b"screen 2" and builds == [1, 2]
    settings.PUBLIC_RENDER_SECONDS = 0
    assert renderings.latest("dear", 999_001, 3, build(3)).body == b"screen 3" and builds == [1, 2, 3]


def test_while_one_process_renders_the_others_serve_the_previous_rendering(client, settings):
    settings.PUBLIC_RENDER_SECONDS = 0
    tournament = field_in_play(6)
    first = client.get(public("projector_screen", tournament))
    play_one_table(tournament)
    versions.version(tournament.pk)  # (the poll's own read of the new version)
    assert cache.add(f"{renderings.KEY_PREFIX}{tournament.pk}:screen:en:lock", 1, 10)  # another process is rendering
    response, queries = get(client, public("projector_screen", tournament))
    assert queries == 0 and response.content == first.content and response["ETag"] == first["ETag"]
    cache.delete(f"{renderings.KEY_PREFIX}{tournament.pk}:screen:en:lock")
    response, _ = get(client, public("projector_screen", tournament))
    assert response["ETag"] != first["ETag"]


def test_without_a_previous_rendering_a_waiting_process_renders_itself(client, settings):
    tournament = field_in_play(6)
    settings.PUBLIC_RENDER_SECONDS = 0
    assert cache.add(f"{renderings.KEY_PREFIX}{tournament.pk}:screen:en:lock", 1, 10)  # a render that never finishes
    started = time.monotonic()
    response = client.get(public("projector_screen", tournament))
    assert response.status_code == 200 and "Seating by table" in response.content.decode()
    assert time.monotonic() - started >= renderings.WAIT_SECONDS


def test_the_qr_code_is_drawn_once_per_link(client):
    tournament = field_in_play(6)
    display.qr_svg.cache_clear()
    for _ in range(3):
        assert client.get(public("projector", tournament)).status_code == 200
    info = display.qr_svg.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_the_projector_page_carries_the_etag_of_its_screen(client):
    tournament = field_in_play(6)
    page = client.get(public("projector", tournament)).content.decode()
    screen = client.get(public("projector_screen", tournament))
    assert f'data-etag="{screen["ETag"].replace(chr(34), "&quot;")}"' in page


def phone_counts(client: Client, players: int) -> dict[str, int]:
    """Queries of the phone page (whole page and results region, by number and by name) in a
    field of ``players``, in play and finished (a fresh cache each time: the real work)."""
    tournament = field_in_play(players, seed=2)
    counts: dict[str, int] = {}
    for moment in ("play", "finished"):
        if moment == "finished":
            Tournament.objects.filter(pk=tournament.pk).update(status=enums.TournamentStatus.FINISHED)
        for how, query in (("number", "?q=2"), ("name", "?q=a")):
            for region, headers in (("page", {}), ("region", {**HX, "HTTP_HX_TARGET": "find-results"})):
                cache.clear()
                response, counts[f"{moment}/{how}/{region}"] = get(client, public("find", tournament, query), **headers)
                assert response.status_code == 200
                assert "find-card" in response.content.decode()
    return counts


@pytest.mark.slow  # a field of 500 players
def test_the_phone_page_reads_only_the_players_asked_for(client):
    small, large = phone_counts(client, 20), phone_counts(client, 500)
    assert small == large, (small, large)
    # state, tournament, the players found, their seats (+ the ranking once finished); the page: + the tournament
    assert small["play/number/region"] <= 5, small


@pytest.mark.parametrize("page", ["projector_screen", "api", "find"])
def test_a_rendering_is_sent_compressed_as_stored_to_a_client_that_accepts_gzip(client, page):
    """Compressed once when rendered (renderings.respond): a browser gets the stored bytes with
    Content-Encoding gzip; a client that does not accept gzip gets the same page uncompressed."""
    tournament = field_in_play(6)
    path = public(page, tournament, "?q=1" if page == "find" else "")
    # The phone page's results as its poll asks for them (the whole page embeds them).
    fragment = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "find-results"} if page == "find" else {}
    plain, _queries = get(client, path, **fragment)
    packed, queries = get(client, path, HTTP_ACCEPT_ENCODING="br, gzip;q=0.8, deflate", **fragment)
    assert queries == 0
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)
    if page != "find":  # (the find results' key holds a hash of the search)
        stored = cache.get(f"{renderings.KEY_PREFIX}{tournament.pk}:{'api' if page == 'api' else 'screen'}:en")
        assert isinstance(stored, renderings.Rendering) and stored.gzipped == packed.content


def test_the_ranking_rows_are_kept_in_the_process_while_the_shared_cache_holds_them(monkeypatch):
    """selectors.ranking.rows: computed once per version; read back without unpickling in the
    same process; computed again once the shared cache lost them (cleared, evicted) or the
    version moved on."""
    from tournament.selectors import ranking as ranking_selectors

    tournament = field_in_play(6)
    unpickled: list[str] = []
    real_get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a, **k: unpickled.append(key) or real_get(key, *a, **k))
    with CaptureQueriesContext(connection) as computed:
        first = ranking_selectors.rows(tournament)
    with CaptureQueriesContext(connection) as kept:
        again = ranking_selectors.rows(tournament)
    assert len(computed) > 0 and len(kept) == 0
    assert again == first and again is not first  # the same rows, a list of its own
    assert len([key for key in unpickled if key.startswith(ranking_selectors.KEY_PREFIX)]) == 1  # only the first read
    cache.clear()  # another process's Redis restart, an eviction: the rows are computed again
    with CaptureQueriesContext(connection) as recomputed:
        assert ranking_selectors.rows(tournament) == first
    assert len(recomputed) == len(computed)
    play_one_table(tournament)  # a new version: its rows are computed, not taken from the process
    tournament.refresh_from_db()
    with CaptureQueriesContext(connection) as next_version:
        ranking_selectors.rows(tournament)
    assert len(next_version) == len(computed)
