"""Server CPU per served action: this tree against a git ref, on one machine
whose cores other work shares.

`make bench` measures its baseline after this tree, minutes later; on a
shared machine the load moves in between (two runs of one tree differed by
25 % here). This starts both servers (embedded, N matches each) and
alternates short runs of the same load between them, so that whatever else
runs on the cores weighs on both alike, and prints each run and the medians.

    python bench/ab.py [ref] [matches] [rounds] [seconds]
"""

from __future__ import annotations

import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import percentile, run_tracker  # noqa: E402
from bench.run import Server, base_env, manage  # noqa: E402


def prepare(tmp: Path, name: str, code: Path, count: int) -> tuple[Server, list[dict]]:
    folder = tmp / name
    folder.mkdir()
    env = base_env(folder, PYTHONDONTWRITEBYTECODE="1", STATIC_MANIFEST="0")
    manage(env, "manage.py", "migrate", "--noinput", "-v0", cwd=code)
    matches = json.loads(manage(env, "bench/setup_matches.py", str(count), cwd=code))
    # As make bench serves it (bench/asgi.py: as `serve` runs the app, without
    # the front door's per-address limits, every phone here being 127.0.0.1).
    server = Server(env, folder / "daphne.log").start(code, "bench.asgi:application")
    return server, matches


def main() -> None:
    ref = sys.argv[1] if len(sys.argv) > 1 else "main"
    count, rounds, seconds = (
        int(sys.argv[2]) if len(sys.argv) > 2 else 10,
        int(sys.argv[3]) if len(sys.argv) > 3 else 4,
        float(sys.argv[4]) if len(sys.argv) > 4 else 5,
    )
    tmp = Path(tempfile.mkdtemp(prefix="tracker-ab-"))
    code = tmp / "code"
    code.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True)
    if archive.returncode:
        sys.exit(archive.stderr.decode()[:300])
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive.stdout, check=True)
    servers = {}
    try:
        servers["this tree"] = prepare(tmp, "this", ROOT, count)
        servers[ref] = prepare(tmp, "ref", code, count)
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
        for n in range(rounds):
            for name, (server, matches) in servers.items():
                result, _ = asyncio.run(
                    run_tracker([server.base], matches, seconds, cpu=server.cpu)
                )
                cpu = 1000 * result.cpu / max(result.served, 1)
                p99 = percentile(result.latencies, 99) * 1000
                runs[name].append((cpu, p99))
                print(
                    f"round {n} {name:>10}: CPU {cpu:5.1f} ms/action, "
                    f"served {result.served / result.seconds:5.1f}/s, p99 {p99:7.1f} ms, "
                    f"errors {len(result.errors)}, lost {result.lost}",
                    flush=True,
                )
    finally:
        for server, _matches in servers.values():
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for name, rows in runs.items():
        print(
            f"{name:>10}: median CPU {statistics.median(r[0] for r in rows):5.1f} ms/action "
            f"(min {min(r[0] for r in rows):.1f}), median p99 "
            f"{statistics.median(r[1] for r in rows):.0f} ms"
        )


if __name__ == "__main__":
    main()
