"""player_view(state, viewer): the only place secrets are stripped.

`viewer` is "A", "B" or None (a spectator, or anyone who is not a player).
Everything a device receives is built from a PlayerView (pages, partials,
websocket frames, player exports); the raw MatchState goes only to the
organizers' audit. The opponent's view is built from the public parts alone,
so it cannot differ in any count, id or ordering when a hidden trooper exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from .command_tokens import CANCELLED, ORDERS_COUNTED, TOKEN_LIMIT, open_uses, s2_deciding
from .commitments import canonical_json, fingerprint, verify
from .declaration_offers import Offer, ReportOffer
from .events import Event
from .holoecho import holoecho_candidates
from .identity import LOG_NAME_ONLY, Alias, alias_for, aliases, rename
from .kept_offers import declaration_offers
from .orders import impetuous_troopers
from .process_caches import emptied_by
from .queries import order_pool, orders_left, secret_visible, surviving_points, trooper_visible
from .replacement import placement_moot
from .results import organizer_views, result_of
from .retreat import battle_over, carries_retreat_marker
from .sealing import OWNER, link_is_secret, subject_of
from .state import (
    HOLOMASK,
    IRREGULAR,
    PLACEMENT,
    SEATS,
    MatchSettings,
    MatchState,
    SeatState,
    Secret,
    Trooper,
)
from .token_offers import TokenOffers, token_offers


@dataclass(frozen=True)
class TrooperView:
    id: str
    seat: str
    name: str
    cost: int
    combat_group: int
    silhouette: int
    traits: tuple[str, ...]
    condition: str
    tokens: tuple[str, ...]
    marker: bool
    holoechoes: tuple[str, ...]
    ignores_retreat: bool
    evacuated: bool
    regular_order: bool
    # Owner-only facts; always False in anyone else's view.
    hidden: bool = False
    reserved: bool = False
    # Carries a Retreat! marker (RT-2); only troopers the viewer sees.
    retreat_marker: bool = False
    # Public table facts (HE-9, RP-1..RP-3): beside which Holoecho the HoloMask
    # token sits, the open mandatory replacement and its RP-2 choice, and an
    # Immobilized-A that only a change of room ends. Never which one is real.
    holoecho_token: str = ""
    replaced: str = ""
    replacement_choice: str = ""
    no_room: bool = False
    # Public while it is a Camouflage marker (identity.py). In the opponent's
    # view `masked` says the line is an alias: a marker ("Camouflage marker
    # N", ref instead of id) or a HoloMask (the masked troop type as name).
    marker_number: int = 0
    masked: bool = False
    # Its public Fireteam, if any (fireteams.py).
    fireteam: str = ""


@dataclass(frozen=True)
class SecretView:
    id: str
    seat: str
    kind: str
    fingerprint: str
    commitment: str
    sealed_seq: int
    mine: bool
    trooper_id: str | None = None
    payload: dict | None = None
    nonce: str | None = None
    revealed_seq: int | None = None
    revealed_rule: str | None = None
    verified: bool | None = None

    @property
    def revealed(self) -> bool:
        return self.revealed_seq is not None

    @property
    def canonical(self) -> str:
        """The exact text the commitment covers, for checking on the phone."""
        return canonical_json(self.payload) if self.payload is not None else ""


@dataclass(frozen=True)
class SeatView:
    seat: str
    name: str
    claimed: bool
    mine: bool
    list_locked: bool
    deployment_sealed: bool
    command_tokens: int
    retreat: bool
    loss_of_lieutenant: bool
    troopers: tuple[TrooperView, ...]
    secrets: tuple[SecretView, ...]
    regular_orders: dict
    irregular_orders: int
    # Owner-only: the list's full cost and the surviving cost (RT-A).
    list_points: int | None = None
    surviving_points: int | None = None
    # Public: the once-per-game Strategic Use of Command Tokens is spent.
    strategic_used: bool = False
    # Classified Objectives (classified.py). Public: drawn or not, how many
    # are held, which seals were exchanged away (CL-4: ClassifiedExchanged
    # names them in the public log), how many accomplished and their points.
    # Owner-only: `classified_hand` (the cards drawn, the held secret ids...).
    classified_drawn: bool = False
    classified_held: int = 0
    classified_discarded: tuple[str, ...] = ()
    classified_accomplished: int = 0
    classified_points: int = 0
    classified_hand: dict | None = None


@dataclass(frozen=True)
class OrderView:
    trooper_id: str
    seat: str
    skills: tuple[str, ...]


@dataclass(frozen=True)
class ChoiceView:
    """A choice the rules leave open to one player (state.Choice). Its owner
    sees it with the forms to make it; anyone else sees only that its owner
    has yet to choose (no trooper id or name)."""

    kind: str
    seat: str
    trooper_id: str
    trooper_name: str
    rule: str
    since: int
    mine: bool


@dataclass(frozen=True)
class PlayerView:
    viewer: str | None
    seq: int
    name: str
    # Public: points, rounds, mission, table, Classified settings (#20).
    settings: MatchSettings
    phase: str
    first_turn: str | None
    deploys_first: str | None
    round: int | None
    active_seat: str | None
    turn_phase: str | None
    order: OrderView | None
    seats: tuple[SeatView, ...]
    can_undo: bool
    # Regular Orders left per Combat Group in the current Player Turn.
    orders_left: dict
    # Public (results.py): the result record, and the seqs at which an
    # organizer opened the sealed information while the match was in play.
    result: dict | None = None
    organizer_views: tuple[int, ...] = ()
    # Public Command Token facts of the current Player Turn (command_tokens.py):
    # tokens the active player spent, the TM-S2 limit and cancelled Orders.
    tokens_spent: int = 0
    token_limit: int | None = None
    cancelled_orders: dict = field(default_factory=dict)
    # Public steps of the Tactical Phase: the Order Count is made; the seat
    # still deciding on TM-S2 at its end (the Tactical Phase waits for it).
    orders_counted: bool = False
    s2_deciding: str | None = None
    # RT-7: the seat whose army in Retreat! has no trooper left, while the
    # match waits for a player to end it (retreat.EndBattle). Public: the
    # Retreat! and the states that empty the table are.
    battle_over: str | None = None
    # The viewer's own: the Command Token uses whose window is open now, and
    # per use the troopers (and targets) the server would accept now.
    token_uses: tuple[str, ...] = ()
    token_offers: TokenOffers | None = None
    # The viewer's own troopers that may start their Impetuous Order now
    # (orders.impetuous_troopers): all the Impetuous Phase offers.
    impetuous_ids: tuple[str, ...] = ()
    # The viewer's own troopers that may be given Holoecho, the phase aside
    # (holoecho.holoecho_candidates).
    holoecho_candidates: tuple[str, ...] = ()
    # Open choices on troopers the viewer sees, oldest first (ChoiceView).
    choices: tuple[ChoiceView, ...] = ()
    # The viewer's own (declaration_offers.py): which trooper may declare
    # which skill now, for the ARO and Order forms and a second Short Skill.
    aro_offers: tuple[Offer, ...] = ()
    order_offers: tuple[Offer, ...] = ()
    second_skill_offers: tuple[str, ...] = ()
    report_offers: tuple[ReportOffer, ...] = ()

    @property
    def my_choices(self) -> tuple[ChoiceView, ...]:
        return tuple(c for c in self.choices if c.mine)

    @property
    def awaited_choices(self) -> tuple[ChoiceView, ...]:
        return tuple(c for c in self.choices if not c.mine)

    def seat(self, seat: str) -> SeatView:
        return next(s for s in self.seats if s.seat == seat)

    @property
    def me(self) -> SeatView | None:
        return self.seat(self.viewer) if self.viewer else None

    @property
    def opponent(self) -> SeatView | None:
        if self.viewer is None:
            return None
        return next(s for s in self.seats if s.seat != self.viewer)

    def trooper(self, trooper_id: str) -> TrooperView | None:
        for seat in self.seats:
            for trooper in seat.troopers:
                if trooper.id == trooper_id:
                    return trooper
        return None


def _table_facts(trooper: Trooper, retreat_marker: bool) -> dict:
    """What anyone at the table sees of a trooper, whoever it is: the same
    for its own row and for one under a marker or a HoloMask (_aliased_view)."""
    return {
        "condition": trooper.condition,
        "tokens": tuple(sorted(trooper.tokens)),
        "marker": trooper.marker,
        "holoechoes": trooper.holoechoes,
        "ignores_retreat": trooper.ignores_retreat,
        "evacuated": trooper.evacuated,
        "regular_order": not trooper.has(IRREGULAR) or trooper.regular_this_turn,
        "retreat_marker": retreat_marker,
        "holoecho_token": trooper.holoecho_token,
        "replaced": trooper.replaced,
        "replacement_choice": trooper.replacement_choice,
        "no_room": trooper.no_room,
    }


# (id of a trooper, viewer, retreat marker, alias) -> (that trooper, its view):
# a trooper no event changed is the same object in the next state, so each
# viewer's view of it is built once, not again at every seq (issue 18: a
# twentieth of an action). The viewer is in the key, so a view built for one
# viewer is never another's; the trooper is held, so its id is never
# another's while its entry lives. Emptied whole when full: about half a KB
# an entry (and the trooper, most often held by a cached state anyway), room
# for a night's tables' troopers as their players and a spectator see them.
_VIEWS_KEPT = 16384
_views: dict[tuple, tuple[Trooper, TrooperView]] = {}


def _trooper_view(
    trooper: Trooper, viewer: str | None, retreat_marker: bool, alias: Alias | None = None
) -> TrooperView:
    key = (id(trooper), viewer, retreat_marker, alias)
    kept = _views.get(key)
    if kept is not None and kept[0] is trooper:
        return kept[1]
    view = _built_view(trooper, viewer, retreat_marker, alias)
    if len(_views) >= _VIEWS_KEPT:
        _views.clear()
    _views[key] = (trooper, view)
    return view


@emptied_by
def forget() -> None:
    """Empty the kept views, as a new process starts (tests/conftest.py)."""
    _views.clear()


def _built_view(
    trooper: Trooper, viewer: str | None, retreat_marker: bool, alias: Alias | None
) -> TrooperView:
    mine = trooper.seat == viewer
    if alias is not None:
        return _aliased_view(trooper, alias, retreat_marker)
    return TrooperView(
        id=trooper.id,
        seat=trooper.seat,
        name=trooper.name,
        cost=trooper.cost,
        combat_group=trooper.combat_group,
        silhouette=trooper.silhouette,
        traits=tuple(sorted(trooper.traits)),
        hidden=trooper.hidden and mine,
        reserved=trooper.reserved and mine,
        **_table_facts(trooper, retreat_marker),
        marker_number=trooper.marker_number if trooper.marker else 0,
        fireteam=trooper.fireteam,
    )


def _aliased_view(trooper: Trooper, alias: Alias, retreat_marker: bool) -> TrooperView:
    """What the opponent knows of a trooper under a marker or a HoloMask: the
    alias, and only table facts that do not tell which trooper it is. A
    marker has no cost, traits, Combat Group or list position; a HoloMask
    shows the points sealed with its mask."""
    marker = alias.marker_number > 0
    return TrooperView(
        id=alias.ref,
        seat=trooper.seat,
        name=alias.name,
        cost=alias.cost,
        combat_group=0 if marker else trooper.combat_group,
        silhouette=0 if marker else trooper.silhouette,
        # A masked line lists what the opponent reads of every trooper, less
        # the HoloMask itself: an empty list would single it out.
        traits=() if marker else tuple(sorted(trooper.traits - {HOLOMASK})),
        **_table_facts(trooper, retreat_marker),
        marker_number=alias.marker_number,
        masked=True,
        fireteam="" if marker else trooper.fireteam,
    )


def _secret_view(secret: Secret, viewer: str | None, known: dict | None = None) -> SecretView:
    mine = secret.seat == viewer
    if _under_marker(secret, viewer, known or {}):
        # Revealed by a rule, but it names a trooper this viewer still knows
        # only as a Camouflage marker: sealed for it until the marker ends.
        secret = replace(secret, revealed_seq=None, revealed_rule=None)
    open_ = mine or secret.revealed
    return SecretView(
        id=secret.id,
        seat=secret.seat,
        kind=secret.kind,
        fingerprint=fingerprint(secret.commitment),
        commitment=secret.commitment,
        sealed_seq=secret.sealed_seq,
        mine=mine,
        # Only a kind registered trooper_public names its trooper while sealed
        # (a Holoecho's markers are on the table); for the rest the link is the secret.
        trooper_id=_secret_trooper(secret, open_, known or {}),
        payload=dict(secret.payload) if open_ else None,
        nonce=secret.nonce if secret.revealed else None,
        revealed_seq=secret.revealed_seq,
        revealed_rule=secret.revealed_rule,
        verified=verify(secret.commitment, secret.nonce, dict(secret.payload))
        if secret.revealed
        else None,
    )


def _under_marker(secret: Secret, viewer: str | None, known: Mapping) -> bool:
    """HD-C3: which trooper stands under a Camouflage marker is private until
    the marker state ends. A rule may reveal a seal naming it before that (a
    failed Coherency check of its real Holoecho, HE-C7): the rule's answer is
    public (its own events, renamed by log_for), but the payload names the
    trooper, so the seal and its proof reach the opponent only once the marker
    is gone, like its written position. Its owner's own reveals are its choice."""
    if secret.seat == viewer or not secret.revealed or secret.revealed_rule == OWNER:
        return False
    alias = known.get(subject_of(secret) or "")
    return alias is not None and alias.marker_number > 0


