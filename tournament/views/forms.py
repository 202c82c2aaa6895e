"""The one way in: every POST a view reads goes through a form here (or in ``tournament/forms.py``).

The forms of this module carry the small posts of the play and desk screens (a version, a
tapped player, a confirmation, a row action). Their fields never refuse on their own: what a
view did with a missing or odd value before (a number that is no number is "none", a flag is
on only when it is "1", text is taken as typed) is what the field gives, so the services keep
saying what is wrong in their own words. ``PostedForm.read(request)`` binds the POST and
returns the cleaned values.

``to_int`` is the only "whole number or None" reader of posted text.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest

from tournament.formats.entries import read_card_entries, to_int


class Int(forms.Field):
    """A whole number, or None when nothing or no number was posted."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> int | None:
        return to_int(value)


class Text(forms.Field):
    """Text as posted ("" when missing); ``strip`` trims it, ``limit`` cuts it."""

    def __init__(self, *, strip: bool = False, limit: int | None = None, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.strip, self.limit = strip, limit

    def to_python(self, value: Any) -> str:
        text = "" if value is None else str(value)
        if self.strip:
            text = text.strip()
        return text[: self.limit] if self.limit is not None else text


class Flag(forms.Field):
    """On only when "1" was posted; any other value (or none) is off."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> bool:
        return value == "1"


class PostedForm(forms.Form):
    """A form whose fields never refuse: ``read`` gives the posted values, cleaned."""

    @classmethod
    def read(cls, request: HttpRequest) -> dict[str, Any]:
        form = cls(request.POST)
        form.is_valid()
        return form.cleaned_data


def audit_dump(request: HttpRequest) -> dict[str, str]:
    """The posted fields of a refused attempt, for the audit log: 40 fields of 100 characters at most."""
    return {key: value[:100] for key, value in list(request.POST.items())[:40] if key != "csrfmiddlewaretoken"}


# --- the referee's table ----------------------------------------------------------------------


class VersionForm(PostedForm):
    """A table write carries the table's version the tablet saw (0 when none or no number)."""

    version = Int()

    def clean_version(self) -> int:
        return self.cleaned_data["version"] or 0


class DealerForm(VersionForm):
    player = Int()


class LossForm(VersionForm):
    """A loss tapped in a chips format: the loser and the tablet's idempotency key."""

    loser = Int()
    key = Text()


class CardEntryForm(VersionForm):
    """A won game: the winner, the tablet's idempotency key, and the calculator's card entries
    (``entered``, ``problem``: see ``formats.entries.read_card_entries``)."""

    winner = Int()
    key = Text()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["entered"], cleaned["problem"] = read_card_entries(self.data)
        return cleaned


# --- the organiser's corrections ------------------------------------------------------------


class CorrectionForm(CardEntryForm):
    """One correction at a table (``views/corrections.py``): the action, the game, the version,
    the reason, the chosen winner, loser or first dealer, the card entries, and the confirmation's
    fingerprint with the answer about games downstream. ``version`` stays None when it is missing."""

    action = Text()
    game = Int()
    reason = Text()
    loser = Int()
    player = Int()
    confirm = Text(limit=64)
    void_downstream = Flag()

    def clean_version(self) -> int | None:
        return self.cleaned_data["version"]

    def typed_points(self) -> dict[int, str]:
        """The card points as typed, by player (to show a refused form again)."""
        points = {}
        for key, value in self.data.items():
            pid = to_int(key.removeprefix("points_")) if key.startswith("points_") else None
            if pid is not None:
                points[pid] = value[:12]
        return points

    def carried(self, names: tuple[str, ...]) -> list[tuple[str, str]]:
        """The posted fields a confirmation carries over: ``names`` when not empty, and the card entries."""
        carried = [(name, self.data.get(name, "")) for name in names if self.data.get(name, "") != ""]
        return carried + [(key, value) for key, value in self.data.items() if key.startswith(("points_", "hand_"))]


# --- confirmations, steps and the desk's rows ----------------------------------------------


class ConfirmForm(PostedForm):
    """The person said yes on a confirmation panel (``confirm=1``); any other value is no."""

    confirm = Flag()


class StepForm(ConfirmForm):
    """An organiser step of the format (``action``, ``choice``) and its confirmation."""

    action = Text()
    choice = Text()


class RowForm(PostedForm):
    """A check-in row's post: the list's search (``q``) and an override reason typed in it."""

    q = Text()
    override_reason = Text()


class CheckForm(RowForm):
    done = Flag()


class CheckInForm(RowForm):
    override = Flag()
    all_checked = Flag()


class FeeForm(RowForm):
    """The desk's "Fee paid" (``paid=1``) or its undo (any other value)."""

    paid = Flag()


class ReturnedForm(PostedForm):
    returned = Flag()


class ShownForm(PostedForm):
    shown = Flag()


class LanguageForm(PostedForm):
    language = Text()


# --- the format packages' own posts --------------------------------------------------------


class FinalTargetForm(PostedForm):
    """The knockout final's target: ``kind`` and the ``target`` as typed (trimmed)."""

    kind = Text()
    target = Text(strip=True)


class BackToForm(PostedForm):
    back_to = Text()


class SeatPreviewedForm(PostedForm):
    """ "Seat as shown": the preview's seed, the tournament's version (as posted, trimmed) and the choice."""

    seed = Text(strip=True)
    version = Text(strip=True)
    choice = Text(strip=True, limit=40)


class TrackerForm(PostedForm):
    """A round of the half tracker: ``posted`` is every field as posted (the state, the kept
    game's revision, the results mark and each seat's ``dice_``/``rolls_``/``kept_``), which the
    tracker decodes and checks itself."""

    def clean(self) -> dict[str, Any]:
        return {"posted": self.data.dict() if hasattr(self.data, "dict") else dict(self.data)}


# --- the player's pass ------------------------------------------------------------------------


class SitDownForm(PostedForm):
    """ "I'm at my table": the table the pass page showed (its id)."""

    table = Int()


class PendingForm(VersionForm):
    """A pending player's entry confirmed or said "Not right" (``passes.table_entry``,
    ``play.pending``): the game, the table's version the page showed and a reason (optional)."""

    game = Int()
    reason = Text(strip=True, limit=300)


# --- self check-in (issue 32, item 3) ---------------------------------------------------------


class Ints(forms.Field):
    """Every value posted under the name, each a whole number or None (at most ``limit``)."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, limit: int = 50, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)
        self.limit = limit

    def to_python(self, value: Any) -> list[int | None]:
        values = value if isinstance(value, list | tuple) else ([] if value in (None, "") else [value])
        return [to_int(item) for item in values[: self.limit]]


class SelfCheckInForm(PostedForm):
    """ "I'm here": the self-declared checklist items the player ticked, and at the entrance the
    player they said they are."""

    item = Ints()
    player = Int()


# --- the club's register (issue 33) ---------------------------------------------------------


class MergeForm(PostedForm):
    """ "Merge into…": the person kept (None when no number was posted: the service says so)."""

    keep = Int()


class CopyPlayersForm(PostedForm):
    """ "Copy players from…": the earlier tournament chosen."""

    source = Int()


class OrganiserRemoveForm(PostedForm):
    """The club's organiser to remove (None when no number was posted: the service says so)."""

    user = Int()


# The largest page number a list answers (``?page=``): anything above reads as the last page.
PAGE_MAX = 10_000


def page_number(request: HttpRequest) -> int:
    """The page a paged list was asked for (``?page=``): 1 for none or anything not a number,
    at most ``PAGE_MAX`` (the list itself clamps it to its last page)."""
    return min(max(to_int(request.GET.get("page")) or 1, 1), PAGE_MAX)
