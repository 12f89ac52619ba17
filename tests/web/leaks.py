"""The leak harness's tools: read the forms a phone shows, fill them as a
player (or a player with devtools) would, record every byte each viewer
receives, and check those bytes against the secrets sealed in the match.

A *canary* is a string that only a secret's owner may receive until its
reveal event: the unique words the harness typed into written positions,
notes and hidden troopers' names; a secret's nonce; for a secret whose very
existence is private (Hidden Deployment), also its id, commitment,
fingerprint and trooper id; and for a choice among public things (which
Holoecho is real, who the Lieutenant is, the reserve) the text the owner's
own page shows for it (its payload fragment).

Canaries are looked for in every reading of a received item (Readings: any
case, HTML and JSON escapes undone, markup removed, base64 runs decoded),
less the words players published as written (published_words: a proof);
a sealed map position as its two numbers in any notation (position_in); and
the row of a trooper a closed choice names must look like another
trooper's row (row_structure), and a closed secret never carries the id of
the trooper it is about (_closed_links). What names a trooper, a card or a
position comes from each kind's registration (sealing.register_kind), so a
new kind is checked without a line here. coverage_of counts what the forms
offered, posted and got accepted.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import html
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest
from django.test import Client

from tracker.asgi import application
from tracker.models import Match, MatchEvent
from tracker.reading import load_state
from tracker.rendering import BLOCKS
from tracker.rules import classified
from tracker.rules.commitments import fingerprint
from tracker.rules.sealing import (
    CARD,
    ONE_PER_TROOPER,
    POSITION,
    SECRET_KINDS,
    TEXT,
    TROOPER,
    kind_of,
    link_is_secret,
    subject_of,
)
from tracker.rules.state import MatchState

TOKEN = re.compile(r"cnry[0-9a-z]{6,}")
VIEWERS = ("A", "B", "spectator", "anonymous")


# ------------------------------------------------------------------ forms


@dataclass
class Field:
    name: str
    kind: str  # hidden, text, number, textarea, select, radio, checkbox, password
    value: str = ""
    options: list[str] = field(default_factory=list)
    low: int | None = None
    high: int | None = None


@dataclass
class Form:
    action: str
    fields: list[Field]

    @property
    def command(self) -> str:
        """The rules command an act/ form posts, or the last path segment."""
        parts = [p for p in self.action.split("/") if p]
        return parts[-1] if parts else ""


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Field | None = None

    def _field(self, name: str, kind: str) -> Field:
        assert self._form is not None
        for existing in self._form.fields:
            if existing.name == name and existing.kind == kind and kind in ("radio", "checkbox"):
                return existing
        created = Field(name=name, kind=kind)
        self._form.fields.append(created)
        return created

    def handle_starttag(self, tag, attrs):
        attr = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            action = attr.get("hx-post") or (
                attr.get("action", "") if attr.get("method", "").lower() == "post" else ""
            )
            self._form = Form(action=action, fields=[]) if action else None
            return
        if tag == "option":
            if self._select is not None:
                self._select.options.append(attr.get("value", ""))
            return
        # A disabled control is never sent (RP-3's kept Immobilized-A until
        # app.js enables it for a no-room trooper).
        if self._form is None or not attr.get("name") or "disabled" in attr:
            return
        name = attr["name"]
        if tag == "input":
            kind = attr.get("type", "text").lower()
            if kind in ("radio", "checkbox"):
                self._field(name, kind).options.append(attr.get("value", "on"))
                return
            created = self._field(name, kind)
            created.value = attr.get("value", "")
            if attr.get("min", "").lstrip("-").isdigit():
                created.low = int(attr["min"])
            if attr.get("max", "").lstrip("-").isdigit():
                created.high = int(attr["max"])
        elif tag == "select":
            self._select = self._field(name, "select")
        elif tag == "textarea":
            self._field(name, "textarea")

    def handle_endtag(self, tag):
        if tag == "form":
            if self._form is not None:
                self.forms.append(self._form)
            self._form = None
        elif tag == "select":
            self._select = None


def forms_in(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


class Typist:
    """Unique words for every text a player types: any of them found later in
    a secret's payload is that secret's canary."""

    def __init__(self, tag: str):
        self.tag = tag
        self.count = 0

    def word(self, what: str = "") -> str:
        self.count += 1
        return f"{what}cnry{self.tag}{self.count:03d}"


def fill(form: Form, rng, typist: Typist) -> dict:
    """Values for a form as a player would choose them on the phone."""
    data: dict = {}
    for f in form.fields:
        if f.kind == "hidden":
            if re.match(r"hd_[xy]_", f.name) and rng.random() < 0.6:
                # A tap on the table map, away from the map's own numbers (0,
                # 300, 900, 1200 in its markup) and the 300-point limit, so a
                # position found in a page is this one (position_in).
                data[f.name] = str(rng.choice([n for n in range(301, 1200) if n != 900]))
            else:
                data[f.name] = f.value
        elif f.kind == "select":
            data[f.name] = rng.choice(f.options) if f.options else ""
        elif f.kind == "radio":
            data[f.name] = rng.choice(f.options)
        elif f.kind == "checkbox":
            chosen = [o for o in f.options if rng.random() < 0.5]
            if chosen:
                data[f.name] = chosen
        elif f.kind == "number":
            low = f.low if f.low is not None else 0
            high = f.high if f.high is not None else max(low, 10)
            data[f.name] = str(rng.randint(low, max(low, high)))
        elif f.kind in ("text", "textarea", "password"):
            data[f.name] = typist.word()
    # Fields with the same name (the two TM-S2 group selects) post twice.
    repeated = [f.name for f in form.fields if f.kind == "select"]
    for name in {n for n in repeated if repeated.count(n) > 1}:
        data[name] = [
            rng.choice(f.options) for f in form.fields if f.name == name and f.options
        ] or [""]
    return data


def written(form: Form, data: dict) -> tuple[str, ...]:
    """What a post carries in the form's free-text fields: typed, or tampered."""
    free = {f.name for f in form.fields if f.kind in ("text", "textarea")}
    return tuple(v for k, v in data.items() if k in free and isinstance(v, str))


# -------------------------------------------------------------- recording


@dataclass
class Received:
    viewer: str
    seq: int  # the match's seq the bytes were rendered at
    what: str
    data: bytes
    sent: str = ""  # what the viewer posted: an echo of it tells them nothing
    # What the viewer typed into the free-text fields of the form it posted
    # (published_words): its own words, whatever the harness put in them.
    wrote: tuple[str, ...] = ()


def _messages_in(response) -> bytes:
    """Django's cookie message storage signs and may compress the text: a
    phone reads it on the next page, but decode it here so that a secret in a
    message is caught in the very response that set it."""
    morsel = response.cookies.get("messages")
    if morsel is None or not morsel.value:
        return b""
    decoded = CookieStorage(HttpRequest())._decode(morsel.value) or []
    return "\n".join(str(m.message) for m in decoded).encode()


def response_bytes(response) -> bytes:
    """Everything a browser gets: status, headers, cookies (with any message
    decoded), a blank line, then the body."""
    head = [f"HTTP {response.status_code}", *(f"{k}: {v}" for k, v in response.items())]
    head += [m.output() for m in response.cookies.values()]
    messages = _messages_in(response)
    if messages:
        head.append(
            "X-Decoded-Messages: " + messages.decode().replace("\r", " ").replace("\n", " ")
        )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return "\r\n".join(head).encode() + b"\r\n\r\n" + body


def body_of(data: bytes) -> bytes:
    return data.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in data else data


FRAME_SEQ = re.compile(r'id="seq" hx-swap-oob="true" data-seq="(\d+)"')


def frame_seq(frame: str) -> int:
    found = FRAME_SEQ.search(frame)
    assert found, f"a frame without its seq: {frame[:200]}"
    return int(found.group(1))


