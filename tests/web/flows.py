"""Common match set-ups through the real views, each action tapped from a
form the seat's page rendered (table.Phone.submit -> tests/web/phone.py)."""

from .table import error_of, seated

CANARY_POSITION = "canary-hd-position-7f3a behind the blue container"
CANARY_NINJA = "Ninja-canary-51c2"


def set_up(alice, bob, holoecho="marker2"):
    """Alice: a Holoprojector Hassassin, a hidden Ninja, a Lieutenant; Bob: two
    troopers. Both lists locked, Alice plays first, both deployments sealed."""
    a, b = seated(alice, bob)
    for name, cost, traits in (
        ("Hassassin Ayyar", 40, ["holoprojector"]),
        (CANARY_NINJA, 30, ["hidden_deployment", "camouflage"]),
        ("Kaplan", 20, ["lieutenant_candidate"]),
    ):
        assert error_of(a.submit("draft/add", name=name, cost=str(cost), traits=traits)) is None
    added = b.submit("draft/add", name="Fusilier", cost="10", traits=["lieutenant_candidate"])
    assert error_of(added) is None
    assert error_of(b.submit("draft/add", name="Bolt", cost="15")) is None
    assert error_of(a.submit("LockArmyList")) is None
    assert error_of(b.submit("LockArmyList")) is None
    assert error_of(a.submit("SetInitiative", first_turn="A", deploys_first="A")) is None
    return a, b


def seal_both(a, b, state, holoecho="marker2"):
    ids = {t.name: t.id for t in state.troopers.values()}
    ninja = ids[CANARY_NINJA]
    response = a.submit(
        "SealDeployment",
        lieutenant=ids["Kaplan"],
        map_taps={f"hd_x_{ninja}": (300, 1000)},
        **{
            f"hd_position_{ninja}": CANARY_POSITION,
            f"holoecho_{ids['Hassassin Ayyar']}": holoecho,
        },
    )
    assert error_of(response) is None, error_of(response)
    response = b.submit("SealDeployment", lieutenant=ids["Fusilier"])
    assert error_of(response) is None, error_of(response)
    return ids
