"""DESIGN: the rules are a pure package. Every module of tracker/rules/,
imported in a fresh interpreter, brings in no Django, Channels or asgiref
and nothing else of the tracker, so the rules run (and are tested) without
a settings module, a database or a server."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import tracker.rules
names = [m.name for m in pkgutil.iter_modules(tracker.rules.__path__)]
for name in names:
    importlib.import_module("tracker.rules." + name)
print(json.dumps({"modules": names, "loaded": sorted(sys.modules)}))
"""

# Packages the rules must not need: the web stack, and the rest of the app.
FORBIDDEN = ("django", "channels", "asgiref", "daphne", "twisted")


def test_every_rules_module_imports_without_django_or_the_app():
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # No settings: a rule module that reached for Django's would fail here.
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        check=True,
    )
    found = json.loads(done.stdout)
    assert len(found["modules"]) > 20  # the package itself was walked
    leaked = [
        name
        for name in found["loaded"]
        if name.split(".")[0] in FORBIDDEN
        or (name.startswith("tracker.") and not name.startswith("tracker.rules"))
    ]
    assert leaked == []
