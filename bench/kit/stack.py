"""The processes a bench or a test runs against, on loopback: ASGI servers, Celery workers and an
analyst sharing one PostgreSQL database and one Redis (`live_stack`); the production shape through
scripts/prod, nginx in front (`ProdStack`); the database, Redis and the bench's games made ready
first (`prepared_stack`); an older commit's code checked out beside this one (`ref_worktree`)."""

from __future__ import annotations

import asyncio
import atexit
import os
import resource
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

from bench.kit.stats import (
    Scrape,
    pids_named,
    reference_loop_ms,
    scrape_metrics,
    wake_jitter_ms,
)

DEFAULT_DB_NAME = "harehra_bench"
DEFAULT_DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DEFAULT_DB_NAME}"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/7"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
SEATS = 4
LONG_TIMER = 600  # seconds: no timer fires during a bench

ROOT = Path(__file__).resolve().parents[2]  # the checkout
SERVER_SETTINGS = "bench.kit.server_settings"  # the site's, with a fast password hasher
# The Procfile's `analyst`: the "analysis" queue alone, one analysis at a time, one reserved.
ANALYST_ARGS = ("--queues", "analysis", "--pool", "solo", "--concurrency", "1", "--prefetch-multiplier", "1")


def database_url(settings_dict: dict[str, Any]) -> str:
    """The URL of the PostgreSQL database a Django connection uses (e.g. the test database), for
    server processes started on it."""
    s = settings_dict
    return f"postgres://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# Each stack's processes carry an id of its own in their environment (inherited by what they start),
# by which `Stack.stop` finds whatever of theirs is still running (`end_strays`).
STACK_ID = "HAREHRA_STACK_ID"
_running_stacks: set[str] = set()  # the ids of this process's stacks not yet stopped


@dataclass
class Stack:
    env: dict[str, str]
    log_dir: Path
    root: Path = ROOT  # the checkout whose manage.py the processes run (e.g. an older commit's)
    servers: list[tuple[subprocess.Popen[bytes], int]] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.env = {**self.env, STACK_ID: secrets.token_hex(8)}
        _running_stacks.add(self.env[STACK_ID])

    def url(self, i: int = 0) -> str:
        return f"http://127.0.0.1:{self.servers[i][1]}"

    def ws_url(self, i: int = 0) -> str:
        return f"ws://127.0.0.1:{self.servers[i][1]}"

    def start_server(self, worker: str = "none") -> int:
        self.servers.append(self._server(worker))
        return len(self.servers) - 1

    def _spawn(self, log_name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / log_name, "wb")  # noqa: SIM115
        return subprocess.Popen(command, cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def _server(self, worker: str) -> tuple[subprocess.Popen[bytes], int]:
        port = free_port()
        serve = [sys.executable, "manage.py", "serve", "--port", str(port), "--worker", worker]
        proc = self._spawn(f"server-{port}.log", serve)
        _wait_http(f"http://127.0.0.1:{port}/api/tables/", proc)
        return proc, port

    def as_new(self) -> None:
        """Make a running stack fit for the next test, as if just started (its database aside):
        start a new server in place of each one a test killed, and empty what the processes keep
        in Redis (`forget_site_state`)."""
        for i, (proc, _) in enumerate(self.servers):
            if proc.poll() is not None:
                self.servers[i] = self._server("none")
        forget_site_state(self.env["REDIS_URL"])

    def start_worker(self, beat: bool = True) -> None:
        """A worker (threads pool, concurrency 4); with `beat`, beat inside it. A second worker
        beside it runs without: one beat a site."""
        schedule = ["-B", "--scheduler", "harehra_site.beat:DueAtStartScheduler"] if beat else []
        named = ["--hostname", f"worker-{len(self.workers)}@%h"]
        self._celery("worker", [*schedule, *named, "--pool", "threads", "--concurrency", "4"])

    def start_analyst(self) -> None:
        """A worker on the "analysis" queue alone, as the Procfile's `analyst` runs it."""
        self._celery("analyst", [*ANALYST_ARGS, "--hostname", f"analyst-{len(self.workers)}@%h"])

    def _celery(self, name: str, args: list[str]) -> None:
        """A Celery worker process with `args`, logging to `<name>-<k>.log`."""
        celery = [sys.executable, "-m", "celery", "-A", "harehra_site", "worker", *args]
        quiet = ["--loglevel", "WARNING", "--without-mingle", "--without-gossip"]
        self.workers.append(self._spawn(f"{name}-{len(self.workers)}.log", [*celery, *quiet]))

    def dump_tasks(self) -> None:
        """Have every live server log its tasks' and threads' stacks (for a test that timed out)."""
        for proc, _ in self.servers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGUSR1)

    def restart_server(self, i: int) -> None:
        """Stop server `i` (SIGTERM: it drains) and start a new one in its place (on a new port)."""
        proc, _ = self.servers[i]
        proc.terminate()
        proc.wait(30)
        self.servers[i] = self._server("none")

    def kill_server(self, i: int) -> None:
        proc, _ = self.servers[i]
        proc.kill()
        proc.wait(10)

    def stop(self) -> None:
        """SIGTERM to each process (a server drains, a worker shuts down warm and stops its beat),
        SIGKILL to one still running 10 s later; then SIGKILL to any process of the stack's still
        running (`end_strays`). A worker started with -B runs its beat as a child process
        (Celery's embedded beat): a worker killed leaves it running, orphaned, sweeping and
        notifying on the database long after the test; after a warm shutdown it outlived its
        worker by seconds."""
        for proc in [p for p, _ in self.servers] + self.workers:
            if proc.poll() is None:
                proc.terminate()
        for proc in [p for p, _ in self.servers] + self.workers:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        end_strays(self.env[STACK_ID])
        _running_stacks.discard(self.env[STACK_ID])


