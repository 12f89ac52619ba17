"""The garbage collector set for a server that keeps its renders (issue 18).

A served process holds a few hundred thousand objects for good (modules,
URL resolvers, templates, and the render cache's blocks, shapes and views),
and allocates many short-lived ones per action (the rules' states, query
objects). With CPython's default thresholds (700, 10, 10) a young collection
ran about every other action, and each full collection scanned every object
the process holds: about 60 ms, during which no request nor socket of the
process moves. On bench/serve_cpu.py (20 matches, 400 actions, `make bench`'s
driver) the collector took 0.38-0.41 s of the server's ~8.5 s of CPU with 3
full collections; set as below, 0.03-0.16 s and none.

- freeze(): what start-up made is moved out of the collector's generations,
  so no collection scans it again (nothing start-up made is ever freed).
- A young collection after 10,000 net allocations, not 700. Reference
  counting still frees almost everything at once; only cycles wait longer,
  and a young generation of 10,000 objects is a few MB at most.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 20)


def tune() -> None:
    """Call once the application is loaded, before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
