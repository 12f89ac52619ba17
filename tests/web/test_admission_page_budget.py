"""Issue 22: page loads and static files share one budget of their own
(HTTP_THREADS + HTTP_PAGE_QUEUE in flight): a flood of static files from
many addresses fills it for page loads too, and never for taps."""

from __future__ import annotations

import asyncio

from tests.support import in_own_loop
from tracker.admission import PAGE, STATIC, TAP, Admission

from .test_admission import budgets


def test_static_files_in_flight_count_against_the_page_budget():
    async def scenario():
        admission = Admission(slots=1)
        settings = budgets()  # 1 thread + 4 queued, 3 per address
        waiting = [asyncio.create_task(admission.enter(STATIC, f"10.0.0.{n}")) for n in range(5)]
        await asyncio.sleep(0)
        assert admission.refuses(PAGE, "10.0.0.99", settings)
        assert admission.refuses(STATIC, "10.0.0.99", settings)
        assert not admission.refuses(TAP, "10.0.0.99", settings)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    in_own_loop(scenario)


def test_one_short_of_the_page_budget_a_page_load_waits_its_turn():
    async def scenario():
        admission = Admission(slots=1)
        settings = budgets()
        waiting = [asyncio.create_task(admission.enter(STATIC, f"10.0.0.{n}")) for n in range(4)]
        await asyncio.sleep(0)
        assert not admission.refuses(PAGE, "10.0.0.99", settings)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    in_own_loop(scenario)
