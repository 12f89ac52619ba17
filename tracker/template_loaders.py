"""Our HTML templates as they are rendered: each run of whitespace that holds
a line break, in the template's own text, becomes one line break.

The templates stay indented for reading; the pages lose the indentation and
the blank lines that `{% if %}` lines leave (a few KB on a match page, which
goes uncompressed on purpose: docs/performance.md, "Compression and BREACH"). A browser
shows the same page: outside <pre>, <textarea>, <script> and <style> such a
run renders as one space, or nothing, exactly like a line break alone. Left
as written: those four elements, the text of {% blocktranslate %} (it is the
translation's key), and everything inside {% %}, {{ }} and {# #}.

They also lose every `</option>` and `</optgroup>`, end tags HTML lets a
page leave out (an option ends where the next option, its optgroup or its
select does; an optgroup where the next optgroup or its select does), as
every browser parses them: nine bytes an option, and a player's page with
25-trooper lists offers some 200 (issue 18: the first load). The tests
parse pages as browsers do (lxml, not html.parser, which would nest each
option in the one before).
"""

from __future__ import annotations

import re

from django.template.base import tag_re
from django.template.loaders import filesystem

_BREAK_RUN = re.compile(r"[ \t\r\f\v]*\n\s*")
_RAW_ELEMENT = re.compile(r"<(/?)(pre|textarea|script|style)\b[^>]*>", re.I)
_BLOCKTRANSLATE = re.compile(r"{%\s*(end)?blocktrans(?:late)?\b")


def compact(source: str) -> str:
    out: list[str] = []
    raw = [0]  # how deep inside <pre>, <textarea>, <script> or <style>
    translating = False
    position = 0
    for tag in tag_re.finditer(source):
        out.append(_text(source[position : tag.start()], translating, raw))
        found = _BLOCKTRANSLATE.match(tag.group())
        if found:
            translating = not found.group(1)
        out.append(tag.group())
        position = tag.end()
    out.append(_text(source[position:], translating, raw))
    return "".join(out)


def _text(text: str, translating: bool, raw: list[int]) -> str:
    """One stretch of template text between tags, compacted; raw[0] carries
    the depth in whitespace-keeping elements from one stretch to the next."""
    if translating:
        return text
    return _outside_raw(text, raw, _squeezed)


_OPTIONAL_END = re.compile("</(?:option|optgroup)>")


def _squeezed(piece: str) -> str:
    return _BREAK_RUN.sub("\n", _OPTIONAL_END.sub("", piece))


def _outside_raw(text: str, raw: list[int], squeeze) -> str:
    """`text` with `squeeze` applied to what stands outside <pre>,
    <textarea>, <script> and <style>; raw[0]: the depth in them on entry,
    and on return."""
    pieces = []
    position = 0
    for element in _RAW_ELEMENT.finditer(text):
        piece = text[position : element.start()]
        pieces += [piece if raw[0] else squeeze(piece), element.group()]
        raw[0] = max(0, raw[0] + (-1 if element.group(1) else 1))
        position = element.end()
    piece = text[position:]
    pieces.append(piece if raw[0] else squeeze(piece))
    return "".join(pieces)


_BREAKS = re.compile(r"\n{2,}")


def squeeze_breaks(html: str) -> str:
    """Rendered HTML with each run of line breaks as one, outside <pre>,
    <textarea>, <script> and <style>: the blank lines that `{% if %}` lines
    next to each other leave once their tags are gone, which compact() cannot
    see in the template (a run of breaks renders as one space, or nothing,
    as one break does). A player's text is escaped, so every "<" here is a
    tag of ours."""
    if "\n\n" not in html:
        return html
    return _outside_raw(html, [0], lambda piece: _BREAKS.sub("\n", piece))


class Loader(filesystem.Loader):
    """The filesystem loader (the project's templates/), HTML compacted."""

    def get_contents(self, origin) -> str:
        contents = super().get_contents(origin)
        return compact(contents) if origin.name.endswith(".html") else contents
