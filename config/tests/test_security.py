"""Hostile input and a public deployment: login throttling, production settings, the CSP.

- Login throttling (django-axes): after ``LOGIN_FAILURE_LIMIT`` wrong passwords for one
  user name from one address even the right password is refused with the lockout page,
  until the cool-off ends (simulated by moving the recorded attempts back in time) or the
  name is unlocked with ``manage.py axes_reset_username``; for the site's login and the
  admin's. Another user name from the same address, or the same name from another
  address, still logs in.
- Production: with exactly the variables README's "Production" section lists,
  ``manage.py check --deploy --fail-level WARNING`` passes, and the site redirects
  http to https, sends HSTS and marks its cookies Secure.
- Content-Security-Policy: every response with a body carries the strict policy (a 304
  carries none: the browser keeps its copy's); no template has inline code the policy
  would refuse.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse

from config.security import client_ip

# core: the SQLite smoke run checks django-axes there too.
pytestmark = [pytest.mark.django_db]


ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "right-password-2026"
WRONG = "wrong-password-2026"
LOCKED = "Login paused"


def _login(client: Client, username: str, password: str, *, admin: bool = False, ip: str = "127.0.0.1"):  # type: ignore[no-untyped-def]
    path = reverse("admin:login") if admin else reverse("login")
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=ip)


def _fail_until_locked(client: Client, username: str, *, admin: bool = False) -> None:
    """The configured number of wrong passwords: the last one already answers with the lockout page."""
    limit = settings.LOGIN_FAILURE_LIMIT
    for attempt in range(1, limit + 1):
        response = _login(client, username, WRONG, admin=admin)
        if attempt < limit:
            assert response.status_code == 200 and LOCKED not in response.content.decode(), attempt
        else:
            assert response.status_code == 429 and LOCKED in response.content.decode()


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _end_the_cool_off() -> None:
    """Move every recorded failure back past the cool-off, as if the minutes had passed."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES, seconds=1)
    )


@pytest.fixture
def person(db):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(username="referee-anna", password=PASSWORD)


# --- login throttling -------------------------------------------------------------------------


