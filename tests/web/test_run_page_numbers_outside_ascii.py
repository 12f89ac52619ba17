"""A number the organizer's pages read from a query, a hidden field or a
pasted receipt was checked with str.isdigit(), which also takes "²" (and
any run of digits): int() refused it, a 500 with its traceback. The run
page's poll (?rounds=), Publish's round (a form from a page behind) and a
receipt's round, table or event number now read such text as no number:
the poll says nothing, Publish goes on as sent without one, the receipt's
line is refused by its line."""

from __future__ import annotations

import pytest

from tests.web.test_event_round_checks import all_lists_in, event_of, paste_receipts, publish
from tracker.models import EventRound

pytestmark = pytest.mark.django_db

NOT_NUMBERS = pytest.mark.parametrize(
    "sent", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"]
)


@pytest.fixture
def published(carol):
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=11)
    carol.raise_request_exception = False
    return event


@NOT_NUMBERS
def test_attack_the_poll_s_round_count(carol, published, sent):
    response = carol.get(f"/organizer/events/{published.pk}/run/live/", {"rounds": sent})
    assert response.status_code == 200
    assert "was published on another device" not in response.content.decode()


@NOT_NUMBERS
def test_attack_publish_s_round(carol, published, sent):
    response = carol.post(
        f"/organizer/events/{published.pk}/rounds/publish/",
        {"round": sent, "points_limit": 300, "rounds": 3, "minutes": 90},
    )
    assert response.status_code < 500
    assert EventRound.objects.filter(event=published).count() == 1


@NOT_NUMBERS
@pytest.mark.parametrize("line", ["{}, 1, 5, ABCD", "1, {}, 5, ABCD", "1, 1, {}, ABCD"])
def test_attack_a_receipt_s_numbers(carol, published, sent, line):
    response = paste_receipts(carol, published, line.format(sent))
    assert response.status_code == 400
    assert "Line 1:" in response.content.decode()
