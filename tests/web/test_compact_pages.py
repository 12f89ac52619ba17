"""The pages lose the blank lines that template tags leave (uncompressed
HTML: docs/performance.md, "Compression and BREACH"), never a line of what a player typed:
inside <textarea> and <pre> the text stays as it came. They also lose the
end tags of their options, which HTML lets a page leave out: a browser reads
the same options."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tests.web.table import claim, create_match
from tracker.template_loaders import compact, squeeze_breaks

pytestmark = pytest.mark.django_db


def test_runs_of_line_breaks_become_one_outside_raw_elements():
    html = "<section>\n\n\n<p>a</p>\n\n<textarea>x\n\n\ny</textarea>\n\n<pre>1\n\n2</pre>\n\n</section>"
    assert squeeze_breaks(html) == (
        "<section>\n<p>a</p>\n<textarea>x\n\n\ny</textarea>\n<pre>1\n\n2</pre>\n</section>"
    )
    assert squeeze_breaks("<p>a</p>\n<p>b</p>") == "<p>a</p>\n<p>b</p>"


def test_option_end_tags_are_left_out_of_templates_outside_raw_elements():
    source = (
        '<select name="x">\n  <optgroup label="G">{% for v in vs %}<option value="{{ v }}">{{ v }}'
        "</option>{% endfor %}</optgroup>\n"
        "</select>\n<pre>a</option></optgroup></pre>\n"
        "{% blocktranslate %}Keep </option> as the key{% endblocktranslate %}"
    )
    assert compact(source) == (
        '<select name="x">\n<optgroup label="G">{% for v in vs %}<option value="{{ v }}">{{ v }}'
        "{% endfor %}\n"
        "</select>\n<pre>a</option></optgroup></pre>\n"
        "{% blocktranslate %}Keep </option> as the key{% endblocktranslate %}"
    )


def test_a_player_page_offers_its_options_without_end_tags_as_a_browser_reads_them(alice):
    """The State form's conditions, read as a browser reads the page: each
    option its own label, none nested in the one before."""
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    html = alice.get(f"/m/{match.code}/").content.decode()
    assert "<option" in html and "</option>" not in html and "</optgroup>" not in html
    options = BeautifulSoup(html, "lxml").select('dialog#state select[name="condition"] option')
    assert [(o["value"], o.get_text()) for o in options] == [
        ("normal", "Normal"),
        ("unconscious", "Unconscious"),
        ("dead", "Dead"),
        ("sepsitorized", "Sepsitorized"),
    ]


def test_the_match_page_has_no_blank_lines_in_its_blocks(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    html = alice.get(f"/m/{match.code}/").content.decode()
    blocks = re.findall(r'<section data-h="[^"]+" id="blk-[^"]+".*?</section>', html, re.S)
    assert len(blocks) == 6
    assert [b[:60] for b in blocks if "\n\n" in b] == []


def test_a_pasted_list_comes_back_with_its_blank_lines(alice):
    """A paste that imports nothing is shown again in its box, as typed."""
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    text = "Haqqislam\n\n\n6 SWC | 272 Points\n\nOpen with Army…"
    page = alice.get(f"/m/{match.code}/").content.decode()
    response = submit(alice, page, "/draft/import/", text=text)
    soup = BeautifulSoup(response.content.decode(), "lxml")
    assert soup.select_one("textarea[name=text]").string.strip("\n") == text
