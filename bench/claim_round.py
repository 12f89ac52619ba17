"""Round 1 starts: every player of a venue opens their seat link at once,
claims the seat with the claim form, and their match page goes live.

    python bench/claim_round.py [TABLES] [OWN_PIN_SHARE] [DOUBLE_TAP_SHARE]

Runs the app as `make run` does (collectstatic, DEBUG off, `manage.py
serve` with its default limits) on a scratch SQLite database. An event of
2 x TABLES players has its round 1 drawn and published in-process, as the
organizer's "Publish" does (its matches, seats unclaimed, the paired names
offered). Then every phone, each with a cookie jar of its own and none with
a session yet, all from 127.0.0.1 (a venue's NAT), does what a browser does:

- GET its seat link, and the scripts and styles the page names; a busy page
  (503) loads itself again after its meta refresh's 2-4 s;
- POST the claim form it was given (CSRF token and the fields it renders;
  OWN_PIN_SHARE of the players type a PIN of their own instead of the one
  offered, default 0), following the redirect as a browser does. A busy
  answer to the POST says "tap again" and has nothing to tap: the player
  goes Back to the form and taps "Take this seat" again 2-4 s later (the
  same form, the same body). DOUBLE_TAP_SHARE of the players (default 0)
  tap the button again when no answer has come 0.3-1.5 s after their tap:
  the browser drops the first request and shows the second's answer. A
  busy answer to the redirect's GET reloads itself as above;
- once its match page is shown, opens the page's socket until the first
  frame comes (app.js's back-off).

Printed: every status seen (by request kind), how long until the last phone
was seated and live, and each phone that ended in a wrong state: not seated
on its own seat, told the seat was taken, a seat whose claim is missing
from its match's log, or a log saying the seat moved to another phone
(every phone here keeps to itself). Not part of `make bench`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import serving  # noqa: E402

STATIC = re.compile(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"')
TAKEN = ("Someone else took this seat", "Otra persona acaba de ocupar este asiento")
HTTP_TIMEOUT = 120  # a browser waits minutes for a page; we only stop a hang


# ------------------------------------------------------------------ set-up


def publish_round(tables: int) -> list[dict]:
    """In the server's database: an event of 2 x `tables` players, round 1
    drawn and published through the organizer's own code. Each table's code
    and seat tokens (the seat sheets' links)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
    import django

    django.setup()
    from django.db import transaction
    from django.utils import timezone

    from tracker import actions, event_running
    from tracker.models import EventPlayer, Match, TournamentEvent
    from tracker.organizer.views import create_pairings

    actions.notify = lambda *args: None  # no server is listening yet
    event = TournamentEvent.objects.create(name="Bench Open")
    names = [f"Player {k:03d}" for k in range(2 * tables)]
    EventPlayer.objects.bulk_create(
        [
            EventPlayer(event=event, name=n, key=event_running.player_key(n), faction="PanOceania")
            for n in names
        ]
    )
    pending = event_running.draw_round(event, seed=1)
    data = {
        "points_limit": 300,
        "rounds": 3,
        "mission": "",
        "pairings": event_running.round_pairings(pending),
        "event_round": pending.number,
        "classified": None,
    }
    with transaction.atomic():  # as round_publish does
        create_pairings(event, data)
        pending.published_at = timezone.now()
        pending.minutes = 120
        pending.save(update_fields=["published_at", "minutes"])
    matches = Match.objects.filter(event=event).prefetch_related("seats")
    return [{"code": m.code, **{s.letter: s.token for s in m.seats.all()}} for m in matches]


def claims_in_logs(codes: list[str]) -> dict:
    """Per match: which seats are claimed on their rows, and which the log
    says were claimed (a SeatClaimed event)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
    import django

    django.setup()
    from tracker.models import Match

    out = {}
    for match in Match.objects.filter(code__in=codes).prefetch_related("seats", "events"):
        lines = [(e.kind, json.loads(e.data).get("seat")) for e in match.events.all()]
        out[match.code] = {
            "rows": sorted(s.letter for s in match.seats.all() if s.claimed),
            "logged": dict(Counter(seat for kind, seat in lines if kind == "SeatClaimed")),
            "moved": dict(Counter(seat for kind, seat in lines if kind == "SeatMoved")),
        }
    return out


# ------------------------------------------------------------------ phones


class Tally:
    def __init__(self) -> None:
        self.seen: Counter = Counter()  # (what, status)

    def saw(self, what: str, status: int) -> None:
        self.seen[(what, status)] += 1


def _form_fields(html: str) -> tuple[dict, str]:
    """The claim form's fields as rendered (what a browser submits) and its
    action. BeautifulSoup comes with WebTest (requirements-dev)."""
    from bs4 import BeautifulSoup

    form = BeautifulSoup(html, "html.parser").find(
        "form", attrs={"method": "post", "class": "card"}
    )
    if form is None:
        return {}, ""
    fields = {
        i["name"]: i.get("value", "")
        for i in form.find_all("input")
        if i.get("name") and i.get("type") != "submit"
    }
    return fields, form.get("action", "")


def _own_pin() -> str:
    """Six different digits, not a run: what forms.easy_pin lets through."""
    while True:
        digits = random.sample(range(10), 6)
        steps = {b - a for a, b in zip(digits, digits[1:], strict=False)}
        if steps not in ({1}, {-1}):
            return "".join(map(str, digits))


async def _page(http, method: str, url: str, tally: Tally, what: str, **kw):
    async with http.request(method, url, timeout=HTTP_TIMEOUT, **kw) as answer:
        html = await answer.text()
        for hop in answer.history:
            tally.saw(what, hop.status)
        tally.saw(what if not answer.history else what + " redirect", answer.status)
        return answer.status, str(answer.url), html


async def _statics(http, base: str, html: str, cache: set, tally: Tally) -> None:
    names = [n for n in STATIC.findall(html) if n not in cache]
    cache.update(names)

    async def one(name):
        async with http.get(base + name, timeout=HTTP_TIMEOUT) as answer:
            await answer.read()
            tally.saw("static", answer.status)

    await asyncio.gather(*(one(n) for n in names))


async def _socket(http, ws_base: str, origin: str, code: str) -> None:
    """app.js's connect(): tries until a first frame comes."""
    import aiohttp

    tries = 0
    while True:
        try:
            ws = await http.ws_connect(
                f"{ws_base}/ws/m/{code}/",
                headers={"Origin": origin},
                timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=2),
            )
            try:
                message = await ws.receive(timeout=5.0)
                if message.type == aiohttp.WSMsgType.TEXT:
                    await ws.close()
                    return
            except TimeoutError:
                pass
            await ws.close()
        except (TimeoutError, OSError, aiohttp.ClientError):
            pass
        wait = min(2.0, 0.25 * 2**tries)
        tries += 1
        await asyncio.sleep(wait / 2 + random.random() * wait / 2)  # noqa: S311


