"""A small real load on one `serve`-like daphne process (embedded: SQLite,
the in-memory layer), for finding what the server spends per action outside
the view (issue 18): `make bench`'s machinery (bench/run.py's Server, the
Fleet of bench/load.py) without its floors, sizes and night.

    python bench/serve_cpu.py [MATCHES] [SECONDS]

Prints the server's CPU (user + system, /proc) per served action while N
matches play one tap per match per second, and the CPU per second of the
same phones only pinging (no taps) beforehand, so that the pings' share can
be told apart. SERVE_CPU_QUIET=n connects n more matches' phones that
stay quiet, as make bench's larger sizes' phones do. With SERVE_CPU_PYSPY=path, py-spy records the server (raw
format, 200 Hz, threads holding the GIL) while the taps run, and the
pings alone to the same path with -pings before .txt: `py-spy` must be beside this Python.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import Fleet, session  # noqa: E402
from bench.run import PY, Server, base_env, manage, prepare, tracker_row  # noqa: E402

# Matches whose phones connect and stay quiet (no pings, no taps) while the
# first MATCHES play, as make bench's larger sizes' phones do.
QUIET = int(os.environ.get("SERVE_CPU_QUIET", "0"))
# py-spy's samples a second (SERVE_CPU_RATE): 200 keeps its own cost low; a
# higher rate gives more samples of a short run.
RATE = os.environ.get("SERVE_CPU_RATE", "200")
# SERVE_CPU_NIGHT=1: the taps as make bench's night plays them (one a table
# every 10 s, jittered, a reload and a reconnect each about every 30 s), to
# see what the churn costs beside the taps.
NIGHT = os.environ.get("SERVE_CPU_NIGHT", "") == "1"


def _spy(server: Server, path: str, seconds: float) -> subprocess.Popen:
    """py-spy on the server for `seconds`: only threads holding the GIL (CPU)."""
    return subprocess.Popen(
        [str(Path(PY).parent / "py-spy"), "record", "--pid", str(server.process.pid)]
        + ["--rate", RATE, "--format", "raw", "-o", path, "--duration", str(int(seconds))]
        + ["--nonblocking", "--gil"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def measure(
    server: Server, matches: list[dict], count: int, seconds: float, pyspy: str
) -> dict:
    async with session() as http:
        fleet = Fleet(http, [server.base])
        try:
            await fleet.connect(matches)
            await fleet.only_ping(count)
            await asyncio.sleep(2)
            spy = _spy(server, pyspy.replace(".txt", "-pings.txt"), seconds) if pyspy else None
            before = server.cpu()
            await asyncio.sleep(seconds)
            ping_cpu = (server.cpu() - before) / seconds
            if spy is not None:
                spy.wait(timeout=60)
            spy = _spy(server, pyspy, seconds) if pyspy else None
            pace = {"every": 10.0, "jitter": 0.5, "churn_every": 30.0} if NIGHT else {}
            result = await fleet.play(count, seconds, cpu=server.cpu, **pace)
            if spy is not None:
                spy.wait(timeout=60)
        finally:
            await fleet.close()
    row = tracker_row("serve", count, result, [server])
    row.update(
        quiet_matches=len(matches) - count,
        seconds=seconds,
        served=result.served,
        ping_only_cpu_ms_per_s=1000 * ping_cpu,
        load=os.getloadavg()[0],
    )
    return row


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
    tmp = Path(tempfile.mkdtemp(prefix="tracker-serve-cpu-"))
    try:
        env = base_env(tmp, STATIC_ROOT=str(tmp / "static"))
        manage(env, "manage.py", "collectstatic", "--noinput", "-v0")
        matches = prepare(env, count + QUIET)
        server = Server(env, tmp / "daphne.log").start()
        try:
            row = asyncio.run(
                measure(server, matches, count, seconds, os.environ.get("SERVE_CPU_PYSPY", ""))
            )
        finally:
            server.stop()
        print(json.dumps(row))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"took {time.monotonic() - started:.0f} s", file=sys.stderr)
