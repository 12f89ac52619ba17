"""ASGI entry point: HTTP through Django, websockets through Channels, one port."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from tracker.routing import websocket_urlpatterns  # noqa: E402
from tracker.ws_security import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin checks refuse a handshake from any page not served by us
        # (cross-site websocket hijacking): the host must be allowed, and the
        # origin exactly ours, scheme and port included. The session
        # identifies the seat.
        "websocket": AllowedHostsOriginValidator(
            SameOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
