"""Replay pages: the viewer, the public list, import, and live watching. Thin: access, selectors, render."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from csp.decorators import csp_replace
from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from rest_framework.throttling import SimpleRateThrottle

from accounts.throttles import (
    REPLAY_FRAMES_THROTTLES,
    ClipThrottle,
    PreviewThrottle,
    throttle_wait,
    throttles_wait,
    too_many_page,
)
from games.card_text import card_names
from games.frames import build_frames
from games.invites import invite_remember, request_invite
from games.models import GameStatus
from plumbing.errors import ServiceError
from plumbing.params import is_count
from plumbing.replica import replica_view
from plumbing.share import share_tags

from .access import ReplayGrant, is_key_ref, open_replay
from .images import (
    CLIP_MAX_STEPS,
    FINISHED_PUBLIC_SECONDS,
    FINISHED_SECONDS,
    LIVE_SECONDS,
    replay_clip_gif,
    replay_clip_of,
    replay_picture_of,
    replay_picture_png,
)
from .selectors import (
    game_events,
    parse_perspective,
    replay_list_public,
    replay_list_rows,
    replay_meta,
    seat_names,
    summary_text,
)
from .services import HEARTBEAT_SECONDS


def _grant(ref: str, request: HttpRequest) -> ReplayGrant:
    try:
        grant = open_replay(ref, request.user, lambda table_id: request_invite(request, table_id))
    except ServiceError as e:
        raise Http404(e.detail) from e
    invite_remember(request, grant.game.table)
    return grant


def _clause(text: str) -> str:
    """A step's sentence ("It is bob's turn.") without its full stop, for the descriptions that end
    it with theirs: one full stop, not two."""
    return text.rstrip().rstrip(".")


def _title(meta: dict[str, Any]) -> str:
    names = ", ".join(p["name"] for p in meta["players"])
    return _("Replay: %(names)s (game %(number)s at table %(table)s)") % {
        "names": names,
        "number": meta["id"],
        "table": meta["table"],
    }


def _share_title(meta: dict[str, Any], turn: int) -> str:
    """A link preview's title: "bob won a 4-player game at turn 104 — replay it step by step"."""
    if meta.get("winner"):
        return _("%(winner)s won a %(n)s-player game at turn %(turn)s — replay it step by step") % {
            "winner": meta["winner"],
            "n": len(meta["players"]),
            "turn": turn,
        }
    return _title(meta)


View = Callable[..., HttpResponse]


def _frames_throttled(view: View) -> View:
    """A page that builds a whole replay from the game's log counts against the frames API's
    throttles (accounts/throttles.py: the same work); over them, a page saying when to come back.
    `throttle_classes` names them, as on an API view, for the endpoint cost check
    (tests/harehra_site/test_endpoint_costs.py)."""

    @wraps(view)
    def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = throttles_wait(REPLAY_FRAMES_THROTTLES, request)
        if wait is None:
            return view(request, *args, **kwargs)
        return too_many_page(request, wait)

    throttled.throttle_classes = REPLAY_FRAMES_THROTTLES  # type: ignore[attr-defined]
    return throttled


def _replay_boot(request: HttpRequest, ref: str, grant: ReplayGrant) -> dict[str, Any]:
    """What the replay page and its embed share: the meta, the perspective and step the address
    asks for (as the replay page reads them), the frames, and the link-preview tags."""
    meta = replay_meta(grant, is_key_ref(ref))
    wanted = request.GET.get("perspective") or grant.default_perspective
    if wanted not in grant.perspectives():
        wanted = grant.default_perspective
    events = game_events(grant.game)
    names = seat_names(grant.game)
    frames = build_frames(events, names, parse_perspective(wanted, grant, grant.game.players))
    raw_step = request.GET.get("step", "")
    step = min(int(raw_step), len(frames) - 1) if is_count(raw_step) else 0
    description = summary_text(meta)
    if is_count(raw_step):
        # Previews describe the step as a spectator saw it: a link never leaks a hand by its preview.
        spectator = build_frames(events, names, None, step, step)[0]
        description = _("Step %(step)s, turn %(turn)s: %(text)s. %(rest)s") % {
            "step": step,
            "turn": spectator["turn_number"],
            "text": _clause(spectator["text"]),
            "rest": description,
        }
    given = request.GET.get("perspective") if request.GET.get("perspective") == wanted else None
    share = share_tags(
        request,
        _share_title(meta, frames[-1]["turn_number"]),
        description,
        meta["url"],
        {"step": step if is_count(raw_step) else None, "perspective": given},
        image_path=f"{meta['url']}image.png",
        image_query={"step": step if is_count(raw_step) else None, "perspective": wanted},
    )
    return {
        **share,
        "meta": meta,
        "title": _title(meta),
        "boot": {
            "mode": "replay",
            "meta": meta,
            "perspective": wanted,
            "step": step,
            "frames": frames,
            "frames_url": f"/api/replays/{ref}/frames/",
            "export_url": f"/api/replays/{ref}/export/",
            "share_path": meta["url"],
            "embed_path": f"/embed{meta['url']}",
        },
        "card_names": card_names(),
        "export_url": f"/api/replays/{ref}/export/?download=1",
        "embed_url": request.build_absolute_uri(f"/embed{meta['url']}"),
        "last_step": len(frames) - 1,
    }


