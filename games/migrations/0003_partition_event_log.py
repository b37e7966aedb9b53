"""The event log becomes a table partitioned by ranges of game ids (games/partitions.py): the log
as it is becomes the first partition, unchanged, and the partitions for the next games are made."""

from django.conf import settings
from django.db import migrations

from games import partitions


def partition(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # SQLite (the embedded server) keeps one table
    size = settings.EVENT_LOG_GAMES_PER_PARTITION
    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT GREATEST(COALESCE((SELECT max(id) FROM games_game), 0), "
            "COALESCE(pg_sequence_last_value(pg_get_serial_sequence('games_game', 'id')), 0))"
        )
        newest = cur.fetchone()[0]
    bound = partitions.first_bound(newest, size)
    schema_editor.execute(partitions.CONVERT_SQL.format(bound=bound), params=None)
    schema_editor.execute(partitions.MAKER_SQL, params=None)
    schema_editor.execute(
        "SELECT games_gameevent_make_partitions(%s, %s)", params=[size, settings.EVENT_LOG_PARTITIONS_AHEAD]
    )


def flatten(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(partitions.FLATTEN_SQL, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_event_log_and_storage")]
    operations = [migrations.RunPython(partition, flatten)]
