"""The spectator count: watch pages send a heartbeat; a watcher unseen for WATCHER_TTL is gone."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.services.presence import game_mark_watched
from harehra_site.errors import ServiceError

from .models import Watcher

WATCHER_TTL = timedelta(seconds=30)
HEARTBEAT_SECONDS = 10


def watcher_count(game: Game) -> int:
    return Watcher.objects.filter(game=game, last_seen__gte=timezone.now() - WATCHER_TTL).count()


def watcher_beat(*, game: Game, client_id: object, leaving: bool = False) -> int:
    """Record (or end) one watch page's presence; returns the spectators watching now."""
    if not isinstance(client_id, str) or not 8 <= len(client_id) <= 64 or "\x00" in client_id:
        raise ServiceError("bad_client_id", "client_id is a string of 8 to 64 characters")
    now = timezone.now()
    if leaving:
        Watcher.objects.filter(game=game, client_id=client_id).delete()
    else:
        # One upsert, not update_or_create's select, update and savepoints: a watch page beats
        # every HEARTBEAT_SECONDS for as long as it is open.
        Watcher.objects.bulk_create(
            [Watcher(game=game, client_id=client_id, last_seen=now)],
            update_conflicts=True,
            unique_fields=["game", "client_id"],
            update_fields=["last_seen"],
        )
        game_mark_watched(game_id=game.pk)
    Watcher.objects.filter(game=game, last_seen__lt=now - WATCHER_TTL * 4).delete()
    return watcher_count(game)
