"""Properties of the sealed secrets over random legal play (hypothesis).

Random army lists with Hidden Deployment, Camouflage, Infiltration and
Holoprojector troopers; random declarations, AROs and reported outcomes
(commands the rules refuse are skipped). After every step:

- a secret is revealed only in a step whose command can fire the
  cancellation named by its rule (and every reveal names one);
- a hidden trooper is never revealed without its HD secret ending, a
  declaration by it always ends it, and HD is never regained (HD-7);
- the opponent's view and log hold no text of a secret still sealed
  (canary words in written positions and in hidden troopers' names);
- Alice's view and log do not depend on which of Bob's Holoechoes is real: a
  twin match where Bob chose other real Holoechoes looks the same to her, and
  accepts and refuses the same commands, until one of Bob's is revealed;
- replaying the log gives the state built step by step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker import rules
from tracker.rules.commitments import fingerprint
from tracker.rules.conditions import SetTrooperState
from tracker.rules.holoecho import ELEMENT_OUTCOMES, ActivateHoloecho
from tracker.rules.orders import DeclareAro, DeclareSkill, EndOrder, ReportOutcome
from tracker.rules.replacement import ReportNoRoom
from tracker.rules.sealing import SealDeployment
from tracker.rules.setup import ClaimSeat, LockArmyList, MatchCreated, SetInitiative
from tracker.rules.state import (
    CAMOUFLAGE,
    HD_POSITION,
    HIDDEN_DEPLOYMENT,
    HOLOECHO,
    HOLOECHO_ELEMENTS,
    HOLOPROJECTOR,
    INFILTRATION,
    LIEUTENANT,
    PLAYING,
    SEATS,
    MatchSettings,
    other_seat,
)
from tracker.rules.turns import AdvancePhase, DeclineStrategicUse
from tracker.rules.visibility import player_view, redact_log

KINDS = {
    "plain": [],
    "hd": [HIDDEN_DEPLOYMENT],
    "hd_camo": [HIDDEN_DEPLOYMENT, CAMOUFLAGE],
    "hd_inf": [HIDDEN_DEPLOYMENT, INFILTRATION],
    "he": [HOLOPROJECTOR],
    "hd_he": [HIDDEN_DEPLOYMENT, HOLOPROJECTOR],
}
SKILLS = [
    "move",
    "cautious_move",
    "jump",
    "bs_attack",
    "alert",
    "activate",
    "discover",
    "dodge",
    "idle",
    "suppressive_fire",
    "surprise_attack",
]
ARO_SKILLS = ["bs_attack", "dodge", "delay_aro", "prevent_marker", "alert", "idle"]
OUTCOMES = [
    "saving_roll",
    "discovered",
    "contact",
    "coherency_initial",
    "coherency_final",
    "coherency",
    "impetuous",
    "infiltration_failed",
]
# HD-C3 and RT-5: the seal an HD-C3 marker kept closed opens when its marker state ends.
HD_RULES = {"HD-C1", "HD-C2", "HD-C3", "HD-C4", "HD-4", "RT-5"}
HE_RULES = {"HE-C1", "HE-C2", "HE-C3", "HE-C4", "HE-C5", "HE-C6", "HE-C7"}
# Which commands can fire each cancellation in the step that reveals it.
FIRED_BY = {
    "HD-C1": {"ReportOutcome"},
    "HD-C2": {"DeclareSkill", "DeclareAro", "ActivateHoloecho"},
    "HD-C4": {"ReportOutcome", "DeclareSkill", "AdvancePhase"},
    "HD-4": {"ReportOutcome"},
    "HD-C3": {"ReportOutcome", "DeclareSkill", "DeclareAro"},
    "RT-5": {"AdvancePhase"},
    "HE-C1": {"EndOrder"},
    "HE-C2": {"EndOrder"},
    "HE-C3": {"ReportOutcome"},
    "HE-C4": {"ReportOutcome"},
    "HE-C5": {"ReportOutcome"},
    "HE-C6": {"ReportOutcome", "EndOrder", "DeclareSkill", "AdvancePhase"},
    "HE-C7": {"ReportOutcome"},
}


def rotate(element: str) -> str:
    return HOLOECHO_ELEMENTS[(HOLOECHO_ELEMENTS.index(element) + 1) % 3]


@dataclass
class Twin:
    """One match; `rotated` plays the same commands, but every real Holoecho
    Bob (B) chooses is another one."""

    rotated: bool
    state: rules.MatchState = field(default_factory=rules.MatchState)
    events: list = field(default_factory=list)

    def apply(self, events):
        self.events.extend(events)
        self.state = rules.evolve_all(self.state, events)
        return events

    def do(self, seat, command):
        return self.apply(rules.decide(self.state, seat, command))


def real(choice: str, rotated: bool, seat: str) -> str:
    return rotate(choice) if rotated and seat == "B" else choice


@st.composite
def armies(draw):
    """Per seat: a plain Lieutenant and up to four troopers of random kinds."""
    lists, seals = {}, {}
    for seat in SEATS:
        rows = [
            {
                "id": f"{seat.lower()}lt0",
                "name": f"Lieutenant {seat}",
                "cost": 20,
                "combat_group": 1,
                "traits": [],
            }
        ]
        secrets = [
            {
                "id": f"{seat.lower()}lt0sec",
                "nonce": "%032x" % (1 + SEATS.index(seat)),
                "kind": LIEUTENANT,
                "trooper_id": rows[0]["id"],
            }
        ]
        for i, kind in enumerate(draw(st.lists(st.sampled_from(sorted(KINDS)), max_size=4)), 1):
            hidden = HIDDEN_DEPLOYMENT in KINDS[kind]
            tid = f"{seat.lower()}tr{i}"
            rows.append(
                {
                    "id": tid,
                    "name": f"NAMECANARY{seat}{i}" if hidden else f"Trooper {seat}{i}",
                    "cost": 20,
                    "combat_group": draw(st.sampled_from([1, 2])),
                    "silhouette": draw(st.sampled_from([2, 2, 5])),
                    "traits": KINDS[kind],
                }
            )
            if hidden:
                secrets.append(
                    {
                        "id": f"{tid}hd",
                        "nonce": "%032x" % (100 + len(secrets)),
                        "kind": HD_POSITION,
                        "trooper_id": tid,
                        "position": f"POSCANARY{seat}{i} behind the wall",
                    }
                )
            if HOLOPROJECTOR in KINDS[kind]:
                secrets.append(
                    {
                        "id": f"{tid}he",
                        "nonce": "%032x" % (200 + len(secrets)),
                        "kind": HOLOECHO,
                        "trooper_id": tid,
                        "real": draw(st.sampled_from(HOLOECHO_ELEMENTS)),
                        "positions": {e: f"HEPOSCANARY{seat}{i}{e}" for e in HOLOECHO_ELEMENTS},
                    }
                )
        lists[seat], seals[seat] = rows, secrets
    return lists, seals, draw(st.sampled_from(SEATS))


def set_up(twin: Twin, lists, seals, first):
    twin.apply([MatchCreated(name="Prop", settings=MatchSettings(points_limit=1000))])
    for seat in SEATS:
        twin.do(seat, ClaimSeat(name=f"Player {seat}"))
    for seat in SEATS:
        twin.do(seat, LockArmyList(troopers=lists[seat]))
    twin.do("A", SetInitiative(first_turn=first, deploys_first=first))
    for seat in (first, other_seat(first)):
        secrets = [
            {**s, "real": real(s["real"], twin.rotated, seat)} if s["kind"] == HOLOECHO else s
            for s in seals[seat]
        ]
        twin.do(seat, SealDeployment(secrets=secrets))


def candidates(state, counter):
    """Plausible commands now, by family: {family: [(seat, command)]}. Many are
    refused; drawing a family first keeps rare ones (EndOrder...) frequent."""
    turn = state.turn
    active, reactive = turn.seat, other_seat(turn.seat)
    troopers = list(state.troopers.values())
    families = {
        "advance": [
            (active, AdvancePhase(expected=turn.phase)),
            (reactive, DeclineStrategicUse()),  # TM-S2 moment after the Order Count
        ]
    }
    declare = families.setdefault("declare", [])
    for t in state.troopers_of(active):
        for skill in SKILLS:
            declare.append((active, DeclareSkill(trooper_id=t.id, skill=skill)))
            if skill in ("move", "cautious_move"):
                declare.append((active, DeclareSkill(trooper_id=t.id, skill=skill, as_marker=True)))
    if turn.order is not None:
        families["end"] = [(active, EndOrder())]
        target = state.troopers[turn.order.trooper_id]
        aros = families.setdefault("aro", [])
        for t in state.troopers_of(reactive):
            for skill in ARO_SKILLS:
                for element in ("", *target.holoechoes):
                    aros.append(
                        (
                            reactive,
                            DeclareAro(
                                trooper_id=t.id,
                                skill=skill,
                                target_id=target.id,
                                target_element=element,
                                as_marker=skill in ("delay_aro", "prevent_marker"),
                            ),
                        )
                    )
    outcomes = families.setdefault("outcome", [])
    for seat in SEATS:
        for t in troopers:
            for outcome in OUTCOMES:
                for element in ("", *HOLOECHO_ELEMENTS):
                    outcomes.append(
                        (seat, ReportOutcome(outcome=outcome, trooper_id=t.id, element=element))
                    )
    other = families.setdefault("other", [])
    for t in troopers:
        other.append((t.seat, ReportNoRoom(trooper_id=t.id)))
        other.append((active, SetTrooperState(trooper_id=t.id, condition="dead", tokens=[])))
        if HOLOPROJECTOR in t.traits:
            for element in HOLOECHO_ELEMENTS:
                other.append(
                    (
                        t.seat,
                        ActivateHoloecho(
                            trooper_id=t.id,
                            real=element,
                            secret_id=f"act{counter:04d}",
                            nonce="%032x" % (5000 + counter),
                        ),
                    )
                )
    return {name: options for name, options in families.items() if options}


def rotated_command(seat, command):
    if isinstance(command, ActivateHoloecho) and seat == "B":
        return ActivateHoloecho(
            trooper_id=command.trooper_id,
            real=rotate(command.real),
            secret_id=command.secret_id,
            nonce=command.nonce,
        )
    return command


def opponent_text(twin: Twin, viewer: str) -> str:
    """What `viewer` receives: its view and its log, with the commitments of
    Holoecho seals (which differ between twins by design) normalized."""
    text = repr(player_view(twin.state, viewer)) + repr(
        redact_log(enumerate(twin.events, 1), viewer)
    )
    for secret in twin.state.secrets.values():
        if secret.kind == HOLOECHO:
            text = text.replace(secret.commitment, f"<C {secret.id}>")
            text = text.replace(fingerprint(secret.commitment), f"<F {secret.id}>")
    return text


def sealed_canaries(state, seat):
    """Distinctive text of `seat`'s secrets that are still sealed: written
    positions, and the names of troopers still hidden."""
    words = set()
    for secret in state.secrets_of(seat):
        if secret.revealed:
            continue
        trooper = state.troopers.get(secret.trooper_id or "")
        for value in re.findall(r"[A-Z]*POSCANARY[A-Z]\d+\w*", repr(dict(secret.payload))):
            # FAQ (HD + Holoecho): the three written Holoecho positions are on
            # the table once Hidden Deployment ends; only which one is real
            # stays sealed (the twins check that).
            if value.startswith("HEPOS") and trooper is not None and not trooper.hidden:
                continue
            words.add(value)
    for trooper in state.troopers_of(seat):
        if trooper.hidden:
            words.add(trooper.name)
    return words


def check_step(before, after, seat, command, new_events):
    kind = type(command).__name__
    revealed = [e for e in new_events if e.kind == "SecretRevealed"]
    for event in revealed:
        assert event.rule in FIRED_BY, event
        assert kind in FIRED_BY[event.rule], (kind, event.rule)
        assert event.private_to is None and event.nonce
        if event.secret_kind == HD_POSITION:
            assert event.rule in HD_RULES
        if event.secret_kind == HOLOECHO:
            assert event.rule in HE_RULES
    # A hidden trooper that declares is always placed (HD-C2/HD-C4) ...
    if isinstance(command, DeclareSkill | DeclareAro):
        declared = before.troopers[command.trooper_id]
        if declared.hidden and not after.troopers[declared.id].marker:
            assert any(e.secret_kind == HD_POSITION for e in revealed)
    # ... and an outcome on a sealed Holoecho element reveals iff it is the real one.
    if isinstance(command, ReportOutcome) and command.outcome in ELEMENT_OUTCOMES:
        target = before.troopers[command.trooper_id]
        choice = before.secret_for(target.id, HOLOECHO)
        if choice is not None and not target.hidden and command.element:
            he = [e for e in revealed if e.secret_kind == HOLOECHO]
            if command.element == choice.payload["real"]:
                assert [e.rule for e in he] == [ELEMENT_OUTCOMES[command.outcome][0]]
            elif len(target.holoechoes) > 2:
                assert not he  # a decoy: removed, the secret stays sealed
    for trooper_id, trooper in after.troopers.items():
        was = before.troopers.get(trooper_id)
        assert not (was is not None and not was.hidden and trooper.hidden), "HD-7"
        hd = [
            s
            for s in after.secrets.values()
            if s.trooper_id == trooper_id and s.kind == HD_POSITION
        ]
        if hd and after.phase == PLAYING:
            # An HD-C3 marker keeps its written position sealed (it names the trooper).
            assert (trooper.hidden or trooper.marker) is not hd[0].revealed
        if trooper.hidden:
            assert trooper.holoechoes in ((), HOLOECHO_ELEMENTS)
        choice = after.secret_for(trooper_id, HOLOECHO)
        if choice is not None:
            assert choice.payload["real"] in trooper.holoechoes and len(trooper.holoechoes) >= 2


def check_secrecy(twins):
    main, rotated = twins
    for viewer in SEATS:
        owner = other_seat(viewer)
        text = opponent_text(main, viewer)
        for word in sealed_canaries(main.state, owner):
            assert word not in text, (viewer, word)


def bobs_holoecho_revealed(twin: Twin) -> bool:
    return any(
        s.kind == HOLOECHO and s.seat == "B" and s.revealed for s in twin.state.secrets.values()
    )


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(armies(), st.data())
def test_secrets_end_only_by_their_rules_and_never_leak(army, data):
    lists, seals, first = army
    twins = (Twin(rotated=False), Twin(rotated=True))
    for twin in twins:
        set_up(twin, lists, seals, first)
    comparing = True
    check_secrecy(twins)
    for step in range(40):
        main, rotated = twins
        if main.state.phase != PLAYING:
            break
        families = candidates(main.state, step)
        family = data.draw(st.sampled_from(sorted(families)), label="family")
        seat, command = data.draw(st.sampled_from(families[family]), label="command")
        before = main.state
        try:
            new_events = main.do(seat, command)
        except rules.RuleViolation as refusal:
            if comparing:
                # The same refusal whatever Bob chose as real.
                try:
                    rotated.do(seat, rotated_command(seat, command))
                except rules.RuleViolation as twin_refusal:
                    assert (refusal.message, refusal.params) == (
                        twin_refusal.message,
                        twin_refusal.params,
                    )
                else:
                    raise AssertionError(f"refused only with the original choices: {command}")
            continue
        check_step(before, main.state, seat, command, new_events)
        check_secrecy(twins)
        if comparing:
            twin_events = rotated.do(seat, rotated_command(seat, command))
            if bobs_holoecho_revealed(main) or bobs_holoecho_revealed(rotated):
                comparing = False  # from here on Alice may rightly see a difference
            else:
                assert len(new_events) == len(twin_events)
                assert opponent_text(main, "A") == opponent_text(rotated, "A")
    main = twins[0]
    assert rules.replay(main.events) == main.state
