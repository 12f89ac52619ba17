"""Issue 22: who gets the next HTTP thread (tracker/admission.py). Taps go
first and have a budget of their own; page loads and static files take
turns; within a kind, addresses take turns."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from tests.support import in_own_loop
from tracker.admission import PAGE, STATIC, TAP, Admission, Shed


def budgets(**overrides):
    values = {
        "HTTP_THREADS": 1,
        "HTTP_QUEUE": 2,
        "HTTP_PAGE_QUEUE": 4,
        "HTTP_REQUESTS_PER_ADDRESS": 3,
    }
    return SimpleNamespace(**{**values, **overrides})


async def _order_of(arrivals: list[tuple[str, str]]) -> list[str]:
    """One thread, held by a first page load while `arrivals` (kind,
    address) queue up; the order in which they are then served."""
    admission = Admission(slots=1)
    served: list[str] = []
    await admission.enter(PAGE, "first")

    async def request(kind: str, address: str, name: str) -> None:
        await admission.enter(kind, address)
        served.append(name)
        await asyncio.sleep(0)
        admission.leave(kind, address)

    tasks = []
    for n, (kind, address) in enumerate(arrivals):
        tasks.append(asyncio.create_task(request(kind, address, f"{kind}:{address}:{n}")))
        await asyncio.sleep(0)  # arrival order
    admission.leave(PAGE, "first")
    # A request left waiting for ever (a turn never handed on) fails here,
    # not at pytest's ten-minute timeout: these run in microseconds.
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    assert admission.running == 0 and admission.in_flight == {TAP: 0, PAGE: 0, STATIC: 0}
    return served


def test_a_tap_goes_before_every_page_load_waiting():
    served = in_own_loop(lambda: _order_of([(PAGE, "flood")] * 5 + [(TAP, "alice")]))
    assert served[0] == "tap:alice:5"


def test_addresses_take_turns_so_a_flood_delays_a_phone_by_one_request():
    served = in_own_loop(lambda: _order_of([(PAGE, "flood")] * 5 + [(PAGE, "phone")]))
    assert served[:2] == ["page:flood:0", "page:phone:5"]


def test_page_loads_and_static_files_take_turns():
    served = in_own_loop(lambda: _order_of([(PAGE, "a")] * 3 + [(STATIC, "a")] * 3))
    assert [name.split(":")[0] for name in served] == ["page", "static"] * 3


def test_a_request_that_goes_away_while_waiting_hands_its_turn_on():
    async def scenario():
        admission = Admission(slots=1)
        await admission.enter(PAGE, "a")
        gone = asyncio.create_task(admission.enter(PAGE, "b"))
        waiting = asyncio.create_task(admission.enter(PAGE, "c"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        admission.leave(PAGE, "a")
        await asyncio.wait_for(waiting, 1)
        assert admission.running == 1 and admission.in_flight[PAGE] == 1
        admission.leave(PAGE, "c")
        assert admission.running == 0 and admission.by_client == {}

    in_own_loop(scenario)


def test_page_loads_never_use_up_the_tap_budget_and_have_their_own():
    async def scenario():
        admission = Admission(slots=1)
        settings = budgets()
        waiting = [asyncio.create_task(admission.enter(PAGE, f"10.0.0.{n}")) for n in range(5)]
        await asyncio.sleep(0)
        # 5 page loads in flight: the page budget (1 + 4) is full, taps are not.
        assert admission.refuses(PAGE, "10.0.0.99", settings)
        assert not admission.refuses(TAP, "10.0.0.99", settings)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    in_own_loop(scenario)


def test_one_address_holds_at_most_its_share_of_page_loads():
    async def scenario():
        admission = Admission(slots=1)
        settings = budgets()
        waiting = [asyncio.create_task(admission.enter(STATIC, "flood")) for _ in range(3)]
        await asyncio.sleep(0)
        assert admission.refuses(PAGE, "flood", settings)
        assert not admission.refuses(PAGE, "phone", settings)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    in_own_loop(scenario)


def test_taps_are_shed_past_threads_plus_queue():
    async def scenario():
        admission = Admission(slots=1)
        settings = budgets()
        waiting = [asyncio.create_task(admission.enter(TAP, "venue")) for _ in range(3)]
        await asyncio.sleep(0)
        assert admission.refuses(TAP, "venue", settings)
        # Another client is not refused (no per-address share): the newest
        # waiting tap of the client with the most gives it its place.
        assert not admission.refuses(TAP, "elsewhere", settings)
        await asyncio.sleep(0)
        assert isinstance(waiting[2].exception(), Shed)
        assert not waiting[1].done()
        mine = asyncio.create_task(admission.enter(TAP, "elsewhere"))
        await asyncio.sleep(0)
        # "venue" now has 2, "elsewhere" 1: a third client may take one more
        # of venue's places, but not one that would leave it no better off.
        assert not admission.refuses(TAP, "third", settings)
        await asyncio.sleep(0)
        assert isinstance(waiting[1].exception(), Shed)
        third = asyncio.create_task(admission.enter(TAP, "third"))
        await asyncio.sleep(0)
        assert admission.refuses(TAP, "fourth", settings)  # 1, 1, 1: all even
        assert waiting[0].done() and waiting[0].exception() is None  # the running one
        for task in (*waiting[1:], mine, third):
            task.cancel()
        await asyncio.gather(*waiting, mine, third, return_exceptions=True)
        admission.leave(TAP, "venue")
        assert admission.by_client == {} and admission.in_flight[TAP] == 0

    in_own_loop(scenario)


def test_page_loads_hold_at_most_their_threads_and_a_tap_starts_at_once():
    async def scenario():
        admission = Admission(slots=2, get_slots=1)
        await admission.enter(PAGE, "flood")
        second = asyncio.create_task(admission.enter(PAGE, "flood"))
        await asyncio.sleep(0)
        assert not second.done()  # a thread is free, but it is kept for taps
        await asyncio.wait_for(admission.enter(TAP, "alice"), 1)  # at once
        admission.leave(TAP, "alice")
        assert not second.done()
        admission.leave(PAGE, "flood")
        await asyncio.wait_for(second, 1)
        admission.leave(PAGE, "flood")
        assert admission.running == 0 and admission.running_gets == 0

    in_own_loop(scenario)
