"""Common match set-ups through the real views."""

from .table import error_of, seated

CANARY_POSITION = "canary-hd-position-7f3a behind the blue container"
CANARY_NINJA = "Ninja-canary-51c2"


def set_up(alice, bob, holoecho="marker2"):
    """Alice: a Holoprojector Hassassin, a hidden Ninja, a Lieutenant; Bob: two
    troopers. Both lists locked, Alice plays first, both deployments sealed."""
    a, b = seated(alice, bob)
    for args in (
        ("Hassassin Ayyar", 40, 1, 2, ["holoprojector"]),
        (CANARY_NINJA, 30, 1, 2, ["hidden_deployment", "camouflage"]),
        ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
    ):
        assert error_of(a.add_trooper(*args)) is None
    assert error_of(b.add_trooper("Fusilier", 10, traits=["lieutenant_candidate"])) is None
    assert error_of(b.add_trooper("Bolt", 15)) is None
    assert error_of(a.raw_post("LockArmyList")) is None
    assert error_of(b.raw_post("LockArmyList")) is None
    assert error_of(a.raw_post("SetInitiative", first_turn="A", deploys_first="A")) is None
    return a, b


def seal_both(a, b, state, holoecho="marker2"):
    ids = {t.name: t.id for t in state.troopers.values()}
    response = a.raw_post(
        "SealDeployment",
        lieutenant=ids["Kaplan"],
        **{
            f"hd_position_{ids[CANARY_NINJA]}": CANARY_POSITION,
            f"hd_x_{ids[CANARY_NINJA]}": "300",
            f"hd_y_{ids[CANARY_NINJA]}": "1000",
            f"holoecho_{ids['Hassassin Ayyar']}": holoecho,
        },
    )
    assert error_of(response) is None, error_of(response)
    response = b.raw_post("SealDeployment", lieutenant=ids["Fusilier"])
    assert error_of(response) is None, error_of(response)
    return ids
