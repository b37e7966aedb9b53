"""The audit log refuses TRUNCATE as it refuses UPDATE and DELETE."""

from django.db import migrations

from harehra_site.append_only import no_truncate


class Migration(migrations.Migration):
    dependencies = [("moderation", "0002_audit_append_only_and_moderators")]
    operations = [no_truncate("moderation_auditentry", "the audit log is")]
