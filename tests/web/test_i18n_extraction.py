"""The committed catalogue is what makemessages would write today.

A string wrapped in gettext but missing from the catalogue shows in English on
a Spanish phone; a string marked with an alias xgettext does not know (the
rules package's `_` under another name) is never extracted at all. Running
makemessages into a copy of the catalogue and comparing entries catches both.
"""

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from tests.support import skip_or_fail

from .test_i18n import LOCALE, po_entries


def _entries(path: Path) -> dict[tuple[str, str], object]:
    return {
        (entry["msgid"], entry.get("msgid_plural", "")): (
            entry.get("msgstr") or [entry[k] for k in sorted(entry) if k.startswith("msgstr[")],
            any("fuzzy" in flag for flag in entry.get("flags", [])),
        )
        for entry in po_entries(path)
    }


def test_makemessages_would_change_nothing(tmp_path, monkeypatch):
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        skip_or_fail("GNU gettext is not installed (apt-get install gettext)", "REQUIRE_GETTEXT")
    copy = tmp_path / "es" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    shutil.copy(LOCALE / "django.po", copy / "django.po")
    project = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(project)
    with override_settings(LOCALE_PATHS=[tmp_path]):
        call_command(
            "makemessages", locale=["es"], no_obsolete=True, add_location="file", verbosity=0
        )
    before, after = _entries(LOCALE / "django.po"), _entries(copy / "django.po")
    added = sorted(key[0] for key in after.keys() - before.keys())
    removed = sorted(key[0] for key in before.keys() - after.keys())
    changed = sorted(key[0] for key in after.keys() & before.keys() if after[key] != before[key])
    assert (added, removed, changed) == ([], [], []), (
        "run `make messages` and translate: makemessages would add, drop or change these"
    )


@pytest.mark.parametrize(
    "msgid",
    ["Some information is missing; reload the page.", "Unknown action."],
)
def test_refusals_built_in_the_web_layer_are_extracted(msgid):
    """They were built with the rules' marker under another name, invisible to
    xgettext."""
    assert msgid in {e["msgid"] for e in po_entries(LOCALE / "django.po")}
