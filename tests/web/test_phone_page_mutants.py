"""Tests from a mutation round over what a phone is shown: the page a
too-large form comes back on, and the blocks of the match page that decide
which controls and facts each seat sees. Each guards a behaviour a planted
mutant changed without any other test noticing; each drives the pages as a
phone does (rendered forms; raw posts only where a test says attack)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit_on
from tests.web.test_error_pages import phone

pytestmark = pytest.mark.django_db


def _over_the_cap(client, settings):
    home = client.get("/")
    form = BeautifulSoup(home.content.decode(), "lxml").select_one("form[action='/new/']")
    token = form.select_one("[name=csrfmiddlewaretoken]")["value"]
    name = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(
        "/new/", {"csrfmiddlewaretoken": token, "name": name, "points_limit": "300", "rounds": "3"}
    )
    assert response.status_code == 400
    return BeautifulSoup(response.content.decode(), "lxml")


def test_attack_the_form_shown_again_over_the_cap_lists_only_this_phones_own_matches(settings):
    """The home page shown again for a too-large form lists the matches this
    browser hosts, as the home page does: never another host's."""
    host = phone("en")
    created = submit_on(host, "/", "/new/", name="Mesa de Ana", points_limit=300, rounds=3)
    assert created.status_code == 302
    stranger = phone("en")
    assert "Mesa de Ana" not in _over_the_cap(stranger, settings).get_text()
    assert "Mesa de Ana" in _over_the_cap(host, settings).get_text()


def test_no_phase_ends_on_either_phone_while_an_order_is_open():
    """While an Order is being played (declared, its AROs to come) the
    active phone offers no "End Orders" button and shows its Order card;
    the button comes back once the Order ends."""
    from tests.web.phone_flows import ok, started

    a, b, ids = started()
    assert a.can("AdvancePhase")
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Kaplan"], skill="move"))
    a.open()
    assert a.can("EndOrder") and not a.can("AdvancePhase")
    b.open()
    assert not b.can("AdvancePhase")


def test_a_spanish_phone_names_skills_outcomes_states_and_phases_in_spanish():
    """The names a phone shows for the rules' codes (tracker/labels.py) are
    the player's words in the phone's language, each for its own code: the
    Order's skills, the outcomes to report, the State dialog's conditions
    and tokens, and the phase on the End button."""
    from django.utils import translation
    from django.utils.translation import gettext

    from tests.web.phone_flows import ok, started
    from tracker.labels import LABELS

    def spanish(*msgids: str) -> list[str]:
        with translation.override("es"):
            return [gettext(m) for m in msgids]

    def options(phone, selector: str) -> list[str]:
        return [" ".join(o.get_text(" ").split()) for o in phone.soup.select(selector)]

    a, _b, _ids = started(language_a="es", language_b="es")
    a.open()
    skills = options(a, "select[name=skill] option")
    assert set(spanish("Move", "BS Attack", "Cautious Movement")) <= set(skills)
    outcomes = options(a, "select[name=outcome] option")
    assert spanish("Successfully Discovered")[0] in outcomes
    conditions = options(a, "dialog#state select[name=condition] option")
    assert conditions == spanish("Normal", "Unconscious", "Dead", "Sepsitorized")
    boxes = a.soup.select("dialog#state input[type=checkbox][name=tokens]")
    tokens = [next(t.strip() for t in box.find_all_next(string=True) if t.strip()) for box in boxes]
    with translation.override("es"):
        expected = [str(LABELS[box["value"]]) for box in boxes]
    assert tokens == expected
    assert set(spanish("Immobilized-A", "Immobilized-B", "Prone")) <= set(tokens)

    ok(a, a.submit("AdvancePhase", expected="orders"))
    a.open()
    assert spanish("States Phase")[0] in a.soup.select_one("#blk-header").get_text()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_form_without_errors_shows_no_alert_and_a_refused_one_only_its_own(language):
    """A player form's alert box is there only for a field that was
    refused: the home page's fresh form has none, and a points limit out of
    range brings one, under that field alone (tracker/form_errors.py)."""
    from tests.web.phone import Phone

    host = Phone(language)
    host.visit("/")
    assert not host.soup.select("form [role=alert]")
    [form] = [f for f in host.forms() if "points_limit" in f.names()]
    form.fill({"name": "Noche de viernes", "points_limit": "20"})
    host.send(form)
    alerts = host.soup.select("ul.error[role=alert]")
    assert [a.get("id") for a in alerts] == ["id_points_limit_error"]


def _button(phone, command: str) -> str:
    return phone.soup.select_one(f"form[hx-post$='/act/{command}/'] button").get_text()