async def barrier(socket, target: int) -> list[str]:
    """Every frame a socket still owes, up to and including the answer to a
    resync sent now: a condition, never a time window.

    The consumer handles one message at a time, so anything it pushed before
    it read this resync arrives before the answer; after the answer its
    last_seq is the match's seq, so no push can follow until someone acts.
    The answer is a full render (every block) at the current seq."""
    await socket.send_to(text_data=json.dumps({"resync": True}))
    frames = []
    while True:
        frame = await socket.receive_from(timeout=10)
        frames.append(frame)
        if frame_seq(frame) >= target and len(blocks_in(frame)) == len(BLOCKS):
            return frames


@dataclass
class Recorder:
    received: list[Received] = field(default_factory=list)

    def add(
        self,
        viewer: str,
        seq: int,
        what: str,
        data: bytes | str,
        sent: str = "",
        wrote: tuple[str, ...] = (),
    ) -> None:
        if isinstance(data, str):
            data = data.encode()
        self.received.append(Received(viewer, seq, what, data, sent, wrote))

    @property
    def total_bytes(self) -> int:
        return sum(len(r.data) for r in self.received)


# ---------------------------------------------------------------- secrets


@dataclass
class Sealed:
    """One secret as the checker sees it."""

    id: str
    seat: str
    kind: str
    revealed_at: int | None  # seq of its SecretRevealed event
    revealed_rule: str | None
    canaries: set[str]  # its own words, its nonce, ...
    fragment: str = ""  # the owner's page's text for it (choice secrets)
    # What its reveal opens besides its canaries: an owner revealing their
    # Lieutenant who is still hidden names that trooper by their own choice;
    # a reveal by a rule opens only the secret it ends.
    discloses: set[str] = field(default_factory=set)
    position: tuple[float, float] | None = None  # a tap on the table map (mm)
    # The trooper a choice names (every kind registered names=TROOPER: a
    # Lieutenant, a reserve...): its public row must look like any other
    # trooper's row.
    subject: str = ""
    # The trooper the secret is about, where that link is itself secret (every
    # kind not registered trooper_public): never named beside the secret, in
    # its list item or its export entry, while it is closed (_closed_links).
    linked: str = ""

    def open_to(self, viewer: str, seq: int) -> bool:
        return viewer == self.seat or (self.revealed_at is not None and seq >= self.revealed_at)

    @property
    def words(self) -> set[str]:
        return self.canaries | ({self.fragment} if self.fragment else set())


def reveal_seqs(match) -> dict[str, int]:
    """secret id -> seq of its SecretRevealed event, from the log itself."""
    rows = MatchEvent.objects.filter(match=match, kind="SecretRevealed").values_list("seq", "data")
    return {json.loads(data)["secret_id"]: seq for seq, data in rows}


# A text shorter than the shortest canary cannot carry one: never taken out
# of what a viewer received. Trooper ids are the shortest: eight hex digits
# (tracker/row_ids.py; TOKEN's words are ten characters, secret ids twelve).
# At ten, a hidden trooper's id that tamper() wrote into a CL-5 proof, and
# the rules then published as the player wrote it, was reported as a leak.
SHORTEST_CANARY = 8


def published_words(match, received: Iterable[Received]) -> dict[str, int]:
    """What players typed into a form's free-text field and the rules then
    published as they wrote it (a public event of that very action carries
    the text: CL-5's proof, a Fireteam's name, a dispute's reason), with the
    seq it was published at.

    Those words are the writer's, not the server's: a tampered post can
    write a secret's id into a proof (tamper() hands a player every id of
    the match), and CL-5 shows it on both phones. Their owner chose to say
    it, or the harness told it to a player who could not have known it
    (any real way of knowing it would be a leak caught where it happened).
    A text that stays sealed (a note, a written position, a masked troop
    type) is in no public event and so is never one of these."""
    wrote: dict[str, set[str]] = {}
    for r in received:
        if r.wrote:
            action_id = json.loads(r.sent).get("action_id", "")
            wrote.setdefault(action_id, set()).update(" ".join(t.split()) for t in r.wrote)
    rows = MatchEvent.objects.filter(match=match, private_to="", action_id__in=list(wrote))
    published: dict[str, int] = {}
    for seq, action_id, data in rows.order_by("seq").values_list("seq", "action_id", "data"):
        for value in json.loads(data).values():
            if isinstance(value, str) and value in wrote[action_id]:
                published.setdefault(value, seq)
    return {text: seq for text, seq in published.items() if len(text) >= SHORTEST_CANARY}


SECRET_ITEM = re.compile(
    r'<li class="secret[^"]*" id="secret-(?P<id>\w+)">(?P<body>.*?)(?=<li class="secret|</ul>\s*</section>|$)',
    re.S,
)
PAYLOAD = re.compile(r'<div class="payload">(.*?)</div>', re.S)


def payload_fragments(owner_page: str) -> dict[str, str]:
    """secret id -> the payload text the owner's own page shows for it."""
    fragments = {}
    for item in SECRET_ITEM.finditer(owner_page):
        found = PAYLOAD.search(item.group("body"))
        if found and found.group(1).strip():
            fragments[item.group("id")] = found.group(1).strip()
    return fragments


def sealed_secrets(state: MatchState, revealed: dict[str, int], pages: dict[str, str]) -> list:
    """Every secret ever sealed in the match, with its canaries."""
    out = []
    for secret in state.secrets.values():
        assert secret.revealed_seq == revealed.get(secret.id), (
            f"secret {secret.id}: the state says revealed at {secret.revealed_seq}, "
            f"the log at {revealed.get(secret.id)}"
        )
        payload = dict(secret.payload)
        # The trooper's name is the hidden trooper's own canary (private_facts),
        # or public: a secret's words are the rest of its text.
        # A HoloMask's "masked_as" is what the opponent is meant to read.
        # A Holoecho's written positions are their own fact (private_facts):
        # public once Hidden Deployment ends (FAQ HD + Holoecho), while which
        # one is real stays sealed.
        text = {k: v for k, v in payload.items() if k not in ("name", "masked_as", "positions")}
        canaries = {secret.nonce, *TOKEN.findall(json.dumps(text))}
        position = None
        if payload.get("x") not in (None, "") and payload.get("y") not in (None, ""):
            position = (float(payload["x"]), float(payload["y"]))
        if "seed" in payload:
            canaries.add(payload["seed"])  # a Classified draw's seed (CL-2, CL-4)
        if kind_of(secret).names == CARD:
            # The owner's held-card form names the card beside this id.
            canaries.add(f'id="held-{secret.id}"')
        if not secret.existence_public:
            canaries.update({secret.id, secret.commitment, fingerprint(secret.commitment)})
            canaries.update({secret.trooper_id} if secret.trooper_id else set())
        discloses = set()
        if secret.revealed_rule == "owner":
            discloses = {str(payload.get("trooper_id", "")), *TOKEN.findall(json.dumps(payload))}
        out.append(
            Sealed(
                id=secret.id,
                seat=secret.seat,
                kind=secret.kind,
                revealed_at=revealed.get(secret.id),
                revealed_rule=secret.revealed_rule,
                canaries=canaries,
                fragment=pages.get(secret.seat, {}).get(secret.id, ""),
                discloses=discloses - {""},
                position=position,
                subject=str(subject_of(secret) or "") if kind_of(secret).names == TROOPER else "",
                linked=str(subject_of(secret) or "") if link_is_secret(secret) else "",
            )
        )
    return out


@dataclass
class Private:
    """Text that is not a sealed secret but is private until a public event:
    a hidden trooper's name and id until its Hidden Deployment ends, a draft
    list's names until it is locked."""

    seat: str
    open_at: int | None
    canaries: set[str]
    what: str = ""

    def open_to(self, viewer: str, seq: int) -> bool:
        return viewer == self.seat or (self.open_at is not None and seq >= self.open_at)


