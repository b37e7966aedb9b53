"""The event log is append-only, enforced by the database itself, not by the application."""

from django.db import migrations

from harehra_site.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [append_only("games_gameevent", "game events are")]
