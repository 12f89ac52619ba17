"""ASGI entry point: HTTP through Django (on a pool of threads), websockets
through Channels, one port."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from tracker import gc_tuning  # noqa: E402
from tracker.forwarded import ForwardedClient  # noqa: E402
from tracker.http import ThreadPoolHTTP  # noqa: E402
from tracker.routing import websocket_urlpatterns  # noqa: E402
from tracker.ws_security import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Django's WSGI handler on a fixed pool of threads (tracker/http.py).
        "http": ThreadPoolHTTP(),
        # The Origin checks refuse a handshake from any page not served by us
        # (cross-site websocket hijacking): the host must be allowed, and the
        # origin exactly ours, scheme and port included. The session
        # identifies the seat.
        "websocket": AllowedHostsOriginValidator(
            SameOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

if settings.BEHIND_PROXY:
    # The client is the address our proxy saw, not one a phone wrote
    # (tracker/forwarded.py).
    application = ForwardedClient(application)

# Loaded: what start-up made is never scanned again (tracker/gc_tuning.py).
gc_tuning.tune()
