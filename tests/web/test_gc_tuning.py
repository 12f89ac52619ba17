"""The served application sets the garbage collector for a process that
keeps its renders (tracker/gc_tuning.py, issue 18): loading it freezes what
start-up made and raises the young generation's threshold. Checked in a new
interpreter, as daphne loads it (this one's collector is pytest's)."""

import json
import subprocess
import sys
from pathlib import Path

from bench import serving
from tracker import gc_tuning

ROOT = Path(__file__).resolve().parents[2]

PROBE = "import gc, json, {module}; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"


def loaded(module: str, tmp_path) -> tuple[list, int]:
    # The environment a test's server gets (bench/serving.py): SQLite in
    # tmp_path, DEBUG off, no developer's DATABASE_URL or REDIS_URL.
    env = serving.environment(tmp_path)
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", PROBE.format(module=module)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_served_application_freezes_start_up_and_raises_the_threshold(tmp_path):
    thresholds, frozen = loaded("tracker.asgi", tmp_path)
    assert tuple(thresholds) == gc_tuning.THRESHOLDS
    assert thresholds[0] > 700  # CPython's default: a collection every other action
    # Django, Channels, daphne's imports and the app: tens of thousands.
    assert frozen > 10_000


def test_the_bench_serves_the_same_collector_settings(tmp_path):
    """make bench measures bench/asgi.py's application: the same settings."""
    thresholds, frozen = loaded("bench.asgi", tmp_path)
    assert tuple(thresholds) == gc_tuning.THRESHOLDS and frozen > 10_000