def _hiding(secret) -> bool:
    """A secret that keeps its trooper off the table (Hidden Deployment): where
    the trooper is (a POSITION kind), its very existence private and its link
    to the trooper the secret (the sealer's answer and the kind's
    registration, not its name). Until it opens, the trooper's name and id
    are its owner's."""
    return (
        kind_of(secret).names == POSITION
        and not secret.existence_public
        and link_is_secret(secret)
        and bool(secret.trooper_id)
    )


def _renames(kind) -> bool:
    """A kind that gives its trooper another name on the table (a HoloMask's
    troop type): TEXT sealed one per trooper, by its registration. Until its
    secret opens, the trooper's true name is its owner's; its id is public
    (the opponent names it by the text it shows)."""
    return kind.names == TEXT and kind.per_seat == ONE_PER_TROOPER


def _renaming(secret) -> bool:
    return _renames(kind_of(secret)) and bool(secret.trooper_id)


def _renamed(trooper) -> bool:
    """From its list on: a trooper a renaming kind is required for (its
    `required_for`) has no other name before its seal either."""
    return any(
        _renames(kind) and kind.required_for is not None and kind.required_for(trooper)
        for kind in SECRET_KINDS.values()
    )


def _ends(state: MatchState, revealed: dict[str, int], which) -> dict[str, int | None]:
    """trooper id -> the seq its first `which` secret opened (None: still sealed)."""
    ends: dict[str, int | None] = {}
    for secret in sorted(state.secrets.values(), key=lambda s: s.sealed_seq):
        if which(secret):
            seqs = [s for s in (ends.get(secret.trooper_id), revealed.get(secret.id)) if s]
            ends[secret.trooper_id] = min(seqs) if seqs else None
    return ends


def private_facts(state: MatchState, match, revealed: dict[str, int]) -> list[Private]:
    """Each trooper's name and id: a hidden one's until the secret that hides
    it opens (its HD position: HD-C1..C4, HD-4), a renamed one's true name
    until its seal opens, anyone else's until its army list is locked (a draft
    is private). Which secrets hide or rename a trooper comes from their
    registration (_hiding, _renaming), so a new kind of either is checked."""
    hidden_until = _ends(state, revealed, _hiding)
    renamed_until = _ends(state, revealed, _renaming)
    events = MatchEvent.objects.filter(match=match)
    locked = {
        json.loads(data)["seat"]: seq
        for seq, data in events.filter(kind="ArmyListLocked").values_list("seq", "data")
    }
    hidden_ids = {
        row["id"]
        for data in events.filter(kind="HiddenTroopersEnlisted").values_list("data", flat=True)
        for row in json.loads(data)["troopers"]
    }
    # HD-C3 + RT-5: a trooper placed as its Camouflage marker stays private
    # (name and id) until its marker state ends (MarkerRevealed), whatever
    # else was revealed meanwhile: "Camouflage marker 1" is all the opponent
    # may read. An HD reveal at the placement would now be caught.
    marker_end = {
        json.loads(data)["trooper_id"]: seq
        for seq, data in events.filter(kind="MarkerRevealed").values_list("seq", "data")
    }
    as_marker = {
        json.loads(data)["trooper_id"]
        for data in events.filter(kind="HiddenDeploymentEnded").values_list("data", flat=True)
        if json.loads(data).get("as_marker")
    }
    facts = []
    # FAQ (HD + Holoecho): when Hidden Deployment ends, both phones are shown
    # the three written positions to check; before, they are the owner's.
    # (Any secret's written "positions", whatever its kind.)
    shown_positions = {
        json.loads(data)["trooper_id"]: seq
        for seq, data in events.filter(kind="HiddenDeploymentEnded").values_list("seq", "data")
        if json.loads(data).get("positions")
    }
    for secret in state.secrets.values():
        positions = dict(secret.payload).get("positions")
        if positions:
            opened = [
                s for s in (shown_positions.get(secret.trooper_id), revealed.get(secret.id)) if s
            ]
            facts.append(
                Private(
                    secret.seat,
                    min(opened) if opened else None,
                    set(TOKEN.findall(json.dumps(positions))),
                    f"written positions of {secret.kind}",
                )
            )
    for trooper in state.troopers.values():
        words = {trooper.id, *TOKEN.findall(trooper.name)}
        if trooper.id in renamed_until or _renamed(trooper):
            # Its true name until the seal that renames it opens (HE-9).
            facts.append(
                Private(
                    trooper.seat,
                    renamed_until.get(trooper.id),
                    set(TOKEN.findall(trooper.name)),
                    "renamed trooper's true name",
                )
            )
            words = {trooper.id}  # its name is only the fact above
        if trooper.id in as_marker:
            facts.append(
                Private(trooper.seat, marker_end.get(trooper.id), words, "trooper under a marker")
            )
        elif trooper.id in hidden_ids:
            facts.append(
                Private(trooper.seat, hidden_until.get(trooper.id), words, "hidden trooper")
            )
        else:
            facts.append(Private(trooper.seat, locked.get(trooper.seat), words, "draft list"))
    return facts


def _forbidden(received: Received, sealed: list[Sealed], facts: list[Private]) -> dict:
    """canary -> what it belongs to, for what this viewer may not receive at
    this seq. A word shared with something already open to the viewer is
    allowed (a Holoecho re-sealed with the same choice as a revealed one)."""
    closed, opened = {}, set()
    for item in sealed:
        if item.open_to(received.viewer, received.seq):
            opened |= item.words | item.discloses
        else:
            for word in item.words:
                closed.setdefault(word, f"{item.kind} {item.id} of {item.seat}")
    for fact in facts:
        if fact.open_to(received.viewer, received.seq):
            opened |= fact.canaries
        else:
            for word in fact.canaries:
                closed.setdefault(word, f"{fact.what} of {fact.seat}")
    # A fragment inside text open to the viewer tells nothing more: a hidden
    # Lieutenant's "<strong>name</strong>" inside its revealed HD position.
    shown = [word for word in opened if "<" in word]
    return {
        word: what
        for word, what in closed.items()
        if word not in opened and not any(word in text for text in shown)
    }


def _closed_items(received: Received, sealed: list[Sealed]) -> list[str]:
    """Structural check of the secrets list: a secret the viewer may not open
    shows no payload, canonical text or nonce in its list item."""
    problems = []
    text = received.data.decode(errors="replace")
    for item in SECRET_ITEM.finditer(text):
        secret = next((s for s in sealed if s.id == item.group("id")), None)
        if secret is None or secret.open_to(received.viewer, received.seq):
            continue
        for marker in ('class="payload"', "data-canonical", "data-nonce", "The real one is"):
            if marker in item.group("body"):
                problems.append(f"{marker} in the list item of sealed {secret.kind} {secret.id}")
    return problems


def _closed_links(received: Received, sealed: list[Sealed]) -> list[str]:
    """Structural check of a secret's link to a trooper (#20): for every kind
    whose registration keeps that link secret, a closed secret's list item
    and its entry in a player export never carry the trooper's id, which is
    public on its own (its row): beside the secret, it says who the
    Lieutenant, the reserve or a Data Tracker-like choice is."""
    problems = []
    closed = {s.id: s for s in sealed if s.linked and not s.open_to(received.viewer, received.seq)}
    if not closed:
        return problems
    text = received.data.decode(errors="replace")
    for item in SECRET_ITEM.finditer(text):
        secret = closed.get(item.group("id"))
        if secret is not None and secret.linked in item.group("body"):
            problems.append(
                f"the trooper of sealed {secret.kind} {secret.id} named in its list item"
            )
    if b'"format": "infinity-tracker/player-view/' in received.data:
        export = json.loads(body_of(received.data))
        for seat in export["view"]["seats"]:
            for entry in seat["secrets"]:
                secret = closed.get(entry["id"])
                if secret is not None and secret.linked in json.dumps(entry):
                    problems.append(
                        f"the trooper of sealed {secret.kind} {secret.id} named in its export entry"
                    )
    return problems


