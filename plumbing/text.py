"""Text people write that others read (chat, report details): what may not pass through as typed.

Unicode's bidirectional controls (the Bidi_Control property: embeddings, overrides, isolates and
the direction marks) reorder the characters after them when shown. In a chat line, U+202E makes
the rest of a message read backwards and can make it look like someone else's words or name.
Letters of right-to-left scripts need none of them to show right, so they are removed, not refused.
"""

from __future__ import annotations

BIDI_CONTROLS = frozenset(
    "\u061c"  # Arabic letter mark
    "\u200e\u200f"  # left-to-right and right-to-left marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings, pop, overrides
    "\u2066\u2067\u2068\u2069"  # isolates and their pop
)
_REMOVE_BIDI = dict.fromkeys(map(ord, BIDI_CONTROLS))


def without_bidi_controls(text: str) -> str:
    return text.translate(_REMOVE_BIDI)
