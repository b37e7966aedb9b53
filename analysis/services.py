"""Making and keeping games' analyses, and people's requests for them. The one write path of
GameAnalysis and AnalysisRequest."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from celery import current_app as app
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import override
from rest_framework.throttling import SimpleRateThrottle

from accounts.throttles import wait_words
from games.access import AnyUser
from games.models import Game, GameStatus
from games.selectors import game_finished_log
from harehra import StoredEvent
from harehra.analysis import ANALYSIS_VERSION, DEFAULT_PLAYOUTS
from notifications.models import Kind
from notifications.services import notification_send
from plumbing.errors import ServiceError
from plumbing.replica import primary_needed, replica_read
from replays.access import ReplayGrant

from .access import access_analysis_request
from .apart import NICENESS, analyse_apart
from .models import AnalysisRequest, GameAnalysis, RequestStatus
from .pending import QUEUED_STALE, RUNNING_STALE, request_is_pending
from .publish import analysis_progress_changed, analysis_state_changed

Progress = Callable[[int, int], None]
log = logging.getLogger(__name__)


class AnalysisRefused(Exception):
    """A game that cannot be analysed: {code, detail} as the API answers it."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


def _finished_log(game_id: int) -> list[StoredEvent] | None:
    events = game_finished_log(game_id)
    if events is None:
        primary_needed()  # on a replica the game may not have ended yet: the primary says
    return events


def analysis_run(
    game_id: int,
    *,
    rebuild: bool = False,
    playouts: int | None = None,
    progress: Progress | None = None,
) -> GameAnalysis:
    """The game's analysis at today's version, made now unless one exists (or `rebuild`).
    Only a game that ended by the rules is analysed: a running or aborted one is refused."""
    if not rebuild:
        found = GameAnalysis.objects.filter(game_id=game_id, version=ANALYSIS_VERSION).first()
        if found is not None:
            return found
    events = replica_read(_finished_log, game_id)
    if events is None:
        raise AnalysisRefused("game_not_finished", "only a game that ended with a win or a draw is analysed")
    budget = playouts or getattr(settings, "ANALYSIS_PLAYOUTS", DEFAULT_PLAYOUTS)
    niceness = getattr(settings, "ANALYSIS_NICENESS", NICENESS)
    body, seconds = analyse_apart(
        events, playouts=budget, salt=f"game {game_id}", progress=progress, niceness=niceness
    )
    with transaction.atomic():
        analysis, _ = GameAnalysis.objects.update_or_create(
            game_id=game_id,
            version=ANALYSIS_VERSION,
            defaults={"playouts": budget, "body": body, "seconds": seconds},
        )
        # An older version is replaced by the newer one once that is made.
        GameAnalysis.objects.filter(game_id=game_id, version__lt=ANALYSIS_VERSION).delete()
    return analysis


# A message's priority on the analysis queue. On Redis the lowest number is served first
# (kombu's Redis transport: priority_steps 0, 3, 6, 9), so an automatic analysis (9) waits while a
# requested one (no priority: 0) is queued; the memory broker of the embedded run keeps none.
AUTOMATIC_PRIORITY = 9


def _send_analysis(game_id: int, *, priority: int | None = None) -> None:
    """Queue the game's analysis once the transaction commits (its request row is there to update).
    Sent by name, so services never import the tasks (they import the services)."""
    options = {} if priority is None else {"priority": priority}
    transaction.on_commit(lambda: app.send_task("analysis.tasks.analyse_game", args=[game_id], **options))


def analyses_pending() -> int:
    """Analyses queued or running now (asked for or automatic; a request given up as stale is
    not), counted in the database: how long the analysis queue is."""
    now = timezone.now()
    return AnalysisRequest.objects.filter(
        Q(status=RequestStatus.QUEUED, asked_at__gte=now - QUEUED_STALE)
        | Q(status=RequestStatus.RUNNING, updated_at__gte=now - RUNNING_STALE)
    ).count()


