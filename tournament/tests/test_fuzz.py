"""Hostile input against every page and every POST endpoint: never a 5xx, and a refusal changes nothing.

The endpoints are not listed by hand: every URL pattern of the site is taken
from the resolver, and the fields each one accepts are read from the forms and
htmx attributes of the pages a user sees (``discover_forms``), so a new form or
endpoint is fuzzed without touching this file. Each example is one request:

- an endpoint (POST or GET) of a tournament of each format in play
  (``scenarios``), of a tournament in registration, or of the public pages;
- its URL ids drawn from the tournament's own objects, another tournament's,
  0 and numbers past every integer column;
- its fields: a subset of the form's, with values drawn from what the form
  offers (so deeper code runs) and from hostile values (NUL bytes, huge and
  negative numbers, far dates, foreign ids, byte-order marks, very long
  strings, markup, spreadsheet formulas), plus parameter names no form has;
- sent as a plain form post or as htmx.

It asserts: no status >= 500; and an answer >= 400 (a refusal) leaves every row
of the play, desk and account tables as it was (refusals may add their own
audit entry, which is left out). Hypothesis shrinks a failure to one request.

``FUZZ_EXAMPLES`` (default 200 per test) sets how hard to try; the run is
derandomised so CI is repeatable, a local ``FUZZ_RANDOM=1`` explores anew.
"""

from __future__ import annotations

import functools
import html.parser
import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament import enums
from tournament.models import AuditEntry, Club, Person, Player, Seat, Table, Tournament
from tournament.passes import services as pass_services
from tournament.tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    Scenario,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
)
from tournament.writes import REFUSED

pytestmark = [pytest.mark.django_db]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Numbers at and past the edges of PostgreSQL's integer columns (smallint, integer, bigint).
EDGE_NUMBERS = [0, -1, 1, 32767, 32768, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 10**30, -(2**63) - 1]
HOSTILE_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ufeff",
    "\ud7ff\ue000",
    "x" * 10_000,
    "ä" * 500,
    "<script>alert(1)</script>",
    "\"'><img src=x onerror=alert(1)>",
    "=1+1",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "' OR 1=1 --",
    "%00",
    "../../etc/passwd",
    "１２",  # full-width digits: int() reads them
    " 12 ",
    "1e9",
    "NaN",
    "-0",
    "0x10",
    "true",
    "[]",
    "{}",
    "null",
    "0001-01-01",
    "0001-01-01T00:00",
    "9999-12-31T23:59",
    "10000-01-01T00:00",
    "2026-02-30",
    "2026-11-21T25:61",
    "\r\n",
    "\t",
    "🎲" * 50,
    "Ω" * 121,
]
EXTRA_NAMES = ["q", "key", "version", "page", "confirm", "override", "next", "lang", "action", "done", "returned"]


# --------------------------------------------------------------------------
# What the pages offer: forms and htmx posts
# --------------------------------------------------------------------------


@dataclass
class Endpoint:
    """A place a request goes: a path, its method, and the fields a page's form sends there."""

    path: str
    method: str
    fields: dict[str, list[str]] = field(default_factory=dict)  # name -> values offered


