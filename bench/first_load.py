"""The first-load bytes of `make bench` alone, with each page's bytes per
part: `python bench/first_load.py [troopers] [--taps]` (about 20 s; one match
with that many troopers a side, 10 by default, embedded setup; the player's
page also as it is after bench.run.ORDERS_PLAYED Orders, in English and in
Spanish). With --taps,
then the bytes of a tap's answer and of its pushes, as `make bench` measures
them for its big lists (bench.run.big_list: BENCH_SECONDS of one tap a
second, Prone on and off).

Reuses bench/run.py's recipe (migrate, collectstatic, one match, daphne) and
bench.load.first_load, so the numbers are the ones `make bench` writes.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import first_load  # noqa: E402
from bench.run import ORDERS_PLAYED, Server, base_env, big_list, manage  # noqa: E402


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="tracker-first-load-"))
    try:
        env = base_env(tmp)
        manage(env, "manage.py", "migrate", "--noinput", "-v0")
        manage(env, "manage.py", "collectstatic", "--noinput", "-v0")
        counts = [arg for arg in sys.argv[1:] if arg != "--taps"]
        troopers = counts[0] if counts else "10"
        matches = json.loads(manage(env, "bench/setup_matches.py", "1", troopers))
        played = json.loads(
            manage(env, "bench/setup_matches.py", "1", troopers, str(ORDERS_PLAYED))
        )[0]
        server = Server(env, tmp / "daphne.log").start()
        detail: dict[str, dict[str, int]] = {}
        later: dict[str, dict[str, int]] = {}
        taps = None
        try:
            sizes = asyncio.run(first_load(server.base, matches[-1], detail))
            # Of the played match, only the player's page: the others are the same.
            mid_turn = f"match, player, after {ORDERS_PLAYED} Orders"
            sizes[mid_turn] = asyncio.run(first_load(server.base, played, later))["match, player"]
            detail[mid_turn] = later["match, player"]
            # The same page in Spanish, whose strings run longer.
            spanish: dict[str, dict[str, int]] = {}
            loaded = asyncio.run(first_load(server.base, played, spanish, language="es"))
            sizes[f"{mid_turn}, in Spanish"] = loaded["match, player"]
            detail[f"{mid_turn}, in Spanish"] = spanish["match, player"]
            if "--taps" in sys.argv:
                taps = asyncio.run(big_list(server, matches[-1], played))
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for page, total in sizes.items():
        print(f"{page}: {total:,} bytes")
        for part, size in detail[page].items():
            print(f"  {size:>8,}  {part}")
    if taps is not None:
        print(
            f"a tap: answer {taps['answer_kb']:.2f} KB, pushes {taps['push_kb']:.2f} KB "
            f"(both phones) per action, {taps['served']} served"
        )


if __name__ == "__main__":
    main()
