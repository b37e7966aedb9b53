from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.services import user_register, user_token
from tests.support.mail import Mailbox, mail_server
from tests.support.stack import OUTPUT, Stack, stack_for_test

_names = itertools.count(1)


def pytest_configure(config: Any) -> None:
    """In a parallel run (pytest -n) every worker but the first gets a Redis server of its own
    (tests/redis_server.py), so no two workers share a database, a broker or a channel group."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is not None and worker != "gw0":
        from tests.redis_server import private_server

        config._private_redis = ExitStack()  # closed by pytest_unconfigure
        os.environ["TEST_REDIS_HOST"] = config._private_redis.enter_context(private_server())


def pytest_unconfigure(config: Any) -> None:
    private = getattr(config, "_private_redis", None)
    if private is not None:
        private.close()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: Any) -> None:
    """The browser test modules share one Chromium (tests/support/browsers.py), closed before a
    test that is not one of them: its asyncio.run() cannot run beside Playwright's loop."""
    if item.get_closest_marker("browser") is None:
        from tests.support.browsers import close_browser

        close_browser()
    # A stack kept from a module before (`_KeptStack`) stops before a module that takes none: its
    # beat and bots would act on that module's tables.
    if getattr(item, "module", None) is not _KEPT.module and "module_stack" not in item.fixturenames:
        _KEPT.stop()


def pytest_sessionfinish(session: Any) -> None:
    from tests.support.browsers import close_browser

    close_browser()


