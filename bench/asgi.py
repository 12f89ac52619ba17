"""The tracker's ASGI application plus the bench's relay route (bench/relay.py)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.urls import path  # noqa: E402

from bench.relay import RelayConsumer  # noqa: E402
from tracker.http import ThreadPoolHTTP  # noqa: E402
from tracker.routing import websocket_urlpatterns  # noqa: E402

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