def _closed_json(received: Received, sealed: list[Sealed]) -> list[str]:
    """A player export: a secret the viewer may not open has no payload/nonce."""
    if b'"format": "infinity-tracker/player-view/' not in received.data:
        return []
    export = json.loads(body_of(received.data))
    problems = []
    for seat in export["view"]["seats"]:
        for secret in seat["secrets"]:
            known = next((s for s in sealed if s.id == secret["id"]), None)
            opened = known is None or known.open_to(received.viewer, received.seq)
            if not opened and (secret["payload"] is not None or secret["nonce"] is not None):
                problems.append(f"payload or nonce of sealed {known.kind} {known.id}")
    return problems


# ------------------------------------------------------ normalised readings
#
# A canary must be found in whatever form a page, a frame, a header or an
# export could carry it: another case, HTML character references, JSON
# \u escapes, markup between its letters, base64. Each received item is read
# in all those ways; every canary is lowercased and unescaped the same way.

TAG = re.compile(r"<[^>]*>")
JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
B64_RUN = re.compile(rb"[A-Za-z0-9+/_-]{12,}={0,2}")


def _unescape(text: str) -> str:
    text = JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    text = text.replace('\\"', '"').replace("\\/", "/")
    return html.unescape(html.unescape(text))


def _base64_texts(data: bytes) -> list[str]:
    """Text hidden in base64 runs (standard or URL-safe, padded or not)."""
    found = []
    for run in B64_RUN.findall(data):
        bare = run.rstrip(b"=")
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                decoded = decode(bare + b"=" * (-len(bare) % 4))
            except (ValueError, binascii.Error):
                continue
            text = decoded.decode("utf-8", errors="ignore")
            if len(text) >= 6:
                found.append(text)
    return found


@dataclass
class Readings:
    """One received item, read every way a canary could hide in it."""

    marked: list[str]  # lowercased, unescaped, markup kept (for fragments)
    flat: list[str]  # the same with markup removed (for words and ids)

    @classmethod
    def of(cls, data: bytes, said: Iterable[str] = ()) -> Readings:
        """`said`: words players published (published_words), taken out of
        the text of every reading but not out of its markup: the same id in
        an attribute (id="secret-…") is no proof's text."""
        texts = [data.decode(errors="replace")]
        texts += _base64_texts(data)
        marked = [_unescape(text).lower() for text in texts]
        for words in said:
            outside_tags = re.compile(r"(<[^>]*>)|" + re.escape(_unescape(words).lower()))
            marked = [outside_tags.sub(lambda m: m.group(1) or " ", text) for text in marked]
        return cls(marked=marked, flat=[TAG.sub("", text) for text in marked])

    def find(self, canary: str) -> str | None:
        """The reading the canary is in, or None."""
        needle = _unescape(canary).lower()
        for text in self.marked if "<" in needle else self.marked + self.flat:
            if needle in text:
                return text
        return None


NUMBER = re.compile(r"(?<![\w.#-])(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)(\s*%)?(?![\w.])")
TABLE_MM = 1200  # the table map's side (templates/tracker/blocks/seal.html)
NEAR = 80  # characters between the two numbers of a position


def _means(value: float, percent: bool, coordinate: float) -> bool:
    """A number that could be this coordinate: itself (int, float, exponent),
    a percentage of the table's side, or a fraction of it."""
    if percent:
        return abs(value - coordinate * 100 / TABLE_MM) < 0.05
    if abs(value - coordinate) < 1e-6:
        return True
    return 0 < value < 1 and abs(value - coordinate / TABLE_MM) < 5e-4


def position_in(text: str, position: tuple[float, float]) -> str | None:
    """Both coordinates of a position, in any notation and order, within
    NEAR characters of each other: the context, or None."""
    x, y = position
    numbers = [
        (m.start(), float(m.group(1)), bool(m.group(2)))
        for m in NUMBER.finditer(text)
        if abs(float(m.group(1))) < 1e7
    ]
    xs = [at for at, value, pct in numbers if _means(value, pct, x)]
    ys = [at for at, value, pct in numbers if _means(value, pct, y)]
    for at_x in xs:
        for at_y in ys:
            if at_x != at_y and abs(at_x - at_y) <= NEAR:
                start = min(at_x, at_y)
                return text[max(0, start - 60) : start + NEAR + 40]
    return None


# -------------------------------------------------- the rows of the troopers

TAPPABLE = re.compile(r'id="trooper-(\w+)"[^>]*><button class="name">')
TROOPER_ROW = re.compile(r'<li class="trooper[^"]*" id="trooper-(\w+)"[^>]*>.*?</li>', re.S)
SEAT_BLOCK = re.compile(r'id="blk-seat_([AB])"')


def _public_badges() -> set[str]:
    """The badges a row shows for its public state (seat.html): conditions,
    tokens, Marker, Ignores Retreat!, Retreat! marker (and, by prefix, the Holoecho list and
    the Fireteam a trooper is in: both public, HE-10)."""
    from django.utils import translation
    from django.utils.translation import gettext

    from tracker.labels import LABELS
    from tracker.rules.state import CONDITIONS, TOKENS

    # In both languages: the harness reads Spanish and English phones, and a
    # check run outside a request must not depend on the language an earlier
    # test left active.
    badges = set()
    for language in ("en", "es"):
        with translation.override(language):
            badges |= {str(LABELS[c]) for c in (*CONDITIONS, *TOKENS)}
            # RT-2's marker is on the table beside each survivor: public.
            badges |= {gettext(b) for b in ("Marker", "Ignores Retreat!", "Retreat! marker")}
    return badges


SMALL = re.compile(r"<small>(\d+)?( G\d+)?</small>")
# A row that shows its points (trooper_row.html's <small> starts with them).
SHOWS_COST = re.compile(r"<small>\d")
OUT_OF_GROUPS = re.compile(r' data-cond="(dead|sepsitorized)"')


def row_shape(row: str, trooper_id: str) -> str:
    """A trooper row with what differs between any two troopers in the same
    public state taken out: its id, name, cost, group, and the badges and
    form choices of its public state. Two rows of the same shape look the
    same to whoever receives them."""
    public = _public_badges()
    shape = row.replace(trooper_id, "ID")
    # The name is a button where the viewer may set the trooper's state.
    shape = re.sub(r'<(span|button) class="name">.*?</\1>', r"<\1>NAME", shape, flags=re.S)
    # Its points and Combat Group, one <small> ("20 G1"; no points for a
    # marker or a masked trooper): which of the two it shows, not their values.
    # A Dead or Sepsitorized trooper shows no group (it belongs to none, the
    # Command Tokens FAQ): public, as its condition is.
    out = OUT_OF_GROUPS.search(shape) is not None
    shape = SMALL.sub(
        lambda m: f"<small>{'cost' if m[1] else ''}{' group' if m[2] or out else ''}</small>",
        shape,
    )

    def badge(m):
        text = TAG.sub("", m.group(2)).strip()
        public_prefix = text.startswith(("Holoecho:", "Fireteam "))
        return "" if text in public or public_prefix else m.group(0)

    # With the space before it: a row is one line (issue 18).
    shape = re.sub(r'\s*<span class="(badge[^"]*)">(.*?)</span>', badge, shape, flags=re.S)
    # Its public state as the page's State form is prefilled from (issue 18):
    # the condition, the tokens and RP-3's no room (public: both phones read
    # Immobilized-A and its ruling).
    shape = re.sub(r' data-(cond|tokens)="[^"]*"', "", shape)
    shape = shape.replace(" data-no-room", "")
    # A row in Holoecho (its State form offers no out-of-action condition,
    # HE-C4): public, as the row's "Holoecho:" badge above says the same.
    shape = shape.replace(" data-holoecho", "")
    return re.sub(r"\s+", " ", shape)


