from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0009_game_watched_until")]

    operations = [
        migrations.AddField(model_name="table", name="rated", field=models.BooleanField(default=False)),
        migrations.AddField(model_name="table", name="chat_enabled", field=models.BooleanField(default=True)),
    ]
