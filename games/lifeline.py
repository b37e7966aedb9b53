"""Child processes that end when the process that made them ends, however it ends (games/bot_thinking.py,
analysis/apart.py).

Both make their children through multiprocessing's forkserver: the forkserver is a child of the
process that asked (a server, a worker), and the children are forked from it. None of them ends by
itself when that process is killed (kill -9, out of memory): the forkserver waits for work on a
socket nobody closes, a pool's child for a task on a queue whose other end it holds itself, and
multiprocessing's resource tracker for the last of them. They were found running after
`scripts/prod --stop`, their parent long gone. So each watches its parent: a thread waits on a
pidfd of that process (Linux: readable once it has exited, nothing polled) and ends its own
process at once. The resource tracker then reads the end of its pipe and exits by itself.

Not the kernel's PR_SET_PDEATHSIG: it fires when the *thread* that started the child ends, and the
forkserver is started by whichever of a worker's threads first needs it.

Pure standard library: the forkserver imports this module before anything else (FORKSERVER_PRELOAD).
"""

from __future__ import annotations

import multiprocessing
import os
import select
import threading
import time
from multiprocessing.context import ForkServerContext

# What the forkserver imports when it starts: '__main__' is multiprocessing's own default.
FORKSERVER_PRELOAD = ["__main__", "games.lifeline_forkserver"]


def end_with(pid: int) -> None:
    """End this process (at once: os._exit) when the process `pid` ends."""
    try:
        handle: int | None = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(0)  # already gone
    except (AttributeError, OSError):  # not Linux 5.3+: look every half second instead
        handle = None

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])
        else:
            while _alive(pid):
                time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, another user's
        pass
    return True


def forkserver_context() -> ForkServerContext:
    """multiprocessing's forkserver context, its forkserver (when it starts) ending with this process.
    A child forked from it calls `end_with(<this process's pid>)` itself."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(FORKSERVER_PRELOAD)
    return context  # type: ignore[return-value]
