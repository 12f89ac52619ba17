"""HandedList.player_key as the roster's key (folding.name_key): accents
folded too, not only case and spaces. A key two of an event's lists would
now share is left as it was: the unique constraint keeps one list a player,
and which of the two is his is the organizer's call (both show on the
event's page)."""

from django.db import migrations


def fold_keys(apps, schema_editor):
    from tracker.folding import name_key

    HandedList = apps.get_model("tracker", "HandedList")
    taken = set(HandedList.objects.values_list("event_id", "player_key"))
    for handed in HandedList.objects.order_by("handed_at", "pk"):
        key = name_key(handed.player)
        if key == handed.player_key or (handed.event_id, key) in taken:
            continue
        taken.discard((handed.event_id, handed.player_key))
        taken.add((handed.event_id, key))
        handed.player_key = key
        handed.save(update_fields=["player_key"])


class Migration(migrations.Migration):
    dependencies = [("tracker", "0009_late_lists_and_receipts")]

    operations = [migrations.RunPython(fold_keys, migrations.RunPython.noop)]
