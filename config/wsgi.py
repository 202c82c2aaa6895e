"""The WSGI application gunicorn serves (``make run``, the Docker image, the benchmarks).

Besides Django's application, the worker's garbage collector is set for a server that
builds many short-lived objects per request (``settle_heap``).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Collect the youngest generation after this many new container objects instead of
# Python's 700 (the older generations keep their defaults).
YOUNG_GENERATION_THRESHOLD = 10_000


def settle_heap() -> None:
    """Freeze what the worker loaded at start and collect the young generation less often.

    A page of 5,000 players builds some hundred thousand objects (rows, standings, the
    rendering); with Python's defaults the collector ran hundreds of times while it did,
    and each full collection walked every object the worker had loaded (Django, the URL
    patterns, the templates) as well: a third of the points ranking's time at 5,000
    players (measured: 178 ms, 104 ms without the collector). ``gc.freeze`` moves what
    exists now to a generation that is never collected (it lives as long as the worker),
    and a larger young generation lets a request's objects die before a collection sees
    them. Cycles are still collected, only later.
    """
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - import every view now, so that it is frozen too
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, middle, old)


application = get_wsgi_application()
settle_heap()
