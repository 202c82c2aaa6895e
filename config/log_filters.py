"""Logging filters for the console the organiser watches during `make run`."""

from __future__ import annotations

import logging


class OneLineRefusals(logging.Filter):
    """A refused request (403: a role that may not open a page) is logged in one line.

    Django logs ``PermissionDenied`` on ``django.request`` with the exception attached, so every
    refusal printed a full traceback into the console, where a real error then drowned among
    them. A refusal is expected (a referee tapping an organiser's link), not a fault: its line
    says what and where ("Forbidden (Permission denied): /t/3/settings/"); errors keep their
    tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
