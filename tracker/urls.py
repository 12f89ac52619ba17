from django.contrib import admin
from django.urls import include, path

from tracker import (
    event_public,
    list_views,
    url_words,  # noqa: F401 (registers the <word:...> converter)
    views,
)
from tracker.organizer import views as organizer_views
from tracker.organizer.login import limited_login

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("start/", views.start_page, name="start"),
    path("offline/", views.offline_page, name="offline"),
    path("csrf/", views.csrf_token, name="csrf-token"),
    path("new/", views.create_match, name="match-create"),
    path("m/<word:code>/", views.match_page, name="match"),
    path("m/<word:code>/host/", views.match_host, name="match-host"),
    path("m/<word:code>/s/<word:token>/", views.seat_link, name="seat-link"),
    path("m/<word:code>/hand-off/<word:letter>/", views.seat_hand_off, name="seat-hand-off"),
    path("m/<word:code>/act/<word:command>/", views.act, name="match-act"),
    path("m/<word:code>/draft/add/", views.draft_add, name="draft-add"),
    path("m/<word:code>/draft/remove/", views.draft_remove, name="draft-remove"),
    path("m/<word:code>/draft/import/", list_views.draft_import, name="draft-import"),
    path("m/<word:code>/draft/edit/", list_views.draft_edit, name="draft-edit"),
    path("m/<word:code>/draft/hand/", list_views.draft_hand, name="draft-hand"),
    path("m/<word:code>/blocks/", views.blocks_partial, name="match-blocks"),
    path("m/<word:code>/tap/<word:action_id>/", views.tap_status, name="tap-status"),
    path("m/<word:code>/export.json", organizer_views.player_export, name="player-export"),
    path("e/<int:pk>/", event_public.event_page, name="event-public"),
    path("e/list/<word:token>/", event_public.list_submit, name="event-list-submit"),
    path("organizer/", include("tracker.organizer.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # The admin's login, behind the same guess limit as the organizer login.
    path("admin/login/", limited_login(admin.site.login)),
    path("admin/", admin.site.urls),
]

# Our own error pages, in the phone's language (tracker/errors.py, issue 22).
handler400 = "tracker.errors.bad_request"
handler403 = "tracker.errors.permission_denied"
handler404 = "tracker.errors.page_not_found"
handler500 = "tracker.errors.server_error"
