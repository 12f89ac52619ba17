"""HE — Holoecho, from the Holoprojector (docs/rules.md HE-A1..A3, HE-1..10,
HE-C1..C7, HE-D1..D5, HE-T).

The secret is which of the three Holoechoes ("model", "marker1", "marker2")
is the real bearer; `Trooper.holoechoes` is only which ones are still on the
table, which is public. The opponent names an element it can see ("Holoecho
2 was hit") and the tracker answers from the sealed choice: a decoy leaves the
table (HE-D1..D4) and the secret stays sealed; the real one ends Holoecho, and
the answer *is* the reveal (`sealing.reveal`), so nothing hints at the real
one before the reveal event.

Timing (HE-T): a cancellation that follows from a public declaration (an
attack, HE-C1...) is only announced during the Order; the reveal and the
table change come at its end (Order.pending, END_ORDER). A cancellation that
answers a report about one element (a hit, HE-C4...) reveals at once, since
the answer names the real one; its decoys still leave only at the end of the
Order. A failed Initial Coherency check ends everything at once.

State tokens (Prone, Unloaded...) live on the one Trooper record, so every
Holoecho shows them and none betrays the real one (HE-7); deployables are not
tracked as elements, so decoys never copy them.

Hooks run on hidden troopers are left to hidden_deployment.py: it ends Hidden
Deployment first and then calls `end_holoecho` (FAQ HD + Holoecho).
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Command, handles
from .conditions import visible_trooper
from .errors import InvalidInput, NotAllowed, RuleViolation
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .orders import (
    AFTER_SKILL,
    DECLARATION_HOOKS,
    END_ORDER,
    OUTCOMES,
    SKILL_GUARDS,
    SKILLS,
    Declaration,
    DeclareSkill,
    Skill,
    declare,
    with_order_extra,
)
from .replacement import replacement_events
from .retreat import RETREAT_ENTERED, ignores_retreat
from .sealing import (
    ONE_PER_TROOPER,
    POSITION,
    SecretKind,
    SecretsSealed,
    _clean_id,
    _clean_text,
    _own_trooper,
    _sealed,
    public_name,
    register_kind,
    reveal,
)
from .state import (
    ACTIVATE_ROLL,
    HOLOECHO,
    HOLOECHO_ELEMENTS,
    HOLOPROJECTOR,
    IMPETUOUS_PHASE,
    ORDERS,
    PLAYING,
    STATES,
    MatchState,
    Secret,
    Trooper,
    replace,
)

# Outcome reported on one element -> (rule if it is the real one, rule if a decoy).
ELEMENT_OUTCOMES = {
    "saving_roll": ("HE-C4", "HE-D3"),
    "discovered": ("HE-C5", "HE-D1"),
    "contact": ("HE-C3", "HE-D2"),
    "coherency_initial": ("HE-C7", "HE-D4"),
    "coherency_final": ("HE-C7", "HE-D4"),
    "coherency": ("HE-C7", "HE-D4"),
}
# HE-T exception: a failed Initial check places the model before any
# measurement; the Deployment / end-of-HD check (FAQ) happens outside movement.
AT_ONCE = {"coherency_initial", "coherency"}


# ---------------------------------------------------------------- queries


def holoecho_secret(state: MatchState, trooper_id: str) -> Secret | None:
    """The sealed, still secret real-Holoecho choice of a trooper, if any."""
    return state.secret_for(trooper_id, HOLOECHO)


def latest_choice(state: MatchState, trooper_id: str) -> Secret | None:
    """The most recent real-Holoecho choice, revealed or not (HE-A3 re-seals)."""
    mine = [s for s in state.secrets.values() if s.kind == HOLOECHO and s.trooper_id == trooper_id]
    return max(mine, key=lambda s: s.sealed_seq, default=None)


def real_element(state: MatchState, trooper_id: str) -> str | None:
    secret = latest_choice(state, trooper_id)
    return secret.payload["real"] if secret is not None else None


def in_order(state: MatchState) -> bool:
    return state.turn is not None and state.turn.order is not None


def cancelled_this_order(state: MatchState, trooper_id: str) -> bool:
    """Whether the trooper's Holoecho ends in the current Order (HE-8, HE-T)."""
    if not in_order(state):
        return False
    assert state.turn is not None and state.turn.order is not None
    return trooper_id in state.turn.order.extra.get("he_cancelled", ())