def test_the_tactical_phase_counts_orders_first_and_the_deciding_opponent_sees_no_wait_line():
    """The first Tactical Phase button is the Order Count; after it the
    opponent decides TM-S2: her phone shows that decision, not the line
    that she waits for an ARO, and the active phone says she decides. Once
    she lets it pass, the button ends the Tactical Phase."""
    from tests.web.phone_flows import let_s2_pass, ok, seal_both, set_up

    a, b = set_up()
    seal_both(a, b)
    a.open()
    assert _button(a, "AdvancePhase") == "Order Count done: end the Executive Use"
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    b.open()
    assert b.can("DeclineStrategicUse")
    assert "is playing their Player Turn" not in b.text
    a.open()
    assert a.soup.select_one("#s2-waiting") and not a.can("AdvancePhase")
    let_s2_pass(b)
    a.open()
    assert _button(a, "AdvancePhase") == "End Tactical Phase"
    b.open()
    assert "is playing their Player Turn" in b.text


def test_a_spanish_phone_that_locked_first_waits_in_spanish():
    from django.utils import translation
    from django.utils.translation import gettext

    from tests.web.phone_flows import BOB_LIST, add_trooper, ok, seated

    a, _b = seated("es", "es")
    for row in BOB_LIST:
        assert add_trooper(a, *row) is None
    ok(a, a.submit("LockArmyList"))
    a.open()
    with translation.override("es"):
        said = gettext("Your list is locked. Waiting for your opponent to lock theirs.")
    assert a.soup.select_one("#blk-controls p.waiting").get_text() == said


def test_the_classified_draw_is_offered_once_the_list_is_locked_not_before():
    """While a player still builds her list her controls are the list; the
    Classified Objectives draw comes once it is locked."""
    from tests.web.phone import Phone
    from tests.web.phone_flows import BOB_LIST, add_trooper, ok

    host = Phone()
    links = host.create_match(name="League night", classified_drawn="3", classified_kept="2")
    alice = Phone()
    alice.claim(links["A"], "Alice")
    for row in BOB_LIST:
        assert add_trooper(alice, *row) is None
    alice.open()
    assert not alice.can("DrawClassified")
    ok(alice, alice.submit("LockArmyList"))
    alice.open()
    assert alice.can("DrawClassified")


def test_a_pin_sent_to_a_spent_seat_is_refused_once_not_twice(alice, mallory, settings):
    """Once a seat's wrong PINs are spent, the move page warns that its PIN
    no longer moves it; a PIN sent anyway is refused by the form with that
    reason, and the page does not say it a second time above the form."""
    from tests.web.table import claim, create_match
    from tests.web.test_seats import seat_url

    settings.SEAT_PIN_BUDGET = 1
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    submit_on(mallory, seat_url(match, "A"), "card", pin="000000")
    page = mallory.get(seat_url(match, "A")).content.decode()
    assert page.count("its PIN no longer moves it") == 1
    refused = submit_on(mallory, seat_url(match, "A"), "card", pin="582914")
    assert refused.status_code == 429
    assert refused.content.decode().count("its PIN no longer moves it") == 1


def test_each_player_sees_their_own_seat_first_and_a_spectator_seat_a_first():
    from tests.web.phone import Phone
    from tests.web.phone_flows import seated

    a, b = seated()

    def order(phone) -> list[str]:
        return [s["id"] for s in phone.soup.select("section[id^=blk-seat_]")]

    a.open()
    assert order(a) == ["blk-seat_A", "blk-seat_B"]
    b.open()
    assert order(b) == ["blk-seat_B", "blk-seat_A"]
    watcher = Phone()
    watcher.visit(f"/m/{a.code}/")
    assert order(watcher) == ["blk-seat_A", "blk-seat_B"]


def test_only_the_owner_of_a_sealed_secret_is_offered_to_reveal_it():
    """Alice seals a note in play: Bob's phone lists its seal, with no
    Reveal button under any of Alice's seals; Alice's offers it under the
    note, and under none of Bob's seals."""
    from tests.web.phone_flows import ok, started

    reveal = "form[hx-post$='/act/RevealSecret/']"
    a, b, _ids = started()
    a.open()
    ok(a, a.submit("SealNote", label="Objetivo", text="La antena norte"))
    a.open()
    [note] = [li for li in a.soup.select("#blk-seat_A li.secret") if "Objetivo" in li.text]
    assert note.select(reveal)
    assert not a.soup.select(f"#blk-seat_B {reveal}")
    b.open()
    assert len(b.soup.select("#blk-seat_A li.secret")) >= 2
    assert not b.soup.select(f"#blk-seat_A {reveal}")


def _text(node) -> str:
    return " ".join(node.get_text(" ").split())


