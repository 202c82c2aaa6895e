"""The errors a person can act on, raised by every write (desk, play, formats).

``ServiceError`` carries a translated message that the views show as is; the
write it came from changed nothing. Questions back to the person (confirm,
choose) are ``ServiceError`` too, with ``is_refusal = False``: they are not
written to the audit log as refused entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class ServiceError(Exception):
    """A problem the user can fix; ``message`` is translated and shown as is."""

    # A question back to the user (confirm, choose) is not a refusal and is not audited as one.
    is_refusal = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownStep(ServiceError):
    """A request names a step that does not exist (a bad request, not a refusal of the tournament's state)."""

    is_refusal = False
    status = 400


class NeedsConfirmation(ServiceError):
    """The action is allowed only after the user confirms; ``kind`` says what
    ("same_name", "outside_window", "override")."""

    is_refusal = False

    def __init__(self, message: str, *, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class NeedsChoice(ServiceError):
    """A player count does not split into tables; ``options`` (``seating.SeatingOption``)
    say what the rules allow. Call the step again with one option's code as ``choice``."""

    is_refusal = False

    def __init__(self, message: str, *, options: Sequence[Any], players: int) -> None:
        super().__init__(message)
        self.options = tuple(options)
        self.players = players
