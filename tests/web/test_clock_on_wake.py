"""A phone asleep while the organizer paused (or resumed, or called) the
round clock missed that push: its page still counts down to the old end,
and would say "time is called" when it is not. Its socket's first frame on
waking (a connect, as after any sleep) carries the round clock as it is
now, in the phone's language, with its blocks, in one frame."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from bs4 import BeautifulSoup

from tests.web.test_round_clock_runs_out import a_round_of_two, socket_of, timers  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

PAUSED = {"en": "clock paused", "es": "reloj en pausa"}


def clock_in(html: str):
    return BeautifulSoup(html, "lxml").select_one("#round-clock")


async def test_a_phone_that_slept_through_a_pause_is_shown_it_on_waking(carol, timers):  # noqa: F811
    org, spanish, english = await sync_to_async(a_round_of_two)(carol)
    assert (await sync_to_async(org.submit)("/clock/start/", within="#round-1")).status_code == 302
    for phone in (spanish, english):
        await sync_to_async(phone.open)()  # the page: the clock running
        assert clock_in(phone.html).get("data-ends-at")
    # Both phones asleep (no socket) while the organizer pauses the clock.
    assert (await sync_to_async(org.submit)("/clock/pause/", within="#round-1")).status_code == 302

    for phone, language in ((spanish, "es"), (english, "en")):
        socket = socket_of(phone)
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_from(timeout=5)
        assert 'id="seq"' in first  # the blocks' frame, the clock within it
        clock = clock_in(first)
        assert clock is not None and clock.get("hx-swap-oob") == "true"
        assert PAUSED[language] in clock.get_text(" ")
        assert clock.get("data-ends-at") is None  # nothing counts down to the old end
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()
