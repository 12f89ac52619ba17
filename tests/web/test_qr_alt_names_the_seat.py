"""The host page's two QR codes, read by a screen reader: each names its
seat (both said "QR code of the seat link", so a host who cannot see them
could not tell which code to show which player). The printed sheets alike."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone

pytestmark = pytest.mark.django_db

ALTS = {
    "en": ["QR code of seat A's link", "QR code of seat B's link"],
    "es": ["Código QR del enlace del asiento A", "Código QR del enlace del asiento B"],
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_qr_code_names_its_seat(lang):
    host = Phone(lang)
    host.create_match()
    assert [img["alt"] for img in host.soup.select("img.qr")] == ALTS[lang]
