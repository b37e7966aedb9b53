"""Give the application's PostgreSQL role what it needs and no more (run as the tables' owner,
after every `migrate`): rows of every table, but only SELECT and INSERT on the logs
(plumbing.append_only.APPEND_ONLY_LOGS), and nothing an owner or superuser has: no DDL,
no TRUNCATE, no turning triggers off (`ALTER TABLE ... DISABLE TRIGGER`,
`session_replication_role`). A log's partitions are reached through the log only: the role gets
nothing on them directly. It may call the one function that makes the event log's next
partitions (games/partitions.py), which runs with the owner's rights."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from psycopg import sql

from games.partitions import MAKER
from plumbing.append_only import APPEND_ONLY_LOGS


class Command(BaseCommand):
    help = "Grant the application's role rows of every table, and only SELECT and INSERT on the logs."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("role", help="the role the service connects as, e.g. harehra_app")
        parser.add_argument("--create", action="store_true", help="create it first (NOLOGIN; tests)")

    def handle(self, *args: Any, role: str, create: bool = False, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("roles are PostgreSQL's")
        r = sql.Identifier(role)
        with transaction.atomic(), connection.cursor() as cur:
            if create:
                cur.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(r))
            cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
            row = cur.fetchone()
            if row is None:
                raise CommandError(f"no role {role}: CREATE ROLE {role} LOGIN PASSWORD '...' first")
            if row[0]:
                raise CommandError(f"{role} is a superuser: the application needs a role of its own")
            db = sql.Identifier(connection.settings_dict["NAME"])
            for statement in (
                "GRANT CONNECT ON DATABASE {db} TO {r}",
                "GRANT USAGE ON SCHEMA public TO {r}",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {r}",
                "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {r}",
            ):
                cur.execute(sql.SQL(statement).format(db=db, r=r))
            for table in APPEND_ONLY_LOGS:
                cur.execute(
                    sql.SQL("REVOKE ALL ON {t} FROM {r}; GRANT SELECT, INSERT ON {t} TO {r}").format(
                        t=sql.Identifier(table), r=r
                    )
                )
                cur.execute(
                    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                    "WHERE i.inhparent = %s::regclass",
                    [table],
                )
                for (partition,) in cur.fetchall():
                    revoke = sql.SQL("REVOKE ALL ON {t} FROM {r}")
                    cur.execute(revoke.format(t=sql.Identifier(partition), r=r))
            cur.execute(sql.SQL(f"GRANT EXECUTE ON FUNCTION {MAKER} TO {{r}}").format(r=r))
        self.stdout.write(
            f"{role}: rows of every table; SELECT and INSERT only on {', '.join(APPEND_ONLY_LOGS)}"
        )
