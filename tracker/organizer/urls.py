from django.contrib.auth import views as auth_views
from django.urls import path

from tracker.organizer import event_audit_views, event_views, views
from tracker.organizer.login import limited_login

urlpatterns = [
    path(
        "login/",
        limited_login(
            auth_views.LoginView.as_view(
                template_name="registration/login.html", redirect_authenticated_user=True
            )
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("", views.match_list, name="organizer-matches"),
    path("events/", views.event_list, name="organizer-events"),
    path("events/<int:pk>/", views.event_detail, name="organizer-event"),
    path("events/<int:pk>/sheets/", views.event_sheets, name="organizer-event-sheets"),
    path("events/<int:pk>/export.json", views.event_export_json, name="organizer-event-json"),
    path("events/<int:pk>/export.csv", views.event_export_csv, name="organizer-event-csv"),
    # Running the event (issue 21).
    path("events/<int:pk>/run/", event_views.event_run, name="organizer-event-run"),
    path("events/<int:pk>/run/live/", event_views.event_run_live, name="organizer-event-run-live"),
    path("events/<int:pk>/roster/", event_views.roster_add, name="organizer-roster-add"),
    path("events/<int:pk>/roster/paste/", event_views.roster_paste, name="organizer-roster-paste"),
    path(
        "events/<int:pk>/roster/<int:player>/drop/",
        event_views.roster_drop,
        name="organizer-roster-drop",
    ),
    path(
        "events/<int:pk>/roster/<int:player>/late-list/",
        event_views.roster_late_list,
        name="organizer-roster-late-list",
    ),
    path("events/<int:pk>/scoring/", event_views.event_scoring, name="organizer-event-scoring"),
    path("events/<int:pk>/lists/", event_views.lists_deadline, name="organizer-lists-deadline"),
    path("events/<int:pk>/rounds/draw/", event_views.round_draw, name="organizer-round-draw"),
    path("events/<int:pk>/rounds/swap/", event_views.round_swap, name="organizer-round-swap"),
    path(
        "events/<int:pk>/rounds/publish/", event_views.round_publish, name="organizer-round-publish"
    ),
    path(
        "events/<int:pk>/rounds/<int:number>/clock/<slug:action>/",
        event_views.round_clock,
        name="organizer-round-clock",
    ),
    path(
        "events/<int:pk>/audit/", event_audit_views.event_audit_page, name="organizer-event-audit"
    ),
    path(
        "events/<int:pk>/audit/receipts/",
        event_audit_views.event_receipts_check,
        name="organizer-event-receipts",
    ),
    path(
        "events/<int:pk>/standings.csv",
        event_audit_views.standings_csv,
        name="organizer-standings-csv",
    ),
    path(
        "events/<int:pk>/results.csv", event_audit_views.results_csv, name="organizer-results-csv"
    ),
    path("matches/<slug:code>/", views.match_audit, name="organizer-audit"),
    path("matches/<slug:code>/open/", views.match_open, name="organizer-audit-open"),
    path("matches/<slug:code>/settle/", views.match_settle, name="organizer-settle"),
    path("matches/<slug:code>/sheet/", views.match_sheet, name="organizer-match-sheet"),
    path("matches/<slug:code>/export.json", views.match_export_json, name="organizer-match-json"),
    path("matches/<slug:code>/export.csv", views.match_export_csv, name="organizer-match-csv"),
]