@_frames_throttled
@replica_view
def replay_view(request: HttpRequest, ref: str) -> HttpResponse:
    grant = _grant(ref, request)
    if grant.live:
        return redirect("replay-watch", game_id=grant.game.pk)
    context = _replay_boot(request, ref, grant)
    # The clip the page offers: as long as replays/images.py draws (the page keeps the span within it).
    context["clip_max_steps"] = context["boot"]["clip_max_steps"] = CLIP_MAX_STEPS
    if grant.game.status == GameStatus.FINISHED:
        # The analysis under the replay (analysis/api.py; static/js/table/analysisview.js), asked for
        # with a POST carrying the CSRF header, followed over its socket while it is made
        # (live/analysis.py).
        context["analysis"] = True
        context["boot"]["analysis_url"] = f"/api/replays/{ref}/analysis/"
        context["boot"]["analysis_socket"] = f"/ws/replays/{ref}/analysis/"
        get_token(request)
    return render(request, "replays/viewer.html", context)


# Other sites may frame the embed (and nothing else: the site's CSP says frame-ancestors 'none' and
# XFrameOptionsMiddleware DENY everywhere else).
@csp_replace({"frame-ancestors": ["*"]})
@xframe_options_exempt
@_frames_throttled
@replica_view
def replay_embed(request: HttpRequest, ref: str) -> HttpResponse:
    """/embed/replays/<ref>/?step=&perspective=: the replay viewer alone, for other sites' frames,
    with a link back to the full replay. The replay page's access: a refusal is the same 404."""
    grant = _grant(ref, request)
    if grant.live:
        meta = replay_meta(grant)
        return render(
            request,
            "replays/embed_live.html",
            {"meta": meta, "watch_url": request.build_absolute_uri(f"/watch/{grant.game.pk}/")},
        )
    context = _replay_boot(request, ref, grant)
    context["boot"]["embedded"] = True
    context["full_url"] = context["share_url"]
    return render(request, "replays/embed.html", context)


@replica_view
def replay_list(request: HttpRequest) -> HttpResponse:
    player = (request.GET.get("player") or "").strip()[:150]
    page = Paginator(replay_list_public(player or None), 30).get_page(request.GET.get("page"))
    return render(
        request,
        "replays/list.html",
        {
            "page": page,
            "rows": [
                {**r, "finished": parse_datetime(r["finished_at"]) if r["finished_at"] else None}
                for r in replay_list_rows(page.object_list)
            ],
            "player": player,
        },
    )


def replay_import(request: HttpRequest) -> HttpResponse:
    get_token(request)  # the page POSTs with the CSRF header
    return render(
        request,
        "replays/import.html",
        {"boot": {"mode": "import", "import_url": "/api/replays/import/"}, "card_names": card_names()},
    )


@_frames_throttled
@replica_view
def watch_view(request: HttpRequest, game_id: int) -> HttpResponse:
    grant = _grant(str(game_id), request)
    meta = replay_meta(grant)
    get_token(request)  # the heartbeat POSTs with the CSRF header
    title = _("Watching: %(names)s") % {"names": ", ".join(p["name"] for p in meta["players"])}
    events = game_events(grant.game)
    now = build_frames(events, seat_names(grant.game), None, len(events) - 1)[-1] if events else None
    if now is not None and grant.live:
        description = _("Live, turn %(turn)s: %(text)s. Watch the game as it is played.") % {
            "turn": now["turn_number"],
            "text": _clause(now["text"]),
        }
    else:
        description = summary_text(meta)
    share = share_tags(
        request, title, description, f"/watch/{game_id}/", image_path=f"/watch/{game_id}/image.png"
    )
    return render(
        request,
        "replays/watch.html",
        {
            **share,
            "meta": meta,
            "title": title,
            "boot": {
                "mode": "watch",
                "meta": meta,
                "perspective": "spectator",
                "frames_url": f"/api/replays/{game_id}/frames/",
                "watchers_url": f"/api/replays/{game_id}/watchers/",
                "socket_path": f"/ws/games/{game_id}/",
                "replay_url": f"/replays/{game_id}/",
                "heartbeat": HEARTBEAT_SECONDS,
            },
            "card_names": card_names(),
        },
    )