def test_the_header_says_whose_turn_it_is_to_each_phone_and_an_empty_seat_is_said_once():
    """Before Bob takes his seat, Alice's page says seat B is not taken
    (and not hers); once both seats are taken, neither is said to be. In play, Alice's header says it is her turn and names
    Bob as reactive; Bob's says he is reactive, naming the same players."""
    from tests.web.phone import Phone
    from tests.web.phone_flows import started

    host = Phone()
    links = host.create_match(name="Mesa 9")
    alone = Phone()
    alone.claim(links["A"], "Alice")
    taken = {
        letter: "Seat not taken yet." in _text(alone.soup.select_one(f"#blk-seat_{letter}"))
        for letter in "AB"
    }
    assert taken == {"A": False, "B": True}

    a, b, _ids = started()
    a.open()
    assert "Seat not taken yet." not in a.text
    turn = a.soup.select_one("#blk-header p.turn")
    assert _text(turn.select_one(".active")) == "Active: Alice"
    assert _text(turn.select_one(".reactive")) == "Reactive: Bob"
    assert _text(turn.select_one(".you")) == "Your turn"
    b.open()
    turn = b.soup.select_one("#blk-header p.turn")
    assert _text(turn.select_one(".reactive")) == "Reactive: Bob"
    assert _text(turn.select_one(".you")) == "You are reactive"


def test_no_survivors_line_counts_a_draft():
    """ "Survivors: x of y points" counts a locked list: no phone shows it
    while a list is still a draft."""
    from tests.web.phone_flows import BOB_LIST, add_trooper, seated

    a, b = seated()
    for row in BOB_LIST:
        assert add_trooper(a, *row) is None
    for player in (a, b):
        player.open()
        assert "Survivors:" not in player.text


def test_the_organizers_audit_says_a_note_revealed_in_play_was_revealed_by_its_owner(carol):
    from tests.web.phone_flows import ok, started

    a, _b, _ids = started()
    a.open()
    ok(a, a.submit("SealNote", label="Objetivo", text="La antena norte"))
    a.open()
    [note] = [li for li in a.soup.select("#blk-seat_A li.secret") if "Objetivo" in li.text]
    ok(a, a.submit("RevealSecret", secret_id=note["id"].removeprefix("secret-")))
    audit = BeautifulSoup(carol.get(f"/organizer/matches/{a.code}/").content.decode(), "lxml")
    rules = [_text(chip) for chip in audit.select("td .rule")]
    assert "by its owner" in rules


def test_the_classified_draw_is_still_offered_in_deployment_if_not_drawn_in_setup():
    from tests.web.phone import Phone
    from tests.web.phone_flows import BOB_LIST, add_trooper, ok

    host = Phone()
    links = host.create_match(name="League night", classified_drawn="3", classified_kept="2")
    alice, bob = Phone(), Phone()
    alice.claim(links["A"], "Alice")
    bob.claim(links["B"], "Bob")
    for phone_ in (alice, bob):
        for row in BOB_LIST:
            assert add_trooper(phone_, *row) is None
        ok(phone_, phone_.submit("LockArmyList"))
    alice.open()
    ok(alice, alice.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    alice.open()
    assert alice.soup.select_one("#blk-header")["data-phase"] == "deployment"
    assert alice.can("DrawClassified")


def test_no_secret_is_offered_to_reveal_once_the_match_is_over():
    from tests.web.phone_flows import ok, started

    reveal = "form[hx-post$='/act/RevealSecret/']"
    a, b, _ids = started()
    a.open()
    assert a.soup.select(reveal)
    ok(a, a.submit("ProposeResult", objective_a=6, objective_b=2, army_a=80, army_b=40))
    b.open()
    ok(b, b.submit("ConfirmResult"))
    a.open()
    assert a.soup.select_one("#blk-header")["data-phase"] == "finished"
    assert not a.soup.select(reveal)


def test_only_the_players_are_offered_to_report_that_the_room_changed():
    """RP-3: a trooper Immobilized for want of room is shown to everyone,
    spectators too; the "room changed" form is on the players' phones
    only. Played through the full match (tests/web/full_match.py)."""
    from tests.web.full_match import FullMatch
    from tests.web.phone import Phone

    seen = {}

    def checkpoint(name, a, b):
        if name != "round 1: Immobilized-A for want of room":
            return
        watcher = Phone()
        watcher.visit(f"/m/{a.code}/")
        seen["players"] = a.can("ReportRoomChanged") or b.can("ReportRoomChanged")
        seen["watcher"] = bool(watcher.soup.select("form[hx-post$='/act/ReportRoomChanged/']"))

    FullMatch(checkpoint).play()
    assert seen == {"players": True, "watcher": False}


def test_a_spanish_phone_says_in_spanish_that_a_note_was_revealed_by_its_owner():
    from django.utils import translation
    from django.utils.translation import gettext

    from tests.web.phone_flows import ok, started

    a, _b, _ids = started(language_a="es", language_b="es")
    a.open()
    ok(a, a.submit("SealNote", label="Objetivo", text="La antena norte"))
    a.open()
    [note] = [li for li in a.soup.select("#blk-seat_A li.secret") if "Objetivo" in li.text]
    ok(a, a.submit("RevealSecret", secret_id=note["id"].removeprefix("secret-")))
    a.open()
    with translation.override("es"):
        said = gettext("Revealed by its owner.")
    assert said != "Revealed by its owner."
    assert said in _text(a.soup.select_one(f"#{note['id']}"))
