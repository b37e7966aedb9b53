"""The audit log is append-only, enforced by the database; and the `moderators` group."""

from django.db import migrations

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION moderation_auditentry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER moderation_auditentry_append_only
    BEFORE UPDATE OR DELETE ON moderation_auditentry
    FOR EACH ROW EXECUTE FUNCTION moderation_auditentry_append_only();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS moderation_auditentry_append_only ON moderation_auditentry;
DROP FUNCTION IF EXISTS moderation_auditentry_append_only();
"""
SQLITE_UP = [
    """CREATE TRIGGER moderation_auditentry_no_update BEFORE UPDATE ON moderation_auditentry
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: UPDATE refused'); END;""",
    """CREATE TRIGGER moderation_auditentry_no_delete BEFORE DELETE ON moderation_auditentry
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: DELETE refused'); END;""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS moderation_auditentry_no_update;",
    "DROP TRIGGER IF EXISTS moderation_auditentry_no_delete;",
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


def create_moderators(apps, schema_editor):
    from moderation.groups import ensure_moderators_group

    ensure_moderators_group(apps, using=schema_editor.connection.alias)


def remove_moderators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(
        name="moderators"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [
        migrations.RunPython(install, uninstall),
        migrations.RunPython(create_moderators, remove_moderators),
    ]
