"""The error pages: 400 (also DisallowedHost), 403, 404, 500 and the CSRF failure.

Each answers with its status, in the request's language, inside the site layout
(top bar with the home link and the language switch), or with the bare alert for
htmx requests. The 500 page touches neither the session nor the database and
falls back to plain HTML when its template cannot be rendered.

This module is also the URL conf of its tests: the site's URLs and handlers
plus a few views that fail on purpose.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.checks import run_checks
from django.core.exceptions import BadRequest, DisallowedHost, PermissionDenied
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import path, reverse

from config import urls as site_urls
from config import views
from config.urls import handler400, handler403, handler404, handler500  # noqa: F401 (the handlers of this URL conf)
from tournament import enums

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "it"]
ALERT_START = '<div class="alert alert-bad" role="alert">'


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


def boom_in_the_database(request: HttpRequest) -> HttpResponse:
    get_user_model().objects.count()
    return HttpResponse("the database answered")


def leave_a_message(request: HttpRequest) -> HttpResponse:
    messages.info(request, "A message for the next page")
    return HttpResponse("ok")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def bad(request: HttpRequest) -> HttpResponse:
    raise BadRequest("unreadable")


urlpatterns = [
    path("__test__/boom/", boom),
    path("__test__/boom-db/", boom_in_the_database),
    path("__test__/message/", leave_a_message),
    path("__test__/forbidden/", forbidden),
    path("__test__/bad/", bad),
    *site_urls.urlpatterns,
]


@pytest.fixture(autouse=True)
def _test_urls(settings):  # type: ignore[no-untyped-def]
    settings.ROOT_URLCONF = __name__


@pytest.fixture
def client_in():  # type: ignore[no-untyped-def]
    """client_in(lang): a test client whose language cookie asks for ``lang``; 500s come back as responses."""

    def make(lang: str, **kwargs: object) -> Client:
        client = Client(**kwargs)
        client.raise_request_exception = False
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = lang
        return client

    return make


def assert_page(response, status: int, lang: str) -> str:  # type: ignore[no-untyped-def]
    """A whole page in the layout: status, language, top bar with home link and language switch."""
    assert response.status_code == status
    body = response.content.decode()
    assert body.lstrip().startswith("<!doctype html>")
    assert f'<html lang="{lang}">' in body
    assert response["Content-Language"] == lang
    assert '<header class="topbar">' in body
    assert '<a class="brand" href="/">Spielleitung</a>' in body
    assert f'action="{reverse("set_language")}"' in body
    assert 'class="card error-page"' in body
    assert '<main id="main">' in body
    assert "HX-Request" in response["Vary"]
    return body


def assert_fragment(response, status: int) -> str:  # type: ignore[no-untyped-def]
    """Just the alert, for htmx to show in place."""
    assert response.status_code == status
    body = response.content.decode().strip()
    assert body.startswith(ALERT_START)
    assert body.endswith("</div>")
    assert body.count("<div") == 1
    assert "<html" not in body
    assert "topbar" not in body
    return body


def h1(body: str) -> str:
    match = re.search(r"<h1>(.*?)</h1>", body, re.S)
    assert match
    return match.group(1).strip()


class TestWiring:
    def test_handlers_and_csrf_view_are_set(self):
        assert site_urls.handler400 is views.bad_request
        assert site_urls.handler403 is views.permission_denied
        assert site_urls.handler404 is views.page_not_found
        assert site_urls.handler500 is views.server_error
        assert django_settings.CSRF_FAILURE_VIEW == "config.views.csrf_failure"

    def test_url_checks_accept_the_handlers(self, settings):
        settings.ROOT_URLCONF = "config.urls"
        assert run_checks(tags=["urls"]) == []


class TestNotFound:
    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_page_in_each_language(self, client_in, lang):
        body = assert_page(client_in(lang).get("/no-such-page/"), 404, lang)
        assert '<a class="btn btn-secondary" href="/">' in body
        if lang == "en":
            assert h1(body) == "Not found"
            assert "This page does not exist." in body
            assert "Check the address, or go back to your tournaments." in body

    def test_accept_language_works_too(self, client):
        response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="it")
        assert_page(response, 404, "it")

    def test_logged_in_user_keeps_name_and_log_out(self, client, make_user):
        client.force_login(make_user("tablet-7"))
        body = assert_page(client.get("/no-such-page/"), 404, "en")
        assert "tablet-7" in body
        assert f'action="{reverse("logout")}"' in body

    def test_back_link_only_to_this_site(self, client):
        body = client.get("/no-such-page/", HTTP_REFERER="http://testserver/t/1/desk/").content.decode()
        assert 'href="http://testserver/t/1/desk/">Back<' in body
        body = client.get("/no-such-page/", HTTP_REFERER="https://evil.example/").content.decode()
        assert "evil.example" not in body

    def test_htmx_gets_the_alert(self, client):
        body = assert_fragment(client.get("/no-such-page/", HTTP_HX_REQUEST="true"), 404)
        assert "Not found" in body

    def test_boosted_htmx_gets_the_page(self, client):
        response = client.get("/no-such-page/", HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true")
        assert_page(response, 404, "en")


class TestForbidden:
    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_logged_in_user_without_the_role(self, client_in, tournament, staff_user, lang):
        referee = staff_user(tournament, enums.Role.REFEREE)
        client = client_in(lang)
        client.force_login(referee)
        desk = reverse("tournament:desk", args=[tournament.pk])
        body = assert_page(client.get(desk), 403, lang)
        assert referee.username in body  # top bar and the sentence saying who is logged in
        assert f'action="{reverse("logout")}"' in body
        assert f'value="/accounts/login/?next={desk}"' in body  # log in again, back here
        if lang == "en":
            assert h1(body) == "Not allowed"
            assert "Ask the organiser to give you a role." in body
            assert "My tournaments" in body
            assert "Log in with another account" in body

    def test_log_in_with_another_account_comes_back_here(self, client, tournament, staff_user):
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        desk = reverse("tournament:desk", args=[tournament.pk])
        body = client.get(desk).content.decode()
        next_value = re.search(r'name="next" value="(/accounts/login/[^"]*)"', body)
        assert next_value
        response = client.post(reverse("logout"), {"next": next_value.group(1)})
        assert response.status_code == 302
        assert response["Location"] == f"/accounts/login/?next={desk}"
        assert "_auth_user_id" not in client.session

    def test_anonymous_gets_a_log_in_link(self, client):
        body = assert_page(client.get("/__test__/forbidden/"), 403, "en")
        assert 'href="/accounts/login/?next=/__test__/forbidden/"' in body
        assert "You are not logged in." in body

    def test_htmx_gets_the_alert(self, client, tournament, staff_user):
        client.force_login(staff_user(tournament, enums.Role.REFEREE))
        response = client.post(reverse("tournament:draw", args=[tournament.pk]), {}, HTTP_HX_REQUEST="true")
        body = assert_fragment(response, 403)
        assert "Ask the organiser to give you a role." in body


class TestBadRequest:
    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_page_in_each_language_without_the_user(self, client_in, make_user, lang):
        client = client_in(lang)
        client.force_login(make_user("tablet-3"))
        body = assert_page(client.get("/__test__/bad/"), 400, lang)
        assert "tablet-3" not in body
        assert f'action="{reverse("logout")}"' not in body
        if lang == "en":
            assert h1(body) == "Bad request"
            assert "Reload the page and try again." in body

    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_disallowed_host(self, lang):
        client = Client(HTTP_HOST="evil.example")  # raise_request_exception stays on: a second error would raise here
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = lang
        body = assert_page(client.get("/"), 400, lang)
        assert "btn-secondary" not in body  # no link on the wrong host
        if lang == "en":
            assert "This server does not answer to the address you used." in body

    def test_disallowed_host_htmx(self):
        response = Client(HTTP_HOST="evil.example").post("/t/1/draw/", HTTP_HX_REQUEST="true")
        body = assert_fragment(response, 400)
        assert "the address the organiser gave you" in body

    def test_handler_never_asks_for_the_host(self):
        request = RequestFactory(HTTP_HOST="evil.example", HTTP_REFERER="http://evil.example/").get("/")
        with pytest.raises(DisallowedHost):
            request.get_host()
        response = views.bad_request(request, DisallowedHost("evil.example"))
        assert response.status_code == 400
        assert "This server does not answer to the address you used." in response.content.decode()

    def test_htmx_gets_the_alert(self, client):
        assert_fragment(client.get("/__test__/bad/", HTTP_HX_REQUEST="true"), 400)


class Untouchable:
    """Stands in for request.user and request.session: fails the test when the 500 page reads them."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the 500 page touched {name}")


