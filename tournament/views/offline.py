"""The service worker that keeps the referee's pages available offline (static/js/sw.js).

It is served from the site's root, not from /static/, because a service worker
only controls pages below the address it is served from.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

SERVICE_WORKER = "js/sw.js"


@functools.cache
def _script() -> bytes:
    found = finders.find(SERVICE_WORKER)
    path = Path(found) if isinstance(found, str) else Path(settings.STATIC_ROOT) / SERVICE_WORKER
    return path.read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker script; browsers check it for updates on every visit (no-cache)."""
    response = HttpResponse(_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
