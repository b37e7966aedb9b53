"""What relations tells a person's open pages, on their own group (accounts/publish.py), after
commit (plumbing/publish.py): a friend came online, or someone is no longer in their friends
panel. The second is the same whether the other unfollowed, blocked them or went away: a block
is private."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from accounts.publish import user_group
from plumbing.publish import send_on_commit


def publish_friend_online(user_id: int, friend_ids: list[int]) -> None:
    name = get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first()
    for friend in friend_ids:
        send_on_commit(user_group(friend), {"type": "friend.online", "name": name})


def publish_friend_gone(to_user_id: int, name: str) -> None:
    """`name` leaves the friends panel of `to_user_id`'s pages at once."""
    send_on_commit(user_group(to_user_id), {"type": "friend.gone", "name": name})
