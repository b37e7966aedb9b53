"""The list of append-only logs is the database's: every log in it carries the triggers that refuse
UPDATE, DELETE and TRUNCATE, and no table outside it does (the refusals themselves:
tests/games/test_log_integrity.py)."""

from __future__ import annotations

import pytest
from django.db import connection

from plumbing.append_only import APPEND_ONLY_LOGS


def _tables_with_trigger(suffix: str) -> set[str]:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND t.tgname = c.relname || %s",
            [suffix],
        )
        return {row[0] for row in cur.fetchall()}


def _partitions() -> set[str]:
    """The partitions of the listed logs (the event log is partitioned: games/partitions.py)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT c.relname, p.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "JOIN pg_class p ON p.oid = i.inhparent"
        )
        return {child for child, parent in cur.fetchall() if parent in APPEND_ONLY_LOGS}


@pytest.mark.django_db
def test_the_triggers_guard_exactly_the_listed_logs():
    assert _tables_with_trigger("_append_only") == set(APPEND_ONLY_LOGS)
    # A partition's TRUNCATE is its own statement; its rows' triggers are the log's.
    assert _tables_with_trigger("_no_truncate") == set(APPEND_ONLY_LOGS) | _partitions()
    assert _partitions(), "the event log is partitioned"