def _secret_trooper(secret: Secret, open_: bool, known: dict) -> str | None:
    if not (open_ or not link_is_secret(secret)) or secret.trooper_id is None:
        return None
    alias = known.get(secret.trooper_id)
    if alias is not None and not open_:
        return alias.ref
    return secret.trooper_id


def _seat_view(state: MatchState, seat: SeatState, viewer: str | None) -> SeatView:
    mine = seat.seat == viewer
    troopers = state.troopers_of(seat.seat)
    regular, irregular = order_pool(troopers)
    known = aliases(state, viewer)
    # A marker's place in the army list would say which trooper it is: the
    # opponent gets the markers after everyone else, by marker number.
    shown = sorted(
        (t for t in troopers if trooper_visible(t, viewer) and (mine or seat.list_locked)),
        key=lambda t: (
            (known[t.id].marker_number, 0)
            if t.id in known and known[t.id].marker_number
            else (0, t.position)
        ),
    )
    return SeatView(
        seat=seat.seat,
        name=seat.name,
        claimed=seat.claimed,
        mine=mine,
        list_locked=seat.list_locked,
        deployment_sealed=seat.deployment_sealed,
        command_tokens=seat.command_tokens,
        retreat=seat.retreat,
        loss_of_lieutenant=seat.loss_of_lieutenant,
        # Before the list is locked it is a private draft.
        troopers=tuple(
            _trooper_view(t, viewer, carries_retreat_marker(state, t), known.get(t.id))
            for t in shown
        ),
        secrets=tuple(
            _secret_view(s, viewer, known)
            for s in sorted(state.secrets_of(seat.seat), key=lambda s: (s.sealed_seq, s.kind, s.id))
            if secret_visible(s, viewer)
        ),
        regular_orders=regular if (mine or seat.list_locked) else {},
        irregular_orders=irregular if (mine or seat.list_locked) else 0,
        list_points=sum(t.cost for t in troopers) if mine else None,
        surviving_points=surviving_points(state, seat.seat) if mine else None,
        strategic_used=seat.strategic_used,
        **_classified_facts(state, seat.seat, mine),
    )