def refuse_fireteam(trooper: Trooper) -> None:
    """HE-10, for whoever forms Fireteams: a Holoecho trooper cannot join one."""
    if trooper.holoechoes:
        raise NotAllowed(
            _("%(name)s is in Holoecho and cannot be part of a Fireteam (HE-10)."),
            name=trooper.name,
            rule="HE-10",
        )


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class HoloechoActivated(Event):
    """HE-A2 / HE-A3: the three Holoechoes are back; a new choice is sealed."""

    trooper_id: str
    trooper_name: str
    seat: str
    secret_id: str
    left_fireteam: bool = False

    def describe(self) -> tuple[str, dict]:
        if self.left_fireteam:
            message = _(
                "%(trooper_name)s activates Holoecho (%(rule)s): Holoecho markers 1 and 2 go in "
                "silhouette contact with it and the real one is sealed. It leaves its "
                "Fireteam (HE-10)."
            )
        else:
            message = _(
                "%(trooper_name)s activates Holoecho (%(rule)s): Holoecho markers 1 and 2 go in "
                "silhouette contact with it and the real one is sealed."
            )
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class HoloechoCancelled(Event):
    """A declaration ended Holoecho; which one is real is shown at the end of
    the Order (HE-T). Public: it follows from the public declaration."""

    trooper_id: str
    trooper_name: str
    seat: str
    secret_id: str

    def describe(self) -> tuple[str, dict]:
        messages = {
            "HE-C1": _(
                "%(trooper_name)s declared an Attack, Alert or a skill with a roll: its Holoecho "
                "ends for this whole Order, and the real one is shown at its end (HE-C1, HE-T)."
            ),
            "HE-C2": _(
                "%(trooper_name)s declared an Entire Order: its Holoecho ends for this whole "
                "Order, and the real one is shown at its end (HE-C2, HE-T)."
            ),
            "HE-C6": _(
                "%(trooper_name)s is Impetuous: its Holoecho ends for this whole Order, and the "
                "real one is shown at its end (HE-C6, HE-T)."
            ),
        }
        return messages.get(self.rule or "", messages["HE-C1"]), self.to_data()


@dataclass(frozen=True, kw_only=True)
class HoloechoEnding(Event):
    """Follows the public reveal: why Holoecho ended and which one was real.
    `deferred`: the decoys stay until the end of the Order (HE-T)."""

    trooper_id: str
    trooper_name: str
    seat: str
    real: str
    deferred: bool = False

    def describe(self) -> tuple[str, dict]:
        messages = {
            "HE-C1": _(
                "Holoecho of %(trooper_name)s ends: it declared an Attack, Alert or a skill "
                "with a roll. The real one was %(real)s (HE-C1)."
            ),
            "HE-C2": _(
                "Holoecho of %(trooper_name)s ends: it declared an Entire Order. The real one "
                "was %(real)s (HE-C2)."
            ),
            "HE-C3": _(
                "Holoecho of %(trooper_name)s ends: %(real)s is the real one and is in "
                "silhouette contact with an enemy (HE-C3)."
            ),
            "HE-C4": _(
                "Holoecho of %(trooper_name)s ends: it was %(real)s — make the Saving Roll (HE-C4)."
            ),
            "HE-C5": _(
                "Holoecho of %(trooper_name)s ends: %(real)s, the real one, was Discovered (HE-C5)."
            ),
            "HE-C6": _(
                "Holoecho of %(trooper_name)s ends: it is Impetuous or its army is in Retreat!. "
                "The real one was %(real)s (HE-C6)."
            ),
            # Also when its last decoy left (decoy_removed): a lone Holoecho
            # has none to be in Coherency with, though it never moved out.
            "HE-C7": _(
                "Holoecho of %(trooper_name)s ends: %(real)s, the real one, is out of Coherency "
                "or has no other Holoecho left (HE-C7)."
            ),
        }
        return messages.get(self.rule or "", messages["HE-C7"]), self.to_data()


@dataclass(frozen=True, kw_only=True)
class HoloechoEnded(Event):
    """The table side: every decoy leaves (HE-D5); the model takes the real
    one's place if that was a marker (RP, via replacement.py)."""

    trooper_id: str
    trooper_name: str
    seat: str
    real: str
    removed: list
    describe_as = _(
        "The decoys of %(trooper_name)s leave the table; %(real)s was the real one (HE-D5)."
    )


@dataclass(frozen=True, kw_only=True)
class DecoyRemoved(Event):
    trooper_id: str
    trooper_name: str
    seat: str
    element: str

    def describe(self) -> tuple[str, dict]:
        messages = {
            "HE-D1": _(
                "%(trooper_name)s: %(element)s was a decoy — Discovered and removed (HE-D1)."
            ),
            "HE-D2": _(
                "%(trooper_name)s: %(element)s was a decoy — it touched a model and is removed "
                "(HE-D2)."
            ),
            "HE-D3": _(
                "%(trooper_name)s: %(element)s was a decoy — removed, no Saving Roll (HE-D3)."
            ),
            "HE-D4": _(
                "%(trooper_name)s: %(element)s was a decoy out of Coherency — removed (HE-D4)."
            ),
        }
        return messages.get(self.rule or "", messages["HE-D3"]), self.to_data()


