"""The request side every view shares: the request type, and the one way a refusal becomes an answer.

A service refuses with ``ServiceError`` (``tournament.errors``): nothing was saved and the
message says what to do. The views never catch it themselves; they use one of two helpers here:

- ``answers_refusals(answer)``: a view decorator. The view calls its services and lets a
  ``ServiceError`` go; ``answer(request, error, *args, **kwargs)`` (the view's own arguments)
  turns it into the page re-rendered with the message (409), the htmx fragment, or the redirect
  with a message. Questions back to the person (``NeedsConfirmation``, ``NeedsChoice``) are
  answered by the view itself before they get here.
- ``refusal(form)``: a context manager for a form's write. A refusal inside the block becomes
  the form's error (the form is shown again, 422 as before) and the returned ``Refused`` is true;
  a question passes through to the view's own ``except``.

``status_of(error, default)`` is the status a refusal answers with: the error's own
(``UnknownStep`` is a 400) or the view's default.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec

from django import forms
from django.http import HttpRequest, HttpResponse
from django_htmx.middleware import HtmxDetails

from tournament.errors import NeedsChoice, NeedsConfirmation, ServiceError

P = ParamSpec("P")

# Questions back to the person: answered by the view, never as a refusal.
QUESTIONS = (NeedsConfirmation, NeedsChoice)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def status_of(error: ServiceError, default: int = 409) -> int:
    """The status a refusal answers with: the error's own (a bad request is 400), else ``default``."""
    return int(getattr(error, "status", default))


Answer = Callable[..., HttpResponse]


def answers_refusals(answer: Answer) -> Callable[[Callable[P, HttpResponse]], Callable[P, HttpResponse]]:
    """Decorate a view (under ``tournament_role``, so it gets the tournament) whose refusals
    ``answer(request, error, *args, **kwargs)`` turns into the response."""

    def decorate(view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
        @functools.wraps(view)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            try:
                return view(*args, **kwargs)
            except QUESTIONS:
                raise
            except ServiceError as error:
                request, *rest = args
                return answer(request, error, *rest, **kwargs)

        return wrapped

    return decorate


class Refused:
    """What ``refusal`` caught: true when the write was refused (``error`` says why)."""

    def __init__(self) -> None:
        self.error: ServiceError | None = None

    def __bool__(self) -> bool:
        return self.error is not None

    @property
    def message(self) -> str:
        return self.error.message if self.error is not None else ""


@contextmanager
def refusal(form: forms.Form | None = None, field: str | None = None) -> Iterator[Refused]:
    """Run a write; a refusal becomes the error of ``form`` (at ``field``, else the whole form)
    and the yielded ``Refused`` is true. Questions (``QUESTIONS``) pass through."""
    refused = Refused()
    try:
        yield refused
    except QUESTIONS:
        raise
    except ServiceError as error:
        refused.error = error
        if form is not None:
            form.add_error(field, error.message)
