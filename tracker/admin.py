"""The Django admin: superusers manage organizer accounts (users, and the
"organizers" group) and events here. Matches and their events are shown
read-only: the log is append-only and corrections are new events."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tracker.models import Match, MatchEvent, TournamentEvent


class OnlyListedLookups:
    """Django's admin accepts a lookup on any local field in the query string
    (`?data__regex=^{"secrets` answers "1 match event" or "0"), an oracle
    that read sealed payloads and seat links one character at a time without
    any record. Here only the changelist's own filters and date drill-down
    are accepted; any other lookup is refused (DisallowedModelAdminLookup, a
    400)."""

    def lookup_allowed(self, lookup, value, request=None):
        allowed = {str(name) for name in self.list_filter if isinstance(name, str)}
        if self.date_hierarchy:
            allowed.add(self.date_hierarchy)
        field = lookup.split("__")[0]
        if field not in allowed and lookup.rsplit("__", 1)[0] not in allowed:
            return False
        # A filter's own parameters only (exact, __id__exact, __isnull,
        # __day/__month/__year): never a pattern on a text field.
        last = lookup.rsplit("__", 1)[-1]
        if "__" in lookup and last not in SAFE_LOOKUPS:
            return False
        return super().lookup_allowed(lookup, value, request)


SAFE_LOOKUPS = {"exact", "id", "isnull", "day", "month", "year", "gte", "lt"}


@admin.register(TournamentEvent)
class TournamentEventAdmin(OnlyListedLookups, admin.ModelAdmin):
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
class MatchAdmin(OnlyListedLookups, ReadOnly, admin.ModelAdmin):
    list_display = ["name", "event", "event_round", "table_number", "status", "created_at", "seq"]
    list_filter = ["status", "event"]
    # Exact code only: a prefix search would be an oracle too.
    search_fields = ["name", "=code", "seats__name", "seats__listed_name"]
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
class MatchEventAdmin(OnlyListedLookups, ReadOnly, admin.ModelAdmin):
    list_display = ["match", "seq", "kind", "actor", "private_to", "created_at"]
    list_filter = ["kind", "actor"]
    search_fields = ["=match__code", "match__name"]
    list_select_related = ["match"]
    # The content stays out of the list: private events hold secrets of games
    # in play. Organizers read it on the audit page, where that is recorded.
    fields = ["match", "seq", "kind", "actor", "private_to", "action_id", "created_at", "hash"]


admin.site.site_header = _("Infinity tracker administration")
