"""A whole venue behind one NAT address (issue 18), against the server `make
run` starts, with its default limits (tracker/front_door.py, consumers.py).

Every phone of a 150-table night comes from the venue's one address. The
per-address limits were sized for a 50-table event: past 200 sockets from
one address a phone's socket was refused and the phone said "Offline" for
the whole night while its Wi-Fi and the server were fine.
"""

from __future__ import annotations

import contextlib
import json

from tests.scale.servers import LiveServer, make_matches, manage, phone_socket, server_env

TABLES = 150


def _open(stack: contextlib.ExitStack, server: LiveServer, code: str, session: str):
    """A phone's socket as app.js opens it (its page's Origin, its session
    cookie), and what it got first: its first frame, or a refusal."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    try:
        socket = stack.enter_context(phone_socket(server, code, session))
        frame = socket.recv(timeout=60)
    except InvalidStatus as refused:
        return None, f"refused {refused.response.status_code}"
    except ConnectionClosed as closed:
        return None, f"closed {closed.rcvd.code if closed.rcvd else '?'}"
    return socket, "frame" if 'id="seq"' in frame else f"other: {frame[:80]}"


def test_every_phone_of_a_150_table_night_behind_one_address_gets_its_socket(tmp_path):
    env = server_env(tmp_path)
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, TABLES)
    server = LiveServer(env, tmp_path / "serve.log").start()
    try:
        with contextlib.ExitStack() as stack:
            opened = [
                _open(stack, server, made["code"], made[letter])
                for made in matches
                for letter in "AB"
            ]
            outcomes = [outcome for _socket, outcome in opened]
            assert outcomes == ["frame"] * 2 * TABLES, {o: outcomes.count(o) for o in outcomes}
            # And the last phones in still ping and are answered: the link is live.
            for socket, _outcome in opened[-4:]:
                socket.send(json.dumps({"ping": 1}))
                while "pong" not in (message := json.loads(socket.recv(timeout=30))):
                    pass
                assert message["pong"] == 1
    finally:
        server.stop()