def test_the_defaults_are_five_failures_and_fifteen_minutes() -> None:
    """The variables' defaults (the test runs without them) reach django-axes."""
    assert settings.LOGIN_FAILURE_LIMIT == settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES) == timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_the_limits_come_from_the_environment() -> None:
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME.total_seconds())"
    )
    variables = {"DJANGO_SECRET_KEY": "x", "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = _run({**variables, "DJANGO_LOGIN_FAILURE_LIMIT": "3", "DJANGO_LOGIN_LOCKOUT_MINUTES": "7"}, "-c", script)
    assert result.stdout.split() == ["3", "420.0"], result.stderr
    result = _run({**variables, "DJANGO_LOGIN_FAILURE_LIMIT": "0"}, "-c", script)
    assert result.returncode != 0 and "DJANGO_LOGIN_FAILURE_LIMIT must be a whole number of at least 1" in result.stderr


def test_the_right_password_is_refused_until_the_cool_off_ends(client, person) -> None:  # type: ignore[no-untyped-def]
    _fail_until_locked(client, person.username)

    response = _login(client, person.username, PASSWORD)
    page = response.content.decode()
    assert response.status_code == 429 and not _logged_in(client)
    # What happened and what to do, in the site layout.
    assert LOCKED in page and "“referee-anna”" in page and "5 times in a row" in page
    assert "Wait 15 minutes, then log in with the right password." in page
    assert "Ask the organiser or the administrator of this site to unlock your user name." in page
    assert 'class="topbar"' in page and f'href="{reverse("login")}"' in page
    # The failures are kept without the passwords that were tried.
    assert AccessAttempt.objects.exists()
    assert not AccessAttempt.objects.filter(post_data__contains=WRONG).exists()

    _end_the_cool_off()
    response = _login(client, person.username, PASSWORD)
    assert response.status_code == 302 and _logged_in(client)


def test_a_try_during_the_lock_does_not_restart_it(client, person) -> None:  # type: ignore[no-untyped-def]
    _fail_until_locked(client, person.username)
    _login(client, person.username, WRONG)
    _login(client, person.username, PASSWORD)
    _end_the_cool_off()
    assert _login(client, person.username, PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too(client) -> None:  # type: ignore[no-untyped-def]
    admin = get_user_model().objects.create_superuser("site-admin", password=PASSWORD)
    _fail_until_locked(client, admin.username, admin=True)

    response = _login(client, admin.username, PASSWORD, admin=True)
    page = response.content.decode()
    assert response.status_code == 429 and not _logged_in(client)
    assert LOCKED in page and 'class="topbar"' in page and f'href="{reverse("admin:login")}"' in page

    _end_the_cool_off()
    response = _login(client, admin.username, PASSWORD, admin=True)
    assert response.status_code == 302 and _logged_in(client)


def test_the_reset_command_unlocks_the_name(client, person) -> None:  # type: ignore[no-untyped-def]
    _fail_until_locked(client, person.username)
    assert _login(client, person.username, PASSWORD).status_code == 429

    call_command("axes_reset_username", person.username, stdout=open(os.devnull, "w"))  # noqa: SIM115

    response = _login(client, person.username, PASSWORD)
    assert response.status_code == 302 and _logged_in(client)


def test_another_name_from_the_same_address_still_logs_in(client, person) -> None:  # type: ignore[no-untyped-def]
    """The tablets behind one router share an address: one referee's typos lock only that name."""
    colleague = get_user_model().objects.create_user(username="referee-ben", password=PASSWORD)
    _fail_until_locked(client, person.username)

    response = _login(client, colleague.username, PASSWORD)
    assert response.status_code == 302 and _logged_in(client)


def test_the_same_name_from_another_address_still_logs_in(client, person) -> None:  # type: ignore[no-untyped-def]
    _fail_until_locked(client, person.username)

    response = _login(client, person.username, PASSWORD, ip="10.0.0.8")
    assert response.status_code == 302 and _logged_in(client)


def test_a_success_clears_the_count(client, person) -> None:  # type: ignore[no-untyped-def]
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        _login(client, person.username, WRONG)
    assert _login(client, person.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert _login(client, person.username, WRONG).status_code == 200
    assert _login(client, person.username, PASSWORD).status_code == 302


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "198.51.100.7", "10.0.0.2"),  # no proxy: the header is the client's own words
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "203.0.113.66, 198.51.100.7", "198.51.100.7"),  # the left entry was written by the client
        (2, "203.0.113.66, 198.51.100.7, 10.1.1.1", "198.51.100.7"),
        (2, "198.51.100.7", "10.0.0.2"),  # fewer entries than proxies: not through them
        (1, "", "10.0.0.2"),
    ],
)
def test_the_client_address_behind_proxies(settings, proxies, forwarded, expected) -> None:  # type: ignore[no-untyped-def]
    settings.PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


# --- production settings ----------------------------------------------------------------------