class FormParser(html.parser.HTMLParser):
    """Collects the forms (action, method, named fields with their offered values) and htmx posts of a page."""

    def __init__(self, page_path: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.found: list[Endpoint] = []
        self.form: Endpoint | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: value or "" for name, value in attrs}
        for verb in ("hx-post", "hx-get"):
            if attr.get(verb):
                vals = _json_object(attr.get("hx-vals", ""))
                endpoint = Endpoint(attr[verb], verb.removeprefix("hx-"), {k: [str(v)] for k, v in vals.items()})
                self.found.append(endpoint)
        if tag == "form":
            method = (attr.get("method") or "get").lower()
            self.form = Endpoint(attr.get("action") or self.page_path, method)
            self.found.append(self.form)
            return
        if self.form is None:
            return
        name = attr.get("name")
        if tag in {"input", "button", "textarea"} and name:
            self.form.fields.setdefault(name, []).append(attr.get("value", ""))
        elif tag == "select" and name:
            self.select = name
            self.form.fields.setdefault(name, [])
        elif tag == "option" and self.select:
            self.form.fields[self.select].append(attr.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def url_patterns() -> Iterator[tuple[str, URLPattern]]:
    """(name, pattern) of every named URL of the tournament app, the formats' own included."""
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "tournament":
            for pattern in entry.url_patterns:
                if isinstance(pattern, URLPattern) and pattern.name:
                    yield pattern.name, pattern


@dataclass
class Target:
    """A tournament to fuzz and the ids its URLs may carry."""

    tournament: Tournament
    ids: dict[str, list[int]]  # URL parameter -> this tournament's ids
    foreign: dict[str, list[int]]  # URL parameter -> another tournament's ids

    def paths(self) -> list[str]:
        """Every URL of the app for this tournament, with its own ids (one path per pattern)."""
        out = []
        for name, pattern in url_patterns():
            params = list(pattern.pattern.converters)
            if "tournament_id" not in params:
                continue
            kwargs = {p: (self.ids.get(p) or [1])[0] for p in params if p != "tournament_id"}
            out.append(reverse(f"tournament:{name}", kwargs={"tournament_id": self.tournament.pk, **kwargs}))
        return out


def public_kwargs(pattern: URLPattern, tournament: Tournament) -> dict[str, object]:
    """The URL arguments of a public page: the tournament's public key (or its id for the old addresses)."""
    values = {"tournament_id": tournament.pk, "public_key": getattr(tournament, "public_key", None)}
    return {name: values[name] for name in pattern.pattern.converters}


def ids_of(tournament: Tournament) -> dict[str, list[int]]:
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("pk").values_list("pk", flat=True))
    return {
        "player_id": list(Player.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)),
        "table_id": tables,
        "item_id": list(tournament.checklist_items.order_by("pk").values_list("pk", flat=True)),
        "staff_id": list(tournament.staff.order_by("pk").values_list("pk", flat=True)),
        "round_number": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
    }


def add_forms(endpoints: dict[tuple[str, str], Endpoint], path: str, page: str) -> None:
    """Add the forms (and htmx posts) ``page``, answered at ``path``, offers to ``endpoints``: each
    by its action and method, with every value its fields offer."""
    parser = FormParser(path)
    parser.feed(page)
    for found in parser.found:
        found.path = urlsplit(found.path).path or path
        known = endpoints.setdefault((found.path, found.method), Endpoint(found.path, found.method))
        for name, values in found.fields.items():
            known.fields.setdefault(name, []).extend(values)


def discover_forms(client: Client, target: Target) -> list[Endpoint]:
    """Every form and htmx request the tournament's pages offer, and every URL of the app by the method it takes.

    A URL whose GET answers 405 takes POST; one whose GET answers a page is fuzzed with GET and its forms'
    fields; form actions and htmx posts bring the fields they send."""
    endpoints: dict[tuple[str, str], Endpoint] = {}
    for path in target.paths():
        response = client.get(path)
        if response.status_code == 405:
            endpoints.setdefault((path, "post"), Endpoint(path, "post"))
            continue
        if response.status_code != 200:
            continue
        endpoints.setdefault((path, "get"), Endpoint(path, "get"))
        if "html" not in response.get("Content-Type", ""):
            continue
        add_forms(endpoints, path, response.content.decode())
    return list(endpoints.values())


# --------------------------------------------------------------------------
# Hostile values
# --------------------------------------------------------------------------


def hostile_value(offered: list[str], ids: list[int]) -> st.SearchStrategy[str]:
    choices = [st.sampled_from(HOSTILE_TEXT), st.sampled_from([str(n) for n in EDGE_NUMBERS])]
    if offered:
        choices += [st.sampled_from(offered)] * 3  # mostly what the form offers, to get past the first check
    if ids:
        choices.append(st.sampled_from([str(i) for i in ids]))
    choices.append(st.text(st.characters(exclude_categories=("Cs",)), max_size=40))
    return st.one_of(*choices)


def swap_ids(path: str, target: Target, other: Target) -> st.SearchStrategy[str]:
    """The path as it is, or with one of its ids (a player, table, item, round; not the tournament's)
    replaced by another tournament's id, 0 or a number past every integer column."""
    parts = path.split("/")
    # ["", "t", "<tournament>", ...]: ids after the tournament's own.
    positions = [index for index, part in enumerate(parts) if part.isdigit() and index > 2]
    if not positions:
        return st.just(path)
    foreign = [i for values in other.ids.values() for i in values][:20]
    replacement = st.sampled_from([*(str(i) for i in foreign), "0", str(2**31), str(2**63), str(10**30)])

    def swapped(choice: tuple[int, str]) -> str:
        index, new = choice
        return "/".join(new if at == index else part for at, part in enumerate(parts))

    return st.one_of(st.just(path), st.tuples(st.sampled_from(positions), replacement).map(swapped))


