"""Every string in Spanish and English; the compiled catalogue matches the source."""

import ast
import gettext
from pathlib import Path

import pytest

from tracker.rules import orders

from .phone_flows import seated
from .table import error_of
from .table import seated as raw_seated

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES"


def po_entries(path: Path) -> list[dict]:
    """A small .po reader: msgid, msgid_plural and msgstr[...] of each entry."""
    entries, current, key = [], {}, None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if current:
                entries.append(current)
            current, key = {}, None
        elif line.startswith("#"):
            current.setdefault("flags", []).append(line)
        elif line.startswith('"'):
            current[key] += ast.literal_eval(line)
        else:
            key, _, value = line.partition(" ")
            current[key] = ast.literal_eval(value)
    if current:
        entries.append(current)
    return [entry for entry in entries if entry.get("msgid")]


def test_every_string_has_a_spanish_translation():
    entries = po_entries(LOCALE / "django.po")
    assert len(entries) > 300
    untranslated = [e["msgid"] for e in entries if not (e.get("msgstr") or e.get("msgstr[0]"))]
    fuzzy = [e["msgid"] for e in entries if any("fuzzy" in f for f in e.get("flags", []))]
    assert untranslated == [] and fuzzy == []


def test_the_compiled_catalogue_matches_the_source():
    with open(LOCALE / "django.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in po_entries(LOCALE / "django.po"):
        if "msgid_plural" in entry:
            assert compiled.ngettext(entry["msgid"], entry["msgid_plural"], 1) == entry["msgstr[0]"]
        else:
            assert compiled.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]


def test_every_rules_label_is_in_the_catalogue():
    """Rules strings are marked with the `_` identity marker; makemessages
    must have picked them up, or players would see English."""
    msgids = {e["msgid"] for e in po_entries(LOCALE / "django.po")}
    labels = [skill.label for skill in orders.SKILLS.values()] + list(orders.OUTCOME_KINDS.values())
    assert [label for label in labels if label not in msgids] == []


@pytest.mark.django_db
def test_refusals_are_shown_in_spanish():
    a, _b = seated(language_a="es")
    a.submit("draft/add", name="   ", cost="10")  # spaces pass the browser's "required"
    assert a.error == f"{_spanish('Trooper')}: Este campo es obligatorio."


@pytest.mark.django_db
def test_a_forged_refusal_is_shown_in_spanish(alice, bob):
    a, _b = raw_seated(alice, bob)
    alice.cookies["django_language"] = "es"
    response = a.raw_post("LockArmyList")  # no page offers it with an empty list
    assert error_of(response) == _spanish("Add at least one trooper before locking the list.")
    assert error_of(response) != "Add at least one trooper before locking the list."


@pytest.mark.django_db
def test_the_match_page_speaks_spanish():
    a, _b = seated(language_a="es")
    assert 'lang="es"' in a.html
    assert _spanish("Your army list") in a.text


def _spanish(msgid: str) -> str:
    with open(LOCALE / "django.mo", "rb") as handle:
        return gettext.GNUTranslations(handle).gettext(msgid)


def test_a_param_the_rules_mark_is_translated_and_a_typed_one_is_not():
    """Issue 22: "%(what)s is too long", what=_("The Fireteam's name") showed
    the label in English. A param marked with the rules' `_` is translated
    where the message is shown; a name the player typed is shown as typed."""
    from django.utils import translation

    from tracker.rules.i18n import _
    from tracker.templatetags.tracker_tags import marker_names

    with translation.override("es"):
        params = marker_names({"what": _("The reason"), "name": "The reason"})
    assert params == {"what": _spanish("The reason"), "name": "The reason"}
    assert params["what"] != "The reason"