@dataclass(frozen=True, kw_only=True)
class OwnContactKept(Event):
    """HE-D2 / HE-C3: the real one touched one of its own side's models;
    nothing happens. Private: the opponent would learn which one is real."""

    trooper_id: str
    trooper_name: str
    element: str
    describe_as = _(
        "%(element)s of %(trooper_name)s is the real one: touching one of your own models does "
        "not end its Holoecho (only an enemy model does, HE-C3). It stays on the table."
    )


@dataclass(frozen=True, kw_only=True)
class DecoysIdle(Event):
    trooper_id: str
    trooper_name: str
    skill: str
    describe_as = _(
        "%(trooper_name)s: the holographic decoys cannot interact with scenery; for them "
        "%(skill)s is Idle (HE-1)."
    )


@dataclass(frozen=True, kw_only=True)
class ActivateRollAsked(Event):
    """HE-1 then HE-C1: Activate needs a roll or not depending on what is
    activated, which only the table knows; its player answers (choices)."""

    trooper_id: str
    trooper_name: str
    seat: str
    describe_as = _(
        "%(trooper_name)s declared Activate with its Holoechoes: its player says whether this "
        "Activate needs a roll. If it does, its Holoecho ends at the end of this Order (HE-C1); "
        "if not, it stays and the decoys are Idle (HE-1)."
    )


@dataclass(frozen=True, kw_only=True)
class ActivateRollAnswered(Event):
    trooper_id: str
    trooper_name: str
    seat: str
    needs_roll: bool

    def describe(self) -> tuple[str, dict]:
        if self.needs_roll:
            message = _("The Activate of %(trooper_name)s needs a roll (HE-C1).")
        else:
            message = _(
                "The Activate of %(trooper_name)s needs no roll: its Holoecho stays, and for the "
                "decoys it is Idle (HE-1)."
            )
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class HoloechoKept(Event):
    """HE-C2 names Cautious Movement as the one Entire Order that keeps
    Holoecho: said aloud, so nobody wonders why nothing was revealed."""

    trooper_id: str
    trooper_name: str
    describe_as = _(
        "%(trooper_name)s keeps its Holoecho: Cautious Movement is the one Entire Order that "
        "does not end it (HE-C2)."
    )


@dataclass(frozen=True, kw_only=True)
class CoherencyChecksDue(Event):
    trooper_id: str
    trooper_name: str
    aro: bool = False

    def describe(self) -> tuple[str, dict]:
        if self.aro:
            message = _(
                "%(trooper_name)s reacts with its Holoechoes: Initial and Final Coherency checks "
                "(HE-2); each Holoecho sees only its front 180° (HE-4)."
            )
        else:
            message = _(
                "%(trooper_name)s is activated with its Holoechoes: Initial and Final Coherency "
                "checks (HE-2)."
            )
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class DelayedAroLost(Event):
    trooper_id: str
    trooper_name: str
    target_name: str
    # Kept since a name alone could not tell a masked trooper from its
    # namesake (identity.rename); "" in lines written before.
    target_id: str = ""
    describe_as = _(
        "%(target_name)s was not revealed by its second Short Skill: %(trooper_name)s delayed "
        "its ARO and loses it (HE-8)."
    )


@dataclass(frozen=True, kw_only=True)
class HoloechoTokenPlaced(Event):
    trooper_id: str
    trooper_name: str
    element: str
    describe_as = _(
        "A Holoecho token is placed beside %(element)s of %(trooper_name)s: it is a Holoecho "
        "trooper, not necessarily that one (HE-9)."
    )


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class ActivateHoloecho(Command):
    """HE-A2 (States Phase, out of enemy LoF) or HE-A3 (Entire Order in the
    Active Turn, out of LoF of enemy troopers and markers). The caller picks
    `secret_id` and `nonce` (random), like any seal: decide stays pure."""

    trooper_id: str
    real: str
    secret_id: str
    nonce: str


@dataclass(frozen=True, kw_only=True)
class PlaceHoloechoToken(Command):
    """HE-9 (HoloMask): the token beside one of the models, at the first
    activation in the Active Turn."""

    trooper_id: str
    element: str


ROLL_ANSWERS = {"roll": True, "no_roll": False}


@dataclass(frozen=True, kw_only=True)
class AnswerActivateRoll(Command):
    """HE-1/HE-C1: whether the Activate a Holoecho trooper declared needs a
    roll, "roll" or "no_roll" (words, not a checkbox: no answer is no answer)."""

    trooper_id: str
    answer: str