async def phone(connector, base, code, letter, token, own_pin, double_tap, tally, started) -> dict:
    import aiohttp

    origin = base
    lang = random.choice(["es-ES", "en-GB"])  # noqa: S311
    jar = aiohttp.CookieJar(unsafe=True)  # unsafe: cookies of an IP address (127.0.0.1)
    out = {"code": code, "letter": letter, "posts": 0, "problems": []}
    async with aiohttp.ClientSession(
        connector=connector,
        connector_owner=False,
        cookie_jar=jar,
        headers={"Accept-Language": lang},
    ) as http:
        link = f"{base}/m/{code}/s/{token}/"
        cache: set = set()
        while True:  # the seat link, until it loads
            status, url, html = await _page(http, "GET", link, tally, "open link")
            if status != 503:
                break
            await asyncio.sleep(random.randint(2, 4))  # noqa: S311 (the meta refresh)
        await _statics(http, base, html, cache, tally)
        fields, action = _form_fields(html)
        if status != 200 or "pin" not in fields:
            out["problems"].append(f"seat link answered {status} without a claim form")
            return out
        if own_pin:
            fields["pin"] = _own_pin()
        target = link if not action else base + action
        headers = {"Origin": origin, "Referer": link}
        while True:  # the claim
            out["posts"] += 1
            post = _page(http, "POST", target, tally, "claim", data=fields, headers=headers)
            if double_tap:
                # No answer yet after a moment: the player taps the button
                # again. The browser drops the first navigation (its answer,
                # cookies included, never reaches the page) and shows the
                # second's. The server may be running the first already.
                double_tap = False
                first = asyncio.ensure_future(post)
                done, _pending = await asyncio.wait([first], timeout=random.uniform(0.3, 1.5))  # noqa: S311
                if not done:
                    first.cancel()
                    out["posts"] += 1
                    post = _page(http, "POST", target, tally, "claim", data=fields, headers=headers)
                else:
                    post = asyncio.sleep(0, first.result())
            status, url, html = await post
            if status == 503 and url == target:
                # "Busy, tap again" with nothing to tap: Back, then the button.
                await asyncio.sleep(random.randint(2, 4))  # noqa: S311
                continue
            while status == 503:  # the redirect's page was shed: its meta refresh
                await asyncio.sleep(random.randint(2, 4))  # noqa: S311
                status, url, html = await _page(http, "GET", url, tally, "reload")
            break
        out["seated_s"] = time.monotonic() - started
        if any(t in html for t in TAKEN):
            out["problems"].append("told the seat was taken")
        seat = re.search(r'id="live"[^>]*data-seat="([AB])"', html)
        if status != 200 or seat is None or seat.group(1) != letter:
            out["problems"].append(
                f"ended on {url.removeprefix(base)} ({status}), seat "
                f"{seat.group(1) if seat else None} instead of {letter}"
            )
            return out
        await _statics(http, base, html, cache, tally)
        await _socket(http, "ws" + base.removeprefix("http"), origin, code)
        out["live_s"] = time.monotonic() - started
    return out


