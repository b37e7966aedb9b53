"""The chat log refuses TRUNCATE as it refuses UPDATE and DELETE, like the event and audit logs."""

from django.db import migrations

from harehra_site.append_only import no_truncate


class Migration(migrations.Migration):
    dependencies = [("chat", "0001_initial")]
    operations = [no_truncate("chat_chatmessage", "the chat log is")]
