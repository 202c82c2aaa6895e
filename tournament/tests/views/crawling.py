"""Following a role's links (``crawl``): the tests of what each role is shown (test_links_by_role,
test_finished_words) read every same-site page it reaches and check its forms' views."""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.urls import Resolver404, resolve

from tournament.permissions import ALLOWED

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