def _classified_facts(state: MatchState, seat: str, mine: bool) -> dict:
    from .classified import accomplished_points, hand_of  # classified imports sealing

    hand = hand_of(state, seat)
    facts = {
        "classified_drawn": bool(hand.get("draw")),
        "classified_held": len(hand.get("held", ())),
        "classified_discarded": tuple(hand.get("discarded", ())),
        "classified_accomplished": len(hand.get("accomplished", ())),
        "classified_points": accomplished_points(state, seat),
    }
    if mine and hand.get("draw"):
        draw = state.secrets[hand["draw"]]
        facts["classified_hand"] = {
            "drawn": list(draw.payload["drawn"]),
            "kept": bool(hand.get("kept")),
            "held": [
                {"id": i, "card": state.secrets[i].payload["card"]} for i in hand.get("held", ())
            ],
            "exchanges_used": len(hand.get("exchanged_in", ())),
        }
    return facts


def player_view(state: MatchState, viewer: str | None) -> PlayerView:
    if viewer not in (*SEATS, None):
        raise ValueError("viewer must be a seat or None")
    turn = state.turn
    order = None
    if turn is not None and turn.order is not None:
        actor = state.troopers.get(turn.order.trooper_id)
        if actor is not None and trooper_visible(actor, viewer):
            alias = alias_for(state, actor, viewer)
            ref = alias.ref if alias is not None else actor.id
            order = OrderView(ref, turn.order.seat, turn.order.skills)
    offers = declaration_offers(state, viewer)
    return PlayerView(
        viewer=viewer,
        seq=state.seq,
        name=state.name,
        settings=_public_settings(state.settings),
        phase=state.phase,
        first_turn=state.first_turn,
        deploys_first=state.deploys_first,
        round=turn.round if turn else None,
        active_seat=turn.seat if turn else None,
        turn_phase=turn.phase if turn else None,
        order=order,
        seats=tuple(_seat_view(state, state.seat(s), viewer) for s in SEATS),
        can_undo=bool(state.undo) and state.undo[-1].seat == viewer,
        orders_left=orders_left(state),
        **_public_results(state),
        **_token_facts(state, viewer),
        impetuous_ids=_impetuous_ids(state, viewer),
        holoecho_candidates=holoecho_candidates(state, viewer) if viewer in SEATS else (),
        choices=_choices(state, viewer),
        aro_offers=offers.aro,
        order_offers=offers.order,
        second_skill_offers=offers.second,
        report_offers=offers.report,
        battle_over=battle_over(state),
    )


