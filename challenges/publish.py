"""What challenges tell people's open pages, on each person's own group (accounts/publish.py),
after commit (plumbing/publish.py). Every signed-in socket passes these on to its page
(live/sockets.py, `Notified`); static/js/core/challenge.js shows them. The words are the page's."""

from __future__ import annotations

from accounts.publish import user_group
from plumbing.publish import send_on_commit


def publish_challenge_offered(user_id: int, offer: dict[str, object]) -> None:
    """`user_id` is challenged: their every page shows it at once, with Accept and Decline."""
    send_on_commit(user_group(user_id), {"type": "challenge.offered", **offer})


def publish_challenge_changed(user_id: int, challenge_id: int, status: str) -> None:
    """Someone answered, or the challenge ended without a table (declined, expired, cancelled):
    a page showing it takes it away or reads it again."""
    send_on_commit(
        user_group(user_id), {"type": "challenge.changed", "challenge": challenge_id, "status": status}
    )


def publish_challenge_started(user_id: int, challenge_id: int, url: str) -> None:
    """The table is playing: every page of a person seated there goes to `url`."""
    send_on_commit(user_group(user_id), {"type": "challenge.started", "challenge": challenge_id, "url": url})
