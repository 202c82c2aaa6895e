"""Template context shared by every page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _counted(text: Callable[[int], str]) -> dict[str, str]:
    """Both forms of a counted text for the browser ("{count}" is replaced there).

    German, Italian and English all use one form for 1 and one for the rest.
    """
    return {"one": text(1), "other": text(2)}


def ui_messages(request: HttpRequest) -> dict[str, object]:
    """Translated texts for the tablet scripts (outbox, polling, htmx errors).

    Rendered once per page with ``json_script`` (data, not code); placeholders
    in braces are filled in by the scripts.
    """
    return {
        "ui_messages": {
            **_outbox_messages(),
            **_banner_messages(),
            **_connection_messages(),
            **_calculator_messages(),
            **_tracker_messages(),
        }
    }


def _outbox_messages() -> dict[str, object]:
    """The outbox's words: an entry sent, waiting, refused or failed (static/js/outbox.js)."""
    return {
        "sending": _("Sending…"),
        "waiting": _("Waiting to be sent"),
        "waitingNote": _("Kept on this tablet: it is sent by itself as soon as the connection is back."),
        "failed": _(
            "The server failed (error {status}): nothing was recorded. "
            "Send it again; if that fails too, tell the organiser."
        ),
        "refused": _("Not recorded"),
        "notSaved": _("Not saved"),
        "chainRefused": _(
            "Not sent: an earlier entry at this table was not recorded. Check the table and enter it again."
        ),
        "login": _("Your login has ended. Log in again to send it; it stays on this tablet."),
        "sendAgain": _("Send again"),
        "discard": _("Discard"),
        "dismiss": _("Dismiss"),
        "discardConfirm": _("Discard this entry? It will not be recorded."),
        "behind": _("The table below shows what the server has confirmed; the entries above are not in it yet."),
        "game": _("Game {number}: {label}"),
        "saved": _("Saved: {label}"),
        "logIn": _("Log in"),
        "show": _("Show"),
    }


def _banner_messages() -> dict[str, object]:
    """The banner's counted words: how many entries wait, and why."""
    return {
        "bannerOffline": _counted(
            lambda n: ngettext("Offline: {count} entry waiting", "Offline: {count} entries waiting", n)
        ),
        "bannerWaiting": _counted(
            lambda n: ngettext("{count} entry waiting to be sent", "{count} entries waiting to be sent", n)
        ),
        "bannerLogin": _counted(
            lambda n: ngettext(
                "Log in again: {count} entry waits on this tablet",
                "Log in again: {count} entries wait on this tablet",
                n,
            )
        ),
        "bannerRefused": _counted(
            lambda n: ngettext("{count} entry was not recorded", "{count} entries were not recorded", n)
        ),
        "bannerFailed": _counted(
            lambda n: ngettext("{count} entry was not saved", "{count} entries were not saved", n)
        ),
    }


def _connection_messages() -> dict[str, object]:
    """What a page says when the connection or the server fails (polling, htmx errors)."""
    return {
        "pageOutdated": _("Connection lost at {time}: this page may be out of date."),
        "networkFailed": _("No connection: nothing was changed. Try again when the tablet is back online."),
        "timeout": _("The server did not answer in time. Check the page before you try again."),
        "serverFailed": _(
            "The server could not do this (error {status}). Nothing was changed. "
            "Try again; if it happens again, tell the organiser."
        ),
        "notAllowed": _("Not allowed: your role in this tournament does not allow this. Ask the organiser."),
        "notFound": _("This no longer exists. Reload the page."),
        "badRequest": _("The request was refused (error {status}). Reload the page and try again."),
        "storageBlocked": _(
            "This browser does not let the page keep entries. Stay online until each entry shows as saved."
        ),
    }


def _calculator_messages() -> dict[str, object]:
    """The UNO calculator's words (static/js/calculator.js)."""
    return {
        "wonBy": _("won by {name}"),
        "points": _("{points} points"),
        "typedReplaced": _("The typed points ({points}) were replaced by the tapped cards."),
    }


def _tracker_messages() -> dict[str, object]:
    """The Schocken half tracker's words (static/js/half_tracker.js)."""
    return {
        "trackerRolls": _counted(lambda n: ngettext("{count} roll", "{count} rolls", n)),
        "trackerProgress": _("{done} of {total} throws entered"),
        "trackerRestored": _("Carried on where you were: the taps of this round are kept on this tablet."),
        "trackerMovedOn": _(
            "This game moved on meanwhile (another tablet, or a result at the table): it is shown as it "
            "stands. The taps kept here for an earlier round were dropped."
        ),
        "trackerRecordWaiting": _("Waiting to be sent: see the list above"),
        "trackerOffline": _(
            "No connection: the throws stay on this tablet and are scored as soon as the connection is back."
        ),
        "trackerTakenBack": _("The last round is back: change what was wrong and score it again."),
    }
