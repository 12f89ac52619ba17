"""The tracker's ASGI application plus the bench's floors: the bare relay
route (bench/relay.py) and the bare Django action (bench/bare.py)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.urls import path  # noqa: E402

from bench.bare import bare_action  # noqa: E402
from bench.relay import RelayConsumer  # noqa: E402
from tracker import fast_pongs, gc_tuning, urls, whole_bodies  # noqa: E402
from tracker.http import ThreadPoolHTTP  # noqa: E402
from tracker.routing import websocket_urlpatterns  # noqa: E402

# Before the first request resolves a URL: the resolver is built lazily.
urls.urlpatterns.insert(0, path("bench/bare/<slug:name>/", bare_action))

application = ProtocolTypeRouter(
    {
        "http": ThreadPoolHTTP(),
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(
                URLRouter(
                    [path("ws/relay/<slug:name>/", RelayConsumer.as_asgi()), *websocket_urlpatterns]
                )
            )
        ),
    }
)

# As `manage.py serve` runs the app: pings answered as daphne reads them,
# and a body left whole for Django (serve's front door does the same).
fast_pongs.install()
whole_bodies.install()

# Loaded: what start-up made is never scanned again (tracker/gc_tuning.py).
gc_tuning.tune()
