"""Results: both players confirm objective points and army points alive from
their phones; a disagreement marks the match disputed for the organizer."""

import pytest
from bs4 import BeautifulSoup
from django.utils import translation
from django.utils.html import escape

from tests.rules.game import Game, trooper
from tests.rules.steps import advance
from tests.web.organizer_table import fresh, playing, text_of
from tests.web.organizer_table import play_out as play_out_phones
from tests.web.rendered_forms import submit_on
from tests.web.table import error_of
from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.results import ConfirmResult, DisputeResult, ProposeResult, result_of
from tracker.rules.state import FINISHED, LIEUTENANT_CANDIDATE, PLAYING


def started_game():
    return Game.started(
        a=[trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE])],
        b=[trooper("Fusilier", 10, traits=[LIEUTENANT_CANDIDATE])],
    )


def propose(game, seat, op=(7, 3), ap=(15, 9)):
    return game.do(
        seat, ProposeResult(objective_a=op[0], objective_b=op[1], army_a=ap[0], army_b=ap[1])
    )


def play_to_the_end(game, limit=50):
    while game.state.phase == PLAYING and limit:
        limit -= 1
        advance(game)


# ------------------------------------------------------------ pure rules


def test_confirmed_result_ends_the_match_when_time_is_called():
    game = started_game()
    assert game.state.phase == PLAYING
    propose(game, "A")
    seq = result_of(game.state)["proposal_seq"]
    game.do("B", ConfirmResult(proposal=seq))
    record = result_of(game.state)
    assert record["status"] == "confirmed"
    assert record["objective_points"] == {"A": 7, "B": 3}
    assert record["army_points"] == {"A": 15, "B": 9}
    assert game.state.phase == FINISHED


def test_the_proposer_cannot_confirm_their_own_result():
    game = started_game()
    propose(game, "A")
    with pytest.raises(NotAllowed):
        game.do("A", ConfirmResult(proposal=result_of(game.state)["proposal_seq"]))


def test_a_stale_confirmation_of_a_replaced_proposal_is_refused():
    game = started_game()
    propose(game, "A")
    old = result_of(game.state)["proposal_seq"]
    propose(game, "A", op=(6, 4))
    with pytest.raises(NotAllowed):
        game.do("B", ConfirmResult(proposal=old))


def test_entering_the_same_numbers_as_the_opponent_confirms_them():
    game = started_game()
    propose(game, "A")
    events = propose(game, "B")
    assert [e.kind for e in events] == ["ResultConfirmed", "MatchEnded"]
    assert result_of(game.state)["status"] == "confirmed"


def test_a_counter_proposal_replaces_the_pending_one():
    game = started_game()
    propose(game, "A")
    propose(game, "B", op=(5, 5))
    record = result_of(game.state)
    assert record["status"] == "proposed" and record["proposed_by"] == "B"
    assert record["objective_points"] == {"A": 5, "B": 5}


def test_disputing_closes_the_disputed_numbers_not_the_result():
    game = started_game()
    propose(game, "A")
    disputed = result_of(game.state)["proposal_seq"]
    game.do("B", DisputeResult(proposal=disputed, reason="No"))
    assert result_of(game.state)["status"] == "disputed"
    for command in (ConfirmResult(proposal=disputed), DisputeResult(proposal=disputed)):
        with pytest.raises(NotAllowed, match="disputed"):
            game.do("B", command)
    propose(game, "B", op=(5, 3))
    assert result_of(game.state)["status"] == "proposed"


@pytest.mark.parametrize(
    "op, ap",
    [((11, 0), (0, 0)), ((-1, 0), (0, 0)), ((0, 0), (301, 0)), ((0, 0), (0, -5))],
)
def test_points_out_of_range_are_refused(op, ap):
    game = started_game()
    with pytest.raises(InvalidInput):
        propose(game, "A", op=op, ap=ap)
    assert result_of(game.state) is None


