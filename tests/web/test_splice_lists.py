"""A listed block (the log, the recent lines: rendering.LISTS) kept from the
previous render is spliced with the lines the view has now
(rendering._splice_list): a line kept with the same input is reused, a new
one rendered, and one the view no longer has is dropped, even when nothing
new came in (the render kept for a viewer may be of a later seq than the
one asked for: the lines it shows past that seq must not be served for it)."""

from __future__ import annotations

from tracker import rendering


def listed(lines) -> str:
    parts = tuple(
        (f"log-{n}", ("log", n, text), f'<li id="log-{n}">{text}</li>') for n, text in lines
    )
    skeleton = f'<section id="blk-log"><ol id="log-list">{rendering.PLACEHOLDER}</ol></section>'
    return rendering._finish(rendering.Shape(skeleton, parts, listed="log-list"))


def fresh(lines) -> dict:
    return {
        f"log-{n}": (("log", n, text), lambda n=n, text=text: f'<li id="log-{n}">{text}</li>')
        for n, text in lines
    }


def splice(html: str, fresh: dict) -> str:
    """The block as the next render of its viewer splices it (rendering._splice)."""
    return rendering._splice(html, rendering.shape_of(html), fresh)[0]


def test_a_line_the_view_no_longer_has_is_dropped_with_nothing_new():
    shown = listed([(3, "c"), (2, "b"), (1, "a")])
    spliced = splice(shown, fresh([(2, "b"), (1, "a")]))
    assert 'id="log-3"' not in spliced
    assert '<ol id="log-list"><li id="log-2">b</li><li id="log-1">a</li></ol>' in spliced
    # The same lines in the same order: the very block, not a new one.
    assert splice(shown, fresh([(3, "c"), (2, "b"), (1, "a")])) == shown


def test_lines_in_another_order_are_spliced_in_that_order():
    shown = listed([(3, "c"), (2, "b")])
    spliced = splice(shown, fresh([(2, "b"), (3, "c")]))
    assert '<ol id="log-list"><li id="log-2">b</li><li id="log-3">c</li></ol>' in spliced
