from django.contrib.auth import views as auth_views
from django.urls import path

from tracker.organizer import views
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
    path("matches/<str:code>/", views.match_audit, name="organizer-audit"),
    path("matches/<str:code>/open/", views.match_open, name="organizer-audit-open"),
    path("matches/<str:code>/settle/", views.match_settle, name="organizer-settle"),
    path("matches/<str:code>/sheet/", views.match_sheet, name="organizer-match-sheet"),
    path("matches/<str:code>/export.json", views.match_export_json, name="organizer-match-json"),
    path("matches/<str:code>/export.csv", views.match_export_csv, name="organizer-match-csv"),
]
