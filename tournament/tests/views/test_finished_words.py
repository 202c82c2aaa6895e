"""No "None" and no English on any page of a finished life-bands tournament, in German and Italian.

One small tournament (7 players, played to its end by ``life_bands.dry_run``) built once for
the module. Every page the organiser and a referee reach from their start page (rounds,
tables, corrections, ranking, log, settings, the print pack, the projector) is followed
link by link, with the players' phone pages and the CSV headers; in each, the visible text
and the attributes people read (title, aria-label, placeholder, alt) must hold no "None"
and no English catalogue string: a msgid of two or more words whose translation differs.
"""

from __future__ import annotations

import html
import re
from collections import deque
from urllib.parse import urljoin, urlsplit

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from tournament import enums, simulation
from tournament.formats.life_bands import dry_run
from tournament.models import Player, Tournament
from tournament.tests.views.crawling import crawl
from tournament.tests.views.scenarios import cheap_clients_fixture, client_handler_fixture  # noqa: F401

pytestmark = [pytest.mark.django_db]

LANGUAGES = ["de", "it"]
MAX_PAGES = 70
SKIP_PREFIXES = ("/static/", "/accounts/", "/i18n/", "/sw.js", "/admin/")
# Pages whose filter variants show the same words (the log per player, per table).
ONE_VARIANT = re.compile(r"^/t/\d+/log(\.csv)?/?\?")
READ_ATTRIBUTES = re.compile(r'\s(?:title|aria-label|placeholder|alt)="([^"]*)"')


@pytest.fixture(scope="module")
def finished(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """A 7-player life-bands tournament played to its end, rolled back after the module."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            tournament = simulation.create_field(fmt=enums.Format.LIFE_BANDS, players=7, seed=11)
            Tournament.objects.filter(pk=tournament.pk).update(name="Schocken 2026")
            tournament.refresh_from_db()
            dry_run.simulate(tournament, seed=11)
            tournament.refresh_from_db()
            assert tournament.status == enums.TournamentStatus.FINISHED
            yield tournament
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def english_strings(language: str) -> list[re.Pattern[str]]:
    """The catalogue's msgids of two or more words whose ``language`` translation differs
    (placeholders and markup left out: the words around them are checked where they stand alone)."""
    catalog = trans_real.translation(language)._catalog  # type: ignore[attr-defined]
    found = set()
    for key, translated in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not isinstance(msgid, str) or "%" in msgid or "<" in msgid or "{" in msgid or "\x04" in msgid:
            continue
        if len(msgid.split()) < 2 or translated == msgid:
            continue
        found.add(msgid)
    return [re.compile(r"(?<![\w-])" + re.escape(msgid) + r"(?![\w-])") for msgid in sorted(found)]


def readable(body: str) -> str:
    """The text a person reads on a page: the text outside tags and the read attributes."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    attributes = " · ".join(READ_ATTRIBUTES.findall(body))
    text = re.sub(r"<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(f"{text} · {attributes}"))


def pages(client, start: list[str], language: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Path -> readable text of every page reached from ``start`` (CSV: the header line)."""
    texts: dict[str, str] = {}
    queue = deque(start)
    seen: set[str] = set()
    variants: set[str] = set()
    while queue and len(texts) < MAX_PAGES:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        if ONE_VARIANT.match(path):
            kind = path.split("?")[0]
            if kind in variants:
                continue
            variants.add(kind)
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        if response.status_code in (301, 302):
            queue.append(urlsplit(response["Location"]).path)
            continue
        assert response.status_code == 200, (path, response.status_code)
        content = b"".join(response.streaming_content) if response.streaming else response.content
        kind = response.get("Content-Type", "")
        if "csv" in kind:
            texts[path] = content.decode("utf-8-sig").splitlines()[0]
            continue
        if "html" not in kind:
            continue
        body = content.decode()
        texts[path] = readable(body)
        for link in re.findall(r'(?:href|hx-get)="([^"#][^"]*)"', body):
            parts = urlsplit(urljoin(f"http://testserver{path}", html.unescape(link)))
            if parts.netloc in ("testserver", "") and not parts.path.startswith(SKIP_PREFIXES):
                target = parts.path + (f"?{parts.query}" if parts.query else "")
                if "lang=" not in target and target not in seen:
                    queue.append(target)
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_none_and_no_english_on_a_finished_life_bands_tournament(client, staff_user, finished, language) -> None:
    texts: dict[str, str] = {}
    for role, start in ((enums.Role.ORGANISER, "enter"), (enums.Role.REFEREE, "referee_tables")):
        client.force_login(staff_user(finished, role))
        texts.update(pages(client, [reverse(f"tournament:{start}", args=[finished.pk])], language))
        client.logout()
    public = [reverse("tournament:projector", args=[finished.public_key])]
    public += [
        reverse("tournament:find", args=[finished.public_key]) + f"?q={number}"
        for number in Player.objects.filter(tournament=finished).values_list("start_number", flat=True)
    ]
    texts.update(pages(client, public, language))
    assert len(texts) > 25, sorted(texts)
    with translation.override(language):
        english = english_strings(language)
    problems = []
    for path, text in texts.items():
        if re.search(r"\bNone\b", text):
            problems.append(f"{path}: None in …{text[max(text.index('None') - 80, 0) : text.index('None') + 40]}…")
        problems += [f"{path}: “{pattern.pattern}” untranslated" for pattern in english if pattern.search(text)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("role", [enums.Role.ORGANISER, enums.Role.DESK, enums.Role.REFEREE])
def test_no_link_a_role_sees_after_the_end_answers_403(client, staff_user, finished, role) -> None:
    """The same as ``test_links_by_role`` once the tournament is finished (corrections, the final ranking)."""
    client.force_login(staff_user(finished, role))
    start = {enums.Role.ORGANISER: "enter", enums.Role.DESK: "desk", enums.Role.REFEREE: "referee_tables"}[role]
    seen, refused_forms = crawl(client, [reverse(f"tournament:{start}", args=[finished.pk])], {role})
    assert {path: status for path, status in seen.items() if status == 403} == {}
    assert refused_forms == []
