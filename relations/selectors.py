"""Reads of follows and blocks."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Collate, Upper

from .models import Block, Follow
from .online import online_seen_by

# A list in a relations answer holds at most this many names (the newest first).
LIST_AT_MOST = 1000


def relation_between(viewer: Any, other_id: int) -> dict[str, bool]:
    """What `viewer` sees of their relation to `other_id`: whether they follow them, are followed
    by them, are friends (both), and whether they block them. Whether the other blocks the viewer
    is never said: a block is private."""
    if not getattr(viewer, "is_authenticated", False) or viewer.pk == other_id:
        return {"following": False, "follower": False, "friends": False, "blocking": False}
    following = Follow.objects.filter(follower_id=viewer.pk, followed_id=other_id).exists()
    follower = Follow.objects.filter(follower_id=other_id, followed_id=viewer.pk).exists()
    blocking = Block.objects.filter(blocker_id=viewer.pk, blocked_id=other_id).exists()
    return {
        "following": following,
        "follower": follower,
        "friends": following and follower,
        "blocking": blocking,
    }


def blocks(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocks_either(a: int, b: int) -> bool:
    """Whether either of two people blocks the other."""
    return Block.objects.filter(Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)).exists()


def friend_ids(user_id: int) -> list[int]:
    """The people `user_id` follows who follow them back (at most LIST_AT_MOST)."""
    return list(
        Follow.objects.filter(
            follower_id=user_id,
            followed_id__in=Follow.objects.filter(followed_id=user_id).values("follower_id"),
        ).values_list("followed_id", flat=True)[:LIST_AT_MOST]
    )


def are_friends(a: int, b: int) -> bool:
    return (
        Follow.objects.filter(follower_id=a, followed_id=b).exists()
        and Follow.objects.filter(follower_id=b, followed_id=a).exists()
    )


def follow_counts(user_id: int) -> dict[str, int]:
    return {
        "following": Follow.objects.filter(follower_id=user_id).count(),
        "followers": Follow.objects.filter(followed_id=user_id).count(),
    }


def _names(ids_query: Any) -> list[str]:
    users = get_user_model().objects.filter(pk__in=ids_query).order_by("username")
    return [u.get_username() for u in users]


def relations_of(user_id: int) -> dict[str, list[str]]:
    """Whom the person follows, who follows them, their friends and whom they block (names, in
    name order; each list the newest LIST_AT_MOST)."""
    following = Follow.objects.filter(follower_id=user_id).order_by("-created_at")
    followers = Follow.objects.filter(followed_id=user_id).order_by("-created_at")
    following_ids = following.values_list("followed_id", flat=True)[:LIST_AT_MOST]
    follower_ids = followers.values_list("follower_id", flat=True)[:LIST_AT_MOST]
    friend_ids = Follow.objects.filter(
        follower_id=user_id, followed_id__in=Follow.objects.filter(followed_id=user_id).values("follower_id")
    ).values_list("followed_id", flat=True)[:LIST_AT_MOST]
    blocked_ids = (
        Block.objects.filter(blocker_id=user_id).order_by("-created_at").values_list("blocked_id", flat=True)
    )[:LIST_AT_MOST]
    return {
        "following": _names(list(following_ids)),
        "followers": _names(list(follower_ids)),
        "friends": _names(list(friend_ids)),
        "blocking": _names(list(blocked_ids)),
    }


# A search answers at most this many people, in name order.
SEARCH_AT_MOST = 20
SEARCH_MAX_CHARS = 150  # a username's own limit


def people_named(prefix: str) -> Any:
    """Active people whose upper-cased name starts with `prefix` upper-cased, in that order."""
    return (
        get_user_model()
        .objects.annotate(key=Collate(Upper("username"), "C"))
        .filter(key__startswith=prefix.upper(), is_active=True)
        .order_by("key")
    )


def people_search(prefix: str, viewer: Any) -> list[dict[str, Any]]:
    """Active people whose name starts with `prefix` (case aside), in the order of their upper-cased
    names, with whether the viewer follows them and they follow the viewer. On PostgreSQL an index
    on the same expression answers both the prefix and the order (relations' migration 0002)."""
    users = list(people_named(prefix).values_list("pk", "username")[:SEARCH_AT_MOST])
    ids = [pk for pk, _ in users]
    following: set[int] = set()
    followers: set[int] = set()
    if getattr(viewer, "is_authenticated", False) and ids:
        following = set(
            Follow.objects.filter(follower_id=viewer.pk, followed_id__in=ids).values_list(
                "followed_id", flat=True
            )
        )
        followers = set(
            Follow.objects.filter(followed_id=viewer.pk, follower_id__in=ids).values_list(
                "follower_id", flat=True
            )
        )
    viewer_id = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    online = online_seen_by(viewer_id, ids)
    return [
        {
            "name": name,
            "following": pk in following,
            "follower": pk in followers,
            "me": pk == viewer.pk,
            "online": pk in online,
        }
        for pk, name in users
    ]
