"""Pictures of a game's moments (replays/preview.py draws them): a replay's step from one of the
perspectives its grant allows, or a watched game's current public state.

Access is the replay's own (replays.access.open_replay, through the caller): the picture of a step
shows what the replay page shows at that step, no more. A finished game's pictures never change:
their ETag names the game, step, perspective, language and drawing, and they are cached for good;
a running game's last step moves on, so its picture is cached for seconds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games.frames import build_frames
from plumbing.errors import ServiceError
from plumbing.params import is_count
from plumbing.sharedcache import shared_cache

from .access import ReplayGrant, access_replay
from .preview import RENDERER_VERSION, clip_gif, preview_png, preview_svg
from .selectors import game_events, parse_perspective, seat_names

# HTTP caches. A finished game's picture never changes, but who may see it can: a moderator may
# hide the replay (docs/MODERATION.md). A copy only its viewer's own browser holds (private) is
# kept for good; one any shared cache may hold (public) is kept five minutes, then revalidated by
# its ETag, which a hidden replay answers with 404: a hidden replay's pictures leave shared caches
# within five minutes of the decision.
FINISHED_SECONDS = 365 * 24 * 3600
FINISHED_PUBLIC_SECONDS = 5 * 60
LIVE_SECONDS = 10  # a running game's current picture
SERVER_CACHE_SECONDS = 24 * 3600  # this site's cache of drawn pictures (finished games)


@dataclass(frozen=True)
class Picture:
    etag: str
    final: bool  # the picture can never change (a finished game's)
    public: bool  # anyone may see it (shared caches may keep it)
    step: int
    perspective: str


def replay_picture_of(grant: ReplayGrant, raw_step: str | None, raw_perspective: str | None) -> Picture:
    """Which picture a request names: the step (default: the last; past the end: the last) and
    the perspective (one the grant does not allow: its default), as the replay page reads them."""
    game = grant.game
    perspective = raw_perspective or grant.default_perspective
    if perspective not in grant.perspectives():
        perspective = grant.default_perspective
    last = max(0, game.last_seq - 1)  # steps count events from 0; seqs from 1
    step = min(int(raw_step), last) if raw_step and is_count(raw_step) else last
    language = translation.get_language() or "en"
    key = f"{RENDERER_VERSION}:{game.pk}:{game.last_seq}:{step}:{perspective}:{language}"
    return Picture(
        etag=hashlib.sha256(key.encode()).hexdigest()[:24],
        final=not grant.live,
        public=_anyone_may_see(grant),
        step=step,
        perspective=perspective,
    )


def _anyone_may_see(grant: ReplayGrant) -> bool:
    try:
        access_replay(grant.game, AnonymousUser(), None)
    except ServiceError:
        return False
    return True


def replay_picture_png(grant: ReplayGrant, picture: Picture) -> bytes:
    """The PNG of `picture` (from this site's cache when a finished game's was drawn before)."""
    key = f"preview:{picture.etag}"
    png = shared_cache().get(key)
    if png is not None:
        return bytes(png)
    png = preview_png(*_frame_of(grant, picture.step, picture.perspective), live=grant.live)
    shared_cache().set(key, png, SERVER_CACHE_SECONDS if picture.final else LIVE_SECONDS)
    return png


CLIP_MAX_STEPS = 60
CLIP_DEFAULT_STEPS = 20  # a clip asked for without its end


@dataclass(frozen=True)
class Clip:
    etag: str
    final: bool
    public: bool
    first: int
    last: int
    perspective: str


def replay_clip_of(
    grant: ReplayGrant, raw_from: str | None, raw_to: str | None, raw_perspective: str | None
) -> Clip:
    """Which clip a request names: steps `from` to `to` (both included; at most CLIP_MAX_STEPS;
    past the game's end: to its end; `from` by default the first, `to` by default CLIP_DEFAULT_STEPS
    on), from a perspective (one the grant does not allow: its default)."""
    game = grant.game
    for raw in (raw_from, raw_to):
        if raw not in (None, "") and not is_count(raw):
            raise ServiceError("bad_step", "from and to are step numbers (0, 1, 2, …)", 400)
    last = max(0, game.last_seq - 1)
    first = min(int(raw_from), last) if raw_from else 0
    end = min(int(raw_to), last) if raw_to else min(first + CLIP_DEFAULT_STEPS - 1, last)
    if end < first:
        raise ServiceError("bad_step", "to comes before from", 400)
    if end - first + 1 > CLIP_MAX_STEPS:
        raise ServiceError("too_long", f"a clip shows at most {CLIP_MAX_STEPS} steps", 400)
    perspective = raw_perspective or grant.default_perspective
    if perspective not in grant.perspectives():
        perspective = grant.default_perspective
    language = translation.get_language() or "en"
    key = f"clip:{RENDERER_VERSION}:{game.pk}:{game.last_seq}:{first}:{end}:{perspective}:{language}"
    return Clip(
        etag=hashlib.sha256(key.encode()).hexdigest()[:24],
        final=not grant.live,
        public=_anyone_may_see(grant),
        first=first,
        last=end,
        perspective=perspective,
    )


def replay_clip_gif(grant: ReplayGrant, clip: Clip) -> bytes:
    """The animated GIF of `clip` (from this site's cache when a finished game's was made before)."""
    key = f"clip:{clip.etag}"
    gif = shared_cache().get(key)
    if gif is not None:
        return bytes(gif)
    game = grant.game
    events = game_events(game)
    if not events:
        raise ServiceError("not_found", "no such replay", 404)
    names = seat_names(game)
    seen = parse_perspective(clip.perspective, grant, game.players)
    frames = build_frames(events, names, seen, clip.first, min(clip.last, len(events) - 1))
    gif = clip_gif(frames, names, live=grant.live)
    shared_cache().set(key, gif, SERVER_CACHE_SECONDS if clip.final else LIVE_SECONDS)
    return gif


def replay_picture_svg(grant: ReplayGrant, step: int, perspective: str) -> str:
    """The markup of step `step` from `perspective` (one of grant.perspectives()): the same drawing
    as the PNG's."""
    return preview_svg(*_frame_of(grant, step, perspective), live=grant.live)


def _frame_of(grant: ReplayGrant, step: int, perspective: str) -> tuple[dict[str, Any], list[str]]:
    """Step `step` from `perspective` (one of grant.perspectives()) and the seats' names."""
    game = grant.game
    events = game_events(game)
    if not events:
        raise ServiceError("not_found", "no such replay", 404)
    names = seat_names(game)
    seen = parse_perspective(perspective, grant, game.players)
    step = min(step, len(events) - 1)
    return build_frames(events, names, seen, step, step)[-1], names
