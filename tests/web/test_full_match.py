"""The whole match of tests/web/full_match.py, in English and in Spanish,
asserting at each checkpoint what each phone's page shows (issue 8)."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext

from .full_match import HD_FIDAI, HD_NINJA, FullMatch, state
from .phone import Phone

pytestmark = pytest.mark.django_db


def tokens_shown(count: int) -> str:
    return ngettext("%(counter)s Command Token", "%(counter)s Command Tokens", count) % {
        "counter": count
    }


class Expectations:
    """What the two pages must show at each checkpoint."""

    def __init__(self, language: str):
        self.language = language
        self.seen: list[str] = []

    def __call__(self, name: str, a: Phone, b: Phone) -> None:
        self.seen.append(name)
        for phone in (a, b):
            assert f'<html lang="{self.language}">' in phone.html
        with translation.override(self.language):
            check = getattr(self, _method(name), None)
            if check is not None:
                check(a, b)

    # setup ---------------------------------------------------------------------

    def setup_lists_locked(self, a, b):
        assert "Hassassin Ayyar" in b.text and "Fusilier" in a.text
        # Hidden Deployment: Bob's two hidden troopers are not on Alice's page.
        assert "Ninja" not in a.text and "Fidai" not in a.text
        assert a.can("SetInitiative") and not b.can("LockArmyList")

    def deployment_seal_forms(self, a, b):
        assert a.can("SealDeployment", reserve="Zhanshi")  # TM-S1, first Turn only
        seal = b.form("SealDeployment")
        assert "reserve" not in seal.names()
        assert {f"hd_position_{b.trooper_id('Ninja')}"} <= seal.names()

    # round 1 -------------------------------------------------------------------

    def round_1_alice_s_tactical_phase(self, a, b):
        assert tokens_shown(3) in a.text  # TM-S1 spent
        assert gettext("Your turn") in a.text and gettext("You are reactive") in b.text
        # TM-S2 waits for the end of Alice's Order Count.
        assert not b.can("LimitOpponentTokens") and not a.can("LimitOpponentTokens")

    def round_1_alice_s_order_count_made(self, a, b):
        assert b.can("LimitOpponentTokens") and b.can("DeclineStrategicUse")
        assert not a.can("AdvancePhase") and not a.can("LimitOpponentTokens")

    def round_1_after_tm_s2(self, a, b):
        limit = ngettext(
            "TM-S2: your opponent limited you to %(limit)s Command Token this Turn "
            "(%(spent)s spent).",
            "TM-S2: your opponent limited you to %(limit)s Command Tokens this Turn "
            "(%(spent)s spent).",
            1,
        )
        assert limit % {"limit": 1, "spent": 0} in a.text
        assert tokens_shown(3) in b.text

    def round_1_alice_s_impetuous_phase(self, a, b):
        assert a.can("DeclareSkill", trooper_id="Daylami")
        assert not b.can("DeclareSkill")

    def round_1_an_order_of_a_holoecho_trooper(self, a, b):
        aro = b.form("DeclareAro")
        assert "target_element" in aro.names()  # HE-3: pick which Holoecho
        assert b.can("DeclareAro", trooper_id="Fusilier", target_element="marker2")

    def round_1_a_decoy_removed(self, a, b):
        for phone in (a, b):
            assert "HE-D3" in phone.text
        # Bob learns nothing of which one is real.
        assert gettext("The real one is %(element)s.").split("%")[0] not in b.text

    def round_1_an_activate_by_a_holoecho_trooper(self, a, b):
        # HE-1: only Alice is asked whether it needs a roll; the Order waits.
        assert a.can("AnswerActivateRoll", answer="roll")
        assert a.can("AnswerActivateRoll", answer="no_roll")
        assert not b.can("AnswerActivateRoll")

    def round_1_hidden_deployment_ended_by_an_aro(self, a, b):
        assert HD_NINJA in a.text and "HD-C2" in a.text
        assert gettext("Matches what was sealed at %(time)s.").split("%")[0] in a.text
        assert "Ninja" in a.text

    def round_1_immobilized_a_for_want_of_room(self, a, b):
        for phone in (a, b):
            assert "RP-3" in phone.text
        assert b.can("ReportRoomChanged", trooper_id=b.trooper_id("Ninja"))

    def round_1_bolt_possessed(self, a, b):
        assert b.can("CancelPossessed", trooper_id="Bolt")
        assert not a.can("CancelPossessed")

    def round_1_a_camouflage_marker(self, a, b):
        assert a.can("DeclareAro")
        assert HD_FIDAI in b.text
        seat_b_on_alice = a.soup.select_one("#blk-seat_B").get_text(" ")
        assert gettext("Marker") in seat_b_on_alice

    def round_1_the_real_holoecho_discovered(self, a, b):
        for phone in (a, b):
            assert "HE-C5" in phone.text
        real = gettext("The real one is %(element)s.") % {"element": gettext("Holoecho marker 1")}
        assert real in b.text
        # RP-2: a 40 mm model replaces a 25 mm marker; only Alice chooses.
        assert a.can("ChooseReplacement", how="edge")
        hassassin = b.trooper_id("Hassassin Ayyar")
        assert not b.can("ChooseReplacement", trooper_id=hassassin)
        assert not b.can("ReportNoRoom", trooper_id=hassassin)

    # round 2 -------------------------------------------------------------------

    def round_2_a_doctor_s_order_tm_t5_tm_t6_offered(self, a, b):
        assert a.can("RerollDoctorWip", target_id="Kaplan")
        assert a.can("RerollEngineerWip", target_id="Zhanshi")
        assert not b.can("RerollDoctorWip")

    def round_2_alice_s_tokens_spent(self, a, b):
        assert tokens_shown(0) in a.text
        troopers = state().troopers
        assert troopers[a.trooper_id("Zhanshi")].combat_group == 2  # TM-E1

    def round_2_bob_in_retreat(self, a, b):
        assert gettext("Retreat!") in b.text and gettext("Retreat!") in a.text
        assert gettext("Loss of Lieutenant") in a.text
        assert b.can("EvacuateTrooper") and b.can("IgnoreRetreat", trooper_id="Fidai")
        assert not a.can("EvacuateTrooper")

    # round 3 and the result ---------------------------------------------------

    def round_3_retreat_over(self, a, b):
        assert "RT-X2" in b.text
        assert not b.can("EvacuateTrooper")

    def finished_result_to_report(self, a, b):
        for phone in (a, b):
            assert gettext("The match is over.") in phone.text
            assert phone.can("ProposeResult")

    def finished_result_proposed(self, a, b):
        assert b.can("ConfirmResult") and b.can("DisputeResult")
        assert gettext("Waiting for your opponent to confirm the result you proposed.") in a.text

    def finished_result_confirmed(self, a, b):
        for phone in (a, b):
            assert gettext("Both players confirmed the result.") in phone.text
            assert not phone.can("ProposeResult")


def _method(checkpoint: str) -> str:
    return (
        "".join(c if c.isalnum() else "_" for c in checkpoint.lower()).replace("__", "_").strip("_")
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_full_match_through_rendered_forms(language):
    expectations = Expectations(language)
    match = FullMatch(expectations, language=language).play()
    checked = {name for name in expectations.seen if hasattr(expectations, _method(name))}
    assert len(checked) >= 18, sorted(set(expectations.seen) - checked)
    final = state()
    assert final.phase == "finished"
    assert match.a.soup.select_one("html")["lang"] == language
    if language == "es":
        assert "Tokens de Mando" in match.a.text and "¡¡¡Retirada!!!" in match.b.html