def _choices(state: MatchState, viewer: str | None) -> tuple[ChoiceView, ...]:
    """Every open choice follows a public event (a reveal, a declaration), so
    that one is open is public. Only its owner is told which trooper: a trooper
    may be known to others by another name (a marker, a masked troop type), so
    anyone else reads only who has to choose, and under which rule."""
    found = []
    for choice in sorted(state.choices.values(), key=lambda c: (c.since, c.key)):
        trooper = state.troopers.get(choice.trooper_id)
        if trooper is None or not trooper_visible(trooper, viewer):
            continue
        if choice.kind == PLACEMENT and placement_moot(trooper):
            continue  # shot dead before it was placed: nothing left to say (RP-1..RP-3)
        mine = choice.seat == viewer
        found.append(
            ChoiceView(
                kind=choice.kind,
                seat=choice.seat,
                trooper_id=choice.trooper_id if mine else "",
                trooper_name=trooper.name if mine else "",
                rule=choice.rule,
                since=choice.since,
                mine=mine,
            )
        )
    return tuple(found)


def _impetuous_ids(state: MatchState, viewer: str | None) -> tuple[str, ...]:
    return impetuous_troopers(state, viewer) if viewer else ()


def _public_settings(settings: MatchSettings) -> MatchSettings:
    """All public; the Classified settings as plain JSON-like values (the
    player export writes the view with dataclasses.asdict)."""
    config = settings.classified
    return replace(
        settings, classified={**config, "deck": list(config["deck"])} if config else None
    )