def analysis_game_ended(game_id: int) -> bool:
    """ "A game ended" (games/ended.py), in the transaction that ends it: a rated game's analysis
    is queued automatically (ANALYSIS_AUTOMATIC) when the machine has room, that is while fewer
    than ANALYSIS_AUTOMATIC_MAX_PENDING analyses are queued or running; otherwise it is skipped
    (anyone may still ask for it; `analyse_games` makes the missing ones). Its request row, with
    nobody as the asker, commits with the game's end, so the bound counts it at once and the replay
    page shows it queued; it counts against nobody's quota, and goes at the lowest priority.
    True when one was queued."""
    if not getattr(settings, "ANALYSIS_AUTOMATIC", False):
        return False
    # Rated as the ratings app placed it (its subscriber runs first: INSTALLED_APPS' order).
    if not Game.objects.filter(pk=game_id, placings__rated=True).exists():
        return False
    # Two games ending at the same instant may both see room: the bound is exceeded by at most
    # the game ends committing at once.
    if analyses_pending() >= getattr(settings, "ANALYSIS_AUTOMATIC_MAX_PENDING", 2):
        log.info("game %s: no room for its automatic analysis", game_id)
        return False
    _request_queue(game_id, asker=None)
    _send_analysis(game_id, priority=AUTOMATIC_PRIORITY)
    return True


# --- requests: "Analyse this game" and its progress -----------------------------------------------

PROGRESS_STEP = 0.02  # progress is written every 2% of the game's steps


class AnalysisThrottle(SimpleRateThrottle):
    """Analyses one account may ask for (settings THROTTLE_ANALYSIS, e.g. "5/hour"): each costs a
    worker's seconds of CPU. Counted in Django's cache, as the site's other throttles are."""

    scope = "analysis"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


def _quota_take(user: AnyUser) -> int | None:
    """None when `user` may ask for one more analysis now (and counts it), else seconds to wait."""
    throttle = AnalysisThrottle()
    if throttle.allow_request(SimpleNamespace(user=user), None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 1))


# About how long the analyst takes over one requested analysis, to say when a full queue has room
# again: a 4-seat game of about 700 events is 13-19 s of a core, more on a loaded machine
# (docs/ANALYSIS.md, "Cost" and "How many an hour").
ANALYSIS_SECONDS_EACH = 30
# The key of the PostgreSQL advisory lock that serialises requests while they count the queue.
_QUEUE_LOCK = 0x4841_5245  # "HARE"


def analyses_requested_pending() -> int:
    """Analyses people asked for that are queued or running now (not automatic ones, which yield
    to them; not stale ones): what a new request waits behind."""
    now = timezone.now()
    return (
        AnalysisRequest.objects.filter(requested_by__isnull=False)
        .filter(
            Q(status=RequestStatus.QUEUED, asked_at__gte=now - QUEUED_STALE)
            | Q(status=RequestStatus.RUNNING, updated_at__gte=now - RUNNING_STALE)
        )
        .count()
    )


