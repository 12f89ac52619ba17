"""The state of a match as the rules see it: frozen, complete, secrets included.

Only `visibility.player_view` turns this into what one viewer may see; nothing
else may hand a MatchState to a template, a socket or an export.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType

SEATS = ("A", "B")


def other_seat(seat: str) -> str:
    return "B" if seat == "A" else "A"


# Traits a trooper may have in the army list (the ones the five rule pages need).
HIDDEN_DEPLOYMENT = "hidden_deployment"
HOLOPROJECTOR = "holoprojector"
CAMOUFLAGE = "camouflage"  # any skill that deploys as a marker (HD-C3)
INFILTRATION = "infiltration"
COURAGE = "courage"
RELIGIOUS = "religious"
VETERAN = "veteran"
FRENZY = "frenzy"
IMPETUOUS = "impetuous"
IRREGULAR = "irregular"
DOCTOR = "doctor"
ENGINEER = "engineer"
CUBE = "cube"
REMOTE_PRESENCE = "remote_presence"
LIEUTENANT_CANDIDATE = "lieutenant_candidate"
# HoloMask (HE-9): its troop type shown to the opponent is a sealed mask.
HOLOMASK = "holomask"

TRAITS = (
    HIDDEN_DEPLOYMENT,
    HOLOPROJECTOR,
    CAMOUFLAGE,
    INFILTRATION,
    COURAGE,
    RELIGIOUS,
    VETERAN,
    FRENZY,
    IMPETUOUS,
    IRREGULAR,
    DOCTOR,
    ENGINEER,
    CUBE,
    REMOTE_PRESENCE,
    LIEUTENANT_CANDIDATE,
    HOLOMASK,
)

# Conditions are exclusive; tokens stack on top of a condition.
NORMAL = "normal"
UNCONSCIOUS = "unconscious"
DEAD = "dead"
SEPSITORIZED = "sepsitorized"
CONDITIONS = (NORMAL, UNCONSCIOUS, DEAD, SEPSITORIZED)
OUT_OF_ACTION = frozenset({UNCONSCIOUS, DEAD, SEPSITORIZED})

PRONE = "prone"
IMMOBILIZED_A = "immobilized_a"
IMMOBILIZED_B = "immobilized_b"
ISOLATED = "isolated"
POSSESSED = "possessed"
STUNNED = "stunned"
ENGAGED = "engaged"
UNLOADED = "unloaded"
TOKENS = (PRONE, IMMOBILIZED_A, IMMOBILIZED_B, ISOLATED, POSSESSED, STUNNED, ENGAGED, UNLOADED)

# Secret kinds.
LIEUTENANT = "lieutenant"
HD_POSITION = "hd_position"
HOLOECHO = "holoecho"
RESERVE = "reserve"
NOTE = "note"
# The true troop type under HoloMask (HE-9, RT-5).
HOLOMASK_TYPE = "holomask_type"
# Each kind is registered by its module (sealing.register_kind, #20).

# The three Holoechoes of a Holoprojector bearer (HE intro).
HOLOECHO_ELEMENTS = ("model", "marker1", "marker2")

# Match phases and the phases of a Player Turn.
SETUP = "setup"
DEPLOYMENT = "deployment"
PLAYING = "playing"
FINISHED = "finished"

TACTICAL = "tactical"
IMPETUOUS_PHASE = "impetuous"
ORDERS = "orders"
STATES = "states"
TURN_PHASES = (TACTICAL, IMPETUOUS_PHASE, ORDERS, STATES)

COMMAND_TOKENS_PER_GAME = 4


# Per dataclass: its field names if `replace` may copy its instances without
# running __init__, else None (dataclasses.replace is then used).
_COPYABLE: dict[type, frozenset[str] | None] = {}


def _copyable_fields(cls: type) -> frozenset[str] | None:
    """The field names of `cls` when a copy of an instance's __dict__ is
    exactly what dataclasses.replace would build: a plain (not slotted)
    dataclass whose every attribute is an __init__ field set as given, with
    no __post_init__ to run and no InitVar to pass again."""
    if cls not in _COPYABLE:
        # The class's own: a subclass that is no dataclass of its own may
        # have an __init__ of its own (and slots may come from a base).
        declared = cls.__dict__.get("__dataclass_fields__")
        init = cls.__dict__.get("__init__")
        plain = (
            declared is not None
            and not any("__slots__" in c.__dict__ for c in cls.__mro__[:-1])
            and not hasattr(cls, "__post_init__")
            # fields() leaves out InitVars and ClassVars: none may be declared.
            and len(fields(cls)) == len(declared)
            and all(f.init for f in declared.values())
            # The __init__ @dataclass wrote (a hand-written one it keeps may
            # check or work out values): its functions are compiled from text.
            and getattr(getattr(init, "__code__", None), "co_filename", "") == "<string>"
        )
        _COPYABLE[cls] = frozenset(declared) if plain else None
    return _COPYABLE[cls]


def replace(obj, /, **changes):
    """dataclasses.replace, several times faster for the frozen records of
    the rules (issue 18): every state step copies the big MatchState, and
    the forms' offers take thousands of steps per view (declaration_offers.py
    asks the handlers, which evolve). The rules' dataclasses keep only their
    fields in __dict__ and run nothing in __init__, so copying the __dict__
    builds the same object __init__ would; anything else (a __post_init__, an
    InitVar, slots) goes through dataclasses.replace. An unknown field is
    refused alike (TypeError)."""
    cls = type(obj)
    names = _COPYABLE[cls] if cls in _COPYABLE else _copyable_fields(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)
    source = obj.__dict__
    # Anything in __dict__ but the fields (a cached_property's value, set
    # on a first read) is not copied: __init__ would not have set it.
    if len(source) != len(names):
        return dataclasses.replace(obj, **changes)
    if not names.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - names))
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
    copy = object.__new__(cls)
    attributes = copy.__dict__
    attributes.update(source)
    attributes.update(changes)
    return copy


def frozen_map(value: Mapping | None = None) -> Mapping:
    return MappingProxyType(dict(value or {}))


# The last troopers map sorted and its seats' troopers in list order. A map
# is frozen_map's (a proxy of a dict no one else holds), so the same map has
# the same troopers; it is held here, so its id is never another's. One
# tuple, swapped whole: a thread sees an old entry or a new one, never half.
_sorted_of: tuple = (None, {})


def _sorted_troopers(troopers: Mapping, seat: str) -> tuple:
    global _sorted_of
    held, by_seat = _sorted_of
    if held is not troopers:
        by_seat = {}
        _sorted_of = (troopers, by_seat)
    found = by_seat.get(seat)
    if found is None:
        found = by_seat[seat] = tuple(
            sorted((t for t in troopers.values() if t.seat == seat), key=lambda t: t.position)
        )
    return found


@dataclass(frozen=True)
class Trooper:
    id: str
    seat: str
    name: str
    cost: int
    combat_group: int
    silhouette: int = 2
    position: int = 0
    traits: frozenset[str] = frozenset()
    condition: str = NORMAL
    tokens: frozenset[str] = frozenset()
    # Hidden Deployment in force (HD-1); once False it never returns (HD-7).
    hidden: bool = False
    # On the table as a marker (Camouflage and the like) rather than a model.
    marker: bool = False
    # Its public number while it is a marker ("Camouflage marker 1"): the
    # opponent knows the marker by it, never by the trooper (markers.py).
    marker_number: int = 0
    # Holoechoes still on the table while Holoecho is active, else empty.
    holoechoes: tuple[str, ...] = ()
    # Ignores Retreat! for the rest of the game (RT-X1, TM-T4).
    ignores_retreat: bool = False
    # Left the table by its deployment edge during Retreat! (RT-6).
    evacuated: bool = False
    # Irregular Order turned Regular for this Player Turn (TM-T3).
    regular_this_turn: bool = False
    # A reserved trooper (TM-S1) not yet deployed.
    reserved: bool = False
    # Its Fireteam, if any; Holoecho takes it out (HE-10).
    fireteam: str = ""
    # HoloMask: the element a Holoecho token was placed beside (HE-9).
    holoecho_token: str = ""
    # The last mandatory replacement of this trooper, "RP-1" or "RP-2", and the
    # placement chosen under RP-2 ("centre" or "edge").
    replaced: str = ""
    replacement_choice: str = ""
    # Immobilized-A for want of room (RP-3): ends only when the room changes.
    no_room: bool = False
    # Became Impetuous in play (Frenzy and the like, reported by the table):
    # from then on it has an Impetuous Order, like a trooper with the trait.
    impetuous: bool = False

    def has(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def out_of_action(self) -> bool:
        return self.condition in OUT_OF_ACTION

    @property
    def has_impetuous_order(self) -> bool:
        """Acts in the Impetuous Phase on its own Impetuous Order."""
        return self.has(IMPETUOUS) or self.impetuous

    @property
    def in_holoecho(self) -> bool:
        return bool(self.holoechoes)


@dataclass(frozen=True)
class Secret:
    id: str
    seat: str
    kind: str
    payload: Mapping
    nonce: str
    commitment: str
    sealed_seq: int
    trooper_id: str | None = None
    # False where the secret's very existence is private (Hidden Deployment).
    existence_public: bool = True
    revealed_seq: int | None = None
    revealed_rule: str | None = None

    @property
    def revealed(self) -> bool:
        return self.revealed_seq is not None


@dataclass(frozen=True)
class SeatState:
    seat: str
    name: str = ""
    claimed: bool = False
    list_locked: bool = False
    deployment_sealed: bool = False
    command_tokens: int = COMMAND_TOKENS_PER_GAME
    strategic_used: bool = False
    retreat: bool = False
    loss_of_lieutenant: bool = False
    # Extra state owned by rule modules (TM, RT...), JSON-like values only.
    extra: Mapping = field(default_factory=frozen_map)


@dataclass(frozen=True)
class Order:
    """The Order being executed in the active Player Turn."""

    trooper_id: str
    seat: str
    skills: tuple[str, ...] = ()
    # Reveals that fire at the end of the Order (HE-T), as (secret_id, rule).
    pending: tuple[tuple[str, str], ...] = ()
    extra: Mapping = field(default_factory=frozen_map)


@dataclass(frozen=True)
class Turn:
    round: int
    seat: str
    phase: str = TACTICAL
    tokens_spent: int = 0
    order: Order | None = None
    extra: Mapping = field(default_factory=frozen_map)


# Choices the rules leave open to one player (choices are kept in the state
# until made, never read back from the log).
PLACEMENT = "placement"  # RP-1/RP-2 how the model was placed, or RP-3 no room
ACTIVATE_ROLL = "activate_roll"  # HE-1/HE-C1 does a Holoecho's Activate need a roll?
CHOICE_KINDS = (PLACEMENT, ACTIVATE_ROLL)


@dataclass(frozen=True)
class Choice:
    """A choice the rules leave to `seat`, about one of its troopers, open
    since event `since`; `rule` is the section that leaves it open."""

    kind: str
    seat: str
    trooper_id: str
    rule: str
    since: int

    @property
    def key(self) -> str:
        return choice_key(self.kind, self.trooper_id)


def choice_key(kind: str, trooper_id: str) -> str:
    return f"{kind}:{trooper_id}"


@dataclass(frozen=True)
class UndoStep:
    """A public step that a correction may take back (see conditions.py)."""

    seq: int
    seat: str
    trooper_id: str
    condition: str
    tokens: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class MatchSettings:
    """A match's settings as one value (#20): built from the one form field set
    (tracker/forms.MatchSettingsForm, the home page's and the organizer's
    pairings), carried whole by the creation event (setup.MatchCreated) into
    the state and each viewer's PlayerView, read by the templates and exports
    as `view.settings`. A new setting is a field here (with a default, so
    older logs replay), one in that form, and what a template shows of it:
    tests/web/test_match_settings.py walks these fields through all of it."""

    points_limit: int = 300
    rounds: int = 3
    mission: str = ""
    table: str = ""
    # Classified Objectives (CL-1): classified.clean_config's settings, or None.
    # Logged by its own public event (ClassifiedConfigured), not MatchCreated.
    classified: Mapping | None = None

    @classmethod
    def from_data(cls, data: Mapping, **instead) -> MatchSettings:
        """The settings named in `data` (a form's cleaned data, an event's
        data), the defaults for the rest; `instead` overrides."""
        given = {**data, **instead}
        return cls(**{f.name: given[f.name] for f in fields(cls) if given.get(f.name) is not None})


@dataclass(frozen=True)
class MatchState:
    seq: int = 0
    name: str = ""
    settings: MatchSettings = field(default_factory=MatchSettings)
    phase: str = SETUP
    first_turn: str | None = None
    deploys_first: str | None = None
    seats: Mapping[str, SeatState] = field(
        default_factory=lambda: frozen_map({s: SeatState(seat=s) for s in SEATS})
    )
    troopers: Mapping[str, Trooper] = field(default_factory=frozen_map)
    secrets: Mapping[str, Secret] = field(default_factory=frozen_map)
    turn: Turn | None = None
    undo: tuple[UndoStep, ...] = ()
    winner_note: str = ""
    # Open choices by key (Choice.key): shown to their owner until made.
    choices: Mapping[str, Choice] = field(default_factory=frozen_map)

    # Small helpers so rule modules read alike.
    def seat(self, seat: str) -> SeatState:
        return self.seats[seat]

    def troopers_of(self, seat: str) -> list[Trooper]:
        """In army-list order. Sorted once per troopers map: the forms'
        offers ask it of the many states their checks step through, which
        share one map (_sorted_troopers)."""
        return list(_sorted_troopers(self.troopers, seat))

    def secrets_of(self, seat: str) -> list[Secret]:
        return [s for s in self.secrets.values() if s.seat == seat]

    def secret_for(self, trooper_id: str, kind: str) -> Secret | None:
        for secret in self.secrets.values():
            if secret.trooper_id == trooper_id and secret.kind == kind and not secret.revealed:
                return secret
        return None

    @property
    def active_seat(self) -> str | None:
        return self.turn.seat if self.turn else None

    @property
    def reactive_seat(self) -> str | None:
        return other_seat(self.turn.seat) if self.turn else None

    # Copy-on-write updates.
    def with_seat(self, seat: str, **changes) -> MatchState:
        seats = dict(self.seats)
        seats[seat] = replace(seats[seat], **changes)
        return replace(self, seats=frozen_map(seats))

    def with_trooper(self, trooper_id: str, **changes) -> MatchState:
        troopers = dict(self.troopers)
        troopers[trooper_id] = replace(troopers[trooper_id], **changes)
        return replace(self, troopers=frozen_map(troopers))

    def with_troopers(self, troopers: Mapping[str, Trooper]) -> MatchState:
        return replace(self, troopers=frozen_map(troopers))

    def with_secret(self, secret: Secret) -> MatchState:
        secrets = dict(self.secrets)
        secrets[secret.id] = secret
        return replace(self, secrets=frozen_map(secrets))

    def choice(self, kind: str, trooper_id: str) -> Choice | None:
        return self.choices.get(choice_key(kind, trooper_id))

    def with_choice(self, kind: str, trooper_id: str, rule: str) -> MatchState:
        """Open (or re-open, on a new cause) a choice for the trooper's owner."""
        choice = Choice(kind, self.troopers[trooper_id].seat, trooper_id, rule, self.seq)
        choices = dict(self.choices)
        choices[choice.key] = choice
        return replace(self, choices=frozen_map(choices))

    def without_choice(self, kind: str, trooper_id: str) -> MatchState:
        choices = dict(self.choices)
        if choices.pop(choice_key(kind, trooper_id), None) is None:
            return self
        return replace(self, choices=frozen_map(choices))

    def with_turn(self, **changes) -> MatchState:
        assert self.turn is not None
        return replace(self, turn=replace(self.turn, **changes))
