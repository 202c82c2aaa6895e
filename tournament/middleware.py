"""Where a request came from, for the audit trail: the page, the device, the tablet.

``RequestOriginMiddleware`` keeps an ``Origin`` (method, path, a short device
description, the tablet's own id from the ``X-Device`` header, the client IP) in
a context variable for the duration of the request; ``tournament.writes.audit``
reads it with ``current_origin()`` and stores it on the audit entry. Outside a
request (management commands, tests calling services directly) there is none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse

# The audit entry's ``source`` and ``device`` columns hold at most this many characters.
FIELD_LENGTH = 200
# The tablet's id as the outbox sends it (letters, digits, dashes); anything else is ignored.
_DEVICE_ID = re.compile(r"[A-Za-z0-9-]{4,64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


@dataclass(frozen=True)
class Origin:
    """The request a write was made in."""

    method: str
    path: str
    device: str  # a short description of the user agent ("Chrome 131 on Android tablet")
    device_id: str = ""  # the tablet's own id (the outbox's X-Device header), "" when not sent
    ip: str = ""

    @property
    def source(self) -> str:
        """The page posted to, with its method ("POST /t/1/referee/tables/7/game/"), at most 200 characters."""
        return f"{self.method} {self.path}".strip()[:FIELD_LENGTH]

    @property
    def device_line(self) -> str:
        """Device, id and client IP in one line ("Chrome 131 on Android tablet · id 3f9a2c1e · 10.0.0.7")."""
        parts = [self.device, f"id {self.device_id[:8]}" if self.device_id else "", self.ip]
        return " · ".join(part for part in parts if part)[:FIELD_LENGTH]


_origin: ContextVar[Origin | None] = ContextVar("spielleitung_request_origin", default=None)


def current_origin() -> Origin | None:
    """The origin of the request being answered, or None outside a request."""
    return _origin.get()


def origin_of(request: HttpRequest) -> Origin:
    """Read the origin from a request (never raises)."""
    meta = request.META
    device_id = str(meta.get("HTTP_X_DEVICE", ""))
    return Origin(
        method=str(request.method or "")[:10],
        path=_CONTROL.sub("", request.path)[:FIELD_LENGTH],
        device=describe_device(str(meta.get("HTTP_USER_AGENT", ""))),
        device_id=device_id if _DEVICE_ID.fullmatch(device_id) else "",
        # REMOTE_ADDR only: a forwarded-for header can be written by anyone.
        ip=str(meta.get("REMOTE_ADDR", ""))[:45],
    )


class RequestOriginMiddleware:
    """Keep the request's ``Origin`` in a context variable while the request is answered.

    The variable is reset when the response is ready, also when the view raised.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _origin.set(origin_of(request))
        try:
            return self.get_response(request)
        finally:
            _origin.reset(token)


# --------------------------------------------------------------------------
# The user agent, in words
# --------------------------------------------------------------------------

# (marker in the user agent, the browser's name, the pattern of its version); the first match wins.
_BROWSERS: tuple[tuple[str, str, str], ...] = (
    ("EdgA/", "Edge", r"EdgA/(\d+)"),
    ("EdgiOS/", "Edge", r"EdgiOS/(\d+)"),
    ("Edg/", "Edge", r"Edg/(\d+)"),
    ("OPR/", "Opera", r"OPR/(\d+)"),
    ("SamsungBrowser/", "Samsung Internet", r"SamsungBrowser/(\d+)"),
    ("FxiOS/", "Firefox", r"FxiOS/(\d+)"),
    ("Firefox/", "Firefox", r"Firefox/(\d+)"),
    ("CriOS/", "Chrome", r"CriOS/(\d+)"),
    ("HeadlessChrome/", "Headless Chrome", r"HeadlessChrome/(\d+)"),
    ("Chrome/", "Chrome", r"Chrome/(\d+)"),
    ("Chromium/", "Chromium", r"Chromium/(\d+)"),
    ("Safari/", "Safari", r"Version/(\d+)"),
)
# Programs that are not browsers, by the first word of their user agent.
_PROGRAM = re.compile(r"^([A-Za-z][A-Za-z0-9._-]{0,40})/")


def _system(agent: str) -> str:
    if "iPad" in agent:
        return "iPad"
    if "iPhone" in agent:
        return "iPhone"
    if "Android" in agent:
        return "Android phone" if "Mobile" in agent else "Android tablet"
    if "CrOS" in agent:
        return "ChromeOS"
    if "Windows" in agent:
        return "Windows"
    if "Macintosh" in agent or "Mac OS X" in agent:
        return "Mac"
    if "Linux" in agent:
        return "Linux"
    return ""


def _browser(agent: str) -> str:
    for marker, name, version_pattern in _BROWSERS:
        if marker in agent:
            version = re.search(version_pattern, agent)
            return f"{name} {version.group(1)[:6]}" if version else name
    program = _PROGRAM.match(agent)
    if program and program.group(1) != "Mozilla":
        return program.group(1)
    return ""


def describe_device(user_agent: str) -> str:
    """A person's words for a user agent: "Chrome 131 on Android tablet", "Safari 17 on iPad", "curl".

    "" for an empty user agent; the start of the text itself when nothing in it is
    known. Never raises; the result has no control characters and at most 200 characters.
    """
    agent = _CONTROL.sub(" ", user_agent or "")[:1000].strip()
    if not agent:
        return ""
    browser, system = _browser(agent), _system(agent)
    if browser and system:
        return f"{browser} on {system}"[:FIELD_LENGTH]
    return (browser or system or agent[:60])[:FIELD_LENGTH]