class TestServerError:
    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_page_in_each_language(self, client_in, make_user, lang):
        client = client_in(lang)
        client.force_login(make_user("tablet-9"))
        body = assert_page(client.get("/__test__/boom/"), 500, lang)
        assert "tablet-9" not in body
        if lang == "en":
            assert h1(body) == "Server error"
            assert "Your last action may not have been saved" in body
            assert "tell the organiser" in body

    def test_no_database_queries_for_a_logged_in_user(self, client, make_user, django_assert_num_queries, settings):
        settings.MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
        client.force_login(make_user("tablet-5"))
        client.get("/__test__/message/")  # a message waiting in the session (read from the database)
        client.raise_request_exception = False
        with django_assert_num_queries(0):
            response = client.get("/__test__/boom/", HTTP_REFERER="http://testserver/t/1/desk/")
        body = assert_page(response, 500, "en")
        assert 'href="http://testserver/t/1/desk/">Back<' in body
        assert "user" not in response.context
        assert "messages" not in response.context
        # The message is still there for the next page.
        assert "A message for the next page" in client.get("/no-such-page/").content.decode()

    def test_handler_reads_neither_user_nor_session(self, django_assert_num_queries):
        request = RequestFactory().post("/t/1/draw/")
        request.user = Untouchable()  # type: ignore[assignment]
        request.session = Untouchable()  # type: ignore[assignment]
        with django_assert_num_queries(0):
            response = views.server_error(request)
        assert response.status_code == 500
        assert 'class="card error-page"' in response.content.decode()  # the page, not the fallback

    def test_broken_database_cursor(self, client, make_user, monkeypatch):
        client.force_login(make_user())
        client.raise_request_exception = False

        def broken(*args: object, **kwargs: object) -> None:
            raise OperationalError("server closed the connection unexpectedly")

        monkeypatch.setattr(CursorWrapper, "execute", broken)
        assert_page(client.get("/__test__/boom-db/"), 500, "en")

    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_fallback_when_the_template_fails(self, client_in, monkeypatch, lang):
        def broken(*args: object, **kwargs: object) -> None:
            raise OperationalError("and the template needs it too")

        monkeypatch.setattr(CursorWrapper, "execute", broken)
        monkeypatch.setattr(views.loader, "get_template", broken)
        response = client_in(lang).get("/__test__/boom-db/")
        assert response.status_code == 500
        body = response.content.decode()
        assert body.startswith("<!doctype html>")
        assert f'<html lang="{lang}">' in body
        assert '<a href="/">' in body
        if lang == "en":
            assert "<h1>Server error</h1>" in body
            assert "Your last action may not have been saved" in body

    def test_fallback_for_htmx(self, client, monkeypatch):
        def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("template engine down")

        monkeypatch.setattr(views.loader, "get_template", broken)
        client.raise_request_exception = False
        body = assert_fragment(client.get("/__test__/boom/", HTTP_HX_REQUEST="true"), 500)
        assert "Server error" in body

    def test_htmx_gets_the_alert(self, client):
        client.raise_request_exception = False
        body = assert_fragment(client.post("/__test__/boom/", HTTP_HX_REQUEST="true"), 500)
        assert "Your last action may not have been saved." in body


