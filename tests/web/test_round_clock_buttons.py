"""The run page offers only what a round's clock can do now: Start before it
runs, Pause while it runs, Resume once paused, Call time until time is
called. A running clock offered Start and a paused one Pause, each tap
answered that the clock already was so, and nothing done. In the organizer's
language, through the run page's rendered forms."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_running import three_players

pytestmark = pytest.mark.django_db

LABELS = {
    "en": {"start": "Start the clock", "pause": "Pause the clock", "resume": "Resume the clock"},
    "es": {
        "start": "Poner en marcha el reloj",
        "pause": "Pausar el reloj",
        "resume": "Reanudar el reloj",
    },
}


def clock_buttons(html: str) -> dict[str, str]:
    """The round 1 clock's forms: the action each posts to -> its button."""
    soup = BeautifulSoup(html, "lxml")
    return {
        form["action"].rstrip("/").rsplit("/", 1)[-1]: " ".join(form.button.get_text().split())
        for form in soup.select("#round-1 form")
        if "/clock/" in form["action"]
    }


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_run_page_offers_only_what_the_clock_can_do_now(carol, lang):
    _event, org = three_players(carol)
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    words = LABELS[lang]
    assert clock_buttons(org.page()).keys() == {"start", "call"}
    assert clock_buttons(org.page())["start"] == words["start"]

    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    running = clock_buttons(org.page())
    assert running.keys() == {"pause", "call"} and running["pause"] == words["pause"]

    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    paused = clock_buttons(org.page())
    assert paused.keys() == {"start", "call"} and paused["start"] == words["resume"]

    # Resuming from the button the paused page renders runs the clock again.
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    assert clock_buttons(org.page()).keys() == {"pause", "call"}
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    assert clock_buttons(org.page()) == {}
