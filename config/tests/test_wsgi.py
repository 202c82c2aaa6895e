"""The WSGI module gunicorn serves: Django's application, and the worker's collector settled.

Run in a fresh interpreter (importing ``config.wsgi`` here would change the test process's
collector for every test after it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

PROBE = """
import gc, json
before = gc.get_freeze_count()
import config.wsgi
from django.core.handlers.wsgi import WSGIHandler
print(json.dumps({
    "handler": isinstance(config.wsgi.application, WSGIHandler),
    "threshold": gc.get_threshold(),
    "frozen_before": before,
    "frozen": gc.get_freeze_count(),
    "views_loaded": "tournament.views.display" in __import__("sys").modules,
}))
"""


def test_the_worker_freezes_what_it_loaded_and_collects_the_young_less_often() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)}
    env.setdefault("DJANGO_SECRET_KEY", "wsgi-test")
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["handler"] is True
    # The young generation is collected after 10,000 new objects; the older keep Python's defaults.
    assert seen["threshold"][0] == 10_000
    assert seen["threshold"][1:] == list(gc_defaults()[1:])
    # Django, the URL patterns and every view were loaded, then frozen (tens of thousands of objects).
    assert seen["frozen_before"] == 0 and seen["frozen"] > 20_000
    assert seen["views_loaded"] is True


def gc_defaults() -> tuple[int, int, int]:
    """Python's own thresholds, read in a fresh interpreter (this one's may have been changed)."""
    out = subprocess.run(
        [sys.executable, "-c", "import gc; print(*gc.get_threshold())"], capture_output=True, text=True, check=True
    )
    young, middle, old = (int(part) for part in out.stdout.split())
    return young, middle, old