@handles(AnswerActivateRoll)
def answer_activate_roll(state: MatchState, seat: str, command: AnswerActivateRoll) -> list[Event]:
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(
            _("Only its player says whether its Activate needs a roll (HE-1)."), rule="HE-1"
        )
    if state.choice(ACTIVATE_ROLL, trooper.id) is None:
        raise NotAllowed(
            _("%(name)s has no Activate waiting for that answer (HE-1)."),
            name=trooper.name,
            rule="HE-1",
        )
    if command.answer not in ROLL_ANSWERS:
        raise InvalidInput(_("Say whether the Activate needs a roll."), rule="HE-1")
    needs_roll = ROLL_ANSWERS[command.answer]
    events: list[Event] = [
        ActivateRollAnswered(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=seat,
            needs_roll=needs_roll,
            rule="HE-C1" if needs_roll else "HE-1",
        )
    ]
    after = evolve_all(state, events)
    if needs_roll:
        events += cancel_at_end_of_order(after, after.troopers[trooper.id], "HE-C1")
        after = evolve_all(state, events)
    if _second_skill_declared(after, trooper.id):
        # HE-8 waited for this answer: an Activate with a roll revealed it.
        events += _delayed_aros_lost(after, after.troopers[trooper.id])
    return events


def activation_refusal(state: MatchState, seat: str, trooper: Trooper) -> RuleViolation | None:
    """Why `seat` cannot give `trooper` Holoecho whatever it picks (HE-A2,
    HE-C6), or None. The one list of these checks: activate_holoecho raises
    what it returns, and a phone is offered the activation for the troopers
    it returns None for (holoecho_candidates, carried by the player's view);
    a copy of them in the page's code had already fallen behind once (a Dead
    trooper was offered it, and the tap refused)."""
    if trooper.seat != seat:
        return NotAllowed(_("You can only activate your own troopers."))
    if not trooper.has(HOLOPROJECTOR):
        return InvalidInput(_("%(name)s has no Holoprojector."), name=trooper.name)
    if trooper.holoechoes or holoecho_secret(state, trooper.id):
        return NotAllowed(_("%(name)s is already in Holoecho."), name=trooper.name, rule="HE-A2")
    if trooper.out_of_action:
        return NotAllowed(_("%(name)s is out of action."), name=trooper.name)
    if trooper.evacuated:
        return NotAllowed(_("%(name)s has left the table (RT-6)."), rule="RT-6", name=trooper.name)
    if state.seat(seat).retreat and not ignores_retreat(trooper):
        return NotAllowed(_("An army in Retreat! cannot keep Holoecho (HE-C6)."), rule="HE-C6")
    return None


def holoecho_candidates(state: MatchState, seat: str) -> tuple[str, ...]:
    """`seat`'s troopers activation_refusal has nothing against: what its
    player is offered (the phase is the page's to check, HE-A2 and HE-A3)."""
    return tuple(
        t.id
        for t in state.troopers_of(seat)
        if t.has(HOLOPROJECTOR) and activation_refusal(state, seat, t) is None
    )


@handles(ActivateHoloecho)
def activate_holoecho(state: MatchState, seat: str, command: ActivateHoloecho) -> list[Event]:
    trooper = visible_trooper(state, seat, command.trooper_id)
    refusal = activation_refusal(state, seat, trooper)
    if refusal is not None:
        raise refusal
    if command.real not in HOLOECHO_ELEMENTS:
        raise InvalidInput(_("Choose which Holoecho is the real %(name)s."), name=trooper.name)
    turn = state.turn
    events: list[Event] = []
    if state.phase == PLAYING and turn is not None and turn.phase == STATES:
        rule = "HE-A2"
    elif state.phase == PLAYING and turn is not None and turn.phase == ORDERS and turn.seat == seat:
        rule = "HE-A3"
        events = declare(
            state, seat, DeclareSkill(trooper_id=trooper.id, skill="holoecho_activate")
        )
    else:
        raise NotAllowed(
            _(
                "Holoecho comes back in the States Phase (HE-A2) or with an Entire Order in "
                "your Active Turn (HE-A3)."
            ),
            rule="HE-A3",
        )
    if _clean_id(command.secret_id) in state.secrets:
        raise InvalidInput(_("The seal is malformed; reload the page."))
    payload = {"trooper_id": trooper.id, **public_name(trooper), "real": command.real}
    raw = {"id": command.secret_id, "nonce": command.nonce}
    sealed = _sealed(raw, HOLOECHO, payload, trooper.id, True)
    return [
        *events,
        SecretsSealed(seat=seat, secrets=[sealed], private_to=seat),
        HoloechoActivated(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=seat,
            secret_id=sealed["id"],
            left_fireteam=bool(trooper.fireteam),
            rule=rule,
        ),
    ]


@handles(PlaceHoloechoToken)
def place_holoecho_token(state: MatchState, seat: str, command: PlaceHoloechoToken) -> list[Event]:
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(_("You can only activate your own troopers."))
    if not holoecho_secret(state, trooper.id):
        raise NotAllowed(_("%(name)s is not in Holoecho."), name=trooper.name, rule="HE-9")
    turn = state.turn
    if (
        turn is None
        or turn.seat != seat
        or turn.order is None
        or turn.order.trooper_id != trooper.id
    ):
        raise NotAllowed(
            _(
                "The Holoecho token goes down when the trooper is activated in your Active "
                "Turn (HE-9)."
            ),
            rule="HE-9",
        )
    if trooper.holoecho_token:
        raise NotAllowed(_("The Holoecho token is already on the table (HE-9)."), rule="HE-9")
    if command.element not in trooper.holoechoes:
        raise InvalidInput(_("Pick a Holoecho that is on the table."))
    return [
        HoloechoTokenPlaced(
            trooper_id=trooper.id, trooper_name=trooper.name, element=command.element, rule="HE-9"
        )
    ]


