"""Per-tournament roles, enforced on every staff view.

The organiser may do everything a desk clerk or a referee may; a superuser
counts as organiser of every tournament. Anonymous users are sent to the
login page; logged-in users without the role get 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament import enums
from tournament.models import Tournament
from tournament.selectors import desk as desk_selectors

ALLOWED = {
    enums.Role.ORGANISER: {enums.Role.ORGANISER},
    enums.Role.DESK: {enums.Role.ORGANISER, enums.Role.DESK},
    enums.Role.REFEREE: {enums.Role.ORGANISER, enums.Role.REFEREE},
}


def tournament_role(role: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Load ``tournament_id`` from the URL and require ``role`` in it.

    The view is called as ``view(request, tournament, **kwargs)`` and finds the
    user's roles in ``request.tournament_roles``.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, tournament_id: int, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament = get_object_or_404(Tournament, pk=tournament_id)
            roles = desk_selectors.roles_of(request.user, tournament)
            if not roles & ALLOWED[enums.Role(role)]:
                raise PermissionDenied
            request.tournament_roles = roles  # type: ignore[attr-defined]
            return view(request, tournament, **kwargs)

        # The role the view asks for, read by the tests that follow each role's links and forms.
        wrapper.required_role = enums.Role(role)  # type: ignore[attr-defined]
        return wrapper

    return decorator
