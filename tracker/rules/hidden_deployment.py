"""HD — Hidden Deployment (docs/rules.md HD-1..HD-7, HD-C1..HD-C4, FAQ HD + Holoecho).

A hidden trooper is a Trooper with `hidden=True` (HD-1, set when the list is
locked) and a sealed HD_POSITION secret whose very existence is private. While
hidden, everything about it stays with its owner: the opponent cannot name it
(conditions.visible_trooper), its Order is kept apart from the Pool (HD-3,
queries.order_pool) and events about it are private to its owner.

The tracker, never the owner, ends it (sealing.OWNER_REVEALABLE leaves HD
out): each cancellation calls `end_hidden_deployment`, which reveals the
written position to both phones and places the trooper. It never comes back
(HD-7): nothing but the army list sets `hidden`.

HD-5 (a Combat Group change tells the opponent that a hidden trooper exists)
and HD-6 (a Coordinated Order places it and its kept-apart Order is lost) live
with the Command Token uses in token_uses.py / token_tactical.py; they end HD
through `sealing.reveal`, so the placement below applies to them too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .holoecho import end_holoecho, holoecho_secret
from .i18n import _
from .orders import DECLARATION_HOOKS, ORDER_SOURCES, OUTCOMES, Declaration
from .replacement import replacement_events
from .retreat import RETREAT_ENTERED, ignores_retreat
from .sealing import (
    ONE_PER_TROOPER,
    POSITION,
    SecretKind,
    _clean_text,
    _map_point,
    _own_trooper,
    public_name,
    register_kind,
    reserve_of,
    reveal,
)
from .state import (
    CAMOUFLAGE,
    DEPLOYMENT,
    HD_POSITION,
    HIDDEN_DEPLOYMENT,
    HOLOECHO,
    HOLOECHO_ELEMENTS,
    IMPETUOUS_PHASE,
    INFILTRATION,
    PLACEMENT,
    TACTICAL,
    MatchState,
    Secret,
    Trooper,
    frozen_map,
    replace,
)

# Outcomes that end HD, reported by the owner (the opponent cannot name a
# hidden trooper). Any other outcome on a hidden trooper is refused (HD-2).
HD_OUTCOMES = {"discovered": "HD-C1", "impetuous": "HD-C4", "infiltration_failed": "HD-4"}
# Outcomes that end a Camouflage marker's state (HD-C3 keeps it only through
# declarations): Discovered like HD-C1; a hit or contact puts the model down;
# becoming Impetuous like HD-C4.
MARKER_OUTCOMES = {
    "discovered": "HD-C1",
    "saving_roll": "HD-C3",
    "contact": "HD-C3",
    "impetuous": "HD-C4",
}


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class HiddenDeploymentEnded(Event):
    """Public: the trooper is on the table, with all its public information."""

    trooper_id: str
    trooper_name: str
    seat: str
    as_marker: bool = False  # HD-C3
    on_edge: bool = False  # HD-4
    # FAQ: a Holoecho trooper checks Coherency now (reported as "coherency").
    holoecho: bool = False
    # HD-C3: the public number of the Camouflage marker placed (identity.py).
    marker_number: int = 0
    # FAQ (HD + Holoecho): the three written positions, now on the table for
    # the opponent to check, copied from the sealed Holoecho choice without
    # which one is real (that stays sealed; its reveal proves these).
    positions: dict = field(default_factory=dict)

    def describe(self) -> tuple[str, dict]:
        if self.on_edge:
            message = _(
                "%(trooper_name)s failed its Infiltration roll: its model goes on a table edge "
                "inside its deployment zone and Hidden Deployment ends (HD-4)."
            )
        elif self.as_marker:
            message = _(
                "Hidden Deployment of %(trooper_name)s ends (%(rule)s): its marker is placed at "
                "the written position, centre on the written point; it keeps its marker state "
                "(HD-C3). Which trooper it is stays private until the marker state ends; the "
                "written position is shown with its proof then."
            )
        elif self.holoecho and self.positions:
            message = _(
                "Hidden Deployment of %(trooper_name)s ends (%(rule)s): its three Holoechoes go "
                "at their written positions — the model: %(model_at)s; Holoecho marker 1: "
                "%(marker1_at)s; Holoecho marker 2: %(marker2_at)s. Check them, and their "
                "Coherency now: report any Holoecho out of Coherency (FAQ HD + Holoecho)."
            )
            params = self.to_data()
            for element in HOLOECHO_ELEMENTS:
                params[f"{element}_at"] = self.positions.get(element, "")
            return message, params
        elif self.holoecho:
            message = _(
                "Hidden Deployment of %(trooper_name)s ends (%(rule)s): its three Holoechoes go "
                "at their written positions. Check their Coherency now: report any Holoecho out "
                "of Coherency (FAQ HD + Holoecho)."
            )
        else:
            message = _(
                "Hidden Deployment of %(trooper_name)s ends (%(rule)s): its model is placed at "
                "the written position, centre of the base on the written point (RP-1), facing "
                "as its player chooses. Check the position against the revealed seal."
            )
        return message, self.to_data()


# ------------------------------------------------------------ the ending


def hd_secret(state: MatchState, trooper_id: str) -> Secret | None:
    return state.secret_for(trooper_id, HD_POSITION)


def end_hidden_deployment(
    state: MatchState, trooper: Trooper, rule: str, as_marker: bool = False, on_edge: bool = False
) -> list[Event]:
    """Reveal the written position under `rule` and place the trooper."""
    secret = hd_secret(state, trooper.id)
    if secret is None or not trooper.hidden:
        return []
    if as_marker:
        # HD-C3: the written position names the trooper, which is private as
        # long as it is a marker (RT-5). The marker goes down now; the seal is
        # revealed, with its proof, when the marker state ends (end_marker).
        return [
            HiddenDeploymentEnded(
                trooper_id=trooper.id,
                trooper_name=trooper.name,
                seat=trooper.seat,
                as_marker=True,
                holoecho=holoecho_secret(state, trooper.id) is not None,
                marker_number=_next_marker_number(state, trooper.seat),
                rule=rule,
            )
        ]
    return [
        replace(e, as_marker=as_marker, on_edge=on_edge)
        if isinstance(e, HiddenDeploymentEnded)
        else e
        for e in reveal(state, secret, rule)
    ]


def _next_marker_number(state: MatchState, seat: str) -> int:
    """Markers are numbered per player in the order they go down: a number
    says nothing of the trooper, its id or its place in the list."""
    return 1 + max((t.marker_number for t in state.troopers_of(seat)), default=0)


def end_marker(state: MatchState, trooper: Trooper, rule: str, cause: str) -> list[Event]:
    """The marker state of a trooper placed by HD-C3 ends (any reveal: a
    declaration a marker cannot keep, Discovered, a hit, contact, RT-5): its
    written position is revealed with its proof, so the opponent learns which
    trooper it was, and the model replaces the marker."""
    if not trooper.marker:
        return []
    secret = hd_secret(state, trooper.id)
    if secret is not None and not trooper.hidden:
        # _placed below does the table side; the cause is said here, where it is known.
        return [
            replace(e, cause=cause) if isinstance(e, MarkerRevealed) else e
            for e in reveal(state, secret, rule)
        ]
    return _marker_ends(state, trooper, rule, cause)


def _marker_ends(state: MatchState, trooper: Trooper, rule: str, cause: str = "") -> list[Event]:
    return [
        MarkerRevealed(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=trooper.seat,
            cause=cause,
            rule=rule,
        ),
        *replacement_events(state, trooper, "marker", rule),
    ]


def _placed(state: MatchState, secret: Secret, rule: str) -> list[Event]:
    """REVEAL_CONSEQUENCES[HD_POSITION]: the trooper is on the table (or, for
    a seal kept closed by HD-C3, its marker state ends)."""
    trooper = state.troopers[secret.payload["trooper_id"]]
    if trooper.hidden:
        holoecho = holoecho_secret(state, trooper.id)
        written = dict(holoecho.payload.get("positions") or {}) if holoecho is not None else {}
        events: list[Event] = [
            HiddenDeploymentEnded(
                trooper_id=trooper.id,
                trooper_name=trooper.name,
                seat=trooper.seat,
                holoecho=holoecho is not None,
                # FAQ (HD + Holoecho): only the three texts, keyed in the fixed
                # element order: nothing about which one is real leaves the seal.
                positions={e: str(written.get(e, "")) for e in HOLOECHO_ELEMENTS}
                if written
                else {},
                rule=rule,
            )
        ]
    elif trooper.marker:
        events = _marker_ends(state, trooper, rule)
    else:
        events = []
    # TM-S1: a reserve deployed hidden kept its seal (sealing.ReserveDeployedHidden);
    # now that the trooper is on the table, it ends too. Never during deployment
    # (HD-4): the reserve is only deployed after the opponent.
    reserve = reserve_of(state, trooper.id)
    if reserve is not None and state.phase != DEPLOYMENT:
        events.extend(reveal(state, reserve, "TM-S1"))
    return events


def _hd_position(state: MatchState, seat: str, raw: dict) -> tuple[dict, str | None, bool]:
    trooper = _own_trooper(state, seat, raw.get("trooper_id"))
    if not trooper.has(HIDDEN_DEPLOYMENT):
        raise InvalidInput(_("%(name)s has no Hidden Deployment."), name=trooper.name)
    payload = {
        "trooper_id": trooper.id,
        **public_name(trooper),
        "position": _clean_text(raw.get("position"), _("The written position")),
        **_map_point(raw),
    }
    # HD intro: the existence of a hidden trooper is itself private.
    return payload, trooper.id, False


register_kind(
    SecretKind(
        kind=HD_POSITION,
        names=POSITION,
        per_seat=ONE_PER_TROOPER,
        seal=_hd_position,
        required_for=lambda trooper: trooper.hidden,
        missing=_("Write the hidden position of %(name)s (HD-1)."),
        missing_rule="HD-1",
        ends=("HD-C1", "HD-C2", "HD-C3", "HD-C4", "HD-4", "HD-5", "HD-6"),
        on_reveal=_placed,
    )
)


@dataclass(frozen=True, kw_only=True)
class MarkerRevealed(Event):
    """The marker state ends; `cause` (a MARKER_CAUSES key) says why. An event
    written before it was kept has none: its rule says it (MARKER_RULE_CAUSES)."""

    trooper_id: str
    trooper_name: str
    seat: str
    cause: str = ""

    def describe(self) -> tuple[str, dict]:
        cause = self.cause or MARKER_RULE_CAUSES.get(self.rule or "", "declaration")
        return MARKER_CAUSES.get(cause, MARKER_CAUSES["declaration"]), self.to_data()


# Why a marker state ends, each with its own line (the rule is the event's).
MARKER_CAUSES = {
    # HD-C3: it keeps its state only through the declarations marker_allowed lists.
    "declaration": _(
        "%(trooper_name)s declares what a marker cannot keep: its model replaces the marker."
    ),
    # MARKER_OUTCOMES, reported by the players.
    "discovered": _(
        "%(trooper_name)s was Discovered: its marker state ends and its model replaces the marker."
    ),
    "saving_roll": _(
        "%(trooper_name)s was hit and must make a Saving Roll: its marker state ends and its "
        "model replaces the marker."
    ),
    "contact": _(
        "%(trooper_name)s is in silhouette contact with an enemy: its marker state ends and its "
        "model replaces the marker."
    ),
    "impetuous": _(
        "%(trooper_name)s is Impetuous: its marker state ends and its model replaces the marker."
    ),
    # RT-5.
    "retreat": _(
        "The army of %(trooper_name)s is in Retreat!: its marker state ends and its model "
        "replaces the marker."
    ),
}
# Events without a cause: the rules that name only one.
MARKER_RULE_CAUSES = {"HD-C1": "discovered", "HD-C4": "impetuous", "RT-5": "retreat"}


@applies(MarkerRevealed)
def _marker_revealed(state: MatchState, event: MarkerRevealed) -> MatchState:
    return state.with_trooper(event.trooper_id, marker=False)


def marker_allowed(state: MatchState, trooper: Trooper, declaration: Declaration) -> bool:
    """HD-C3: when a trooper that deploys as a marker may be placed as one."""
    if not trooper.has(CAMOUFLAGE):
        return False
    skill = declaration.skill
    if skill.name == "cautious_move":
        return True
    if skill.movement and not skill.roll and skill.name != "alert":
        return True  # movement without a roll, mount and dismount included
    if skill.name == "prevent_marker":
        return True
    if skill.name == "delay_aro" and declaration.aro:
        target = state.troopers.get(declaration.target_id)
        return target is not None and (
            target.marker or any(e != "model" for e in target.holoechoes)
        )
    return False


def _declared(state: MatchState, declaration: Declaration) -> list[Event]:
    """HD-C2: any declaration places the trooper first, so the declaration is
    public; HD-C3 as its marker; HD-C4 when it acts in the Impetuous Phase."""
    trooper = state.troopers[declaration.trooper_id]
    if not trooper.hidden:
        if declaration.as_marker:
            raise NotAllowed(
                _("Only a trooper leaving Hidden Deployment can be placed as its marker (HD-C3)."),
                rule="HD-C3",
            )
        if trooper.marker and not marker_allowed(state, trooper, declaration):
            # A marker left by HD-C3 keeps its state only through the same
            # declarations; anything else puts the model on the table.
            return end_marker(state, trooper, "HD-C3", "declaration")
        return []
    if declaration.as_marker and not marker_allowed(state, trooper, declaration):
        raise NotAllowed(
            _(
                "%(name)s can be placed as its marker only with Cautious Movement, a movement "
                "skill without a roll, mounting or dismounting, delaying an ARO against a "
                "marker, or stopping an enemy going back to a marker state (HD-C3)."
            ),
            name=trooper.name,
            rule="HD-C3",
        )
    assert state.turn is not None
    impetuous = not declaration.aro and state.turn.phase == IMPETUOUS_PHASE
    rule = "HD-C4" if impetuous else "HD-C2"
    events = end_hidden_deployment(state, trooper, rule, as_marker=declaration.as_marker)
    if impetuous:
        events += _then_holoecho(state, events, trooper, "HE-C6")
    return events


def _then_holoecho(state: MatchState, events: list, trooper: Trooper, rule: str) -> list[Event]:
    """HD-C4 causes end Holoecho too (HE-C6), once the trooper is placed."""
    after = evolve_all(state, events)
    return end_holoecho(after, after.troopers[trooper.id], rule)


def _outcome(kind: str):
    def hook(state: MatchState, seat: str, trooper: Trooper, element: str) -> list[Event]:
        trooper = state.troopers[trooper.id]
        if kind == "infiltration_failed":
            _check_infiltration(state, trooper)
        if trooper.marker and kind in MARKER_OUTCOMES:
            return end_marker(state, trooper, MARKER_OUTCOMES[kind], kind)
        if not trooper.hidden:
            return []
        if kind not in HD_OUTCOMES:
            raise NotAllowed(
                _(
                    "A trooper in Hidden Deployment is not on the table: it blocks no Line of "
                    "Fire and nothing can hit or touch it (HD-2)."
                ),
                rule="HD-2",
            )
        if hd_secret(state, trooper.id) is None:
            raise NotAllowed(_("Seal your deployment first."))
        rule = HD_OUTCOMES[kind]
        events = end_hidden_deployment(state, trooper, rule, on_edge=rule == "HD-4")
        if rule == "HD-C4":
            events += _then_holoecho(state, events, trooper, "HE-C6")
        return events

    return hook


def _check_infiltration(state: MatchState, trooper: Trooper) -> None:
    """HD-4: the roll follows the written position, before play begins."""
    if not (trooper.hidden and trooper.has(INFILTRATION)):
        raise NotAllowed(
            _(
                "The tracker only needs an Infiltration roll of a trooper in Hidden Deployment "
                "with Infiltration (HD-4)."
            ),
            rule="HD-4",
        )
    turn = state.turn
    opening = (
        turn is not None and turn.round == 1 and turn.seat == state.first_turn
    ) and turn.phase == TACTICAL
    if state.phase != DEPLOYMENT and not opening:
        raise NotAllowed(
            _("The Infiltration roll is made at deployment, once the position is written (HD-4)."),
            rule="HD-4",
        )


for _kind in OUTCOMES:
    OUTCOMES[_kind].append(_outcome(_kind))


# --------------------------------------------------------- Orders (HD-3/6)


def _kept_apart_order(state: MatchState, trooper: Trooper) -> str | None:
    """HD-3: a trooper hidden when its Player Turn began uses its own Order,
    kept apart from the Pool, once placed on the table in that Active Turn."""
    turn = state.turn
    if turn is None or turn.seat != trooper.seat:
        return None
    if trooper.id in turn.extra.get("own_used", ()):
        return None
    if trooper.hidden or trooper.id in turn.extra.get("hd_placed", ()):
        return "own"
    return None


ORDER_SOURCES.append(_kept_apart_order)


# ---------------------------------------------------------- Retreat (HD-C4)


def _retreat(state: MatchState, seat: str) -> list[Event]:
    """HD-C4 / RT-5: an army entering Retreat! places its hidden troopers
    (then their Holoecho ends, HE-C6)."""
    events: list[Event] = []
    after = state
    for trooper in state.troopers_of(seat):
        current = after.troopers[trooper.id]
        if current.out_of_action or ignores_retreat(current):
            continue
        if current.marker and not current.hidden:
            more = end_marker(after, current, "RT-5", "retreat")  # RT-5: marker states end
            events += more
            after = evolve_all(after, more)
            continue
        if not current.hidden:
            continue
        more = end_hidden_deployment(after, current, "HD-C4")
        more += _then_holoecho(after, more, current, "HE-C6")
        events += more
        after = evolve_all(after, more)
    return events


DECLARATION_HOOKS.append(_declared)
RETREAT_ENTERED.append(_retreat)


# ---------------------------------------------------------------- evolve


@applies(HiddenDeploymentEnded)
def _ended(state: MatchState, event: HiddenDeploymentEnded) -> MatchState:
    state = state.with_trooper(
        event.trooper_id,
        hidden=False,
        marker=event.as_marker,
        marker_number=event.marker_number,
        # Placed on the written point (RP-1) unless on a table edge (HD-4).
        replaced="" if event.on_edge else "RP-1",
        replacement_choice="",
    )
    if not event.on_edge:
        # RP-1/RP-3: its player confirms the placement, or that it did not fit.
        state = state.with_choice(PLACEMENT, event.trooper_id, "RP-1")
    # Its Holoecho choice now exists for the opponent too (still sealed), and
    # so does the written position an HD-C3 marker keeps closed (a fingerprint
    # beside the marker; which trooper it names stays sealed).
    for secret in state.secrets.values():
        if secret.trooper_id == event.trooper_id and (
            secret.kind == HOLOECHO or (secret.kind == HD_POSITION and event.as_marker)
        ):
            state = state.with_secret(replace(secret, existence_public=True))
    turn = state.turn
    if turn is not None and turn.seat == event.seat:
        # HD-3: placed in its Active Turn, it may still use its own Order.
        extra = {**turn.extra, "hd_placed": [*turn.extra.get("hd_placed", ()), event.trooper_id]}
        state = state.with_turn(extra=frozen_map(extra))
    return state
