"""Moderating tournaments: the admin's proxies, the permission to remove a player or cancel an
event (given to the `moderators` group here), and the audit log's two new actions."""

from django.db import migrations, models


def give_moderators(apps, schema_editor):
    from moderation.groups import ensure_moderators_group

    ensure_moderators_group(apps, using=schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_audit_log_and_moderators"),
        ("tournaments", "0002_entry_removed_at"),
    ]

    operations = [
        migrations.CreateModel(
            name="ModeratedEntry",
            fields=[],
            options={
                "verbose_name": "tournament entrant",
                "verbose_name_plural": "tournament entrants",
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("tournaments.entry",),
        ),
        migrations.CreateModel(
            name="ModeratedTournament",
            fields=[],
            options={
                "verbose_name": "tournament",
                "verbose_name_plural": "tournaments",
                "permissions": [
                    ("moderate_tournament", "Can remove players from tournaments and cancel tournaments")
                ],
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("tournaments.tournament",),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("suspend", "Suspend"),
                    ("ban", "Ban"),
                    ("lift", "Lift sanction"),
                    ("abort", "Abort game"),
                    ("hide", "Hide replay"),
                    ("unhide", "Unhide replay"),
                    ("resolve", "Resolve report"),
                    ("dismiss", "Dismiss report"),
                    ("mute", "Mute"),
                    ("unmute", "Lift mute"),
                    ("hide_message", "Hide chat message"),
                    ("remove_player", "Remove from tournament"),
                    ("cancel_event", "Cancel tournament"),
                ],
                max_length=16,
            ),
        ),
        migrations.RunPython(give_moderators, migrations.RunPython.noop),
    ]
