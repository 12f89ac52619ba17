"""Profile one served action in-process (pyinstrument): the POST of a
trooper's State form and the renders its pushes need, on a match in play.
`python bench/profile_action.py [actions]` prints where the time goes."""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TMP = tempfile.mkdtemp(prefix="tracker-profile-")
os.environ.update(
    DJANGO_SETTINGS_MODULE="tracker.settings",
    SQLITE_PATH=f"{TMP}/db.sqlite3",
    TRACKER_VAR_DIR=TMP,
    ALLOWED_HOSTS="testserver,localhost",
)
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from pyinstrument import Profiler  # noqa: E402

from tracker import actions  # noqa: E402
from tracker.models import Match  # noqa: E402
from tracker.rendering import blocks_for  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    import subprocess

    made = json.loads(
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "setup_matches.py"), "1"],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        ).stdout
    )[0]
    actions.notify = lambda *args: None
    clients = {}
    for letter in "AB":
        client = Client()
        client.cookies["sessionid"] = made[letter]
        clients[letter] = client
    match = Match.objects.get(code=made["code"])
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    prone: dict[str, bool] = {}
    # PROFILE_ACTION_TIME=1: no profiler, the CPU time per action only (to
    # compare two trees by the same loop).
    timed = os.environ.get("PROFILE_ACTION_TIME") == "1"
    # PROFILE_ACTION_CPROFILE=1: cProfile's flat table (own time first), for
    # the small costs pyinstrument's tree spreads over many callers.
    flat = cProfile.Profile() if os.environ.get("PROFILE_ACTION_CPROFILE") == "1" else None
    profiler = None if timed or flat else Profiler(interval=0.0005)
    if flat:
        flat.enable()
    started = time.process_time()
    if profiler:
        profiler.start()
    for n in range(count):
        letter = "AB"[n % 2]
        trooper = f"{letter.lower()}{n % 10:07d}"  # bench.setup_matches.army
        data = {"trooper_id": trooper, "condition": "normal", "action_id": f"prof-{n:06d}"}
        prone[trooper] = not prone.get(trooper, False)
        if prone[trooper]:
            data["tokens"] = "prone"
        response = clients[letter].post(
            f"/m/{match.code}/act/SetTrooperState/", data, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200, response.status_code
        assert b'class="error"' not in response.content, response.content[:300]
        # What the two sockets then render (the actor's is a cache hit).
        fresh = Match.objects.get(pk=match.pk)
        for seat in fresh.seats.all():
            blocks_for(fresh, seat)
    if flat:
        flat.disable()
        pstats.Stats(flat).sort_stats("tottime").print_stats(45)
        if os.environ.get("PROFILE_ACTION_DUMP"):
            flat.dump_stats(os.environ["PROFILE_ACTION_DUMP"])
        if os.environ.get("PROFILE_CALLERS"):
            pstats.Stats(flat).sort_stats("tottime").print_callers(os.environ["PROFILE_CALLERS"])
        return
    if profiler is None:
        print(f"{(time.process_time() - started) * 1000 / count:.2f} ms of CPU an action")
        return
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()
