"""Issue 22: page loads and static files take turns for the threads
(tracker/admission.py). A static file served while no page load waited
does not use up the page loads' turn: the next page load goes before the
next static file."""

from __future__ import annotations

import asyncio

from tests.support import in_own_loop
from tracker.admission import PAGE, STATIC, TAP, Admission


def test_a_static_file_served_alone_leaves_the_next_turn_to_a_page_load():
    async def scenario():
        admission = Admission(slots=1)
        served: list[str] = []
        await admission.enter(PAGE, "first")

        async def request(kind: str, address: str, done: asyncio.Event | None = None) -> None:
            await admission.enter(kind, address)
            served.append(kind)
            if done is not None:
                await done.wait()
            await asyncio.sleep(0)
            admission.leave(kind, address)

        # Only a static file waits: it is served, though it was the pages' turn.
        release = asyncio.Event()
        alone = asyncio.create_task(request(STATIC, "a", release))
        await asyncio.sleep(0)
        admission.leave(PAGE, "first")
        await asyncio.sleep(0)
        assert served == [STATIC]
        # While it holds the thread, a static file then a page load queue up.
        later = [asyncio.create_task(request(STATIC, "b"))]
        await asyncio.sleep(0)
        later.append(asyncio.create_task(request(PAGE, "c")))
        await asyncio.sleep(0)
        assert admission.lines[STATIC].size == 1 and admission.lines[PAGE].size == 1
        release.set()
        await asyncio.gather(alone, *later)
        assert served == [STATIC, PAGE, STATIC]
        assert admission.running == 0 and admission.in_flight == {TAP: 0, PAGE: 0, STATIC: 0}

    in_own_loop(scenario)
