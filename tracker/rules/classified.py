"""Classified Objectives (ITS): drawn fairly by the server, kept sealed, shown
to the opponent only when accomplished.

The tracker's own rules (docs/rules.md has no page for them; IDs here):

- CL-1 The match creator (or the organizer, for a round of an event) sets
  how many cards each player draws, how many they keep, how many they may
  exchange, the points each accomplished one is worth, and the deck (card
  names, no repeats). `ClassifiedConfigured` is public.
- CL-2 Each player draws once, from the deck shuffled with a seed the server
  picks at that moment (the web layer passes it in the command; nothing the
  player sends reaches it). The seed, the deck and the cards drawn are sealed
  at once with a commitment, so an organizer can recompute the draw later.
- CL-3 The player keeps exactly `kept` of the cards drawn; each kept card is
  a secret of its own, sealed. The opponent sees how many are held, nothing
  of which.
- CL-4 Where the match allows it, a held card is exchanged for one drawn
  with a fresh server seed from the cards of the deck this player has not
  yet seen (never one drawn, kept or exchanged before). The new card is
  sealed with its seed and the pool it came from.
- CL-5 Accomplishing a held card reveals it on both phones (a SecretRevealed
  with payload and nonce, checked against the commitment) with the player's
  proof, and its points count towards the player's objective points.
- CL-6 A card never accomplished stays sealed from the opponent for good; the
  organizer opens it after the match like every secret.

The shuffle is ours (`shuffled`), not `random.shuffle`: its algorithm is
spelled out here (Fisher-Yates over a SHA-256 counter stream with rejection
sampling) so anyone can re-run a draw from the audit without this code, and
no Python release can change it under an old match.
"""

from __future__ import annotations

import hashlib
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .commands import Command, handles
from .commitments import commit, verify
from .errors import InvalidInput, NotAllowed, UnknownElement
from .events import Event
from .evolve import applies
from .i18n import _, ngettext
from .sealing import ANY_NUMBER, CARD, SecretKind, SecretsSealed, register_kind, reveal
from .state import DEPLOYMENT, PLAYING, SETUP, MatchState, Secret, frozen_map, replace

CLASSIFIED = "classified"  # one held card
CLASSIFIED_DRAW = "classified_draw"  # the seed, the deck and the cards drawn
# Sealed by this module's own commands (CL-2..CL-4), never with the deployment.
register_kind(SecretKind(kind=CLASSIFIED, names=CARD, per_seat=ANY_NUMBER, ends=("CL-5",)))
# The draw is opened by the organizer's audit, never in play.
register_kind(SecretKind(kind=CLASSIFIED_DRAW, names=CARD, per_seat=ANY_NUMBER))

HAND = "classified"  # on the owner's seat extra: ids (count public, ids not)

SHUFFLE_ALGORITHM = "sha256-fisher-yates-v1"
MAX_DECK = 60
MAX_CARD_NAME = 60
MAX_DRAWN = 10
MAX_POINTS = 10
MAX_PROOF = 300

# ITS Season 15 Classified deck (N4), by card name; editable per match and
# per event. Card texts stay on the cards: the tracker needs only the names.
# The default deck's names are the cards' identity (sealed, drawn, shown in
# the audit), so they stay these English strings; a phone shows each in its
# reader's language (tracker_tags.card_name). A deck an organizer writes is
# shown as written.
DEFAULT_DECK = (
    _("Data Scan"),
    _("Extreme Prejudice"),
    _("HVT: Designation"),
    _("HVT: Espionage"),
    _("HVT: Inoculation"),
    _("HVT: Retroengineering"),
    _("Kill the Messenger"),
    _("Sabotage"),
    _("Telemetry"),
    _("Test Run"),
    _("Follow Up"),
    _("Capture"),
)
DEFAULT_DRAWN = 2
DEFAULT_KEPT = 1


# ------------------------------------------------------------ the draw


def _stream(seed_hex: str):
    """An endless stream of 64-bit numbers: sha256(seed || counter), 4 per block."""
    seed = bytes.fromhex(seed_hex)
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        counter += 1
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")


