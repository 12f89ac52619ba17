"""Fixtures name people: alice and bob play, carol organizes, mallory is
anyone else."""

import contextlib
import gc
import importlib
import inspect
import os
import threading

import pytest
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck, settings

from tests.strict_templates import make_templates_strict
from tracker.rules import process_caches

# Before any template engine exists: a name a template cannot resolve raises.
make_templates_strict(django_settings)


def _patient_communicators() -> None:
    """Channels' test communicators wait 1 s by default for a connect or a
    frame: a timed assertion, which a busy CI machine failed (a socket-limit
    test's connect). A frame that must come is waited for up to 10 s; a
    test that checks that none comes says so with receive_nothing."""
    from channels.testing import WebsocketCommunicator

    connect, receive_from = WebsocketCommunicator.connect, WebsocketCommunicator.receive_from

    async def patient_connect(self, timeout=10):
        return await connect(self, timeout)

    async def patient_receive_from(self, timeout=10):
        return await receive_from(self, timeout)

    WebsocketCommunicator.connect = patient_connect
    WebsocketCommunicator.receive_from = patient_receive_from


_patient_communicators()

# CI=true: the same examples on every run (derandomized, so a failure in CI
# is reproduced by running the same commit), at least as many as locally, and
# the blob to replay a failure printed. Tests that set max_examples keep theirs.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
)


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    # The process's caches (read states, renders, row memos, the rules' kept
    # views, texts and offers) start empty, as in a new process: tests reuse
    # primary keys across databases, and what a test finds in them must not
    # depend on which tests its worker ran before (pytest-xdist runs files
    # in no fixed order). Each cache registers itself (process_caches).
    process_caches.forget_all()
    yield
    process_caches.forget_all()


@pytest.fixture(autouse=True)
def _rows_migrate_made(request):
    """A transactional test's flush empties every table, the rows data
    migrations made included (the "organizers" group). In one process
    pytest-django runs transactional tests last; pytest-xdist's `--dist
    loadfile` runs each file's tests together, so a later file's test on
    the same worker found no group. Each test with the database starts
    with what `migrate` made."""
    if "_django_db_helper" in request.fixturenames or request.node.get_closest_marker("django_db"):
        from django.apps import apps

        request.getfixturevalue("_django_db_helper")
        _ORGANIZERS_GROUP.forwards(apps, None)
    yield


_ORGANIZERS_GROUP = importlib.import_module("tracker.migrations.0004_organizers_group")


@pytest.fixture(autouse=True)
def _no_guess_limit_leaks(settings):
    # The counters (default) and the sessions kept in front of a database
    # each test rolls back: neither outlives its test.
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()
    yield
    for cache in caches.all():
        cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    # A request in Spanish leaves Spanish active on its thread (Django's test
    # client runs requests on the test's): a later test reading translated
    # text outside a request read it in Spanish, depending on what ran first.
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def alice():
    return Client()


@pytest.fixture
def bob():
    return Client()


@pytest.fixture
def mallory():
    return Client()


@pytest.fixture
def carol(db):
    """An organizer (member of the "organizers" group), logged in."""
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user("carol", password="carol-organizes-2026")
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    client = Client()
    client.force_login(user)
    return client


def pytest_sessionfinish(session):
    # A pytest-xdist worker hands its reports to the controller, which prints
    # the terminal summary (pytest_testnodedown below).
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        from tests.support import REPORTS

        output["reports"] = [[title, list(lines)] for title, lines in REPORTS]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    from tests.support import REPORTS

    for title, lines in getattr(node, "workeroutput", {}).get("reports", []):
        REPORTS.append((title, lines))


def pytest_terminal_summary(terminalreporter):
    from tests.support import REPORTS

    for title, lines in REPORTS:
        terminalreporter.section(title)
        for line in lines:
            terminalreporter.write_line(line)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    """Before a test's fixtures are torn down (and its database flushed):
    the sockets' threads end what they were doing. A closed socket's last
    seq poll (tracker/match_seqs.py) could still be reading on one of them
    when pytest-django flushed SQLite's shared in-memory database, which
    then refused: "database table is locked: tracker_match" (CI, twice, in
    tests that had disconnected their sockets)."""
    from tracker import socket_threads

    if inspect.iscoroutinefunction(getattr(item, "obj", None)):
        LOOPS_ENDED.append(item.nodeid)
    for pool in list(socket_threads._pools.values()):
        # Every worker of the pool at one barrier: each has finished the
        # job it had. A worker stuck past the timeout breaks the barrier
        # (the flush then fails as before, naming the test).
        workers = pool._max_workers
        barrier = threading.Barrier(workers + 1, timeout=10)
        for _ in range(workers):
            pool.submit(_wait_at, barrier)
        _wait_at(barrier)


# An async test's event loop, its tasks, the consumers' queues and the
# sockets' futures end in reference cycles; left to the collector, they were
# collected on whatever thread allocated next. Four times in CI a worker died
# of a segmentation fault "Garbage-collecting" on a server thread of the leak
# harness (tests/web/test_indirect_leaks*.py, async tests with in-process
# sockets), twice with Playwright's greenlets among the garbage (now in
# processes of their own, tests/browser/conftest.py) and once with none. The
# cause is not found; the garbage of an async test is now collected here, on
# the thread its loop ran on, once pytest has let go of the test's fixtures.
LOOPS_ENDED: list[str] = []


def pytest_runtest_logfinish(nodeid, location):
    if LOOPS_ENDED:
        LOOPS_ENDED.clear()
        gc.collect()


def _wait_at(barrier: threading.Barrier) -> None:
    with contextlib.suppress(threading.BrokenBarrierError):
        barrier.wait()
