from typing import Any

from django.db import migrations, models


def forget_watchers(apps: Any, schema_editor: Any) -> None:
    # Rows of the old kind are one per page and have no viewer; they live 30 s anyway, and the
    # open pages beat again within 10 s.
    apps.get_model("replays", "Watcher").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("replays", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forget_watchers, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="watcher", name="watcher_unique_client"),
        migrations.AddField(
            model_name="watcher",
            name="viewer",
            field=models.CharField(default="", max_length=80),
            preserve_default=False,
        ),
        migrations.AddConstraint(
            model_name="watcher",
            constraint=models.UniqueConstraint(fields=("game", "viewer"), name="watcher_unique_viewer"),
        ),
    ]
