"""HE-D2 played on two phones: "Un señuelo holográfico ... se retira de la
mesa de juego siempre que: Entre en contacto de Silueta con una Miniatura"
— any model, its own side's too; the real bearer ends only touching an
enemy one (HE-C3: "una Miniatura enemiga").

The report form offered only "Silhouette contact with an enemy": a decoy
that touched one of its own side's models could not be removed without
saying something untrue, and reported that way on the real one it ended
the Holoecho. Its player now reports it; the opponent reads only a decoy
leaving, never which one is real.
"""

from __future__ import annotations

import pytest

from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.state import HOLOECHO

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db

OWN_CONTACT = {
    "en": "A Holoecho touched one of your own models",
    "es": "Un Holoeco ha tocado una de tus propias Miniaturas",
}
DECOY_GONE = {
    "en": "Holoecho marker 2 was a decoy — it touched a model and is removed (HE-D2)",
    "es": "Marcador de Holoeco 2 era un señuelo — ha tocado una miniatura y se retira (HE-D2)",
}
REAL_STAYS = {
    "en": "touching one of your own models does not end its Holoecho",
    "es": "tocar una de tus propias Miniaturas no cancela su Holoeco",
}


def _holoecho():
    state = load_state(Match.objects.get())
    hassassin = next(t for t in state.troopers.values() if t.name == "Hassassin Ayyar")
    sealed = next(s for s in state.secrets.values() if s.kind == HOLOECHO)
    return hassassin.holoechoes, sealed.revealed


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_holoecho_touching_its_own_side_removes_a_decoy_and_keeps_the_real_one_he_d2(language):
    a, b, ids = started(holoecho="marker1", language_a=language, language_b=language)
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="move"))
    # Only its player says so: Bob is not offered it.
    b.open()
    assert not b.can("ReportOutcome", outcome="own_contact", trooper_id=hassassin)
    a.open()
    form = a.form("ReportOutcome", outcome="own_contact", trooper_id=hassassin, element="marker2")
    assert OWN_CONTACT[language] in form.text
    ok(
        a,
        a.submit("ReportOutcome", outcome="own_contact", trooper_id=hassassin, element="marker2"),
    )
    b.open()
    assert DECOY_GONE[language] in b.text
    assert _holoecho() == (("model", "marker1"), False)
    # The real one touching Alice's own model: nothing leaves, nothing is revealed.
    ok(
        a,
        a.submit("ReportOutcome", outcome="own_contact", trooper_id=hassassin, element="marker1"),
    )
    assert REAL_STAYS[language] in a.text
    assert _holoecho() == (("model", "marker1"), False)
    b.open()
    assert REAL_STAYS[language] not in b.text
    assert "HE-C3" not in b.text
