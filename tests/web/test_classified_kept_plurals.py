"""How many Classified Objectives a player keeps is said in words, one or
several (CL-3): the log line and the refusal of a wrong count read "kept 1
Classified Objective" and "Keep exactly 2 Classified Objectives", not
"Objective(s)" (nor "Objetivo(s) Clasificado(s)" on a Spanish phone).
Through the forms each phone was sent."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone

pytestmark = pytest.mark.django_db

KEPT = {
    1: {
        "en": "Alice kept 1 Classified Objective, sealed.",
        "es": "Alice se quedó 1 Objetivo Clasificado, sellado.",
    },
    2: {
        "en": "Alice kept 2 Classified Objectives, sealed.",
        "es": "Alice se quedó 2 Objetivos Clasificados, sellados.",
    },
}
KEEP_EXACTLY = {
    1: {
        "en": "Keep exactly 1 Classified Objective.",
        "es": "Quédate exactamente 1 Objetivo Clasificado.",
    },
    2: {
        "en": "Keep exactly 2 Classified Objectives.",
        "es": "Quédate exactamente 2 Objetivos Clasificados.",
    },
}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("kept", [1, 2])
def test_cards_kept_are_counted_in_words_one_or_several(lang, kept):
    alice, bob = Phone(lang), Phone("en")
    links = alice.create_match(
        "League night", rounds=1, classified_drawn="3", classified_kept=str(kept)
    )
    alice.claim(links["A"], "Alice")
    bob.claim(links["B"], "Bob")
    for phone, trooper in ((alice, "Kaplan"), (bob, "Fusilier")):
        phone.submit("draft/add", name=trooper, cost="20")
        phone.submit("LockArmyList")
    alice.submit("DrawClassified")

    # One card too many: refused, in words (CL-3).
    alice.submit("KeepClassified", keep=[str(n) for n in range(kept + 1)])
    assert alice.error is not None and KEEP_EXACTLY[kept][lang] in alice.error
    alice.submit("KeepClassified", keep=[str(n) for n in range(kept)])
    assert alice.error is None
    assert KEPT[kept][lang] in alice.text
    bob.open()
    assert KEPT[kept]["en"] in bob.text
