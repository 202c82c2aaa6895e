"""The club's rating list (issue 33, item 3): the club's organisers see every rated person, best
first, with the uncertainty and the provisional mark, each linked to the person's history. Staff
only: a rating is a judgement of a person, not a result the club published."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournament.http import HtmxHttpRequest
from tournament.models import Club
from tournament.season import rating
from tournament.selectors import ratings as ratings_selectors
from tournament.views.forms import page_number
from tournament.views.register import club_organiser


@require_GET
@club_organiser
def club_ratings(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """A page of the club's ratings (``?page=``)."""
    page = page_number(request)
    context = {
        "club": club,
        "listing": ratings_selectors.rating_list(club, page=page),
        "provisional_events": rating.PROVISIONAL_EVENTS,
    }
    return render(request, "tournament/season/ratings.html", context)
