"""One seat's army list open on two screens (a second tab, or the old page
still open after a reload elsewhere): each add form names its new row by
the list it was rendered for, so both forms carry the same row id.

The second screen's trooper was answered as added and never was: the
server took the id as a repeat of the first screen's row and kept silent.
Now a different row under a row id already used is refused, in the phone's
language, and the list it is shown is the one that holds; the same row sent
twice (a tap repeated on a stalling Wi-Fi) is still added once."""

from __future__ import annotations

import pytest
from django.utils import translation

from tracker.models import Match, Seat
from tracker.reading import load_state

from .phone import Phone
from .phone_flows import seated

pytestmark = pytest.mark.django_db

CHANGED = (
    "Your list changed before this trooper arrived (another screen, or a tap that landed "
    "late): it was not added. Check the list and add it again."
)


def second_screen(phone: Phone, language: str) -> Phone:
    """The same browser (its cookies) in another tab, on the match page."""
    tab = Phone(language)
    for cookie in phone.app.cookiejar:
        tab.app.cookiejar.set_cookie(cookie)
    tab.open(phone.code)
    return tab


def locked(code: str) -> bool:
    return load_state(Match.objects.get(code=code)).seat("A").list_locked


def draft_names(code: str) -> list[str]:
    return [row["name"] for row in Seat.objects.get(match__code=code, letter="A").draft]


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_row_added_on_a_second_screen_is_refused_not_lost_in_silence(language):
    alice, _bob = seated(language, "en")
    alice.open()
    tab = second_screen(alice, language)
    alice.submit("draft/add", name="Uno", cost="10")
    assert alice.error is None
    [form] = tab.forms("draft/add")  # rendered before "Uno" was added
    form.fill({"name": "Dos", "cost": "12"})
    tab.send(form, reload=False)
    with translation.override(language):
        assert tab.error == translation.gettext(CHANGED)
    assert draft_names(alice.code) == ["Uno"]
    # The answer shows the list as it is, with an add form for the next row.
    tab.html = tab.last.text
    assert "Uno" in tab.text
    tab.open()
    tab.submit("draft/add", name="Dos", cost="12")
    assert tab.error is None
    assert draft_names(alice.code) == ["Uno", "Dos"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_same_row_sent_twice_is_added_once(language):
    alice, _bob = seated(language, "en")
    alice.open()
    [form] = alice.forms("draft/add")
    form.fill({"name": "Uno", "cost": "10"})
    alice.send(form, reload=False)
    alice.send(form, reload=False)
    assert alice.error is None
    assert draft_names(alice.code) == ["Uno"]


LOCK_CHANGED = (
    "Your list changed on another screen since this page showed it: "
    "check it below and lock it again."
)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_lock_from_a_screen_showing_an_older_list_is_refused(language):
    """A trooper removed on one tab, "Lock my list" tapped on the other, which
    still showed it: the list locked was not the one on that screen (found
    playing two tabs of one seat). Now the lock is refused in the phone's
    language and the answer shows the list as it is; locked from there, it
    locks."""
    alice, _bob = seated(language, "en")
    alice.open()
    alice.submit("draft/add", name="Uno", cost="10")
    alice.submit("draft/add", name="Dos", cost="12")
    tab = second_screen(alice, language)
    draft = Seat.objects.get(match__code=alice.code, letter="A").draft
    alice.submit("draft/remove", trooper_id=draft[1]["id"])
    assert alice.error is None and draft_names(alice.code) == ["Uno"]
    assert "Dos" in tab.text  # rendered before the removal
    tab.submit("LockArmyList")
    with translation.override(language):
        assert tab.error == translation.gettext(LOCK_CHANGED)
    assert (tab.error == LOCK_CHANGED) == (language == "en")
    assert not locked(alice.code)
    tab.html = tab.last.text
    assert "Dos" not in tab.text
    tab.open()
    tab.submit("LockArmyList")
    assert tab.error is None and locked(alice.code)


IMPORT_CHANGED = (
    "Your list changed on another screen since this page showed it: "
    "check it below, then import the pasted list again to replace it."
)


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_import_from_a_screen_showing_an_older_list_asks_again(language):
    """Troopers added on one tab, a list pasted on the other, which still
    showed an empty draft and so asked no "Replace the troopers…?": the
    import replaced troopers that screen never showed (found playing two tabs
    of one seat). Now it is refused in the phone's language, the pasted text
    kept in its box, and the answer shows the list as it is; imported from
    there (the page asks before replacing), it imports."""
    alice, _bob = seated(language, "en")
    alice.open()
    tab = second_screen(alice, language)  # the draft empty here
    alice.submit("draft/add", name="Uno", cost="10")
    assert alice.error is None
    [form] = tab.forms("draft/import")
    assert form.confirm is None  # nothing to replace, as it shows
    pasted = "GROUP 1 10 1\n\nFUSILIER Combi Rifle / Pistol, Knife. (0 | 10)"
    form.fill({"text": pasted})
    tab.send(form, reload=False)
    with translation.override(language):
        assert tab.error == translation.gettext(IMPORT_CHANGED)
    assert draft_names(alice.code) == ["Uno"]
    tab.html = tab.last.text
    assert "Uno" in tab.text
    [again] = tab.forms("draft/import")
    assert again.form["text"].value.strip() == pasted  # kept, to import again
    assert again.confirm  # now it asks before replacing
    tab.open()  # (the answer is swapped into a page that carries the CSRF header)
    [again] = tab.forms("draft/import")
    again.fill({"text": pasted})
    tab.send(again, reload=False)
    assert tab.error is None
    assert [name.upper() for name in draft_names(alice.code)] == ["FUSILIER"]
