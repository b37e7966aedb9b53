"""Who may open a replay: the one place the replay views ask.

URL scheme (see replays/urls.py):
- /replays/<id>/ opens a finished game's replay when the table's replay_access is public, and for
  the game's players and moderators whatever the setting (games.access.access_finished_game);
- /replays/<replay_key>/ (the game's unguessable key) opens it for anyone when the setting is
  public or link; for players-only replays the key grants nothing more than the id does;
- a replay hidden by moderation (Game.replay_hidden) answers 404 to all but its players and
  moderators (moderation.access.is_moderator);
- a running game has no replay yet: it may only be watched, from the spectator's perspective, by
  whoever may watch it live (a private table's game: its people and whoever holds the table's
  invite, as a `?invite=` or as the browser's session remembers it: games/invites.py).
Both are the one rule of games.access.access_game_view, which the game page and the live socket
ask too. Every refusal is a 404 `not_found`, so a replay's existence is never revealed.
Read on a replica (plumbing/replica.py), a running game, or a refusal, is read again on the primary.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from accounts.access import is_moderator
from games.access import AnyUser, access_game_view, game_seat_of
from games.frames import ALL, SPECTATOR
from games.models import Game, GameStatus
from plumbing.errors import ServiceError
from plumbing.params import is_count
from plumbing.replica import primary_needed


@dataclass(frozen=True)
class ReplayGrant:
    game: Game
    live: bool  # the game is still running: spectator perspective only
    seat: int | None  # the requester's seat in the game, if they played it
    staff: bool

    def perspectives(self) -> list[str]:
        if self.live:
            return [SPECTATOR]
        return [ALL, SPECTATOR, *[f"seat:{n}" for n in range(self.game.players)]]

    @property
    def default_perspective(self) -> str:
        return SPECTATOR if self.live else ALL


def _not_found() -> ServiceError:
    return ServiceError("not_found", "no such replay", 404)


def access_replay(
    game: Game, user: AnyUser, key: str | None = None, invite_code: str | None = None
) -> ReplayGrant:
    """What `user` may see of `game`'s replay (opened with `key` when the URL carried one, with
    `invite_code` when the request carried the table's invite)."""
    seat = game_seat_of(game, user)
    staff = is_moderator(user, "hide")
    # compared as bytes: compare_digest refuses str with non-ASCII, and a key may hold anything
    if key is not None and not secrets.compare_digest(key.encode(), game.replay_key.encode()):
        raise _not_found()
    try:
        access_game_view(game, user, invite_code, replay_key=key)
    except ServiceError:
        raise _not_found() from None
    return ReplayGrant(game, live=game.status == GameStatus.RUNNING, seat=seat, staff=staff)


def is_key_ref(ref: str) -> bool:
    """Ids are short numbers; replay keys are 22 URL-safe characters."""
    return not (is_count(ref) and len(ref) < 16)


def game_for_ref(ref: str) -> tuple[Game, str | None]:
    """The game a URL names: a numeric id, or a replay key (returned so access can check it)."""
    if not is_key_ref(ref):
        game = Game.objects.select_related("table").filter(pk=int(ref)).first()
        key = None
    else:
        game = Game.objects.select_related("table").filter(replay_key=ref).first()
        key = ref
    if game is None:
        raise _not_found()
    return game, key


def open_replay(ref: str, user: AnyUser, invite_of: Callable[[int], str | None] | None = None) -> ReplayGrant:
    """The replay `ref` names, as `user` may see it; `invite_of(table_id)`: the table's invite the
    request carries (games.invites.request_invite), if any."""
    try:
        game, key = game_for_ref(ref)
        grant = access_replay(game, user, key, invite_of(game.table_id) if invite_of else None)
    except ServiceError:
        primary_needed()  # read on a replica: a game (or a right to it) just made may not be there yet
        raise
    if grant.live:
        primary_needed()  # a running game's log grows with every move: the primary's
    return grant
