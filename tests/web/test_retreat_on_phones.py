"""Retreat! as two phones see it (RT-A, RT-2, RT-X1), every tap a form the
page rendered (tests/web/phone.py): the Retreat! markers are on the table,
so both players read which troopers carry one, in Spanish and in English."""

import pytest

from .phone import Phone
from .phone_flows import let_s2_pass, lists_locked, ok, seated

pytestmark = pytest.mark.django_db

# Alice's list is 100 points; losing Big leaves 25 (exactly 25%: Retreat!).
ALICE = (
    ("Kaplan", 10, 1, 2, ["lieutenant_candidate"]),
    ("Veteran Sergeant", 15, 1, 2, ["veteran"]),
    ("Big", 75, 1, 2, []),
)
BOB = (
    ("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),
    ("Bolt", 15, 1, 2, []),
)


def end_turn(phone: Phone, other: Phone) -> None:
    """The active phone ends every phase of its Player Turn (the other
    phone lets the TM-S2 moment pass when it comes)."""
    for phase in ("tactical", "tactical", "impetuous", "orders", "states"):
        let_s2_pass(other)
        phone.open()
        if phone.can("AdvancePhase", expected=phase):
            ok(phone, phone.submit("AdvancePhase", expected=phase))


def alice_in_retreat(language: str | None):
    """Big goes Unconscious in Round 1; Alice's Round 2 Turn starts in Retreat!."""
    a, b = seated(language, language)
    lists_locked(a, b, alice_list=ALICE, bob_list=BOB)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    end_turn(a, b)
    b.open()
    ok(b, b.submit("SetTrooperState", trooper_id="Big", condition="unconscious"))
    end_turn(b, a)
    return a, b


def row_text(phone: Phone, name: str) -> str:
    rows = [
        row
        for row in phone.soup.select("li.trooper")
        if row.select_one(".name").get_text(strip=True) == name
    ]
    assert len(rows) == 1, name
    return " ".join(rows[0].get_text(" ").split())


@pytest.mark.parametrize(
    ("language", "marker"),
    [("en", "Retreat! marker"), ("es", "Marcador de ¡¡¡Retirada!!!")],
)
def test_rt_2_both_phones_read_which_troopers_carry_a_retreat_marker(language, marker):
    a, b = alice_in_retreat(language)
    a.open()
    assert a.soup.select_one("#retreat") is not None  # Alice's army is in Retreat!
    for phone in (a, b):
        phone.open()
        # RT-2: beside each surviving trooper; RT-X1: not beside the Veteran,
        # who may still shoot (RT-3); none beside the Unconscious Big.
        assert marker in row_text(phone, "Kaplan")
        assert marker not in row_text(phone, "Veteran Sergeant")
        assert marker not in row_text(phone, "Big")
        # Bob's troopers are not in Retreat!.
        assert marker not in row_text(phone, "Fusilier")


@pytest.mark.parametrize(
    ("condition", "in_group"),
    [("dead", False), ("sepsitorized", False), ("unconscious", True)],
)
def test_tm_e1_faq_dead_or_sepsitorized_troopers_show_no_combat_group(condition, in_group):
    """Command Tokens FAQ: Unconscious troopers stay in their Combat Group;
    Dead or Sepsitorized ones belong to none, so neither phone shows Big in
    G1 once it is (a player counting a group's 10 for TM-E1 reads the rows)."""
    a, b = seated()
    lists_locked(a, b, alice_list=ALICE, bob_list=BOB)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    a.open()
    ok(a, a.submit("SetTrooperState", trooper_id="Big", condition=condition))
    for phone in (a, b):
        phone.open()
        assert "G1" in row_text(phone, "Kaplan").split()
        assert ("G1" in row_text(phone, "Big").split()) is in_group


BATTLE_OVER = {
    "en": ("Alice's army is in Retreat! and has no troopers left on the table", "RT-7"),
    "es": ("El ejército de Alice está en ¡¡¡Retirada!!! y no le quedan tropas en la mesa", "RT-7"),
}
OWN_BATTLE_OVER = {
    "en": "Your army is in Retreat! and has no troopers left on the table",
    "es": "Tu ejército está en ¡¡¡Retirada!!! y no te quedan tropas en la mesa",
}
MATCH_OVER = {"en": "The match is over.", "es": "La partida ha terminado."}


def card_text(phone: Phone) -> str:
    card = phone.soup.select_one("#battle-over")
    return " ".join(card.get_text(" ").split()) if card is not None else ""


def bob_takes_alice_s_last_troopers(language: str):
    """Alice in Retreat! (Round 2, her Turn); an ARO of Bob's takes Kaplan
    and the Veteran Sergeant, her last troopers on the table (Big is
    Unconscious): Bob sets their states from his phone's rows."""
    a, b = alice_in_retreat(language)
    b.open()
    ok(b, b.submit("SetTrooperState", trooper_id="Kaplan", condition="dead"))
    b.open()
    ok(b, b.submit("SetTrooperState", trooper_id="Veteran Sergeant", condition="dead"))
    return a, b


@pytest.mark.parametrize("language", ["en", "es"])
def test_rt_7_both_phones_read_the_battle_is_over_at_the_last_loss(language):
    """RT-7: "concluye la batalla" when the army in Retreat! has lost every
    trooper, not at the next Player Turn's start. Both phones say so at once
    and either player ends the match from the card."""
    a, b = bob_takes_alice_s_last_troopers(language)
    opponent_line, rule = BATTLE_OVER[language]
    b.open()
    assert opponent_line in card_text(b) and rule in card_text(b)
    a.open()
    assert OWN_BATTLE_OVER[language] in card_text(a)
    assert MATCH_OVER[language] not in a.text
    ok(a, a.submit("EndBattle"))
    for phone in (a, b):
        phone.open()
        assert card_text(phone) == ""
        assert MATCH_OVER[language] in phone.text
        assert phone.soup.select_one("#blk-controls form[hx-post$='/act/EndBattle/']") is None


SPECTATOR_ENDS = {
    "en": "Either player ends the match from their phone.",
    "es": "Cualquiera de los dos jugadores termina la partida desde su móvil.",
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_rt_7_a_spectator_reads_the_battle_is_over_without_a_button(language):
    """An organizer watching the table (no seat) reads RT-7's news too, and
    that a player ends the match; the card goes once a player ends it."""
    a, b = bob_takes_alice_s_last_troopers(language)
    watcher = Phone(language)
    watcher.open(a.code)
    opponent_line, rule = BATTLE_OVER[language]
    assert opponent_line in card_text(watcher) and rule in card_text(watcher)
    assert SPECTATOR_ENDS[language] in card_text(watcher)
    assert not watcher.forms("EndBattle")
    a.open()
    ok(a, a.submit("EndBattle"))
    watcher.open()
    assert card_text(watcher) == ""


@pytest.mark.parametrize("language", ["en", "es"])
def test_rt_7_a_mis_tapped_last_loss_is_undone_and_the_battle_goes_on(language):
    """Ending the match cannot be undone; so the card waits for a tap, and
    the player whose last change it was can undo it first: the card leaves
    both phones, the match goes on."""
    a, b = bob_takes_alice_s_last_troopers(language)
    b.open()
    ok(b, b.submit("UndoLastStep"))
    for phone in (a, b):
        phone.open()
        assert card_text(phone) == ""
        assert not phone.can("EndBattle")
        assert MATCH_OVER[language] not in phone.text


ENDING_IS_FINAL = {
    "en": "Ending the match cannot be undone. If the last change was a mistake, "
    "whoever made it can undo it first.",
    "es": "Terminar la partida no se puede deshacer. Si el último cambio fue "
    "un error, quien lo hizo puede deshacerlo antes.",
}
END_THE_MATCH = {"en": "End the match (RT-7)", "es": "Terminar la partida (RT-7)"}


def lieutenant_line(phone: Phone) -> str:
    """Alice's Lieutenant seal as this phone's row of her secrets shows it."""
    phone.open()
    lines = [
        " ".join(li.get_text(" ").split())
        for li in phone.soup.select("#blk-seat_A li.secret")
        if li.select_one(".kind").get_text(strip=True) in ("Lieutenant", "Teniente")
    ]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("language", ["en", "es"])
def test_rt_7_the_card_says_what_ending_does_before_the_tap(language):
    """The card waits for a tap because ending cannot be undone, while a
    mis-tapped last loss still can: both phones say so, and what the button
    does, in their language, before either player taps it. It used to say
    that ending reveals every secret left, which it does not: no kind of
    secret ends with the match (the Lieutenant is the owner's to reveal),
    and Bob's phone still shows Alice's Lieutenant sealed once it is over."""
    a, b = bob_takes_alice_s_last_troopers(language)
    for phone in (a, b):
        phone.open()
        assert ENDING_IS_FINAL[language] in card_text(phone)
        assert phone.form("EndBattle").text == END_THE_MATCH[language]
    sealed = lieutenant_line(b)
    assert "Kaplan" not in sealed, sealed
    a.open()
    ok(a, a.submit("EndBattle"))
    assert lieutenant_line(b) == sealed
    assert not a.can("UndoLastStep") and not b.can("UndoLastStep")