def _public_results(state: MatchState) -> dict:
    return {"result": result_of(state), "organizer_views": organizer_views(state)}


def _token_facts(state: MatchState, viewer: str | None) -> dict:
    """Only named public keys of the turn are read: it may hold private notes."""
    turn = state.turn
    extra = turn.extra if turn else {}
    return {
        "tokens_spent": turn.tokens_spent if turn else 0,
        "token_limit": extra.get(TOKEN_LIMIT),
        "cancelled_orders": {int(group): n for group, n in extra.get(CANCELLED, {}).items()},
        "orders_counted": bool(extra.get(ORDERS_COUNTED)),
        "s2_deciding": s2_deciding(state),
        "token_uses": open_uses(state, viewer),
        "token_offers": token_offers(state, viewer),
    }


@dataclass(frozen=True)
class LogLine:
    seq: int
    kind: str
    message: str
    params: dict
    rule: str | None


def log_for(
    state: MatchState,
    events: Iterable[tuple[int, Event]],
    viewer: str | None,
    lines: Mapping[int, LogLine | None] | None = None,
) -> list[LogLine]:
    """The log for one viewer: the lines it may read (redact_log), each trooper
    named the way that viewer knows it now (identity.py). Pages, pushes and
    player exports all read the log through this one function. Named from the
    current state, so once a marker or a HoloMask ends, the old lines name the
    trooper too: the opponent has learnt which it was. `lines`: as redact_log."""
    known = aliases(state, viewer)
    lines = redact_log(events, viewer, lines)
    if not known:
        return lines
    return [
        replace(
            line,
            params=rename(
                _withheld_proof(line, state, viewer, known), known, state, viewer, LOG_NAME_ONLY
            ),
        )
        for line in lines
    ]


