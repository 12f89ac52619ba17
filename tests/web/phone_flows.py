"""Match set-ups played on two phones, tapping only rendered forms.

Every step goes through tests/web/phone.py: the form must be on the page the
phone was just sent, and only the fields it renders can be filled.
"""

from __future__ import annotations

from tracker.models import Match
from tracker.reading import load_state

from .phone import Phone

CANARY_POSITION = "canary-hd-position-7f3a behind the blue container"
CANARY_NINJA = "Ninja-canary-51c2"

# (name, cost, group, silhouette, traits): the standard lists of the web tests.
ALICE_LIST = (
    ("Hassassin Ayyar", 40, 1, 2, ["holoprojector"]),
    (CANARY_NINJA, 30, 1, 2, ["hidden_deployment", "camouflage"]),
    ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
)
BOB_LIST = (
    ("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),
    ("Bolt", 15, 1, 2, []),
)


def ok(phone: Phone, response=None):
    """The last tap was not refused."""
    assert phone.error is None, phone.error
    return response


def seal(phone: Phone, **fields) -> None:
    """The player opens the phone and seals the deployment from its form
    (SealDeployment, filling `fields`); the tap is not refused."""
    phone.open()
    ok(phone, phone.submit("SealDeployment", **fields))


def seated(language_a: str | None = None, language_b: str | None = None, **match):
    """A host creates the match; Alice and Bob take seats A and B."""
    host = Phone()
    links = host.create_match(**match)
    a, b = Phone(language_a), Phone(language_b)
    a.claim(links["A"], "Alice")
    b.claim(links["B"], "Bob")
    return a, b


def add_trooper(phone: Phone, name, cost, group=1, silhouette=2, traits=()):
    phone.submit(
        "draft/add",
        name=name,
        cost=str(cost),
        combat_group=str(group),
        silhouette=str(silhouette),
        traits=list(traits),
    )
    return phone.error


def lists_locked(a: Phone, b: Phone, alice_list=ALICE_LIST, bob_list=BOB_LIST):
    for phone, rows in ((a, alice_list), (b, bob_list)):
        for row in rows:
            assert add_trooper(phone, *row) is None, phone.error
    for phone in (a, b):
        ok(phone, phone.submit("LockArmyList"))
    a.open()


def set_up(**match):
    """Alice: a Holoprojector Hassassin, a hidden Camouflaged Ninja, a
    Lieutenant; Bob: two troopers. Lists locked, Alice plays and deploys
    first: both phones on the deployment seal form."""
    a, b = seated(**match)
    lists_locked(a, b)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    b.open()
    return a, b


def trooper_ids(code: str | None = None) -> dict[str, str]:
    """Name -> id, from the state (a test's bookkeeping, not a phone's) of
    match `code`, or of the only match."""
    match = Match.objects.get(code=code) if code else Match.objects.get()
    return {t.name: t.id for t in load_state(match).troopers.values()}


def seal_both(a: Phone, b: Phone, holoecho="marker2", position=CANARY_POSITION):
    ids = trooper_ids(a.code)
    ninja = ids[CANARY_NINJA]
    seal(
        a,
        lieutenant="Kaplan",
        map_taps={f"hd_x_{ninja}": (300, 1000)},
        **{
            f"hd_position_{ninja}": position,
            f"holoecho_{ids['Hassassin Ayyar']}": holoecho,
        },
    )
    seal(b, lieutenant="Fusilier")
    a.open()
    return ids


def let_s2_pass(b: Phone | None) -> None:
    """The second player, asked at the end of the first Order Count, makes no
    Strategic Use (TM-S2) by tapping the form her phone shows."""
    if b is None:
        return
    b.open()
    if b.can("DeclineStrategicUse"):
        ok(b, b.submit("DeclineStrategicUse"))


def to_orders(a: Phone, b: Phone | None = None):
    """End the Tactical and Impetuous Phases from the active phone. The first
    tap in the Tactical Phase is the Order Count; in the first Turn of the
    match the opponent's phone `b` then lets TM-S2 pass."""
    a.open()
    for _ in range(4):
        phase = next(
            (p for p in ("tactical", "impetuous") if a.can("AdvancePhase", expected=p)), ""
        )
        if not phase:
            let_s2_pass(b)
            a.open()
            phase = next(
                (p for p in ("tactical", "impetuous") if a.can("AdvancePhase", expected=p)), ""
            )
            if not phase:
                return
        ok(a, a.submit("AdvancePhase", expected=phase))


def started(holoecho="marker1", **match):
    a, b = set_up(**match)
    ids = seal_both(a, b, holoecho=holoecho)
    to_orders(a, b)
    b.open()
    return a, b, ids
