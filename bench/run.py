"""`make bench`: the tracker under a tournament's load, against the bare relay.

For each setup (embedded: one daphne process on SQLite with the in-memory
layer; scale-out: two daphne processes on PostgreSQL + Redis) and each N in
BENCH_MATCHES (10, 50, 250, 500), N matches play one action per match per
second through the real match pages and sockets (bench/load.py) for
BENCH_SECONDS, then the bare relay consumer (bench/relay.py) carries the same
message rate on the same server. Printed and written to docs/benchmarks.md:
served actions/s, p50/p95/p99 action-to-both-phones latency, the ratio to the
relay's p99, errors, lost and doubled pushes, RSS per process; first-load
bytes per page; and a connect/disconnect soak with memory growth.

Other work may share the cores: read the ratios, not the absolute times.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import churn, first_load, percentile, run_relay, run_tracker  # noqa: E402

PY = sys.executable
# 15 matches at one action a second: issue 9's floor, a 150-table event at
# real pace (one action per table every 10 s).
MATCHES = [int(n) for n in os.environ.get("BENCH_MATCHES", "10,15,50,250,500").split(",")]
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
RELAY_SECONDS = float(os.environ.get("BENCH_RELAY_SECONDS", "3"))
SOAK_SECONDS = float(os.environ.get("BENCH_SOAK_SECONDS", "10"))
SETUPS = os.environ.get("BENCH_SETUPS", "embedded,postgres").split(",")
POSTGRES = os.environ.get("TRACKER_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("TRACKER_TEST_REDIS", "redis://127.0.0.1:6379/0")
REDIS_DB = 11
# A git ref to measure beside this tree (CPU per action, embedded): by
# default the last commit before this round of issue 9's work.
BASELINE = os.environ.get("BENCH_BASELINE", "90a8b11")
BASELINE_MATCHES = [int(n) for n in os.environ.get("BENCH_BASELINE_MATCHES", "10").split(",")]
OUT = Path(os.environ.get("BENCH_OUT", ROOT / "docs" / "benchmarks.md"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    def __init__(self, env: dict, log: Path):
        self.env, self.log, self.port, self.process = env, log, free_port(), None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, root: Path = ROOT, app: str = "bench.asgi:application") -> Server:
        self.process = subprocess.Popen(
            [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), app],
            cwd=root,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.log, "a"),  # noqa: SIM115 (the child keeps it)
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.base + "/", timeout=2)  # noqa: S310 (loopback)
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(self.log.read_text()[-3000:]) from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def rss(self) -> float:
        return rss_mb(self.process.pid)

    def cpu(self) -> float:
        """CPU seconds (user + system) this process has used: unlike wall
        time, barely changed by other work on the machine."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def base_env(tmp: Path, **extra) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tracker.settings",
        "SQLITE_PATH": str(tmp / "db.sqlite3"),
        "TRACKER_VAR_DIR": str(tmp / "var"),
        "STATIC_ROOT": str(tmp / "static"),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "0",
        "GUESS_LIMIT": "100000",
        # Every bench phone comes from 127.0.0.1; real phones each have their own.
        "SOCKETS_PER_ADDRESS": "100000",
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    env.update(extra)
    return env


