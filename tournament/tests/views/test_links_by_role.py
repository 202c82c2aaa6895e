"""Each role sees only what it may do: every same-site link on the pages a role reaches answers
without "not allowed" (403), and every form it is shown posts to a view its role may use.

For each format's scenario (a tournament in play: tables playing and decided, the life-bands
pool waiting) and each role (organiser, desk, referee, and the public without a login), the
pages are crawled from the role's start page, following every same-site link (``href``,
``hx-get``) breadth first; a form's action is not posted (it would change the tournament) but
its view's role (``permissions.tournament_role``) is checked against the user's.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament import enums
from tournament.tests.views.crawling import crawl
from tournament.tests.views.scenarios import (  # noqa: F401 (fixtures)
    FORMATS,
    built_fixture,
    cheap_clients_fixture,
    client_handler_fixture,
)

pytestmark = [pytest.mark.django_db]

ROLES = [enums.Role.ORGANISER, enums.Role.DESK, enums.Role.REFEREE]
START = {
    enums.Role.ORGANISER: "enter",
    enums.Role.DESK: "desk",
    enums.Role.REFEREE: "referee_tables",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("role", ROLES)
def test_no_link_or_button_a_role_sees_ends_in_not_allowed(client, built, staff_user, fmt, role) -> None:
    tournament = built[fmt].tournament
    client.force_login(staff_user(tournament, role))
    start = [reverse(f"tournament:{START[role]}", args=[tournament.pk]), reverse("tournament:home")]
    seen, refused_forms = crawl(client, start, {role})
    assert len(seen) > 5, seen
    refused = {path: status for path, status in seen.items() if status == 403}
    assert refused == {}, f"{role} is shown links that answer 403: {refused}"
    assert refused_forms == [], f"{role} is shown forms it may not post: {refused_forms}"
    assert all(status < 500 for status in seen.values()), seen


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_public_pages_link_to_nothing_behind_a_login(client, built, fmt) -> None:
    tournament = built[fmt].tournament
    start = [
        reverse("tournament:projector", args=[tournament.public_key]),
        reverse("tournament:find", args=[tournament.public_key]) + "?q=1",
    ]
    seen, refused_forms = crawl(client, start, set())
    assert all(status in (200, 301, 302) for status in seen.values()), seen
    assert refused_forms == []