def end_strays(stack_id: str) -> list[int]:
    """SIGKILL to every process running with the stack's id in its environment (a server's or
    worker's, or one they started: a beat, a thinking process); their pids. Each is signalled
    through a pidfd opened before its environment is read again, so a pid reused meanwhile by
    another process is left alone."""
    mark = f"{STACK_ID}={stack_id}".encode()

    def carries(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                return mark in f.read().split(b"\0")
        except OSError:  # gone, or a zombie's (empty)
            return False

    ended: dict[int, int] = {}  # pid: its pidfd
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid() or not carries(int(entry.name)):
            continue
        pid = int(entry.name)
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue
        try:
            if carries(pid):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
                ended[pid] = fd
                continue
        except OSError:
            pass
        os.close(fd)
    # Each has ended when its pidfd is readable (a signal's delivery is not its end).
    end = time.monotonic() + 5
    for fd in ended.values():
        select.select([fd], [], [], max(0.0, end - time.monotonic()))
        os.close(fd)
    return list(ended)


@atexit.register
def _end_stacks_left_running() -> None:
    """A stack whose stop never ran (a test process ending without its fixtures' teardown) does
    not outlive this process."""
    for stack_id in list(_running_stacks):
        end_strays(stack_id)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    # Any answer of Django's will do: with HTTPS=1 it is a redirect to https://, not followed.
    opener = urllib.request.build_opener(_NoRedirect)

    def answers() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            opener.open(url, timeout=1)
        except urllib.error.HTTPError as e:
            return e.code < 500
        except OSError:
            return False
        return True

    end = time.monotonic() + timeout
    while not answers():
        if time.monotonic() >= end:
            raise AssertionError(f"server at {url} did not answer (waited {timeout:g} s)")
        time.sleep(0.1)


# Every client a bench or a test simulates comes from one address (127.0.0.1): the bounds per
# address (and per signed-out client) on whole replays and logs (docs/OPERATIONS.md, "What a
# request costs") would count a bench's 150 spectators as one client. Tests of those throttles
# run in the test process (tests/replays/test_replay_throttles.py).
ONE_ADDRESS_THROTTLES = dict.fromkeys(
    (
        "THROTTLE_REPLAY_FRAMES",
        "THROTTLE_REPLAY_FRAMES_ADDRESS",
        "THROTTLE_GAME_LOG",
        "THROTTLE_GAME_LOG_ADDRESS",
    ),
    "1000000/min",
)


@contextmanager
def live_stack(
    *,
    database_url: str,
    redis_url: str,
    servers: int,
    worker: bool,
    log_dir: Path,
    analyst: bool = False,
    root: Path | str = ROOT,  # str too: callers pass their extra environment as **dict[str, str]
    **extra_env: str,
) -> Iterator[Stack]:
    """`servers` ASGI processes sharing PostgreSQL and Redis, and optionally one Celery worker with
    beat, and an analyst (a worker on the "analysis" queue alone, as the Procfile's).

    `root` is the checkout they run (this one by default): an A/B bench runs an older commit's code
    from a worktree on the same database, Redis and virtualenv."""
    log_dir.mkdir(parents=True, exist_ok=True)
    # Persistent database connections, as in production: these processes end before the database does.
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "CONN_MAX_AGE": "60"}
    # No rated game's end starts an analysis unless the caller asks (the site's default with Redis).
    env.setdefault("ANALYSIS_AUTOMATIC", "0")
    for name, rate in ONE_ADDRESS_THROTTLES.items():
        env.setdefault(name, rate)
    env.pop("DJANGO_SETTINGS_MODULE", None)  # the caller's (e.g. pytest's) is not the servers'
    env.update(extra_env)  # which may name a settings module of its own
    stack = Stack(env=env, log_dir=log_dir, root=Path(root))
    try:
        for _ in range(servers):
            stack.start_server()
        if worker:
            stack.start_worker()
        if analyst:
            stack.start_analyst()
        yield stack
    finally:
        stack.stop()