def test_no_result_before_the_match_is_played():
    game = Game.listed([trooper("X", 10)], [trooper("Y", 10)])
    with pytest.raises(NotAllowed):
        propose(game, "A")


def test_a_result_after_the_last_round_keeps_the_match_finished():
    game = Game.started(
        a=[trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE])],
        b=[trooper("Fusilier", 10, traits=[LIEUTENANT_CANDIDATE])],
        rounds=1,
    )
    play_to_the_end(game)
    assert game.state.phase == FINISHED
    propose(game, "B")
    events = game.do("A", ConfirmResult(proposal=result_of(game.state)["proposal_seq"]))
    assert [e.kind for e in events] == ["ResultConfirmed"]


# ------------------------------------------------------ through the phones


def translated(msgid: str, language: str) -> str:
    with translation.override(language):
        return translation.gettext(msgid)


def propose_on_phone(phone, op=(7, 3), ap=(90, 25)):
    return phone.submit(
        "ProposeResult", objective_a=op[0], objective_b=op[1], army_a=ap[0], army_b=ap[1]
    )


@pytest.mark.django_db
def test_both_players_confirm_the_result_from_their_phones(alice, bob):
    a, b = playing(alice, bob)
    play_out_phones(a, b)
    assert error_of(propose_on_phone(a)) is None
    page_b = text_of(b.page())
    assert "Alice proposes this result. Is it right?" in page_b
    assert "Proposed result: Alice 7 – 3 Bob objective points; army points alive 90 – 25." in page_b
    assert "Waiting for your opponent to confirm" in text_of(a.page())
    proposal = fresh(a.match).result["proposal_seq"]
    assert error_of(b.submit("ConfirmResult", proposal=proposal)) is None
    match = fresh(a.match)
    assert match.status == Match.Status.FINISHED
    assert match.result["status"] == "confirmed"
    assert match.result["objective_points"] == {"A": 7, "B": 3}
    for phone in (a, b):
        text = text_of(phone.page())
        assert "Result: Alice 7 – 3 Bob objective points; army points alive 90 – 25." in text
        assert "Both players confirmed the result." in text


@pytest.mark.django_db
def test_time_called_a_confirmed_result_finishes_a_match_in_play(alice, bob):
    a, b = playing(alice, bob, rounds=3)
    assert error_of(propose_on_phone(b, op=(4, 6))) is None
    assert error_of(a.submit("ConfirmResult")) is None
    assert fresh(a.match).status == Match.Status.FINISHED
    assert load_state(fresh(a.match)).phase == FINISHED


