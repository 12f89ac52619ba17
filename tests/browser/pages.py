"""Steps on the phones, as a player taps them."""

import re
import select
import socket
import sqlite3
import threading
import time
from contextlib import contextmanager
from urllib.parse import parse_qs

from playwright.sync_api import expect

from tests.scale.servers import HOST, Browser, seat_players, send_note, to_deployment

LOCALE = {"en": "en-GB", "es": "es-ES"}
LIVE = {"en": "Live", "es": "En directo"}
NOT_SAVED = {
    "en": "Not saved: your last tap did not get through.",
    "es": "No se ha guardado: tu último toque no llegó.",
}
SAVED_AFTER_ALL = {
    "en": "Saved after all: your last tap did reach the tracker.",
    "es": "Guardado al final: tu último toque sí llegó al tracker.",
}


def playing(url):
    """A match in play (both deployments sealed), seated over HTTP: the
    players' (Alice, Bob) and the troopers' ids by name."""
    alice, bob = seat_players(url)
    ids = to_deployment(alice, bob)
    for player, lieutenant in ((alice, "Kaplan"), (bob, "Fusilier")):
        reply = player.act("SealDeployment", f"seal-{player.letter}", lieutenant=ids[lieutenant])
        assert reply.status == 200 and reply.error is None, reply.error
    return alice, bob, ids


def open_phone(phone, player, url, lang="en", **options):
    """`player`'s seat on a phone in `lang` (and `options` of its browser
    context: a viewport), its socket live."""
    page = phone(LOCALE[lang], **options)
    page.context.add_cookies(
        [
            {"name": name, "value": player.browser.cookie(name), "url": url}
            for name in ("sessionid", "csrftoken")
        ]
    )
    page.goto(f"{url}/m/{player.code}/")
    expect(page.locator("#connection")).to_have_text(LIVE[lang])
    return page


def action_ids(page, command):
    """The action id of every POST to `command` this page sends, in order
    (filled in as the page sends them)."""
    sent = []

    def seen(request):
        if request.method == "POST" and f"/act/{command}/" in request.url:
            sent.append(parse_qs(request.post_data or "").get("action_id", [""])[0])

    page.on("request", seen)
    return sent


def open_state(page, row):
    """Tap a trooper's name on its row (issue 18): the page's one State form
    opens, prefilled from that row. `row` is the row's selector or locator.
    Returns the open dialog (its form, its boxes, its Set button)."""
    row = page.locator(row) if isinstance(row, str) else row
    row.locator("button.name").click()
    dialog = page.locator("dialog#state")
    expect(dialog).to_be_visible()
    return dialog


def create_match(host, server, name="Friday night"):
    host.goto(server.url + "/")
    host.fill("input[name=name]", name)
    host.click("button.primary")
    expect(host.locator("img.qr")).to_have_count(2)
    return host.locator("a.seaturl").all_inner_texts()


def claim(page, link, name, pin="246813"):
    page.goto(link)
    page.fill("input[name=name]", name)
    page.fill("input[name=pin]", pin)
    page.click("button.primary")
    live = page.locator("#connection")  # "Live" in the page's language
    expect(live).to_have_text(live.get_attribute("data-online"))


def type_row(page, name, cost, traits=()):
    """The list's add form filled in as a player types it, not sent yet."""
    form = page.locator("form.addrow")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=cost]").fill(str(cost))
    if traits:
        form.locator("details.traits summary").click()
        for trait in traits:
            form.locator(f"input[name=traits][value={trait}]").check()
    return form


def add_trooper(page, name, cost, traits=()):
    form = type_row(page, name, cost, traits)
    form.locator("button:not([type=button])").click()
    expect(page.locator("table.list")).to_contain_text(name)


def lieutenants_listed(phone, links):
    """Alice and Bob take the two seats of `links` on new phones, each lists
    one Lieutenant candidate (Kaplan, Fusilier) and locks the list."""
    alice, bob = phone(), phone()
    claim(alice, links[0], "Alice")
    claim(bob, links[1], "Bob")
    add_trooper(alice, "Kaplan", 20, traits=["lieutenant_candidate"])
    add_trooper(bob, "Fusilier", 10, traits=["lieutenant_candidate"])
    lock_list(alice)
    lock_list(bob)
    return alice, bob


def confirm_next_dialog(page):
    page.once("dialog", lambda dialog: dialog.accept())


def lock_list(page):
    confirm_next_dialog(page)
    page.click("text=Lock my list")


def end_phase(page, phase_label):
    page.click(f"button:has-text('End {phase_label}')")


def first_order_count(first, second):
    """The first player's first Order Count; the second player's phone then
    offers TM-S2 and she lets it pass; the first player ends the phase."""
    first.click("button:has-text('Order Count done')")
    expect(first.locator("#s2-waiting")).to_be_visible()
    second.click("button:has-text('No Strategic Use')")
    end_phase(first, "Tactical Phase")


def declare(page, trooper, skill, as_marker=False):
    form = page.locator(".card.order form").first
    form.locator("select[name=trooper_id]").select_option(label=trooper)
    form.locator("select[name=skill]").select_option(skill)
    if as_marker:
        form.locator("input[name=as_marker]").check()
    form.locator("button:not([type=button])").click()


