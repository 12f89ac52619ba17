"""The opponent's bytes must not betray a secret indirectly: counts, ids,
numbering, ordering or sizes that differ only because of the secret.

Twin matches are played through the real views and sockets, step for step
the same, except for one secret of Alice's:

- one list holds a trooper in Hidden Deployment (in the middle of the list,
  with its position sealed), the other does not (HD intro, HD-1, HD-3);
- Alice's real Holoecho and her Lieutenant differ (HE intro; the Lieutenant).

Everything Bob and a spectator receive (pages, htmx partials, websocket
frames, a refusal, a redirect and its message, Bob's export) is normalised
for what is random by design (match codes, trooper and secret ids, nonces,
commitments and fingerprints, block digests, CSRF tokens, cookies, times)
and must then be byte-identical between the twins, seq numbers included.
"""

from __future__ import annotations

import re
import types
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from tracker import actions
from tracker.asgi import application
from tracker.models import Match
from tracker.reading import load_state

from .leaks import barrier, frame_seq, response_bytes
from .table import claim, create_match, error_of, next_action_id

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("events_in_one_minute"),
]


@pytest.fixture
def events_in_one_minute(monkeypatch):
    """Every event of both twins written at one instant. The log shows a
    line's time only where a minute starts (tracker_tags.log_lines), so a
    twin whose play crossed a minute's end on the wall clock, and the other
    not, were sent different rows though nothing secret differed (a
    twelve-second play on a slow machine crossed one about once in five)."""
    instant = datetime(2026, 4, 18, 10, 0, 30, tzinfo=UTC)
    monkeypatch.setattr(actions, "timezone", types.SimpleNamespace(now=lambda: instant))


FAST_PINS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
NINJA = "Ninja-indirect-7c1e"
NINJA_AT = "indirect-canary behind the silo"


# ------------------------------------------------------------ normalising

RANDOM = [
    # Order matters: longer hex first, so a 64-digit commitment is one token.
    (re.compile(r"\b[0-9a-f]{64}\b"), "HASH"),
    (re.compile(r"\b[0-9a-f]{32}\b"), "NONCE"),
    (re.compile(r"\b[0-9a-f]{16}\b"), "DIGEST"),
    (re.compile(r"\b[0-9a-f]{12}\b"), "ID"),  # collectstatic's file names
    (re.compile(r"\b[0-9a-f]{8}\b"), "ID"),  # trooper ids (tracker/row_ids.py)
    (re.compile(r"\b[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}\b"), "FP"),
]
FIXED = [
    (
        re.compile(
            r"(csrfmiddlewaretoken\" value=\"|csrftoken=|sessionid=|X-CSRFToken\": \")[^\";\s]+"
        ),
        r"\1TOKEN",
    ),
    (re.compile(r"expires=[^;]+;"), "expires=DATE;"),
    # The HTTP Expires header of a page never cached (never_cache: now).
    (re.compile(r"Expires: [^\r\n]+"), "Expires: DATE"),
    # A signed message cookie: the text stays, its timestamp and signature go.
    (re.compile(r"(messages=[^:;\s]+):[^;\s]+"), r"\1:SIGNED"),
    (
        re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)?"),
        "DATETIME",
    ),
    (re.compile(r"\b\d{2}:\d{2}\b"), "HH:MM"),
]


class Normaliser:
    """Random values are replaced by placeholders numbered in order of first
    appearance: two streams that differ only in their random values become
    identical, while a different count, order or repetition still shows."""

    def __init__(self, match: Match):
        self.code = match.code
        self.seen: dict[str, str] = {}

    def __call__(self, data: bytes) -> str:
        text = data.decode().replace(self.code, "CODE")
        for pattern, replacement in FIXED:
            text = pattern.sub(replacement, text)
        for pattern, kind in RANDOM:
            text = pattern.sub(lambda m, kind=kind: self._name(m.group(0), kind), text)
        return text

    def _name(self, value: str, kind: str) -> str:
        if value not in self.seen:
            self.seen[value] = f"<{kind}{len(self.seen) + 1}>"
        return self.seen[value]


# ------------------------------------------------------------------ twins