def _below(stream, bound: int) -> int:
    """Uniform in 0..bound-1: reject the top slice of 2**64 that would bias it."""
    limit = (2**64 // bound) * bound
    while True:
        value = next(stream)
        if value < limit:
            return value % bound


def shuffled(deck: Sequence[str], seed_hex: str) -> list[str]:
    """The deck in the order the seed gives (Fisher-Yates from the top)."""
    cards = list(deck)
    stream = _stream(seed_hex)
    for i in range(len(cards) - 1, 0, -1):
        j = _below(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def draw(deck: Sequence[str], seed_hex: str, count: int) -> list[str]:
    """The first `count` cards of the shuffled deck: never a card twice."""
    return shuffled(deck, seed_hex)[:count]


# ---------------------------------------------------------------- config


def clean_deck(value: object) -> list[str]:
    """A deck from a list of names or from text, one card per line."""
    lines = value.splitlines() if isinstance(value, str) else value
    if not isinstance(lines, list | tuple):
        raise InvalidInput(_("The Classified deck is one card name per line."))
    deck = [" ".join(str(line).split()) for line in lines]
    deck = [card for card in deck if card]
    if len(deck) > MAX_DECK:
        raise InvalidInput(_("The Classified deck holds at most %(max)s cards."), max=MAX_DECK)
    if any(len(card) > MAX_CARD_NAME for card in deck):
        raise InvalidInput(
            _("A Classified card name is too long (at most %(max)s characters)."),
            max=MAX_CARD_NAME,
        )
    folded = [card.casefold() for card in deck]
    if len(set(folded)) != len(folded):
        raise InvalidInput(_("The Classified deck names a card twice."))
    return deck


def clean_config(drawn: object, kept: object, exchanges: object, points: object, deck: object):
    """The validated settings of CL-1, or None when drawn is 0 (no Classifieds)."""
    try:
        drawn, kept, exchanges, points = (int(v) for v in (drawn, kept, exchanges, points))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidInput(_("The Classified Objectives settings must be whole numbers.")) from None
    if drawn == 0:
        return None
    cards = clean_deck(deck)
    if not 1 <= drawn <= min(MAX_DRAWN, len(cards)):
        raise InvalidInput(
            _("Cards drawn must be between 1 and the size of the deck (%(size)s)."),
            size=len(cards),
        )
    if not 1 <= kept <= drawn:
        raise InvalidInput(_("Cards kept must be between 1 and the cards drawn."))
    if not 0 <= exchanges <= len(cards) - drawn:
        raise InvalidInput(_("There are not enough cards in the deck for that many exchanges."))
    if not 0 <= points <= MAX_POINTS:
        raise InvalidInput(
            _("%(what)s must be between %(low)s and %(high)s."),
            what=_("Points per Classified Objective"),
            low=0,
            high=MAX_POINTS,
        )
    return {"drawn": drawn, "kept": kept, "exchanges": exchanges, "points": points, "deck": cards}


def config_of(state: MatchState) -> Mapping | None:
    """The public settings (CL-1), one of the match's settings (#20)."""
    return state.settings.classified


def hand_of(state: MatchState, seat: str) -> Mapping:
    """The owner's bookkeeping: draw id, held, discarded and accomplished ids."""
    return state.seat(seat).extra.get(HAND) or {}


def held_count(state: MatchState, seat: str) -> int:
    return len(hand_of(state, seat).get("held", ()))


def accomplished_points(state: MatchState, seat: str) -> int:
    config = config_of(state)
    done = hand_of(state, seat).get("accomplished", ())
    return len(done) * int(config["points"]) if config else 0


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class ClassifiedConfigured(Event):
    drawn: int
    kept: int
    exchanges: int
    points: int
    deck: list
    rule: str | None = "CL-1"
    describe_as = _(
        "Classified Objectives: each player draws %(drawn)s and keeps %(kept)s "
        "from a deck of %(deck_size)s cards."
    )

    def describe(self) -> tuple[str, dict]:
        return self.describe_as, {**self.to_data(), "deck_size": len(self.deck)}


@dataclass(frozen=True, kw_only=True)
class ClassifiedDrawn(Event):
    """Public: the seat drew (says nothing of what; the seal is private)."""

    seat: str
    rule: str | None = "CL-2"
    describe_as = _("%(seat_name)s drew their Classified Objectives.")


@dataclass(frozen=True, kw_only=True)
class ClassifiedKept(Event):
    seat: str
    count: int
    rule: str | None = "CL-3"
    describe_as = ngettext(
        "%(seat_name)s kept %(count)s Classified Objective, sealed.",
        "%(seat_name)s kept %(count)s Classified Objectives, sealed.",
        "count",
    )


@dataclass(frozen=True, kw_only=True)
class ClassifiedExchanged(Event):
    seat: str
    discarded: str
    rule: str | None = "CL-4"
    describe_as = _("%(seat_name)s exchanged a Classified Objective.")


@dataclass(frozen=True, kw_only=True)
class ClassifiedAccomplished(Event):
    seat: str
    secret_id: str
    card: str
    proof: str
    points: int
    rule: str | None = "CL-5"
    describe_as = _(
        "%(seat_name)s accomplished the Classified Objective %(card)s (%(points)s OP): %(proof)s"
    )


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class DrawClassified(Command):
    """`seed`, `secret_id` and `nonce` are chosen by the server (CL-2)."""

    seed: str
    secret_id: str
    nonce: str


@dataclass(frozen=True, kw_only=True)
class KeepClassified(Command):
    """`cards`: positions in the draw (0-based) of the cards kept. One
    server-chosen id and nonce per kept card."""

    cards: list
    secret_ids: list
    nonces: list


@dataclass(frozen=True, kw_only=True)
class ExchangeClassified(Command):
    secret_id: str
    seed: str
    new_secret_id: str
    nonce: str


@dataclass(frozen=True, kw_only=True)
class AccomplishClassified(Command):
    secret_id: str
    proof: str


def _hex(value: object, low: int) -> str:
    text = str(value or "").lower()
    if not low <= len(text) <= 128 or any(c not in string.hexdigits for c in text):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return text


def _id(value: object) -> str:
    text = str(value or "")
    if not (4 <= len(text) <= 32 and text.isalnum()):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return text


def _sealed(secret_id: str, kind: str, payload: dict, nonce: str) -> dict:
    return {
        "id": secret_id,
        "kind": kind,
        "payload": payload,
        "nonce": nonce,
        "commitment": commit(nonce, payload),
        "trooper_id": None,
        # CL-3: that a player holds Classifieds is public, which ones is not.
        "existence_public": True,
    }


def _configured(state: MatchState) -> Mapping:
    config = config_of(state)
    if not config:
        raise NotAllowed(_("This match has no Classified Objectives."))
    return config


def _before_play(state: MatchState) -> None:
    if state.phase not in (SETUP, DEPLOYMENT):
        raise NotAllowed(_("Classified Objectives are drawn and chosen before the first turn."))


def _fresh_id(state: MatchState, value: object) -> str:
    secret_id = _id(value)
    if secret_id in state.secrets:
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return secret_id


@handles(DrawClassified)
def draw_classified(state: MatchState, seat: str, command: DrawClassified) -> list[Event]:
    config = _configured(state)
    _before_play(state)
    if hand_of(state, seat).get("draw"):
        raise NotAllowed(_("You have already drawn your Classified Objectives."), rule="CL-2")
    seed = _hex(command.seed, 64)
    deck = list(config["deck"])
    payload = {
        "seed": seed,
        "algorithm": SHUFFLE_ALGORITHM,
        "deck": deck,
        "drawn": draw(deck, seed, int(config["drawn"])),
    }
    secret = _sealed(
        _fresh_id(state, command.secret_id), CLASSIFIED_DRAW, payload, _hex(command.nonce, 32)
    )
    return [
        SecretsSealed(seat=seat, secrets=[secret], private_to=seat, rule="CL-2"),
        ClassifiedDrawn(seat=seat),
    ]


def _draw_secret(state: MatchState, seat: str) -> Secret:
    draw_id = hand_of(state, seat).get("draw")
    if not draw_id:
        raise NotAllowed(_("Draw your Classified Objectives first."))
    return state.secrets[draw_id]


@handles(KeepClassified)
def keep_classified(state: MatchState, seat: str, command: KeepClassified) -> list[Event]:
    config = _configured(state)
    _before_play(state)
    drawn_secret = _draw_secret(state, seat)
    if hand_of(state, seat).get("kept"):
        raise NotAllowed(_("You have already chosen your Classified Objectives."), rule="CL-3")
    drawn = list(drawn_secret.payload["drawn"])
    try:
        positions = sorted({int(str(p)) for p in command.cards})
    except ValueError:
        raise InvalidInput(_("Choose among the cards you drew.")) from None
    if len(positions) != len(list(command.cards)) or any(
        not 0 <= p < len(drawn) for p in positions
    ):
        raise InvalidInput(_("Choose among the cards you drew."))
    if len(positions) != int(config["kept"]):
        raise InvalidInput(
            ngettext(
                "Keep exactly %(count)s Classified Objective.",
                "Keep exactly %(count)s Classified Objectives.",
                "count",
            ),
            count=config["kept"],
            rule="CL-3",
        )
    ids, nonces = list(command.secret_ids), list(command.nonces)
    if len(ids) < len(positions) or len(nonces) < len(positions):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    sealed = []
    for index, position in enumerate(positions):
        payload = {"card": drawn[position], "draw": drawn_secret.id, "position": position}
        sealed.append(
            _sealed(_fresh_id(state, ids[index]), CLASSIFIED, payload, _hex(nonces[index], 32))
        )
    if len({s["id"] for s in sealed}) != len(sealed):
        raise InvalidInput(_("The seal is malformed; reload the page."))
    return [
        SecretsSealed(seat=seat, secrets=sealed, private_to=seat, rule="CL-3"),
        ClassifiedKept(seat=seat, count=len(sealed)),
    ]


def seen_cards(state: MatchState, seat: str) -> list[str]:
    """Every card this seat has drawn or been dealt by an exchange (CL-4)."""
    hand = hand_of(state, seat)
    seen = list(state.secrets[hand["draw"]].payload["drawn"]) if hand.get("draw") else []
    for secret_id in hand.get("exchanged_in", ()):
        seen.append(state.secrets[secret_id].payload["card"])
    return seen


def _held(state: MatchState, seat: str, secret_id: object) -> Secret:
    secret = state.secrets.get(str(secret_id or ""))
    if secret is None or secret.seat != seat or secret.kind != CLASSIFIED:
        raise UnknownElement(_("There is no such Classified Objective."))
    if secret.id not in hand_of(state, seat).get("held", ()):
        raise NotAllowed(_("You no longer hold that Classified Objective."))
    return secret


@handles(ExchangeClassified)
def exchange_classified(state: MatchState, seat: str, command: ExchangeClassified) -> list[Event]:
    config = _configured(state)
    _before_play(state)
    old = _held(state, seat, command.secret_id)
    hand = hand_of(state, seat)
    if len(hand.get("exchanged_in", ())) >= int(config["exchanges"]):
        raise NotAllowed(_("No more exchanges are allowed in this match."), rule="CL-4")
    seen = set(seen_cards(state, seat))
    pool = [card for card in config["deck"] if card not in seen]
    if not pool:
        raise NotAllowed(_("No cards are left in the deck to exchange."), rule="CL-4")
    seed = _hex(command.seed, 64)
    payload = {
        "card": draw(pool, seed, 1)[0],
        "seed": seed,
        "algorithm": SHUFFLE_ALGORITHM,
        "pool": pool,
        "replaces": old.id,
    }
    secret = _sealed(
        _fresh_id(state, command.new_secret_id), CLASSIFIED, payload, _hex(command.nonce, 32)
    )
    return [
        SecretsSealed(seat=seat, secrets=[secret], private_to=seat, rule="CL-4"),
        ClassifiedExchanged(seat=seat, discarded=old.id),
    ]


@handles(AccomplishClassified)
def accomplish_classified(
    state: MatchState, seat: str, command: AccomplishClassified
) -> list[Event]:
    config = _configured(state)
    if state.phase != PLAYING:
        raise NotAllowed(_("Classified Objectives are accomplished during play."))
    secret = _held(state, seat, command.secret_id)
    proof = " ".join(str(command.proof or "").split())
    if not proof:
        raise InvalidInput(
            _("%(what)s cannot be empty."), what=_("How it was accomplished"), rule="CL-5"
        )
    if len(proof) > MAX_PROOF:
        raise InvalidInput(
            _("%(what)s is too long (at most %(max)s characters)."),
            what=_("How it was accomplished"),
            max=MAX_PROOF,
        )
    return [
        *reveal(state, secret, "CL-5"),
        ClassifiedAccomplished(
            seat=seat,
            secret_id=secret.id,
            card=secret.payload["card"],
            proof=proof,
            points=int(config["points"]),
        ),
    ]


# ------------------------------------------------------------ the audit


def check_draw(state: MatchState, seat: str) -> tuple[bool, str]:
    """CL-2/CL-4 for the organizer: every card the seat held is what the seeds
    drew. (ok, why-not). Needs the full state: organizers only."""
    hand = hand_of(state, seat)
    if not hand.get("draw"):
        return True, "no draw"
    draw_secret = state.secrets[hand["draw"]]
    payload = draw_secret.payload
    if not verify(draw_secret.commitment, draw_secret.nonce, dict(payload)):
        return False, "the draw does not match its commitment"
    if list(payload["drawn"]) != draw(payload["deck"], payload["seed"], len(payload["drawn"])):
        return False, "the cards drawn are not what the seed draws"
    seen = list(payload["drawn"])
    for secret in sorted(state.secrets_of(seat), key=lambda s: s.sealed_seq):
        if secret.kind != CLASSIFIED:
            continue
        card = secret.payload
        if not verify(secret.commitment, secret.nonce, dict(card)):
            return False, "a held card does not match its commitment"
        if "seed" in card:
            expected_pool = [c for c in payload["deck"] if c not in seen]
            if (
                list(card["pool"]) != expected_pool
                or card["card"] != draw(card["pool"], card["seed"], 1)[0]
            ):
                return False, "an exchanged card is not what its seed draws"
            seen.append(card["card"])
        elif payload["drawn"][card["position"]] != card["card"]:
            return False, "a kept card was not drawn"
    return True, "ok"


def seeded_ok(payload: Mapping) -> bool:
    """One sealed payload on its own (for the chain check of every match):
    a draw's cards are what its seed draws from its deck, an exchanged card
    what its seed draws from its pool. Kept cards carry no seed: True."""
    try:
        if "drawn" in payload:
            cards = list(payload["drawn"])
            return cards == draw(list(payload["deck"]), str(payload["seed"]), len(cards))
        if "seed" in payload:
            return payload["card"] == draw(list(payload["pool"]), str(payload["seed"]), 1)[0]
    except (KeyError, TypeError, ValueError, IndexError):
        return False
    return True


# ---------------------------------------------------------------- evolve


def _with_hand(state: MatchState, seat: str, **changes) -> MatchState:
    hand = {**hand_of(state, seat), **changes}
    extra = dict(state.seat(seat).extra)
    extra[HAND] = frozen_map(hand)
    return state.with_seat(seat, extra=frozen_map(extra))


@applies(ClassifiedConfigured)
def _configured_applied(state: MatchState, event: ClassifiedConfigured) -> MatchState:
    config = {
        "drawn": event.drawn,
        "kept": event.kept,
        "exchanges": event.exchanges,
        "points": event.points,
        "deck": tuple(event.deck),
    }
    return replace(state, settings=replace(state.settings, classified=frozen_map(config)))


def _last_sealed(state: MatchState, seat: str, kind: str) -> list[str]:
    """Ids of `seat`'s secrets of `kind` sealed by the event just before."""
    return [
        s.id for s in state.secrets_of(seat) if s.kind == kind and s.sealed_seq == state.seq - 1
    ]


@applies(ClassifiedDrawn)
def _drawn(state: MatchState, event: ClassifiedDrawn) -> MatchState:
    (draw_id,) = _last_sealed(state, event.seat, CLASSIFIED_DRAW)
    return _with_hand(state, event.seat, draw=draw_id)


@applies(ClassifiedKept)
def _kept(state: MatchState, event: ClassifiedKept) -> MatchState:
    kept = sorted(
        _last_sealed(state, event.seat, CLASSIFIED),
        key=lambda i: state.secrets[i].payload["position"],
    )
    return _with_hand(state, event.seat, kept=True, held=tuple(kept))


@applies(ClassifiedExchanged)
def _exchanged(state: MatchState, event: ClassifiedExchanged) -> MatchState:
    (new_id,) = _last_sealed(state, event.seat, CLASSIFIED)
    hand = hand_of(state, event.seat)
    held = [new_id if i == event.discarded else i for i in hand.get("held", ())]
    return _with_hand(
        state,
        event.seat,
        held=tuple(held),
        discarded=(*hand.get("discarded", ()), event.discarded),
        exchanged_in=(*hand.get("exchanged_in", ()), new_id),
    )


@applies(ClassifiedAccomplished)
def _accomplished(state: MatchState, event: ClassifiedAccomplished) -> MatchState:
    hand = hand_of(state, event.seat)
    return _with_hand(
        state,
        event.seat,
        held=tuple(i for i in hand.get("held", ()) if i != event.secret_id),
        accomplished=(*hand.get("accomplished", ()), event.secret_id),
        proofs=frozen_map({**hand.get("proofs", {}), event.secret_id: event.proof}),
    )