# ----------------------------------------------------------- ending rules


def end_holoecho(state: MatchState, trooper: Trooper, rule: str, at_once: bool = False) -> list:
    """Reveal the real Holoecho now under `rule`. The decoys leave at the end
    of the Order in progress (HE-T) unless `at_once` (or no Order is on)."""
    secret = holoecho_secret(state, trooper.id)
    if secret is None or trooper.hidden:
        return []
    events = reveal(state, secret, rule)
    if at_once and in_order(state):
        after = evolve_all(state, events)
        events += _table_ends(after, after.troopers[trooper.id], rule)
    return events


def cancel_at_end_of_order(state: MatchState, trooper: Trooper, rule: str) -> list[Event]:
    """A cancellation that follows from a declaration: announced now, revealed
    at the end of the Order, which it covers whole (HE-T)."""
    secret = holoecho_secret(state, trooper.id)
    if secret is None or trooper.hidden:
        return []
    if not in_order(state):
        return end_holoecho(state, trooper, rule)
    if cancelled_this_order(state, trooper.id):
        return []
    return [
        HoloechoCancelled(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=trooper.seat,
            secret_id=secret.id,
            rule=rule,
        )
    ]


def _revealed(state: MatchState, secret: Secret, rule: str) -> list[Event]:
    """REVEAL_CONSEQUENCES[HOLOECHO]: say why and which, then end it on the
    table now, or at the end of the Order in progress (HE-T)."""
    trooper = state.troopers[secret.trooper_id or secret.payload["trooper_id"]]
    ending = HoloechoEnding(
        trooper_id=trooper.id,
        trooper_name=trooper.name,
        seat=trooper.seat,
        real=secret.payload["real"],
        deferred=in_order(state),
        rule=rule,
    )
    if ending.deferred:
        return [ending]
    return [ending, *_table_ends(state, trooper, rule)]


def _table_ends(state: MatchState, trooper: Trooper, rule: str) -> list[Event]:
    """HE-D5: every decoy leaves; a real marker is replaced by the model."""
    real = real_element(state, trooper.id) or "model"
    events: list[Event] = [
        HoloechoEnded(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=trooper.seat,
            real=real,
            removed=[e for e in trooper.holoechoes if e != real],
            rule=rule,
        )
    ]
    if real != "model":
        events += replacement_events(state, trooper, real, rule)
    return events


def decoy_removed(state: MatchState, trooper: Trooper, element: str, rule: str) -> list[Event]:
    """HE-D1..D4. A lone Holoecho has no other to be in Coherency with, so
    when the last decoy goes the real one's Holoecho ends too (HE-C7)."""
    events: list[Event] = [
        DecoyRemoved(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=trooper.seat,
            element=element,
            rule=rule,
        )
    ]
    after = evolve_all(state, events)
    left = after.troopers[trooper.id]
    if len(left.holoechoes) == 1 and holoecho_secret(after, trooper.id):
        events += end_holoecho(after, left, "HE-C7")
    return events


# ------------------------------------------------------------------ hooks


def _on_element(kind: str):
    real_rule, decoy_rule = ELEMENT_OUTCOMES[kind]

    def hook(state: MatchState, seat: str, trooper: Trooper, element: str) -> list[Event]:
        trooper = state.troopers[trooper.id]
        if trooper.hidden:
            return []  # hidden_deployment.py answers for troopers not on the table
        if not trooper.holoechoes:
            if kind.startswith("coherency"):
                raise InvalidInput(
                    _("%(name)s has no Holoechoes to check Coherency (HE-2)."),
                    name=trooper.name,
                    rule="HE-2",
                )
            return []
        if not _is_real(state, trooper, element, kind):
            return decoy_removed(state, trooper, element, decoy_rule)
        return end_holoecho(state, trooper, real_rule, at_once=kind in AT_ONCE)

    return hook


def _is_real(state: MatchState, trooper: Trooper, element: str, kind: str) -> bool:
    """Whether the Holoecho a report names is the real one. Never answered
    from the secret before the report says which: the same refusal whatever
    is real."""
    if not element:
        if kind == "discovered":
            raise InvalidInput(
                _("Say which Holoecho was Discovered: marker 1, marker 2 or the model (HE-5)."),
                rule="HE-5",
            )
        raise InvalidInput(
            _("Say which Holoecho: Holoecho marker 1, Holoecho marker 2 or the model (HE-3)."),
            rule="HE-3",
        )
    real = real_element(state, trooper.id)
    if real is None:
        raise NotAllowed(_("Seal your deployment first."))
    return element == real


