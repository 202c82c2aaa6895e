"""The Format contract, pure Python (no Django).

A format takes frozen snapshots of the tournament and returns plain results.
Errors a user can fix are raised as ``FormatError`` with a stable ``code`` and
parameters; the service layer turns the code into a translated message.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class FormatError(Exception):
    """A problem the organiser can fix (too few players, settings that clash)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class TableSizes:
    """Preferred and largest table size. Tables never seat fewer than 2."""

    preferred: int = 3
    largest: int = 4

    def __post_init__(self) -> None:
        if self.preferred < 2:
            raise FormatError("table_size_too_small", preferred=self.preferred)
        if self.largest < self.preferred:
            raise FormatError("table_size_max_below_preferred", preferred=self.preferred, largest=self.largest)


@dataclass(frozen=True)
class FormatSpec:
    """What the rest of the app needs to know about a format up front."""

    slug: str
    stages: tuple[str, ...]
    min_players: int
    settings_used: tuple[str, ...] = field(default_factory=tuple)
