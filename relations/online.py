"""Who is on the site now: a person with an open signed-in socket on any page. Each server process
renews a lease in the cache for every person it has a socket for (live/sockets.py's heartbeat,
every PRESENCE_HEARTBEAT_SECONDS); a person whose leases all ran out (PRESENCE_LEASE_SECONDS) is
offline. A person coming online (no lease before) is said to their friends' open pages.

Who may see it: a person blocked by someone never sees that someone online (`online_seen_by`)."""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.conf import settings

from plumbing.sharedcache import shared_cache

from .models import Block, Follow
from .publish import publish_friend_online


def _friend_ids(user_id: int) -> list[int]:
    mine = Follow.objects.filter(followed_id=user_id).values("follower_id")
    return list(
        Follow.objects.filter(follower_id=user_id, followed_id__in=mine).values_list("followed_id", flat=True)
    )


def _blockers(viewer_id: int, user_ids: set[int]) -> set[int]:
    """Which of `user_ids` block `viewer_id`."""
    rows = Block.objects.filter(blocked_id=viewer_id, blocker_id__in=list(user_ids))
    return set(rows.values_list("blocker_id", flat=True))


def _key(user_id: int) -> str:
    return f"online:{user_id}"


def online_renew(user_ids: Iterable[int]) -> None:
    """A server process's heartbeat: these people have a live socket there now (one cache write)."""
    ids = list(user_ids)
    if ids:
        now = time.time()
        shared_cache().set_many({_key(u): now for u in ids}, timeout=settings.PRESENCE_LEASE_SECONDS)


def online_arrive(user_id: int) -> bool:
    """A socket of `user_id` opened: their lease renewed; True (and their friends' pages told)
    when they were offline until now."""
    came = shared_cache().add(_key(user_id), time.time(), timeout=settings.PRESENCE_LEASE_SECONDS)
    if not came:
        shared_cache().set(_key(user_id), time.time(), timeout=settings.PRESENCE_LEASE_SECONDS)
        return False
    friends = _friend_ids(user_id)
    if friends:
        publish_friend_online(user_id, friends)
    return True


def friends_made(a: int, b: int) -> None:
    """Two people just became friends: each one online appears on the other's panel at once."""
    online = online_among([a, b])
    if b in online:
        publish_friend_online(b, [a])
    if a in online:
        publish_friend_online(a, [b])


def online_among(user_ids: Iterable[int]) -> set[int]:
    """Which of these people are online now (one cache read)."""
    ids = list(user_ids)
    if not ids:
        return set()
    found = shared_cache().get_many([_key(u) for u in ids])
    since = time.time() - settings.PRESENCE_LEASE_SECONDS
    return {u for u in ids if float(found.get(_key(u), 0)) > since}


def online_seen_by(viewer_id: int | None, user_ids: Iterable[int]) -> set[int]:
    """Which of these people `viewer_id` sees online: not those who block the viewer."""
    online = online_among(user_ids)
    if viewer_id is None or not online:
        return online
    return online - _blockers(viewer_id, online)
