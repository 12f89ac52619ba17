"""Migration 0010: a list handed before names were folded for accents gets
the roster's key (folding.name_key), so the pairing typed without accents
finds it; a key two of an event's lists would then share stays as it was
(one list a player: the unique constraint)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tracker", "0009_late_lists_and_receipts")]
AFTER = [("tracker", "0010_handed_list_keys_fold_accents")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_old_keys_fold_accents_unless_two_lists_would_share_one():
    apps = migrate(BEFORE)
    event = apps.get_model("tracker", "TournamentEvent").objects.create(
        name="Spring Open", date="2026-04-18"
    )
    handed = apps.get_model("tracker", "HandedList").objects
    # As 0009's HandedList.key wrote them: case and spaces folded only.
    inigo = handed.create(event=event, player="Íñigo Pérez", player_key="íñigo pérez")
    first = handed.create(event=event, player="José Ruiz", player_key="josé ruiz")
    second = handed.create(event=event, player="Jose Ruiz", player_key="jose ruiz")
    try:
        handed = migrate(AFTER).get_model("tracker", "HandedList").objects
        assert handed.get(pk=inigo.pk).player_key == "inigo perez"
        # "josé ruiz" would become "jose ruiz", the other list's key: kept.
        assert handed.get(pk=first.pk).player_key == "josé ruiz"
        assert handed.get(pk=second.pk).player_key == "jose ruiz"
    finally:
        migrate([("tracker", max_leaf())])  # the next test's schema


def max_leaf() -> str:
    executor = MigrationExecutor(connection)
    return max(name for app, name in executor.loader.graph.leaf_nodes() if app == "tracker")
