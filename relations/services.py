"""Following and blocking. Each checks access, locks the pair's rows in a fixed order and writes;
every call may be repeated (following someone already followed changes nothing)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.access import AnyUser, access_signed_in
from notifications.models import Kind
from notifications.services import notification_send
from plumbing.errors import ServiceError

from .models import Block, Follow
from .online import friends_made
from .publish import publish_friend_gone
from .selectors import relation_between


def _other(user: AnyUser, username: Any) -> Any:
    """The person named `username`, not `user` themself."""
    access_signed_in(user)
    if not isinstance(username, str) or not username:
        raise ServiceError("not_found", "no such player", 404)
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise ServiceError("not_found", "no such player", 404)
    if other.pk == user.pk:
        raise ServiceError("self_relation", "that is you", 400)
    return other


def _lock_pair(a: int, b: int) -> None:
    """Both people's rows, locked lowest id first: two people following and blocking each other
    at the same moment take the locks in one order, so neither waits on the other for ever."""
    list(get_user_model().objects.select_for_update().filter(pk__in=(a, b)).order_by("pk").values("pk"))


def follow_create(*, user: AnyUser, username: Any) -> dict[str, bool]:
    """`user` follows the person named `username`; the relation as `user` now sees it."""
    other = _other(user, username)
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        if Block.objects.filter(blocker_id=other.pk, blocked_id=user.pk).exists():
            raise ServiceError("blocked", "this player does not accept follows from you", 403)
        if Block.objects.filter(blocker_id=user.pk, blocked_id=other.pk).exists():
            raise ServiceError("you_block", "you block this player: unblock them first", 409)
        _, created = Follow.objects.get_or_create(follower_id=user.pk, followed_id=other.pk)
        if created:
            notification_send(user_id=other.pk, kind=Kind.FOLLOWER, data={"name": user.get_username()})
            if Follow.objects.filter(follower_id=other.pk, followed_id=user.pk).exists():
                friends_made(user.pk, other.pk)
    return relation_between(user, other.pk)


def follow_delete(*, user: AnyUser, username: Any) -> dict[str, bool]:
    other = _other(user, username)
    with transaction.atomic():
        followed_back = Follow.objects.filter(follower_id=other.pk, followed_id=user.pk).exists()
        if Follow.objects.filter(follower_id=user.pk, followed_id=other.pk).delete()[0] and followed_back:
            # They were friends: each leaves the other's friends panel at once.
            publish_friend_gone(other.pk, user.get_username())
            publish_friend_gone(user.pk, other.get_username())
    return relation_between(user, other.pk)


def block_create(*, user: AnyUser, username: Any) -> dict[str, bool]:
    """`user` blocks the person named `username`: neither follows the other any more, and the
    blocked person may not follow `user` or sit at a table `user` hosts."""
    other = _other(user, username)
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        Block.objects.get_or_create(blocker_id=user.pk, blocked_id=other.pk)
        Follow.objects.filter(follower_id=user.pk, followed_id=other.pk).delete()
        Follow.objects.filter(follower_id=other.pk, followed_id=user.pk).delete()
        # Instant on open pages too: each leaves the other's friends panel (the blocked person's
        # page is told no more than when a friend unfollows).
        publish_friend_gone(other.pk, user.get_username())
        publish_friend_gone(user.pk, other.get_username())
    return relation_between(user, other.pk)


def block_delete(*, user: AnyUser, username: Any) -> dict[str, bool]:
    other = _other(user, username)
    Block.objects.filter(blocker_id=user.pk, blocked_id=other.pk).delete()
    return relation_between(user, other.pk)