class TestCsrfFailure:
    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_page_in_each_language(self, client_in, make_user, lang):
        client = client_in(lang, enforce_csrf_checks=True)
        client.force_login(make_user("tablet-1"))
        response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
        body = assert_page(response, 403, lang)
        assert "tablet-1" in body
        if lang == "en":
            assert h1(body) == "Page expired"
            assert "open too long" in body
            assert "Nothing was saved." in body

    def test_back_to_the_form(self):
        client = Client(enforce_csrf_checks=True)
        response = client.post("/accounts/login/", {}, HTTP_REFERER="http://testserver/accounts/login/")
        body = assert_page(response, 403, "en")
        assert 'href="http://testserver/accounts/login/">Back to the page<' in body
        assert "You are not logged in now." in body

    def test_new_token_for_the_next_try(self):
        response = Client(enforce_csrf_checks=True).post("/accounts/login/", {})
        assert response.status_code == 403
        assert django_settings.CSRF_COOKIE_NAME in response.cookies
        assert 'name="csrfmiddlewaretoken"' in response.content.decode()  # the language switch works

    def test_htmx_gets_the_alert(self):
        response = Client(enforce_csrf_checks=True).post("/t/1/draw/", {}, HTTP_HX_REQUEST="true")
        body = assert_fragment(response, 403)
        assert "Reload the page and enter it again." in body
