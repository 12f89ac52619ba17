"""HE-8 and HE-1 played on two phones, against the Spanish original.

"Si la Tropa reactiva retrasa su ORA, entonces sólo podrá declararla si el
Holoeco se revela con su segunda Habilidad Corta de la Orden." An Activate
reveals the bearer only if it needs a roll (HE-C1), which its player says
after declaring it (HE-1): until that answer, the delayed ARO is neither
lost nor free. Beside them, what both phones read when a Holoecho is left
alone (HE-C7) or faces an Entire Order (HE-8).
"""

from __future__ import annotations

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .phone_flows import ok, started
from .table import error_of, raw_post_as

pytestmark = pytest.mark.django_db


def _aro_lost() -> list:
    order = load_state(Match.objects.get()).turn.order
    return list(order.extra.get("aro_lost", ()))


def _delay_then_activate(a, b, ids):
    """Alice moves the Hassassin, Bob delays his ARO against it, Alice
    declares Activate as the second Short Skill."""
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="Move"))
    b.open()
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="delay_aro", target_id=hassassin))
    a.open()
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="Activate"))
    b.open()
    return hassassin


def test_an_activate_that_needs_a_roll_as_second_skill_frees_the_delayed_aro_he_8_he_c1():
    a, b, ids = started(holoecho="marker1")
    hassassin = _delay_then_activate(a, b, ids)
    # Nothing is lost while Alice has yet to say whether it needs a roll.
    assert "loses it (HE-8)" not in b.text and _aro_lost() == []
    assert not b.can("DeclareAro", trooper_id="Fusilier", skill="bs_attack")
    a.open()
    ok(a, a.submit("AnswerActivateRoll", shows="It needs a roll", answer="roll"))
    # It did: the Holoecho revealed itself with its second Short Skill.
    b.open()
    assert "loses it (HE-8)" not in b.text
    ok(
        b,
        b.submit(
            "DeclareAro",
            trooper_id="Fusilier",
            skill="bs_attack",
            target_id=hassassin,
            target_element="marker1",
        ),
    )


def test_an_activate_without_a_roll_as_second_skill_loses_the_delayed_aro_he_8_he_1():
    a, b, ids = started(holoecho="marker1")
    _delay_then_activate(a, b, ids)
    assert _aro_lost() == []  # not before the answer...
    a.open()
    ok(a, a.submit("AnswerActivateRoll", shows="No roll", answer="no_roll"))
    # ...which says it did not reveal itself: the delayed ARO is lost.
    b.open()
    assert "Fusilier delayed its ARO and loses it (HE-8)" in b.text
    assert _aro_lost() == [ids["Fusilier"]]
    assert not b.can("DeclareAro", trooper_id="Fusilier", skill="bs_attack")


IDLE = {
    "en": "for the decoys it is Idle (HE-1)",
    "es": "para los señuelos cuenta como Inacción (HE-1)",
}
NO_ROLL = {"en": "No roll", "es": "Sin tirada"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_activate_without_a_roll_is_idle_for_the_decoys_in_each_language_he_1(language):
    """HE-1: "considerando cualquier declaración de Activar o Alertar como una
    Inacción" — a Spanish phone reads Inacción, as the original says."""
    a, b, ids = started(holoecho="marker2", language_a=language, language_b=language)
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Hassassin Ayyar"], skill="activate"))
    ok(a, a.submit("AnswerActivateRoll", shows=NO_ROLL[language], answer="no_roll"))
    for phone in (a, b):
        phone.open()
        assert IDLE[language] in phone.text
        if language == "es":
            assert "Idle" not in phone.text


@pytest.mark.parametrize("skill", ["cautious_move", "suppressive_fire"])
def test_nothing_to_wait_for_after_an_entire_order_he_8(skill):
    """HE-8 lets the ARO wait "hasta que éste declare su segunda Habilidad
    Corta": an Entire Order has none. A delay offered there could never be
    declared (refused to the end of the Order as "declare it after the second
    Short Skill"), so the phone offers no delay and the ARO is declared at once."""
    a, b, ids = started(holoecho="marker1")
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill=skill))
    b.open()
    assert not b.can("DeclareAro", trooper_id="Fusilier", skill="delay_aro", target_id=hassassin)
    ok(
        b,
        b.submit(
            "DeclareAro",
            trooper_id="Fusilier",
            skill="dodge",
            target_id=hassassin,
            target_element="marker1",
        ),
    )


NO_SECOND_SKILL = {"en": "no second Short Skill", "es": "no tiene segunda Habilidad Corta"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_delay_sent_against_an_entire_order_is_refused_with_why_he_8(language):
    """The attack: a delay posted from a page that was never offered it."""
    a, b, ids = started(holoecho="marker1", language_b=language)
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="cautious_move"))
    b.open()
    fusilier = b.trooper_id("Fusilier")
    answer = raw_post_as(
        b, "DeclareAro", trooper_id=fusilier, skill="delay_aro", target_id=hassassin
    )
    refusal = error_of(answer)
    assert refusal is not None and NO_SECOND_SKILL[language] in refusal, refusal
    assert load_state(Match.objects.get()).turn.order.extra.get("delayed", {}) == {}


