"""Seals (DESIGN.md, Commitments): a seal is final, well formed and used once;
a reveal is made once, while the match is on."""

import pytest

from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.sealing import RevealSecret, SealDeployment, SealNote
from tracker.rules.setup import SetInitiative
from tracker.rules.state import FINISHED, HIDDEN_DEPLOYMENT, LIEUTENANT, PLAYING, RESERVE

from .game import Game, nonce, trooper
from .steps import advance


def listed():
    """Both lists locked; Alice plays first and deploys first."""
    game = Game.listed(
        [
            trooper("Kaplan", 20),
            trooper("Bolt", 15),
            trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT]),
        ],
        [trooper("Alguacil", 10), trooper("Moblot", 10)],
    )
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    return game


def raw(kind, trooper_id, n, **more):
    return {
        "id": f"raw{n:05d}",
        "nonce": nonce(7000 + n),
        "kind": kind,
        "trooper_id": trooper_id,
        **more,
    }


def secrets_of(game, seat):
    return sorted(s.id for s in game.state.secrets.values() if s.seat == seat)


def test_a_sealed_deployment_cannot_be_sealed_again():
    """A seal is final: nothing edits or adds to it before the opponent seals."""
    game = listed()
    game.seal("A", hd={"Ninja": "roof"})
    before = secrets_of(game, "A")
    with pytest.raises(NotAllowed):
        game.seal("A", lieutenant="Bolt", hd={"Ninja": "cellar"})
    assert secrets_of(game, "A") == before


def test_a_seat_seals_one_reserve_at_most_tm_s1():
    """TM-S1 reserves one more trooper, not two."""
    game = listed()
    with pytest.raises(InvalidInput):
        game.seal(
            "A",
            hd={"Ninja": "roof"},
            reserve="Bolt",
            extra=[{"kind": RESERVE, "trooper_id": game.id("Kaplan")}],
        )
    assert not game.state.seat("A").deployment_sealed
    assert game.state.seat("A").command_tokens == 4


def test_a_seal_cannot_take_the_id_of_a_secret_already_sealed():
    """Each secret has its own id: Bob cannot seal over one of Alice's."""
    game = listed()
    game.seal("A", hd={"Ninja": "roof"})
    alices = next(s for s in game.state.secrets.values() if s.kind == LIEUTENANT)
    taken = {**raw(LIEUTENANT, game.id("Alguacil"), 1), "id": alices.id}
    with pytest.raises(InvalidInput):
        game.do("B", SealDeployment(secrets=[taken]))
    assert game.state.secrets[alices.id].seat == "A"
    assert not game.state.seat("B").deployment_sealed


def test_a_nonce_shorter_than_128_bits_is_refused():
    """The commitment hides the payload only with a long enough random nonce."""
    game = listed()
    short = {**raw(LIEUTENANT, game.id("Alguacil"), 2), "nonce": "ab" * 15}
    with pytest.raises(InvalidInput):
        game.do("B", SealDeployment(secrets=[short]))
    game.do("B", SealDeployment(secrets=[{**short, "nonce": "ab" * 16}]))
    assert game.state.seat("B").deployment_sealed


@pytest.mark.parametrize(("x", "accepted"), [(1200, True), (1201, False)])
def test_a_written_map_point_must_be_on_the_table(x, accepted):
    """The default table is 120 x 120 cm; map taps are whole mm."""
    game = listed()
    secrets = [
        raw(LIEUTENANT, game.id("Kaplan"), 3),
        raw("hd_position", game.id("Ninja"), 4, position="roof", x=x, y=10),
    ]
    if accepted:
        game.do("A", SealDeployment(secrets=secrets))
        hd = next(s for s in game.state.secrets.values() if s.kind == "hd_position")
        assert (hd.payload["x"], hd.payload["y"]) == (x, 10)
    else:
        with pytest.raises(InvalidInput):
            game.do("A", SealDeployment(secrets=secrets))
        assert not game.state.seat("A").deployment_sealed


def test_a_reserve_revealed_by_its_owner_is_not_revealed_again_when_deployment_ends_tm_s1():
    game = listed()
    game.seal("A", hd={"Ninja": "roof"}, reserve="Bolt")
    reserve = next(s for s in game.state.secrets.values() if s.kind == RESERVE)
    game.do("A", RevealSecret(secret_id=reserve.id))
    game.seal("B")
    assert game.state.phase == PLAYING
    reveals = [e for e in game.events if e.kind == "SecretRevealed" and e.secret_id == reserve.id]
    assert [e.rule for e in reveals] == ["owner"]
    assert game.state.secrets[reserve.id].revealed_rule == "owner"


def test_no_secret_is_revealed_by_hand_once_the_match_is_over():
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)], rounds=1)
    while game.state.phase == PLAYING:
        advance(game)
    assert game.state.phase == FINISHED
    lieutenant = next(
        s for s in game.state.secrets.values() if s.kind == LIEUTENANT and s.seat == "A"
    )
    assert not lieutenant.revealed
    with pytest.raises(NotAllowed):
        game.do("A", RevealSecret(secret_id=lieutenant.id))
    assert not game.state.secrets[lieutenant.id].revealed


def test_a_note_cannot_take_the_id_of_a_seal_already_made_by_either_player():
    """A seal is final (DESIGN.md, Commitments). Bob sees the id of Alice's
    sealed Lieutenant beside its fingerprint; a note he seals under that id
    is refused, and Alice's Lieutenant stays hers, sealed, unchanged."""
    game = listed()
    game.seal("A", lieutenant="Kaplan", hd={"Ninja": "roof"})
    game.seal("B")
    lieutenant = next(s for s in game.state.secrets.values() if s.kind == LIEUTENANT)
    assert lieutenant.id in {s.id for s in game.view("B").seat("A").secrets}
    for seat in ("B", "A"):
        with pytest.raises(InvalidInput, match="malformed"):
            game.do(
                seat,
                SealNote(secret_id=lieutenant.id, label="Mine", text="x", nonce=nonce(9001)),
            )
    assert game.state.secrets[lieutenant.id] == lieutenant


def test_a_deployment_is_not_sealed_without_its_one_lieutenant():
    """Every army has a Lieutenant, sealed with the deployment (RT-1 later
    asks whether it survives): a deployment without one is refused by name,
    as is one with two, and nothing is sealed."""
    game = listed()
    hd = raw("hd_position", game.id("Ninja"), 1, position="roof")
    with pytest.raises(InvalidInput, match="Lieutenant"):
        game.do("A", SealDeployment(secrets=[hd]))
    twice = [
        hd,
        raw(LIEUTENANT, game.id("Kaplan"), 2),
        raw(LIEUTENANT, game.id("Bolt"), 3),
    ]
    with pytest.raises(InvalidInput):
        game.do("A", SealDeployment(secrets=twice))
    assert not game.state.seat("A").deployment_sealed and secrets_of(game, "A") == []
