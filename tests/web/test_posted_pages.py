"""Which answers to a POST app.js may put in history as a GET of their
address (base.html's data-posted): only those whose address answers GET too
(a seat link's claim or PIN form); an address that takes only POST would
answer that GET with a 405 (a new match's form with its errors). Through
the forms the pages render."""

import pytest
from django.test import Client

from tests.web.rendered_forms import submit
from tests.web.table import claim, create_match

pytestmark = pytest.mark.django_db


def marked(response) -> bool:
    body = response.content.decode()
    return "<body " in body and "data-posted" in body.split("<body ", 1)[1].split(">", 1)[0]


def test_a_wrong_pin_answer_is_marked_for_back_to_load_the_seat_link(client):
    match = create_match(client)
    claim(client, match, "A", "Alice", pin="246813")
    link = f"/m/{match.code}/s/{match.seats.get(letter='A').token}/"
    new_phone = Client()
    page = new_phone.get(link)
    assert page.status_code == 200 and not marked(page)
    answer = submit(new_phone, page.content.decode(), link, htmx=False, at=link, pin="135791")
    assert answer.status_code == 403 and marked(answer)
    assert new_phone.get(link).status_code == 200  # what Back then loads


def test_a_new_match_form_with_errors_is_not_marked(client):
    home = client.get("/")
    answer = submit(client, home.content.decode(), "/new/", htmx=False, name="")
    assert answer.status_code == 400 and not marked(answer)
    assert client.get("/new/").status_code == 405  # why it must not be
