"""What a mutation round on the Django side a game night relies on found the
suite did not notice (the result card, the player's export, the pasted list's
notice, the organizer's audit and ruling, an event's list replaced before the
lock, the host's start page, a resync over HTTP, a socket's frame size, the
audit of a match in play).
Each test here failed on a small change to that code that the other tests
let pass, and passes on the code as it is."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from bs4 import BeautifulSoup
from channels.testing import WebsocketCommunicator
from django.utils import translation

from tests.web.organizer_table import audit_page, fresh, open_sealed, playing, text_of
from tests.web.phone import Phone
from tests.web.phone_flows import CANARY_NINJA, ok, seal_both, seated, set_up
from tests.web.rendered_forms import submit
from tests.web.table import error_of
from tests.web.table import seated as seated_clients
from tests.web.test_event_list_link_words import paste as paste_on_list_link
from tests.web.test_event_running import Organizer, list_link_of
from tests.web.test_handed_list_keeps_drafts import pair_round, seat_link
from tests.web.test_results import propose_on_phone
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables
from tracker.asgi import application
from tracker.consumers import MAX_MESSAGE, TOO_BIG
from tracker.models import Match, MatchEvent, TournamentEvent

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------- the result card


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_dispute_with_no_reason_shows_no_reason_line(alice, bob, language):
    """The reason under "It is wrong: dispute it" is optional: a dispute sent
    without one shows the dispute's words on both phones and no empty
    "Bob's reason: “”" line. Kills blocks/result.html's reason line without
    its {% if r.reason %}."""
    for client in (alice, bob):
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    a, b = playing(alice, bob, rounds=3)
    assert error_of(propose_on_phone(a)) is None
    assert error_of(b.submit("DisputeResult")) is None
    with translation.override(language):
        disputed = translation.gettext(
            "The result is disputed. Talk it over: either of you may propose it again "
            "below, or call an organizer to settle it."
        )
        reason_words = translation.gettext("%(name)s's reason: “%(reason)s”") % {
            "name": "Bob",
            "reason": "",
        }
    for phone in (a, b):
        html = phone.page()
        assert disputed in text_of(html)
        assert "dispute-reason" not in html
        assert reason_words.split("“")[0].strip() not in text_of(html)


# ------------------------------------------------------ the player's export


def export_of(phone: Phone) -> dict:
    """The JSON behind the "Download my record of this match" link of the
    page this phone was sent."""
    phone.open()
    [link] = [a["href"] for a in phone.soup.select("a[download]") if "export" in a["href"]]
    response = phone.app.get(link)
    assert response.status_code == 200
    return json.loads(response.body)


def test_a_player_s_export_carries_her_own_private_lines_and_not_the_opponent_s():
    """HD-5: Alice moves her hidden Ninja to another Combat Group. Her phone's
    log says so in her words; her export's log, "redacted exactly as her own
    view", says it too (it was written from the public log, which loses the
    record of what she did). Bob's export says only that a hidden trooper
    moved, and never names it. Kills exports.player_export reading the
    log for no seat."""
    a, b = set_up()
    seal_both(a, b, holoecho="marker1")
    a.open()
    ok(a, a.submit("ChangeCombatGroup", trooper_id=CANARY_NINJA, group="2"))
    moved = f"{CANARY_NINJA} moves from Combat Group 1 to Combat Group 2"
    alice_log = [line["text"] for line in export_of(a)["log"]]
    assert any(moved in text for text in alice_log)
    bob_export = export_of(b)
    assert CANARY_NINJA not in json.dumps(bob_export)
    assert any(
        "Hidden Deployment to another Combat Group" in line["text"] for line in bob_export["log"]
    )


# --------------------------------------------------------- a pasted list


PASTE = "GROUP 1\nFUSILIER (Lieutenant) Combi Rifle. (0 | {a})\nBOLT Combi Rifle. (0 | {b})\n"


def notice_of(answer) -> str:
    """The notice atop the draft in the answer to the paste (only that answer shows it)."""
    notice = BeautifulSoup(answer.text, "lxml").select_one("p.notice")
    return " ".join(notice.get_text(" ").split()) if notice else ""


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_paste_of_exactly_the_points_limit_is_not_called_over_it(language):
    """A 300-point list in a 300-point match is within the limit: the notice
    says what was imported and nothing of being over it; one point more is
    over it, and the notice says so. Kills list_views.draft_import's
    `parsed.points >= match.points_limit`."""
    a, _b = seated(language, language, points=300)
    with translation.override(language):
        over = translation.gettext(
            "That is over the %(limit)s points limit: remove troopers before locking."
        ) % {"limit": 300}
        imported = translation.ngettext(
            "Imported %(count)s trooper (%(points)s points).",
            "Imported %(count)s troopers (%(points)s points).",
            2,
        )
    answer = ok(a, a.submit("draft/import", text=PASTE.format(a=100, b=200)))
    assert notice_of(answer) == imported % {"count": 2, "points": 300}
    answer = ok(a, a.submit("draft/import", text=PASTE.format(a=101, b=200)))
    assert notice_of(answer) == imported % {"count": 2, "points": 301} + " " + over


# ------------------------------------------------------ the organizer's audit


def test_a_log_longer_than_the_match_row_says_is_named_with_both_ends(alice, bob, carol):
    """A row added behind the app's back (its hash chained on, the match row
    left as it was): the audit says where the match says its log ends and
    where it does end, not only that a hash differs. Kills audit.verify_rows
    flagging a head only when the match says more events than its log has."""
    a, _b = playing(alice, bob)
    match = fresh(a.match)
    last = match.seq
    before = MatchEvent.objects.get(match=match, seq=last - 1)
    # The match row as it was one event ago: its log runs one event past it.
    type(match).objects.filter(pk=match.pk).update(seq=last - 1, last_hash=before.hash)
    said = f"The match says its log ends at event {last - 1}, but it ends at {last}."
    assert said in text_of(audit_page(carol, fresh(match)))


# ------------------------------------------------- an event's list replaced


ARMY_BEFORE = "GROUP 1\nFUSILIER (Lieutenant) Combi Rifle. (0 | 10)\nBOLT Combi Rifle. (0 | 15)\n"
ARMY_AFTER = "GROUP 1\nKAPLAN (Lieutenant) Combi Rifle. (0 | 20)\nSWISS GUARD Rifle. (0 | 60)\n"


def draft_rows_on(phone: Phone) -> list[str]:
    """The names of the draft's rows the seat's page shows."""
    return [tr.select_one("td").contents[0].strip() for tr in phone.soup.select("tr[id^=draft-]")]


def test_a_list_replaced_before_the_lock_follows_to_a_draft_left_as_the_first_one_made_it(carol):
    """Ana pastes her list on her event link, then a corrected one before the
    lists lock. Her round's match, already paired and its draft untouched
    since the first list, starts from the corrected one (submit_list's
    promise): the seat's page shows Kaplan and the Swiss Guard, not the
    first list's troopers. Kills event_running.submit_list keeping a draft
    still as the earlier list made it."""
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana Arroyo, PanOceania").status_code == 302
    link = list_link_of(org, "Ana Arroyo")
    match = pair_round(carol, event, 1, "Table, Player A, Player B\n1, Ana Arroyo, Bob Bravo\n")
    ana = Phone()  # her phone, for her link and her seat
    paste_on_list_link(link, ARMY_BEFORE, ana)
    ana.claim(seat_link(match), "Ana Arroyo")
    ana.open()
    assert draft_rows_on(ana) == ["Fusilier", "Bolt"]
    paste_on_list_link(link, ARMY_AFTER, ana)
    ana.open()
    assert draft_rows_on(ana) == ["Kaplan", "Swiss Guard"]


# ------------------------------------------------- the host's start page


def test_a_host_seated_nowhere_finds_the_match_she_opened_last_first_on_the_start_page():
    """A host who plays in neither seat runs two tables: she created Monday's
    match, then Tuesday's, then opens Monday's match page to watch it. The
    installed app's start page lists the match opened last first (issue 17),
    for her as for a player. Kills views.match_page remembering the match
    opened only for a browser that holds a seat."""
    host = Phone()
    host.create_match(name="Monday table")
    monday = host.code
    host.create_match(name="Tuesday table")
    tuesday = host.code
    host.visit(f"/m/{monday}/")
    host.visit("/start/")
    wanted = (f"/m/{monday}/", f"/m/{tuesday}/")
    listed = [a["href"] for a in host.soup.select("a[href^='/m/']") if a["href"] in wanted]
    assert listed[:2] == list(wanted)


# ------------------------------------------------- an organizer's ruling


def test_a_ruling_sent_back_for_its_reason_keeps_its_army_boxes_at_the_points_limit(carol):
    """Carol sends a ruling whose reason is only spaces: the form sends it back
    (a reason both players read is required), and the army-points boxes it
    shows again still stop at the match's 300 points, as the first ones did
    (they said 1000 again, and the rules refused 301 only after the send).
    Kills organizer.views.match_settle building its form without the match's
    points_limit."""
    org, (first, _second) = round_one_of_two_tables(carol)  # 300 points
    assert org.submit("/clock/call/").status_code == 302
    typed = {"objective_a": "3", "objective_b": "1", "army_a": "200", "army_b": "120"}
    response = submit(carol, audit_of(org, first), "/settle/", **typed, reason="   ")
    assert response.status_code == 400
    form = BeautifulSoup(response.content.decode(), "lxml").select_one("form.settle-form")
    assert [form.find("input", attrs={"name": n})["max"] for n in ("army_a", "army_b")] == [
        "300",
        "300",
    ]
    first.refresh_from_db()
    assert not first.result


# ------------------------------------------------- a resync over HTTP


def resync_over_http(phone: Phone) -> str:
    """What app.js asks when its socket is down (static/tracker/app.js: an
    htmx GET of the match's blocks, naming none): every block, whole."""
    response = phone.app.get(f"/m/{phone.code}/blocks/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.text


def test_a_player_s_resync_over_http_brings_her_own_seat_s_blocks():
    """A phone whose socket is down asks for the blocks over HTTP: Alice's
    answer is her own seat's (her hidden trooper named, her controls), as her
    page is; Bob's never names her hidden trooper. Kills views.blocks_partial
    rendering the match for a spectator (the player's resync would take her
    controls and her own secrets off her screen)."""
    a, b = set_up()
    seal_both(a, b, holoecho="marker1")
    a.open()
    page_controls = a.soup.select_one("#blk-controls")
    assert page_controls is not None and CANARY_NINJA in a.html
    alice = resync_over_http(a)
    assert CANARY_NINJA in alice
    assert 'id="blk-controls"' in alice
    assert CANARY_NINJA not in resync_over_http(b)


# ------------------------------------------------- a socket's frame size


def framed(length: int) -> str:
    """A resync frame padded to exactly `length` characters."""
    head, tail = '{"resync": true, "x": "', '"}'
    return head + "x" * (length - len(head) - len(tail)) + tail


@pytest.mark.django_db(transaction=True)
async def test_a_frame_of_exactly_the_size_cap_is_answered_and_one_more_character_is_not(
    alice, bob
):
    """Issue 22: a frame past MAX_MESSAGE characters closes the socket with
    TOO_BIG; one of exactly MAX_MESSAGE is a phone's frame like any other,
    and its resync is answered. Kills consumers.receive refusing a frame at
    the cap (`>=`)."""
    a, _b = await sync_to_async(seated_clients)(alice, bob)
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
    headers.append((b"cookie", f"sessionid={alice.cookies['sessionid'].value}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/m/{a.match.code}/", headers=headers)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)
    assert len(framed(MAX_MESSAGE)) == MAX_MESSAGE
    await socket.send_to(text_data=framed(MAX_MESSAGE))
    assert "You: Alice" in await socket.receive_from(timeout=5)
    await socket.send_to(text_data=framed(MAX_MESSAGE + 1))
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": TOO_BIG}
    await socket.disconnect()


# ------------------------------------------------- the audit of a match in play


def test_a_private_event_after_the_organizer_opened_the_match_offers_to_open_it_again(carol):
    """Carol opened the sealed information of a match in play: nothing is
    withheld, and the page offers no second opening. Then Alice moves her
    hidden trooper to another Combat Group (HD-5, an event private to her):
    the audit withholds it and offers to open the sealed information again,
    though no new secret was sealed. Kills the audit page counting only
    withheld secrets (the organizer could never see that private event
    while the match is in play)."""
    a, b = set_up()
    seal_both(a, b, holoecho="marker1")
    match = Match.objects.get(code=a.code)
    open_sealed(carol, match)
    assert 'id="open-sealed"' not in audit_page(carol, match)
    a.open()
    ok(a, a.submit("ChangeCombatGroup", trooper_id=CANARY_NINJA, group="2"))
    html = audit_page(carol, fresh(match))
    assert "Private events and unrevealed secrets sealed since then are withheld." in html
    assert 'id="open-sealed"' in html
