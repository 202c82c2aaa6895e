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
from tournament.http import HtmxHttpRequest, answers_refusals
from tournament.models import Tournament
from tournament.permissions import tournament_role
from tournament.views.forms import FinalTargetForm


def _refused(request: HtmxHttpRequest, error: ServiceError, tournament: Tournament, table_id: int) -> HttpResponse:
    """A refused target: the table page with why, the form filled with what was typed."""
    posted = FinalTargetForm.read(request)
    messages.error(request, error.message)
    url = reverse("tournament:referee_table", args=[tournament.pk, table_id])
    return redirect(f"{url}?{urlencode({'kind': posted['kind'][:10], 'target': posted['target'][:10]})}#final-target")


@require_POST
@tournament_role(enums.Role.ORGANISER)
@answers_refusals(_refused)
def final_target(request: HtmxHttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """Set the final's target (``kind``: points or wins; ``target``) from the final's table page."""
    posted = FinalTargetForm.read(request)
    typed = posted["target"]
    target = int(typed) if typed.isdecimal() else None
    done = services.set_final_target(tournament=tournament, actor=request.user, kind=posted["kind"], target=target)
    messages.success(request, done)
    return redirect("tournament:referee_table", tournament.pk, table_id)