def _rows(text: str) -> list[tuple[str, str, str]]:
    """(seat, trooper id, row) for every trooper row in a page or frame."""
    rows = []
    for block_seat, block in _seat_blocks(text):
        for m in TROOPER_ROW.finditer(block):
            rows.append((block_seat, m.group(1), m.group(0)))
    return rows


def _seat_blocks(text: str) -> list[tuple[str, str]]:
    return [
        (name[-1], html_) for name, html_ in blocks_in(text).items() if name.startswith("blk-seat_")
    ]


def row_structure(received: list[Received], sealed: list[Sealed]) -> list[str]:
    """Whichever trooper is the Lieutenant, the reserve or any other
    registered trooper choice, the opponent's
    public rows are the same: the row of a trooper a closed choice names must
    have a shape that rows of troopers no choice names also have."""
    subjects = {s.subject for s in sealed if s.subject}
    usual: set[str] = set()
    checked = []
    for r in received:
        text = r.data.decode(errors="replace")
        if "trooper-" not in text:
            continue
        rows = [(seat, tid, row) for seat, tid, row in _rows(text) if seat != r.viewer]
        # A row can only stand out among others: a seat showing no trooper
        # but the one a choice names (a one-trooper list, the rest hidden)
        # has nothing to compare it with in this page or frame.
        # A marker's or a masked trooper's row shows no cost by design: it is
        # not a row a named trooper's could be mistaken for.
        compared = {
            seat for seat, tid, row in rows if tid not in subjects and SHOWS_COST.search(row)
        }
        for seat, trooper_id, row in rows:
            shape = row_shape(row, trooper_id)
            if trooper_id not in subjects:
                if SHOWS_COST.search(row):
                    usual.add(shape)
                continue
            closed = [
                s for s in sealed if s.subject == trooper_id and not s.open_to(r.viewer, r.seq)
            ]
            if closed and seat in compared:
                checked.append((r, closed[0], shape))
    problems = []
    for r, secret, shape in checked:
        if usual and shape not in usual:
            problems.append(
                f"{r.viewer} at seq {r.seq} ({r.what}): the row of the trooper sealed "
                f"{secret.kind} {secret.id} of {secret.seat} looks unlike any other row: {shape[:300]}"
            )
    return problems


def leaks(
    received: Iterable[Received],
    sealed: list[Sealed],
    facts: list[Private],
    published: dict[str, int] | None = None,
) -> list[str]:
    """Every place a canary reached a viewer before it could open it, in any
    of the forms Readings undoes; a sealed position in any notation; the row
    of a trooper a closed choice names set apart from the others. The words
    players published as written (published_words) are taken out of the
    text of what each viewer received from their publication on: a canary
    inside them is their writer's."""
    received = list(received)
    published = published or {}
    found = []
    for r in received:
        readings = None
        said = [text for text, seq in published.items() if seq <= r.seq]
        sent = _unescape(r.sent).lower()
        for word, what in _forbidden(r, sealed, facts).items():
            if _unescape(word).lower() in sent:
                continue  # an echo of what the viewer posted tells them nothing
            readings = readings or Readings.of(r.data, said)
            text = readings.find(word)
            if text is not None:
                at = text.find(_unescape(word).lower())
                context = text[max(0, at - 120) : at + 80]
                found.append(
                    f"{r.viewer} at seq {r.seq} ({r.what}): {what} -> {word!r} in …{context}…"
                )
        for secret in sealed:
            if secret.position is None or secret.open_to(r.viewer, r.seq):
                continue
            readings = readings or Readings.of(r.data, said)
            for text in readings.marked:
                context = position_in(text, secret.position)
                if context is not None:
                    found.append(
                        f"{r.viewer} at seq {r.seq} ({r.what}): position of {secret.kind} "
                        f"{secret.id} of {secret.seat} {secret.position} in …{context}…"
                    )
                    break
        for problem in (
            _closed_items(r, sealed) + _closed_json(r, sealed) + _closed_links(r, sealed)
        ):
            found.append(f"{r.viewer} at seq {r.seq} ({r.what}): {problem}")
    return found + row_structure(received, sealed)


# --------------------------------------------------------------- coverage

# What the harness must have seen accepted over a run of 50 matches or more:
# a harness that only ever gets refusals proves nothing about the paths those
# commands open (an ARO ending a Hidden Deployment, a Holoecho's reveal...).
MUST_BE_ACCEPTED = (
    "DeclareSkill",
    "DeclareAro",
    "ReportOutcome",
    "ActivateHoloecho",
    "EndOrder",
    "AdvancePhase",
    "RevealSecret",
    "SealNote",
)
# A form tapped this often and never accepted is broken (as the ARO form was).
ALWAYS_REFUSED_AFTER = 40


def coverage_of(table: Table) -> Counter:
    """Per command: how often it was offered, posted and accepted (its action
    id is in the log); token uses by rule; reveals by rule."""
    events = MatchEvent.objects.filter(match=table.match)
    accepted = set(events.values_list("action_id", flat=True))
    counts: Counter = Counter()
    for command, n in table.offered.items():
        counts[("offered", command)] += n
    for action_id, (command, shape, tampered) in table.commands.items():
        counts[("posted", command)] += 1
        counts[("accepted", command)] += action_id in accepted
        if not tampered:
            counts[("form posted", shape)] += 1
            counts[("form accepted", shape)] += action_id in accepted
    for data in events.filter(kind="CommandTokenSpent").values_list("data", flat=True):
        counts[("token use", json.loads(data)["use"])] += 1
    for data in events.filter(kind="SecretRevealed").values_list("data", flat=True):
        counts[("reveal", json.loads(data).get("rule") or "?")] += 1
    return counts


def uncovered(coverage: Counter) -> list[str]:
    """What a long enough run should have reached and did not."""
    missing = [
        f"{command}: never accepted ({coverage[('posted', command)]} posted)"
        for command in MUST_BE_ACCEPTED
        if not coverage[("accepted", command)]
    ]
    # A form posted untampered this often and never accepted is broken even
    # if another form of the same command works (the ARO form of a target
    # without Holoechoes, which did not send target_element).
    missing += [
        f"{shape}: posted {n} times as the page rendered it, never accepted"
        for (what, shape), n in sorted(coverage.items())
        if what == "form posted"
        and n >= ALWAYS_REFUSED_AFTER
        and not coverage[("form accepted", shape)]
    ]
    if not any(n for (what, _), n in coverage.items() if what == "token use"):
        missing.append("no Command Token was ever spent")
    if not any(n for (what, rule), n in coverage.items() if what == "reveal" and rule != "owner"):
        missing.append("no secret was ever revealed by a rule")
    return missing


def coverage_lines(coverage: Counter) -> list[str]:
    """A table for the terminal: command, offered, posted, accepted."""
    commands = sorted({c for (what, c) in coverage if what in ("offered", "posted")})
    lines = [f"{'command':<28}{'offered':>9}{'posted':>8}{'accepted':>10}"]
    for command in commands:
        lines.append(
            f"{command:<28}{coverage[('offered', command)]:>9}"
            f"{coverage[('posted', command)]:>8}{coverage[('accepted', command)]:>10}"
        )
    never = sorted(
        (n, shape)
        for (what, shape), n in coverage.items()
        if what == "form posted" and not coverage[("form accepted", shape)]
    )
    lines.append("forms never accepted: " + (", ".join(f"{s} x{n}" for n, s in never) or "none"))
    for what in ("token use", "reveal"):
        found = sorted((rule, n) for (kind, rule), n in coverage.items() if kind == what)
        lines.append(f"{what}s: " + (", ".join(f"{rule} {n}" for rule, n in found) or "none"))
    return lines


