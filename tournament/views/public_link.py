"""The organiser's public link: a new one replaces the old, which stops working (asked first).

The links themselves show on the settings page; whether the old addresses by number
still open the public pages is the ``listed`` setting (``views.display.by_number``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import enums, versions
from tournament.desk.tournaments import renew_public_key
from tournament.errors import NeedsConfirmation
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.views.desk import confirm_panel, is_confirmed


@require_POST
@tournament_role(enums.Role.ORGANISER)
def new_public_link(request: HtmxHttpRequest, tournament: Tournament) -> HttpResponse:
    """Issue a new public link. The first post answers with the question (what stops
    working); "Yes" posts ``confirm=1`` and goes back to the settings with the new links.
    The old key's entry in the shared cache goes at once (``tournament.versions``: a lookup
    by a renewed key would find the new state and look again anyway)."""
    old_key = tournament.public_key
    try:
        renew_public_key(tournament=tournament, actor=request.user, confirmed=is_confirmed(request))
    except NeedsConfirmation as error:
        panel = confirm_panel(
            error,
            url=reverse("tournament:new_public_link", args=[tournament.pk]),
            fields=[],
            label=_("Yes, issue a new public link"),
            cancel_url=reverse("tournament:settings", args=[tournament.pk]),
        )
        return render(request, "tournament/public_link.html", {"tournament": tournament, "panel": panel})
    versions.forget(tournament.pk, old_key)
    messages.success(request, _("New public link issued: the old link no longer works."))
    return redirect("tournament:settings", tournament.pk)
