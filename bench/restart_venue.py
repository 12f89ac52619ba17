"""A venue's phones coming back after the laptop's server restarts.

Every phone of a venue reaches the laptop from one address (its NAT). The
server is killed (kill -9) and `manage.py serve` started again on the same
SQLite file: nothing it held in memory survives, the sessions in the file
do. Then every phone comes back as it would:

- "open": the match page stayed open; app.js connects its socket again
  (0.25, 0.5, 1, then 2 s at most between tries, half jittered) and asks for
  what it missed over HTTP (GET /m/<code>/blocks/, as its resync does);
- "reload": the player reloaded the page: GET /m/<code>/ until it loads
  (a busy page loads itself again 2-4 s later), then the socket as above.

Printed: how many page loads were answered busy (503) and how long after
the new server answered until every phone was live (first socket frame, and
its page or blocks loaded). `python bench/restart_venue.py [TABLES] [MODE]`.
Not part of `make bench`: a measurement for issue-22's restart case.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from tests.scale.servers import LiveServer, make_matches, manage, server_env  # noqa: E402

CONNECT_TIMEOUT = 5.0  # app.js's
BACKOFF_CAP = 2.0


class Tally:
    def __init__(self) -> None:
        self.statuses: dict[int, int] = {}
        self.refused = 0  # no answer at all (the server not there yet)

    def saw(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


async def _get(http, url: str, session: str, tally: Tally, htmx: bool) -> int:
    headers = {"Cookie": f"sessionid={session}"}
    if htmx:
        headers["HX-Request"] = "true"
    try:
        async with http.get(url, headers=headers, timeout=aiohttp.ClientTimeout(total=30)) as r:
            await r.read()
            tally.saw(r.status)
            return r.status
    except (TimeoutError, OSError, aiohttp.ClientError):
        tally.refused += 1
        return 0


async def _socket(http, base: dict, code: str, session: str) -> None:
    """app.js's connect(): tries until a first frame comes, then keeps it."""
    tries = 0
    while True:
        url = base["ws"]
        try:
            ws = await http.ws_connect(
                f"{url}/ws/m/{code}/",
                headers={"Cookie": f"sessionid={session}", "Origin": base["http"]},
                timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=2),
            )
            try:
                message = await ws.receive(timeout=CONNECT_TIMEOUT)
                if message.type == aiohttp.WSMsgType.TEXT:
                    return ws
            except TimeoutError:
                pass
            await ws.close()
        except (TimeoutError, OSError, aiohttp.ClientError):
            pass
        wait = min(BACKOFF_CAP, 0.25 * 2**tries)
        tries += 1
        await asyncio.sleep(wait / 2 + random.random() * wait / 2)  # noqa: S311


async def _phone(http, base: dict, code: str, session: str, mode: str, tally: Tally, up):
    if mode == "reload":
        while True:
            status = await _get(http, f"{base['http']}/m/{code}/", session, tally, htmx=False)
            if status == 200:
                break
            # The busy page's meta refresh (tracker/busy.py), or the player
            # reloading a page that did not load.
            await asyncio.sleep(random.randint(2, 4) if status == 503 else 1)  # noqa: S311
        ws = await _socket(http, base, code, session)
    else:
        ws, _status = await asyncio.gather(
            _socket(http, base, code, session),
            _resync(http, base, code, session, tally),
        )
    done = time.monotonic() - up[0]
    return ws, done


async def _resync(http, base, code, session, tally) -> int:
    """The catch-up GET, sent once the server answers (app.js's resync is
    not retried: a 503 leaves the phone to its socket's first frame)."""
    while True:
        status = await _get(http, f"{base['http']}/m/{code}/blocks/", session, tally, htmx=True)
        if status:
            return status
        await asyncio.sleep(0.5)


async def come_back(matches, base, mode, restart) -> tuple[Tally, list[float]]:
    tally = Tally()
    up = [0.0]
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    async with aiohttp.ClientSession(connector=connector) as http:
        # The phones notice at once and try while the server is down.
        phones = [
            asyncio.create_task(_phone(http, base, m["code"], m[s], mode, tally, up))
            for m in matches
            for s in "AB"
        ]
        await asyncio.sleep(0.5)
        server = await asyncio.to_thread(restart)
        base.update(http=server.url, ws=server.ws_url)  # the laptop's address answers again
        up[0] = time.monotonic()
        results = await asyncio.gather(*phones)
        for ws, _done in results:
            await ws.close()
    return tally, sorted(done for _ws, done in results)


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    modes = sys.argv[2:] or ["open", "reload"]
    tmp = Path(tempfile.mkdtemp(prefix="restart-venue-"))
    env = server_env(tmp)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    matches = make_matches(env, tables)
    server = LiveServer(env, tmp / "serve.log").start()
    try:
        for mode in modes:
            server.kill()
            base = {"http": "http://127.0.0.1:9", "ws": "ws://127.0.0.1:9"}  # down
            tally, times = asyncio.run(come_back(matches, base, mode, server.start))
            busy = tally.statuses.get(503, 0)
            print(
                f"{tables} tables ({2 * tables} phones), {mode}: page loads {tally.statuses}, "
                f"busy {busy}; every phone live {times[-1]:.2f} s after the restart "
                f"(median {times[len(times) // 2]:.2f} s)"
            )
        assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
    finally:
        server.stop()


if __name__ == "__main__":
    main()
