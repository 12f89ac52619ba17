"""Orders, declarations and what the table reports back.

The players tell the tracker what is declared (a Short Skill, an Entire
Order, an ARO) and what the table decided (a hit that forces a Saving Roll, a
successful Discover, silhouette contact, a failed Coherency check...). This
module keeps the Order and its accounting; the rule modules hook in:

- SKILL_GUARDS refuse a declaration (Retreat! allows only some skills, RT-3);
- DECLARATION_HOOKS see the whole declaration (as marker? against whom?) and
  run before it is public: a hidden trooper that declares is placed first,
  HD-C2/HD-C3, so the declaration itself is public; a delayed ARO is checked
  against HE-8;
- BEFORE_SKILL run before the declaration is public, after those;
- AFTER_SKILL run after it (a Holoecho bearer that attacks is revealed at the
  end of the Order, HE-C1 + HE-T);
- OUTCOMES[kind] turn a reported outcome into events (a decoy hit, HE-D3);
- END_ORDER run when the Order ends (pending reveals fire, HE-T).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .commands import Command, handles
from .conditions import visible_trooper
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve, evolve_all
from .i18n import _
from .state import (
    ACTIVATE_ROLL,
    DEPLOYMENT,
    HOLOECHO_ELEMENTS,
    IMPETUOUS_PHASE,
    IRREGULAR,
    ORDERS,
    PLACEMENT,
    PLAYING,
    MatchState,
    Order,
    Trooper,
    frozen_map,
    replace,
)


@dataclass(frozen=True)
class Skill:
    name: str
    entire: bool = False  # an Entire Order rather than a Short Skill
    movement: bool = False  # a movement Short Skill (RT-3, HD-C3)
    roll: bool = False  # needs a roll (HE-C1)
    attack: bool = False  # an Attack (HE-C1)
    label: str = ""
    aro_only: bool = False  # only ever declared as an ARO
    # Needs a command of its own that carries a sealed choice (HE-A3).
    sealed: bool = False


SKILLS: dict[str, Skill] = {
    s.name: s
    for s in (
        Skill("move", movement=True, label=_("Move")),
        Skill("cautious_move", entire=True, movement=True, label=_("Cautious Movement")),
        Skill("jump", movement=True, label=_("Jump")),
        Skill("climb", movement=True, label=_("Climb")),
        Skill("mount", movement=True, label=_("Mount")),
        Skill("dismount", movement=True, label=_("Dismount")),
        Skill("bs_attack", roll=True, attack=True, label=_("BS Attack")),
        Skill("cc_attack", roll=True, attack=True, label=_("CC Attack")),
        Skill("alert", label=_("Alert")),
        Skill("activate", label=_("Activate")),
        Skill("discover", roll=True, label=_("Discover")),
        Skill("dodge", roll=True, label=_("Dodge")),
        Skill("reset", roll=True, label=_("Reset")),
        Skill("idle", label=_("Idle")),
        Skill("roll_skill", roll=True, label=_("Another skill that needs a roll")),
        Skill("suppressive_fire", entire=True, label=_("Suppressive Fire")),
        Skill("surprise_attack", roll=True, attack=True, label=_("Surprise Attack")),
        Skill("holoecho_activate", entire=True, sealed=True, label=_("Activate Holoecho (HE-A3)")),
        Skill("entire_other", entire=True, roll=True, label=_("Another Entire Order")),
        # Reactive declarations that may keep a Camouflage marker (HD-C3) or
        # wait for a Holoecho's second Short Skill (HE-8).
        Skill("delay_aro", aro_only=True, label=_("Delay the ARO")),
        Skill(
            "prevent_marker",
            aro_only=True,
            label=_("Stop an enemy going back to a marker state"),
        ),
    )
}

# The Short Skills N4 lets a reactive trooper declare as an ARO, in the
# order the phone offers them: BS Attack and Dodge first, the usual answers
# (issue 19). Move, Jump, Climb, Mount and Dismount are Short Skills of an
# Order only.
ARO_SKILLS: tuple[str, ...] = (
    "bs_attack",
    "dodge",
    "cc_attack",
    "discover",
    "reset",
    "alert",
    "idle",
    "roll_skill",
    "delay_aro",
    "prevent_marker",
)

# Outcomes the table reports; each rule module may add consequences.
OUTCOME_KINDS = {
    "saving_roll": _("Hit that forces a Saving Roll"),
    "discovered": _("Successfully Discovered"),
    "contact": _("Silhouette contact with an enemy"),
    # HE-D2: a decoy leaves on touching any model, the real one only an
    # enemy's (HE-C3); its player reports touching one of its own.
    "own_contact": _("A Holoecho touched one of your own models"),
    "coherency_initial": _("Failed Initial Coherency check"),
    "coherency_final": _("Failed Final Coherency check"),
    "impetuous": _("Becomes Impetuous"),
    "infiltration_failed": _("Failed Infiltration roll"),
    "coherency": _("Failed Coherency check (Deployment, or when Hidden Deployment ends)"),
}
# Outcomes that may also be reported in the Deployment Phase: the Infiltration
# roll follows the written position (HD-4); the optional Deployment Coherency
# check (HE-2).
DEPLOYMENT_OUTCOMES = {"infiltration_failed", "coherency"}


@dataclass(frozen=True)
class Declaration:
    """Everything a declaration says, for the hooks that need more than the
    skill (HD-C3 placement as a marker, HE-3/HE-8 ARO targets)."""

    seat: str
    trooper_id: str
    skill: Skill
    aro: bool = False
    as_marker: bool = False
    target_id: str = ""
    target_element: str = ""


Guard = Callable[[MatchState, str, Trooper, Skill, bool], None]
Hook = Callable[[MatchState, str, Trooper, Skill, bool], list[Event]]
Outcome = Callable[[MatchState, str, Trooper, str], list[Event]]

SKILL_GUARDS: list[Guard] = []
DECLARATION_HOOKS: list[Callable[[MatchState, Declaration], list[Event]]] = []
BEFORE_SKILL: list[Hook] = []
AFTER_SKILL: list[Hook] = []
OUTCOMES: dict[str, list[Outcome]] = {kind: [] for kind in OUTCOME_KINDS}
END_ORDER: list[Callable[[MatchState], list[Event]]] = []
# fn(state, trooper) -> order source or None; first answer wins (HD-3 own Order).
ORDER_SOURCES: list[Callable[[MatchState, Trooper], str | None]] = []


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class OrderStarted(Event):
    trooper_id: str
    trooper_name: str
    seat: str
    source: str  # "group:N", "irregular", "impetuous", "own" (HD-3)
    describe_as = _("%(trooper_name)s is activated with an Order.")


@dataclass(frozen=True, kw_only=True)
class SkillDeclared(Event):
    trooper_id: str
    trooper_name: str
    seat: str
    skill: str
    aro: bool = False
    target_id: str = ""
    target_element: str = ""
    # The ARO's target as it is named, on an ARO against one Holoecho only
    # (HE-3: its line says which one). Each viewer reads it renamed by
    # target_id (identity.rename), so a masked trooper stays masked. Empty
    # otherwise, and then left out of the data, so those events (and AROs
    # logged before it was kept) read exactly as they were written.
    target_name: str = ""
    describe_as = _("%(trooper_name)s declares %(skill)s.")

    def to_data(self) -> dict:
        data = super().to_data()
        if not data["target_name"]:
            del data["target_name"]
        return data

    def describe(self) -> tuple[str, dict] | None:
        # An ARO against one Holoecho names it (HE-3). Any other ARO is
        # against the Order's trooper, which the lines just before name (and
        # the ARO card): its line names no target, which keeps a full log of
        # a 25-trooper page within its 50 KB.
        if self.aro and self.target_name and self.target_element:
            return ARO_AGAINST_ELEMENT, self.to_data()
        return super().describe()


# HE-3: each reactive trooper picks one Holoecho as its ARO's target; the
# log says which, so both players read the same thing at the table.
ARO_AGAINST_ELEMENT = _(
    "ARO of %(trooper_name)s against %(target_element)s of %(target_name)s: %(skill)s."
)


@dataclass(frozen=True, kw_only=True)
class OutcomeReported(Event):
    outcome: str
    trooper_id: str
    trooper_name: str
    element: str
    by: str
    describe_as = _("Reported: %(outcome)s on %(trooper_name)s.")


@dataclass(frozen=True, kw_only=True)
class OrderEnded(Event):
    trooper_id: str
    trooper_name: str
    describe_as = _("End of the Order of %(trooper_name)s.")


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class DeclareSkill(Command):
    """The active player declares a Short Skill or Entire Order."""

    trooper_id: str
    skill: str
    # A hidden trooper with Camouflage placed as its marker (HD-C3).
    as_marker: bool = False


@dataclass(frozen=True, kw_only=True)
class DeclareAro(Command):
    """The reactive player declares an ARO, against a visible element."""

    trooper_id: str
    skill: str
    target_id: str = ""
    target_element: str = ""
    as_marker: bool = False


@dataclass(frozen=True, kw_only=True)
class ReportOutcome(Command):
    """What the table decided: either player may enter it."""

    outcome: str
    trooper_id: str
    element: str = ""


@dataclass(frozen=True, kw_only=True)
class EndOrder(Command):
    pass


def skill_named(name: str) -> Skill:
    skill = SKILLS.get(name)
    if skill is None:
        raise InvalidInput(_("Unknown skill."))
    return skill


def _run(state: MatchState, events: list[Event], hooks, *args) -> list[Event]:
    """Run hooks in order, each seeing the state after the events so far."""
    return _run_from(evolve_all(state, events), events, hooks, *args)[0]


def _run_from(
    after: MatchState, events: list[Event], hooks, *args
) -> tuple[list[Event], MatchState]:
    """_run from `after`, the state once `events` are applied, and the state
    after the hooks' events too: a declaration runs three lists of hooks in
    turn, and evolving its events once rather than once per list is most of
    what the Order and ARO offers cost (issue 18). Evolving is pure, so the
    state after a + b is the state after a, then b: the same hooks see the
    same states."""
    for hook in hooks:
        more = hook(after, *args)
        events = events + more
        after = evolve_all(after, more)
    return events, after


def order_source(state: MatchState, trooper: Trooper) -> str:
    """Which Order activates `trooper`, or a refusal when none is left."""
    turn = state.turn
    assert turn is not None
    if turn.phase == IMPETUOUS_PHASE:
        return impetuous_order(state, trooper)
    for source in ORDER_SOURCES:
        found = source(state, trooper)
        if found:
            return found
    spent = turn.extra.get("spent", {})
    irregular = trooper.has(IRREGULAR) and not trooper.regular_this_turn
    if irregular and trooper.id not in turn.extra.get("irregular_used", ()):
        return "irregular"
    key = f"group:{trooper.combat_group}"
    pool = turn.extra.get("pool", {}).get(str(trooper.combat_group), 0)
    if pool - spent.get(key, 0) <= 0:
        raise NotAllowed(
            _("No Regular Orders left in Combat Group %(group)s."), group=trooper.combat_group
        )
    return key


IMPETUOUS_USED = "impetuous_used"  # Turn.extra: troopers whose Impetuous Order is spent


def impetuous_order(state: MatchState, trooper: Trooper) -> str:
    """N4 Impetuous Phase: only a trooper with an Impetuous Order acts, once,
    on that Order; every other Order is spent in the Orders Phase (from the
    Pool, or kept apart, HD-3). Refused rather than taken from the Pool."""
    assert state.turn is not None
    if not trooper.has_impetuous_order:
        raise NotAllowed(
            _(
                "%(name)s has no Impetuous Order: only Impetuous troopers act in the "
                "Impetuous Phase; its Order is spent in the Orders Phase."
            ),
            name=trooper.name,
        )
    if trooper.id in state.turn.extra.get(IMPETUOUS_USED, ()):
        raise NotAllowed(
            _("%(name)s has already used its Impetuous Order this Player Turn."),
            name=trooper.name,
        )
    return "impetuous"


def impetuous_troopers(state: MatchState, seat: str) -> tuple[str, ...]:
    """The ids of `seat`'s troopers that may start their Impetuous Order now:
    what the phone offers in the Impetuous Phase, asked of `impetuous_order`
    itself so the offer and the refusal cannot drift apart."""
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.phase != IMPETUOUS_PHASE:
        return ()
    if turn.seat != seat or turn.order is not None:
        return ()
    found = []
    for trooper in state.troopers_of(seat):
        if trooper.out_of_action or trooper.reserved or trooper.evacuated:
            continue
        try:
            impetuous_order(state, trooper)
        except NotAllowed:
            continue
        found.append(trooper.id)
    return tuple(found)


def declaration_events(state: MatchState, declaration: Declaration) -> list[Event]:
    """What DECLARATION_HOOKS add for one declaration. A command that declares
    for several troopers at once (a Coordinated Order, TM-T1) calls this for
    each participant so a hidden one is placed too (HD-C2, HD-6)."""
    return _run(state, [], DECLARATION_HOOKS, declaration)


@handles(DeclareSkill)
def declare_skill(state: MatchState, seat: str, command: DeclareSkill) -> list[Event]:
    if skill_named(command.skill).sealed:
        raise InvalidInput(
            _("Activating Holoecho seals a new real Holoecho: use Activate Holoecho (HE-A3)."),
            rule="HE-A3",
        )
    return declare(state, seat, command)


def declare(state: MatchState, seat: str, command: DeclareSkill) -> list[Event]:
    """An active declaration; commands that add a sealed choice (HE-A3) call
    this first and add their own events after."""
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.phase not in (ORDERS, IMPETUOUS_PHASE):
        raise NotAllowed(_("Orders are declared in the Orders Phase of your Player Turn."))
    if seat != turn.seat:
        raise NotAllowed(
            _("Only the active player declares Orders; the reactive player declares AROs.")
        )
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(_("You can only activate your own troopers."))
    if trooper.out_of_action:
        raise NotAllowed(_("%(name)s is out of action."), name=trooper.name)
    skill = skill_named(command.skill)
    if skill.aro_only:
        raise InvalidInput(_("%(skill)s is declared only as an ARO."), skill=skill.label)
    order = turn.order
    events: list[Event] = []
    if order is not None and order.trooper_id != trooper.id:
        raise NotAllowed(_("Finish the current Order first."))
    if order is not None:
        declared = [SKILLS[s] for s in order.skills]
        if skill.entire or any(s.entire for s in declared) or len(declared) >= 2:
            raise NotAllowed(
                _("An Order holds two Short Skills or one Entire Order; end this Order first.")
            )
    for guard in SKILL_GUARDS:
        guard(state, seat, trooper, skill, False)
    if order is None:
        source = order_source(state, trooper)
        events.append(
            OrderStarted(trooper_id=trooper.id, trooper_name=trooper.name, seat=seat, source=source)
        )
        if trooper.hidden:
            # The Order of a hidden trooper is its own kept-apart Order (HD-3);
            # starting it must not say who is activated before the reveal does.
            events[-1] = replace(events[-1], private_to=seat)
    declaration = Declaration(
        seat=seat, trooper_id=trooper.id, skill=skill, as_marker=bool(command.as_marker)
    )
    events, after = _run_from(evolve_all(state, events), events, DECLARATION_HOOKS, declaration)
    events, after = _run_from(after, events, BEFORE_SKILL, seat, trooper, skill, False)
    declared = SkillDeclared(
        trooper_id=trooper.id, trooper_name=trooper.name, seat=seat, skill=skill.name
    )
    events.append(declared)
    after = evolve(after, declared)
    return _run_from(after, events, AFTER_SKILL, seat, after.troopers[trooper.id], skill, False)[0]


@handles(DeclareAro)
def declare_aro(state: MatchState, seat: str, command: DeclareAro) -> list[Event]:
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.order is None:
        raise NotAllowed(_("AROs are declared against an Order in progress."))
    if seat == turn.seat:
        raise NotAllowed(_("Only the reactive player declares AROs."))
    if not turn.order.skills:
        # A Coordinated Order (TM-T1) starts before its first Short Skill:
        # an ARO answers what an Order declared, so none comes before it.
        raise NotAllowed(
            _(
                "Nothing has been declared in this Order yet: AROs come once it declares "
                "its first Short Skill."
            )
        )
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(_("You can only declare AROs for your own troopers."))
    if trooper.out_of_action:
        raise NotAllowed(_("%(name)s is out of action."), name=trooper.name)
    if trooper.id in turn.order.extra.get("aros_declared", ()):
        raise NotAllowed(
            _("%(name)s has already declared an ARO against this Order: one ARO per Order."),
            name=trooper.name,
        )
    skill = skill_named(command.skill)
    if skill.entire:
        raise NotAllowed(_("An ARO is a single Short Skill."))
    # The rule-specific refusals first (they cite their rule: HE-6's
    # Surprise Attack, HE-8...), then the general list of N4 ARO skills.
    for guard in SKILL_GUARDS:
        guard(state, seat, trooper, skill, True)
    if skill.name not in ARO_SKILLS:
        raise NotAllowed(_("%(skill)s cannot be declared as an ARO."), skill=skill.label)
    target_id, element, target_name = "", "", ""
    if command.target_id:
        target = visible_trooper(state, seat, command.target_id)
        target_id = target.id
        if command.target_element:
            if command.target_element not in target.holoechoes:
                raise InvalidInput(_("Pick a Holoecho that is on the table."))
            # Kept only where its line names it: no public event holds the
            # true name of a marker that no line of it shows.
            element, target_name = command.target_element, target.name
    declaration = Declaration(
        seat=seat,
        trooper_id=trooper.id,
        skill=skill,
        aro=True,
        as_marker=bool(command.as_marker),
        target_id=target_id,
        target_element=element,
    )
    events, after = _run_from(state, [], DECLARATION_HOOKS, declaration)
    events, after = _run_from(after, events, BEFORE_SKILL, seat, trooper, skill, True)
    declared = SkillDeclared(
        trooper_id=trooper.id,
        trooper_name=trooper.name,
        seat=seat,
        skill=skill.name,
        aro=True,
        target_id=target_id,
        target_element=element,
        target_name=target_name,
    )
    events.append(declared)
    after = evolve(after, declared)
    return _run_from(after, events, AFTER_SKILL, seat, after.troopers[trooper.id], skill, True)[0]


@handles(ReportOutcome)
def report_outcome(state: MatchState, seat: str, command: ReportOutcome) -> list[Event]:
    if command.outcome not in OUTCOME_KINDS:
        raise InvalidInput(_("Unknown outcome."))
    in_deployment = state.phase == DEPLOYMENT and command.outcome in DEPLOYMENT_OUTCOMES
    if state.phase != PLAYING and not in_deployment:
        raise NotAllowed(_("Outcomes are reported while the match is in play."))
    trooper = visible_trooper(state, seat, command.trooper_id)
    if command.outcome == "discovered" and not (
        trooper.hidden or trooper.marker or trooper.holoechoes
    ):
        # Discover targets a hidden trooper (HD-C1), a marker (HD-C3) or a
        # Holoecho (HE-5); only public facts decide, so nothing leaks.
        raise NotAllowed(
            _(
                "%(name)s is neither in Hidden Deployment, nor a marker, nor a Holoecho: "
                "there is nothing to Discover (HD-C1, HE-5)."
            ),
            name=trooper.name,
            rule="HE-5",
        )
    element = command.element or ""
    if element and element not in HOLOECHO_ELEMENTS:
        raise InvalidInput(_("Pick a Holoecho that is on the table."))
    if element and element not in trooper.holoechoes:
        raise InvalidInput(_("Pick a Holoecho that is on the table."))
    reported = OutcomeReported(
        outcome=command.outcome,
        trooper_id=trooper.id,
        trooper_name=trooper.name,
        element=element,
        by=seat,
        # Only the owner can report on its own hidden trooper (e.g. found by a
        # Sensor, HD-C1); the report stays private until a rule reveals it.
        # So does a Holoecho touching its own side (HE-D2): on the real one
        # nothing happens, and a public report would name it.
        private_to=seat if trooper.hidden or command.outcome == "own_contact" else None,
    )
    return _run(state, [reported], OUTCOMES[command.outcome], seat, trooper, element)


def _no_open_question(state: MatchState, seat: str) -> None:
    """HE-T: a cancellation covers the whole Order and shows at its end, so an
    Order cannot end while a Holoecho's Activate waits for its answer (HE-1)."""
    for choice in state.choices.values():
        if choice.kind != ACTIVATE_ROLL:
            continue
        if choice.seat == seat:
            raise NotAllowed(
                _("First say whether the Activate of %(name)s needs a roll (HE-1, HE-C1)."),
                name=state.troopers[choice.trooper_id].name,
                rule="HE-1",
            )
        raise NotAllowed(
            _(
                "Your opponent has yet to say whether an Activate of this Order needs a roll "
                "(HE-1, HE-C1)."
            ),
            rule="HE-1",
        )


