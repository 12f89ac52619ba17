"""Every refusal and error page is ours, in the phone's language (issue 22):
404 (an unknown match code), 403, 400, 500 and a CSRF failure render
templates/tracker/error.html, the app's message card, with DEBUG off, and
never Django's bare English pages or a traceback. And a create-match form
larger than the upload cap gets the form back with the reason."""

from __future__ import annotations

import gettext
import sys
import types

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import User
from django.test import Client
from django.urls import clear_url_caches, path

from tracker.models import Match

from .test_i18n import LOCALE

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "es"]


def spanish(msgid: str) -> str:
    with open(LOCALE / "django.mo", "rb") as handle:
        return gettext.GNUTranslations(handle).gettext(msgid)


def in_language(msgid: str, language: str) -> str:
    return spanish(msgid) if language == "es" else msgid


def phone(language: str, **kwargs) -> Client:
    """A phone whose browser asks for `language` (no cookie: Accept-Language
    alone, as a first visit does)."""
    return Client(HTTP_ACCEPT_LANGUAGE=language, **kwargs)


def card(response) -> tuple[str, str, str]:
    """The error page's language, title and message, from its card."""
    soup = BeautifulSoup(response.content.decode(), "lxml")
    found = soup.select_one(".card.error-page")
    assert found is not None, response.content.decode()[:500]
    return soup.html["lang"], found.h1.get_text(strip=True), found.p.get_text(strip=True)


@pytest.fixture(autouse=True)
def _debug_off(settings):
    settings.DEBUG = False


def assert_page(response, status: int, title: str, message: str, language: str):
    assert response.status_code == status
    assert card(response) == (
        language,
        in_language(title, language),
        in_language(message, language),
    )
    body = response.content.decode()
    assert "Traceback" not in body
    for django_default in ("Not Found", "Bad Request", "Forbidden", "Server Error"):
        assert f"<h1>{django_default}" not in body
    if language == "es":
        assert spanish(title) != title  # the catalogue does translate it


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_match_code_is_our_404_in_the_phones_language(language):
    """Issue 22: a Spanish phone got Django's English "Not Found"."""
    for url in ("/m/NOPE42/", "/m/NOPE42/host/", "/no/such/page/"):
        assert_page(
            phone(language).get(url),
            404,
            "Page not found",
            "There is no match with this code, or no such page. Check the link or the code.",
            language,
        )