@st.composite
def requests(draw: st.DrawFn, endpoints: list[Endpoint], target: Target, other: Target) -> tuple[str, str, dict, bool]:
    # Posts with fields are where the writes are: drawn three times as often.
    weighted = [e for e in endpoints for _ in range(3 if e.method == "post" and e.fields else 1)]
    endpoint = draw(st.sampled_from(weighted))
    path = draw(swap_ids(endpoint.path, target, other))
    all_ids = [i for values in (target.ids | {"x": []}).values() for i in values] + [
        i for values in other.ids.values() for i in values
    ]
    names = sorted(endpoint.fields)
    chosen = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    extra = draw(
        st.lists(
            st.one_of(
                st.sampled_from(EXTRA_NAMES),
                st.sampled_from(all_ids or [1]).map(lambda i: f"points_{i}"),
                st.sampled_from(all_ids or [1]).map(lambda i: f"hand_{i}_wild_draw_four"),
                st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=12),
            ),
            max_size=3,
        )
    )
    data = {}
    for name in [*chosen, *extra]:
        data[name] = draw(hostile_value(endpoint.fields.get(name, []), all_ids))
    htmx = draw(st.booleans())
    return endpoint.method, path, data, htmx


# --------------------------------------------------------------------------
# What a refusal must leave as it was
# --------------------------------------------------------------------------

SNAPSHOT_APPS = ("tournament", "games", "auth")


def snapshot_querysets() -> dict[str, Any]:
    """Every row of the app's and the accounts' tables that a refusal must leave as it was (refusal
    audit entries left out; a user's last login is not a write of the request under test)."""
    querysets: dict[str, Any] = {}
    for model in apps.get_models():
        if model._meta.app_label not in SNAPSHOT_APPS:
            continue
        qs = model.objects.all()
        if model is AuditEntry:
            qs = qs.exclude(action=REFUSED)
        if model._meta.model_name == "user":
            querysets[model._meta.label] = qs.values_list("pk", "username", "password", "is_active")
            continue
        querysets[model._meta.label] = qs.values_list()
    return querysets


def everything() -> dict[str, Any]:
    """A fingerprint of every table ``snapshot_querysets`` names: equal before and after a request
    exactly when none of their rows changed.

    On PostgreSQL one query answers for all tables, each as the md5 of its rows' text in sorted
    order: reading every row into Python (and compiling each table's query) before and after
    each of the fuzz run's requests was nine tenths of its time. Elsewhere (SQLite), the rows
    themselves, sorted by key."""
    if connection.vendor != "postgresql":
        return {label: list(qs.order_by("pk")) for label, qs in snapshot_querysets().items()}
    labels, sql, params = _fingerprint_query()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return dict(zip(labels, row, strict=True))


@functools.cache
def _fingerprint_query() -> tuple[tuple[str, ...], str, tuple[Any, ...]]:
    """The labels and the one query of ``everything`` (compiled once: the tables do not change)."""
    selects: list[str] = []
    params: list[Any] = []
    querysets = snapshot_querysets()
    for qs in querysets.values():
        sql, qs_params = qs.order_by().query.sql_with_params()
        selects.append(f"(SELECT md5(coalesce(string_agg(s::text, '|' ORDER BY s::text), '')) FROM ({sql}) s)")
        params.extend(qs_params)
    return tuple(querysets), "SELECT " + ", ".join(selects), tuple(params)


def test_the_fingerprint_sees_every_write_a_refusal_must_not_make() -> None:
    """``everything`` changes with a new row, a changed field, a deleted row and a kept audit entry,
    and stays equal for a refusal's own audit entry and a login (what ``check`` allows)."""
    player = PlayerFactory(name="Fingerprint")
    user = UserFactory(username="fingerprint-user")
    before = everything()
    assert everything() == before
    AuditEntry.objects.create(tournament=player.tournament, action=REFUSED)
    type(user).objects.filter(pk=user.pk).update(last_login="2026-11-27T12:00:00Z")
    assert everything() == before
    for write in (
        lambda: Player.objects.filter(pk=player.pk).update(name="Fingerprint 2"),
        lambda: PlayerFactory(tournament=player.tournament),
        lambda: AuditEntry.objects.create(tournament=player.tournament, action="player_added"),
        lambda: type(user).objects.filter(pk=user.pk).update(is_active=False),
        lambda: Player.objects.filter(pk=player.pk).delete(),
    ):
        write()
        after = everything()
        assert after != before
        before = after


