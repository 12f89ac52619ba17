"""A whole match played on two phones through the forms their pages render.

Alice (first Player Turn) fields a Holoprojector list; Bob a Camouflaged
Hidden Deployment trooper and an Infiltrator who is also Camouflaged. Three
Game Rounds cover: deployment sealing with a TM-S1 reserve, the Impetuous
Phase, Orders and AROs against ordinary troopers, a Holoecho and a
Camouflage marker, a decoy hit (HE-D3), Hidden Deployment ended by an ARO
(HD-C2), a Holoecho discovered (HE-C5) with the RP-2 placement choice,
Command Tokens (S1, S2, E1, E2, T1, T2, T3, T4), Retreat! (RT-A) and its end
(RT-X2), the result proposed and confirmed. With them: Classified Objectives
(CL-1..CL-6: drawn, kept, one exchanged before play, one accomplished in play,
the others never shown to the opponent), HoloMask on the Hassassin (HE-9:
sealed at deployment, its Holoecho token placed at its first activation) and
a Fireteam formed once its Holoecho is discovered, left by the Hassassin when
it activates Holoecho again (HE-10) and dissolved.

`play(checkpoint)` calls `checkpoint(name, alice, bob)` at the interesting
moments: tests/web/test_full_match.py asserts what each phone shows there,
tests/web/test_rendered_forms.py taps every form each page renders.

"""

from __future__ import annotations

from collections.abc import Callable

from tracker.models import Match
from tracker.reading import load_state

from .phone import Phone
from .phone_flows import add_trooper, ok, seal, seated

Checkpoint = Callable[[str, Phone, Phone], None]

HD_NINJA = "Ninja: on the roof of the red building, prone, facing the centre"
HD_FIDAI = "Fidai: behind the blue container, left corner"
MASKED_AS = "Ghulam Infantry"  # HE-9: the troop type Bob reads for the Hassassin
MASKED_COST = "15"
FIRETEAM = "Haris"
# Never names a masked trooper: the proof is shown to the opponent (CL-5).
PROOF = "The central console was activated in Round 1"
# The match settings for Classified Objectives (CL-1): 3 drawn, 2 kept, 1 exchange.
CLASSIFIED = {"classified_drawn": "3", "classified_kept": "2", "classified_exchanges": "1"}

