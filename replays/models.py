"""Replays are read from the games' event logs; the only state of their own is who is watching."""

from __future__ import annotations

from django.db import models


class Watcher(models.Model):
    """One spectator's watch page, kept alive by a heartbeat (see replays.services.watcher_beat).

    The spectator count is the number of rows seen within WATCHER_TTL seconds. A database row
    rather than the cache, because the server processes share no cache but do share the database.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="watchers")
    client_id = models.CharField(max_length=64)
    last_seen = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "client_id"], name="watcher_unique_client"),
        ]
        # Moderators hold this permission (staff pass anyway): it opens replays hidden by moderation.
        permissions = [("view_hidden_replay", "Can open replays hidden by moderation")]
