"""Time is called at zero by the server itself (issue 21): starting a round's
clock arms a timer on the server's loop (tracker/event_clock.py); when the
clock runs out, every phone's socket of the round gets "time is called" in
its own language, with no organizer's call and no phone's own countdown. A
pause drops the timer, a resume arms it for the time left, and a timer that
fires while time is still left waits the rest.

No test waits for the clock: the timer is the test's (event_clock.schedule)
and so is the time it reads (event_clock.now), which the test moves on."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from tests.web.test_event_running import Organizer, seat_phone
from tests.web.test_live import receive_until
from tracker import event_clock
from tracker.asgi import application
from tracker.models import EventRound, Match, TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)

# The table is only seated (still setting up): the organizer records its
# result (tracker/event_clock.todo_at_time).
EN_CALLED = "Round 1: time is called. The organizer will record this table&#x27;s result."
ES_CALLED = "Ronda 1: se acabó el tiempo. El organizador anotará el resultado de esta mesa."


class Timer:
    """One timer the server armed; it fires when the test says so."""

    def __init__(self, delay: float, callback):
        self.delay, self.callback = delay, callback
        self.cancelled = self.fired = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        assert not self.cancelled, "a dropped timer never fires"
        self.fired = True
        self.callback()


class Timers:
    def __init__(self):
        self.armed: list[Timer] = []

    def __call__(self, loop, delay, callback) -> Timer:
        timer = Timer(delay, callback)
        self.armed.append(timer)
        return timer

    def live(self) -> list[Timer]:
        return [t for t in self.armed if not (t.cancelled or t.fired)]


@pytest.fixture
def timers(monkeypatch):
    held = Timers()
    monkeypatch.setattr(event_clock, "schedule", held)
    monkeypatch.setattr(event_clock, "_timers", {})
    return held


def advance(monkeypatch, seconds: float) -> None:
    """The server's clock, `seconds` on from the real one."""
    monkeypatch.setattr(event_clock, "now", lambda: timezone.now() + timedelta(seconds=seconds))


def socket_of(phone) -> WebsocketCommunicator:
    """The phone's socket, with its session and language cookies."""
    cookies = "; ".join(f"{name}={value}" for name, value in phone.app.cookies.items())
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    headers.append((b"cookie", cookies.encode()))
    if phone.language:
        headers.append((b"accept-language", phone.language.encode()))
    return WebsocketCommunicator(application, f"/ws/m/{phone.code}/", headers=headers)


def a_round_of_two(carol):
    """Two players, one table, published with a 10-minute clock, both seated
    (one phone in Spanish, one in English)."""
    event = TournamentEvent.objects.create(name="Liga relámpago")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing").status_code == 302
    assert org.submit("/rounds/draw/", seed=1).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=10)
    assert response.status_code == 302
    match = Match.objects.get(event=event)
    return org, seat_phone(carol, match, "A", "es"), seat_phone(carol, match, "B", "en")


async def ran_out() -> None:
    """Wait for what the fired timer started on the loop (its check)."""
    tasks = [t for t in asyncio.all_tasks() if t.get_coro().__name__ == "run_out"]
    assert tasks, "the timer started nothing"
    await asyncio.gather(*tasks)


async def connected(phone) -> WebsocketCommunicator:
    socket = socket_of(phone)
    ok, _ = await socket.connect()
    assert ok
    await socket.receive_from(timeout=5)  # the first frame
    return socket


async def test_the_server_calls_time_on_every_phone_when_the_clock_runs_out(
    carol, timers, monkeypatch
):
    org, spanish, english = await sync_to_async(a_round_of_two)(carol)
    es, en = await connected(spanish), await connected(english)

    assert (await sync_to_async(org.submit)("/clock/start/", within="#round-1")).status_code == 302
    await receive_until(en, "Time left")
    await receive_until(es, "Tiempo restante")
    [timer] = timers.live()
    assert 590 <= timer.delay <= 600  # armed for the moment the 10 minutes run out

    # A pause drops it; the resume arms a new one for the time left.
    assert (await sync_to_async(org.submit)("/clock/pause/", within="#round-1")).status_code == 302
    await receive_until(en, "clock paused")
    await receive_until(es, "reloj en pausa")
    assert timers.live() == []
    assert (await sync_to_async(org.submit)("/clock/start/", within="#round-1")).status_code == 302
    await receive_until(en, "Time left")
    await receive_until(es, "Tiempo restante")
    [resumed] = timers.live()
    assert resumed is not timer and resumed.delay <= timer.delay

    # Ten minutes on, the timer fires: nobody called time, yet every phone is told.
    advance(monkeypatch, 600)
    resumed.fire()
    frame, _ = await receive_until(en, EN_CALLED)
    assert "hx-swap-oob" in frame
    await receive_until(es, ES_CALLED)
    event_round = await sync_to_async(EventRound.objects.get)()
    assert event_round.time_called_at is not None and event_round.clock_started_at is None
    # Called at the moment the clock ran out (all 10 minutes run), not at
    # whatever moment the timer got to it.
    assert event_round.clock_elapsed == 600
    assert event_round.time_called_at <= event_clock.now()
    assert "Time is called." in await sync_to_async(org.text)()
    assert timers.live() == []
    await es.disconnect()
    await en.disconnect()


