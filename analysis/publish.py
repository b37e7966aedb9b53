"""Telling the replay pages that wait for an analysis how it goes, once what they are told has
committed (as games' and tournaments' pushes do). The replay analysis socket
(live/analysis.py, `/ws/replays/<ref>/analysis/`) forwards each message as it is.

Every message is whole (the request's state, not a change), so a page that missed some needs only
the next: `{"type": "analysis", "version", "status", ...}`, the analysis API's answer without the
analysis itself (docs/PROTOCOL.md, "The replay analysis socket"). Nothing in it is hidden from
anyone who may open the replay: how far an analysis got, and whether it is there.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from harehra.analysis import ANALYSIS_VERSION
from plumbing import jsontext
from plumbing.publish import send_on_commit

from .selectors import analysis_status

log = logging.getLogger(__name__)


def analysis_group(game_id: int) -> str:
    return f"analysis.{game_id}"


def analysis_message(status: dict[str, Any]) -> str:
    """A status (analysis.selectors.analysis_status, without the body) as the socket's text."""
    return jsontext.dumps({"type": "analysis", **status})


def analysis_progress_changed(game_id: int, done: int, total: int) -> None:
    """A running analysis got this far: said once the progress row commits (at once outside a
    transaction). Made from the figures written, no read."""
    status = {"version": ANALYSIS_VERSION, "status": "running", "progress": {"done": done, "total": total}}
    _publish(game_id, status)


def analysis_state_changed(game_id: int) -> None:
    """The game's analysis was stored, or its making failed (or was queued): its state as it
    committed is read then and said."""
    transaction.on_commit(lambda: analysis_state_publish(game_id))


def analysis_state_publish(game_id: int) -> None:
    """Read and send now. A commit hook: what fails is logged, never raised to the worker."""
    try:
        _publish(game_id, analysis_status(game_id, body=False))
    except Exception:
        log.exception("could not publish the analysis of game %s", game_id)


def analysis_pending(status: dict[str, Any]) -> bool:
    return status["status"] in ("queued", "running")


def _publish(game_id: int, status: dict[str, Any]) -> None:
    """The text made once here, forwarded as it is by every socket (`pending`: more is to come)."""
    text, pending = analysis_message(status), analysis_pending(status)
    send_on_commit(analysis_group(game_id), {"type": "analysis.changed", "text": text, "pending": pending})
