"""Our JS and CSS as collectstatic publishes them (tracker/static_storage.py):
minified (locals renamed, where tdewolff-minify has a wheel), and the same
bytes under the same name however often collectstatic runs, since the
minifier would rename a minified file's locals anew and a new name for
unchanged code is a year-long cache missed."""

from __future__ import annotations

import json

import rjsmin

from tracker.static_storage import minified

from .minifier import collect_static, require_tdewolff

SOURCE = "static/tracker/app.js"


def published(root) -> dict[str, bytes]:
    names = json.loads((root / "staticfiles.json").read_text())["paths"]
    return {
        name: (root / names[name]).read_bytes() for name in ("tracker/app.js", "tracker/app.css")
    }


def test_collectstatic_publishes_the_same_minified_files_every_run(tmp_path):
    collect_static(tmp_path)
    first = published(tmp_path)
    names = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    # The second run copies nothing again (the files are unchanged) and
    # must still publish what the first did, under the same names.
    collect_static(tmp_path)
    assert json.loads((tmp_path / "staticfiles.json").read_text())["paths"] == names
    assert published(tmp_path) == first

    with open(SOURCE, encoding="utf-8") as handle:
        source = handle.read()
    script = first["tracker/app.js"].decode()
    assert script == minified("tracker/app.js", source)
    assert "The link to the server" not in script  # the comments are gone
    assert len(script) < len(source) * 0.6


def test_published_scripts_have_their_locals_renamed():
    require_tdewolff()
    with open(SOURCE, encoding="utf-8") as handle:
        source = handle.read()
    script = minified("tracker/app.js", source)
    assert "function socketPath(" in source and "socketPath" not in script
    assert len(script) < len(rjsmin.jsmin(source, keep_bang_comments=True)) * 0.85
