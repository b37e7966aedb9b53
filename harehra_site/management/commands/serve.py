"""Run the site: an ASGI server (Uvicorn), with an embedded Celery worker when there is no Redis."""

from __future__ import annotations

import logging
import math
import os
import signal
import socket
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

log = logging.getLogger("harehra.serve")
SLOW_COLLECTION_MS = 20.0
SLOW_LOOP_MS = 100.0
GC_THRESHOLDS = (50_000, 20, 10)
_collection_started = 0.0


_loop_beat = 0.0


async def _watch_loop_lag(every: float = 0.05) -> None:
    """Every socket of the process waits while its event loop is held: say when it was held long."""
    import asyncio

    global _loop_beat
    if os.environ.get("LOOP_STACKS"):
        threading.Thread(target=_dump_held_loop, args=(threading.get_ident(),), daemon=True).start()
    while True:
        started = _loop_beat = time.perf_counter()
        cpu = time.process_time()
        await asyncio.sleep(every)
        late = (time.perf_counter() - started - every) * 1000
        if late >= SLOW_LOOP_MS:
            # The CPU all of the process's threads used meanwhile tells the two causes apart: about
            # as much as the wait, another thread of this process held the interpreter's lock (a
            # bot thinking in the embedded worker, say); far less, the process did not get to run
            # (a machine busy with other work; a thread that holds the lock and is not scheduled
            # keeps every other one waiting too).
            used = (time.process_time() - cpu) * 1000
            log.warning("the event loop was held for %.0f ms (the process used %.0f ms of CPU)", late, used)


def _dump_held_loop(loop_thread: int) -> None:
    """LOOP_STACKS=1: while the event loop is held, every thread's stack (for diagnosis): the loop
    thread's own shows only uvloop's run while it waits for the interpreter's lock, so the others
    say which one held it."""
    import traceback

    while True:
        time.sleep(0.1)
        if time.perf_counter() - _loop_beat > 0.25:
            names = {t.ident: t.name for t in threading.enumerate()}
            names[loop_thread] = "the event loop"
            stacks = [
                f"--- {names.get(ident, ident)}\n{''.join(traceback.format_stack(frame, limit=12))}"
                for ident, frame in sys._current_frames().items()
                if ident != threading.get_ident()
            ]
            log.warning("event loop held; the threads' stacks:\n%s", "".join(stacks))


def _dump_tasks() -> None:
    """SIGUSR1: log where every task of the event loop and every thread is waiting, so a socket
    that stopped moving can be diagnosed on a live server (`kill -USR1 <pid>`)."""
    import asyncio
    import io
    import traceback

    out = io.StringIO()
    tasks = asyncio.all_tasks()
    out.write(f"{len(tasks)} tasks\n")
    for task in tasks:
        out.write(f"--- {task!r}\n")
        task.print_stack(limit=12, file=out)
    for ident, frame in sys._current_frames().items():
        out.write(f"--- thread {ident}\n{''.join(traceback.format_stack(frame, limit=12))}")
    log.warning("tasks and threads on SIGUSR1:\n%s", out.getvalue())


def _log_slow_collections(phase: str, info: dict[str, int]) -> None:
    """A collection of the oldest generation stops every socket of the process: say when one is slow."""
    global _collection_started
    if info["generation"] != 2:
        return
    if phase == "start":
        _collection_started = time.perf_counter()
        return
    took = (time.perf_counter() - _collection_started) * 1000
    if took >= SLOW_COLLECTION_MS:
        log.warning("a full garbage collection took %.0f ms (%d collected)", took, info["collected"])


