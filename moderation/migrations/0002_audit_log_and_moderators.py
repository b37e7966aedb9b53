"""The audit log refuses UPDATE, DELETE and TRUNCATE; and the `moderators` group with exactly the
permissions it needs (moderation/groups.py)."""

from django.db import migrations

from plumbing.append_only import append_only_log


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
        ("accounts", "0001_initial"),  # the sanction and mute permissions are the accounts' models'
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [
        *append_only_log("moderation_auditentry"),
        migrations.RunPython(create_moderators, remove_moderators),
    ]