def send(client: Client, method: str, path: str, data: dict[str, str], htmx: bool) -> int:
    headers = {"HX-Request": "true"} if htmx else {}
    return (client.get if method == "get" else client.post)(path, data, headers=headers).status_code


STATS: dict[tuple[str, int], int] = {}


def check(client: Client, request: tuple[str, str, dict, bool]) -> None:
    method, path, data, htmx = request
    before = everything()
    status = send(client, method, path, data, htmx)
    if os.environ.get("FUZZ_STATS"):
        key = (method + " " + "/".join(part if not part.isdigit() else "N" for part in path.split("/")), status)
        STATS[key] = STATS.get(key, 0) + 1
        print(key, status, sorted(data)[:6])
    assert status < 500, f"{status} from {method.upper()} {path} {data!r} htmx={htmx}"
    if status >= 400:
        after = everything()
        changed = sorted(label for label in before if after[label] != before[label])
        assert not changed, f"refused with {status} but changed {changed}: {method.upper()} {path} {data!r}"


# --------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------


@pytest.fixture(scope="module", name="registration")
def registration_fixture(built, django_db_blocker) -> Tournament:  # type: ignore[no-untyped-def]
    """A tournament at the desk: registered, checked-in and waiting players, a checklist, a window; its
    club's register (issue 33) holds its players' people, an earlier event and an empty next one."""
    with django_db_blocker.unblock():
        club = Club.objects.create(name="Fuzz club")
        tournament = TournamentFactory(name="Fuzz open", capacity=6, club=club)
        for number, status in enumerate(
            [enums.PlayerStatus.REGISTERED] * 4 + [enums.PlayerStatus.CHECKED_IN] * 2 + [enums.PlayerStatus.WAITING]
        ):
            person = Person.objects.create(club=club, name=f"Fuzz {number}")
            PlayerFactory(tournament=tournament, name=f"Fuzz {number}", status=status, person=person)
        TournamentFactory(name="Fuzz next", club=club)
    return tournament


@pytest.fixture(name="superuser_client")
def superuser_client_fixture(client: Client) -> Client:
    user = UserFactory(username="fuzz-admin", is_superuser=True, is_staff=True)
    user.save()  # the factory sets the password after saving: keep the session's hash valid
    client.force_login(user)
    return client


def targets(built: dict[str, Scenario], registration: Tournament) -> dict[str, Target]:
    out = {}
    for name, tournament in [*((fmt, s.tournament) for fmt, s in built.items()), ("registration", registration)]:
        out[name] = Target(tournament, ids_of(tournament), {})
    return out


@pytest.mark.parametrize("which", [*FORMATS, "registration"])
def test_staff_endpoints_never_answer_5xx_and_refusals_change_nothing(
    superuser_client: Client, built: dict[str, Scenario], registration: Tournament, which: str
) -> None:
    """Every staff page and POST endpoint of the tournament, as an organiser (superuser: every role)."""
    by_name = targets(built, registration)
    target = by_name[which]
    other = next(t for name, t in by_name.items() if name != which)
    endpoints = discover_forms(superuser_client, target)
    assert len(endpoints) > 30, [e.path for e in endpoints]  # the resolver and the forms were found
    assert any(e.fields for e in endpoints if e.method == "post")

    @FUZZ_SETTINGS
    @given(request=requests(endpoints, target, other))
    def run(request: tuple[str, str, dict, bool]) -> None:
        check(superuser_client, request)

    run()


SITE_PAGES = ["/", "/t/new/"]


def test_site_forms_never_answer_5xx(superuser_client: Client, client_handler, built: dict[str, Scenario]) -> None:  # type: ignore[no-untyped-def]
    """The forms outside a tournament: creating one, the language switch, and the logins (as a stranger)."""
    endpoints: dict[tuple[str, str], Endpoint] = {}
    for path in SITE_PAGES:
        response = superuser_client.get(path)
        assert response.status_code == 200, path
        add_forms(endpoints, path, response.content.decode())
    # Not the log-out button: the rest of the run is meant to be logged in.
    posts = [e for e in endpoints.values() if e.method == "post" and e.path != "/accounts/logout/"]
    assert {"/t/new/", "/i18n/setlang/"} <= {e.path for e in posts}
    for login in ("/accounts/login/", "/admin/login/"):
        posts.append(Endpoint(login, "post", {"username": ["fuzz-admin", "nobody"], "password": ["wrong"]}))
    stranger = Client()
    stranger.handler = client_handler
    no_ids = Target(built[FORMATS[0]].tournament, {}, {})

    @FUZZ_SETTINGS
    @given(request=requests(posts, no_ids, no_ids), anonymous=st.booleans())
    def run(request: tuple[str, str, dict, bool], anonymous: bool) -> None:
        check(stranger if anonymous or "login" in request[1] else superuser_client, request)

    run()