@pytest.mark.django_db
def test_a_disagreement_marks_the_match_disputed_on_the_organizers_list(alice, bob, carol):
    a, b = playing(alice, bob)
    play_out_phones(a, b)
    assert error_of(propose_on_phone(a)) is None
    proposal = fresh(a.match).result["proposal_seq"]
    response = b.submit("DisputeResult", proposal=proposal, reason="I held the objective")
    assert error_of(response) is None
    match = fresh(a.match)
    assert match.status == Match.Status.DISPUTED
    assert match.result["status"] == "disputed" and match.result["disputed_by"] == "B"
    for phone in (a, b):
        assert "The result is disputed. Talk it over" in text_of(phone.page())
    listed = carol.get("/organizer/", {"status": "disputed"}).content.decode()
    assert f"/organizer/matches/{match.code}/" in listed
    assert "1 disputed match waits for you." in text_of(carol.get("/organizer/").content.decode())
    audit = text_of(carol.get(f"/organizer/matches/{match.code}/").content.decode())
    assert "I held the objective" in audit and "Bob disputed the proposed result" in audit


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_audit_header_says_disputed_once(alice, bob, carol, language):
    """The match's status and its result's were two badges of one word."""
    a, b = playing(alice, bob)
    play_out_phones(a, b)
    assert error_of(propose_on_phone(a)) is None
    proposal = fresh(a.match).result["proposal_seq"]
    assert error_of(b.submit("DisputeResult", proposal=proposal, reason="No")) is None
    carol.cookies["django_language"] = language
    page = carol.get(f"/organizer/matches/{a.match.code}/").content.decode()
    header = BeautifulSoup(page, "lxml").select_one("p.meta")
    badges = [" ".join(b.get_text().split()) for b in header.select(".badge")]
    assert badges == [translated("disputed", language)]
    # Confirmed: the match's "finished" and the result's "confirmed" both say something.
    a2, b2 = playing(alice, bob)
    play_out_phones(a2, b2)
    assert error_of(propose_on_phone(a2)) is None
    assert (
        error_of(b2.submit("ConfirmResult", proposal=fresh(a2.match).result["proposal_seq"]))
        is None
    )
    page = carol.get(f"/organizer/matches/{a2.match.code}/").content.decode()
    header = BeautifulSoup(page, "lxml").select_one("p.meta")
    badges = [" ".join(b.get_text().split()) for b in header.select(".badge")]
    assert badges == [translated("finished", language), translated("confirmed", language)]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_after_a_dispute_the_players_propose_again_and_agree(alice, bob, carol, language):
    """A dispute left the match disputed for good: neither player could
    propose again, and at a casual night with no organizer the match never
    had a result. The disputed numbers can no longer be confirmed, but
    either player proposes again from the page, the match leaves the
    organizers' list, and the opponent confirms the new numbers."""
    for client in (alice, bob):
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    a, b = playing(alice, bob, rounds=3)
    assert error_of(propose_on_phone(a)) is None
    assert error_of(b.submit("DisputeResult")) is None
    play_out_phones(a, b)
    assert load_state(fresh(a.match)).phase == FINISHED
    assert fresh(a.match).status == Match.Status.DISPUTED
    said = translated(
        "The result is disputed. Talk it over: either of you may propose it again below, "
        "or call an organizer to settle it.",
        language,
    )
    for phone in (a, b):
        assert said in text_of(phone.page())
        assert phone.phone.can("ProposeResult") and not phone.phone.can("ConfirmResult")
    stale = b.raw_post("ConfirmResult", proposal=fresh(a.match).result["proposal_seq"])
    assert error_of(stale) == translated(
        "The result is disputed: propose it again once you agree, or an organizer settles it.",
        language,
    )

    assert error_of(propose_on_phone(b, op=(5, 3))) is None
    assert fresh(a.match).status == Match.Status.FINISHED  # off the organizers' list
    listed = carol.get("/organizer/", {"status": "disputed"}).content.decode()
    assert f"/organizer/matches/{a.match.code}/" not in listed
    assert error_of(a.submit("ConfirmResult")) is None
    match = fresh(a.match)
    assert match.status == Match.Status.FINISHED
    assert match.result["status"] == "confirmed"
    assert match.result["objective_points"] == {"A": 5, "B": 3}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data, message",
    [
        ({"objective_a": "abc"}, "Objective points must be a whole number."),
        ({"army_b": ""}, "Army points alive must be a whole number."),
        ({"objective_a": "11"}, "Objective points must be between 0 and 10."),
        ({"army_b": "301"}, "Army points alive must be between 0 and 300."),
        # Alice's own army past her whole list (90 points): only she knows
        # that total, so the server checks it (a slip for 9, sent raw).
        ({"army_a": "91"}, "Your army points alive (your whole list) must be between 0 and 90."),
        ({"army_b": None}, "Some information is missing; reload the page."),
    ],
)
def test_bad_result_input_forged_is_explained_and_changes_nothing(alice, bob, data, message):
    """Input a page's number fields would not send (raw posts)."""
    a, _b = playing(alice, bob)
    payload = {"objective_a": 7, "objective_b": 3, "army_a": 90, "army_b": 25}
    payload.update(data)
    payload = {k: v for k, v in payload.items() if v is not None}
    before = fresh(a.match).seq
    assert message in error_of(a.raw_post("ProposeResult", **payload))
    assert fresh(a.match).seq == before and fresh(a.match).result is None


