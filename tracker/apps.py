from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TrackerConfig(AppConfig):
    name = "tracker"
    verbose_name = _("Infinity match tracker")

    def ready(self):
        # Registers the SQLite name-folding function on every new connection.
        from tracker import folding  # noqa: F401
