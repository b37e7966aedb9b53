"""Replays are read from the games' event logs; the only state of their own is who is watching."""

from __future__ import annotations

from django.db import models


class Watcher(models.Model):
    """One spectator of a running game, kept alive by their watch pages' heartbeat (see
    replays.services.watcher_beat).

    The spectator count is the number of rows seen within WATCHER_TTL seconds. A row is a person,
    not a page: `viewer` is the signed-in user, or for someone signed out a keyed hash of their
    address (never the address itself), so new client ids add no one. `client_id` is the page
    that beat last. A database row rather than the cache, because the server processes share no
    cache but do share the database.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="watchers")
    viewer = models.CharField(max_length=80)
    client_id = models.CharField(max_length=64)
    last_seen = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "viewer"], name="watcher_unique_viewer"),
        ]
        # Moderators hold this permission (staff pass anyway): it opens replays hidden by moderation.
        permissions = [("view_hidden_replay", "Can open replays hidden by moderation")]