for _kind in ELEMENT_OUTCOMES:
    OUTCOMES[_kind].append(_on_element(_kind))


def _own_contact(state: MatchState, seat: str, trooper: Trooper, element: str) -> list[Event]:
    """HE-D2: "Entre en contacto de Silueta con una Miniatura" — any model
    removes a decoy; the real one ends only touching an enemy (HE-C3)."""
    trooper = state.troopers[trooper.id]
    if trooper.hidden:
        return []  # hidden_deployment.py refuses it (HD-2)
    if trooper.seat != seat:
        raise NotAllowed(
            _("Only its player reports that a Holoecho touched one of their own models (HE-D2)."),
            rule="HE-D2",
        )
    if not trooper.holoechoes:
        raise NotAllowed(
            _(
                "%(name)s is not in Holoecho: touching one of your own models changes nothing "
                "(HE-D2)."
            ),
            name=trooper.name,
            rule="HE-D2",
        )
    if not _is_real(state, trooper, element, "own_contact"):
        return decoy_removed(state, trooper, element, "HE-D2")
    return [
        OwnContactKept(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            element=element,
            private_to=seat,
            rule="HE-C3",
        )
    ]


OUTCOMES["own_contact"].append(_own_contact)


def _impetuous(state: MatchState, seat: str, trooper: Trooper, element: str) -> list[Event]:
    """HE-C6: the trooper becomes Impetuous."""
    return cancel_at_end_of_order(state, state.troopers[trooper.id], "HE-C6")


OUTCOMES["impetuous"].append(_impetuous)


def _cancellation_rule(state: MatchState, skill: Skill, aro: bool) -> str | None:
    if skill.entire and skill.name != "cautious_move":
        return "HE-C2"
    if skill.attack or skill.roll or skill.name == "alert":
        return "HE-C1"
    assert state.turn is not None
    if not aro and state.turn.phase == IMPETUOUS_PHASE:
        return "HE-C6"  # activated by its Impetuous Order: it *is* Impetuous
    return None


def _after_skill(state: MatchState, seat: str, trooper: Trooper, skill: Skill, aro: bool) -> list:
    trooper = state.troopers[trooper.id]
    events: list[Event] = []
    order = state.turn.order if state.turn else None
    if order is not None and not trooper.hidden and holoecho_secret(state, trooper.id):
        rule = _cancellation_rule(state, skill, aro)
        if rule:
            events += cancel_at_end_of_order(state, trooper, rule)
        if skill.name in ("activate", "alert"):
            events.append(
                DecoysIdle(
                    trooper_id=trooper.id, trooper_name=trooper.name, skill=skill.name, rule="HE-1"
                )
            )
        if skill.name == "activate" and not cancelled_this_order(
            evolve_all(state, events), trooper.id
        ):
            events.append(
                ActivateRollAsked(
                    trooper_id=trooper.id, trooper_name=trooper.name, seat=trooper.seat, rule="HE-1"
                )
            )
        if skill.name == "cautious_move":
            events.append(
                HoloechoKept(trooper_id=trooper.id, trooper_name=trooper.name, rule="HE-C2")
            )
        if aro or len(order.skills) == 1:
            events.append(
                CoherencyChecksDue(
                    trooper_id=trooper.id, trooper_name=trooper.name, aro=aro, rule="HE-2"
                )
            )
    if not aro and order is not None and len(order.skills) == 2:
        after = evolve_all(state, events)
        # HE-8: an Activate reveals it or not by its roll, which its player
        # has yet to say (HE-1): the delayed AROs wait for that answer.
        if after.choice(ACTIVATE_ROLL, trooper.id) is None:
            events += _delayed_aros_lost(after, trooper)
    return events


def _second_skill_declared(state: MatchState, trooper_id: str) -> bool:
    order = state.turn.order if state.turn is not None else None
    return order is not None and order.trooper_id == trooper_id and len(order.skills) >= 2


def _delayed_aros_lost(state: MatchState, trooper: Trooper) -> list[Event]:
    """HE-8: the second Short Skill came and this Holoecho was not revealed."""
    assert state.turn is not None and state.turn.order is not None
    extra = state.turn.order.extra
    if cancelled_this_order(state, trooper.id):
        return []
    lost = []
    already = set(extra.get("aro_lost", ()))
    for reactive_id, delay in sorted(extra.get("delayed", {}).items()):
        if delay["target"] == trooper.id and delay["holoecho"] and reactive_id not in already:
            reactive = state.troopers[reactive_id]
            lost.append(
                DelayedAroLost(
                    trooper_id=reactive.id,
                    trooper_name=reactive.name,
                    target_name=trooper.name,
                    target_id=trooper.id,
                    rule="HE-8",
                )
            )
    return lost