def readme_production_variables() -> dict[str, str]:
    """The variables of README's "Production" block, with a strong secret key of our own."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```env\n# production\.env\n(.*?)```", readme, re.S)
    assert block, "README has no ```env block starting with '# production.env'"
    variables = dict(line.split("=", 1) for line in block.group(1).splitlines() if line and not line.startswith("#"))
    assert "DJANGO_SECRET_KEY" in variables
    variables["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    return variables


def _run(variables: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python *args`` in the project with exactly these variables (plus PATH and HOME)."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), **variables}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_check_deploy_passes_with_the_readme_production_variables() -> None:
    result = _run(readme_production_variables(), "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output and "System check identified no issues" in output


def test_check_deploy_warns_without_them() -> None:
    """The check can fail: the defaults (plain HTTP for `make run`) are not production settings."""
    variables = {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    result = _run(variables, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "security.W004" in output and "security.W008" in output and "security.W012" in output


SETTING_NAMES = [
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "LANGUAGE_COOKIE_SECURE",
    "ALLOWED_HOSTS",
    "DEBUG",
]


def _settings_from(variables: dict[str, str]) -> dict[str, object]:
    script = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {SETTING_NAMES!r}}}))"
    )
    result = _run({**variables, "DJANGO_SETTINGS_MODULE": "config.settings"}, "-c", script)
    assert result.returncode == 0, result.stderr
    values: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    values["SECURE_PROXY_SSL_HEADER"] = tuple(values["SECURE_PROXY_SSL_HEADER"])  # type: ignore[arg-type]
    return values


def test_production_redirects_to_https_sends_hsts_and_secure_cookies(client, settings, person) -> None:  # type: ignore[no-untyped-def]
    """The settings the README's variables produce (read in a fresh process), applied here."""
    production = _settings_from(readme_production_variables())
    assert production["DEBUG"] is False
    host = production["ALLOWED_HOSTS"][0]  # type: ignore[index]
    for name, value in production.items():
        setattr(settings, name, value)

    response = client.get(reverse("login"), HTTP_HOST=host)
    assert response.status_code == 301 and response["Location"] == f"https://{host}{reverse('login')}"

    # Behind the TLS proxy, which says the request came over https.
    https = {"HTTP_HOST": host, "HTTP_X_FORWARDED_PROTO": "https"}
    response = client.get(reverse("login"), **https)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    response = client.post(reverse("login"), {"username": person.username, "password": PASSWORD}, **https)
    assert response.status_code == 302
    assert response.cookies["sessionid"]["secure"] and response.cookies["csrftoken"]["secure"]
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"}, **https)
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["secure"]

    # The container's health check asks over plain http from inside: not redirected.
    assert client.get(reverse("healthz"), HTTP_HOST=host).status_code == 200


def test_make_run_defaults_serve_plain_http(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("login"))
    assert response.status_code == 200 and "Strict-Transport-Security" not in response
    assert not settings.SECURE_SSL_REDIRECT and not settings.SESSION_COOKIE_SECURE


# --- Content-Security-Policy ------------------------------------------------------------------

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "worker-src": "'self'",
}


def _policy(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


@pytest.mark.parametrize("name", ["login", "tournament:service_worker", "healthz"])
def test_every_response_carries_the_strict_policy(client, name) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse(name))
    assert _policy(response) == POLICY
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]


def test_error_pages_and_logged_in_pages_carry_it_too(client, person) -> None:  # type: ignore[no-untyped-def]
    client.force_login(person)
    assert _policy(client.get(reverse("tournament:home"))) == POLICY
    assert _policy(client.get("/no-such-page/")) == POLICY


def test_a_not_modified_answer_leaves_the_stored_policy_alone(client, tournament) -> None:  # type: ignore[no-untyped-def]
    """The projector's unchanged poll: no body, so no policy built for it; the page it revalidates has one."""
    screen = reverse("tournament:projector_screen", args=[tournament.public_key])
    first = client.get(screen)
    assert first.status_code == 200 and _policy(first) == POLICY
    again = client.get(screen, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and "Content-Security-Policy" not in again
    # Nothing else is left alone: a 404 on the same path is a page with a body.
    assert _policy(client.get(screen.replace(tournament.public_key, "no-such-key"))) == POLICY


# What the policy refuses in a template: inline scripts (a <script> without src that is not
# JSON data), <style> elements, style attributes, on* handlers, htmx's hx-on and js: values.
INLINE_CODE = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*application/(?:ld\+)?json)[^>]*>"
    r"|<style\b|\sstyle\s*=|\son[a-z]+\s*=|\shx-on[:-]|javascript:|[\"']js:",
    re.I,
)


def test_no_template_has_inline_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0).strip()}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in INLINE_CODE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_htmx_injects_no_style_element() -> None:
    """htmx neither injects its indicator <style> nor evaluates code nor copies style attributes,
    in both layouts that load it; the indicator CSS is in the stylesheets."""
    for layout in ("base.html", "tournament/display/projector.html"):
        text = (ROOT / "templates" / layout).read_text(encoding="utf-8")
        config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", text)
        assert config, layout
        htmx_config = json.loads(config.group(1))
        assert htmx_config["includeIndicatorStyles"] is False and htmx_config["allowEval"] is False, layout
        # Settling copies attributes with setAttribute: a style attribute would be refused.
        assert "style" not in htmx_config["attributesToSettle"], layout
    for sheet in ("app.css", "display.css"):
        assert ".htmx-indicator" in (ROOT / "static" / "css" / sheet).read_text(encoding="utf-8")