def report_option(scope, trooper_label):
    """The report's option for "Kaplan (Alice)": Kaplan in Alice's group (issue
    18: the troopers in an <optgroup> per player, not the name after each)."""
    name, _, player = trooper_label.rpartition(" (")
    return scope.locator(
        f'select[name=trooper_id] optgroup[label="{player.removesuffix(")")}"] option',
        has_text=re.compile(f"^{re.escape(name)}$"),
    )


def report_form(page, trooper_label):
    """The report form listing `trooper_label`: the card offers a form per kind
    of target (what may be reported on it, issue 19), the player uses that one."""
    details = page.locator("details.outcome").last
    if details.get_attribute("open") is None:  # an open <details> has open=""
        details.locator("summary").click()
    return details.locator("form").filter(has=report_option(page, trooper_label))


def report(page, outcome, trooper_label, element=""):
    form = report_form(page, trooper_label)
    form.locator("select[name=outcome]").select_option(outcome)
    form.locator("select[name=trooper_id]").select_option(
        report_option(form, trooper_label).get_attribute("value")
    )
    if element or form.locator("select[name=element]").count():
        form.locator("select[name=element]").select_option(element)
    form.locator("button:not([type=button])").click()


def patient_requests(monkeypatch) -> None:
    """The test's own HTTP clients (the setup, the tap that holds the
    thread) try again when shed by a server with one HTTP thread: the thread
    is released a moment after its answer is sent, so even one client's
    back-to-back requests meet a busy server now and then. Only the phone is
    left to cope on its own."""
    plain = Browser.request

    def patient(self, method, path, *args, **kwargs):
        for _ in range(50):
            reply = plain(self, method, path, *args, **kwargs)
            if reply.status != 503:
                return reply
            time.sleep(0.1)
        return reply

    monkeypatch.setattr(Browser, "request", patient)


# The address of the test's own raw requests (all of 127/8 is loopback).
STRANGER = "127.0.0.2"


def waiting_get(server, timeout: float = 0.5, source: str = STRANGER) -> socket.socket | int:
    """A GET of the home page from `source` (a loopback address: STRANGER,
    or one per phone): the open socket if it is still waiting for its
    answer after `timeout` (queued behind a held thread), else the status
    it was answered with."""
    sock = socket.create_connection((HOST, server.port), source_address=(source, 0))
    sock.sendall(f"GET / HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n\r\n".encode())
    readable, _w, _x = select.select([sock], [], [], timeout)
    if not readable:
        return sock
    with sock:
        head = sock.recv(64).split(b" ", 2)
    return int(head[1]) if len(head) > 1 and head[1].isdigit() else 0


@contextmanager
def thread_held(server, player):
    """The server's one HTTP thread held: the test takes SQLite's write lock,
    and `player`'s tap waits for it on that thread until the lock goes.
    Yields the GETs that found the thread held (still waiting for it): the
    proof it is, and room taken in the page queue."""
    database = sqlite3.connect(server.env["SQLITE_PATH"], timeout=20, isolation_level=None)
    database.execute("BEGIN IMMEDIATE")
    waiting = threading.Thread(target=send_note, args=(player, player.browser, "holder-0001"))
    waiting.start()
    queued = []
    try:
        # Held once a GET waits for the thread, instead of being answered.
        deadline = time.monotonic() + 20
        while not queued:
            assert time.monotonic() < deadline, "the holder's tap never held the thread"
            found = waiting_get(server)
            if isinstance(found, socket.socket):
                queued.append(found)
        yield queued
    finally:
        database.execute("ROLLBACK")
        database.close()
        waiting.join(timeout=30)
        for sock in queued:
            sock.close()


# Counts the page's POSTs whose answer the page has taken in: their XHR's
# loadend comes after htmx's load handler, which swaps the answer in.
COUNT_ANSWERS = """
(() => {
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  window.postsAnswered = 0;
  XMLHttpRequest.prototype.open = function (method, ...rest) {
    this.isPost = String(method).toUpperCase() === "POST";
    return open.call(this, method, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (this.isPost) { this.addEventListener("loadend", () => { window.postsAnswered += 1; }); }
    return send.apply(this, args);
  };
})();
"""


def hold_answers(page, command="[A-Za-z]+"):
    """Each answer to a tap (of `command`) is fetched from the server (the
    tap is applied, its push sent) and held; `release()` delivers them.
    `held` counts the taps held (each from before its fetch: its push may
    be shown while the fetch is still being answered)."""
    held = []

    def hold(route):
        entry = {"route": route}
        held.append(entry)
        entry["response"] = route.fetch()

    # On the context, not the page: a route there also sees a request a
    # worker of the page's sends on its behalf.
    page.context.route(re.compile(rf".*/act/{command}/$"), hold)

    def release():
        while held:
            while "response" not in held[0]:
                page.wait_for_timeout(20)  # its fetch is still being answered
            entry = held.pop(0)
            entry["route"].fulfill(response=entry["response"])

    return held, release


def answers_taken_in(page, release) -> None:
    """`release()` the held answers, and wait until the page has taken them in
    (COUNT_ANSWERS, added to the page before it loaded)."""
    answered = page.evaluate("window.postsAnswered")
    release()
    page.wait_for_function("n => window.postsAnswered > n", arg=answered)
