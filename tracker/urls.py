from django.contrib import admin
from django.urls import include, path

from tracker import event_public, list_views, views
from tracker.organizer import views as organizer_views
from tracker.organizer.login import limited_login

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("start/", views.start_page, name="start"),
    path("offline/", views.offline_page, name="offline"),
    path("csrf/", views.csrf_token, name="csrf-token"),
    path("new/", views.create_match, name="match-create"),
    path("m/<str:code>/", views.match_page, name="match"),
    path("m/<str:code>/host/", views.match_host, name="match-host"),
    path("m/<str:code>/s/<str:token>/", views.seat_link, name="seat-link"),
    path("m/<str:code>/hand-off/<str:letter>/", views.seat_hand_off, name="seat-hand-off"),
    path("m/<str:code>/act/<str:command>/", views.act, name="match-act"),
    path("m/<str:code>/draft/add/", views.draft_add, name="draft-add"),
    path("m/<str:code>/draft/remove/", views.draft_remove, name="draft-remove"),
    path("m/<str:code>/draft/import/", list_views.draft_import, name="draft-import"),
    path("m/<str:code>/draft/edit/", list_views.draft_edit, name="draft-edit"),
    path("m/<str:code>/draft/hand/", list_views.draft_hand, name="draft-hand"),
    path("m/<str:code>/blocks/", views.blocks_partial, name="match-blocks"),
    path("m/<str:code>/tap/<str:action_id>/", views.tap_status, name="tap-status"),
    path("m/<str:code>/export.json", organizer_views.player_export, name="player-export"),
    path("e/<int:pk>/", event_public.event_page, name="event-public"),
    path("e/list/<str:token>/", event_public.list_submit, name="event-list-submit"),
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
