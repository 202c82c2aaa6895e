"""Login throttling (django-axes): whose address a login comes from, and the page a locked user name gets.

Wired in ``config/settings.py`` (``AXES_CLIENT_IP_CALLABLE``, ``AXES_LOCKOUT_CALLABLE``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

# 429 Too Many Requests: the login was refused because of the earlier failures, not this password.
LOCKED_OUT_STATUS = 429


def client_ip(request: HttpRequest) -> str:
    """The client's address as the lock counts it.

    ``REMOTE_ADDR`` unless ``PROXY_COUNT`` (``DJANGO_PROXY_COUNT``) proxies stand in front
    of the app, each appending the address it received the request from to
    ``X-Forwarded-For``: then the client is the ``PROXY_COUNT``-th entry from the right.
    Entries further left are written by the client and never trusted; a header with fewer
    entries than proxies (a request that bypassed them) counts as ``REMOTE_ADDR``.
    """
    remote = str(request.META.get("REMOTE_ADDR", ""))
    count = settings.PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        return remote
    return forwarded[-count][:45]  # the longest IPv6 text; AccessAttempt stores the address


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """The translated lockout page in the site layout (site and admin login alike).

    Says what happened (too many wrong passwords for this user name from this address),
    how long the lock lasts and what to do: wait, or ask the organiser or the site's
    administrator to unlock the name (``manage.py axes_reset_username NAME``).
    """
    username = ""
    if credentials:
        username = str(credentials.get("username") or "")
    if not username:
        username = str(request.POST.get("username", "")) if request.method == "POST" else ""
    context: dict[str, object] = {
        "username": username[:150],
        "failure_limit": settings.LOGIN_FAILURE_LIMIT,
        "minutes": settings.LOGIN_LOCKOUT_MINUTES,
    }
    match = request.resolver_match
    context["login_url"] = reverse("admin:login" if match is not None and match.namespace == "admin" else "login")
    return render(request, "registration/locked_out.html", context, status=LOCKED_OUT_STATUS)
