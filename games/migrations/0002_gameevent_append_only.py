"""The event log is append-only, enforced by the database itself, not by the application."""

from django.db import migrations

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION games_gameevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'game events are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_gameevent_append_only
    BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_gameevent_append_only();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS games_gameevent_append_only ON games_gameevent;
DROP FUNCTION IF EXISTS games_gameevent_append_only();
"""
SQLITE_UP = [
    """CREATE TRIGGER games_gameevent_no_update BEFORE UPDATE ON games_gameevent
       BEGIN SELECT RAISE(ABORT, 'game events are append-only: UPDATE refused'); END;""",
    """CREATE TRIGGER games_gameevent_no_delete BEFORE DELETE ON games_gameevent
       BEGIN SELECT RAISE(ABORT, 'game events are append-only: DELETE refused'); END;""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS games_gameevent_no_update;",
    "DROP TRIGGER IF EXISTS games_gameevent_no_delete;",
]


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP, params=None)
    elif vendor == "sqlite":
        for sql in SQLITE_UP:
            schema_editor.execute(sql)


def uninstall(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DOWN, params=None)
    elif vendor == "sqlite":
        for sql in SQLITE_DOWN:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
