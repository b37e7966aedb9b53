"""What no model says: the event log refuses UPDATE, DELETE and TRUNCATE (by trigger, even to the
tables' owner), and game rows leave room on their pages for the update every move makes."""

from django.db import migrations

from plumbing.append_only import append_only_log


def leave_room_on_pages(apps, schema_editor):
    """Every move updates its game's row: with room left on the row's page, PostgreSQL writes the
    new version beside the old one (a HOT update, no index entries) and prunes old versions as
    it goes, without waiting for a vacuum."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game SET (fillfactor = 50)")


def fill_pages(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game RESET (fillfactor)")


class Migration(migrations.Migration):
    # After every table of the app is built: on SQLite, altering a table rebuilds it, which
    # drops its triggers.
    dependencies = [("games", "0001_initial")]
    operations = [
        *append_only_log("games_gameevent"),
        migrations.RunPython(leave_room_on_pages, fill_pages),
    ]
