from django.urls import path, re_path

from tracker import url_words  # noqa: F401 (registers the <word:...> converter)
from tracker.consumers import MatchConsumer, UnknownPathConsumer

websocket_urlpatterns = [
    path("ws/m/<word:code>/", MatchConsumer.as_asgi()),
    # Any other path: a clean refusal, not URLRouter's ValueError and traceback.
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