def manage(env: dict, *args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        [PY, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    if done.returncode:
        raise RuntimeError(f"{args} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def with_path(url: str, path: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def measure(setup: str, servers: list[Server], matches: list[dict]) -> list[dict]:
    bases = [s.base for s in servers]
    rows = []
    for count in MATCHES:
        chosen = matches[:count]
        tag = secrets.token_hex(3)
        result, _phones = asyncio.run(
            run_tracker(bases, chosen, SECONDS, cpu=lambda: sum(s.cpu() for s in servers))
        )
        relay = asyncio.run(run_relay(bases, count, RELAY_SECONDS, f"{tag}{count}"))
        p99 = percentile(result.latencies, 99)
        relay_p99 = percentile(relay.latencies, 99)
        row = {
            "setup": setup,
            "matches": count,
            "offered": count,
            "served_per_s": result.served / result.seconds,
            "p50": percentile(result.latencies, 50) * 1000,
            "p95": percentile(result.latencies, 95) * 1000,
            "p99": p99 * 1000,
            "relay_p50": percentile(relay.latencies, 50) * 1000,
            "relay_p99": relay_p99 * 1000,
            "ratio": p99 / relay_p99 if relay_p99 else float("nan"),
            "errors": len(result.errors),
            "error_sample": sorted(set(result.errors))[:3],
            "lost": result.lost,
            "duplicated": result.duplicated,
            "relay_lost": relay.lost,
            "cpu_ms": 1000 * result.cpu / max(result.served, 1),
            "answer_kb": result.answer_bytes / 1024 / max(result.served, 1),
            "push_kb": result.push_bytes / 1024 / max(result.served, 1),
            "rss": [round(s.rss()) for s in servers],
        }
        rows.append(row)
        print(
            f"{setup:9} N={count:<4} served {row['served_per_s']:6.1f}/s of {count}  "
            f"p50 {row['p50']:7.1f}  p95 {row['p95']:7.1f}  p99 {row['p99']:7.1f} ms  "
            f"relay p99 {row['relay_p99']:6.1f} ms  ratio {row['ratio']:5.1f}x  "
            f"errors {row['errors']}  lost {row['lost']}  doubled {row['duplicated']}  "
            f"CPU {row['cpu_ms']:.1f} ms/action  "
            f"KB/action answer {row['answer_kb']:.1f} pushes {row['push_kb']:.1f}  "
            f"RSS {row['rss']} MB",
            flush=True,
        )
        for sample in row["error_sample"]:
            print(f"    e.g. {sample}")
    return rows


def soak(servers: list[Server], matches: list[dict]) -> dict:
    """Connect/disconnect churn on the first process, memory before and after."""
    server = servers[0]
    before = server.rss()
    made = asyncio.run(churn(server.base, matches[:10], SOAK_SECONDS / 2))
    middle = server.rss()
    made += asyncio.run(churn(server.base, matches[:10], SOAK_SECONDS / 2))
    after = server.rss()
    return {"connections": made, "before": before, "middle": middle, "after": after}


def embedded(tmp: Path, count: int) -> tuple[list[dict], dict, list[dict], dict]:
    env = base_env(tmp)
    manage(env, "manage.py", "migrate", "--noinput", "-v0")
    manage(env, "manage.py", "collectstatic", "--noinput", "-v0")
    matches = json.loads(manage(env, "bench/setup_matches.py", str(count)))
    server = Server(env, tmp / "daphne.log").start()
    try:
        sizes = asyncio.run(first_load(server.base, matches[-1]))
        rows = measure("embedded", [server], matches)
        churned = soak([server], matches)
    finally:
        server.stop()
    return rows, sizes, matches, churned


def baseline(tmp: Path) -> list[dict]:
    """The same load on the BASELINE ref's code (embedded, no relay): server
    CPU per served action, the contention-proof comparison."""
    if not BASELINE:
        return []
    code = tmp / "code"
    code.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BASELINE], capture_output=True, check=False
    )
    if archive.returncode:
        print(f"baseline {BASELINE!r} skipped: {archive.stderr.decode()[:200]}")
        return []
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive.stdout, check=True)
    env = base_env(tmp, PYTHONDONTWRITEBYTECODE="1", STATIC_MANIFEST="0")
    done = subprocess.run(
        [PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=code, env=env, capture_output=True
    )
    if done.returncode:
        raise RuntimeError(done.stderr.decode()[-2000:])
    matches = json.loads(
        manage(env, "bench/setup_matches.py", str(max(BASELINE_MATCHES)), cwd=code)
    )
    server = Server(env, tmp / "daphne.log").start(code, "tracker.asgi:application")
    rows = []
    try:
        for count in BASELINE_MATCHES:
            result, _ = asyncio.run(
                run_tracker([server.base], matches[:count], SECONDS, cpu=server.cpu)
            )
            row = {
                "setup": f"embedded, {BASELINE}",
                "matches": count,
                "served_per_s": result.served / result.seconds,
                "p50": percentile(result.latencies, 50) * 1000,
                "p99": percentile(result.latencies, 99) * 1000,
                "errors": len(result.errors),
                "lost": result.lost,
                "cpu_ms": 1000 * result.cpu / max(result.served, 1),
                "answer_kb": result.answer_bytes / 1024 / max(result.served, 1),
                "push_kb": result.push_bytes / 1024 / max(result.served, 1),
                "rss": [round(server.rss())],
            }
            rows.append(row)
            print(
                f"{BASELINE:9} N={count:<4} served {row['served_per_s']:6.1f}/s  "
                f"p50 {row['p50']:7.1f}  p99 {row['p99']:7.1f} ms  errors {row['errors']}  "
                f"lost {row['lost']}  CPU {row['cpu_ms']:.1f} ms/action",
                flush=True,
            )
    finally:
        server.stop()
    return rows


def postgres(tmp: Path, count: int) -> list[dict]:
    import psycopg
    import redis

    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except (psycopg.OperationalError, redis.RedisError) as error:
        print(f"postgres + redis setup skipped: {error}")
        return []
    name = f"tracker_bench_{secrets.token_hex(5)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    redis_url = with_path(REDIS, f"/{REDIS_DB}")
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    env = base_env(tmp, DATABASE_URL=with_path(POSTGRES, f"/{name}"), REDIS_URL=redis_url)
    servers = []
    try:
        manage(env, "manage.py", "migrate", "--noinput", "-v0")
        manage(env, "manage.py", "collectstatic", "--noinput", "-v0")
        matches = json.loads(manage(env, "bench/setup_matches.py", str(count)))
        servers = [Server(env, tmp / f"daphne-{n}.log").start() for n in (1, 2)]
        return measure("postgres", servers, matches)
    finally:
        for server in servers:
            server.stop()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        client.flushdb()


def fmt(value: float, digits: int = 0) -> str:
    return "—" if value != value else f"{value:,.{digits}f}"  # NaN: no sample


def write(rows: list[dict], sizes: dict, churned: dict, base_rows: list, seconds: float) -> None:
    lines = [
        "# Benchmarks",
        "",
        f"Written by `make bench` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
        f"in {seconds / 60:.1f} minutes. Other work may have shared the cores: "
        "read the ratios to the bare relay, not the absolute times.",
        "",
        f"N matches, two phones each on a websocket, one action per match per "
        f"second (a trooper's State form, Prone on/off) for {SECONDS:g} s through "
        "the real POST (session and CSRF cookies, CSRF token from the page); "
        "latency until both phones' sockets have a frame at that seq. The relay "
        f"is a bare Channels consumer on the same server and layer, carrying one "
        f"message per match per second for {RELAY_SECONDS:g} s to the same two "
        "sockets (bench/relay.py).",
        "",
        "| setup | matches | served actions/s | p50 / p95 / p99 ms | relay p99 ms | ratio (p99) | errors | lost | doubled | RSS per process MB |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['setup']} | {r['matches']} | {r['served_per_s']:.1f} of {r['offered']} | "
            f"{fmt(r['p50'])} / {fmt(r['p95'])} / {fmt(r['p99'])} | {fmt(r['relay_p99'], 1)} | "
            f"{fmt(r['ratio'], 1)}× | {r['errors']} | {r['lost']} | {r['duplicated']} | "
            f"{', '.join(str(x) for x in r['rss'])} |"
        )
    lines += [
        "",
        "## Server CPU per served action (robust to other work on the cores)",
        "",
        "CPU seconds used by the server process(es) while playing, divided by "
        "the actions served: the POST, its render, and every socket's push. "
        "KB per action: the actor's POST answer, and the frames to both phones.",
        "",
        "| code | setup | matches | served actions/s | p50 / p99 ms | errors | lost "
        "| CPU ms per action | KB answer / pushes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in [*base_rows, *rows]:
        code = BASELINE if BASELINE in r["setup"] else "this tree"
        lines.append(
            f"| {code} | {r['setup'].split(',')[0]} | {r['matches']} | {r['served_per_s']:.1f} | "
            f"{fmt(r['p50'])} / {fmt(r['p99'])} | {r['errors']} | {r['lost']} | "
            f"{r['cpu_ms']:.1f} | {fmt(r['answer_kb'], 1)} / {fmt(r['push_kb'], 1)} |"
        )
    samples = sorted({s for r in rows for s in r["error_sample"]})
    if samples:
        lines += ["", "Errors seen (samples):", ""] + [f"- `{s}`" for s in samples[:6]]
    lines += [
        "",
        "## First load (bytes transferred, br/gzip accepted)",
        "",
        "The HTML, every file a browser fetches to show it (scripts, styles, the tab "
        "icon, the manifest; bench/load.py says what is left out and why), and the "
        "socket's first frame for the match page. `python bench/first_load.py` "
        "breaks it down by file.",
        "",
        "| page | bytes |",
        "|---|---|",
    ]
    lines += [f"| {name} | {size:,} |" for name, size in sizes.items()]
    lines += [
        "",
        "## Soak: connect/disconnect churn (embedded, 10 matches, both phones)",
        "",
        f"{churned['connections']} connections in {SOAK_SECONDS:g} s; RSS "
        f"{churned['before']:.0f} MB before, {churned['middle']:.0f} MB half-way, "
        f"{churned['after']:.0f} MB after ({churned['after'] - churned['before']:+.1f} MB; "
        f"{churned['after'] - churned['middle']:+.1f} MB over the second half).",
        "",
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    extra = OUT.parent / "benchmarks-notes.md"
    if extra.exists():
        lines += ["", extra.read_text()]
    OUT.write_text("\n".join(lines))
    print(f"\nwrote {OUT}")


def main() -> None:
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="tracker-bench-"))
    rows, sizes, base_rows, churned = (
        [],
        {},
        [],
        {"connections": 0, "before": 0, "middle": 0, "after": 0},
    )
    try:
        if "embedded" in SETUPS:
            (tmp / "embedded").mkdir()
            more, sizes, _matches, churned = embedded(tmp / "embedded", max(MATCHES))
            rows += more
            print("first load bytes:", sizes, flush=True)
            print("soak:", churned, flush=True)
        if BASELINE:
            (tmp / "baseline").mkdir()
            base_rows = baseline(tmp / "baseline")
        if "postgres" in SETUPS:
            (tmp / "postgres").mkdir()
            rows += postgres(tmp / "postgres", max(MATCHES))
    finally:
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(tmp, ignore_errors=True)
    write(rows, sizes, churned, base_rows, time.monotonic() - started)


if __name__ == "__main__":
    main()
