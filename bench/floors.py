"""The floors of this stack alone (issue 18): the bare Django action
(bench/bare.py) and the bare Channels relay (bench/relay.py) on a `serve`-like
daphne process with no tracker phones connected, open loop as make bench
drives them (bench/load.py run_relay), CPU from /proc.

    python bench/floors.py [PAIRS] [SECONDS]

make bench measures the same floors for 3 s beside the tracker's rows,
where a server's one-off work weighs on few actions; this runs them long
enough to read what each costs by itself.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import run_relay  # noqa: E402
from bench.run import Server, base_env, manage  # noqa: E402


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
    tmp = Path(tempfile.mkdtemp(prefix="tracker-floors-"))
    try:
        env = base_env(tmp, STATIC_ROOT=str(tmp / "static"))
        manage(env, "manage.py", "migrate", "--noinput", "-v0")
        server = Server(env, tmp / "daphne.log").start()
        try:
            for name, bare in (("bare action", True), ("relay", False)):
                result = asyncio.run(
                    run_relay([server.base], pairs, seconds, f"f{int(bare)}", bare, server.cpu)
                )
                per = 1000 * result.cpu / max(result.served, 1)
                print(
                    f"{name}: {per:.2f} ms CPU each, {result.served} served, {len(result.errors)} errors"
                )
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
