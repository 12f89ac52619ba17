"""`make bench`: what the caches and the block diffing buy, as ratios measured
in one run on this machine (absolute times vary; the ratios are the claim).

1. Reading a match: the per-process state cache vs replaying the whole log.
2. Writing an action: the one write path end to end, with a warm cache vs a
   cold one (what a second server process pays on its first action).
3. A push: bytes of only the changed blocks vs the whole view.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = tempfile.mkdtemp(prefix="tracker-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
os.environ["SQLITE_PATH"] = str(Path(TMP) / "bench.sqlite3")
os.environ["TRACKER_VAR_DIR"] = TMP
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from bench.setup_matches import army, bring_to_play  # noqa: E402
from tracker import actions, reading  # noqa: E402
from tracker.models import Match  # noqa: E402
from tracker.reading import seen_by  # noqa: E402
from tracker.rendering import render_blocks  # noqa: E402
from tracker.rules.conditions import SetTrooperState  # noqa: E402

STEPS = int(os.environ.get("BENCH_STEPS", "400"))


def timed(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def build_match() -> Match:
    actions.notify = lambda *args: None  # no sockets in a benchmark
    match = actions.create_match(name="Bench", points_limit=300)
    troopers = {seat: army(seat, 12) for seat in "AB"}
    bring_to_play(match, troopers)
    prone: dict[str, bool] = {}
    for step in range(STEPS):
        seat = "AB"[step % 2]
        target = troopers["BA"[step % 2]][step % 12]["id"]
        prone[target] = not prone.get(target, False)
        tokens = ["prone"] if prone[target] else []
        actions.perform(
            match, seat, SetTrooperState(trooper_id=target, condition="normal", tokens=tokens)
        )
    match.refresh_from_db()
    return match


def main() -> None:
    call_command("migrate", verbosity=0)
    match = build_match()
    print(f"match with {match.seq} events (BENCH_STEPS={STEPS})\n")

    def cold_read():
        reading.forget()
        seen_by(Match.objects.get(pk=match.pk), "B")

    def warm_read():
        seen_by(Match.objects.get(pk=match.pk), "B")

    warm_read()
    cold = timed(cold_read, 15)
    warm = timed(warm_read, 15)

    flip = iter(range(10_000))

    def write(cold_cache: bool):
        n = next(flip)
        if cold_cache:
            reading.forget()
        target = "a0000003" if n % 2 else "a0000004"
        actions.perform(
            Match.objects.get(pk=match.pk),
            "B",
            SetTrooperState(
                trooper_id=target, condition="normal", tokens=["prone"] if n % 4 < 2 else []
            ),
        )

    cold_write = timed(lambda: write(True), 11)
    warm_write = timed(lambda: write(False), 11)

    current = Match.objects.get(pk=match.pk)
    before = render_blocks(seen_by(current, "B"), current.seats.get(letter="B"))
    write(False)
    current = Match.objects.get(pk=match.pk)
    after = render_blocks(seen_by(current, "B"), current.seats.get(letter="B"))
    full = sum(len(html) for html in after.values())
    changed = sum(len(html) for name, html in after.items() if before[name] != html)

    rows = [
        ("read a view: replay the log / cached state", cold, warm),
        ("write an action: cold cache / warm cache", cold_write, warm_write),
    ]
    print(f"{'measure':48} {'slow':>10} {'fast':>10} {'ratio':>7}")
    for name, slow, fast in rows:
        print(f"{name:48} {slow * 1000:9.2f}ms {fast * 1000:9.2f}ms {slow / fast:6.1f}x")
    print(
        f"{'push bytes: whole view / changed blocks':48} {full:>10} {changed:>10} {full / max(changed, 1):6.1f}x"
    )


if __name__ == "__main__":
    main()
