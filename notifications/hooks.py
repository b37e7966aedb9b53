"""What notifications announce to the apps above them (plumbing/hooks.py)."""

from __future__ import annotations

from plumbing.hooks import Hook

# A notification was kept, in the caller's transaction: notification_sent.send(notification).
# Web push subscribes (webpush/followups.py) and sends it to the person's devices after commit.
notification_sent = Hook("notification_sent")
