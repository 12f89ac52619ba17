from django.urls import path, re_path

from tracker.consumers import MatchConsumer, UnknownPathConsumer

websocket_urlpatterns = [
    path("ws/m/<slug:code>/", MatchConsumer.as_asgi()),
    # Any other path: a clean refusal, not URLRouter's ValueError and traceback.
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
