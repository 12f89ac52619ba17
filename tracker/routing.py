from django.urls import path

from tracker.consumers import MatchConsumer

websocket_urlpatterns = [path("ws/m/<str:code>/", MatchConsumer.as_asgi())]
