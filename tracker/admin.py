"""The Django admin: superusers manage organizer accounts (users, and the
"organizers" group) and events here. Matches and their events are shown
read-only: the log is append-only and corrections are new events."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tracker.models import Match, MatchEvent, TournamentEvent


@admin.register(TournamentEvent)
class TournamentEventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "location"]
    search_fields = ["name", "location"]
    date_hierarchy = "date"


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["name", "event", "event_round", "table_number", "status", "created_at", "seq"]
    list_filter = ["status", "event"]
    search_fields = ["name", "code", "seats__name", "seats__listed_name"]
    list_select_related = ["event"]
    date_hierarchy = "created_at"
    # Seat tokens and the host token are links into the match: never listed here.
    fields = [
        "code",
        "name",
        "event",
        "event_round",
        "table_number",
        "points_limit",
        "mission",
        "status",
        "result",
        "created_at",
        "seq",
        "last_hash",
    ]


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["match", "seq", "kind", "actor", "private_to", "created_at"]
    list_filter = ["kind", "actor"]
    search_fields = ["match__code", "match__name"]
    list_select_related = ["match"]
    # The content stays out of the list: private events hold secrets of games
    # in play. Organizers read it on the audit page, where that is recorded.
    fields = ["match", "seq", "kind", "actor", "private_to", "action_id", "created_at", "hash"]


admin.site.site_header = _("Infinity tracker administration")
