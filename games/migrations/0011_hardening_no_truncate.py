"""The event log refuses TRUNCATE as it refuses UPDATE and DELETE."""

from django.db import migrations

from harehra_site.append_only import no_truncate


class Migration(migrations.Migration):
    dependencies = [("games", "0009_game_watched_until")]
    operations = [no_truncate("games_gameevent", "game events are")]
