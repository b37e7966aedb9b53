"""The chat log refuses UPDATE, DELETE and TRUNCATE (a hidden message stays, its hiding is a row
of its own)."""

from django.db import migrations

from harehra_site.append_only import append_only, no_truncate


class Migration(migrations.Migration):
    dependencies = [("chat", "0001_initial")]
    operations = [
        append_only("chat_chatmessage", "the chat log is"),
        no_truncate("chat_chatmessage", "the chat log is"),
    ]