EVENT_404 = ("Event not found", "There is no event with this number. Check the link.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_event_is_our_404_about_an_event_not_a_match(language):
    """/e/999/ said "no match with this code": it is an event that is missing."""
    assert_page(phone(language).get("/e/999/"), 404, *EVENT_404, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_organizer_opening_an_unknown_event_gets_the_event_404(carol, language):
    carol.cookies["django_language"] = language
    for url in ("/organizer/events/999/", "/organizer/events/999/run/"):
        assert_page(carol.get(url), 404, *EVENT_404, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_language_cookie_chooses_the_404s_language(language):
    client = phone("en" if language == "es" else "es")
    client.cookies["django_language"] = language
    assert card(client.get("/m/NOPE42/"))[0] == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_non_organizer_gets_our_403(language):
    User.objects.create_user("dave", password="not-an-organizer-2026")
    client = phone(language)
    client.login(username="dave", password="not-an-organizer-2026")
    assert_page(
        client.get("/organizer/"),
        403,
        "Not allowed",
        "This page is not open to you. If it is your seat, open your seat's link again.",
        language,
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_csrf_failure_is_our_403(language):
    client = phone(language, enforce_csrf_checks=True)
    response = client.post("/new/", {"name": "No token", "points_limit": 300, "rounds": 3})
    assert_page(
        response,
        403,
        "This form has expired",
        "The page was open too long or the browser refused its cookie. Reload the page "
        "and send the form again.",
        language,
    )
    assert Match.objects.count() == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_request_django_refuses_is_our_400(language):
    """A Host header not in ALLOWED_HOSTS: Django raises DisallowedHost."""
    assert_page(
        phone(language, HTTP_HOST="evil.example").get("/"),
        400,
        "This request could not be read",
        "The page sent something the tracker cannot read. Go back, reload the page and try again.",
        language,
    )


def _broken(request):
    raise RuntimeError("a bug, deliberately")


@pytest.fixture
def urls_with_a_bug(settings):
    """tracker.urls (its error handlers included) plus one view that raises."""
    import tracker.urls

    module = types.ModuleType("tests_urls_with_a_bug")
    module.__dict__.update({k: v for k, v in vars(tracker.urls).items() if k.startswith("handler")})
    module.urlpatterns = [path("broken/", _broken), *tracker.urls.urlpatterns]
    sys.modules[module.__name__] = module
    settings.ROOT_URLCONF = module.__name__
    clear_url_caches()
    yield
    del sys.modules[module.__name__]
    clear_url_caches()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_server_error_is_our_500(language, urls_with_a_bug):
    response = phone(language, raise_request_exception=False).get("/broken/")
    assert_page(
        response,
        500,
        "Something went wrong",
        "The tracker could not answer this request. Wait a moment and try again.",
        language,
    )
    assert "deliberately" not in response.content.decode()


def test_the_500_page_survives_a_broken_template():
    """If even the page fails (the database behind the session is gone), the
    same words go out as plain HTML."""
    from unittest import mock

    from django.test import RequestFactory
    from django.utils import translation

    from tracker import errors

    with translation.override("es"), mock.patch.object(errors, "render", side_effect=OSError):
        response = errors.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert spanish("Something went wrong") in response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_500_whose_own_page_fails_shows_the_words_and_nothing_of_either_failure(
    language, urls_with_a_bug
):
    """A view raises and the 500 page cannot render either (the database
    behind the session is gone): the plain page says the same words in the
    phone's language, and nothing of the view's error nor of the page's."""
    from unittest import mock

    from tracker import errors

    gone = OSError("could not connect to db.internal:5432 as tracker, password hunter2")
    with mock.patch.object(errors, "render", side_effect=gone):
        response = phone(language, raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    soup = BeautifulSoup(response.content.decode(), "lxml")
    assert soup.html["lang"] == language  # a screen reader reads it in that language
    assert soup.h1.get_text(strip=True) == in_language("Something went wrong", language)
    assert soup.p.get_text(strip=True) == in_language(
        "The tracker could not answer this request. Wait a moment and try again.", language
    )
    shown = soup.get_text()
    for leak in ("deliberately", "RuntimeError", "hunter2", "db.internal", "OSError", "Traceback"):
        assert leak not in shown


# ------------------------------------------------ a body over the upload cap


@pytest.mark.parametrize("strict", [False, True], ids=["plain", "csrf-enforced"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_create_match_form_over_the_upload_cap_shows_the_form_again(language, strict, settings):
    """Issue 22: `make test` found it by chance (test_fuzz_inputs): a name
    larger than DATA_UPLOAD_MAX_MEMORY_SIZE got Django's bare English "Bad
    Request (400)", no form and no message. With CSRF enforced, as for a
    browser, the CSRF check is what first reads the body: the same page."""
    client = phone(language, enforce_csrf_checks=strict)
    home = client.get("/")
    assert home.status_code == 200
    form = BeautifulSoup(home.content.decode(), "lxml").select_one("form[action='/new/']")
    token = form.select_one("[name=csrfmiddlewaretoken]")["value"]
    name = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(
        "/new/",
        {"csrfmiddlewaretoken": token, "name": name, "points_limit": "300", "rounds": "3"},
    )
    assert response.status_code == 400
    soup = BeautifulSoup(response.content.decode(), "lxml")
    assert soup.html["lang"] == language
    refusal = soup.select_one("form .errorlist.nonfield").get_text(" ", strip=True)
    expected = in_language(
        "What this page sent is larger than the tracker reads (%(size)s KB at most), so "
        "nothing of it was saved. Fill the form in again with shorter text.",
        language,
    ) % {"size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024}
    assert refusal == expected
    # The form is there again, as the home page renders it.
    form = soup.select_one("form[action='/new/']")
    assert {e["name"] for e in form.select("input[name]")} >= {"name", "points_limit", "rounds"}
    assert Match.objects.count() == 0


def test_any_other_page_over_the_upload_cap_says_so_on_our_card(settings):
    client = phone("es")
    response = client.post("/i18n/setlang/", {"language": "x" * 300_000})
    assert response.status_code == 400
    language, title, message = card(response)
    assert (language, title) == ("es", spanish("Too large to read"))
    assert "256" in message


def test_the_real_server_answers_a_spanish_404_and_an_over_cap_form(tmp_path):
    """The same through `manage.py serve` (what `make run` starts, DEBUG off),
    with a browser's CSRF cookie and token."""
    import re

    from tests.scale.servers import Browser, LiveServer, manage, server_env

    env = server_env(tmp_path)
    manage(env, "migrate", "--noinput", "-v0")
    server = LiveServer(env=env, log=tmp_path / "server.log", make_run=True).start()
    try:
        client = Browser(server.url)
        missing = client.request("GET", "/m/NOPE42/", headers={"Accept-Language": "es"})
        assert missing.status == 404
        assert spanish("Page not found") in missing.body and 'lang="es"' in missing.body
        home = client.get("/", headers={"Accept-Language": "es"})
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', home.body).group(1)
        big = client.request(
            "POST",
            "/new/",
            data={"csrfmiddlewaretoken": token, "name": "x" * 300_000, "points_limit": "300"},
            headers={"Accept-Language": "es", "Origin": server.url, "Referer": server.url + "/"},
        )
        assert big.status in (400, 413), big.status
        if big.status == 400:  # a server that refuses by Content-Length answers 413 first
            assert (
                'class="errorlist nonfield error" role="alert"' in big.body
                and 'lang="es"' in big.body
            )
        assert "Traceback" not in server.log_text()
    finally:
        server.stop()


NOT_OPENED = (
    "This address takes the app's forms and buttons; it is not opened directly. "
    "Go back to the page and use its buttons."
)


def a_match_code() -> str:
    from .phone import Phone

    host = Phone()
    host.create_match()
    return host.code


@pytest.mark.parametrize("language", LANGUAGES)
def test_opening_an_action_address_is_our_405_in_the_phones_language(language):
    """A GET of /m/<code>/act/DeclareSkill/ was a blank page: it is our card,
    status 405 with its Allow header, in the phone's language."""
    code = a_match_code()
    for url in (f"/m/{code}/act/DeclareSkill/", f"/m/{code}/draft/add/"):
        response = phone(language).get(url)
        assert_page(
            response,
            405,
            "Not available this way",
            NOT_OPENED,
            language,
        )
        assert response["Allow"] == "POST"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_405_to_htmx_is_a_short_fragment_in_the_phones_language(language):
    code = a_match_code()
    response = phone(language).get(f"/m/{code}/act/DeclareSkill/", HTTP_HX_REQUEST="true")
    assert response.status_code == 405 and response["Allow"] == "POST"
    found = BeautifulSoup(response.content.decode(), "lxml").select_one("p.error")
    assert found is not None and found["role"] == "alert"
    assert found.get_text() == in_language(
        NOT_OPENED,
        language,
    )
    assert "<html" not in response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_post_to_a_page_that_is_only_read_is_our_405(language):
    """/e/<pk>/ answers GET only (require_GET): a POST gets the card too."""
    response = phone(language).post("/e/1/")
    assert_page(
        response,
        405,
        "Not available this way",
        "This page does not take that request. Reload it and try again.",
        language,
    )
    assert response["Allow"] == "GET"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("method", ["PUT", "DELETE", "BREW"])
def test_a_method_no_address_takes_is_our_405_not_an_expired_form(language, method):
    """A raw client's PUT or made-up method was answered "This form has
    expired" (the CSRF check's page): untrue, as no form was sent. It is
    the 405 card, in the phone's language, naming what the app does take."""
    code = a_match_code()
    for url in (f"/m/{code}/", f"/m/{code}/act/DeclareSkill/", "/"):
        response = phone(language).generic(method, url)
        assert_page(
            response,
            405,
            "Not available this way",
            "This page does not take that request. Reload it and try again.",
            language,
        )
        assert response["Allow"] == "GET, HEAD, POST"