# ------------------------------------------------------------------ screens

SECTION_OPEN = re.compile(r'<section\b[^>]*\bid="(blk-[\w-]+)"[^>]*>')


def blocks_in(html: str) -> dict[str, str]:
    """The blocks (sections with a blk- id) of a page, a partial or a frame."""
    blocks = {}
    for opening in SECTION_OPEN.finditer(html):
        depth, at = 1, opening.end()
        while depth:
            nxt = re.search(r"<section\b|</section>", html[at:])
            if nxt is None:
                break
            depth += 1 if nxt.group(0) != "</section>" else -1
            at += nxt.end()
        blocks[opening.group(1)] = html[opening.start() : at]
    return blocks


# ------------------------------------------------------------------ a table

# How often a player taps each form when their page offers it. Forms that move
# the match on (and can end secrets) come up more often than corrections.
TAPS = {
    "AccomplishClassified": 3,
    "ExchangeClassified": 2,
    "DeclareSkill": 8,
    "DeclareAro": 8,
    "ReportOutcome": 5,
    "EndOrder": 6,
    "AdvancePhase": 4,
    "RevealSecret": 3,
    "ActivateHoloecho": 3,
    "SealNote": 2,
    "CoordinatedOrder": 2,
    "ChangeCombatGroup": 2,
    "StrategicSuppressiveFire": 2,
    # Ending the match early leaves nothing to reveal: rarely.
    "ProposeResult": 0.3,
    "ConfirmResult": 0.3,
    "DisputeResult": 0.3,
    "set_language": 0,  # the checks read English markers; i18n has its own tests
}
HTMX = {"HTTP_HX_REQUEST": "true"}
# Plain card names, not canary words: the deck is public (CL-1), so a card's
# secret is which seat holds it, caught by its owner's fragment and markers.
CLASSIFIED_DECK = ("Telemetry", "Test Run", "Data Scan", "Sabotage", "HVT: Designation")
KINDS = {
    "plain": [],
    "lieutenant": ["lieutenant_candidate"],
    "hd": ["hidden_deployment"],
    "hd_camo": ["hidden_deployment", "camouflage"],
    # A marker with Holoechoes: a rule may end its Holoecho seal while it is
    # still a marker (HE-C7), and the seal names the trooper under it. Random
    # play rarely gets there (not once in 200 matches with the fix undone):
    # tests/web/test_marker_holoecho_reveal.py plays that story itself.
    "hd_camo_he": ["hidden_deployment", "camouflage", "holoprojector"],
    "hd_inf": ["hidden_deployment", "infiltration"],
    "he": ["holoprojector"],
    "hd_he": ["hidden_deployment", "holoprojector"],
    "frenzy": ["frenzy"],
    # HoloMask (HE-9): the true troop type (its name here) is private.
    "mask": ["holomask"],
    "he_mask": ["holoprojector", "holomask"],
}


