"""Each role sees only what it may do: every same-site link on the pages a role reaches answers
without "not allowed" (403), and every form it is shown posts to a view its role may use.

For each format's scenario (a tournament in play: tables playing and decided, the life-bands
pool waiting) and each role (organiser, desk, referee, and the public without a login), the
pages are crawled from the role's start page, following every same-site link (``href``,
``hx-get``) breadth first; a form's action is not posted (it would change the tournament) but
its view's role (``permissions.tournament_role``) is checked against the user's.
"""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.urls import Resolver404, resolve, reverse

from tournament import enums
from tournament.permissions import ALLOWED
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
)

pytestmark = [pytest.mark.django_db]

# Pages a crawl reads at most (a scenario's site has some 40 pages per role).
MAX_PAGES = 120
# Not pages: the login flow, the language switch, static files and the service worker.
SKIP_PREFIXES = ("/static/", "/accounts/", "/i18n/", "/sw.js", "/admin/")


class Links(HTMLParser):
    """The same-site links (``href``, ``hx-get``) and the forms' (action, method) of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("href", "hx-get"):
            if tag in ("a", "button", "div", "form", "section", "span", "tr", "li") and values.get(name):
                self.links.append(str(values[name]))
        if tag == "form":
            method = (values.get("method") or "get").lower()
            self.forms.append((str(values.get("action") or ""), method))
        for name in ("hx-post",):
            if values.get(name):
                self.forms.append((str(values[name]), "post"))


def same_site(base: str, link: str) -> str | None:
    """``link`` as a path with its query, or None when it leaves the site or is not a page."""
    if link.startswith(("#", "mailto:", "tel:", "javascript:", "data:")):
        return None
    parts = urlsplit(urljoin(f"http://testserver{base}", link))
    if parts.netloc not in ("testserver", "") or parts.path.startswith(SKIP_PREFIXES):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def crawl(client, start: list[str], roles: set[str]) -> tuple[dict[str, int], list[str]]:  # type: ignore[no-untyped-def]
    """Status of every page reached from ``start``, and the forms whose view the roles may not use."""
    seen: dict[str, int] = {}
    refused_forms: list[str] = []
    queue = deque(start)
    while queue and len(seen) < MAX_PAGES:
        path = queue.popleft()
        if path in seen:
            continue
        response = client.get(path)
        seen[path] = response.status_code
        if response.status_code in (301, 302):
            location = response["Location"]
            if urlsplit(location).path.startswith("/accounts/login"):
                seen[path] = 403  # sent to the login: not allowed to whoever follows the link
            target = same_site(path, location)
            if target and target not in seen:
                queue.append(target)
            continue
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        content = b"".join(response.streaming_content) if response.streaming else response.content
        page = Links()
        page.feed(content.decode())
        for link in page.links:
            target = same_site(path, link)
            if target and target not in seen:
                queue.append(target)
        for action, method in page.forms:
            target = same_site(path, action) if action else path
            if method != "post" or not target:
                continue
            try:
                view = resolve(urlsplit(target).path).func
            except Resolver404:
                refused_forms.append(f"{path} -> {target} (no such page)")
                continue
            required = getattr(view, "required_role", None)
            if required is not None and not roles & ALLOWED[required]:
                refused_forms.append(f"{path} -> {target} (needs {required})")
    return seen, refused_forms


ROLES = [enums.Role.ORGANISER, enums.Role.DESK, enums.Role.REFEREE]
START = {
    enums.Role.ORGANISER: "enter",
    enums.Role.DESK: "desk",
    enums.Role.REFEREE: "referee_tables",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("role", ROLES)
def test_no_link_or_button_a_role_sees_ends_in_not_allowed(client, built, staff_user, fmt, role) -> None:
    tournament = built[fmt].tournament
    client.force_login(staff_user(tournament, role))
    start = [reverse(f"tournament:{START[role]}", args=[tournament.pk]), reverse("tournament:home")]
    seen, refused_forms = crawl(client, start, {role})
    assert len(seen) > 5, seen
    refused = {path: status for path, status in seen.items() if status == 403}
    assert refused == {}, f"{role} is shown links that answer 403: {refused}"
    assert refused_forms == [], f"{role} is shown forms it may not post: {refused_forms}"
    assert all(status < 500 for status in seen.values()), seen


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_public_pages_link_to_nothing_behind_a_login(client, built, fmt) -> None:
    tournament = built[fmt].tournament
    start = [
        reverse("tournament:projector", args=[tournament.public_key]),
        reverse("tournament:find", args=[tournament.public_key]) + "?q=1",
    ]
    seen, refused_forms = crawl(client, start, set())
    assert all(status in (200, 301, 302) for status in seen.values()), seen
    assert refused_forms == []