def _withheld_proof(line: LogLine, state: MatchState, viewer: str | None, known: Mapping) -> dict:
    """A reveal line without the payload and nonce `_under_marker` keeps sealed."""
    params = line.params
    secret = (
        state.secrets.get(params.get("secret_id", "")) if line.kind == "SecretRevealed" else None
    )
    if secret is None or not _under_marker(secret, viewer, known):
        return params
    return {k: v for k, v in params.items() if k not in ("payload", "nonce")}


def redact_log(
    events: Iterable[tuple[int, Event]],
    viewer: str | None,
    lines: Mapping[int, LogLine | None] | None = None,
) -> list[LogLine]:
    """The log lines `viewer` may read. Events it may not see are left out;
    their numbers still advance `seq`, which is all the viewer learns.
    Names troopers as the events do: show players `log_for` instead.

    `lines` (seq -> log_line of that very event), when the caller keeps them
    (reading.Loaded, issue 18: describing each line again for every viewer
    at every seq was a tenth of an action): a line is taken from it only
    once its event passed this viewer's check, which is made here always."""
    found = []
    for seq, event in events:
        if not event.visible_to(viewer):
            continue
        line = lines[seq] if lines is not None and seq in lines else log_line(seq, event)
        if line is not None:
            found.append(line)
    return found


def log_line(seq: int, event: Event) -> LogLine | None:
    """Event `seq`'s log line, as any viewer allowed to see it reads it
    (before log_for names its troopers for one), or None if it has none."""
    described = event.describe()
    if described is None:
        return None
    message, params = described
    return LogLine(seq, event.kind, message, params, event.rule)
