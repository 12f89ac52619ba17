"""The phone's own SHA-256 (static/tracker/sha256.js) against the standard
known-answer vectors, run as shipped: served by the tracker (whitenoise,
under its CSP, over plain http) and executed by Chromium.

We keep our own file rather than vendoring @noble/hashes: noble ships ES
modules whose imports need a bundler or an inline import map (the CSP allows
no inline script), and plain-http phones have no crypto.subtle to fall back
on. Its correctness rests on these vectors instead (issue 11, finding 11).
"""

from __future__ import annotations

import hashlib
import random

import pytest

# FIPS 180-2 / NIST CSRC examples.
NIST = {
    "": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    # 448 bits
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    # 896 bits
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu": (
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
}
MILLION_A = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
UTF8 = [
    "ñ",
    "Holoeco ¡¡¡Retirada!!! Despliegue Oculto",
    "🎲 dados, 骰子, кубик",
    '{"position":"detrás del contenedor rojo ✓"}',
]


@pytest.fixture
def page(server, phone):
    page = phone()
    page.goto(server.url + "/")
    # Fetched as app.js fetches it when a commitment is there to check.
    page.evaluate(
        """() => new Promise((loaded, failed) => {
        const script = document.createElement("script");
        script.src = document.body.dataset.sha256;
        script.onload = loaded;
        script.onerror = failed;
        document.head.appendChild(script);
    })"""
    )
    return page


def js_hash_text(page, text: str) -> str:
    return page.evaluate("t => window.trackerSha256(new TextEncoder().encode(t))", text)


def js_hash_bytes(page, data: bytes) -> str:
    return page.evaluate("b => window.trackerSha256(new Uint8Array(b))", list(data))


def test_the_shipped_sha256_gives_the_nist_answers(page):
    for text, expected in NIST.items():
        assert hashlib.sha256(text.encode()).hexdigest() == expected  # the vector itself
        assert js_hash_text(page, text) == expected, text
    million = page.evaluate("() => window.trackerSha256(new Uint8Array(1000000).fill(97))")
    assert million == MILLION_A


def test_the_shipped_sha256_hashes_multibyte_utf8_as_python_does(page):
    for text in UTF8:
        assert js_hash_text(page, text) == hashlib.sha256(text.encode("utf-8")).hexdigest(), text


def test_the_shipped_sha256_is_right_at_every_padding_boundary(page):
    """Lengths around the 55/56/64-byte padding edges, and random bytes."""
    generator = random.Random(11)  # seeded: a failure repeats
    lengths = [*range(0, 130), 183, 184, 191, 192, 1000, 4095, 4096, 4097]
    for length in lengths:
        data = bytes(generator.randrange(256) for _ in range(length))
        assert js_hash_bytes(page, data) == hashlib.sha256(data).hexdigest(), length