async def round_starts(
    base: str, tables: list[dict], share: float, doubles: float
) -> tuple[Tally, list[dict]]:
    import aiohttp

    tally = Tally()
    connector = aiohttp.TCPConnector(limit=0)
    started = time.monotonic()
    try:
        phones = [
            phone(
                connector,
                base,
                t["code"],
                letter,
                t[letter],
                random.random() < share,  # noqa: S311
                random.random() < doubles,  # noqa: S311
                tally,
                started,
            )
            for t in tables
            for letter in "AB"
        ]
        return tally, await asyncio.gather(*phones)
    finally:
        await connector.close()


def _python(env, *args) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    share = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    doubles = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    tmp = Path(tempfile.mkdtemp(prefix="tracker-claim-round-"))
    env = serving.environment(
        tmp, drop=("DATABASE_URL", "REDIS_URL", "STATIC_MANIFEST"), STATIC_ROOT=str(tmp / "static")
    )
    env["ALLOWED_HOSTS"] = "127.0.0.1"
    for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True)
    published = json.loads(_python(env, "bench/claim_round.py", "--publish", str(tables)))
    log = tmp / "serve.log"
    process, base = serving.serve_on_loopback(ROOT, env, log)
    try:
        tally, phones = asyncio.run(round_starts(base, published, share, doubles))
    finally:
        serving.stop(process)
    codes = [t["code"] for t in published]
    logs = json.loads(_python(env, "bench/claim_round.py", "--logs", *codes))
    for p in phones:
        claimed = logs[p["code"]]
        if claimed["logged"].get(p["letter"], 0) != 1:
            p["problems"].append(f"claims in the log: {claimed['logged'].get(p['letter'], 0)}")
        if claimed["moved"].get(p["letter"], 0):
            # The same phone throughout: a move in the log is false.
            p["problems"].append("the log says the seat moved to another phone")
        if p["letter"] not in claimed["rows"]:
            p["problems"].append("the seat is not claimed")
    wrong = [p for p in phones if p["problems"]]
    live = [p["live_s"] for p in phones if "live_s" in p]
    print(
        json.dumps(
            {
                "tables": tables,
                "phones": len(phones),
                "own_pin_share": share,
                "double_tap_share": doubles,
                "statuses": {f"{w} {s}": n for (w, s), n in sorted(tally.seen.items())},
                "claim_posts": Counter(p["posts"] for p in phones),
                "last_seated_s": round(max(p.get("seated_s", 0) for p in phones), 2),
                "last_live_s": round(max(live), 2) if live else None,
                "median_live_s": round(sorted(live)[len(live) // 2], 2) if live else None,
                "wrong": len(wrong),
                "wrong_examples": [p["problems"] for p in wrong[:8]],
                "tracebacks_in_log": log.read_text().count("Traceback"),
            },
            indent=1,
        )
    )
    print(f"server log: {log}", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--publish"]:
        print(json.dumps(publish_round(int(sys.argv[2]))))
    elif sys.argv[1:2] == ["--logs"]:
        print(json.dumps(claims_in_logs(sys.argv[2:])))
    else:
        main()