LONE = {
    "en": "Holoecho marker 1, the real one, is out of Coherency or has no other Holoecho left (HE-C7)",
    "es": "el real, está fuera de Coherencia o no le queda otro Holoeco (HE-C7)",
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_last_decoy_gone_says_the_real_one_is_alone_not_only_out_of_coherency(language):
    """One template hits the real one and the last decoy: the decoy's Saving
    Roll, reported first, removes it (HE-D3), and a lone Holoecho has none
    to be in Coherency with (HE-C7). It never moved out of Coherency, so the
    reveal must not say only that."""
    a, b, ids = started(holoecho="marker1", language_a=language, language_b=language)
    hassassin = ids["Hassassin Ayyar"]
    for decoy in ("marker2", "model"):
        b.open()
        ok(b, b.submit("ReportOutcome", outcome="saving_roll", trooper_id=hassassin, element=decoy))
    for phone in (a, b):
        phone.open()
        assert LONE[language] in phone.text, phone.text[-3000:]


PICKS = {
    "en": (
        "an ARO picks one of what you see — Holoecho marker 1 or the model (HE-3)",
        "your opponent's ARO picks one of what they see — Holoecho marker 1 or the model (HE-3)",
        "Holoecho marker 2",
    ),
    "es": (
        "una ORA elige uno de los que ves — Marcador de Holoeco 1 o la miniatura (HE-3)",
        "la ORA de tu rival elige uno de los que ve — Marcador de Holoeco 1 o la miniatura (HE-3)",
        "Marcador de Holoeco 2",
    ),
}


def _hint(phone) -> str:
    return " ".join(" ".join(p.get_text(" ").split()) for p in phone.soup.select(".rulings .hint"))


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_aro_hint_names_only_the_holoechoes_left_he_3(language):
    """HE-3: an ARO picks one of the Holoechoes the reactive player sees. A
    decoy removed by its Saving Roll (HE-D3) is no longer one of them, yet
    both phones' line still named "Holoecho marker 2"."""
    a, b, ids = started(holoecho="marker1", language_a=language, language_b=language)
    hassassin = ids["Hassassin Ayyar"]
    b.open()
    ok(b, b.submit("ReportOutcome", outcome="saving_roll", trooper_id=hassassin, element="marker2"))
    a.open()
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="move"))
    reactive, owner, gone = PICKS[language]
    b.open()
    assert reactive in _hint(b), _hint(b)
    a.open()
    assert owner in _hint(a), _hint(a)
    assert gone not in _hint(a) + _hint(b)


IN_HOLOECHO = {
    "en": "Hassassin Ayyar is in Holoecho: an ARO picks one of what you see",
    "es": "Hassassin Ayyar está en estado Holoeco: una ORA elige uno de los que ves",
}
MAY_DELAY = {
    "en": "you may delay it until its second Short Skill (HE-8)",
    "es": "puedes retrasarla hasta su segunda Habilidad Corta (HE-8)",
}
# The Holoecho's own player reads what the opponent's ARO may do.
OWNER_IN_HOLOECHO = {
    "en": "Hassassin Ayyar is in Holoecho: your opponent's ARO picks one of what they see",
    "es": "Hassassin Ayyar está en estado Holoeco: la ORA de tu rival elige uno de los que ve",
}
OWNER_MAY_DELAY = {
    "en": "they may delay it until its second Short Skill (HE-8)",
    "es": "puede retrasarla hasta su segunda Habilidad Corta (HE-8)",
}


def _rulings(phone) -> str:
    return " ".join(phone.soup.select_one(".rulings").get_text(" ").split())


@pytest.mark.parametrize("language", ["en", "es"])
def test_once_the_second_short_skill_is_declared_no_phone_says_an_aro_may_wait_for_it_he_8(
    language,
):
    """HE-8: the delay lasts "hasta que éste declare su segunda Habilidad
    Corta". After the first Short Skill both phones say an ARO may wait; once
    the second is declared there is nothing left to wait for, and the line
    says only how an ARO picks its target (HE-3)."""
    a, b, ids = started(holoecho="marker1", language_a=language, language_b=language)
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="move"))
    for phone, may_delay in ((a, OWNER_MAY_DELAY), (b, MAY_DELAY)):
        phone.open()
        assert may_delay[language] in _rulings(phone)
    a.open()
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="move"))
    for phone, in_holoecho in ((a, OWNER_IN_HOLOECHO), (b, IN_HOLOECHO)):
        phone.open()
        assert in_holoecho[language] in _rulings(phone)
        assert MAY_DELAY[language] not in _rulings(phone)
        assert OWNER_MAY_DELAY[language] not in _rulings(phone)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_coordinated_order_carried_by_a_holoecho_before_its_first_skill_he_8_tm_t1(language):
    """TM-T1: a Coordinated Order starts with no Short Skill declared yet,
    carried by the first trooper of the list, here the one in Holoecho. Both
    phones still show the page, and no ARO can wait for a second Short Skill
    that follows no first one yet (HE-8)."""
    a, b, _ids = started(holoecho="marker1", language_a=language, language_b=language)
    a.open()
    ok(a, a.submit("CoordinatedOrder", trooper_ids=["Hassassin Ayyar", "Kaplan"]))
    for phone, in_holoecho in ((a, OWNER_IN_HOLOECHO), (b, IN_HOLOECHO)):
        phone.open()
        assert in_holoecho[language] in _rulings(phone)
        assert MAY_DELAY[language] not in _rulings(phone)
        assert OWNER_MAY_DELAY[language] not in _rulings(phone)
