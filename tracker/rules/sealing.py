"""Sealing secrets and revealing them (DESIGN.md, Commitments).

A seal is final: nothing edits a sealed secret. The seal event is private to
its owner; the opponent learns what `visibility` derives from the state (a
fingerprint where the secret's existence is public, nothing where it is not).
A reveal is public and carries payload and nonce so both phones can recompute
the commitment. Rule modules register what a reveal does to the table
(`REVEAL_CONSEQUENCES`) and which kinds the owner may reveal by hand.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .command_tokens import spend_token
from .commands import Command, handles
from .commitments import commit
from .errors import InvalidInput, NotAllowed, UnknownElement
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .state import (
    DEPLOYMENT,
    FINISHED,
    HOLOMASK,
    LIEUTENANT,
    LIEUTENANT_CANDIDATE,
    NOTE,
    PLAYING,
    RESERVE,
    SEATS,
    MatchState,
    Secret,
    Trooper,
    frozen_map,
    replace,
)
from .turns import MATCH_ENDING, start_first_turn

MAX_TEXT = 500
TABLE_MM = 1200  # default table 120 x 120 cm; map taps are stored in whole mm

# What a secret kind's seal names (SecretKind.names): which trooper it is (the
# choice itself is the secret: a Lieutenant, a reserve, a Data Tracker), a
# card, a place on the table, or the owner's own text.
TROOPER, CARD, POSITION, TEXT = "trooper", "card", "position", "text"
# How many a seat seals (SecretKind.per_seat).
ONE_PER_SEAT, ONE_PER_TROOPER, ANY_NUMBER = "one per seat", "one per trooper", "any number"
# SecretKind.ends: the rule of the tracker that ends it; "owner": its owner
# may reveal it by hand; "end": it is revealed when the match ends.
OWNER, AT_END = "owner", "end"

Sealer = Callable[[MatchState, str, dict], tuple[dict, "str | None", bool]]


@dataclass(frozen=True, kw_only=True)
class SecretKind:
    """One kind of secret, registered by the rule module that owns it (#20).

    Sealing, the end of the match, the views, the audit, the exports and the
    leak harness (tests/web/leaks.py) read this, so a new kind is one module:
    docs/extending.md, "Adding a rule or a secret kind"."""

    kind: str
    names: str  # TROOPER, CARD, POSITION or TEXT
    per_seat: str  # ONE_PER_SEAT, ONE_PER_TROOPER or ANY_NUMBER
    # With the deployment (SealDeployment): fn(state, seat, raw) -> (payload,
    # the trooper id the secret is about or None, whether its existence is
    # public). None: sealed by a command of its own module (notes, cards).
    seal: Sealer | None = None
    # A seat must seal exactly one (ONE_PER_SEAT), or one for each of its
    # troopers `required_for` picks, or the deployment is refused with `missing`.
    required: bool = False
    required_for: Callable[[Trooper], bool] | None = None
    missing: str = ""  # a gettext message with %(name)s, and rule ids in it
    missing_rule: str = ""
    # Who or what ends it: rule ids, OWNER, AT_END (informative but for
    # OWNER and AT_END, which the tracker acts on).
    ends: tuple[str, ...] = ()
    # fn(state, secret, rule): the events its reveal causes on the table.
    on_reveal: Callable[[MatchState, Secret, str], list[Event]] | None = None
    # Its trooper may be named beside it while sealed (a Holoecho's markers
    # are on the table); for every other kind that link is the secret.
    trooper_public: bool = False
    # The seal form's choice of one trooper, for a TROOPER kind sealed
    # ONE_PER_SEAT with the deployment (seal.html renders one select per
    # such kind, forms.py reads it back by the kind's name): its label, the
    # viewer's troopers it offers (fn(view) -> troopers; default: all), and
    # whether the form offers it at all (fn(view) -> bool; default: yes).
    label: str = ""
    options: Callable[[Any], list] | None = None
    offered: Callable[[Any], bool] | None = None

    @property
    def trooper_choice(self) -> bool:
        return self.seal is not None and self.names == TROOPER and self.per_seat == ONE_PER_SEAT


SECRET_KINDS: dict[str, SecretKind] = {}
# Kinds the owner may reveal by hand (kept in step with SECRET_KINDS by
# register_kind); the rest are revealed only by a rule: a Hidden Deployment
# position or a real Holoecho ends when the tracker applies a cancellation
# (HD-C1..C4, HE-C1..C7), never because its owner chose to.
OWNER_REVEALABLE: set[str] = set()


def register_kind(kind: SecretKind) -> SecretKind:
    """Called once by the module that owns the kind, when it is imported
    (tracker/rules/__init__.py imports every module of the package)."""
    if kind.kind in SECRET_KINDS:
        raise ValueError(f"secret kind {kind.kind!r} is registered twice")
    if kind.names not in (TROOPER, CARD, POSITION, TEXT):
        raise ValueError(f"secret kind {kind.kind!r}: names {kind.names!r}")
    if kind.per_seat not in (ONE_PER_SEAT, ONE_PER_TROOPER, ANY_NUMBER):
        raise ValueError(f"secret kind {kind.kind!r}: per_seat {kind.per_seat!r}")
    if (kind.required or kind.required_for) and not kind.missing:
        raise ValueError(f"secret kind {kind.kind!r}: required without a message")
    SECRET_KINDS[kind.kind] = kind
    if OWNER in kind.ends:
        OWNER_REVEALABLE.add(kind.kind)
    return kind


def unregister_kind(name: str) -> None:
    """For tests that register a kind of their own (tests/web/test_leak_harness.py)."""
    SECRET_KINDS.pop(name, None)
    OWNER_REVEALABLE.discard(name)


def trooper_choices(view) -> list[tuple[SecretKind, list]]:
    """For the viewer's deployment form (a PlayerView): each trooper-choice
    kind it offers, with the troopers to choose from."""
    if view.me is None:
        return []
    return [
        (kind, list(kind.options(view) if kind.options else view.me.troopers))
        for kind in SECRET_KINDS.values()
        if kind.trooper_choice and (kind.offered is None or kind.offered(view))
    ]


def kind_of(secret: Secret) -> SecretKind:
    return SECRET_KINDS[secret.kind]


def link_is_secret(secret: Secret) -> bool:
    """Whether the trooper this secret is about may be named only to its
    owner until it is revealed: every kind's but one registered trooper_public."""
    return not kind_of(secret).trooper_public


def subject_of(secret: Secret) -> str | None:
    """The trooper a secret is about (its own field, or its payload's)."""
    return secret.trooper_id or secret.payload.get("trooper_id") or None


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class SecretsSealed(Event):
    """Private to the owner: each secret with its payload and nonce."""

    seat: str
    secrets: list
    completes_deployment: bool = False


@dataclass(frozen=True, kw_only=True)
class DeploymentSealed(Event):
    """Public: the seat has sealed its deployment (says nothing of what)."""

    seat: str
    describe_as = _("%(seat_name)s sealed their deployment.")


@dataclass(frozen=True, kw_only=True)
class ReserveDeployedHidden(Event):
    """Private to the owner: the reserved trooper (TM-S1) was deployed in
    Hidden Deployment. Revealing the reserve now would name a trooper still
    hidden (HD intro), so its seal stays closed until its Hidden Deployment
    ends; this one event stands where the reveal would be, so the numbering
    the opponent sees is the same either way."""

    seat: str
    trooper_id: str


@dataclass(frozen=True, kw_only=True)
class SecretRevealed(Event):
    secret_id: str
    seat: str
    secret_kind: str
    payload: dict
    nonce: str
    commitment: str
    describe_as = _("%(seat_name)s's %(secret_kind)s was revealed (%(rule)s).")


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class SealDeployment(Command):
    """Every deployment secret of one seat at once: the Lieutenant, each Hidden
    Deployment position, each real Holoecho, and optionally a reserve (TM-S1).
    One command, one private event: the opponent cannot count them."""

    secrets: list


@dataclass(frozen=True, kw_only=True)
class SealNote(Command):
    """A classified objective, data tracker or any note, sealed the same way."""

    secret_id: str
    label: str
    text: str
    nonce: str


@dataclass(frozen=True, kw_only=True)
class RevealSecret(Command):
    secret_id: str


def _clean_text(value: object, what: str, required: bool = True) -> str:
    # A browser sends a box's line breaks as CR LF but counts each as one
    # character against its maxlength (MAX_TEXT): counted, and kept, as the
    # box shows them.
    text = str(value or "").replace("\r\n", "\n").strip()
    if required and not text:
        raise InvalidInput(_("%(what)s cannot be empty."), what=what)
    if len(text) > MAX_TEXT:
        raise InvalidInput(
            _("%(what)s is too long (at most %(max)s characters)."), what=what, max=MAX_TEXT
        )
    return text


def _clean_nonce(value: object) -> str:
    nonce = str(value or "")
    if len(nonce) < 32 or len(nonce) > 128 or any(c not in string.hexdigits for c in nonce):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return nonce.lower()


def _clean_id(value: object) -> str:
    secret_id = str(value or "")
    if not (4 <= len(secret_id) <= 32 and secret_id.isalnum()):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return secret_id


def _map_point(payload: dict) -> dict:
    point = {}
    for axis in ("x", "y"):
        value = payload.get(axis)
        if value in (None, ""):
            return {}
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise InvalidInput(_("The map position is not on the table.")) from None
        if not 0 <= number <= TABLE_MM:
            raise InvalidInput(_("The map position is not on the table."))
        point[axis] = number
    return point


def public_name(trooper: Trooper) -> dict:
    """The name a rule-revealed payload may carry: none for a HoloMask
    trooper, whose true type has its own seal (holomask.py); the phones name
    it from the trooper id through their own view."""
    return {} if trooper.has(HOLOMASK) else {"name": trooper.name}


def _own_trooper(state: MatchState, seat: str, trooper_id: object) -> Trooper:
    trooper = state.troopers.get(str(trooper_id or ""))
    if trooper is None or trooper.seat != seat:
        raise UnknownElement(_("Choose one of your troopers."))
    return trooper


def _lieutenant(state: MatchState, seat: str, raw: dict) -> tuple[dict, str | None, bool]:
    trooper = _own_trooper(state, seat, raw.get("trooper_id"))
    candidates = [t for t in state.troopers_of(seat) if t.has(LIEUTENANT_CANDIDATE)]
    if candidates and trooper not in candidates:
        raise InvalidInput(_("%(name)s cannot be your Lieutenant."), name=trooper.name)
    # The Lieutenant's identity is the secret: no trooper id outside the payload.
    return {"trooper_id": trooper.id, **public_name(trooper)}, None, True


def _reserve(state: MatchState, seat: str, raw: dict) -> tuple[dict, str | None, bool]:
    # TM-S1: only the player with the first Player Turn reserves an extra trooper.
    if state.first_turn != seat:
        raise NotAllowed(
            _("Only the player with the first Player Turn may reserve an extra trooper (TM-S1)."),
            rule="TM-S1",
        )
    trooper = _own_trooper(state, seat, raw.get("trooper_id"))
    return {"trooper_id": trooper.id, **public_name(trooper)}, None, True


register_kind(
    SecretKind(
        kind=LIEUTENANT,
        names=TROOPER,
        per_seat=ONE_PER_SEAT,
        seal=_lieutenant,
        required=True,
        missing=_("Choose your Lieutenant."),
        ends=(OWNER,),
        label=_("Lieutenant"),
        options=lambda view: (
            [t for t in view.me.troopers if LIEUTENANT_CANDIDATE in t.traits]
            or list(view.me.troopers)
        ),
    )
)
register_kind(
    SecretKind(
        kind=RESERVE,
        names=TROOPER,
        per_seat=ONE_PER_SEAT,
        seal=_reserve,
        # On the table when deployment ends, or when its Hidden Deployment does.
        ends=("TM-S1", OWNER),
        label=_("Reserve an extra trooper (TM-S1, spends 1 Command Token)"),
        offered=lambda view: view.first_turn == view.viewer and view.me.command_tokens > 0,
    )
)
register_kind(SecretKind(kind=NOTE, names=TEXT, per_seat=ANY_NUMBER, ends=(OWNER,)))


def _sealed(raw: dict, kind: str, payload: dict, trooper_id: str | None, public: bool) -> dict:
    if kind not in SECRET_KINDS:
        # A programming error, not the player's: its module never registered it.
        raise LookupError(f"secret kind {kind!r} is not registered (sealing.register_kind)")
    nonce = _clean_nonce(raw.get("nonce"))
    return {
        "id": _clean_id(raw.get("id")),
        "kind": kind,
        "payload": payload,
        "nonce": nonce,
        "commitment": commit(nonce, payload),
        "trooper_id": trooper_id,
        "existence_public": public,
    }


@handles(SealDeployment)
def seal_deployment(state: MatchState, seat: str, command: SealDeployment) -> list[Event]:
    if state.phase != DEPLOYMENT:
        raise NotAllowed(_("Deployment secrets are sealed in the Deployment Phase."))
    if state.seat(seat).deployment_sealed:
        raise NotAllowed(_("Your deployment is already sealed; a seal is final."))
    if not isinstance(command.secrets, list):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    sealed, seen = [], set()
    for raw in command.secrets:
        kind = SECRET_KINDS.get(raw.get("kind")) if isinstance(raw, dict) else None
        if kind is None or kind.seal is None:
            raise InvalidInput(_("The seal is malformed; reload the page."))
        payload, trooper_id, public = kind.seal(state, seat, raw)
        about = trooper_id or payload.get("trooper_id")
        once = kind.kind if kind.per_seat == ONE_PER_SEAT else None
        if (kind.kind, about) in seen or once in seen:
            raise InvalidInput(_("Each secret can be sealed only once."))
        seen |= {(kind.kind, about), *([once] if once else [])}
        sealed.append(_sealed(raw, kind.kind, payload, trooper_id, public))
    kinds = [s["kind"] for s in sealed]
    deployment_kinds = [k for k in SECRET_KINDS.values() if k.seal is not None]
    for kind in deployment_kinds:
        if kind.required and kinds.count(kind.kind) != 1:
            raise InvalidInput(kind.missing)
    for trooper in state.troopers_of(seat):
        for kind in deployment_kinds:
            needed = kind.required_for is not None and kind.required_for(trooper)
            if needed and (kind.kind, trooper.id) not in seen:
                raise InvalidInput(kind.missing, name=trooper.name, rule=kind.missing_rule)
    ids = {s["id"] for s in sealed}
    if len(ids) != len(sealed) or ids & set(state.secrets):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    events: list[Event] = [
        SecretsSealed(seat=seat, secrets=sealed, completes_deployment=True, private_to=seat),
        DeploymentSealed(seat=seat),
    ]
    if RESERVE in kinds:
        events.append(spend_token(state, seat, "TM-S1"))
    after = evolve_all(state, events)
    if all(after.seat(s).deployment_sealed for s in SEATS):
        # Deployment is over: a reserved trooper (TM-S1) is now on the table,
        # so its seal ends, and Game Round 1 begins. One deployed in Hidden
        # Deployment is not on the table: its seal ends with its HD (below).
        for secret in list(after.secrets.values()):
            if secret.kind == RESERVE and not secret.revealed:
                reserved = after.troopers[secret.payload["trooper_id"]]
                if reserved.hidden:
                    more = [
                        ReserveDeployedHidden(
                            seat=secret.seat, trooper_id=reserved.id, private_to=secret.seat
                        )
                    ]
                else:
                    more = reveal(after, secret, "TM-S1")
                events.extend(more)
                after = evolve_all(after, more)
        events.extend(start_first_turn(after))
    return events


@handles(SealNote)
def seal_note(state: MatchState, seat: str, command: SealNote) -> list[Event]:
    if state.phase not in (DEPLOYMENT, PLAYING):
        raise NotAllowed(_("Notes are sealed during deployment or play."))
    payload = {
        "label": _clean_text(command.label, _("The label"))[:60],
        "text": _clean_text(command.text, _("The note")),
    }
    raw = {"id": command.secret_id, "nonce": command.nonce}
    if _clean_id(command.secret_id) in state.secrets:
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return [
        SecretsSealed(seat=seat, secrets=[_sealed(raw, NOTE, payload, None, True)], private_to=seat)
    ]


def reveal(state: MatchState, secret: Secret, rule: str) -> list[Event]:
    """The events that end `secret` under `rule`: the public reveal first, then
    what the reveal does to the table. Every rule that ends a secret calls this."""
    events: list[Event] = [
        SecretRevealed(
            secret_id=secret.id,
            seat=secret.seat,
            secret_kind=secret.kind,
            payload=dict(secret.payload),
            nonce=secret.nonce,
            commitment=secret.commitment,
            rule=rule,
        )
    ]
    consequence = kind_of(secret).on_reveal
    if consequence is not None:
        events.extend(consequence(state, secret, rule))
    return events


@handles(RevealSecret)
def reveal_secret(state: MatchState, seat: str, command: RevealSecret) -> list[Event]:
    secret = state.secrets.get(str(command.secret_id))
    if secret is None or secret.seat != seat:
        raise UnknownElement(_("There is no such secret."))
    if secret.revealed:
        raise NotAllowed(_("This secret has already been revealed."))
    if state.phase == FINISHED:
        raise NotAllowed(_("The match is over."))
    if OWNER not in kind_of(secret).ends:
        raise NotAllowed(_("Only the rules can reveal this secret."))
    return reveal(state, secret, "owner")


# ---------------------------------------------------------------- evolve


@applies(SecretsSealed)
def _sealed_applied(state: MatchState, event: SecretsSealed) -> MatchState:
    for raw in event.secrets:
        state = state.with_secret(
            Secret(
                id=raw["id"],
                seat=event.seat,
                kind=raw["kind"],
                payload=frozen_map(raw["payload"]),
                nonce=raw["nonce"],
                commitment=raw["commitment"],
                sealed_seq=state.seq,
                trooper_id=raw["trooper_id"],
                existence_public=raw["existence_public"],
            )
        )
        if raw["kind"] == RESERVE:
            state = state.with_trooper(raw["payload"]["trooper_id"], reserved=True)
    return state


@applies(DeploymentSealed)
def _deployment_sealed(state: MatchState, event: DeploymentSealed) -> MatchState:
    return state.with_seat(event.seat, deployment_sealed=True)


def reserve_of(state: MatchState, trooper_id: str) -> Secret | None:
    """The still-sealed TM-S1 reserve naming `trooper_id`, if any."""
    for secret in state.secrets.values():
        if (
            secret.kind == RESERVE
            and not secret.revealed
            and secret.payload.get("trooper_id") == trooper_id
        ):
            return secret
    return None


@applies(ReserveDeployedHidden)
def _reserve_deployed_hidden(state: MatchState, event: ReserveDeployedHidden) -> MatchState:
    return state.with_trooper(event.trooper_id, reserved=False)


@applies(SecretRevealed)
def _revealed(state: MatchState, event: SecretRevealed) -> MatchState:
    secret = state.secrets[event.secret_id]
    state = state.with_secret(replace(secret, revealed_seq=state.seq, revealed_rule=event.rule))
    if secret.kind == RESERVE:
        state = state.with_trooper(secret.payload["trooper_id"], reserved=False)
    return state


def _revealed_at_end(state: MatchState, reason: str) -> list[Event]:
    """MATCH_ENDING: every secret of a kind registered to end with the match
    (AT_END in its `ends`) and still sealed is revealed, with its proof."""
    events: list[Event] = []
    after = state
    for secret in state.secrets.values():
        if not secret.revealed and AT_END in kind_of(secret).ends:
            more = reveal(after, secret, AT_END)
            events += more
            after = evolve_all(after, more)
    return events


MATCH_ENDING.append(_revealed_at_end)
