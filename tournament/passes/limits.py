"""Failed look-ups of pass tokens, limited per client address.

Counted with django-ratelimit (a fixed window per address in the shared cache: Redis across the
app servers, see ``config.settings``), the address as the login lock reads it
(``config.security.client_ip``: behind ``PROXY_COUNT`` proxies). Only failures count (a token
that is no pass); an address that reached the limit is refused before any look-up until its
window ends, valid passes included, so a guesser learns nothing more. The rate is the setting
``PLAYER_PASS_FAILURES`` ("30/10m": 30 failures in ten minutes).

The public sign-up's suggestions from the club's register (issue 33) are limited the same way,
every request counted: ``SIGNUP_SUGGESTIONS_RATE`` ("120/m", generous: a club's members may share
one address), past it 429 until the minute ends.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage

from config.security import client_ip

GROUP = "player-pass"
DEFAULT_RATE = "30/10m"


def _rate() -> str:
    return str(getattr(settings, "PLAYER_PASS_FAILURES", DEFAULT_RATE))


def _address(group: str, request: HttpRequest) -> str:
    return client_ip(request) or "unknown"


def exhausted(request: HttpRequest) -> bool:
    """Has this address used up its failed look-ups for now? (One cache read, nothing counted.)"""
    usage = get_usage(request, group=GROUP, key=_address, rate=_rate(), increment=False)
    return usage is not None and int(usage["count"]) >= int(usage["limit"])


def failed(request: HttpRequest) -> None:
    """Count one failed look-up for this address."""
    get_usage(request, group=GROUP, key=_address, rate=_rate(), increment=True)


SUGGESTIONS_GROUP = "signup-suggestions"
DEFAULT_SUGGESTIONS_RATE = "120/m"


def suggestions_allowed(request: HttpRequest) -> bool:
    """Count one request for the sign-up's suggestions from this address; False past the rate."""
    rate = str(getattr(settings, "SIGNUP_SUGGESTIONS_RATE", DEFAULT_SUGGESTIONS_RATE))
    usage = get_usage(request, group=SUGGESTIONS_GROUP, key=_address, rate=rate, increment=True)
    return usage is None or not usage["should_limit"]
