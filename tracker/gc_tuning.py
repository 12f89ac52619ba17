"""The garbage collector set for a server that keeps its renders (issue 18).

A served process holds a few hundred thousand objects for good (modules,
URL resolvers, templates, and the render cache's blocks, shapes and views),
and allocates many short-lived ones per action (the rules' states, query
objects). With CPython's default thresholds (700, 10, 10) a young collection
ran about every other action, and each full collection scanned every object
the process holds, during which no request nor socket of the process moves.
Measured on bench/serve_cpu.py (20 matches at a tap a second each, make
bench's driver), over 24 s of play: with the defaults the collector took
0.37-0.41 s of the server's 7.4-8.5 s of CPU, two of them full collections
of 100-115 ms each; set as below, 0.07 s and no full collection. In three
alternating runs of each, CPU per action 21.3 against 22.7 ms (medians; the
runs varied by a fifth) and p99 41-90 ms against 122-143 ms.

- freeze(), once the application is imported: what start-up made is moved
  out of the collector's generations, so no collection scans it again.
  Reference counting still frees it as ever; only a cycle among frozen
  objects is never collected. What is built later (the URL resolver on the
  first request, compiled templates, the render cache) is not frozen.
- A young collection after 10,000 net allocations, not 700. Reference
  counting still frees almost everything at once; only cycles wait longer,
  and a young generation of 10,000 objects is a few MB at most.

Measured on CPython 3.11: 3.13 changed the defaults and 3.14's incremental
collector reads the thresholds otherwise; measure again before moving.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 20)


def tune() -> None:
    """Call once the application is loaded, before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