def second_short_skill_can_come(skills: tuple[str, ...]) -> bool:
    """HE-8: an ARO against a Holoecho may wait "hasta que éste declare su
    segunda Habilidad Corta": while the Order has one Short Skill so far,
    not an Entire Order (which has no second). The phones' hint reads this
    too (tracker_tags), so the line and the rule cannot disagree."""
    return len(skills) == 1 and not SKILLS[skills[0]].entire


def _aro_declared(state: MatchState, declaration: Declaration) -> list[Event]:
    """HE-3 (pick one Holoecho as target) and HE-8 (delayed AROs)."""
    if not declaration.aro or not in_order(state):
        return []
    assert state.turn is not None and state.turn.order is not None
    order = state.turn.order
    target = state.troopers.get(declaration.target_id) if declaration.target_id else None
    mine = order.extra.get("delayed", {}).get(declaration.trooper_id)
    if declaration.skill.name == "delay_aro":
        if mine is not None:
            raise NotAllowed(_("This ARO is already delayed (HE-8)."), rule="HE-8")
        if target is None or not (target.holoechoes or target.marker):
            raise InvalidInput(
                _("An ARO can be delayed only against a Holoecho or a marker (HE-8)."),
                rule="HE-8",
            )
        if target.holoechoes and len(order.skills) >= 2:
            raise NotAllowed(
                _("Too late to delay: the Holoecho has declared its second Short Skill (HE-8)."),
                rule="HE-8",
            )
        if target.holoechoes and not second_short_skill_can_come(order.skills):
            # An Entire Order has no second Short Skill, so a delay could
            # never be declared.
            raise NotAllowed(
                _(
                    "Nothing to wait for: an Entire Order has no second Short Skill. "
                    "Declare your ARO now (HE-8)."
                ),
                rule="HE-8",
            )
        return []
    if target is not None and target.holoechoes and not declaration.target_element:
        raise InvalidInput(
            _("Pick which Holoecho your ARO targets: marker 1, marker 2 or the model (HE-3)."),
            rule="HE-3",
        )
    if declaration.trooper_id in order.extra.get("aro_lost", ()):
        raise NotAllowed(
            _("The Holoecho was not revealed by its second Short Skill: this ARO is lost (HE-8)."),
            rule="HE-8",
        )
    if mine is not None and mine["holoecho"] and len(order.skills) < 2:
        raise NotAllowed(
            _("You delayed this ARO: declare it after the Holoecho's second Short Skill (HE-8)."),
            rule="HE-8",
        )
    if mine is not None and mine["holoecho"] and state.choice(ACTIVATE_ROLL, mine["target"]):
        # Whether that Activate reveals it (HE-1, HE-C1) is not said yet.
        raise NotAllowed(
            _(
                "You delayed this ARO: your opponent has yet to say whether the Activate "
                "needs a roll, which decides whether the Holoecho is revealed (HE-8)."
            ),
            rule="HE-8",
        )
    return []


def _surprise_attack(state: MatchState, seat: str, trooper: Trooper, skill: Skill, aro: bool):
    if skill.name == "surprise_attack" and aro and trooper.holoechoes:
        raise NotAllowed(
            _("A trooper in Holoecho uses Surprise Attack only in its Active Turn (HE-6)."),
            rule="HE-6",
        )


def _end_of_order(state: MatchState) -> list[Event]:
    """HE-T: pending reveals fire, then every Holoecho that ended in this
    Order leaves the table."""
    assert state.turn is not None and state.turn.order is not None
    events: list[Event] = []
    after = state
    for secret_id, rule in state.turn.order.pending:
        secret = after.secrets[secret_id]
        if not secret.revealed:
            more = reveal(after, secret, rule)
            events += more
            after = evolve_all(after, more)
    assert after.turn is not None and after.turn.order is not None
    for trooper_id, rule in after.turn.order.extra.get("he_ending", ()):
        more = _table_ends(after, after.troopers[trooper_id], rule)
        events += more
        after = evolve_all(after, more)
    return events


def _retreat(state: MatchState, seat: str) -> list[Event]:
    """HE-C6 / RT-5 for troopers on the table (hidden ones: hidden_deployment)."""
    events: list[Event] = []
    after = state
    for trooper in state.troopers_of(seat):
        current = after.troopers[trooper.id]
        if current.hidden or ignores_retreat(current) or not holoecho_secret(after, trooper.id):
            continue
        more = end_holoecho(after, current, "HE-C6")
        events += more
        after = evolve_all(after, more)
    return events


SKILL_GUARDS.append(_surprise_attack)
DECLARATION_HOOKS.append(_aro_declared)
AFTER_SKILL.append(_after_skill)
END_ORDER.append(_end_of_order)
RETREAT_ENTERED.append(_retreat)


