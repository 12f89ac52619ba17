"""Text a player or an organizer typed, as the other viewers are shown it."""

from __future__ import annotations

# Unicode's bidirectional embeddings, overrides and isolates (U+202A-U+202E,
# U+2066-U+2069). Nobody types them; pasted or posted in a name, one turns
# round what follows it on the opponent's screen: a trooper named
# "\u202eBolt" reads "tloB" and the rest of its log line backwards, and a
# name can be made to look like another trooper's. Left-to-right and
# right-to-left marks (U+200E, U+200F) stay: they only nudge punctuation.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
_DROPPED = dict.fromkeys(map(ord, BIDI_CONTROLS))


def one_line(value: object) -> str:
    """`value` as one line: its bidirectional controls dropped, its runs of
    spaces, tabs and line breaks made one space, no space at either end."""
    return " ".join(str(value or "").translate(_DROPPED).split())
