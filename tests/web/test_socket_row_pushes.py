"""Issue 18 over the socket: a push sends a block that changed in its
trooper rows only as those rows, swapped by their ids, against what this
socket sent last (consumers.MatchConsumer._push: changed_frame with the
socket's own `shown`); the log's new line goes at the top of its list. The
opponent's State tap on one trooper reaches the other phone as that
trooper's row, not as the whole seat block around it (which would wipe the
block the phone shows for one badge)."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from bs4 import BeautifulSoup

from tests.web.test_render_once import drain, socket_of

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_state_tap_reaches_the_opponents_socket_as_that_trooper_row():
    from tests.web.phone_flows import started

    a, b, _ids = await sync_to_async(started)()
    kaplan = await sync_to_async(a.trooper_id)("Kaplan")
    socket = socket_of(b)
    assert (await socket.connect())[0]
    await drain(socket)  # the first frame: every block the phone lacks

    def prone() -> None:
        a.open()
        a.submit("SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"])
        assert a.error is None

    await sync_to_async(prone)()
    frame = "".join(await drain(socket))
    # Kaplan's row alone, swapped by its id, with the seat block's new digest.
    assert 'id="blk-seat_A"' not in frame
    assert re.search(r'data-blocks="[^"]*seat_A:[0-9a-f]{16}', frame)
    soup = BeautifulSoup(frame, "lxml")
    row = soup.select_one(f"#trooper-{kaplan}")
    assert row is not None and row.get("hx-swap-oob") == "true"
    assert "Prone" in [badge.get_text() for badge in row.select(".badge")]
    # The log's new line goes at the top of its list, not as the log block.
    assert 'id="blk-log"' not in frame
    assert soup.select_one('ol[hx-swap-oob="afterbegin:#log-list"] li') is not None
    await socket.disconnect()