class Table:
    """One match: seat A, seat B, a spectator (a browser with the match link)
    and an anonymous visitor (no cookies at all), each with one socket kept
    for the whole match. Both players tap what their own screen offers (kept
    up to date from their HTTP responses and socket frames, as htmx does);
    every byte anyone receives goes to the recorder."""

    def __init__(self, rng, typist: Typist, creator: str = "A", classified: bool | None = None):
        self.rng, self.typist, self.creator = rng, typist, creator
        # Classified Objectives in this match: True/False, or None for random.
        self.classified = classified
        self.clients = {"A": Client(), "B": Client(), "spectator": Client()}
        self.viewers = list(VIEWERS)  # and "A-old"/"B-old" once a seat moves
        self.recorder = Recorder()
        self.screens: dict[str, dict[str, str]] = {"A": {}, "B": {}}
        # Each seat's page's one State form (issue 18): outside the blocks,
        # kept from the page's last load.
        self.state_forms: dict[str, Form] = {}
        self.sockets: dict[str, WebsocketCommunicator] = {}
        self.socket_seq: dict[str, int] = {}
        self.match: Match | None = None
        self.last_post: tuple | None = None
        self.action_ids = 0
        self.posts = 0
        self.offered: Counter = Counter()  # command -> how often a screen offered it
        # action id -> (command, the form's shape: its command and the names
        # it posted, whether a field was tampered with)
        self.commands: dict[str, tuple[str, str, bool]] = {}
        self.tampering = False

    # ------------------------------------------------------------ HTTP (sync)

    def client(self, viewer: str) -> Client:
        return self.clients.get(viewer) or Client()  # anonymous: never a cookie

    def seq(self) -> int:
        return Match.objects.values_list("seq", flat=True).get(pk=self.match.pk)

    def _record(
        self, viewer: str, what: str, response, sent: dict | None = None, wrote: tuple = ()
    ):
        data = response_bytes(response)
        assert response.status_code < 500, f"{what} answered {response.status_code}"
        self.recorder.add(viewer, self.seq(), what, data, json.dumps(sent or {}), wrote)
        if viewer in self.screens and response.status_code == 200:
            text = body_of(data).decode(errors="replace")
            self.screens[viewer].update(blocks_in(text))
            if "data-state-form" in text:
                self.state_forms[viewer] = next(
                    f for f in forms_in(text) if f.command == "SetTrooperState"
                )
        return response

    def get(self, viewer: str, path: str, htmx: bool = False):
        extra = HTMX if htmx else {}
        return self._record(viewer, f"GET {path}", self.client(viewer).get(path, **extra))

    def post(
        self,
        viewer: str,
        path: str,
        data: dict,
        htmx: bool = True,
        action_id=None,
        wrote: tuple[str, ...] = (),
    ):
        self.posts += 1
        if action_id is None:
            self.action_ids += 1
            action_id = f"leak{self.typist.tag}{self.action_ids:05d}"
        data = {"action_id": action_id, **data}
        self.last_post = (viewer, path, data, htmx)
        if "/act/" in path and viewer in ("A", "B") and action_id not in self.commands:
            command = path.rstrip("/").rsplit("/", 1)[-1]
            names = ",".join(sorted(k for k in data if k != "action_id"))
            self.commands[action_id] = (command, f"{command}({names})", self.tampering)
        client = self.client(viewer)
        response = client.post(path, data, **(HTMX if htmx else {}))
        self._record(viewer, f"POST {path}", response, data, wrote)
        if response.status_code == 302 and viewer in self.clients:
            self.get(viewer, response["Location"])
        return response

    def create(self):
        client = self.clients[self.creator]
        settings = {"name": "Leak test", "points_limit": 300, "rounds": 3, "table": "9"}
        if self.classified if self.classified is not None else self.rng.random() < 0.6:
            # Classified Objectives (CL-1) in most matches, some with an exchange.
            drawn = self.rng.choice([2, 3])
            settings.update(
                classified_drawn=drawn,
                classified_kept=self.rng.randint(1, drawn),
                classified_exchanges=self.rng.choice([0, 1]),
                classified_points=1,
                classified_deck="\n".join(CLASSIFIED_DECK),
            )
        response = client.post("/new/", settings)
        assert response.status_code == 302, response.content[:300]
        self.match = Match.objects.get(code=response["Location"].split("/")[2])
        self._record(self.creator, "POST /new/", response)
        for letter in "AB":
            seat = self.match.seats.get(letter=letter)
            path = f"/m/{self.match.code}/s/{seat.token}/"
            self.get(letter, path)
            self.post(letter, path, {"name": f"Player {letter}", "pin": "739164"}, htmx=False)

    @property
    def code(self) -> str:
        return self.match.code

    def forms(self, seat: str) -> list[Form]:
        screen = "".join(self.screens[seat].values())
        found = forms_in(screen)
        # The page's State form as a tap on a row's name opens it (app.js):
        # one form per such row, as each row had its own before issue 18.
        state = self.state_forms.get(seat)
        if state is not None:
            for trooper in TAPPABLE.findall(screen):
                fields = [
                    Field(f.name, f.kind, trooper) if f.name == "trooper_id" else f
                    for f in state.fields
                ]
                found.append(Form(action=state.action, fields=fields))
        return found

    def tap(self, seat: str, form: Form, data: dict | None = None, htmx: bool = True):
        if data is None:
            data = fill(form, self.rng, self.typist)
        return self.post(seat, form.action, data, htmx=htmx, wrote=written(form, data))

    def add_trooper(self, seat: str, kind: str):
        form = next(f for f in self.forms(seat) if f.action.endswith("/draft/add/"))
        data = fill(form, self.rng, self.typist)
        hidden = "hidden_deployment" in KINDS[kind]
        masked = "holomask" in KINDS[kind]
        data.update(
            name=self.typist.word("Hidden" if hidden else "Masked" if masked else "Trooper"),
            cost=str(self.rng.randint(5, 45)),
            combat_group=str(self.rng.choice([1, 1, 2])),
            silhouette=str(self.rng.choice([2, 2, 5])),
        )
        data["traits"] = KINDS[kind]
        return self.post(seat, form.action, data)

    def keep_classified(self, seat: str) -> None:
        """Keep as many drawn cards as the match says (CL-3), chosen at random."""
        form = self.first_form(seat, "KeepClassified")
        state = load_state(Match.objects.get(pk=self.match.pk))
        config = classified.config_of(state)
        if form is None or not config:
            return
        options = next(f.options for f in form.fields if f.name == "keep")
        data = {"keep": self.rng.sample(options, int(config["kept"]))}
        self.tap(seat, form, data)

    def first_form(self, seat: str, command: str) -> Form | None:
        return next((f for f in self.forms(seat) if f.command == command), None)

    def tap_first(self, seat: str, command: str):
        form = self.first_form(seat, command)
        if form is not None:
            self.tap(seat, form)

    def set_up(self, lists: dict[str, list[str]], to_orders: bool | None = None) -> list:
        """Lists, initiative and deployment through each player's own forms,
        as steps: the sockets are drained between them (a form may appear on
        a screen only with the frame for the opponent's last step)."""
        steps = [(self.add_trooper, seat, kind) for seat in "AB" for kind in lists[seat]]
        steps += [(self.tap_first, seat, "LockArmyList") for seat in "AB"]
        steps += [(self.tap_first, seat, "DrawClassified") for seat in "AB"]
        steps += [(self.keep_classified, seat) for seat in "AB"]
        steps.append((self.tap_first, self.rng.choice("AB"), "SetInitiative"))
        steps += [(self.tap_first, seat, "SealDeployment") for seat in self.rng.sample("AB", 2)]
        if to_orders or (to_orders is None and self.rng.random() < 0.7):
            # Order Count, TM-S2's moment, Tactical and Impetuous Phases.
            steps += [(self.to_orders,)] * 5
        return steps

    # ---------------------------------------------------------- random moves

    def known_ids(self) -> list[str]:
        """Ids a player with devtools might send: every trooper and secret of
        this match (even hidden ones: an error must not name them)."""
        state = load_state(Match.objects.get(pk=self.match.pk))
        return [*state.troopers, *state.secrets]

    def tamper(self, data: dict) -> dict:
        data = dict(data)
        keys = [k for k in data if k != "action_id"] or ["trooper_id"]
        key = self.rng.choice(keys)
        data[key] = self.rng.choice(
            [*self.known_ids(), "", "000000000000", "-1", "yes", self.typist.word("x" * 600)]
        )
        return data

    def active_seat(self) -> str | None:
        state = load_state(Match.objects.get(pk=self.match.pk))
        return state.turn.seat if state.turn else None

    def order_in_progress(self) -> bool:
        state = load_state(Match.objects.get(pk=self.match.pk))
        return bool(state.turn and state.turn.order)

    def play_form(self, seat: str) -> None:
        """The seat taps one of the forms its screen shows: a command is
        picked first (TAPS), then one of its forms, filled at random; now and
        then with a tampered field or as a plain (non-htmx) post."""
        rng = self.rng
        offered: dict[str, list[Form]] = {}
        for form in self.forms(seat):
            if TAPS.get(form.command, 1):
                offered.setdefault(form.command, []).append(form)
        if not offered:
            return
        self.offered.update(c for c in offered if "/act/" in offered[c][0].action)
        commands = sorted(offered)
        command = rng.choices(commands, [TAPS.get(c, 1) for c in commands])[0]
        form = rng.choice(offered[command])
        data = fill(form, rng, self.typist)
        self.tampering = rng.random() < 0.12
        if self.tampering:
            data = self.tamper(data)
        try:
            self.tap(seat, form, data, htmx=rng.random() < 0.85)
        finally:
            self.tampering = False

    # ----------------------------------------------- an Order, told through

    def _secretive_ids(self) -> set[str]:
        """Troopers whose secrets a declaration, an ARO or a report can end:
        Holoprojector bearers and hidden troopers (any seat)."""
        state = load_state(Match.objects.get(pk=self.match.pk))
        return {
            t.id
            for t in state.troopers.values()
            if t.hidden or "holoprojector" in t.traits or t.holoechoes
        }

    def steered_tap(self, seat: str, command: str, prefer: dict[str, list[str]]) -> None:
        """Tap the first `command` form on the seat's screen, filled at random
        but, for each field in `prefer`, with one of the preferred values the
        form offers (a player choosing which trooper acts, not a forged post)."""
        form = self.first_form(seat, command)
        if form is None:
            return
        data = fill(form, self.rng, self.typist)
        for f in form.fields:
            wanted = [o for o in f.options if o in prefer.get(f.name, [])]
            if wanted:
                data[f.name] = self.rng.choice(wanted)
        self.tap(seat, form, data)

    def story(self) -> list:
        """One Order as a table plays it, through the forms each phone shows:
        the active player declares with a Holoprojector bearer or a hidden
        trooper when they have one, the reactive player declares an ARO
        (with theirs when they can), someone reports an outcome on such a
        trooper, the Order ends, and the active player activates a Holoecho
        if their screen offers it. Random play reaches these paths too
        rarely to be sure of them in a run."""
        skills = ["bs_attack", "discover", "roll_skill", "cautious_move", "move", "entire_other"]
        outcomes = ["saving_roll", "discovered", "contact", "coherency"]

        def seats():
            active = self.active_seat() or "A"
            return active, "B" if active == "A" else "A"

        def declare():
            ids = list(self._secretive_ids())
            # Half the time an attack: a Holoecho bearer that attacks ends its
            # Holoecho at the end of the Order (HE-C1 + HE-T), and only then
            # may it activate Holoecho again (HE-A3), the step below.
            wanted = ["bs_attack"] if self.rng.random() < 0.5 else skills
            self.steered_tap(seats()[0], "DeclareSkill", {"trooper_id": ids, "skill": wanted})

        def token():
            # HE-9: a masked Holoecho trooper's Order ends only once its
            # Holoecho token is down.
            self.steered_tap(seats()[0], "PlaceHoloechoToken", {})

        def aro():
            ids = list(self._secretive_ids())
            self.steered_tap(seats()[1], "DeclareAro", {"trooper_id": ids})

        def report():
            ids = list(self._secretive_ids())
            seat = self.rng.choice(seats())
            self.steered_tap(seat, "ReportOutcome", {"trooper_id": ids, "outcome": outcomes})

        def end():
            self.steered_tap(seats()[0], "EndOrder", {})

        def holoecho():
            self.steered_tap(seats()[0], "ActivateHoloecho", {})

        def to_states():
            # HE-A2: in the States Phase Holoecho comes back without an Order
            # (HE-A3 needs an Entire Order, and the Pool may be spent).
            form = self.first_form(seats()[0], "AdvancePhase")
            if form is not None and "orders" in (form.fields[0].value if form.fields else ""):
                self.tap(seats()[0], form)

        return [
            (declare,),
            (aro,),
            (report,),
            (token,),
            (end,),
            (holoecho,),
            (to_states,),
            (holoecho,),
        ]

    def to_orders(self) -> None:
        """Most matches skip straight to the Orders Phase of the first Player
        Turn (where declarations end secrets), by the players' taps: one tap
        a step, so the sockets are drained between them (after the first
        Order Count the opponent's TM-S2 form arrives with a frame)."""
        seat = self.active_seat()
        if not seat:
            return
        form = self.first_form(seat, "AdvancePhase")
        if form is None:
            # After the first Order Count the opponent decides on TM-S2.
            other = "B" if seat == "A" else "A"
            decline = self.first_form(other, "DeclineStrategicUse")
            if decline is not None:
                self.tap(other, decline)
            return
        if "orders" in (form.fields[0].value if form.fields else ""):
            return
        self.tap(seat, form)

    def move(self):
        """One random move by someone at the table (sync part)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.75:
            active = self.active_seat() or rng.choice("AB")
            reactive = "B" if active == "A" else "A"
            # While an Order is declared the reactive player has the ARO form:
            # they tap as often as the active one then (AROs end secrets too).
            share = 0.5 if self.order_in_progress() else 0.2
            self.play_form(reactive if rng.random() < share else active)
        elif roll < 0.8 and self.last_post is not None:
            viewer, path, data, htmx = self.last_post
            self.post(viewer, path, dict(data), htmx=htmx, action_id=data["action_id"])
        elif roll < 0.85:
            viewer = rng.choice([v for v in self.viewers if v not in ("A", "B")])
            command = rng.choice(["DeclareSkill", "RevealSecret", "SealNote", "AdvancePhase"])
            self.post(viewer, f"/m/{self.code}/act/{command}/", {"trooper_id": "x"})
        else:
            viewer = rng.choice(self.viewers)
            path = rng.choice(
                [
                    f"/m/{self.code}/",
                    f"/m/{self.code}/blocks/",
                    f"/m/{self.code}/export.json",
                    f"/m/{self.code}/act/EndOrder/",  # GET: 405
                    f"/m/{self.code}x/",  # 404
                    f"/m/{self.code}/host/",
                ]
            )
            self.get(viewer, path, htmx=path.endswith("/blocks/"))

    def finale(self):
        """What everyone fetches at the end: their page (the seats' pages also
        give the owner's text of each secret), an htmx partial, an export."""
        for viewer in self.viewers:
            self.get(viewer, f"/m/{self.code}/")
        self.get(self.rng.choice(self.viewers), f"/m/{self.code}/blocks/", htmx=True)
        for viewer in ("A", "B", self.rng.choice([v for v in self.viewers if v not in "AB"])):
            self.get(viewer, f"/m/{self.code}/export.json")

    # ------------------------------------------------------- sockets (async)

    def _socket_headers(self, viewer: str) -> list:
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        client = self.clients.get(viewer)
        if client is not None and "sessionid" in client.cookies:
            cookie = f"sessionid={client.cookies['sessionid'].value}"
            headers.append((b"cookie", cookie.encode()))
        return headers

    async def _connect(self, viewer: str) -> None:
        socket = WebsocketCommunicator(
            application, f"/ws/m/{self.code}/", headers=self._socket_headers(viewer)
        )
        connected, _ = await socket.connect(timeout=10)
        assert connected, viewer
        self.sockets[viewer] = socket
        self.socket_seq[viewer] = -1

    async def connect(self):
        for viewer in VIEWERS:
            await self._connect(viewer)
        await self.settle()

    def _move_seat(self, seat: str, old: str) -> None:
        path = f"/m/{self.code}/s/{self.match.seats.get(letter=seat).token}/"
        self.clients[old], self.clients[seat] = self.clients[seat], Client()
        self.screens[seat] = {}
        self.get(seat, path)
        response = self.post(seat, path, {"pin": "739164"}, htmx=False)
        assert response.status_code == 302, response.status_code

    async def move_seat(self, seat: str | None = None) -> None:
        """A player moves their seat to a new phone with the PIN. The old
        phone keeps its cookies and its socket, and from the next push on is
        a spectator ("A-old"): none of the seat's secrets may reach it."""
        seat = seat or self.rng.choice("AB")
        old = f"{seat}-old"
        if old in self.clients:
            return
        self.sockets[old] = self.sockets.pop(seat)
        self.socket_seq[old] = self.socket_seq.pop(seat)
        self.viewers.append(old)
        await sync_to_async(self._move_seat)(seat, old)
        await self._connect(seat)

    async def _frame(self, viewer: str) -> None:
        # receive_from that times out cancels the app: wait long, it only
        # times out on a real failure.
        frame = await self.sockets[viewer].receive_from(timeout=10)
        seq = frame_seq(frame)
        self.recorder.add(viewer, seq, "frame", frame)
        self.socket_seq[viewer] = seq
        if viewer in self.screens:
            self.screens[viewer].update(blocks_in(frame))

    async def settle(self):
        """Take in the frames each socket owes for the current seq."""
        target = await sync_to_async(self.seq)()
        for viewer in self.sockets:
            while self.socket_seq[viewer] < target:
                await self._frame(viewer)

    async def socket_message(self):
        viewer = self.rng.choice(self.viewers)
        socket = self.sockets[viewer]
        if self.rng.random() < 0.6:
            await self.drain(viewer)
        else:
            junk = self.rng.choice(
                ['{"resync": false}', "[]", "resync", '{"seat": "A"}', "x" * 5000, "null"]
            )
            await self.drain(viewer)
            await socket.send_to(text_data=junk)
            if junk.startswith("{"):
                return  # an object without "resync": ignored, the socket stays
            # Any other bad frame closes the socket cleanly (4008; 4009 past
            # 2,048 characters: tracker/consumers.py, issue 22), and the phone
            # opens a new one, whose first frame sends every block again.
            while True:
                output = await socket.receive_output(timeout=10)
                if output["type"] == "websocket.close":
                    break
                frame = output["text"]  # one sent before the close
                self.recorder.add(viewer, frame_seq(frame), "frame", frame)
            assert output.get("code") == (4009 if len(junk) > 2048 else 4008), output
            with contextlib.suppress(Exception):
                await socket.disconnect()
            await self._connect(viewer)
            await self._frame(viewer)

    async def drain(self, viewer: str) -> None:
        """Take in every frame this socket still owes (see barrier)."""
        target = await sync_to_async(self.seq)()
        for frame in await barrier(self.sockets[viewer], target):
            seq = frame_seq(frame)
            self.recorder.add(viewer, seq, "frame", frame)
            self.socket_seq[viewer] = seq
            if viewer in self.screens:
                self.screens[viewer].update(blocks_in(frame))

    async def close(self):
        for viewer in self.viewers:
            await self.drain(viewer)
        for socket in self.sockets.values():
            await socket.disconnect()


async def play(table: Table, lists: dict, moves: int, story: bool | None = None) -> None:
    """A whole match: set-up, an Order told through (`story`, or half the
    time), `moves` random moves, the finale."""
    run = sync_to_async(lambda fn, *args: fn(*args))
    await run(table.create)
    await table.connect()
    for step in table.set_up(lists, to_orders=story):
        await run(*step)
        await table.settle()
    if story or (story is None and table.rng.random() < 0.5):
        for step in table.story():
            await run(*step)
            await table.settle()
    for _ in range(moves):
        roll = table.rng.random()
        if roll < 0.1:
            await table.socket_message()
        elif roll < 0.14:
            await table.move_seat()
        else:
            await run(table.move)
        await table.settle()
    await run(table.finale)
    await table.close()  # every socket asks for everything once more