@dataclass
class Twin:
    """One of two matches. Alice and Bob play; Bob and a spectator each keep
    one socket; everything Bob and the spectator receive is kept in order."""

    hidden: bool = False
    real: str = "marker1"
    lieutenant: str = "Kaplan"
    alice: Client = field(default_factory=Client)
    bob: Client = field(default_factory=Client)
    spectator: Client = field(default_factory=Client)
    match: Match | None = None
    received: list = field(default_factory=list)
    sockets: dict = field(default_factory=dict)
    socket_seq: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for client in (self.alice, self.bob, self.spectator):
            client.post = self._settling(client.post)

    def _settling(self, post):
        """`post`, returning only once Bob's and the spectator's sockets have
        their frames for the seq it made: each POST's pushes arrive on their
        own, in both twins alike. A push is rendered as soon as it is
        announced, so a step of several POSTs left to run on its own had its
        pushes folded or not by timing (a frame at seq 30, then one at 31,
        in one twin; one frame at 31 in the other)."""

        def post_and_settle(*args, **kwargs):
            response = post(*args, **kwargs)
            if self.sockets:
                target = Match.objects.get(pk=self.match.pk).seq
                async_to_sync(self._frames_up_to)(target)
            return response

        return post_and_settle

    # ----- sync steps: each returns nothing; what Bob/the spectator get is kept

    def keep(self, who: str, what: str, response) -> None:
        assert response.status_code < 500, (what, response.status_code)
        self.received.append((who, what, response_bytes(response)))

    def act(self, client: Client, command: str, htmx: bool = True, **data):
        path = f"/m/{self.match.code}/act/{command}/"
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        return client.post(path, {"action_id": next_action_id(), **data}, **extra)

    def bob_act(self, command: str, htmx: bool = True, refused: bool = False, **data):
        response = self.act(self.bob, command, htmx=htmx, **data)
        self.keep("bob", f"POST {command}", response)
        if response.status_code == 302:
            followed = self.bob.get(response["Location"])
            self.keep("bob", "redirected", followed)
            assert refused == ('<ul class="messages">' in followed.content.decode()), command
        else:
            assert refused == (error_of(response) is not None), (command, error_of(response))

    def alice_act(self, command: str, **data):
        response = self.act(self.alice, command, **data)
        assert error_of(response) is None, (command, error_of(response))

    def look(self) -> None:
        code = self.match.code
        self.keep("bob", "page", self.bob.get(f"/m/{code}/"))
        self.keep("bob", "partial", self.bob.get(f"/m/{code}/blocks/", HTTP_HX_REQUEST="true"))
        self.keep("spectator", "page", self.spectator.get(f"/m/{code}/"))
        self.keep(
            "anonymous", "partial", Client().get(f"/m/{code}/blocks/", HTTP_HX_REQUEST="true")
        )

    def ids(self) -> dict[str, str]:
        state = load_state(Match.objects.get(pk=self.match.pk))
        return {t.name: t.id for t in state.troopers.values()}

    def draft(self, client: Client, name: str, cost: int, traits=()) -> None:
        page = client.get(f"/m/{self.match.code}/").content.decode()
        row_id = re.search(r'name="row_id" value="([a-f0-9]{8})"', page).group(1)
        response = client.post(
            f"/m/{self.match.code}/draft/add/",
            {
                "row_id": row_id,
                "name": name,
                "cost": cost,
                "combat_group": 1,
                "silhouette": 2,
                "traits": list(traits),
            },
            HTTP_HX_REQUEST="true",
        )
        assert error_of(response) is None
        if client is self.bob:
            self.keep("bob", "draft", response)

    # ----- sockets

    async def connect(self) -> None:
        for who, client in (("bob", self.bob), ("spectator", self.spectator)):
            headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
            if "sessionid" in client.cookies:
                headers.append(
                    (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
                )
            socket = WebsocketCommunicator(
                application, f"/ws/m/{self.match.code}/", headers=headers
            )
            connected, _ = await socket.connect(timeout=10)
            assert connected
            self.sockets[who], self.socket_seq[who] = socket, -1
        await self.settle()

    async def settle(self) -> None:
        target = await sync_to_async(lambda: Match.objects.get(pk=self.match.pk).seq)()
        await self._frames_up_to(target)

    async def _frames_up_to(self, target: int) -> None:
        for who, socket in self.sockets.items():
            while self.socket_seq[who] < target:
                frame = await socket.receive_from(timeout=10)
                self.socket_seq[who] = frame_seq(frame)
                self.received.append((who, "frame", frame.encode()))

    async def close(self) -> None:
        """Every frame each socket still owes, through a resync answer (a
        condition, not a time window: see leaks.barrier), then disconnect."""
        target = await sync_to_async(lambda: Match.objects.get(pk=self.match.pk).seq)()
        for who, socket in self.sockets.items():
            for frame in await barrier(socket, target):
                self.received.append((who, "frame", frame.encode()))
            await socket.disconnect()


def alice_list(twin: Twin) -> list:
    rows = [
        ("Hassassin Ayyar", 40, ["holoprojector"]),
        ("Kaplan", 20, ["lieutenant_candidate"]),
        ("Zhanshi", 10, ["lieutenant_candidate"]),
    ]
    if twin.hidden:
        rows.insert(1, (NINJA, 30, ["hidden_deployment", "camouflage"]))
    return rows


def script(twin: Twin) -> list:
    """The steps both twins play, in order; the sockets drain between steps."""

    def start():
        twin.match = create_match(twin.alice, name="Twin")
        claim(twin.alice, twin.match, "A", "Alice")
        claim(twin.bob, twin.match, "B", "Bob")
        twin.spectator.get(f"/m/{twin.match.code}/")

    def lists():
        for name, cost, traits in alice_list(twin):
            twin.draft(twin.alice, name, cost, traits)
        twin.draft(twin.bob, "Fusilier", 10, ["lieutenant_candidate"])
        twin.draft(twin.bob, "Bolt", 15)
        twin.look()

    def lock_alice():
        twin.alice_act("LockArmyList")

    def lock_bob():
        twin.bob_act("LockArmyList")

    def initiative():
        twin.alice_act("SetInitiative", first_turn="A", deploys_first="A")

    def seal_alice():
        ids = twin.ids()
        sealed = {
            "lieutenant": ids[twin.lieutenant],
            f"holoecho_{ids['Hassassin Ayyar']}": twin.real,
        }
        if twin.hidden:
            sealed[f"hd_position_{ids[NINJA]}"] = NINJA_AT
        twin.alice_act("SealDeployment", **sealed)

    def seal_bob():
        twin.bob_act("SealDeployment", lieutenant=twin.ids()["Fusilier"])
        twin.look()

    def bob_refused():
        # Out of turn, and out of phase: refusals Bob sees, as partial and redirect.
        twin.bob_act("AdvancePhase", refused=True, expected="tactical")
        twin.bob_act("EndOrder", htmx=False, refused=True)
        twin.bob_act("RevealSecret", refused=True, secret_id="abcdef123456")

    def alice_to_orders():
        twin.alice_act("AdvancePhase", expected="tactical")  # the Order Count
        twin.bob_act("DeclineStrategicUse")  # TM-S2 passes
        twin.alice_act("AdvancePhase", expected="tactical")
        twin.alice_act("AdvancePhase", expected="impetuous")

    def alice_order():
        twin.alice_act("DeclareSkill", trooper_id=twin.ids()["Zhanshi"], skill="move")
        twin.look()

    def bob_aro():
        ids = twin.ids()
        twin.bob_act(
            "DeclareAro",
            trooper_id=ids["Fusilier"],
            skill="dodge",
            target_id=ids["Zhanshi"],
            target_element="",
        )

    def alice_ends_order():
        twin.alice_act("EndOrder")

    def alice_ends_turn():
        twin.alice_act("AdvancePhase", expected="orders")
        twin.alice_act("AdvancePhase", expected="states")
        twin.look()

    def bob_turn():
        twin.bob_act("AdvancePhase", expected="tactical")
        twin.bob_act("AdvancePhase", expected="impetuous")
        twin.bob_act("DeclareSkill", trooper_id=twin.ids()["Bolt"], skill="move")

    def alice_aro():
        ids = twin.ids()
        twin.alice_act(
            "DeclareAro",
            trooper_id=ids["Kaplan"],
            skill="dodge",
            target_id=ids["Bolt"],
            target_element="",
        )

    def bob_reports():
        # An outcome on one of Alice's troopers Bob can see (HE-D3 aside).
        twin.bob_act(
            "ReportOutcome", outcome="saving_roll", trooper_id=twin.ids()["Kaplan"], element=""
        )
        twin.bob_act("EndOrder")

    def export():
        twin.keep("bob", "export", twin.bob.get(f"/m/{twin.match.code}/export.json"))
        twin.look()

    return [
        lists,
        lock_alice,
        lock_bob,
        initiative,
        seal_alice,
        seal_bob,
        bob_refused,
        alice_to_orders,
        alice_order,
        bob_aro,
        alice_ends_order,
        alice_ends_turn,
        bob_turn,
        alice_aro,
        bob_reports,
        export,
    ], start


async def play(twin: Twin) -> None:
    steps, start = script(twin)
    await sync_to_async(start)()
    await twin.connect()
    for step in steps:
        await sync_to_async(step)()
        await twin.settle()
    await twin.close()


def streams(twin: Twin) -> list[tuple[str, str, str]]:
    normalise = Normaliser(twin.match)
    return [(who, what, normalise(data)) for who, what, data in twin.received]


def first_difference(left: list, right: list) -> str:
    for n, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b:
            at = (
                next(i for i, (x, y) in enumerate(zip(a[2], b[2], strict=False)) if x != y)
                if a[2] != b[2]
                else 0
            )
            return (
                f"item {n} ({a[0]} {a[1]} / {b[0]} {b[1]}) differs at {at}:\n"
                f"  {a[2][max(0, at - 150) : at + 150]!r}\n  {b[2][max(0, at - 150) : at + 150]!r}"
            )
    return f"{len(left)} items against {len(right)}"


async def played(**twin_args) -> Twin:
    twin = Twin(**twin_args)
    await play(twin)
    return twin


# ------------------------------------------------------------------- tests


async def test_a_hidden_trooper_changes_no_byte_the_opponent_or_a_spectator_receives(settings):
    """HD intro, HD-1, HD-3: with or without a hidden trooper (and its sealed
    position) in Alice's list, Bob and a spectator receive the same bytes: the
    same trooper counts, order and ids (up to renaming), Order Pool, event
    numbers, log lines, refusals and export."""
    settings.PASSWORD_HASHERS = FAST_PINS
    plain, hidden = await played(), await played(hidden=True)
    # The twins did differ where Alice looks.
    assert await sync_to_async(
        lambda: NINJA in hidden.alice.get(f"/m/{hidden.match.code}/").content.decode()
    )()
    left, right = streams(plain), streams(hidden)
    assert left == right, first_difference(left, right)
    everything = "".join(text for _who, _what, text in right)
    assert NINJA not in everything and NINJA_AT not in everything
    # Same numbering: the hidden trooper's private events take no extra seq.
    seqs = await sync_to_async(
        lambda: [Match.objects.get(pk=t.match.pk).seq for t in (plain, hidden)]
    )()
    assert seqs[0] == seqs[1]
    assert [w for w in left if w[1] == "frame"], "Bob's socket received frames"


async def test_the_real_holoecho_and_the_lieutenant_change_no_byte_the_opponent_receives(settings):
    """HE intro and the Lieutenant: Alice's choice of the real Holoecho and of
    her Lieutenant changes nothing Bob or a spectator receives, beyond the
    commitments (random by design) and until a rule or Alice reveals them."""
    settings.PASSWORD_HASHERS = FAST_PINS
    one = await played(real="marker1", lieutenant="Kaplan")
    other = await played(real="marker2", lieutenant="Zhanshi")
    left, right = streams(one), streams(other)
    assert left == right, first_difference(left, right)


async def test_the_twins_tell_apart_an_order_pool_that_counts_the_hidden_trooper(
    settings, monkeypatch
):
    """The comparison is not vacuous: were the hidden trooper's Order added to
    the Pool Bob sees (against HD-3), the twins would differ."""
    from tracker.rules import visibility

    settings.PASSWORD_HASHERS = FAST_PINS
    honest = visibility.order_pool

    def counts_hidden(troopers):
        troopers = list(troopers)
        regular, irregular = honest(troopers)
        hidden = sum(1 for t in troopers if t.hidden)
        return ({**regular, 1: regular.get(1, 0) + hidden} if hidden else regular), irregular

    monkeypatch.setattr(visibility, "order_pool", counts_hidden)
    left, right = streams(await played()), streams(await played(hidden=True))
    assert left != right


async def test_the_normaliser_still_sees_a_count_or_an_order_that_differs():
    """The comparison above can fail: renaming random values keeps counts,
    repetitions and order."""
    match = Match(code="abc")
    one, two = Normaliser(match), Normaliser(match)
    assert one(b"a1b2c3d4e5f6 0123456789ab") == two(b"ffffffffffff 000000000000")
    assert Normaliser(match)(b"a1b2c3d4e5f6 a1b2c3d4e5f6") != Normaliser(match)(
        b"a1b2c3d4e5f6 0123456789ab"
    )
    assert Normaliser(match)(b'<li id="t-a1b2c3d4e5f6">') != Normaliser(match)(
        b'<li id="t-a1b2c3d4e5f6"><li id="t-0123456789ab">'
    )
