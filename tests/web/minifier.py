"""Our static files as `make run` publishes them, for the tests that count
or read them: collected into a folder of their own, and whether this machine
publishes our scripts through tdewolff-minify, which renames their locals
(requirements.txt installs it only where it has a wheel;
tracker/static_storage.py falls back on rjsmin and rcssmin elsewhere)."""

from __future__ import annotations

import os
from importlib.util import find_spec

import pytest
from django.core.management import call_command
from django.test import override_settings

# The storages `make run` publishes with (tracker/settings.py, with a fresh
# manifest): minified, hashed, with their compressed copies.
PUBLISHING = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "tracker.static_storage.MinifiedManifestStaticFilesStorage"},
}


def collect_static(root) -> None:
    """collectstatic into `root` as `make run` runs it (admin's files, not
    ours nor a player's, left out)."""
    with override_settings(STATIC_ROOT=root, STORAGES=PUBLISHING):
        call_command("collectstatic", "--noinput", "-v0", "--ignore", "admin")


def require_tdewolff() -> None:
    """Skip a check of what tdewolff-minify publishes on a machine without
    it, saying so; in CI (Linux on x86_64, where it has a wheel) fail."""
    if find_spec("minify") is not None:
        return
    reason = "tdewolff-minify has no wheel for this machine (requirements.txt): rjsmin publishes"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)
