"""Whether the playouts run on the compiled core (harehra/bots/playout.py `CORE_COMPILED`): where
it was not built, or does not import, the pure core plays the very same moves, about fifteen times
slower, and the server says so once, when it starts."""

from __future__ import annotations

import logging

from harehra.bots import playout

log = logging.getLogger(__name__)

NOT_BUILT = (
    "the compiled playout core is not built (bash scripts/build_playout_core): analyses and the hard "
    "bot play their playouts in pure Python, the same moves, much slower"
)


def warn_if_pure() -> bool:
    """Log one warning when the pure core plays; whether it does."""
    if playout.CORE_COMPILED:
        return False
    log.warning(NOT_BUILT)
    return True
