"""Skips that CI turns into failures, and small helpers the tests share."""

import asyncio
import concurrent.futures
import os
import shutil

import pytest


def skip_or_fail(reason: str, required_by: str) -> None:
    """Skip with `reason`, unless the environment variable `required_by` is set
    (CI sets it), in which case the missing prerequisite is a failure."""
    if os.environ.get(required_by):
        pytest.fail(f"{reason} ({required_by} is set, so this check may not be skipped)")
    pytest.skip(reason)


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        skip_or_fail("chromium is not installed (apt-get install chromium)", "REQUIRE_BROWSER")
    return path


# Lines a test wants in the terminal summary whatever the capture mode (-s or
# not): tests/conftest.py prints them at the end of the run, so they show in
# CI's output even when the test passes.
REPORTS: list[tuple[str, list[str]]] = []


def report(title: str, lines: list[str]) -> None:
    REPORTS.append((title, lines))


def in_own_loop(coroutine_function, timeout: float = 30):
    """Run `coroutine_function()` on an event loop of its own thread: in the
    whole run a browser test's Playwright may leave a loop running in the
    test's thread, where asyncio.run refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine_function()).result(timeout=timeout)
