"""Every websocket push speaks the language of the phone it goes to (issue 10).

LocaleMiddleware does not run for websockets: the consumer chooses the
language at the handshake as the middleware does for HTTP (language cookie,
then Accept-Language). A Spanish phone and an English phone play through the
real forms; every frame each socket receives is checked against the whole
catalogue: no English-only sentence on the Spanish side, no Spanish-only one
on the English side.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from bs4 import BeautifulSoup
from channels.testing import WebsocketCommunicator
from django.conf import settings

from tests.web.phone import Phone
from tests.web.test_i18n import po_entries
from tracker.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES" / "django.po"


def _sentences() -> tuple[set[str], set[str]]:
    """(English-only, Spanish-only) strings of at least two words that cannot
    be confused: no placeholders, and not found inside any string of the
    other language."""
    pairs = [
        (e["msgid"], e.get("msgstr", ""))
        for e in po_entries(CATALOGUE)
        if "msgid_plural" not in e and e.get("msgstr")
    ]
    english = {m for m, s in pairs if m != s}
    spanish = {s for m, s in pairs if m != s}

    def usable(text: str, other: set[str]) -> bool:
        return (
            len(text.split()) >= 2
            and "%" not in text
            and "{" not in text
            and "<" not in text
            and not any(text in o for o in other)
        )

    return {t for t in english if usable(t, spanish)}, {t for t in spanish if usable(t, english)}


ENGLISH_ONLY, SPANISH_ONLY = _sentences()


def visible_text(frame: str) -> str:
    soup = BeautifulSoup(frame, "lxml")
    words = [soup.get_text(" ")]
    # What a phone shows without it being text: button values, placeholders,
    # confirmations, labels read aloud.
    for node in soup.find_all(True):
        for name in ("placeholder", "hx-confirm", "aria-label", "title", "value"):
            if node.has_attr(name):
                words.append(str(node[name]))
    return " ".join(" ".join(words).split())


def wrong_language(frame: str, language: str) -> list[str]:
    text = visible_text(frame)
    foreign = ENGLISH_ONLY if language == "es" else SPANISH_ONLY
    return sorted(s for s in foreign if " ".join(s.split()) in text)


def handshake(phone: Phone, code: str, *, cookie_language: bool) -> WebsocketCommunicator:
    cookies = {"sessionid": phone.app.cookies.get("sessionid", "")}
    if cookie_language:
        cookies[settings.LANGUAGE_COOKIE_NAME] = phone.language
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"accept-language", f"{phone.language};q=1.0".encode()),
        (b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items() if v).encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/m/{code}/", headers=headers)


async def drain(socket: WebsocketCommunicator, frames: list[str], until=None) -> None:
    """Every frame the socket has for us: those until `until(frames)` holds
    (a push a busy machine may render late: up to 30 s), then any that
    follow within 0.3 s of each other."""
    if until is not None:
        async with asyncio.timeout(30):
            while not until(frames):
                frames.append(await socket.receive_from(timeout=30))
    while not await socket.receive_nothing(timeout=0.3):
        frames.append(await socket.receive_from(timeout=3))


def _play_setup(alice: Phone, bob: Phone) -> None:
    """Both lists through the rendered forms, locked, initiative rolled."""
    for phone, troopers in (
        (alice, [("Kaplan", "20", ["lieutenant_candidate"]), ("Zhanshi", "10", [])]),
        (bob, [("Fusilier", "10", ["lieutenant_candidate"]), ("Bolt", "15", [])]),
    ):
        for name, cost, traits in troopers:
            values = {"name": name, "cost": cost}
            if traits:
                values["traits"] = traits
            phone.submit("draft/add", **values)
            assert phone.error is None, phone.error
        phone.submit("LockArmyList")
        assert phone.error is None, phone.error


@pytest.mark.parametrize("cookie_language", [True, False], ids=["cookie", "accept-language"])
async def test_each_phone_gets_its_own_language_in_every_push(cookie_language):
    def seat_two_phones():
        links = Phone(language="en").create_match(name="Idiomas")
        alice, bob = Phone(language="en"), Phone(language="es")
        if not cookie_language:
            # Only the handshake's Accept-Language tells the language.
            for phone in (alice, bob):
                phone.app.reset()
                phone.app.extra_environ["HTTP_ACCEPT_LANGUAGE"] = phone.language
        alice.claim(links["A"], "Alice")
        bob.claim(links["B"], "Bob")
        watchers = [Phone(language="es"), Phone(language="en")]
        for watcher in watchers:
            watcher.open(alice.code)
        return alice, bob, watchers

    alice, bob, watchers = await sync_to_async(seat_two_phones)()
    phones = [alice, bob, *watchers]
    sockets = [handshake(p, alice.code, cookie_language=cookie_language) for p in phones]
    frames: list[list[str]] = [[] for _ in phones]
    for socket, got in zip(sockets, frames, strict=True):
        connected, _ = await socket.connect()
        assert connected
        got.append(await socket.receive_from(timeout=3))

    await sync_to_async(_play_setup)(alice, bob)
    for socket, got in zip(sockets, frames, strict=True):
        await drain(socket, got, until=lambda got: any("Kaplan" in f for f in got[1:]))
    # A push after the other phone acted, not only the first frame.
    for got in frames:
        assert len(got) >= 2 and any("Kaplan" in f for f in got[1:]), got

    for phone, got in zip(phones, frames, strict=True):
        for n, frame in enumerate(got):
            assert wrong_language(frame, phone.language) == [], (phone.language, n)
    spanish = "".join(frames[1])
    assert "Tu Lista de Ejército" in spanish or "Lista" in visible_text(spanish)
    for socket in sockets:
        await socket.disconnect()


def test_the_checker_sees_english_in_a_spanish_frame_and_the_reverse():
    """The check above can fail: one English sentence in a Spanish frame (and
    one Spanish sentence in an English frame) is caught."""
    english = sorted(ENGLISH_ONLY)[0]
    spanish = sorted(SPANISH_ONLY)[0]
    assert wrong_language(f"<section><p>{re.escape(english) and english}</p></section>", "es")
    assert wrong_language(f"<section><p>{spanish}</p></section>", "en")
    assert not wrong_language(f"<section><p>{spanish}</p></section>", "es")
