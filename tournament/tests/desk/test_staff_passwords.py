"""Accounts the product creates pass the site's password validators, and the staff
form does not tell which user names exist.

- ``desk.staff.add_staff`` with a password creates an account only when
  ``AUTH_PASSWORD_VALIDATORS`` accept it (the refusal is the validators' message,
  nothing is saved) and the name is free.
- The staff page adds a person on a *new* account (name + password) or an
  *existing* one (name + that account's current password, checked with
  ``authenticate`` so django-axes throttles guessing). An unknown name and a wrong
  password get the identical answer.
- The demo logins of ``make run`` pass the validators.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.urls import reverse

from tournament import enums
from tournament.desk import staff
from tournament.errors import ServiceError
from tournament.management.commands import load_demo, serve
from tournament.models import StaffRole
from tournament.tests.desk.helpers import snapshot

User = get_user_model()
GOOD = "tafel-sieben-2026"
TAKEN = "This user name is taken; choose another."
NO_MATCH = "No account matches this user name and password."


def _add(tournament, actor, username: str, password: str = "", role: str = enums.Role.REFEREE):  # type: ignore[no-untyped-def]
    return staff.add_staff(tournament=tournament, actor=actor, username=username, role=role, password=password)


# --- the service ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("12345678", "This password is entirely numeric."),
        ("12345678", "This password is too common."),
        ("password", "This password is too common."),
        ("anna-referee", "The password is too similar to the username."),
        ("short1!", "This password is too short. It must contain at least 8 characters."),
    ],
)
def test_a_weak_password_is_refused_and_nothing_is_saved(tournament, desk, password, message) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(tournament)
    with pytest.raises(ServiceError) as refused:
        _add(tournament, desk, "anna-referee", password)
    assert message in refused.value.message
    assert not User.objects.filter(username="anna-referee").exists()
    assert snapshot(tournament) == before


@pytest.mark.parametrize("username", ["anna referee", "<b>anna</b>", "anna;drop"])
def test_a_new_account_needs_a_valid_user_name(tournament, desk, username) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match="Enter a valid username"):
        _add(tournament, desk, username, GOOD)
    assert not User.objects.filter(username=username).exists() and snapshot(tournament) == before


def test_a_good_password_creates_the_account_with_its_role(tournament, desk) -> None:  # type: ignore[no-untyped-def]
    role = _add(tournament, desk, "anna-referee", GOOD)
    assert role.user.check_password(GOOD) and role.role == enums.Role.REFEREE


def test_a_taken_name_is_refused_for_a_new_account(tournament, desk, make_user) -> None:  # type: ignore[no-untyped-def]
    existing = make_user("anna-referee")
    before = snapshot(tournament)
    with pytest.raises(ServiceError, match=TAKEN):
        _add(tournament, desk, "anna-referee", GOOD)
    existing.refresh_from_db()
    assert existing.check_password("pw-for-tests-123")  # not overwritten
    assert snapshot(tournament) == before and not StaffRole.objects.filter(user=existing).exists()


def test_without_a_password_the_account_must_exist(tournament, desk) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError, match=NO_MATCH):
        _add(tournament, desk, "nobody-here")


def test_the_demo_logins_pass_the_validators() -> None:
    """The accounts `make run` creates (load_demo) and prints (serve)."""
    for username, password, *_ in [load_demo.ORGANISER, *load_demo.STAFF, *serve.DEMO_LOGINS]:
        validate_password(password, user=User(username=username))


# --- the staff page ---------------------------------------------------------------------------


def _post(client, tournament, account: str, username: str, password: str, **extra):  # type: ignore[no-untyped-def]
    data = {"account": account, "username": username, "password": password, "role": enums.Role.REFEREE}
    return client.post(reverse("tournament:staff", args=[tournament.pk]), data, **extra)


def _alert(response) -> str:  # type: ignore[no-untyped-def]
    """The form's refusal as the person reads it."""
    page = response.content.decode()
    start = page.index('<div class="alert alert-bad" role="alert">')
    return page[start : page.index("</div>", start)]


def test_the_page_offers_both_ways(organiser_client, tournament) -> None:  # type: ignore[no-untyped-def]
    page = organiser_client.get(reverse("tournament:staff", args=[tournament.pk])).content.decode()
    assert "Create a new account" in page and "Use an existing account" in page
    assert 'autocomplete="new-password"' in page


def test_a_weak_password_on_the_page(organiser_client, tournament) -> None:  # type: ignore[no-untyped-def]
    response = _post(organiser_client, tournament, "new", "anna-referee", "password")
    assert response.status_code == 422
    assert "This password is too common." in _alert(response)
    assert not User.objects.filter(username="anna-referee").exists()


def test_a_taken_name_on_the_page(organiser_client, tournament, make_user) -> None:  # type: ignore[no-untyped-def]
    make_user("anna-referee")
    response = _post(organiser_client, tournament, "new", "anna-referee", GOOD)
    assert response.status_code == 422 and TAKEN in _alert(response)


def test_an_existing_account_is_added_with_its_own_password(organiser_client, tournament, make_user) -> None:  # type: ignore[no-untyped-def]
    anna = make_user("anna-referee")
    response = _post(organiser_client, tournament, "existing", "anna-referee", "pw-for-tests-123")
    assert response.status_code == 302
    assert StaffRole.objects.filter(tournament=tournament, user=anna, role=enums.Role.REFEREE).exists()


def test_unknown_name_and_wrong_password_read_the_same(organiser_client, tournament, make_user) -> None:  # type: ignore[no-untyped-def]
    make_user("anna-referee")
    unknown = _post(organiser_client, tournament, "existing", "nobody-here", "pw-for-tests-123")
    wrong = _post(organiser_client, tournament, "existing", "anna-referee", "not-her-password")
    assert unknown.status_code == wrong.status_code == 422
    assert _alert(unknown) == _alert(wrong) and NO_MATCH in _alert(wrong)
    assert not StaffRole.objects.filter(tournament=tournament, user__username="anna-referee").exists()


def test_guessing_an_existing_account_is_throttled_on_the_page(organiser_client, tournament, make_user) -> None:  # type: ignore[no-untyped-def]
    """Wrong guesses count like failed logins; the lock is told in the form, not with the login's page."""
    make_user("anna-referee")
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert NO_MATCH in _alert(_post(organiser_client, tournament, "existing", "anna-referee", "a-wrong-guess"))
    locked = _post(organiser_client, tournament, "existing", "anna-referee", "a-wrong-guess")
    assert locked.status_code == 422 and "Too many wrong passwords for this user name" in _alert(locked)
    # Now even her right password is refused from this address, on this page.
    right = _post(organiser_client, tournament, "existing", "anna-referee", "pw-for-tests-123")
    assert right.status_code == 422 and "wait 15 minutes" in _alert(right)
    assert not StaffRole.objects.filter(tournament=tournament, user__username="anna-referee").exists()
    # The organiser stays logged in and on the staff page.
    assert organiser_client.get(reverse("tournament:staff", args=[tournament.pk])).status_code == 200