@pytest.mark.django_db
def test_attack_an_empty_result_box_is_named_by_its_label_in_spanish(alice, bob):
    """A browser that skips the boxes' required check sent one empty: the
    refusal named the box by its field name ("objective_a debe ser...")."""
    a, _b = playing(alice, bob)
    alice.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    sent = a.raw_post("ProposeResult", objective_a="", objective_b=3, army_a=90, army_b=25)
    assert error_of(sent) == "Puntos de Objetivo: escribe un número entero."
    confirm = a.raw_post("ConfirmResult", proposal="")
    assert error_of(confirm) == "Falta información; recarga la página."
    assert fresh(a.match).result is None


@pytest.mark.django_db
def test_a_stale_confirmation_is_refused_with_a_message(alice, bob):
    """Bob's page still shows the first proposal when Alice replaces it."""
    a, b = playing(alice, bob)
    assert error_of(propose_on_phone(a)) is None
    stale = b.phone.form("ConfirmResult")
    assert error_of(propose_on_phone(a, op=(6, 4))) is None
    b.phone.send(stale)
    assert "has changed" in b.phone.error
    assert fresh(a.match).result["status"] == "proposed"


@pytest.mark.django_db
def test_spectators_cannot_report_a_result(alice, bob, mallory):
    a, _b = playing(alice, bob)
    response = mallory.post(
        f"/m/{a.match.code}/act/ProposeResult/",
        {"objective_a": 10, "objective_b": 0, "army_a": 1, "army_b": 1},
    )
    assert response.status_code == 403
    assert fresh(a.match).result is None


@pytest.mark.django_db
def test_a_settled_result_reads_as_the_result_on_both_phones(alice, bob, carol):
    """Once the organizer settles a dispute, the phones' result line carries
    the ruling's numbers: it must not call them a proposal."""
    a, b = playing(alice, bob)
    play_out_phones(a, b)
    assert error_of(propose_on_phone(a)) is None
    proposal = fresh(a.match).result["proposal_seq"]
    assert error_of(b.submit("DisputeResult", proposal=proposal, reason="5 OP, not 4")) is None
    response = submit_on(
        carol, f"/organizer/matches/{a.match.code}/", "/settle/", objective_b=5, reason="Checked"
    )
    assert response.status_code == 302
    assert fresh(a.match).result["status"] == "settled"
    for phone in (a, b):
        line = BeautifulSoup(phone.page(), "lxml").select_one(".result-line")
        said = " ".join(line.get_text(" ").split())
        assert said.startswith("Result:") and "Proposed" not in said, said


