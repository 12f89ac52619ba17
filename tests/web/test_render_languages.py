"""Each phone reads the match in its own language, though renders are kept
per process (rendering.viewer_blocks' cache) and rows are memoized
(tracker_tags' trooper rows and log lines): both are keyed by the language. Two players
never share a render (their seats differ), so only two phones of one viewer
in two languages reach that part of the keys: two spectators, here."""

import pytest

from .phone import Phone
from .phone_flows import ok, started, trooper_ids

pytestmark = pytest.mark.django_db


def seat_words(phone: Phone, letter: str) -> str:
    return phone.soup.select_one(f"#blk-seat_{letter}").get_text(" ", strip=True)


def test_a_spanish_spectator_after_an_english_one_reads_spanish():
    """The English spectator's page is rendered first and kept; the Spanish
    spectator, the same viewer (None) at the same seq, must be given a
    render of its own, every trooper row included, not the English one."""
    a, _b, _ids = started()
    ids = trooper_ids()
    ok(
        a,
        a.submit(
            "SetTrooperState", trooper_id=ids["Kaplan"], condition="normal", tokens=["isolated"]
        ),
    )
    english, spanish = Phone("en"), Phone("es")
    english.open(a.code)
    assert "Isolated" in seat_words(english, "A")
    spanish.open(a.code)
    words = seat_words(spanish, "A")
    assert "Aislado" in words, words
    assert "Isolated" not in words, words
    # The recent line's words too (tracker_tags.log_line's memo, which both
    # the log and the recent block read).
    recent = spanish.soup.select_one("#recent").get_text(" ", strip=True)
    assert "Kaplan ahora está Aislado." in recent, recent
    # And the English one is still read in English once the Spanish one is kept.
    english.open()
    assert "Isolated" in seat_words(english, "A")
