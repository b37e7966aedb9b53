"""An index for finding people by the start of their name, case aside, in name order
(relations.selectors.people_search): on the upper-cased name in the "C" collation, which answers
both `LIKE 'PRE%'` and the order by from the index, whatever the database's collation."""

from typing import Any

from django.db import migrations

INDEX = "relations_username_upper_prefix"


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {INDEX} ON auth_user ((UPPER(username) COLLATE "C"))'
        )


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("relations", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create, drop)]
