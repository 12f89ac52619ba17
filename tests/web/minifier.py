"""Whether this machine publishes our scripts through tdewolff-minify, which
renames their locals: requirements.txt installs it only where it has a wheel
(tracker/static_storage.py falls back on rjsmin and rcssmin elsewhere)."""

from __future__ import annotations

import os
from importlib.util import find_spec

import pytest


def require_tdewolff() -> None:
    """Skip a check of what tdewolff-minify publishes on a machine without
    it, saying so; in CI (Linux on x86_64, where it has a wheel) fail."""
    if find_spec("minify") is not None:
        return
    reason = "tdewolff-minify has no wheel for this machine (requirements.txt): rjsmin publishes"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)