async def test_a_timer_that_fires_with_time_still_left_waits_the_rest(carol, timers, monkeypatch):
    org, _spanish, english = await sync_to_async(a_round_of_two)(carol)
    en = await connected(english)
    assert (await sync_to_async(org.submit)("/clock/start/", within="#round-1")).status_code == 302
    await receive_until(en, "Time left")
    [timer] = timers.live()
    # A timer set before a pause and a resume (or early): 4 minutes in, it
    # fires, finds 6 minutes left, and arms itself again for them.
    advance(monkeypatch, 240)
    timer.fire()
    await ran_out()
    [again] = timers.live()
    assert again is not timer and 350 <= again.delay <= 360
    event_round = await sync_to_async(EventRound.objects.get)()
    assert event_round.time_called_at is None and event_round.clock_started_at is not None
    assert await en.receive_nothing(timeout=0.2)  # no phone is told anything
    await en.disconnect()


async def test_a_server_restarted_mid_round_arms_the_timer_when_it_next_renders_the_clock(
    carol, timers, monkeypatch
):
    org, _spanish, english = await sync_to_async(a_round_of_two)(carol)
    en = await connected(english)
    assert (await sync_to_async(org.submit)("/clock/start/", within="#round-1")).status_code == 302
    await receive_until(en, "Time left")
    await en.disconnect()
    # A restart: the running clock is in the database, no timer is armed.
    monkeypatch.setattr(event_clock, "_timers", {})
    timers.armed.clear()
    en = await connected(english)
    await sync_to_async(english.open)()  # the phone loads its page: the clock renders
    await asyncio.sleep(0)  # the loop runs what the render's thread handed it
    [timer] = timers.live()
    assert 590 <= timer.delay <= 600
    advance(monkeypatch, 600)
    timer.fire()
    await receive_until(en, EN_CALLED)
    await en.disconnect()


def test_the_clock_counts_the_time_run_before_a_pause_and_since_the_resume():
    """Time left = minutes allowed - seconds run before the current start -
    seconds since it: a pause and a resume never give time back."""
    from tracker.event_running import clock_left, clock_state

    now = timezone.now()
    paused = EventRound(minutes=90, clock_elapsed=600.0)
    assert clock_left(paused, now) == 90 * 60 - 600 and clock_state(paused, now) == "paused"
    resumed = EventRound(
        minutes=90, clock_elapsed=600.0, clock_started_at=now - timedelta(minutes=5)
    )
    assert clock_left(resumed, now) == 90 * 60 - 600 - 300
    assert clock_state(resumed, now) == "running"
    over = EventRound(minutes=90, clock_elapsed=5000.0, clock_started_at=now - timedelta(hours=1))
    assert clock_left(over, now) == 0 and clock_state(over, now) == "called"
    called = EventRound(minutes=90, clock_started_at=now, time_called_at=now)
    assert clock_left(called, now) == 0 and clock_state(called, now) == "called"


async def test_a_page_load_leaves_the_running_rounds_timer_as_it_is(carol, timers, monkeypatch):
    """Only a start, a resume, a pause or a call sets the round's timer
    (announce_clock); a render arms one only where none is armed (after a
    restart). A phone's page load while the clock runs neither drops the
    timer set at the start nor sets another from the row it read."""
    org, _spanish, english = await sync_to_async(a_round_of_two)(carol)
    en = await connected(english)
    assert (await sync_to_async(org.submit)("/clock/start/", within="#round-1")).status_code == 302
    await receive_until(en, "Time left")
    [timer] = timers.live()
    for _ in range(2):
        await sync_to_async(english.open)()  # the clock renders
        await asyncio.sleep(0)  # the loop runs what the render's thread handed it
    assert timers.armed == [timer] and timers.live() == [timer]
    advance(monkeypatch, 600)
    timer.fire()
    await receive_until(en, EN_CALLED)
    await en.disconnect()