def _holoecho(state: MatchState, seat: str, raw: dict) -> tuple[dict, str | None, bool]:
    trooper = _own_trooper(state, seat, raw.get("trooper_id"))
    if not trooper.has(HOLOPROJECTOR):
        raise InvalidInput(_("%(name)s has no Holoprojector."), name=trooper.name)
    real = raw.get("real")
    if real not in HOLOECHO_ELEMENTS:
        raise InvalidInput(_("Choose which Holoecho is the real %(name)s."), name=trooper.name)
    payload = {"trooper_id": trooper.id, **public_name(trooper), "real": real}
    if trooper.hidden:
        # FAQ (HD + Holoecho): the positions of all three are written too.
        payload["positions"] = {
            element: _clean_text((raw.get("positions") or {}).get(element), _("Holoecho position"))
            for element in HOLOECHO_ELEMENTS
        }
    return payload, trooper.id, not trooper.hidden


register_kind(
    SecretKind(
        kind=HOLOECHO,
        names=POSITION,  # which of the three is real
        per_seat=ONE_PER_TROOPER,
        seal=_holoecho,
        required_for=lambda trooper: trooper.in_holoecho,
        missing=_("Choose the real Holoecho of %(name)s (HE-A1)."),
        missing_rule="HE-A1",
        ends=("HE-C1", "HE-C2", "HE-C3", "HE-C4", "HE-C5", "HE-C6", "HE-C7", "RT-5"),
        on_reveal=_revealed,
        # Its markers are on the table: which trooper it is about is public.
        trooper_public=True,
    )
)


# ---------------------------------------------------------------- evolve


def _mark_order(state: MatchState, trooper_id: str, **lists) -> MatchState:
    """Append to lists in the current Order's extra (no Order: unchanged)."""
    if not in_order(state):
        return state
    assert state.turn is not None and state.turn.order is not None
    extra = state.turn.order.extra
    changes = {key: [*extra.get(key, ()), value] for key, value in lists.items()}
    cancelled = list(extra.get("he_cancelled", ()))
    if trooper_id not in cancelled:
        cancelled.append(trooper_id)
    return with_order_extra(state, he_cancelled=cancelled, **changes)


@applies(HoloechoActivated)
def _activated(state: MatchState, event: HoloechoActivated) -> MatchState:
    # HE-10: activating Holoecho takes the trooper out of its Fireteam.
    return state.with_trooper(
        event.trooper_id, holoechoes=HOLOECHO_ELEMENTS, fireteam="", holoecho_token=""
    )


@applies(HoloechoCancelled)
def _cancelled(state: MatchState, event: HoloechoCancelled) -> MatchState:
    assert state.turn is not None and state.turn.order is not None
    order = state.turn.order
    pending = (*order.pending, (event.secret_id, event.rule or ""))
    state = state.with_turn(order=replace(order, pending=pending))
    return _mark_order(state, event.trooper_id)


@applies(HoloechoEnding)
def _ending(state: MatchState, event: HoloechoEnding) -> MatchState:
    if event.deferred:
        return _mark_order(state, event.trooper_id, he_ending=[event.trooper_id, event.rule])
    return _mark_order(state, event.trooper_id)


@applies(HoloechoEnded)
def _ended(state: MatchState, event: HoloechoEnded) -> MatchState:
    state = state.with_trooper(event.trooper_id, holoechoes=(), holoecho_token="")
    if in_order(state):
        assert state.turn is not None and state.turn.order is not None
        extra = state.turn.order.extra
        ending = [e for e in extra.get("he_ending", ()) if e[0] != event.trooper_id]
        state = with_order_extra(state, he_ending=ending)
    return state


@applies(DecoyRemoved)
def _decoy_removed(state: MatchState, event: DecoyRemoved) -> MatchState:
    trooper = state.troopers[event.trooper_id]
    left = tuple(e for e in trooper.holoechoes if e != event.element)
    return state.with_trooper(event.trooper_id, holoechoes=left)


@applies(DelayedAroLost)
def _aro_lost(state: MatchState, event: DelayedAroLost) -> MatchState:
    assert state.turn is not None and state.turn.order is not None
    extra = state.turn.order.extra
    return with_order_extra(state, aro_lost=[*extra.get("aro_lost", ()), event.trooper_id])


@applies(HoloechoTokenPlaced)
def _token_placed(state: MatchState, event: HoloechoTokenPlaced) -> MatchState:
    return state.with_trooper(event.trooper_id, holoecho_token=event.element)


@applies(ActivateRollAsked)
def _roll_asked(state: MatchState, event: ActivateRollAsked) -> MatchState:
    return state.with_choice(ACTIVATE_ROLL, event.trooper_id, "HE-1")


@applies(ActivateRollAnswered)
def _roll_answered(state: MatchState, event: ActivateRollAnswered) -> MatchState:
    return state.without_choice(ACTIVATE_ROLL, event.trooper_id)


@applies(DecoysIdle)
@applies(OwnContactKept)
@applies(HoloechoKept)
@applies(CoherencyChecksDue)
def _note(state: MatchState, event: Event) -> MatchState:
    return state
