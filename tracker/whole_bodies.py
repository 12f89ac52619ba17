"""daphne's HTTP request without Twisted's form parsing (issue 18).

Twisted's Request parses a form POST's body into `request.args` before
handing the request on (its Content-Type through the email package's header
registry, then the body through parse_qs), and daphne never reads
`request.args`: it passes the body's bytes to the app, where Django parses
them once more. Every tap is a form POST, so that parse was pure waste: about
2.5% of a served action's CPU in py-spy (bench/serve_cpu.py, 20 matches).
Twisted's own switch for it (parsePOSTFormSubmission) is an argument of the
request's constructor that daphne does not pass, so the request class passes
it here.

`manage.py serve` gets it through tracker/front_door.py (whose request
extends this one); bench/asgi.py installs it alone, as serve runs it but
without the front door's per-address limits.
"""

from __future__ import annotations

import daphne.server  # noqa: F401 (installs the asyncio reactor before Twisted's web imports)
from daphne.http_protocol import HTTPFactory, WebRequest


class WholeBodyRequest(WebRequest):
    """daphne's request, its body left whole for the app to parse."""

    def __init__(self, *args, **kwargs):
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


class WholeBodyHTTPFactory(HTTPFactory):
    def buildProtocol(self, addr):
        channel = super().buildProtocol(addr)
        if channel is not None:
            channel.requestFactory = WholeBodyRequest
        return channel


def install() -> None:
    """Make daphne's Server build its HTTP protocols with WholeBodyRequest
    (it reads this module-level name when it runs)."""
    daphne.server.HTTPFactory = WholeBodyHTTPFactory