@pytest.mark.django_db
def test_the_same_proposal_sent_again_from_another_tab_keeps_the_opponents_confirm(alice, bob):
    """Alice proposes, then her other tab (its page from before the
    proposal) sends the very same numbers. Bob's Confirm, on the page that
    shows those numbers, was refused with "The proposed result has changed"
    (the second send made a new proposal): nothing had changed."""
    a, b = playing(alice, bob)
    play_out_phones(a, b)
    other_tab = a.phone.form("ProposeResult")
    assert error_of(propose_on_phone(a)) is None
    confirm = b.phone.form("ConfirmResult")
    other_tab.fill({"objective_a": 7, "objective_b": 3, "army_a": 90, "army_b": 25})
    a.phone.send(other_tab)
    assert a.phone.error is None
    assert "Waiting for your opponent to confirm" in text_of(a.page())
    b.phone.send(confirm)
    assert b.phone.error is None
    assert fresh(a.match).result["status"] == "confirmed"
    assert "Both players confirmed the result." in text_of(b.page())


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_dispute_s_reason_reaches_both_phones(alice, bob, language):
    """The reason typed under "It is wrong: dispute it" reached only the
    organizer's audit: at a casual night with no organizer, the proposer
    never learnt what the opponent objects to. It is the record's, public."""
    for client in (alice, bob):
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    a, b = playing(alice, bob, rounds=3)
    assert error_of(propose_on_phone(a)) is None
    assert error_of(b.submit("DisputeResult", reason="Bolt <b>survived</b>")) is None
    with translation.override(language):
        said = translation.gettext("%(name)s's reason: “%(reason)s”") % {
            "name": "Bob",
            "reason": escape("Bolt <b>survived</b>"),  # text, never markup
        }
    for phone in (a, b):
        assert said in text_of(phone.page())


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_owner_of_an_army_is_warned_of_survivors_past_its_whole_list(alice, bob, language):
    """A proposal may give an army more points alive than its whole list
    (Bob typed 100 for Alice's 90-point list). Only the army's owner knows
    that total (her hidden Ninja's 30 points are private), so her phone warns
    her before she confirms, and the proposer's phone says nothing of it."""
    for client in (alice, bob):
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    a, b = playing(alice, bob, rounds=3)
    assert error_of(propose_on_phone(b, ap=(100, 25))) is None
    with translation.override(language):
        warned = translation.gettext(
            "This gives your army %(alive)s army points alive, more than your whole list "
            "(%(total)s points): check it before you confirm."
        ) % {"alive": 100, "total": 90}
    assert warned in text_of(a.page())
    assert "over-list" not in b.page()  # nothing of Alice's whole list on Bob's phone
    # Her own numbers within her list: no warning.
    assert error_of(propose_on_phone(b, ap=(90, 25))) is None
    assert "over-list" not in a.page()
    # Bob's own army past his 25 points, proposed by Alice: Bob is warned.
    assert error_of(propose_on_phone(a, ap=(90, 26))) is None
    assert "over-list" in b.page() and "over-list" not in a.page()


@pytest.mark.django_db
def test_the_proposer_s_own_army_box_stops_at_her_whole_list(alice, bob):
    """Alice typed 250 army points alive for her own 90-point list (a slip
    for 25) and the result went to Bob, whose phone cannot know her total
    (her hidden Ninja's points are private) and said nothing. Her own box
    now stops at her whole list, as the phone's number check does; the
    opponent's stops at the points limit, his total being private."""
    a, b = playing(alice, bob, rounds=3)

    def maxima(page):
        soup = BeautifulSoup(page, "lxml")
        form = soup.select_one("form.result-form")
        return {
            name: form.select_one(f"input[name={name}]")["max"] for name in ("army_a", "army_b")
        }

    limit = str(fresh(a.match).points_limit)
    assert maxima(a.page()) == {"army_a": "90", "army_b": limit}
    assert maxima(b.page()) == {"army_a": limit, "army_b": "25"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, refused",
    [
        ("en", "Your army points alive (your whole list) must be between 0 and 25."),
        ("es", "Tus puntos de ejército supervivientes (toda tu lista): debe estar entre 0 y 25."),
    ],
)
def test_attack_a_proposer_s_own_army_past_her_list_is_refused_by_the_server(
    alice, bob, language, refused
):
    """Her phone's box stops at her whole list; a client that skips the box
    (a raw post) met no check on the server, and Alice's 250 for her 25
    went to Bob. The server refuses it in her language and keeps nothing;
    the opponent's army is still checked against the points limit only, as
    his total is private (his phone warns him: the test above)."""
    bob.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    a, b = playing(alice, bob, rounds=3)
    before = fresh(b.match).seq
    sent = b.raw_post("ProposeResult", objective_a=7, objective_b=3, army_a=90, army_b=250)
    assert error_of(sent) == refused
    assert fresh(b.match).seq == before and fresh(b.match).result is None
    # Her whole list exactly, and the opponent's past his: both taken.
    sent = b.raw_post("ProposeResult", objective_a=7, objective_b=3, army_a=120, army_b=25)
    assert error_of(sent) is None
    assert fresh(b.match).result["army_points"] == {"A": 120, "B": 25}
