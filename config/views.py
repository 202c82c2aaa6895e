"""Views outside any tournament: the health check for the container."""

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the app can reach its database; used by Docker's HEALTHCHECK and as the benchmark baseline."""
    connection.ensure_connection()
    return HttpResponse("ok", content_type="text/plain")
