"""Serve HTTP and websockets on one port with daphne, with the limits of
tracker/front_door.py, and say which address a phone on the same Wi-Fi
should open."""

from daphne.cli import CommandLineInterface
from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from tracker import fast_pongs, front_door, known_sessions


class Command(BaseCommand):
    help = "Run the tracker for phones on this network."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0")  # noqa: S104 (phones on the LAN)
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, **options):
        port = options["port"]
        self.stdout.write(_("Infinity tracker is running."))
        if settings.PUBLIC_URL:
            # What seat links and QR codes carry (tracker/links.py).
            self.stdout.write(
                _("Phones open: %(url)s/ (PUBLIC_URL)") % {"url": settings.PUBLIC_URL}
            )
        for address in settings.PHONE_ADDRESSES:
            self.stdout.write(
                _("On a phone on the same Wi-Fi, open: http://%(address)s:%(port)s/")
                % {"address": address, "port": port}
            )
        if not settings.PUBLIC_URL and not settings.PHONE_ADDRESSES:
            self.stdout.write(
                _(
                    "No network address found: phones cannot reach this computer yet. "
                    "Connect it to the Wi-Fi (or set PUBLIC_URL): no restart is needed, "
                    "the host page at http://localhost:%(port)s/ then shows its address."
                )
                % {"port": port}
            )
        self.stdout.write(_("On this computer: http://localhost:%(port)s/") % {"port": port})
        self.stdout.flush()
        # Issue 22: the server's own limits (connections per address,
        # deadlines, the body cap) go into daphne's protocol before it runs.
        open_files = front_door.raise_open_files_limit()
        front_door.install(front_door.Limits.from_settings(settings, open_files))
        # A restarted laptop knows its phones' sessions at once: their page
        # loads count against each session, not all against the venue's
        # one address (tracker/known_sessions.py).
        known_sessions.learn_stored()
        # Issue 18: a phone's pings answered as they are read (fast_pongs.py).
        fast_pongs.install()
        # daphne's -b/-p listen with Twisted's backlog of 50: a venue's burst
        # of connections (or one client's) overflowed it, and the kernel then
        # dropped the phones' new connections, which retry only after 1, 3
        # and 7 s. The same endpoint with a backlog of our own.
        interface = options["host"].strip("[]").replace(":", r"\:")
        endpoint = f"tcp:port={port}:interface={interface}:backlog={settings.HTTP_LISTEN_BACKLOG}"
        # Not daphne's --proxy-headers: behind our proxy (BEHIND_PROXY) the
        # client's address is read from X-Forwarded-For once, by
        # tracker/forwarded.py (the last address; daphne's is the first, one
        # a phone may write), and never otherwise.
        args = ["-e", endpoint]
        CommandLineInterface().run([*args, "tracker.asgi:application"])
