"""An event match's header names two rounds: the tournament's, in its title
("Round 3 · Table 2"), and the match's own Game Round, on the phase line.
Both read "Round" ("Round 3 · Table 2" over "In play · Round 1 of 3"): one
count that seemed to disagree with itself. The phase line now says "Game
Round 1 of 3" (N4's word, as the new-match form and the log say it), and
leaves "In play" unsaid where the Game Round and its phase say it (and a
finished match's last phase). Before, on a 360 px phone, the title and
the phase line took one line each, in both languages, whatever the phase
and up to Game Round 6 of 6: they still do."""

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from tracker.labels import label

from .pages import open_phone, playing

pytestmark = pytest.mark.browser

NARROW = {"viewport": {"width": 360, "height": 740}}
# The lines an element's text takes: its line boxes' distinct tops.
LINES_OF = """n => {
  const range = document.createRange();
  range.selectNodeContents(n);
  const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => r.top);
  tops.sort((a, b) => a - b);
  const half = parseFloat(getComputedStyle(n).fontSize) / 2;
  return tops.filter((top, i) => i === 0 || top - tops[i - 1] > half).length;
}"""
# How many lines each took before, measured on the old words.
LINES_BEFORE = {"h1": 1, "p.phase": 1}
HEADER = {
    "en": ("Live game · Round 3 · Table 2", "Game Round 1 of 3 · Tactical Phase"),
    "es": ("Live game · Ronda 3 · Mesa 2", "Ronda de Juego 1 de 3 · Fase Táctica"),
}


def longest_phase_lines(lang: str) -> list[str]:
    """The phase line's every wording, at its widest (6 of 6 Game Rounds), as
    the header's template words it."""
    with translation.override(lang):
        rounds = gettext("Game Round %(round)s of %(rounds)s") % {"round": 6, "rounds": 6}
        playing = [
            f"<strong>{rounds}</strong> · {label(phase)}"
            for phase in ("tactical", "impetuous", "orders", "states")
        ]
        return [*playing, f"<strong>{label('finished')}</strong> · {rounds}"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_game_round_and_the_events_round_read_apart_on_one_line_each(server, phone, lang):
    alice, _bob, _ids = playing(server.url)
    server.shell(
        "from tracker.models import Match, TournamentEvent;"
        "event = TournamentEvent.objects.create(name='Liga');"
        f"Match.objects.filter(code='{alice.code}')"
        ".update(event=event, event_round=3, table_number=2)"
    )
    page = open_phone(phone, alice, server.url, lang, **NARROW)
    title, phase = HEADER[lang]
    expect(page.locator("#blk-header h1")).to_have_text(title)
    expect(page.locator("#blk-header p.phase")).to_have_text(phase)
    for selector, before in LINES_BEFORE.items():
        lines = page.locator(f"#blk-header {selector}").evaluate(LINES_OF)
        assert lines <= before, f"{selector} takes {lines} lines on a 360 px phone"
    # Every other wording of the phase line, in the same place.
    line = page.locator("#blk-header p.phase")
    for html in longest_phase_lines(lang):
        line.evaluate("(n, html) => { n.innerHTML = html; }", html)
        lines = line.evaluate(LINES_OF)
        assert lines <= LINES_BEFORE["p.phase"], f"{html!r} takes {lines} lines"