def test_the_club_register_pages_never_answer_5xx_and_refusals_change_nothing(
    superuser_client: Client, registration: Tournament
) -> None:
    """The club's register (issue 33): its page, "Merge into…", the name, the CSV, with their forms'
    fields and hostile values, ids of its people, of nobody and past every column."""
    club = registration.club
    assert club is not None
    people = list(Person.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    pages = [
        reverse("tournament:club_register", args=[club.pk]),
        reverse("tournament:club_register_csv", args=[club.pk]),
        *(reverse("tournament:merge_person", args=[club.pk, pk]) for pk in people[:2]),
    ]
    endpoints: dict[tuple[str, str], Endpoint] = {}
    for path in pages:
        endpoints[(path, "get")] = Endpoint(path, "get", {"q": ["Fuzz"], "page": ["1", "2"]})
        response = superuser_client.get(path, {"q": "Fuzz"})  # (a merge page then offers people to keep)
        assert response.status_code == 200, path
        if "html" not in response.get("Content-Type", ""):
            continue
        add_forms(endpoints, path, response.content.decode())
    assert {"keep", "name"} <= {name for e in endpoints.values() if e.method == "post" for name in e.fields}
    # ["", "clubs", "<club>", ...]: the person's id in a merge path is swapped like a tournament's ids.
    target = Target(registration, {"person_id": people}, {})
    other = Target(registration, {"x": [10**9]}, {})

    @FUZZ_SETTINGS
    @given(request=requests(list(endpoints.values()), target, other))
    def run(request: tuple[str, str, dict, bool]) -> None:
        check(superuser_client, request)

    run()


PUBLIC_QUERIES = st.dictionaries(
    st.sampled_from(["q", "lang", "view", "page", "round"]),
    st.one_of(st.sampled_from(HOSTILE_TEXT), st.sampled_from([str(n) for n in EDGE_NUMBERS])),
    max_size=3,
)


@pytest.mark.parametrize("which", FORMATS)
def test_public_pages_never_answer_5xx(client: Client, built: dict[str, Scenario], which: str) -> None:
    """The no-login pages (projector, its poll, the phone page, the JSON) with hostile queries and ids."""
    tournament = built[which].tournament
    public = [
        reverse(f"tournament:{name}", kwargs=public_kwargs(pattern, tournament))
        for name, pattern in url_patterns()
        if str(pattern.pattern).startswith("p/")
    ]
    assert len(public) >= 4
    # The same pages for a tournament that does not exist (a wrong key, an id past every column).
    key = getattr(tournament, "public_key", str(tournament.pk))
    paths = public + [p.replace(f"/{key}/", "/AAAAAAAAAAAAAAAAAAAAAA/") for p in public]
    paths += [p.replace(f"/{key}/", f"/{2**63}/") for p in public] + [f"/p/{tournament.pk}/"]

    @FUZZ_SETTINGS
    @given(path=st.sampled_from(paths), query=PUBLIC_QUERIES, htmx=st.booleans())
    def run(path: str, query: dict[str, str], htmx: bool) -> None:
        check(client, ("get", path, query, htmx))

    run()


def test_the_forms_were_discovered(
    superuser_client: Client, built: dict[str, Scenario], registration: Tournament
) -> None:
    """The fuzzer reaches the forms people use (a guard against the discovery silently finding nothing)."""
    target = targets(built, registration)["registration"]
    posts = {e.path: e.fields for e in discover_forms(superuser_client, target) if e.method == "post" and e.fields}
    t = registration.pk
    assert {"name", "club", "contact"} <= set(posts[reverse("tournament:register", args=[t])])
    assert "opens_at" in posts[reverse("tournament:add_window", args=[t])]
    assert any(path.endswith("/check-in/") for path in posts)
    assert len(list(itertools.islice(posts, 10))) == 10


@pytest.mark.parametrize("which", FORMATS)
def test_the_player_pass_never_answers_5xx_and_refusals_change_nothing(
    client: Client, built: dict[str, Scenario], which: str
) -> None:
    """The player's pass (no login, the token is the key): its page and "I'm at my table", with a
    live pass, a replaced one and hostile tokens, hostile tables (another table's, foreign ids) and
    hostile queries, plain or htmx. Failed look-ups may run into the limit: a 429 is a refusal too."""
    scenario = built[which]
    seat = Seat.objects.filter(table=scenario.playing).select_related("player").first()
    assert seat is not None
    _old, replaced = pass_services.issue_pass(tournament=scenario.tournament, actor=None, player_id=seat.player_id)
    _live, live = pass_services.issue_pass(tournament=scenario.tournament, actor=None, player_id=seat.player_id)
    tokens = [live, replaced, "A" * 43, "x", "%00", "ä" * 43, live[:-1], live + "A"]
    tables = [
        str(pk) for pk in Table.objects.filter(round__tournament=scenario.tournament).values_list("pk", flat=True)
    ]

    @FUZZ_SETTINGS
    @given(
        token=st.sampled_from(tokens),
        post=st.booleans(),
        table=st.one_of(
            st.sampled_from(tables), st.sampled_from(HOSTILE_TEXT), st.sampled_from([str(n) for n in EDGE_NUMBERS])
        ),
        query=PUBLIC_QUERIES,
        htmx=st.booleans(),
    )
    def run(token: str, post: bool, table: str, query: dict[str, str], htmx: bool) -> None:
        if post:
            check(client, ("post", f"/pass/{token}/seated/", {"table": table, **query}, htmx))
            # Self check-in (issue 32, item 3): "I'm here" with hostile items (the player is in play:
            # refused or already checked in, never a 500).
            check(client, ("post", f"/pass/{token}/here/", {"item": table, **query}, htmx))
        else:
            check(client, ("get", f"/pass/{token}/", query, htmx))
            check(client, ("get", f"/pass/{token}/table/", query, htmx))

    run()


PASS_TABLE_WRITES = ["game", "dealer", "confirm", "reject", "call"]


@pytest.mark.parametrize("which", FORMATS)
def test_the_players_table_entry_never_answers_5xx_and_refusals_change_nothing(
    client: Client, built: dict[str, Scenario], which: str
) -> None:
    """Players record their own table (issue 32, item 4): the phone's writes (a game, the first
    dealer, Confirm, Not right, Call a referee) with a live, a replaced and hostile tokens, the
    player's own table, another table and ids that are no table, hostile fields, plain or htmx. Only
    the live pass at its own table may write; it is checked to write nothing but what it says."""
    scenario = built[which]
    scenario.tournament.table_entry = enums.TableEntry.BOTH
    scenario.tournament.save(update_fields=["table_entry"])
    seat = Seat.objects.filter(table=scenario.playing).select_related("player").first()
    assert seat is not None
    _old, replaced = pass_services.issue_pass(tournament=scenario.tournament, actor=None, player_id=seat.player_id)
    _live, live = pass_services.issue_pass(tournament=scenario.tournament, actor=None, player_id=seat.player_id)
    tokens = [replaced, "A" * 43, "x", live[:-1], live]
    tables = [
        str(pk) for pk in Table.objects.filter(round__tournament=scenario.tournament).values_list("pk", flat=True)
    ]
    hostile = st.one_of(st.sampled_from(HOSTILE_TEXT), st.sampled_from([str(n) for n in EDGE_NUMBERS]))
    field_names = st.sampled_from(["winner", "loser", "version", "key", "game", "reason", "player", "points_1"])

    @FUZZ_SETTINGS
    @given(
        token=st.sampled_from(tokens),
        write=st.sampled_from(PASS_TABLE_WRITES),
        table=st.one_of(st.sampled_from(tables), st.sampled_from(["0", "99999999"])),
        data=st.dictionaries(field_names, hostile, max_size=4),
        htmx=st.booleans(),
    )
    def run(token: str, write: str, table: str, data: dict[str, str], htmx: bool) -> None:
        check(client, ("post", f"/pass/{token}/table/{table}/{write}/", data, htmx))

    run()


@pytest.mark.parametrize("which", FORMATS)
def test_the_sign_up_and_the_pass_withdrawal_never_answer_5xx_and_refusals_change_nothing(
    client: Client, built: dict[str, Scenario], which: str
) -> None:
    """Sign-up before the day (issue 32, item 2): the public sign-up page (its form with hostile
    names, clubs, contacts and rules ticks; sign-up allowed or not, the tournament in play or still
    registering) and "Withdraw from the tournament" with live, replaced and hostile tokens and
    hostile confirmations. A refused post (422, 409, 404, 410, 429) changes nothing."""
    scenario = built[which]
    registering = TournamentFactory(name=f"Fuzz sign-up {which}", capacity=4, online_signup=True)
    Tournament.objects.filter(pk=scenario.tournament.pk).update(online_signup=True)
    player = PlayerFactory(tournament=registering, name=f"Fuzz signed {which}")
    _old, replaced = pass_services.issue_pass(tournament=registering, actor=None, player_id=player.pk)
    _live, live = pass_services.issue_pass(tournament=registering, actor=None, player_id=player.pk)
    keys = [registering.public_key, scenario.tournament.public_key]
    tokens = [live, replaced, "A" * 43, "x", "%00", live[:-1]]
    field = st.one_of(
        st.sampled_from(HOSTILE_TEXT), st.sampled_from(["Fuzz Anna", "UNO Club", "a@b.org", "+43 1234567"])
    )

    @FUZZ_SETTINGS
    @given(
        key=st.sampled_from(keys),
        token=st.sampled_from(tokens),
        sign_up=st.booleans(),
        name=field,
        club=field,
        contact=field,
        accepted=st.sampled_from(["on", "", "0", "\x00", "1" * 300]),
        confirm=st.sampled_from(["1", "0", "", "yes", "\x00"]),
        htmx=st.booleans(),
    )
    def run(
        key: str, token: str, sign_up: bool, name: str, club: str, contact: str, accepted: str, confirm: str, htmx: bool
    ) -> None:
        if sign_up:
            data = {"name": name, "club": club, "contact": contact, "rules_accepted": accepted}
            check(client, ("post", f"/p/{key}/sign-up/", data, htmx))
        else:
            check(client, ("post", f"/pass/{token}/withdraw/", {"confirm": confirm}, htmx))

    run()


# --------------------------------------------------------------------------
# The club's register, part two (issue 33): "Edit" a person, the organisers' forms, "Not the same
# person", and the public sign-up with a picked suggestion and its suggestions as typed
# --------------------------------------------------------------------------


def test_the_register_edits_never_answer_5xx_and_refusals_change_nothing(
    superuser_client: Client, registration: Tournament
) -> None:
    """ "Edit" with its fields' hostile values, ids of the club's people, of nobody and past every
    column; the organisers' forms and "Not the same person" found on the register page."""
    club = registration.club
    assert club is not None
    people = list(Person.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    Person.objects.filter(pk=people[1]).update(maybe_same_as=people[0])  # a possible duplicate to settle
    club.organisers.add(UserFactory(username="fuzz-organiser-a"), UserFactory(username="fuzz-organiser-b"))
    pages = [
        reverse("tournament:club_register", args=[club.pk]),
        *(reverse("tournament:edit_person", args=[club.pk, pk]) for pk in people[:2]),
    ]
    endpoints: dict[tuple[str, str], Endpoint] = {}
    for path in pages:
        response = superuser_client.get(path)
        assert response.status_code == 200, path
        add_forms(endpoints, path, response.content.decode())
    posted = {name for e in endpoints.values() if e.method == "post" for name in e.fields}
    assert {"member_number", "email", "phone", "username", "user"} <= posted
    target = Target(registration, {"person_id": people}, {})
    other = Target(registration, {"x": [10**9]}, {})

    @FUZZ_SETTINGS
    @given(request=requests(list(endpoints.values()), target, other))
    def run(request: tuple[str, str, dict, bool]) -> None:
        check(superuser_client, request)

    run()


def test_the_sign_up_suggestions_and_a_picked_suggestion_never_answer_5xx(client: Client) -> None:
    """The public suggestions with hostile names; the sign-up with hostile ``suggested`` numbers."""
    club = Club.objects.create(name="Fuzz suggestions")
    regular = Person.objects.create(club=club, name="Fuzz Regular", team="UNO Club", email="r@b.org")
    finished = TournamentFactory(name="Fuzz old", club=club, status=enums.TournamentStatus.FINISHED)
    PlayerFactory(tournament=finished, person=regular, status=enums.PlayerStatus.CHECKED_IN)
    tonight = TournamentFactory(name="Fuzz tonight", capacity=50, club=club, online_signup=True)
    numbers = [str(regular.pk), *(str(n) for n in EDGE_NUMBERS), "abc", "\x00", ""]

    @FUZZ_SETTINGS
    @given(
        name=st.one_of(st.sampled_from(HOSTILE_TEXT), st.sampled_from(["Fuzz Regular", "Fuz Regulr", "UNO"])),
        suggested=st.sampled_from(numbers),
        contact=st.sampled_from(["r@b.org", "x@b.org", "+43 1234567", *HOSTILE_TEXT[:3]]),
        post=st.booleans(),
        htmx=st.booleans(),
    )
    def run(name: str, suggested: str, contact: str, post: bool, htmx: bool) -> None:
        if post:
            data = {"name": name, "club": "UNO Club", "contact": contact, "rules_accepted": "on"}
            data["suggested"] = suggested
            check(client, ("post", f"/p/{tonight.public_key}/sign-up/", data, htmx))
        else:
            check(client, ("get", f"/p/{tonight.public_key}/sign-up/suggest/", {"name": name}, htmx))

    run()


# --------------------------------------------------------------------------
# The club's season (issue 33): the series pages and their forms, a person's history, the public
# series page, its projector screen and "my season" through the pass
# --------------------------------------------------------------------------


def _season_endpoints(client: Client, pages: list[str]) -> dict[tuple[str, str], Endpoint]:
    """Each page as a GET with hostile queries, and the forms it shows with every field's values."""
    endpoints: dict[tuple[str, str], Endpoint] = {}
    for path in pages:
        endpoints[(path, "get")] = Endpoint(path, "get", {"page": ["1", "2"], "part": ["1"]})
        response = client.get(path)
        assert response.status_code == 200, path
        if "html" not in response.get("Content-Type", ""):
            continue
        add_forms(endpoints, path, response.content.decode())
    return endpoints


def test_the_season_pages_never_answer_5xx_and_refusals_change_nothing(
    superuser_client: Client, registration: Tournament
) -> None:
    """A new series and its settings (``SeriesForm``: the name, the points per place and the own
    table, best N, the minimum, the tie-breaks, the tournaments) with their fields' values and
    hostile ones; the standings, CSV, print and a person's history with ids of its series and
    people, of nobody and past every column."""
    from tournament.models import Series, SeriesEvent

    club = registration.club
    assert club is not None
    series = Series.objects.create(club=club, name="Fuzz league")
    SeriesEvent.objects.create(series=series, tournament=registration)
    people = list(Person.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    pages = [
        reverse("tournament:series_list", args=[club.pk]),
        reverse("tournament:series_create", args=[club.pk]),
        *(reverse(f"tournament:{name}", args=[club.pk, series.pk]) for name in ("series", "series_edit")),
        *(reverse(f"tournament:{name}", args=[club.pk, series.pk]) for name in ("series_csv", "series_print")),
        reverse("tournament:person_history", args=[club.pk, people[0]]),
    ]
    endpoints = _season_endpoints(superuser_client, pages)
    posted = {name for e in endpoints.values() if e.method == "post" for name in e.fields}
    assert {"name", "points_preset", "points_table", "best_n", "minimum_events", "tie_break_1"} <= posted
    assert (reverse("tournament:series_edit", args=[club.pk, series.pk]), "post") in endpoints
    target = Target(registration, {"person_id": people, "series_id": [series.pk]}, {})
    other = Target(registration, {"x": [10**9]}, {})

    @FUZZ_SETTINGS
    @given(request=requests(list(endpoints.values()), target, other))
    def run(request: tuple[str, str, dict, bool]) -> None:
        check(superuser_client, request)

    run()


def test_the_public_season_pages_never_answer_5xx(client: Client, registration: Tournament) -> None:
    """The public series page, its projector screen (and their polls) and "my season" through the
    pass, with hostile queries, wrong keys and hostile tokens."""
    from tournament.models import Series

    club = registration.club
    assert club is not None
    series = Series.objects.create(club=club, name="Fuzz public league")
    player = registration.players.filter(person__isnull=False).first()
    assert player is not None
    _old, replaced = pass_services.issue_pass(tournament=registration, actor=None, player_id=player.pk)
    _live, live = pass_services.issue_pass(tournament=registration, actor=None, player_id=player.pk)
    keys = [series.public_key, "AAAAAAAAAAAAAAAAAAAAAA", "x", str(2**63)]
    paths = [f"/s/{key}/" for key in keys] + [f"/s/{key}/screen/" for key in keys]
    paths += [f"/pass/{token}/season/" for token in (live, replaced, "A" * 43, "%00", live[:-1])]

    @FUZZ_SETTINGS
    @given(path=st.sampled_from(paths), query=PUBLIC_QUERIES, htmx=st.booleans())
    def run(path: str, query: dict[str, str], htmx: bool) -> None:
        check(client, ("get", path, {**query, "part": query.get("page", "")}, htmx))

    run()
