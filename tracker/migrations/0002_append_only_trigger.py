"""On PostgreSQL the database itself refuses UPDATE and DELETE on the event
log, so a row cannot be changed even behind the ORM's back by accident (a
deliberate superuser can still drop the trigger: the hash chain catches that)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tracker_events_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'match events are append-only (% refused)', TG_OP;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS tracker_matchevent_append_only ON tracker_matchevent;
CREATE TRIGGER tracker_matchevent_append_only
    BEFORE UPDATE OR DELETE ON tracker_matchevent
    FOR EACH ROW EXECUTE FUNCTION tracker_events_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS tracker_matchevent_append_only ON tracker_matchevent;
DROP FUNCTION IF EXISTS tracker_events_append_only();
"""


# params=None: the SQL is sent as is. With params=() psycopg 3 reads the "%"
# of RAISE EXCEPTION's format as a query placeholder and the migration fails.


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("tracker", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
