"""Who may challenge whom: the challenged person's setting (accounts' Preference,
`challenges_from`: friends only by default, anyone, or nobody), and never across a block."""

from __future__ import annotations

from accounts.models import ChallengesFrom, Preference
from plumbing.errors import ServiceError
from relations.selectors import are_friends, blocks


def access_challenge(challenger_id: int, target_id: int) -> None:
    """Refuse a challenge from `challenger_id` to `target_id` with a stable code: blocked (403,
    the target blocks the challenger, or is blocked by them: the same answer either way from the
    target's side), not_accepting (403, the target takes no challenges), friends_only (403)."""
    if blocks(target_id, challenger_id):
        raise ServiceError("blocked", "this player does not accept challenges from you", 403)
    if blocks(challenger_id, target_id):
        raise ServiceError("you_block", "you block this player: unblock them first", 409)
    setting = (
        Preference.objects.filter(user_id=target_id).values_list("challenges_from", flat=True).first()
        or ChallengesFrom.FRIENDS
    )
    if setting == ChallengesFrom.NOBODY:
        raise ServiceError("not_accepting", "this player takes no challenges", 403)
    if setting == ChallengesFrom.FRIENDS and not are_friends(challenger_id, target_id):
        raise ServiceError("friends_only", "this player takes challenges from friends only", 403)
