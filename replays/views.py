"""Replay pages: the viewer, the public list, import, and live watching. Thin: access, selectors, render."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.card_text import card_names
from games.frames import build_frames
from games.invites import invite_remember, request_invite
from harehra_site.errors import ServiceError
from harehra_site.params import is_count

from .access import ReplayGrant, is_key_ref, open_replay
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


def _title(meta: dict[str, Any]) -> str:
    names = ", ".join(p["name"] for p in meta["players"])
    return _("Replay: %(names)s (game %(number)s at table %(table)s)") % {
        "names": names,
        "number": meta["number"],
        "table": meta["table"],
    }


def replay_view(request: HttpRequest, ref: str) -> HttpResponse:
    grant = _grant(ref, request)
    if grant.live:
        return redirect("replay-watch", game_id=grant.game.pk)
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
            "text": spectator["text"],
            "rest": description,
        }
    return render(
        request,
        "replays/viewer.html",
        {
            "meta": meta,
            "title": _title(meta),
            "description": description,
            "boot": {
                "mode": "replay",
                "meta": meta,
                "perspective": wanted,
                "step": step,
                "frames": frames,
                "frames_url": f"/api/replays/{ref}/frames/",
                "export_url": f"/api/replays/{ref}/export/",
                "share_path": meta["url"],
            },
            "card_names": card_names(),
            "export_url": f"/api/replays/{ref}/export/?download=1",
        },
    )


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


def watch_view(request: HttpRequest, game_id: int) -> HttpResponse:
    grant = _grant(str(game_id), request)
    meta = replay_meta(grant)
    get_token(request)  # the heartbeat POSTs with the CSRF header
    return render(
        request,
        "replays/watch.html",
        {
            "meta": meta,
            "title": _("Watching: %(names)s") % {"names": ", ".join(p["name"] for p in meta["players"])},
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
