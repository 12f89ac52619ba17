"""The app as `make run` serves it (issue 17): static files collected into
their own STATIC_ROOT (so the manifest storage with hashed names is on),
DEBUG off, the default ALLOWED_HOSTS (this machine's LAN addresses), and the
`serve` management command in a subprocess. Nothing of the test client: a
page that only works with the source folders' static files fails here.

Also a small HTTP client with its own cookies (a phone without a browser),
and a TCP proxy that can refuse every connection (a real network fault).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import re
import socket
import struct
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from bs4 import BeautifulSoup

from bench import serving
from bench.serving import free_port

ROOT = Path(__file__).resolve().parents[2]


def manage(env: dict, *args: str, input_text: str | None = None) -> str:
    """`manage.py *args` with `env`, its output (raises on failure): this
    module's and the browser tests' `server` fixture (conftest.py)."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=input_text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@dataclass
class Served:
    url: str
    port: int
    env: dict
    printed: str
    log: Path
    process: subprocess.Popen

    def manage(self, *args: str) -> str:
        return manage(self.env, *args)

    def log_text(self) -> str:
        """What the server logged (its stderr), as tests.scale's LiveServer
        gives it: a module's `served` may be either."""
        return self.log.read_text(errors="replace")

    def errors_logged(self) -> list[str]:
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines() if "Traceback" in line or " 500 " in line]

    def stop(self) -> None:
        serving.stop(self.process)


# The static files collected by this process (a test worker) for the first
# server it started: collectstatic minifies and compresses every file (12 s
# of CPU on a slow machine), and each of some sixty browser modules ran it
# again for the same files, a quarter of the browser suite's time. Every
# server still serves files collectstatic wrote, through its manifest, as
# `make run` does; none writes to them.
_collected: list[Path] = []


def start_as_make_run(tmp: Path, extra_env: dict | None = None) -> Served:
    """migrate, collectstatic and serve, as the Makefile's `run` does."""
    port = free_port()
    static = _collected[0] if _collected else tmp / "staticfiles"
    extra = {"STATIC_ROOT": str(static), **(extra_env or {})}
    unset = ("DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "PUBLIC_URL", "STATIC_MANIFEST")
    env = serving.environment(tmp, drop=unset, **extra)
    manage(env, "migrate", "--noinput", "-v0")
    if not _collected or env["STATIC_ROOT"] != str(_collected[0]):
        manage(env, "collectstatic", "--noinput", "-v0")
        if not _collected:
            _collected.append(Path(env["STATIC_ROOT"]))
    log = tmp / "serve.log"
    out = tmp / "serve.out"
    url = f"http://127.0.0.1:{port}"
    process = serving.start(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        url=url + "/offline/",
        stdout=open(out, "w"),  # noqa: SIM115 (lives as long as the server)
        stderr=open(log, "w"),  # noqa: SIM115
        timeout=40,
        log=log.read_text,
    )
    return Served(url, port, env, out.read_text(), log, process)


@dataclass
class Answer:
    status: int
    url: str
    headers: dict
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def soup(self) -> BeautifulSoup:
        return BeautifulSoup(self.text, "lxml")


@dataclass
class Visitor:
    """A phone without a browser: its own cookies, redirects followed."""

    base: str
    language: str = "en"
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self):
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def _open(self, request) -> Answer:
        request.add_header("Accept-Language", self.language)
        try:
            with self.opener.open(request, timeout=20) as answer:
                return Answer(answer.status, answer.url, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.url, dict(error.headers), error.read())

    def get(self, path: str) -> Answer:
        url = urllib.parse.urljoin(self.base, path)
        return self._open(urllib.request.Request(url))  # noqa: S310 (loopback http only)

    def post(self, path: str, data: dict) -> Answer:
        body = urllib.parse.urlencode(data, doseq=True).encode()
        url = urllib.parse.urljoin(self.base, path)
        request = urllib.request.Request(url, data=body)  # noqa: S310 (loopback http only)
        return self._open(request)

    def submit(self, page: Answer, selector: str, **fields) -> Answer:
        """Post the form `selector` of `page` as rendered, with `fields` typed in."""
        form = page.soup.select_one(selector)
        assert form is not None, f"no {selector} on {page.url}"
        data: dict[str, object] = {}
        for node in form.select("input[name], select[name], textarea[name]"):
            name = node["name"]
            if node.name == "select":
                chosen = node.select_one("option[selected]") or node.select_one("option")
                data[name] = chosen.get("value", chosen.text) if chosen else ""
            elif node.get("type") in ("checkbox", "radio"):
                if node.has_attr("checked"):
                    data[name] = node.get("value", "on")
            elif node.get("type") != "submit":
                data[name] = node.get("value", node.text if node.name == "textarea" else "")
        unknown = set(fields) - set(data)
        assert not unknown, f"the form does not render {unknown}"
        data.update(fields)
        action = urllib.parse.urljoin(page.url, form.get("action") or page.url)
        return self.post(action, data)


class RefusingProxy:
    """A TCP proxy between a browser and the server that can be switched to
    refuse: its port stops listening (connection refused) and every open
    connection is reset, as when the venue's server laptop or Wi-Fi is gone.
    A real fault, not the browser's offline switch."""

    def __init__(self, target_port: int):
        self.target = ("127.0.0.1", target_port)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.2)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def refuse(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        with self._lock:
            doomed, self._open = list(self._open), set()
        for sock in doomed:
            try:
                # Linger 0: close sends a reset, not a clean end.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()
            except OSError:
                pass

    close = refuse

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _address = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            client.settimeout(None)
            upstream.settimeout(None)
            with self._lock:
                self._open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                chunk = source.recv(65536)
                if not chunk:
                    break
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)


HASHED_STATIC = re.compile(r"/static/tracker/app\.[0-9a-f]{12}\.js")