@handles(EndOrder)
def end_order(state: MatchState, seat: str, command: EndOrder) -> list[Event]:
    turn = state.turn
    if turn is None or turn.order is None:
        raise NotAllowed(_("There is no Order to end."))
    if seat != turn.seat:
        raise NotAllowed(_("The active player ends the Order."))
    _no_open_question(state, seat)
    trooper = state.troopers[turn.order.trooper_id]
    events = _run(state, [], END_ORDER)
    after = evolve_all(state, events).troopers[trooper.id]
    events.append(
        OrderEnded(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            private_to=seat if after.hidden else None,
        )
    )
    return events


# ---------------------------------------------------------------- evolve


@applies(OrderStarted)
def _order_started(state: MatchState, event: OrderStarted) -> MatchState:
    # RP-1: a same-base replacement goes centre on centre, nothing to choose
    # and no "Placed" tap (issue 19); its player may still report that it did
    # not fit (RP-3) until the next Order starts, then the placement stands.
    for choice in list(state.choices.values()):
        if choice.kind == PLACEMENT and choice.rule == "RP-1":
            state = state.without_choice(PLACEMENT, choice.trooper_id)
    turn = state.turn
    assert turn is not None
    extra = dict(turn.extra)
    if event.source.startswith("group:"):
        spent = dict(extra.get("spent", {}))
        spent[event.source] = spent.get(event.source, 0) + 1
        extra["spent"] = spent
    elif event.source == "irregular":
        extra["irregular_used"] = [*extra.get("irregular_used", []), event.trooper_id]
    elif event.source == "own":
        extra["own_used"] = [*extra.get("own_used", []), event.trooper_id]
    elif event.source == "impetuous":
        extra[IMPETUOUS_USED] = [*extra.get(IMPETUOUS_USED, []), event.trooper_id]
    order = Order(trooper_id=event.trooper_id, seat=event.seat)
    return state.with_turn(order=order, extra=frozen_map(extra))


