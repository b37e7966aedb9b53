"""The chat log refuses UPDATE, DELETE and TRUNCATE (a hidden message stays, its hiding is a row
of its own)."""

from django.db import migrations

from plumbing.append_only import append_only_log


class Migration(migrations.Migration):
    dependencies = [("chat", "0001_initial")]
    operations = [
        *append_only_log("chat_chatmessage"),
    ]