def draining_server(config: Any) -> Any:
    """A Uvicorn server that stops gracefully on SIGTERM (or a first Ctrl-C) within DRAIN_SECONDS:

    1. at once: readiness fails and new websocket handshakes get HTTP 503
       (plumbing/health.py), so the load balancer and the clients go elsewhere;
    2. the messages the sockets have in hand are handled and answered (at most half the bound);
       the server stops listening at once, or keeps listening for DRAIN_LINGER_SECONDS (a load
       balancer that checks /readyz itself needs a few seconds to see it fail; nginx, which does
       not, is better served by a refused connection, which it passes to another server at once,
       and a new server listening beside it on the same port with --reuse-port takes it);
    3. Uvicorn's own shutdown: the listening socket closes, every open websocket is closed with
       1012 (service restart; the pages reconnect to another server, resume from their last seq
       and send a command that got no answer again, with its cmd_id, which the log's command
       records turn into a `duplicate` answer), HTTP responses under way finish;
    4. the process exits, cleanly (status 0). Past the bound it exits at once (status 1).

    A second signal cuts the drain short (Uvicorn's own stop; a second Ctrl-C forces it)."""
    import uvicorn

    from live import messages_in_hand
    from plumbing.health import drain_start

    bound = settings.DRAIN_SECONDS

    class DrainingServer(uvicorn.Server):
        loop: Any = None
        draining = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.draining or self.loop is None or self.should_exit:
                super().handle_exit(sig, frame)
                return
            self.draining = True
            drain_start()
            overdue = threading.Timer(bound, _overdue, args=(bound,))
            overdue.daemon = True
            overdue.start()
            log.warning("%s: draining, exiting within %.0f s", signal.Signals(sig).name, bound)
            self.loop.call_soon_threadsafe(self.loop.create_task, self.drain())

        async def drain(self) -> None:
            import asyncio

            started = time.monotonic()
            linger = min(settings.DRAIN_LINGER_SECONDS, bound / 2)
            if linger <= 0:
                # Refused at once, a new connection goes to another server: nginx passes it on, and
                # with --reuse-port the kernel hands it to the new server on this port.
                for listener in getattr(self, "servers", []):
                    listener.close()
            in_hand = messages_in_hand()
            while (in_hand or time.monotonic() - started < linger) and time.monotonic() - started < bound / 2:
                await asyncio.sleep(0.02)
                in_hand &= messages_in_hand()
            await self.close_sockets_paced(started + bound - DRAIN_TAIL_SECONDS)
            # What is left of the bound, less a second for the sockets' disconnect handling.
            self.config.timeout_graceful_shutdown = max(1.0, bound - (time.monotonic() - started) - 1)
            self.should_exit = True

        async def close_sockets_paced(self, until: float) -> None:
            """Close the open websockets with 1012 a few at a time, evenly over what their number
            takes at DRAIN_CLOSE_RATE a second (sooner if `until` comes first), the rest served
            as usual until their turn. Closed all at once, every page of the server came back at
            the same instant and the server taking them in could not keep up: 1,330 pages of a
            600-game restart were back after 18 s at the median (docs/OPERATIONS.md); paced, each
            page is away only for its own reconnection."""
            import asyncio

            sockets = [c for c in self.server_state.connections if _open_websocket(c)]
            if not sockets:
                return
            began = time.monotonic()
            spread = min(len(sockets) / settings.DRAIN_CLOSE_RATE, max(0.0, until - began))
            log.warning("closing %d sockets over %.1f s", len(sockets), spread)
            closed = 0
            while closed < len(sockets):
                elapsed = time.monotonic() - began
                due = len(sockets) if elapsed >= spread else math.ceil(len(sockets) * elapsed / spread)
                for connection in sockets[closed:due]:
                    if connection in self.server_state.connections and _open_websocket(connection):
                        connection.shutdown()
                closed = max(closed, due)
                if closed < len(sockets):
                    await asyncio.sleep(CLOSE_TICK_SECONDS)

    logging.getLogger("uvicorn.error").addFilter(_RefusedHandshakes())
    return DrainingServer(config)


# The pacer's tick, and the part of the bound kept after the last socket is closed for the
# disconnects' own handling and Uvicorn's shutdown.
CLOSE_TICK_SECONDS = 0.02
DRAIN_TAIL_SECONDS = 3.0


def _open_websocket(connection: Any) -> bool:
    """A connection of Uvicorn's that is a websocket past its handshake and not yet closing."""
    shaken = getattr(connection, "handshake_complete", False) is True
    return shaken and not getattr(connection, "close_sent", True)


class _RefusedHandshakes(logging.Filter):
    """A draining server refuses new websocket handshakes with HTTP 503 (plumbing/health.py);
    Uvicorn then logs an error as if the application had forgotten to answer (it does not count
    a denial response as completing the handshake). Not an error: drop that line while draining."""

    def filter(self, record: logging.LogRecord) -> bool:
        from plumbing.health import is_draining

        return not (is_draining() and record.getMessage().startswith("ASGI callable returned without"))


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's listening socket with SO_REUSEPORT: a restart starts the new server on the same
    port beside the old one, which stops only once the new one is ready, so the old one's pages
    reconnect to a warm server and not to one still importing Django (scripts/prod --restart).
    The kernel spreads new connections over both until the old one stops listening."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