# --- pictures of a moment (link previews) ---------------------------------------------------------


def _throttled(request: HttpRequest, throttle: type[SimpleRateThrottle], what: str) -> HttpResponse | None:
    wait = throttle_wait(throttle, request)
    if wait is None:
        return None
    refused = JsonResponse({"code": "throttled", "detail": f"too many {what}; try again in {wait} s"})
    refused.status_code = 429
    refused["Retry-After"] = str(wait)
    return refused


def _language(request: HttpRequest) -> str:
    language = request.GET.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language() or settings.LANGUAGE_CODE
    return language


def _cached(
    request: HttpRequest, etag: str, final: bool, public: bool, body: Callable[[], bytes], content_type: str
) -> HttpResponse:
    """`body` (made only when the client's copy is not current), cached by ETag: for seconds while
    the game runs; once it is over, for good in the viewer's own browser, for minutes where shared
    caches may keep it (replays/images.py, FINISHED_PUBLIC_SECONDS)."""
    etag = f'"{etag}"'
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body(), content_type=content_type)
    if not final:
        response["Cache-Control"] = f"{'public' if public else 'private'}, max-age={LIVE_SECONDS}"
    elif public:  # shared caches may hold it: not past a moderator's hiding it (FINISHED_PUBLIC_SECONDS)
        response["Cache-Control"] = f"public, max-age={FINISHED_PUBLIC_SECONDS}"
    else:
        response["Cache-Control"] = f"private, max-age={FINISHED_SECONDS}, immutable"
    response["ETag"] = etag
    if "lang" not in request.GET:
        patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def _picture(request: HttpRequest, ref: str, step: str | None, perspective: str | None) -> HttpResponse:
    """A moment as a PNG: the same access as the page (a refusal is the site's 404), throttled per
    client address, cached by ETag (`_cached`)."""
    refused = _throttled(request, PreviewThrottle, "pictures")
    if refused is not None:
        return refused
    grant = _grant(ref, request)
    with translation.override(_language(request)):
        picture = replay_picture_of(grant, step, perspective)
        return _cached(
            request,
            picture.etag,
            picture.final,
            picture.public,
            lambda: replay_picture_png(grant, picture),
            "image/png",
        )


@replica_view
def replay_image(request: HttpRequest, ref: str) -> HttpResponse:
    """/replays/<ref>/image.png?step=&perspective=&lang=: a replay's step (default: the last)."""
    return _picture(request, ref, request.GET.get("step"), request.GET.get("perspective"))


@replica_view
def watch_image(request: HttpRequest, game_id: int) -> HttpResponse:
    """/watch/<id>/image.png: a watched game as it stands now, as a spectator sees it."""
    return _picture(request, str(game_id), None, "spectator")


# For the endpoint cost check, as on an API view (_picture and replay_clip ask them).
replay_image.throttle_classes = watch_image.throttle_classes = [PreviewThrottle]  # type: ignore[attr-defined]


@replica_view
def replay_clip(request: HttpRequest, ref: str) -> HttpResponse:
    """/replays/<ref>/clip.gif?from=&to=&perspective=&lang=: steps `from` to `to` (at most
    CLIP_MAX_STEPS) as an animated GIF; the picture's access, throttle (its own rate) and caching."""
    refused = _throttled(request, ClipThrottle, "clips")
    if refused is not None:
        return refused
    grant = _grant(ref, request)
    with translation.override(_language(request)):
        try:
            clip = replay_clip_of(
                grant, request.GET.get("from"), request.GET.get("to"), request.GET.get("perspective")
            )
        except ServiceError as e:
            bad = JsonResponse({"code": e.code, "detail": e.detail})
            bad.status_code = e.status
            return bad
        return _cached(
            request, clip.etag, clip.final, clip.public, lambda: replay_clip_gif(grant, clip), "image/gif"
        )


replay_clip.throttle_classes = [ClipThrottle]  # type: ignore[attr-defined]
