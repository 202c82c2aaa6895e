"""The knockout format's own page action: the final's target, agreed with the finalists at the
final's table ("Genaueres wird am Veranstaltungstag mit der Turnierleitung und den Finalisten
vereinbart"). The answer is the table page with a message; a refusal keeps what was typed."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament import enums
from tournament.errors import ServiceError
from tournament.formats.knockout import services
from tournament.http import HtmxHttpRequest
from tournament.models import Tournament
from tournament.permissions import tournament_role


@require_POST
@tournament_role(enums.Role.ORGANISER)
def final_target(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """Set the final's target (``kind``: points or wins; ``target``) from the final's table page."""
    kind = request.POST.get("kind", "")
    typed = request.POST.get("target", "").strip()
    try:
        target = int(typed) if typed.isdigit() else None
        done = services.set_final_target(tournament=tournament, actor=request.user, kind=kind, target=target)
    except ServiceError as error:
        messages.error(request, error.message)
        url = reverse("tournament:referee_table", args=[tournament.pk, table_id])
        return redirect(f"{url}?{urlencode({'kind': kind[:10], 'target': typed[:10]})}#final-target")
    messages.success(request, done)
    return redirect("tournament:referee_table", tournament.pk, table_id)