async def _tell_ready(server: Any, path: str) -> None:
    """Once listening and ready (/readyz's own checks), write `path`: how a restart knows this
    process, and not the one beside it on the same port, is ready."""
    import asyncio

    from plumbing.health import readiness

    if not path:
        return
    while not server.started:
        await asyncio.sleep(0.05)
    while (await readiness())[0] != 200:
        await asyncio.sleep(0.1)
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        f.write(f"{os.getpid()}\n")
    os.replace(tmp, path)


def _overdue(bound: float) -> None:
    log.error("still stopping %.0f s after the signal: exiting now", bound)
    logging.shutdown()
    os._exit(1)


class Command(BaseCommand):
    help = "Serve Harehra Online (HTTP and websockets). Without REDIS_URL, bots and timers run in-process."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--worker",
            choices=["auto", "embedded", "none"],
            default="auto",
            help="auto: embedded worker unless REDIS_URL is set (then run `celery worker` yourself)",
        )
        parser.add_argument(
            "--reuse-port",
            action="store_true",
            help="listen with SO_REUSEPORT, so a new server can start on the port beside this one "
            "before this one stops (scripts/prod --restart)",
        )
        parser.add_argument(
            "--ready-file",
            default="",
            help="write this file (the process id) once the server listens and /readyz passes",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        import asyncio
        import gc

        import uvicorn
        import uvloop

        from harehra_site.asgi import application

        mode = options["worker"]
        if mode == "embedded" or (mode == "auto" and not settings.REDIS_URL):
            from harehra_site.embedded import start_embedded_worker

            start_embedded_worker()
        self.stdout.write(f"Harehra Online on http://{options['host']}:{options['port']}/")
        # uvloop and httptools: the server's own share of a move's CPU is smaller than Daphne's.
        # What is loaded by now lives as long as the process: the collector need not rescan it.
        # Without this, full collections stalled every socket for up to 200 ms
        # (docs/benchmarks/2026-12-live-play.md).
        gc.collect()
        gc.freeze()
        # Thousands of open sockets are hundreds of thousands of long-lived objects, and a full
        # collection scans them all (25-200 ms, 21 of them in a 300-game bench run). Most of what a
        # push allocates is freed by reference counting; collecting the youngest generation less
        # often promotes fewer in-flight objects, so full collections come far less often.
        gc.set_threshold(*GC_THRESHOLDS)
        gc.callbacks.append(_log_slow_collections)
        config = uvicorn.Config(
            application,
            host=options["host"],
            port=options["port"],
            loop="uvloop",
            http="httptools",
            ws="websockets-sansio",
            ws_per_message_deflate=False,
            ws_max_size=65536,  # no client message comes near it (live/sockets.py caps them lower)
            # Uvicorn's own 20 s and 20 s left a frozen client's seat held for up to 40 s more.
            ws_ping_interval=settings.WEBSOCKET_PING_INTERVAL_SECONDS,
            ws_ping_timeout=settings.WEBSOCKET_PING_TIMEOUT_SECONDS,
            lifespan="off",
            # The application reads X-Forwarded-For from TRUSTED_PROXIES only
            # (plumbing/client_address.py); Uvicorn's own reading would believe it from any
            # client on 127.0.0.1 and hand the application the address the client wrote.
            proxy_headers=False,
            log_level="warning",
            access_log=False,
            log_config=None,  # Uvicorn's records go through settings.LOGGING (JSON lines by default)
        )
        server = draining_server(config)
        sockets = [listening_socket(options["host"], options["port"])] if options["reuse_port"] else None

        async def serve() -> None:
            from plumbing.publish import serving_loop_set

            server.loop = asyncio.get_running_loop()
            # The embedded worker's threads hand their pushes to this loop (plumbing/publish.py).
            serving_loop_set(server.loop)
            server.loop.add_signal_handler(signal.SIGUSR1, _dump_tasks)
            watch = server.loop.create_task(_watch_loop_lag())
            tell = server.loop.create_task(_tell_ready(server, options["ready_file"]))
            try:
                await server.serve(sockets=sockets)
            finally:
                watch.cancel()
                tell.cancel()
                serving_loop_set(None)

        uvloop.run(serve())
