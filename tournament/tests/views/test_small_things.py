"""The small things people notice (issue 29): the site's icon, the phone page's scripts, a 403 in
one line of the console, and a staff member's language kept with their account."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournament import enums
from tournament.models import StaffProfile
from tournament.tests.factories import StaffRoleFactory, TournamentFactory

pytestmark = [pytest.mark.django_db, pytest.mark.core]
PASSWORD = "pw-for-tests-123"


def test_favicon_ico_is_the_sites_icon_and_every_page_links_it(client):  # type: ignore[no-untyped-def]
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].endswith("img/favicon.ico")
    icon = finders.find("img/favicon.ico")
    assert icon is not None
    with open(icon, "rb") as file:
        assert file.read(4) == b"\x00\x00\x01\x00"  # an ICO file's header
    tournament = TournamentFactory()
    for page in (reverse("login"), reverse("tournament:find", args=[tournament.public_key])):
        body = client.get(page).content.decode()
        assert 'rel="icon"' in body and "img/favicon.svg" in body, page
    projector = client.get(reverse("tournament:projector", args=[tournament.public_key])).content.decode()
    assert "img/favicon.svg" in projector


def test_the_phone_page_loads_neither_the_outbox_nor_the_timer(client, make_user):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory()
    phone = client.get(reverse("tournament:find", args=[tournament.public_key])).content.decode()
    assert "js/outbox" not in phone and "js/timer" not in phone
    assert "js/poll" in phone and "js/app" in phone  # its results still poll themselves
    clerk = make_user()
    StaffRoleFactory(tournament=tournament, user=clerk, role=enums.Role.DESK)
    client.force_login(clerk)
    desk = client.get(reverse("tournament:desk", args=[tournament.pk])).content.decode()
    assert "js/outbox" in desk and "js/timer" in desk


def test_a_refusal_is_one_line_in_the_console(client, caplog, make_user):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory()
    client.force_login(make_user())  # no role in this tournament
    with caplog.at_level(logging.WARNING, logger="django.request"):
        answer = client.get(reverse("tournament:settings", args=[tournament.pk]))
    assert answer.status_code == 403
    refusals = [record for record in caplog.records if record.name == "django.request"]
    assert len(refusals) == 1
    line = logging.Formatter().format(refusals[0])
    assert line == f"Forbidden (Permission denied): {reverse('tournament:settings', args=[tournament.pk])}"
    assert "Traceback" not in caplog.text


def test_an_error_keeps_its_traceback() -> None:
    """Only refusals lose the traceback: a 500 still shows where it broke."""
    from config.log_filters import OneLineRefusals

    try:
        raise RuntimeError("broken")
    except RuntimeError as error:
        record = logging.LogRecord(
            "django.request", logging.ERROR, "", 0, "Internal Server Error", (), (type(error), error, None)
        )
    record.status_code = 500
    assert OneLineRefusals().filter(record)
    assert "RuntimeError: broken" in logging.Formatter().format(record)


def test_a_referees_language_follows_them_to_every_tablet(client, make_user):  # type: ignore[no-untyped-def]
    referee = make_user("referee-anna")
    client.force_login(referee)
    answer = client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert answer.status_code == 302
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    assert StaffProfile.objects.get(user=referee).language == "it"

    # Another tablet, whose browser asks for German: the login applies Italian.
    other = client.__class__(HTTP_ACCEPT_LANGUAGE="de")
    logged_in = other.post(reverse("login"), {"username": "referee-anna", "password": PASSWORD})
    assert logged_in.status_code == 302
    assert logged_in.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    home = other.get(reverse("tournament:home"))
    assert home.content.decode().count('lang="it"') == 1

    # Switched on that tablet: kept again, for the next login anywhere.
    other.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert StaffProfile.objects.get(user=referee).language == "de"


def test_a_language_switch_that_is_not_a_language_changes_nothing(client, make_user):  # type: ignore[no-untyped-def]
    user = make_user()
    client.force_login(user)
    for bad in ("xx", "", "de" * 40, "it\x00"):
        answer = client.post(reverse("set_language"), {"language": bad, "next": "/"})
        assert answer.status_code in (302, 400), bad  # a NUL character is refused by the middleware
    assert not StaffProfile.objects.filter(user=user).exists()
    assert client.get(reverse("set_language")).status_code == 405


def test_a_login_without_a_kept_language_keeps_the_browsers(client, make_user):  # type: ignore[no-untyped-def]
    make_user("desk-ben")
    anonymous = client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert anonymous.status_code == 302
    assert not StaffProfile.objects.exists()  # nobody logged in: nothing kept
    logged_in = client.post(reverse("login"), {"username": "desk-ben", "password": PASSWORD})
    assert logged_in.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in logged_in.cookies
