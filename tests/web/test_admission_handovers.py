"""Issue 22, tracker/admission.py: how a freed thread is handed on. A thread
a tap frees is not given to a page load past the page loads' own threads; a
request handed a thread just as it went away gives the thread back; one
that went away while waiting is skipped, and the next in line is served."""

from __future__ import annotations

import asyncio

from tests.support import in_own_loop
from tracker.admission import PAGE, TAP, Admission


def test_a_thread_a_tap_frees_is_not_given_to_a_page_load_past_its_threads():
    async def scenario():
        admission = Admission(slots=2, get_slots=1)
        await admission.enter(PAGE, "flood")
        await admission.enter(TAP, "alice")
        second = asyncio.create_task(admission.enter(PAGE, "flood"))
        await asyncio.sleep(0)
        admission.leave(TAP, "alice")
        for _ in range(3):
            await asyncio.sleep(0)
        assert not second.done() and admission.running_gets == 1
        admission.leave(PAGE, "flood")
        await asyncio.wait_for(second, 1)
        admission.leave(PAGE, "flood")
        assert admission.running == 0 and admission.running_gets == 0

    in_own_loop(scenario)


def test_a_request_given_a_thread_as_it_goes_away_gives_the_thread_back():
    async def scenario():
        admission = Admission(slots=1)
        await admission.enter(PAGE, "a")
        gone = asyncio.create_task(admission.enter(PAGE, "b"))
        await asyncio.sleep(0)
        admission.leave(PAGE, "a")  # b is handed the thread...
        gone.cancel()  # ...and goes away before it runs
        await asyncio.gather(gone, return_exceptions=True)
        assert admission.running == 0 and admission.running_gets == 0
        await asyncio.wait_for(admission.enter(PAGE, "c"), 1)  # at once
        admission.leave(PAGE, "c")
        assert admission.in_flight[PAGE] == 0 and admission.by_client == {}

    in_own_loop(scenario)


def test_a_request_that_went_away_in_the_same_turn_is_skipped_for_the_next():
    async def scenario():
        admission = Admission(slots=1)
        await admission.enter(TAP, "a")
        gone = asyncio.create_task(admission.enter(TAP, "b"))
        waiting = asyncio.create_task(admission.enter(TAP, "c"))
        await asyncio.sleep(0)
        gone.cancel()  # its future is cancelled now; its task has not run yet
        admission.leave(TAP, "a")
        await asyncio.wait_for(waiting, 1)
        await asyncio.gather(gone, return_exceptions=True)
        assert admission.running == 1 and admission.in_flight[TAP] == 1
        admission.leave(TAP, "c")
        assert admission.running == 0

    in_own_loop(scenario)