def forget_site_state(redis_url: str) -> None:
    """Empty what running servers and a worker keep in Redis (the cache's throttle counters,
    lockouts and presence, and the tasks not yet run) but keep Celery's queue bindings, which
    the worker declares once at its start: without them the broker drops every new task."""
    import redis

    r = redis.Redis.from_url(redis_url)
    doomed = [key for key in r.scan_iter(count=1000) if not key.startswith(b"_kombu.binding.")]
    if doomed:
        r.delete(*doomed)


def check_loopback(url: str) -> None:
    host = urlparse(url).hostname or ""
    if host not in LOOPBACK:
        raise ValueError(f"the bench only talks to 127.0.0.1, not {host!r} ({url})")


def ensure_database(url: str) -> None:
    """Create the PostgreSQL database named in `url` if it does not exist."""
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


def vacuum(url: str) -> None:
    """VACUUM (ANALYZE) the bench's database: where autovacuum is off (it is on this project's
    test machines), the dead row versions earlier runs left would slow every lookup of this one."""
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")


def migrate(url: str) -> None:
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def raise_file_limit(sockets: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = sockets + 1024
    if soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def use_database(url: str) -> None:
    """Point Django's default connection at `url` (the servers' database) for the setup."""
    import dj_database_url
    from django.db import connections

    connections["default"].close()
    parsed = dj_database_url.parse(url)
    parsed["OPTIONS"] = parsed.get("OPTIONS") or {}  # not the SQLite options of the default
    connections.settings["default"] = {**connections.settings["default"], **parsed}
    del connections["default"]  # made afresh, with the right backend, on next use


@dataclass(frozen=True)
class GameSpec:
    game_id: int
    tokens: tuple[str, ...]  # by seat ("" for a bot's seat)
    bot_seats: frozenset[int] = frozenset()


def setup_games(n: int, tag: str, bot_every: int = 0) -> list[GameSpec]:
    """N started four-seat games with long timers; users `benchNNN-<tag>-<seat>` with API tokens.
    With `bot_every` K > 0, every Kth game (0, K, 2K, ...) has a bot (normal) in its last seat.

    Runs on Django's default database connection, which must be the servers' database.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games.services.tables import TableSettings, table_add_bot, table_create, table_join, table_start

    User = get_user_model()
    unusable = make_password(None)  # no PBKDF2 per user: these accounts only use tokens
    users = User.objects.bulk_create(
        [User(username=f"bench{g:03d}-{tag}-{s}", password=unusable) for g in range(n) for s in range(SEATS)]
    )
    tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
    settings = TableSettings(
        seats=SEATS, turn_timer=LONG_TIMER, reaction_timer=LONG_TIMER, discard_timer=LONG_TIMER
    )
    specs = []
    for g in range(n):
        seated = users[g * SEATS : (g + 1) * SEATS]
        bots = frozenset({SEATS - 1}) if bot_every > 0 and g % bot_every == 0 else frozenset()
        table = table_create(host=seated[0], settings=settings)
        for s in range(1, SEATS):
            if s in bots:
                table_add_bot(table=table, user=seated[0], seat=s)
            else:
                table_join(table=table, user=seated[s], seat=s)
        game = table_start(table=table, user=seated[0])
        keys = tokens[g * SEATS : (g + 1) * SEATS]
        specs.append(GameSpec(game.pk, tuple("" if s in bots else keys[s].key for s in range(SEATS)), bots))
    return specs


def end_bench_games(game_ids: Sequence[int] | None) -> int:
    """Abort running bench games (these, or every earlier bench's when None), as a moderator would.

    A bench's players all disconnect at its end; left running, their seats would go to bots after
    the grace period and a worker would play hundreds of games out during the next run.
    """
    from django.contrib.auth import get_user_model

    from games.models import Game, GameStatus
    from moderation.services import game_abort

    User = get_user_model()
    moderator = User.objects.filter(username="bench-moderator").first() or User.objects.create_superuser(
        "bench-moderator", password=None
    )
    running = Game.objects.filter(status=GameStatus.RUNNING, table__host__username__startswith="bench")
    if game_ids is not None:
        running = running.filter(pk__in=list(game_ids))
    ended = 0
    for game in running:
        game_abort(moderator=moderator, game=game, reason="the benchmark is over")
        ended += 1
    return ended


def stack_processes(stack: Any) -> dict[str, list[int]]:
    """The processes whose CPU a bench reports by name: the stack's servers and worker, and
    the bench's own clients (this process)."""
    named = {f"server {i}": [p.pid] for i, (p, _) in enumerate(stack.servers)}
    if stack.workers:
        named["celery worker"] = [p.pid for p in stack.workers]
    named["bench clients (this)"] = [os.getpid()]
    return named


@dataclass
class Prepared:
    specs: list[GameSpec]
    setup_s: float
    reference_ms: float
    jitter_ms: tuple[float, float, float, float]


class BenchConfig(Protocol):
    """What `prepare_games` and `prepared_stack` read of a live bench's configuration."""

    database_url: str
    redis_url: str
    games: int
    migrate: bool
    jitter_seconds: float


def prepare_games(
    cfg: BenchConfig, write: Callable[[str], None], games: int | None = None, bot_every: int = 0
) -> Prepared:
    """What every live bench does before its servers start: check it runs on loopback, time the
    machine, migrate and vacuum the database, empty Redis, end games an earlier run left running
    and set up `games` (else `cfg.games`) fresh ones. Leaves no database connection open."""
    from django.db import connection

    url, games = cfg.database_url, cfg.games if games is None else games
    check_loopback(url)
    check_loopback(cfg.redis_url)
    reference_ms = reference_loop_ms()
    jitter_ms = wake_jitter_ms(cfg.jitter_seconds)
    if cfg.migrate:
        ensure_database(url)
        write(f"migrating {url} ...")
        migrate(url)
    write("vacuuming ...")
    vacuum(url)
    flush_redis(cfg.redis_url)
    left = end_bench_games(None)
    if left:
        write(f"aborted {left} games left running by an earlier bench")
    tag = secrets.token_hex(3)
    write(f"setting up {games} games ({games * SEATS} users, tag {tag}) ...")
    t0 = time.monotonic()
    specs = setup_games(games, tag, bot_every)
    setup_s = time.monotonic() - t0
    connection.close()
    return Prepared(specs, setup_s, reference_ms, jitter_ms)


@contextmanager
def prepared_stack(
    cfg: Any, write: Callable[[str], None], code: str = "", server_env: dict[str, str] | None = None
) -> Iterator[tuple[Prepared, Any]]:
    """What every live bench does around its drive: prepare the games (`prepare_games`), start
    `cfg.servers` servers and a worker from the checkout at `cfg.code_root` (`code` says which, in
    the log), and, once the drive is over and the processes stopped, end the games it set up."""
    prepared = prepare_games(cfg, write)
    write(f"set up in {prepared.setup_s:.1f} s; starting {cfg.servers} server(s) and a worker{code} ...")
    with live_stack(
        database_url=cfg.database_url,
        redis_url=cfg.redis_url,
        servers=cfg.servers,
        worker=cfg.worker,
        log_dir=cfg.log_dir,
        root=cfg.code_root,
        **(server_env or {}),
    ) as stack:
        yield prepared, stack
    end_bench_games([spec.game_id for spec in prepared.specs])


def git(*args: str, check: bool = True) -> str:
    """A git command in this checkout; its output."""
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


@dataclass(frozen=True)
class RefCode:
    """REF's code, checked out beside this checkout, and how a report names each."""

    tree: Path
    label: str  # e.g. "main (5153904ab)", or the commit alone when REF is one
    here: str  # "this checkout (<short HEAD>)"


def old_and_new(ref: str, rounds: int, write: Callable[[str], None]) -> Iterator[tuple[int, str, Path, str]]:
    """A run of old against new: `rounds` times (round from 1, "old", REF's checkout, its label),
    then the same of this checkout ("new"); REF's worktree is removed at the end."""
    if rounds < 1:
        raise ValueError("rounds is at least 1")
    with ref_worktree(ref, write) as code:
        for r in range(1, rounds + 1):
            yield r, "old", code.tree, code.label
            yield r, "new", ROOT, code.here


@contextmanager
def ref_worktree(ref: str, write: Callable[[str], None]) -> Iterator[RefCode]:
    """REF's code in a detached `git worktree` of its own, removed at the end (the benches that
    compare an older commit's servers with this checkout's, on the same database and Redis)."""
    sha = git("rev-parse", "--verify", f"{ref}^{{commit}}").strip()
    here = git("rev-parse", "--short", "HEAD").strip()
    tmp = Path(tempfile.mkdtemp(prefix="harehra-bench-ref-"))
    tree = tmp / "code"
    write(f"checking out {ref} ({sha[:9]}) into {tree} ...")
    git("worktree", "add", "--detach", str(tree), sha)
    label = sha[:9] if sha.startswith(ref) else f"{ref} ({sha[:9]})"
    try:
        yield RefCode(tree, label, f"this checkout ({here})")
    finally:
        git("worktree", "remove", "--force", str(tree), check=False)
        shutil.rmtree(tmp, ignore_errors=True)


class ProdStack:
    """`scripts/prod` on the bench's own run directory, port (nginx's; the servers take the next
    ones), database (the owner's: scripts/prod grants `app_role` on it) and Redis: a DeployConfig."""

    def __init__(self, cfg: Any, write: Callable[[str], None], **extra_env: str) -> None:
        self.cfg, self.write = cfg, write
        self.http_url, self.ws_url = f"http://127.0.0.1:{cfg.port}", f"ws://127.0.0.1:{cfg.port}"
        self.run_dir = cfg.run_dir.resolve()
        self.metrics_token = secrets.token_urlsafe(16)
        env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")}
        self.env = {
            **env,
            "RUN_DIR": str(self.run_dir),
            "PROD_PORT": str(cfg.port),
            "OWNER_DATABASE_URL": cfg.database_url,
            "APP_ROLE": cfg.app_role,
            "REDIS_URL": cfg.redis_url,
            "PROD_INSTALL": "0",
            "DRAIN_SECONDS": f"{cfg.drain_seconds:g}",
            "DRAIN_CLOSE_RATE": f"{cfg.close_rate:g}",
            "METRICS_TOKEN": self.metrics_token,
            "PROMETHEUS_MULTIPROC_DIR": str(self.run_dir / "metrics"),
            **ONE_ADDRESS_THROTTLES,  # every page the bench plays comes from 127.0.0.1
            "NGINX_REPLAYS_RATE": "100000r/s",
            **extra_env,
        }

    def _prod(self, *args: str, check: bool = True) -> str:
        command = ["bash", "scripts/prod", *args]
        done = subprocess.run(command, cwd=ROOT, env=self.env, capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            raise RuntimeError(f"scripts/prod {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def start(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self._prod("--stop", check=False)  # whatever an interrupted run left
        shutil.rmtree(self.run_dir / "metrics", ignore_errors=True)  # docs/OPERATIONS.md: empty at start
        for log in self.run_dir.glob("*.log"):
            log.unlink()
        try:
            out = self._prod("--servers", str(self.cfg.servers))
        except BaseException:
            # A start that failed part way (nginx's port taken, a server not ready) has left the
            # processes it did start running on the database: stop them, or their beat and
            # worker go on notifying and mailing for whatever test comes next.
            self.stop()
            raise
        for line in out.splitlines():
            if line.startswith(("==", "   ")):
                self.write(f"  prod: {line.strip()}")

    def stop(self) -> None:
        self._prod("--stop", check=False)

    async def restart(self, args: list[str], started: float, lines: list[str]) -> None:
        """`scripts/prod --restart [--kill] [--only PORT]`, its lines kept with their time since
        `started`. Run from a thread: uvloop's subprocess pipes missed the script's end here (its
        output never reached EOF, the script long gone), so the pages' loop only awaits a thread."""
        await asyncio.to_thread(self._restart, args, started, lines)

    def _restart(self, args: list[str], started: float, lines: list[str]) -> None:
        with subprocess.Popen(
            ["bash", "scripts/prod", *args],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        ) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(f"{time.monotonic() - started:6.1f} s  {line.strip()}")
        if proc.returncode != 0:
            raise RuntimeError("scripts/prod " + " ".join(args) + " failed:\n" + "\n".join(lines))

    def pids(self) -> dict[str, list[int]]:
        """The processes whose CPU the report names: servers, worker, beat, nginx, this bench."""

        def read(pattern: str) -> list[int]:
            out = []
            for f in sorted(self.run_dir.glob(pattern)):
                try:
                    out.append(int(f.read_text().strip()))
                except (OSError, ValueError):
                    continue
            return out

        return {
            "servers": read("server-*.pid"),
            "worker": read("worker*.pid"),
            "beat": read("beat.pid"),
            "nginx": pids_named("nginx"),
            "bench clients (this)": [os.getpid()],
        }

    def metrics(self) -> Scrape:
        """The servers' scrape, from a server directly (nginx does not pass /metrics on)."""
        urls = [f"http://127.0.0.1:{self.cfg.port + i}/metrics" for i in range(1, self.cfg.servers + 1)]
        return scrape_metrics(urls, self.metrics_token)
