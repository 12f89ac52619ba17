"""The whole match of tests/web/full_match.py, in English and in Spanish,
asserting at each checkpoint what each phone's page shows (issue 8)."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext

from tracker.rules.identity import MASK_PENDING

from .full_match import (
    FIRETEAM,
    HD_FIDAI,
    HD_NINJA,
    MASKED_AS,
    MASKED_COST,
    PROOF,
    FullMatch,
    state,
)
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
        self.match: FullMatch | None = None  # set before play: its Classified bookkeeping

    def cards(self, letter: str) -> dict:
        assert self.match is not None
        return self.match.classified[letter]

    @staticmethod
    def seat_block(phone: Phone, letter: str) -> str:
        return phone.soup.select_one(f"#blk-seat_{letter}").get_text(" ")

    @staticmethod
    def in_fireteam(phone: Phone) -> list[str]:
        """The names of Alice's trooper lines that show the Fireteam."""
        return [
            line.select_one(".name").get_text(strip=True)
            for line in phone.soup.select("#blk-seat_A li.trooper")
            if FIRETEAM in line.get_text(" ")
        ]

    def held_line(self, count: int) -> str:
        return ngettext(
            "%(counter)s Classified Objective held", "%(counter)s Classified Objectives held", count
        ) % {"counter": count}

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
        # HE-9: the HoloMask trooper has no type on Bob's page before its seal.
        assert "Hassassin Ayyar" not in b.html and gettext(MASK_PENDING) in b.text
        assert "Fusilier" in a.text
        # Hidden Deployment: Bob's two hidden troopers are not on Alice's page.
        assert "Ninja" not in a.text and "Fidai" not in a.text
        assert a.can("SetInitiative") and not b.can("LockArmyList")

    @staticmethod
    def drawn_on(phone: Phone) -> list[str]:
        keep = phone.form("KeepClassified")
        return [" ".join(label.get_text(" ").split()) for label in keep.node.select("label.check")]

    def seen_by(self, letter: str) -> set[str]:
        """Every card a seat drew or was dealt: its own page may name them."""
        hand = self.cards(letter)
        return {*hand["drawn"], *hand["kept"]}

    def unseen_by_other(self, cards, other: str) -> set[str]:
        # One deck per seat (CL-1): a card both drew is the other's own to see.
        return set(cards) - self.seen_by(other)

    def setup_classified_drawn(self, a, b):
        # CL-2: each phone lists its own three cards; the other's are not there.
        drawn = {"A": self.drawn_on(a), "B": self.drawn_on(b)}
        assert len(drawn["A"]) == len(drawn["B"]) == 3
        assert not any(card in b.html for card in set(drawn["A"]) - set(drawn["B"]))
        assert not any(card in a.html for card in set(drawn["B"]) - set(drawn["A"]))

    def setup_classified_kept(self, a, b):
        for mine, other, letter, other_letter in ((a, b, "A", "B"), (b, a, "B", "A")):
            kept = self.cards(letter)["kept"]
            assert [
                li.strong.get_text(strip=True) for li in mine.soup.select("ul.held li[id]")
            ] == kept
            # The opponent sees only how many are held (CL-3).
            assert self.held_line(2) in self.seat_block(other, letter)
            assert not any(c in other.html for c in self.unseen_by_other(kept, other_letter))
            # Each phone offers to exchange its own two cards, and only those.
            own = {li["id"].removeprefix("held-") for li in mine.soup.select("ul.held li[id]")}
            offered = {f.form["secret_id"].value for f in mine.forms("ExchangeClassified")}
            assert offered == own and len(own) == 2
            assert not mine.forms("KeepClassified") and not mine.forms("AccomplishClassified")

    def setup_a_classified_exchanged(self, a, b):
        hand = self.cards("A")
        assert hand["exchanged"] not in hand["kept"] and len(hand["kept"]) == 2
        assert hand["kept"][1] not in hand["drawn"]  # CL-4: a card not seen before
        assert self.held_line(2) in self.seat_block(b, "A")
        assert not any(c in b.html for c in self.unseen_by_other(hand["kept"], "B"))
        assert not a.forms("ExchangeClassified")  # one exchange in this match

    def deployment_seal_forms(self, a, b):
        assert a.can("SealDeployment", reserve="Zhanshi")  # TM-S1, first Turn only
        seal = b.form("SealDeployment")
        assert "reserve" not in seal.names()
        assert {f"hd_position_{b.trooper_id('Ninja')}"} <= seal.names()

    # round 1 -------------------------------------------------------------------

    def round_1_alice_s_tactical_phase(self, a, b):
        # HE-9: Bob reads the masked type and its points, never the true ones.
        line = b.soup.select_one(f"#trooper-{a.trooper_id('Hassassin Ayyar')}")
        assert (
            MASKED_AS in line.get_text(" ")
            and line.select_one("small").get_text().split()[0] == MASKED_COST
        )
        assert "Hassassin Ayyar" not in b.html
        assert "Hassassin Ayyar" in a.text
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
        # HE-9: HoloMask with Holoecho: Alice is asked for the Holoecho token.
        assert a.can("PlaceHoloechoToken", element="marker1") and not b.forms("PlaceHoloechoToken")

    def round_1_a_classified_accomplished(self, a, b):
        # CL-5: both phones show the card, its proof, and that it matches the seal.
        card = self.cards("A")["accomplished"]
        matches = gettext("Matches what was sealed at %(time)s.").split("%")[0]
        for phone in (a, b):
            revealed = [
                li.get_text(" ")
                for li in phone.soup.select("li.secret.revealed")
                if card in li.get_text(" ")
            ]
            assert revealed and matches in revealed[0], phone.text
            assert PROOF in phone.text
        assert self.held_line(1) in self.seat_block(b, "A")
        assert not any(c in b.html for c in self.unseen_by_other(self.cards("A")["kept"][1:], "B"))
        assert "Hassassin Ayyar" not in b.html

    def round_1_a_decoy_removed(self, a, b):
        for phone in (a, b):
            assert "HE-D3" in phone.text
        # HE-3: both logs say which Holoecho Bob's ARO was against (HoloMask
        # names them as models, HE-9), each phone naming the trooper as it
        # knows it: Bob the masked troop type, Alice her Hassassin.
        aro = gettext(
            "ARO of %(trooper_name)s against %(target_element)s of %(target_name)s: %(skill)s."
        )
        said = {"trooper_name": "Fusilier", "target_element": gettext("Model 3")}
        said["skill"] = gettext("BS Attack")
        assert aro % {**said, "target_name": MASKED_AS} in b.text
        assert aro % {**said, "target_name": "Hassassin Ayyar"} in a.text
        # Bob learns nothing of which one is real.
        assert gettext("The real one is %(element)s.").split("%")[0] not in b.text

    def round_1_an_activate_by_a_holoecho_trooper(self, a, b):
        # HE-9: the token went down in the Hassassin's first Order; not offered twice.
        assert not a.forms("PlaceHoloechoToken")
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
        hassassin = b.trooper_id(MASKED_AS)
        assert not b.can("ChooseReplacement", trooper_id=hassassin)
        assert not b.can("ReportNoRoom", trooper_id=hassassin)

    # round 2 -------------------------------------------------------------------

    def round_2_a_doctor_s_order_tm_t5_tm_t6_offered(self, a, b):
        assert a.can("RerollDoctorWip", target_id="Kaplan")
        assert a.can("RerollEngineerWip", target_id="Zhanshi")
        assert not b.can("RerollDoctorWip")

    def round_2_a_fireteam_formed(self, a, b):
        # The opponent sees the Fireteam, its members under the names he knows.
        assert self.in_fireteam(b) == [MASKED_AS, "Kaplan", "Daylami"]
        assert self.in_fireteam(a) == ["Hassassin Ayyar", "Kaplan", "Daylami"]
        assert "Hassassin Ayyar" not in b.html
        assert not b.forms("FormFireteam") and not b.forms("DissolveFireteam")
        assert a.can("DissolveFireteam", name=FIRETEAM)

    def round_2_holoecho_activated_in_a_fireteam(self, a, b):
        # HE-10: activating Holoecho took the bearer out; two remain.
        for phone in (a, b):
            assert "HE-10" in phone.text
            assert self.in_fireteam(phone) == ["Kaplan", "Daylami"]

    def round_3_the_fireteam_dissolved(self, a, b):
        for phone in (a, b):
            assert self.in_fireteam(phone) == []
        assert not a.forms("DissolveFireteam")

    def round_2_alice_s_tokens_spent(self, a, b):
        assert tokens_shown(0) in a.text
        # An ARO against no Holoecho names no target (here against a
        # Coordinated Order, TM-T1, which may answer any of its troopers).
        declared = gettext("%(trooper_name)s declares %(skill)s.")
        dodge = declared % {"trooper_name": "Fidai", "skill": gettext("Dodge")}
        for phone in (a, b):
            assert dodge in phone.text
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
            # Choices left open are moot once the match is over: none offered.
            assert not phone.forms("ChooseReplacement") and not phone.forms("ReportNoRoom")

    def finished_result_proposed(self, a, b):
        assert b.can("ConfirmResult") and b.can("DisputeResult")
        assert gettext("Waiting for your opponent to confirm the result you proposed.") in a.text

    def finished_result_confirmed(self, a, b):
        for phone in (a, b):
            assert gettext("Both players confirmed the result.") in phone.text
            assert not phone.can("ProposeResult")
        # CL-6: cards never accomplished stay out of the opponent's page...
        never_a = self.cards("A")["kept"][1]
        assert never_a in a.html
        assert not any(c in b.html for c in self.unseen_by_other([never_a], "B"))
        never_b = self.cards("B")["kept"]
        assert all(card in b.html for card in never_b)
        assert not any(c in a.html for c in self.unseen_by_other(never_b, "A"))
        assert self.held_line(1) in self.seat_block(b, "A")
        assert self.held_line(2) in self.seat_block(a, "B")
        # ...and HoloMask was never ended: Bob never read the true type.
        assert "Hassassin Ayyar" not in b.html and MASKED_AS in b.text


def _method(checkpoint: str) -> str:
    return (
        "".join(c if c.isalnum() else "_" for c in checkpoint.lower()).replace("__", "_").strip("_")
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_full_match_through_rendered_forms(language):
    expectations = Expectations(language)
    match = FullMatch(expectations, language=language)
    expectations.match = match
    match.play()
    checked = {name for name in expectations.seen if hasattr(expectations, _method(name))}
    assert len(checked) >= 18, sorted(set(expectations.seen) - checked)
    final = state()
    assert final.phase == "finished"
    assert match.a.soup.select_one("html")["lang"] == language
    if language == "es":
        assert "Tokens de Mando" in match.a.text and "¡¡¡Retirada!!!" in match.b.html
