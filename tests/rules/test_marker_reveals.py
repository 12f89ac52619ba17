"""HD-C3 + HE-C7: a rule may reveal a seal that names a trooper while that
trooper is still a Camouflage marker. Which trooper stands under the marker
is private until the marker state ends (docs/rules.md), so the opponent gets
the answer the rule gives (the real Holoecho) but not the seal's payload,
which names the trooper, nor its proof, until then."""

import json

from tracker.rules.orders import ReportOutcome
from tracker.rules.state import (
    CAMOUFLAGE,
    HD_POSITION,
    HIDDEN_DEPLOYMENT,
    HOLOECHO,
    HOLOPROJECTOR,
    LIEUTENANT_CANDIDATE,
    ORDERS,
)
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import SPECTRE_AT, army_b, declare, end_order, of_kind, secret, to_phase


def spectre_as_marker() -> Game:
    """Alice's hidden Spectre (Camouflage, Holoprojector) moves and is placed
    as "Camouflage marker 1" with its Holoechoes (HD-C3, FAQ HD + Holoecho)."""
    a = [
        trooper("Spectre", 40, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE, HOLOPROJECTOR]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    game = Game.started(
        a,
        army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Spectre": SPECTRE_AT},
            "holoecho": {"Spectre": "marker2"},
            "he_positions": {"Spectre": {"model": "roof", "marker1": "street", "marker2": "tower"}},
        },
    )
    to_phase(game, ORDERS)
    declare(game, "Spectre", "move", as_marker=True)
    return game


def everything_read_by(game, viewer) -> str:
    view = game.view(viewer)
    log = log_for(game.state, list(enumerate(game.events, 1)), viewer)
    return repr(view) + json.dumps([line.params for line in log], default=str)


def test_a_failed_coherency_of_the_real_holoecho_under_a_marker_does_not_name_it_he_c7():
    """HE-C7 ends Holoecho; it does not end the marker state (HD-C3 lists what
    does). Bob reports the failed check on the marker's real Holoecho: he is
    told it was the real one, not which trooper the marker is."""
    game = spectre_as_marker()
    spectre = game.trooper("Spectre")
    events = game.do(
        "B", ReportOutcome(outcome="coherency_final", trooper_id="markerA1", element="marker2")
    )
    assert of_kind(events, "HoloechoEnding")[0].real == "marker2"
    end_order(game)
    assert game.trooper("Spectre").marker  # still "Camouflage marker 1"
    assert not secret(game, "Spectre", HD_POSITION).revealed
    for viewer in ("B", None):
        seen = everything_read_by(game, viewer)
        assert "Spectre" not in seen and spectre.id not in seen
        sealed = {s.id: s for s in game.view(viewer).seat("A").secrets}
        holoecho = sealed[secret(game, "Spectre", HOLOECHO).id]
        assert holoecho.trooper_id == "markerA1" and holoecho.payload is None
        # The answer itself is public, by the marker's reference.
        log = log_for(game.state, list(enumerate(game.events, 1)), viewer)
        (ending,) = [line for line in log if line.kind == "HoloechoEnding"]
        assert ending.params["trooper_id"] == "markerA1" and ending.params["real"] == "marker2"
    # Its owner reads its own seal, revealed, with its proof.
    mine = {s.id: s for s in game.view("A").seat("A").secrets}
    assert mine[secret(game, "Spectre", HOLOECHO).id].verified


def test_the_holoecho_proof_is_shown_once_the_marker_state_ends_hd_c1():
    """When the marker is Discovered (HD-C1), both seals show, with their proofs."""
    game = spectre_as_marker()
    game.do("B", ReportOutcome(outcome="coherency_final", trooper_id="markerA1", element="marker2"))
    end_order(game)
    game.do("B", ReportOutcome(outcome="discovered", trooper_id="markerA1"))
    spectre = game.trooper("Spectre")
    assert not spectre.marker
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    holoecho = seen[secret(game, "Spectre", HOLOECHO).id]
    assert holoecho.revealed_rule == "HE-C7" and holoecho.verified
    assert holoecho.trooper_id == spectre.id and holoecho.payload["real"] == "marker2"
    assert seen[secret(game, "Spectre", HD_POSITION).id].verified
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    revealed = [line for line in log if line.kind == "SecretRevealed"]
    assert all("payload" in line.params for line in revealed)


def test_no_nonce_of_a_seal_naming_a_marker_reaches_the_opponent_hd_c3_he_c7():
    """HD-C3: while the Spectre is "Camouflage marker 1", a seal that names it
    and was revealed by a rule (HE-C7) reaches Bob without its payload and
    without its nonce. The nonce alone would do: with the commitment Bob holds
    and a payload of few choices (Alice's list is public, the real Holoecho
    one of three), he could try each trooper and read which one matches."""
    game = spectre_as_marker()
    game.do("B", ReportOutcome(outcome="coherency_final", trooper_id="markerA1", element="marker2"))
    end_order(game)
    assert game.trooper("Spectre").marker
    sealed = secret(game, "Spectre", HOLOECHO)
    for viewer in ("B", None):
        assert sealed.nonce not in everything_read_by(game, viewer)
        log = log_for(game.state, list(enumerate(game.events, 1)), viewer)
        (line,) = [x for x in log if x.kind == "SecretRevealed"]
        assert "nonce" not in line.params and "payload" not in line.params
    # Its owner reads the nonce beside her own seal, to check it.
    assert sealed.nonce in everything_read_by(game, "A")