def _queue_room_wait() -> int | None:
    """None when the analysis queue has room for one more requested analysis (ANALYSIS_QUEUE_MAX
    queued or running, over every account), else about the seconds until it has. Called in the
    request's transaction: the lock, held to its end, makes requests from many accounts at once
    count one after another, so the bound is never exceeded."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_QUEUE_LOCK])
    ahead = analyses_requested_pending()
    room = getattr(settings, "ANALYSIS_QUEUE_MAX", 10)
    if ahead < room:
        return None
    return (ahead - room + 1) * ANALYSIS_SECONDS_EACH


def _request_queue(game_id: int, *, asker: AnyUser | None) -> AnalysisRequest:
    """The game's request row at today's version, queued afresh (asked for by `asker`, or None
    for an automatic one)."""
    now = timezone.now()
    row, _ = AnalysisRequest.objects.update_or_create(
        game_id=game_id,
        version=ANALYSIS_VERSION,
        defaults={
            "requested_by": asker,
            "status": RequestStatus.QUEUED,
            "done": 0,
            "total": 0,
            "code": "",
            "asked_at": now,
            "updated_at": now,
        },
    )
    return row


def analysis_request_create(*, grant: ReplayGrant, user: AnyUser) -> AnalysisRequest | GameAnalysis:
    """`user` asks for the analysis of the game `grant` opened: the analysis when it exists, the
    request already under way when someone asked first, else a new request queued on the
    analysis queue (counted against the user's quota; one pending request per person)."""
    access_analysis_request(grant, user)
    game = grant.game
    with transaction.atomic():
        # The game's row serialises two people asking at once (a finished game has no moves).
        Game.objects.select_for_update().filter(pk=game.pk).first()
        made = GameAnalysis.objects.filter(game=game, version=ANALYSIS_VERSION).first()
        if made is not None:
            return made
        row = AnalysisRequest.objects.filter(game=game, version=ANALYSIS_VERSION).first()
        if request_is_pending(row):
            assert row is not None
            if row.requested_by_id is None and row.status == RequestStatus.QUEUED:
                # An automatic one still waiting, now for a person: queued again at the requested
                # ones' priority (not counted: whichever runs second finds it made).
                _send_analysis(game.pk)
            return row
        mine = AnalysisRequest.objects.filter(
            requested_by=user, status__in=[RequestStatus.QUEUED, RequestStatus.RUNNING]
        ).exclude(game=game)
        if any(request_is_pending(r) for r in mine):
            raise ServiceError(
                "analysis_pending", "you have an analysis queued or running; ask again once it is done", 409
            )
        # Before the quota: a refusal for a full queue costs the person none of their hour's few.
        wait = _queue_room_wait()
        if wait is not None:
            with override("en"):  # an API's detail stays English (clients word errors by code)
                detail = f"the analysis queue is full; try again in {wait_words(wait)}"
            raise ServiceError("analysis_queue_full", detail, 429, retry_after=wait)
        wait = _quota_take(user)
        if wait is not None:
            raise ServiceError(
                "throttled", f"too many analyses asked for; try again in {wait} s", 429, retry_after=wait
            )
        row = _request_queue(game.pk, asker=user)
        _send_analysis(game.pk)
    return row


def analysis_progress_writer(row_id: int) -> Progress:
    """The `progress` of analysis_run for a request: written to its row every PROGRESS_STEP of the
    game (and at the end), and pushed to the replay pages waiting for it once written (the
    analysis socket), so their bar moves without a write or a message per step."""
    last = -1
    game_id = AnalysisRequest.objects.values_list("game_id", flat=True).get(pk=row_id)

    def write(done: int, total: int) -> None:
        nonlocal last
        if last >= 0 and done < total and done - last < max(1, int(total * PROGRESS_STEP)):
            return
        last = done
        AnalysisRequest.objects.filter(pk=row_id).update(done=done, total=total, updated_at=timezone.now())
        analysis_progress_changed(game_id, done, total)

    return write


def analysis_work(game_id: int, *, rebuild: bool = False) -> GameAnalysis:
    """A worker makes the game's analysis (the task `analyse_game`): its request, asked for or
    not, says it is running and how far it got, then that it is done (or failed, and why)."""
    if not rebuild:
        found = GameAnalysis.objects.filter(game_id=game_id, version=ANALYSIS_VERSION).first()
        if found is not None:
            # A request still queued or running (its worker was killed after another made the
            # analysis) is done now; one already done is left as it is: a task handed out again
            # long after (the broker's visibility timeout, settings) changes nothing.
            told = (
                AnalysisRequest.objects.filter(game_id=game_id, version=ANALYSIS_VERSION)
                .exclude(status=RequestStatus.DONE)
                .update(status=RequestStatus.DONE, updated_at=timezone.now())
            )
            if told:
                analysis_state_changed(game_id)
            return found
    if not Game.objects.filter(pk=game_id, status=GameStatus.FINISHED).exists():  # no request row then
        raise AnalysisRefused("game_not_finished", "only a game that ended with a win or a draw is analysed")
    now = timezone.now()
    row, _ = AnalysisRequest.objects.update_or_create(
        game_id=game_id,
        version=ANALYSIS_VERSION,
        defaults={"status": RequestStatus.RUNNING, "done": 0, "code": "", "updated_at": now},
        create_defaults={"status": RequestStatus.RUNNING, "asked_at": now, "updated_at": now},
    )
    analysis_state_changed(game_id)
    try:
        made = analysis_run(game_id, rebuild=rebuild, progress=analysis_progress_writer(row.pk))
    except AnalysisRefused as refused:
        AnalysisRequest.objects.filter(pk=row.pk).update(
            status=RequestStatus.FAILED, code=refused.code, updated_at=timezone.now()
        )
        analysis_state_changed(game_id)
        raise
    except Exception:
        AnalysisRequest.objects.filter(pk=row.pk).update(
            status=RequestStatus.FAILED, code="error", updated_at=timezone.now()
        )
        analysis_state_changed(game_id)
        raise
    # The analysis is stored (analysis_run committed it): the pages waiting for it fetch it now,
    # and the person who asked for it is told wherever they are.
    with transaction.atomic():
        AnalysisRequest.objects.filter(pk=row.pk).update(status=RequestStatus.DONE, updated_at=timezone.now())
        if row.requested_by_id is not None:
            notification_send(user_id=row.requested_by_id, kind=Kind.ANALYSIS_READY, data={"game": game_id})
    analysis_state_changed(game_id)
    return made
