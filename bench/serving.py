"""Starting a server process on 127.0.0.1 and waiting until it answers, and
stopping it: shared by `make bench` (bench/run.py) and the browser tests'
`make run` server (tests/browser/make_run.py). The standard library has no
"start and wait until it answers", and a test library for it would be one
more dependency for a dozen lines."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path


def environment(tmp: Path, drop: tuple[str, ...] = ("DATABASE_URL", "REDIS_URL"), **extra) -> dict:
    """A server's environment: this one's, the tracker's settings on SQLite in
    `tmp` (its var/ folder there too), DEBUG off, without the variables in
    `drop` (a developer's DATABASE_URL must not reach a test's server), and
    `extra` on top."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tracker.settings",
        "SQLITE_PATH": str(tmp / "db.sqlite3"),
        "TRACKER_VAR_DIR": str(tmp / "var"),
        "DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
    }
    for name in drop:
        env.pop(name, None)
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(
    command: list[str],
    *,
    cwd: Path,
    env: dict,
    url: str,
    stdout,
    stderr,
    timeout: float = 60,
    log: Callable[[], str] = lambda: "",
) -> subprocess.Popen:
    """Run `command` and wait until `url` answers (any HTTP status); past
    `timeout`, or if the process ends first, kill it and raise RuntimeError
    with the end of `log()`."""
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=stdout, stderr=stderr)
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)  # noqa: S310 (loopback)
            return process
        except urllib.error.HTTPError:
            return process  # it answered
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"{' '.join(command)} did not start:\n{log()[-3000:]}") from None
            time.sleep(0.2)


def serve_on_loopback(root: Path, env: dict, log: Path) -> tuple[subprocess.Popen, str]:
    """`manage.py serve` (the command `make run` runs) on a free loopback
    port, its errors in `log`: the process, once it answers, and its base
    URL. The bench scripts that play a venue's burst against it share it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=root,
        env=env,
        url=base + "/offline/",
        stdout=subprocess.DEVNULL,
        stderr=open(log, "w"),  # noqa: SIM115 (lives as long as the server)
        log=log.read_text,
    )
    return process, base


def stop(process: subprocess.Popen | None, timeout: float = 10) -> None:
    """SIGTERM, and SIGKILL if it has not ended within `timeout`."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)
