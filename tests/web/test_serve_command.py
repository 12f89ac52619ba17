"""What `manage.py serve` hands daphne (tracker/management/commands/serve.py),
daphne itself not started: the front door's limits and the fast pongs are
in place before it runs, it listens for the phones on the LAN, and daphne
never reads X-Forwarded-For: behind our own proxy tracker/forwarded.py does,
once (daphne's --proxy-headers would parse it again, for its first address,
which a phone may write), and otherwise nothing does (any raw client could
forge the header and dodge the per-address limits)."""

from __future__ import annotations

from io import StringIO
from types import SimpleNamespace

import daphne.server
import pytest
from daphne.http_protocol import HTTPFactory
from daphne.ws_protocol import WebSocketFactory
from django.core.management import call_command

from tracker import fast_pongs, front_door, known_sessions
from tracker.management.commands import serve


@pytest.fixture
def served(monkeypatch):
    """Runs `serve`; what daphne would have been given: its arguments and
    the factories its Server would build its protocols with."""
    # daphne's own, whatever an earlier test's serve installed.
    monkeypatch.setattr(daphne.server, "HTTPFactory", HTTPFactory)
    monkeypatch.setattr(daphne.server, "WebSocketFactory", WebSocketFactory)
    monkeypatch.setattr(front_door, "raise_open_files_limit", lambda: 4096)
    given = SimpleNamespace(learned=0)

    def learn_stored():  # (read from the store by tests/web/test_known_sessions.py)
        given.learned += 1
        return 0

    monkeypatch.setattr(known_sessions, "learn_stored", learn_stored)

    def run(_cli, args):
        given.args = args
        given.learned_before_run = given.learned
        given.http_factory = daphne.server.HTTPFactory
        given.websocket_factory = daphne.server.WebSocketFactory

    monkeypatch.setattr(serve.CommandLineInterface, "run", run)

    def start():
        call_command("serve", "--port", "8123", stdout=StringIO())
        return given

    return start


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_daphne_never_reads_forwarded_addresses(served, settings, behind_proxy):
    settings.BEHIND_PROXY = behind_proxy
    args = served().args
    assert "--proxy-headers" not in args
    endpoint = args[args.index("-e") + 1]
    assert ":interface=0.0.0.0:" in endpoint  # the phones on the LAN
    assert endpoint.startswith("tcp:port=8123:") and endpoint.endswith(":backlog=1024")
    assert args[-1] == "tracker.asgi:application"


def test_daphne_runs_behind_the_front_door_and_answers_pings_itself(served, settings):
    settings.HTTP_MAX_CONNECTIONS = 100
    settings.HTTP_CONNECTIONS_PER_ADDRESS = 8
    settings.BEHIND_PROXY = False
    given = served()
    connections = given.http_factory(SimpleNamespace())
    assert isinstance(connections, front_door.Connections)
    assert connections.limits.per_address == 8 and connections.limits.max_connections == 100
    assert given.websocket_factory is fast_pongs.PongingFactory


def test_a_restarted_server_knows_the_stored_sessions_before_it_answers(served):
    """A venue's phones come back together after a restart: their sessions
    are known before daphne answers the first of them
    (tracker/known_sessions.py)."""
    assert served().learned_before_run == 1
