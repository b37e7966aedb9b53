"""A game's analysis computed in a child process. Its seconds of CPU never hold the interpreter
lock of the process that asked: the embedded server's (where live play shares it) or a worker's;
and at a low priority (NICENESS), so they never take a core from live play either.

Pure: the child imports the game (harehra) alone, never Django; the parent writes the progress
the child reports, and keeps what it returns."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

from games.lifeline import end_with, forkserver_context

Progress = Callable[[int, int], None]


# The child's niceness by default (settings.ANALYSIS_NICENESS): an analysis takes the CPU nobody
# else wants. On a busy machine the server, the worker and the bots' thinking (at 0) get the cores
# first, so a bot's move is not later while an analysis runs; on an idle one the analysis gets a
# whole core as before.
NICENESS = 10


class AnalysisProcessFailed(RuntimeError):
    """The child raised, or died (killed, out of memory) before it answered."""


def _child(events: list[Any], playouts: int, salt: str, conn: Connection, niceness: int, parent: int) -> None:
    end_with(parent)  # a killed worker leaves no analysis running (games/lifeline.py)
    os.nice(niceness)
    from harehra.analysis import analyse, analysis_json

    start = time.process_time()
    try:
        body = analysis_json(
            analyse(events, playouts=playouts, salt=salt, progress=lambda d, t: conn.send(("progress", d, t)))
        )
    except Exception as e:  # reported to the parent, which raises it there
        conn.send(("error", f"{type(e).__name__}: {e}"))
    else:
        conn.send(("done", body, time.process_time() - start))
    finally:
        conn.close()


def analyse_apart(
    events: Sequence[Any],
    *,
    playouts: int,
    salt: str,
    progress: Progress | None = None,
    niceness: int = NICENESS,
) -> tuple[str, float]:
    """`analysis_json(analyse(events, ...))` made in a child process, and the CPU seconds it took."""
    # forkserver: the child is forked from a clean one-threaded process, not from this one with
    # its threads and open connections (as the bots' thinking processes are: games/bot_thinking.py).
    ctx = forkserver_context()
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_child, args=(list(events), playouts, salt, send, niceness, os.getpid()), daemon=True
    )
    proc.start()
    send.close()  # the child holds the only sending end: its death ends our reads
    try:
        while True:
            try:
                message = receive.recv()
            except EOFError:
                proc.join(5)
                ended = f"the analysis process ended unasked (exit code {proc.exitcode})"
                raise AnalysisProcessFailed(ended) from None
            if message[0] == "progress":
                if progress is not None:
                    progress(message[1], message[2])
            elif message[0] == "done":
                return message[1], message[2]
            else:
                raise AnalysisProcessFailed(message[1])
    finally:
        receive.close()
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join()
