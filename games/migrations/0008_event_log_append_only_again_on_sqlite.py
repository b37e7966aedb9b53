"""0006 altered the event log's table, which on SQLite is rebuilt without its triggers."""

from django.db import migrations

from harehra_site.append_only import append_only_restored_on_sqlite


class Migration(migrations.Migration):
    dependencies = [("games", "0007_game_updates_in_place")]
    operations = [append_only_restored_on_sqlite("games_gameevent", "game events are")]
