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
"""

from __future__ import annotations

import json
import re
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
from tracker.rules.commitments import fingerprint
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
        if self._form is None or not attr.get("name"):
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
                data[f.name] = str(rng.randint(0, 1200))  # a tap on the table map
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


# -------------------------------------------------------------- recording


@dataclass
class Received:
    viewer: str
    seq: int  # the match's seq the bytes were rendered at
    what: str
    data: bytes
    sent: str = ""  # what the viewer posted: an echo of it tells them nothing


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


@dataclass
class Recorder:
    received: list[Received] = field(default_factory=list)

    def add(self, viewer: str, seq: int, what: str, data: bytes | str, sent: str = "") -> None:
        if isinstance(data, str):
            data = data.encode()
        self.received.append(Received(viewer, seq, what, data, sent))

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

    def open_to(self, viewer: str, seq: int) -> bool:
        return viewer == self.seat or (self.revealed_at is not None and seq >= self.revealed_at)

    @property
    def words(self) -> set[str]:
        return self.canaries | ({self.fragment} if self.fragment else set())


def reveal_seqs(match) -> dict[str, int]:
    """secret id -> seq of its SecretRevealed event, from the log itself."""
    rows = MatchEvent.objects.filter(match=match, kind="SecretRevealed").values_list("seq", "data")
    return {json.loads(data)["secret_id"]: seq for seq, data in rows}


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
        text = {k: v for k, v in payload.items() if k != "name"}
        canaries = {secret.nonce, *TOKEN.findall(json.dumps(text))}
        if payload.get("x") is not None and payload.get("y") is not None:
            canaries.add(f'cx="{payload["x"]}" cy="{payload["y"]}"')
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


def private_facts(state: MatchState, match, revealed: dict[str, int]) -> list[Private]:
    """Each trooper's name and id: a hidden one's until its Hidden Deployment
    ends (the reveal of its HD position: HD-C1..C4, HD-4), anyone else's until
    its army list is locked (a draft is private)."""
    hd_reveal = {
        secret.trooper_id: revealed.get(secret.id)
        for secret in state.secrets.values()
        if secret.kind == "hd_position"
    }
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
    facts = []
    for trooper in state.troopers.values():
        words = {trooper.id, *TOKEN.findall(trooper.name)}
        if trooper.id in hidden_ids:
            facts.append(Private(trooper.seat, hd_reveal.get(trooper.id), words, "hidden trooper"))
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


def leaks(received: Iterable[Received], sealed: list[Sealed], facts: list[Private]) -> list[str]:
    """Every place a canary reached a viewer before it could open it."""
    found = []
    for r in received:
        for word, what in _forbidden(r, sealed, facts).items():
            if word.encode() in r.data and word not in r.sent:
                at = r.data.find(word.encode())
                context = r.data[max(0, at - 120) : at + 80].decode(errors="replace")
                found.append(
                    f"{r.viewer} at seq {r.seq} ({r.what}): {what} -> {word!r} in …{context}…"
                )
        for problem in _closed_items(r, sealed) + _closed_json(r, sealed):
            found.append(f"{r.viewer} at seq {r.seq} ({r.what}): {problem}")
    return found


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
KINDS = {
    "plain": [],
    "lieutenant": ["lieutenant_candidate"],
    "hd": ["hidden_deployment"],
    "hd_camo": ["hidden_deployment", "camouflage"],
    "hd_inf": ["hidden_deployment", "infiltration"],
    "he": ["holoprojector"],
    "hd_he": ["hidden_deployment", "holoprojector"],
    "frenzy": ["frenzy"],
}


class Table:
    """One match: seat A, seat B, a spectator (a browser with the match link)
    and an anonymous visitor (no cookies at all), each with one socket kept
    for the whole match. Both players tap what their own screen offers (kept
    up to date from their HTTP responses and socket frames, as htmx does);
    every byte anyone receives goes to the recorder."""

    def __init__(self, rng, typist: Typist, creator: str = "A"):
        self.rng, self.typist, self.creator = rng, typist, creator
        self.clients = {"A": Client(), "B": Client(), "spectator": Client()}
        self.viewers = list(VIEWERS)  # and "A-old"/"B-old" once a seat moves
        self.recorder = Recorder()
        self.screens: dict[str, dict[str, str]] = {"A": {}, "B": {}}
        self.sockets: dict[str, WebsocketCommunicator] = {}
        self.socket_seq: dict[str, int] = {}
        self.match: Match | None = None
        self.last_post: tuple | None = None
        self.action_ids = 0
        self.posts = 0

    # ------------------------------------------------------------ HTTP (sync)

    def client(self, viewer: str) -> Client:
        return self.clients.get(viewer) or Client()  # anonymous: never a cookie

    def seq(self) -> int:
        return Match.objects.values_list("seq", flat=True).get(pk=self.match.pk)

    def _record(self, viewer: str, what: str, response, sent: dict | None = None):
        data = response_bytes(response)
        assert response.status_code < 500, f"{what} answered {response.status_code}"
        self.recorder.add(viewer, self.seq(), what, data, json.dumps(sent or {}))
        if viewer in self.screens and response.status_code == 200:
            self.screens[viewer].update(blocks_in(body_of(data).decode(errors="replace")))
        return response

    def get(self, viewer: str, path: str, htmx: bool = False):
        extra = HTMX if htmx else {}
        return self._record(viewer, f"GET {path}", self.client(viewer).get(path, **extra))

    def post(self, viewer: str, path: str, data: dict, htmx: bool = True, action_id=None):
        self.posts += 1
        if action_id is None:
            self.action_ids += 1
            action_id = f"leak{self.typist.tag}{self.action_ids:05d}"
        data = {"action_id": action_id, **data}
        self.last_post = (viewer, path, data, htmx)
        client = self.client(viewer)
        response = client.post(path, data, **(HTMX if htmx else {}))
        self._record(viewer, f"POST {path}", response, data)
        if response.status_code == 302 and viewer in self.clients:
            self.get(viewer, response["Location"])
        return response

    def create(self):
        client = self.clients[self.creator]
        response = client.post(
            "/new/", {"name": "Leak test", "points_limit": 300, "rounds": 3, "table": "9"}
        )
        assert response.status_code == 302, response.content[:300]
        self.match = Match.objects.get(code=response["Location"].split("/")[2])
        self._record(self.creator, "POST /new/", response)
        for letter in "AB":
            seat = self.match.seats.get(letter=letter)
            path = f"/m/{self.match.code}/s/{seat.token}/"
            self.get(letter, path)
            self.post(letter, path, {"name": f"Player {letter}", "pin": "1234"}, htmx=False)

    @property
    def code(self) -> str:
        return self.match.code

    def forms(self, seat: str) -> list[Form]:
        return forms_in("".join(self.screens[seat].values()))

    def tap(self, seat: str, form: Form, data: dict | None = None, htmx: bool = True):
        if data is None:
            data = fill(form, self.rng, self.typist)
        return self.post(seat, form.action, data, htmx=htmx)

    def add_trooper(self, seat: str, kind: str):
        form = next(f for f in self.forms(seat) if f.action.endswith("/draft/add/"))
        data = fill(form, self.rng, self.typist)
        hidden = "hidden_deployment" in KINDS[kind]
        data.update(
            name=self.typist.word("Hidden" if hidden else "Trooper"),
            cost=str(self.rng.randint(5, 45)),
            combat_group=str(self.rng.choice([1, 1, 2])),
            silhouette=str(self.rng.choice([2, 2, 5])),
        )
        data["traits"] = KINDS[kind]
        return self.post(seat, form.action, data)

    def first_form(self, seat: str, command: str) -> Form | None:
        return next((f for f in self.forms(seat) if f.command == command), None)

    def tap_first(self, seat: str, command: str):
        form = self.first_form(seat, command)
        if form is not None:
            self.tap(seat, form)

    def set_up(self, lists: dict[str, list[str]]) -> list:
        """Lists, initiative and deployment through each player's own forms,
        as steps: the sockets are drained between them (a form may appear on
        a screen only with the frame for the opponent's last step)."""
        steps = [(self.add_trooper, seat, kind) for seat in "AB" for kind in lists[seat]]
        steps += [(self.tap_first, seat, "LockArmyList") for seat in "AB"]
        steps.append((self.tap_first, self.rng.choice("AB"), "SetInitiative"))
        steps += [(self.tap_first, seat, "SealDeployment") for seat in self.rng.sample("AB", 2)]
        if self.rng.random() < 0.7:
            steps.append((self.to_orders,))
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
        commands = sorted(offered)
        command = rng.choices(commands, [TAPS.get(c, 1) for c in commands])[0]
        form = rng.choice(offered[command])
        data = fill(form, rng, self.typist)
        if rng.random() < 0.12:
            data = self.tamper(data)
        self.tap(seat, form, data, htmx=rng.random() < 0.85)

    def to_orders(self) -> None:
        """Most matches skip straight to the Orders Phase of the first Player
        Turn (where declarations end secrets), by the active player's taps."""
        for _ in range(4):
            seat = self.active_seat()
            form = self.first_form(seat, "AdvancePhase") if seat else None
            if seat and form is None:
                # After the first Order Count the opponent decides on TM-S2.
                other = "B" if seat == "A" else "A"
                decline = self.first_form(other, "DeclineStrategicUse")
                if decline is None:
                    return
                self.tap(other, decline)
                continue
            if form is None or "orders" in (form.fields[0].value if form.fields else ""):
                return
            self.tap(seat, form)

    def move(self):
        """One random move by someone at the table (sync part)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.75:
            active = self.active_seat() or rng.choice("AB")
            reactive = "B" if active == "A" else "A"
            self.play_form(active if roll < 0.55 else reactive)
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
        response = self.post(seat, path, {"pin": "1234"}, htmx=False)
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
            await socket.send_to(text_data=json.dumps({"resync": True}))
            await self._frame(viewer)
        else:
            junk = self.rng.choice(
                ['{"resync": false}', "[]", "resync", '{"seat": "A"}', "x" * 5000, "null"]
            )
            await socket.send_to(text_data=junk)

    async def close(self):
        for viewer, socket in self.sockets.items():
            assert await socket.receive_nothing(timeout=0.005), f"{viewer}: an unexpected frame"
            await socket.disconnect()


async def play(table: Table, lists: dict, moves: int) -> None:
    """A whole match: set-up, `moves` random moves, the finale."""
    run = sync_to_async(lambda fn, *args: fn(*args))
    await run(table.create)
    await table.connect()
    for step in table.set_up(lists):
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
    for viewer in table.viewers:
        await table.sockets[viewer].send_to(text_data=json.dumps({"resync": True}))
        await table._frame(viewer)
    await table.close()
