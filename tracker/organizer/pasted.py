"""A line pasted from a spreadsheet, split into its cells (the roster and
the pairings pastes).

Cells are separated by tabs, semicolons or commas, one paste often mixing
them (a sheet's tabs, then a comma typed by hand). A spreadsheet saving or
copying as CSV quotes a cell that holds a separator or a quote ("Pérez,
Ana") and doubles a quote inside one; its quotes are not part of the cell
(a name pasted as "Luis Gil" was registered quotes and all, and "Luis Gil"
typed later was a second player). The csv module takes one separator per
file, so the cells are read here.
"""

from __future__ import annotations

import re

from tracker.rules.text import one_line

# One cell and the separator after it (none at the line's end): quoted, or
# any run without a separator. The spaces around a quoted cell are never a
# tab: a tab is a separator, and a sheet's empty cell between two tabs was
# swallowed (name, no faction, club registered the club as the faction).
_CELL = re.compile(r'[^\S\t]*(?:"((?:[^"]|"")*)"[^\S\t]*|([^\t;,]*))(?:([\t;,])|$)')


def pasted_cells(line: str) -> list[str]:
    """The cells of `line`, each on one line and without its quotes."""
    cells, position = [], 0
    while True:
        # Always a match: a bare cell runs to the next separator or the end.
        found = _CELL.match(line, position)
        quoted, bare, separator = found.groups()
        cells.append(one_line(quoted.replace('""', '"') if quoted is not None else bare))
        if separator is None:
            return cells
        position = found.end()