def _parallel(config: Any) -> bool:
    return "PYTEST_XDIST_WORKER" in os.environ or bool(getattr(config.option, "numprocesses", None))


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Browser tests run last: the fast, precise tests report first.

    In a parallel run (scripts/test: each module on one worker, modules handed out in this
    order) the longest modules go first so that the short ones even out the workers' ends: the
    `long` ones, then the browser and server tests, then the rest."""

    groups: dict[str, int] = {}

    def same_servers(item: Any) -> int:
        """Browser modules whose servers are started alike come one after another, so that a
        process may keep its servers from one to the next (`_KeptStack`). Each set of settings is
        numbered in the order it is first collected, never ordered by its values: some hold keys
        made afresh in each process (a push key pair), and every xdist worker must order the
        tests alike. (The sort computes its keys in the list's order, once.)"""
        if item.get_closest_marker("browser") is None:
            return -1
        env = repr(sorted(getattr(getattr(item, "module", None), "SITE_ENV", {}).items()))
        return groups.setdefault(env, len(groups))

    if not _parallel(config):
        items.sort(key=lambda item: (item.get_closest_marker("browser") is not None, same_servers(item)))
        return

    def rank(item: Any) -> int:
        for i, name in enumerate(("long", "browser", "server", "stack")):
            if item.get_closest_marker(name) is not None:
                return i
        return 4

    items.sort(key=lambda item: (rank(item), same_servers(item)))


@pytest.fixture(autouse=True)
def _fresh_state_cache() -> None:
    from games.eventlog import forget_states

    forget_states()


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing() -> Iterator[None]:
    """Registering and signing in hash at one PBKDF2 iteration (tests/support/hashers.py)."""
    from django.conf import settings
    from django.test import override_settings

    hashers = ["tests.support.hashers.OneIterationPBKDF2PasswordHasher", *settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_automatic_analyses() -> Iterator[None]:
    """A test that ends a rated game starts no analysis unless it asks (`settings.ANALYSIS_AUTOMATIC
    = True`); servers a test starts have it off too (tests/support/server_settings.py)."""
    from django.test import override_settings

    with override_settings(ANALYSIS_AUTOMATIC=False):
        yield


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request in another one (a Czech page) leaves it
    active in the thread, and words a later test reads would follow it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def _flush_may_truncate_the_logs() -> None:
    """The test database's teardown empties every table with TRUNCATE, which the logs refuse
    unless the transaction says it means it (plumbing/append_only.py).

    The servers and worker of a module stay up between its tests, so a bot may still be moving
    while the tables are emptied: the TRUNCATE can then deadlock with the bot's transaction
    (each waits for a table the other holds). The flush is one transaction, so it is tried again
    (tests/support/test_flush.py).

    TRUNCATE makes new files for every table and index (some 250), which took 0.3 to 2.5 s a test
    on the shared test machine, after each of the hundreds of transactional tests. Where the test
    database's user may (a superuser, as scripts/test's), the flush instead locks the same tables
    in the same order as TRUNCATE would (nobody writes or reads them until it commits) and
    DELETEs the rows of those that have any, with triggers off for the transaction
    (session_replication_role): the logs' append-only triggers and the foreign keys' checks, as
    TRUNCATE skips them. The rows are gone either way; a flush that resets sequences truncates."""
    from django.db import OperationalError, transaction
    from django.db.backends.postgresql.operations import DatabaseOperations

    from plumbing.append_only import TRUNCATE_SETTING

    flush = DatabaseOperations.execute_sql_flush

    def by_delete(self: Any, sql_list: list[str]) -> bool:
        """The flush by DELETE; False (nothing done) where it cannot stand in for the TRUNCATE."""
        statements = [s.strip() for s in sql_list]
        if (
            len(statements) != 1
            or not statements[0].startswith("TRUNCATE ")
            or not statements[0].endswith(";")
        ):
            return False
        tables = statements[0].removeprefix("TRUNCATE ").removesuffix(";")
        if "RESTART IDENTITY" in tables or "CASCADE" in tables:
            return False
        conn = self.connection
        with conn.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            if not cursor.fetchone()[0]:
                return False
        names = [name.strip() for name in tables.split(",")]  # quoted by Django's sql_flush
        with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute(f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE")
            cursor.execute(
                " UNION ALL ".join(f"SELECT {i} WHERE EXISTS (SELECT FROM {t})" for i, t in enumerate(names))
            )
            for (i,) in cursor.fetchall():
                cursor.execute(f"DELETE FROM {names[i]}")
        return True

    def execute_sql_flush(self: Any, sql_list: list[str]) -> None:
        for attempt in range(5):
            try:
                if not by_delete(self, sql_list):
                    flush(self, [f"SET LOCAL {TRUNCATE_SETTING} = 'yes'", *sql_list])
                return
            except OperationalError as e:
                if getattr(e.__cause__, "sqlstate", None) != "40P01" or attempt == 4:  # deadlock_detected
                    raise

    DatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Throttle counters and lockouts (Django's cache) start empty in every test."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _pool_with_room() -> Iterator[None]:
    """A test leaves the next one a database connection pool with room in it.

    The sockets' ORM calls give their connections back (plumbing/dbthreads.py), even under
    Channels' test communicator, which turns Channels' own closing off. A test's own thread that
    uses the ORM and ends without closing its connection keeps it checked out for good (seen in
    tests/moderation/test_sanction_sockets_servers.py and tests/browser/test_sanction_notice.py;
    tests/support/waits.py's `db_thread` closes it), and over a whole run the pool (DB_POOL_SIZE,
    16) could run dry: a socket would then wait 20 s for a connection and its test fail. When more
    connections are out than this thread's own, the pool is closed (those connections with it) and
    the next use makes a new one."""
    yield
    from django.db import connections

    conn = connections["default"]
    pool = getattr(type(conn), "_connection_pools", {}).get(conn.alias)
    if pool is None:
        return
    stats = pool.get_stats()
    if stats.get("pool_size", 0) - stats.get("pool_available", 0) > 1:
        conn.close_pool()


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    def make(name: str | None = None, password: str = "correct-horse-battery") -> Any:
        return user_register(username=name or f"player{next(_names)}", password=password)

    return make


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    """A member of staff: who creates tournaments and reaches the admin."""
    user = make_user()
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """An API client signed in with the user's token (as a non-browser client would be)."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
        return client

    return make


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    """A real mail server on the port a stack started with `**SMTP_ENV` sends to, for the test
    (tests/support/mail.py); what it received."""
    with mail_server() as box:
        yield box


@pytest.fixture(scope="session")
def end_lingering_connections(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """Before the test database is dropped, end every connection to it but this process's own.

    Otherwise DROP DATABASE may refuse ("being accessed by other users") and leave the database
    behind. Seen in a whole run: three to five idle connections, opened during the socket and
    browser tests, most last used by the content-type lookup of a test's flush. Django keeps one
    connection per thread and async context, and the threads of async tests and the context
    beside Playwright's event loop are never closed by the test teardown. Which connections were
    ended is written to test-output/lingering-connections.txt."""
    yield
    import time

    from django.db import connection

    rows: list[Any] = []
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        # Until none is left (at most 10 s): a process that was stopping just before (a worker's
        # beat, ending after its worker) may still open one.
        end = time.monotonic() + 10
        while True:
            cursor.execute(
                "SELECT pid, application_name, backend_start, state, left(query, 200)"
                " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            found = cursor.fetchall()
            if not found or time.monotonic() > end:
                break
            rows += found
            for pid, *_ in found:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            time.sleep(0.2)
    if rows:
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / "lingering-connections.txt").write_text("".join(f"{row}\n" for row in rows))


@pytest.fixture(scope="module")
def stack_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """What a module's servers are started with: its `stack` marker's keywords. (The browser
    tests give theirs in tests/browser/conftest.py.)"""
    marker = request.node.get_closest_marker("stack")
    if marker is None or marker.args:
        raise pytest.UsageError("the stack fixture needs pytest.mark.stack(redis_db=..., ...) with keywords")
    return dict(marker.kwargs)


class _KeptStack:
    """The stack a pytest process keeps running between its modules: the next module started with
    the same options (a browser module's, most often) takes it as it is, instead of starting its
    own (some seconds and two processes' start-up). One at a time: a stack kept for later would
    run its beat's sweeps and its bots on the tables of another module's tests."""

    def __init__(self) -> None:
        self.module: Any = None  # the module that took it last
        self.key: str | None = None
        self.shape: tuple[int, int] = (0, 0)
        self.exits: ExitStack | None = None
        self.stack: Stack | None = None

    def take(self, module: Any, key: str, start: Callable[[ExitStack], Stack]) -> Stack:
        self.module = module
        if self.stack is not None and (self.key != key or not self.fit()):
            self.stop()
        if self.stack is None:
            self.exits = ExitStack()
            self.stack = start(self.exits)
            self.key, self.shape = key, (len(self.stack.servers), len(self.stack.workers))
        return self.stack

    def fit(self) -> bool:
        """As started: no server or worker added or gone (a test may add one); a server a test
        killed is replaced by `Stack.as_new`."""
        st = self.stack
        return (
            st is not None
            and (len(st.servers), len(st.workers)) == self.shape
            and all(w.poll() is None for w in st.workers)
        )

    def stop(self) -> None:
        exits, self.exits, self.stack, self.key = self.exits, None, None, None
        if exits is not None:
            exits.close()


_KEPT = _KeptStack()


@pytest.fixture(scope="session")
def _kept_stack(end_lingering_connections: None) -> Iterator[_KeptStack]:
    """The process's kept stack, stopped before the test database is dropped."""
    yield _KEPT
    _KEPT.stop()


@pytest.fixture(scope="session")
def _browser_closed_in_time(end_lingering_connections: None) -> Iterator[None]:
    """The browser test modules' Chromium (tests/support/browsers.py), closed before the
    lingering connections are ended: while Playwright's loop runs, a connection of the test
    process's stays open, and the test database could not be dropped."""
    yield
    from tests.support.browsers import close_browser

    close_browser()


@pytest.fixture(scope="module")
def module_stack(
    request: pytest.FixtureRequest,
    stack_options: dict[str, Any],
    django_db_blocker: Any,
    _kept_stack: _KeptStack,
) -> Iterator[Stack]:
    """The servers and worker of a test module (`stack_options`), started once per module, or
    taken over from the module before when it had the same options (`_KeptStack`; its logs go on
    in that module's test-output/servers folder)."""

    def start(exits: ExitStack) -> Stack:
        name = request.module.__name__.rpartition(".")[2]
        return exits.enter_context(stack_for_test(name, **stack_options))

    with django_db_blocker.unblock():
        yield _kept_stack.take(request.module, repr(sorted(stack_options.items())), start)
        if not _kept_stack.fit():
            _kept_stack.stop()


@pytest.fixture
def stack(module_stack: Stack, transactional_db: Any, request: pytest.FixtureRequest) -> Stack:
    """Real ASGI servers (two unless told) and a Celery worker on the test database and Redis, as
    the module's `stack_options` say; by default its `stack` marker: `pytestmark =
    pytest.mark.stack(redis_db=9, servers=2, worker=True, **environment)` (tests/support/stack.py:
    stack_for_test).

    They are started once per module and handed to each test as new (`Stack.as_new`): a server a
    test killed is replaced, Redis is emptied before the test and the database after it."""
    if any(m.name == "stack" for m in request.node.own_markers):
        raise pytest.UsageError("the stack marker belongs to the module (pytestmark): its servers are shared")
    module_stack.as_new()
    return module_stack