ALICE = (  # 90 points
    ("Hassassin Ayyar", 40, 1, 3, ["holoprojector", "holomask"]),  # S3: 40 mm, RP-2
    ("Kaplan", 20, 1, 2, ["lieutenant_candidate", "cube"]),
    ("Zhanshi", 10, 1, 2, ["irregular", "remote_presence"]),
    ("Daylami", 20, 1, 2, ["impetuous", "doctor", "engineer"]),
)
BOB = (  # 80 points: Retreat! at 20 or less (RT-A)
    ("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),
    ("Ninja", 30, 1, 2, ["hidden_deployment", "camouflage"]),
    ("Fidai", 15, 1, 2, ["hidden_deployment", "camouflage", "infiltration"]),
    ("Bolt", 25, 1, 2, []),
)


def state():
    return load_state(Match.objects.get())


def phase_of() -> tuple[int | None, str | None, str | None]:
    turn = state().turn
    return (turn.round, turn.seat, turn.phase) if turn else (None, None, None)


class FullMatch:
    def __init__(self, checkpoint: Checkpoint | None = None, language: str | None = None):
        self.checkpoint = checkpoint or (lambda name, a, b: None)
        self.language = language
        self.a: Phone
        self.b: Phone
        self.ids: dict[str, str] = {}
        self.classified: dict[str, dict] = {}  # seat letter -> {"kept": [...], ...}

    # -- small steps ----------------------------------------------------------

    def at(self, name: str) -> None:
        self.a.open()
        self.b.open()
        self.checkpoint(name, self.a, self.b)

    def advance(self, phone: Phone, phase: str) -> None:
        phone.open()
        ok(phone, phone.submit("AdvancePhase", expected=phase))

    def end_turn(self, phone: Phone) -> None:
        """The active phone ends every phase left of its Player Turn."""
        for phase in ("tactical", "impetuous", "orders", "states"):
            phone.open()
            if phone.can("AdvancePhase", expected=phase):
                ok(phone, phone.submit("AdvancePhase", expected=phase))

    def set_state(self, phone: Phone, name: str, condition: str, tokens=()) -> None:
        phone.open()
        ok(
            phone,
            phone.submit(
                "SetTrooperState",
                trooper_id=self.ids[name],
                condition=condition,
                tokens=list(tokens),
            ),
        )

    def order(self, phone: Phone, trooper: str, skill: str, **more) -> None:
        phone.open()
        ok(phone, phone.submit("DeclareSkill", trooper_id=trooper, skill=skill, **more))

    def end_order(self, phone: Phone) -> None:
        phone.open()
        ok(phone, phone.submit("EndOrder"))

    def aro(self, phone: Phone, trooper: str, skill: str, **more) -> None:
        phone.open()
        ok(phone, phone.submit("DeclareAro", trooper_id=trooper, skill=skill, **more))

    def report(self, phone: Phone, outcome: str, on: str, element: str = "") -> None:
        phone.open()
        # The element is asked only for a target with Holoechoes (HE-3).
        more = {"element": element} if element else {}
        ok(phone, phone.submit("ReportOutcome", outcome=outcome, trooper_id=on, **more))

    # -- the match ------------------------------------------------------------

    def play(self) -> FullMatch:
        self.set_up()
        self.deploy()
        self.round_1_alice()
        self.round_1_bob()
        self.round_2_alice()
        self.round_2_bob()
        self.round_3()
        self.result()
        return self

    def set_up(self) -> None:
        self.a, self.b = seated(self.language, self.language, name="League final", **CLASSIFIED)
        self.at("setup: empty lists")
        for phone, rows in ((self.a, ALICE), (self.b, BOB)):
            for row in rows:
                assert add_trooper(phone, *row) is None, phone.error
        self.at("setup: lists written")
        for phone in (self.a, self.b):
            ok(phone, phone.submit("LockArmyList"))
        self.at("setup: lists locked")
        self.classified_objectives()
        self.a.open()
        ok(self.a, self.a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
        self.ids = {t.name: t.id for t in state().troopers.values()}

    def classified_objectives(self) -> None:
        """CL-2..CL-4 before the first turn: each phone draws (the server
        shuffles), keeps two of three; Alice exchanges one of hers."""
        a, b = self.a, self.b
        for phone in (a, b):
            phone.open()
            ok(phone, phone.submit("DrawClassified"))
        self.at("setup: Classified drawn")
        for letter, phone in (("A", a), ("B", b)):
            phone.open()
            drawn = [
                " ".join(label.get_text(" ").split())
                for label in phone.form("KeepClassified").node.select("label.check")
            ]
            ok(phone, phone.submit("KeepClassified", keep=["0", "2"]))
            self.classified[letter] = {"drawn": drawn, "kept": [drawn[0], drawn[2]]}
        self.at("setup: Classified kept")
        # CL-4: Alice exchanges her second card for one she has not seen.
        a.open()
        exchanged = self.held_ids(a)[1]
        ok(a, a.submit("ExchangeClassified", secret_id=exchanged))
        self.classified["A"]["exchanged"] = self.classified["A"]["kept"][1]
        self.classified["A"]["kept"] = self.held_cards(a)
        self.at("setup: a Classified exchanged")

    @staticmethod
    def held_ids(phone: Phone) -> list[str]:
        return [li["id"].removeprefix("held-") for li in phone.soup.select("ul.held li[id]")]

    @staticmethod
    def held_cards(phone: Phone) -> list[str]:
        return [li.strong.get_text(strip=True) for li in phone.soup.select("ul.held li[id]")]

    def deploy(self) -> None:
        a, b, ids = self.a, self.b, self.ids
        self.at("deployment: seal forms")
        seal(
            a,
            lieutenant="Kaplan",
            reserve="Zhanshi",  # TM-S1
            **{
                f"holoecho_{ids['Hassassin Ayyar']}": "marker1",
                # HE-9: Bob reads a Ghulam and its points until HoloMask ends.
                f"holomask_{ids['Hassassin Ayyar']}": MASKED_AS,
                f"holomask_cost_{ids['Hassassin Ayyar']}": MASKED_COST,
            },
        )
        seal(
            b,
            lieutenant="Fusilier",
            map_taps={f"hd_x_{ids['Ninja']}": (400, 1100)},
            **{
                f"hd_position_{ids['Ninja']}": HD_NINJA,
                f"hd_position_{ids['Fidai']}": HD_FIDAI,
            },
        )
        self.at("round 1: Alice's Tactical Phase")

    def round_1_alice(self) -> None:
        a, b = self.a, self.b
        # Alice's Order Count ends her Executive Use; at its end, TM-S2: Bob
        # limits Alice to one Command Token this Turn.
        self.advance(a, "tactical")
        self.at("round 1: Alice's Order Count made")
        b.open()
        ok(b, b.submit("LimitOpponentTokens"))
        self.at("round 1: after TM-S2")
        self.advance(a, "tactical")
        self.at("round 1: Alice's Impetuous Phase")
        self.order(a, "Daylami", "move")  # Daylami is Impetuous
        self.end_order(a)
        self.advance(a, "impetuous")
        self.at("round 1: Alice's Orders")

        # The Hassassin moves: Bob's Fusilier shoots at Holoecho marker 2, a decoy.
        self.order(a, "Hassassin Ayyar", "move")
        self.at("round 1: an Order of a Holoecho trooper")
        # HE-9: its first activation this Active Turn puts the Holoecho token down.
        a.open()
        ok(a, a.submit("PlaceHoloechoToken", element="marker1"))
        self.aro(b, "Fusilier", "bs_attack", target_element="marker2")
        self.report(b, "saving_roll", MASKED_AS, "marker2")  # HE-D3: Bob reads the mask
        self.end_order(a)
        self.at("round 1: a decoy removed")

        # HE-1: the Hassassin Activates a console; Alice says it needs no roll.
        self.order(a, "Hassassin Ayyar", "activate")
        self.at("round 1: an Activate by a Holoecho trooper")
        a.open()
        hassassin = self.ids["Hassassin Ayyar"]
        ok(a, a.submit("AnswerActivateRoll", trooper_id=hassassin, answer="no_roll"))
        self.end_order(a)
        # CL-5: the console was Alice's Classified; she reveals it with its proof.
        a.open()
        held = dict(zip(self.held_cards(a), self.held_ids(a), strict=True))
        card = self.classified["A"]["kept"][0]
        ok(a, a.submit("AccomplishClassified", secret_id=held[card], proof=PROOF))
        self.classified["A"]["accomplished"] = card
        self.at("round 1: a Classified accomplished")

        # Kaplan moves: Bob's hidden Ninja shoots (HD-C2 by ARO), Bolt dodges.
        self.order(a, "Kaplan", "move")
        self.aro(b, "Bolt", "dodge")
        self.aro(b, "Ninja", "bs_attack")
        self.at("round 1: Hidden Deployment ended by an ARO")
        # RP-3: no room at the written position; later the room changes.
        b.open()
        ok(b, b.submit("ReportNoRoom", trooper_id=self.ids["Ninja"]))
        self.at("round 1: Immobilized-A for want of room")
        b.open()
        ok(b, b.submit("ReportRoomChanged", trooper_id=self.ids["Ninja"]))
        self.report(a, "saving_roll", "Ninja")
        self.end_order(a)
        self.set_state(a, "Ninja", "dead")
        self.end_turn(a)

    def round_1_bob(self) -> None:
        a, b = self.a, self.b
        self.at("round 1: Bob's Tactical Phase")
        # TM-E2: Bolt was Possessed; Bob cancels it.
        self.set_state(b, "Bolt", "normal", ["possessed"])
        self.at("round 1: Bolt Possessed")
        b.open()
        ok(b, b.submit("CancelPossessed", trooper_id="Bolt"))
        self.end_turn_until(b, "orders")
        # Fidai leaves Hidden Deployment as its Camouflage marker (HD-C3).
        self.order(b, "Fidai", "cautious_move", as_marker=True)
        self.at("round 1: a Camouflage marker")
        self.aro(a, "Kaplan", "bs_attack")  # against the marker
        self.end_order(b)
        # Bolt shoots Kaplan; the Hassassin reacts; Bob Discovers marker 1: real.
        self.order(b, "Bolt", "bs_attack")
        self.aro(a, "Kaplan", "dodge")
        self.end_order(b)
        self.order(b, "Fusilier", "discover")
        self.report(b, "discovered", MASKED_AS, "marker1")  # HE-C5
        self.end_order(b)
        self.at("round 1: the real Holoecho discovered")
        a.open()
        ok(a, a.submit("ChooseReplacement", trooper_id=self.ids["Hassassin Ayyar"], how="edge"))
        self.set_state(a, "Fusilier", "dead")
        self.set_state(a, "Bolt", "unconscious")
        self.end_turn(b)

    def end_turn_until(self, phone: Phone, until: str) -> None:
        for phase in ("tactical", "impetuous", "orders", "states"):
            if phase == until:
                return
            phone.open()
            if phone.can("AdvancePhase", expected=phase):
                ok(phone, phone.submit("AdvancePhase", expected=phase))

    def round_2_alice(self) -> None:
        a, b = self.a, self.b
        # TM-E1: Zhanshi to Combat Group 2.
        a.open()
        ok(a, a.submit("ChangeCombatGroup", trooper_id="Zhanshi", group="2"))
        # Out of Holoecho since HE-C5, the Hassassin may join a Fireteam (HE-10).
        a.open()
        ok(
            a,
            a.submit(
                "FormFireteam",
                name=FIRETEAM,
                trooper_ids=["Hassassin Ayyar", "Kaplan", "Daylami"],
            ),
        )
        self.at("round 2: a Fireteam formed")
        self.end_turn_until(a, "orders")
        # Daylami (Doctor and Engineer) acts first: the TM-T5/T6 re-rolls show.
        self.order(a, "Daylami", "roll_skill")
        self.at("round 2: a Doctor's Order (TM-T5, TM-T6 offered)")
        self.end_order(a)
        # TM-T3: the Irregular Zhanshi's Order becomes Regular.
        a.open()
        ok(a, a.submit("MakeOrderRegular", trooper_id="Zhanshi"))
        # TM-T1: a Coordinated Order of Kaplan and the Hassassin.
        a.open()
        ok(a, a.submit("CoordinatedOrder", trooper_ids=["Kaplan", "Hassassin Ayyar"]))
        a.open()
        ok(a, a.submit("DeclareSkill", skill="move"))  # the carrier's Order, for all
        self.aro(b, "Fidai", "dodge")
        self.end_order(a)
        self.at("round 2: Alice's tokens spent")
        # HE-A2: in her States Phase the Hassassin activates Holoecho again and
        # leaves the Fireteam (HE-10); Kaplan and Daylami stay in it.
        self.end_turn_until(a, "states")
        a.open()
        ok(a, a.submit("ActivateHoloecho", trooper_id="Hassassin Ayyar", real="marker2"))
        self.at("round 2: Holoecho activated in a Fireteam")
        self.end_turn(a)

    def round_2_bob(self) -> None:
        b = self.b
        self.at("round 2: Bob in Retreat!")
        # TM-T4: Fidai ignores Retreat!; TM-T2: Bolt is Unconscious, Fidai passes Guts.
        self.end_turn_until(b, "orders")
        b.open()
        ok(b, b.submit("IgnoreRetreat", trooper_id="Fidai"))
        b.open()
        ok(b, b.submit("ForceGutsRoll", trooper_id="Fidai", passed="1"))
        self.order(b, "Fidai", "move")
        self.end_order(b)
        # The Doctor was generous: Bolt gets up, so survivors are above 25%.
        self.set_state(b, "Bolt", "normal")
        self.end_turn(b)

    def round_3(self) -> None:
        a, b = self.a, self.b
        a.open()
        ok(a, a.submit("DissolveFireteam", name=FIRETEAM))
        self.at("round 3: the Fireteam dissolved")
        self.end_turn(a)
        self.at("round 3: Retreat! over")
        self.end_turn(b)

    def result(self) -> None:
        a, b = self.a, self.b
        self.at("finished: result to report")
        a.open()
        ok(
            a,
            a.submit("ProposeResult", objective_a="7", objective_b="3", army_a="90", army_b="40"),
        )
        self.at("finished: result proposed")
        b.open()
        ok(b, b.submit("ConfirmResult"))
        self.at("finished: result confirmed")
