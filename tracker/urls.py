from django.contrib import admin
from django.urls import include, path

from tracker import event_public, list_views, views
from tracker.organizer import views as organizer_views
from tracker.organizer.login import limited_login

# Every text a route carries (a match code, a seat or list link's token, a
# command's name, a seat letter, a tap's action id) is made of letters,
# digits, "-" and "_" (secrets.token_urlsafe, CamelCase names): Django's own
# `slug` converter, never `str`. With `str` any character reached the views,
# which look codes and tokens up in the database, and PostgreSQL refuses a
# text holding U+0000: a link with "%00" in it (a mangled QR code, a curious
# player) was a 500 there. Outside the alphabet no route matches: our own
# 404 in the phone's language, and a socket's 4404
# (tests/web/test_links_outside_their_alphabet.py).
urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("start/", views.start_page, name="start"),
    path("offline/", views.offline_page, name="offline"),
    path("csrf/", views.csrf_token, name="csrf-token"),
    path("new/", views.create_match, name="match-create"),
    path("m/<slug:code>/", views.match_page, name="match"),
    path("m/<slug:code>/host/", views.match_host, name="match-host"),
    path("m/<slug:code>/s/<slug:token>/", views.seat_link, name="seat-link"),
    path("m/<slug:code>/hand-off/<slug:letter>/", views.seat_hand_off, name="seat-hand-off"),
    path("m/<slug:code>/act/<slug:command>/", views.act, name="match-act"),
    path("m/<slug:code>/draft/add/", views.draft_add, name="draft-add"),
    path("m/<slug:code>/draft/remove/", views.draft_remove, name="draft-remove"),
    path("m/<slug:code>/draft/import/", list_views.draft_import, name="draft-import"),
    path("m/<slug:code>/draft/edit/", list_views.draft_edit, name="draft-edit"),
    path("m/<slug:code>/draft/hand/", list_views.draft_hand, name="draft-hand"),
    path("m/<slug:code>/blocks/", views.blocks_partial, name="match-blocks"),
    path("m/<slug:code>/tap/<slug:action_id>/", views.tap_status, name="tap-status"),
    path("m/<slug:code>/export.json", organizer_views.player_export, name="player-export"),
    path("e/<int:pk>/", event_public.event_page, name="event-public"),
    path("e/list/<slug:token>/", event_public.list_submit, name="event-list-submit"),
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