@applies(SkillDeclared)
def _skill_declared(state: MatchState, event: SkillDeclared) -> MatchState:
    order = state.turn.order if state.turn else None
    if order is None:
        return state
    if not event.aro:
        return state.with_turn(order=replace(order, skills=(*order.skills, event.skill)))
    # HE-8: a delayed ARO is remembered until it is declared or lost.
    delayed = dict(order.extra.get("delayed", {}))
    if event.skill == "delay_aro":
        target = state.troopers.get(event.target_id)
        delayed[event.trooper_id] = {
            "target": event.target_id,
            "holoecho": bool(target and target.holoechoes),
        }
    else:
        delayed.pop(event.trooper_id, None)
        # One ARO per trooper per Order (N4): kept until the Order ends.
        declared = (*order.extra.get("aros_declared", ()), event.trooper_id)
        return with_order_extra(state, delayed=delayed, aros_declared=declared)
    return with_order_extra(state, delayed=delayed)


def with_order_extra(state: MatchState, **changes) -> MatchState:
    """The state with keys of the current Order's `extra` replaced."""
    assert state.turn is not None and state.turn.order is not None
    order = state.turn.order
    extra = frozen_map({**order.extra, **changes})
    return state.with_turn(order=replace(order, extra=extra))


@applies(OutcomeReported)
def _outcome(state: MatchState, event: OutcomeReported) -> MatchState:
    if event.outcome == "impetuous" and event.trooper_id in state.troopers:
        # It has an Impetuous Order from now on (Impetuous Phase).
        return state.with_trooper(event.trooper_id, impetuous=True)
    return state


@applies(OrderEnded)
def _order_ended(state: MatchState, event: OrderEnded) -> MatchState:
    return state.with_turn(order=None)
