"""The logs that must only grow, and the database triggers that refuse UPDATE, DELETE and TRUNCATE
on them (PostgreSQL and SQLite).

`APPEND_ONLY_LOGS` is the one list of them: each log's migration installs its triggers with
`append_only_log`, the application's role gets only SELECT and INSERT on them
(`manage.py grant_app_role`), and a test checks the database's triggers against the list.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

# table -> how its refusals start ("game events are append-only: UPDATE refused").
APPEND_ONLY_LOGS: dict[str, str] = {
    "games_gameevent": "game events are",
    "moderation_auditentry": "the audit log is",
    # A hidden message stays: its hiding is a row of its own.
    "chat_chatmessage": "the chat log is",
}


def append_only_log(table: str) -> list[migrations.RunPython]:
    """The migration operations that make `table`, one of `APPEND_ONLY_LOGS`, only grow."""
    what = APPEND_ONLY_LOGS[table]
    return [append_only(table, what), no_truncate(table, what)]


def _postgres_up(table: str, what: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION {table}_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{what} append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {table}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {table}_append_only();
"""


def _postgres_down(table: str) -> str:
    return f"""
DROP TRIGGER IF EXISTS {table}_append_only ON {table};
DROP FUNCTION IF EXISTS {table}_append_only();
"""


def _sqlite_up(table: str, what: str) -> list[str]:
    return [
        f"""CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table}
       BEGIN SELECT RAISE(ABORT, '{what} append-only: {op} refused'); END;"""
        for op in ("UPDATE", "DELETE")
    ]


def _sqlite_down(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_no_{op};" for op in ("update", "delete")]


def append_only(table: str, what: str) -> migrations.RunPython:
    """A migration operation installing the triggers; `what` starts the refusal message."""

    def install(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_postgres_up(table, what), params=None)
        elif vendor == "sqlite":
            for sql in _sqlite_up(table, what):
                schema_editor.execute(sql)

    def uninstall(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_postgres_down(table), params=None)
        elif vendor == "sqlite":
            for sql in _sqlite_down(table):
                schema_editor.execute(sql)

    return migrations.RunPython(install, uninstall)


def append_only_restored_on_sqlite(table: str, what: str) -> migrations.RunPython:
    """Put the triggers back after a migration that altered `table` on SQLite.

    SQLite alters a table by building a new one and copying the rows over, which drops the old
    table's triggers; PostgreSQL alters in place and keeps them.
    """

    def install(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for sql in _sqlite_up(table, what):
                schema_editor.execute(sql)

    return migrations.RunPython(install, migrations.RunPython.noop)


TRUNCATE_SETTING = "harehra.truncate_logs"


def no_truncate(table: str, what: str) -> migrations.RunPython:
    """Refuse TRUNCATE on `table` too (PostgreSQL; SQLite has no TRUNCATE).

    Only the tables' owner (or a superuser) may TRUNCATE at all, and they could drop the trigger:
    it stops a mistake, not them. An owner who means it sets `harehra.truncate_logs = 'yes'` in
    the transaction (the test database's teardown does); the application's own role has no
    TRUNCATE privilege (`manage.py grant_app_role`)."""

    def install(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"""
CREATE OR REPLACE FUNCTION {table}_no_truncate() RETURNS trigger AS $$
BEGIN
    IF current_setting('{TRUNCATE_SETTING}', true) = 'yes' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '{what} append-only: TRUNCATE refused' USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION {table}_no_truncate();
""",
            params=None,
        )

    def uninstall(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}; "
                f"DROP FUNCTION IF EXISTS {table}_no_truncate();",
                params=None,
            )

    return migrations.RunPython(install, uninstall)
