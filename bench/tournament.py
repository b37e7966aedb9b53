"""A whole arena and Swiss event of bot-played entrants through the real services and the beat's task,
in this process without Redis: seating times, games, results, standings updates, pushes, waits,
and whether `rebuild_tournament` refolds the same standings (docs/BENCHMARKS.md)."""

from __future__ import annotations

import queue
import random
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from io import StringIO
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import close_old_connections, connection
from django.utils import timezone
from prometheus_client import REGISTRY

import tournaments.publish as publish
from bench.kit.stats import percentile
from games.eventlog import load_state
from games.models import Game, GameSeat, GameStatus
from games.services.autoplay import bot_command, game_bot_move
from games.services.moves import game_command_submit
from games.services.tables import TABLE_LIMITS
from plumbing.errors import ServiceError
from tournaments.models import Entry, EventSeat, EventTable, Format, Result, Status, Tournament
from tournaments.services import tournament_create, tournament_join
from tournaments.tasks import tournament_tick, tournaments_run

GOAL_SEAT_WAIT_P95_S = 10.0


@dataclass(frozen=True)
class TournamentBenchConfig:
    players: int = 200
    table_size: int = 4
    arena_minutes: int = 2
    rounds: int = 3
    formats: tuple[str, ...] = ("arena", "swiss")
    threads: int = 4
    beat_seconds: float = 5.0  # the beat's period in production
    slice_moves: int = 8
    level: str = "easy"  # the bots' choice the entrants' seats play
    bots_after_seconds: int = 10  # arena: a free player waits at most this long for people
    rated: bool = True
    seed: int = 1


@dataclass
class Seating:
    by: str  # "beat" (tournaments_run) or "wake" (the task after a game ended)
    ms: float
    tables: int
    round: int  # Swiss: the round seated (0: none, or an arena)


@dataclass
class EventFigures:
    format: str
    tournament: int
    players: int
    wall_s: float = 0.0
    seatings: list[Seating] = field(default_factory=list)
    games: int = 0
    results: int = 0
    decisions: int = 0
    bot_decisions: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    standings_ms: list[float] = field(default_factory=list)
    standings_bytes: int = 0
    pushes: dict[str, float] = field(default_factory=dict)
    seat_waits_s: list[float] = field(default_factory=list)
    short_tables: int = 0
    tables: int = 0
    bot_seats: int = 0
    rebuild: str = ""
    rebuild_ok: bool = False


def _pushes() -> dict[str, float]:
    return {
        kind: REGISTRY.get_sample_value("harehra_tournament_pushes_total", {"kind": kind}) or 0.0
        for kind in ("standings", "me")
    }


class _Timed:
    """The standings' reading and encoding (with the lists of games of the players given a
    result), timed where the publisher calls it (the same call, its time kept): the figure a
    standings update costs the process that made the change."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.bytes = 0
        self.lock = threading.Lock()
        self.real = publish.tournament_live

    def __call__(self, t: Tournament, games_of: Iterable[int] = ()) -> dict[str, Any]:
        started = time.perf_counter()
        live = self.real(t, games_of)
        elapsed = (time.perf_counter() - started) * 1000
        with self.lock:
            self.ms.append(elapsed)
            self.bytes = max(self.bytes, len(publish.jsontext.dumps(live)))
        return live


def _make_users(n: int) -> list[Any]:
    """Entrants without a real password hash (PBKDF2 would cost a second each, for nothing)."""
    User = get_user_model()
    prefix = f"bt{secrets.token_hex(3)}"
    unusable = make_password(None)
    return User.objects.bulk_create([User(username=f"{prefix}-{i}", password=unusable) for i in range(n)])


class _EventRun:
    def __init__(self, cfg: TournamentBenchConfig, fmt: str, users: list[Any], staff: Any) -> None:
        self.cfg, self.fmt = cfg, fmt
        self.users = {u.pk: u for u in users}
        now = timezone.now()
        shortest = {
            name: TABLE_LIMITS[name].low for name in ("turn_timer", "reaction_timer", "discard_timer")
        }
        self.t = tournament_create(
            user=staff,
            name=f"Bench {fmt} {secrets.token_hex(2)}",
            format=fmt,
            table_size=cfg.table_size,
            min_table_size=cfg.table_size,
            bots_fill=True,
            bot_level="easy",
            bots_after_seconds=cfg.bots_after_seconds,
            rated=cfg.rated,
            entry_opens_at=now - timedelta(minutes=1),
            starts_at=now + timedelta(days=1),  # moved to now once everyone has entered
            duration_minutes=cfg.arena_minutes,
            rounds=cfg.rounds,
            **shortest,
        )
        for u in users:
            tournament_join(tournament=self.t, user=u)
        self.figures = EventFigures(fmt, self.t.pk, len(users))
        self.queue: queue.Queue[int] = queue.Queue()
        self.queued: set[int] = set()
        self.seat_lock = threading.Lock()
        self.count_lock = threading.Lock()
        self.done = threading.Event()
        self.rng = random.Random(cfg.seed)
        self.seats: dict[int, dict[int, tuple[int | None, bool]]] = {}  # game -> seat -> (user, bot)

    def seat(self, by: str) -> None:
        """The beat's task or the wake-up, one at a time (the event's row lock would serialize them
        anyway), so each call's tables are its own."""
        with self.seat_lock:
            before = EventTable.objects.filter(tournament=self.t).count()
            round_before = Tournament.objects.values_list("current_round", flat=True).get(pk=self.t.pk)
            started = time.perf_counter()
            if by == "beat":
                tournaments_run()
            else:
                tournament_tick(self.t.pk)
            ms = (time.perf_counter() - started) * 1000
            made = EventTable.objects.filter(tournament=self.t).order_by("id")[before:]
            new = list(made.values_list("game_id", flat=True))
            rnd = Tournament.objects.values_list("current_round", flat=True).get(pk=self.t.pk)
            if new:
                self.figures.seatings.append(Seating(by, ms, len(new), rnd if rnd != round_before else 0))
            for game_id in new:
                if game_id is not None and game_id not in self.queued:
                    self.queued.add(game_id)
                    self.queue.put(game_id)

    def beat(self) -> None:
        try:
            while not self.done.wait(self.cfg.beat_seconds):
                self.seat("beat")
        finally:
            connection.close()

    def _seat_rows(self, game_id: int) -> dict[int, tuple[int | None, bool]]:
        rows = self.seats.get(game_id)
        if rows is None:
            rows = {
                s.seat: (s.user_id, s.is_bot)
                for s in GameSeat.objects.filter(game_id=game_id).only("seat", "user_id", "is_bot")
            }
            self.seats[game_id] = rows
        return rows

    def play(self, game_id: int, rng: random.Random) -> bool:
        """Up to `slice_moves` decisions of the game; True once it has ended."""
        rows = self._seat_rows(game_id)
        people = bots = 0
        try:
            for _ in range(self.cfg.slice_moves):
                game = Game.objects.get(pk=game_id)
                if game.status != GameStatus.RUNNING:
                    return True
                seat = game.awaiting_seat
                assert seat is not None
                user_id, is_bot = rows[seat]
                if is_bot:
                    game_bot_move(game_id=game_id, guard_seq=game.last_seq)  # the bot task's service
                    bots += 1
                    continue
                state = load_state(game)
                command = {k: v for k, v in bot_command(state, seat, self.cfg.level).items() if k != "seat"}
                try:
                    game_command_submit(
                        game=game,
                        user=self.users[user_id],  # type: ignore[index]
                        command=command,
                        client_cmd_id=f"b{rng.getrandbits(60):x}",
                    )
                    people += 1
                except ServiceError as e:
                    with self.count_lock:
                        self.figures.refused[e.code] += 1
            return Game.objects.filter(pk=game_id).exclude(status=GameStatus.RUNNING).exists()
        finally:
            with self.count_lock:
                self.figures.decisions += people + bots
                self.figures.bot_decisions += bots

    def worker(self, n: int) -> None:
        rng = random.Random(self.cfg.seed * 1000 + n)
        try:
            while not self.done.is_set():
                try:
                    game_id = self.queue.get(timeout=0.2)
                except queue.Empty:
                    continue
                if self.play(game_id, rng):
                    self.seat("wake")  # what the worker does with the wake-up the game's end sent
                else:
                    self.queue.put(game_id)
        finally:
            close_old_connections()
            connection.close()

    def run(self, say: Callable[[str], None]) -> EventFigures:
        Tournament.objects.filter(pk=self.t.pk).update(starts_at=timezone.now())
        timed = _Timed()
        publish.tournament_live = timed  # type: ignore[assignment]
        pushes_before = _pushes()
        started = time.perf_counter()
        threads = [threading.Thread(target=self.beat, name="beat", daemon=True)] + [
            threading.Thread(target=self.worker, args=(i,), name=f"player-{i}", daemon=True)
            for i in range(self.cfg.threads)
        ]
        try:
            self.seat("beat")  # the beat's first run starts the event (it is due now)
            for th in threads:
                th.start()
            last_note = started
            while True:
                time.sleep(0.5)
                status = Tournament.objects.values_list("status", flat=True).get(pk=self.t.pk)
                if status in (Status.FINISHED, Status.CANCELLED):
                    break
                if time.perf_counter() - last_note >= 30:
                    last_note = time.perf_counter()
                    done = EventTable.objects.filter(tournament=self.t, done=True).count()
                    played = self.figures.decisions
                    say(f"  … {last_note - started:.0f} s: {done} games ended, {played} decisions")
        finally:
            self.done.set()
            for th in threads:
                if th.is_alive():
                    th.join(30)
            publish.tournament_live = timed.real  # type: ignore[assignment]
        f = self.figures
        f.wall_s = time.perf_counter() - started
        after = _pushes()
        f.pushes = {k: after[k] - pushes_before[k] for k in after}
        f.standings_ms, f.standings_bytes = timed.ms, timed.bytes
        self._read_back(f)
        return f

    def _read_back(self, f: EventFigures) -> None:
        t = Tournament.objects.get(pk=self.t.pk)
        f.games = EventTable.objects.filter(tournament=t, game__status=GameStatus.FINISHED).count()
        f.results = Result.objects.filter(tournament=t).count()
        for et in EventTable.objects.filter(tournament=t):
            seats = GameSeat.objects.filter(game_id=et.game_id)
            f.tables += 1
            f.bot_seats += seats.filter(is_bot=True).count()
            if seats.count() < t.min_table_size:
                f.short_tables += 1
        if t.format == Format.ARENA:
            f.seat_waits_s = _arena_waits(t)
        out = StringIO()
        try:
            call_command("rebuild_tournament", str(t.pk), stdout=out)
            f.rebuild_ok = True
        except CommandError:
            f.rebuild_ok = False
        f.rebuild = out.getvalue().strip().splitlines()[-1]


def _arena_waits(t: Tournament) -> list[float]:
    """Seconds from being free (the start, or the end of one's last game) to sitting at the next
    table, for every entrant freed before the arena's end (after it nobody is seated)."""
    assert t.started_at is not None
    end = t.started_at + timedelta(minutes=t.duration_minutes)
    rows = (
        EventSeat.objects.filter(event_table__tournament=t, entry__isnull=False)
        .order_by("entry_id", "event_table__created_at")
        .values_list("entry_id", "event_table__created_at", "event_table__game__finished_at")
    )
    waits: list[float] = []
    by_entry: dict[int, list[tuple[Any, Any]]] = {}
    for entry_id, created, finished in rows:
        by_entry.setdefault(entry_id, []).append((created, finished))
    for entry_id in Entry.objects.filter(tournament=t).values_list("pk", flat=True):
        free = t.started_at
        for created, finished in by_entry.get(entry_id, []):
            waits.append((created - free).total_seconds())
            free = finished
            if free is None or free >= end:
                break
    return waits


def run_tournament_bench(cfg: TournamentBenchConfig, say: Callable[[str], None]) -> list[EventFigures]:
    users = _make_users(cfg.players)
    staff = get_user_model().objects.create(username=f"btstaff{secrets.token_hex(3)}", is_staff=True)
    out = []
    for fmt in cfg.formats:
        run = _EventRun(cfg, fmt, users, staff)
        size = f"{cfg.arena_minutes} min" if fmt == Format.ARENA else f"{cfg.rounds} rounds"
        say(f"{fmt} {run.t.pk}: {cfg.players} entrants, tables of {cfg.table_size}, {size}")
        out.append(run.run(say))
    return out


def report(cfg: TournamentBenchConfig, figures: list[EventFigures]) -> list[str]:
    lines = []
    for f in figures:
        lines.append(
            f"{f.format} (tournament {f.tournament}): {f.players} entrants, {f.wall_s:.0f} s start to finish"
        )
        seat_ms = [s.ms for s in f.seatings]
        by = Counter(s.by for s in f.seatings)
        lines.append(
            f"  seatings: {len(f.seatings)} ({', '.join(f'{k} {v}' for k, v in sorted(by.items()))}), "
            f"{sum(s.tables for s in f.seatings)} tables; per seating p50 {percentile(seat_ms, 50):.0f} ms, "
            f"p95 {percentile(seat_ms, 95):.0f} ms, max {max(seat_ms, default=0):.0f} ms"
        )
        for s in f.seatings:
            if s.round:
                lines.append(f"  round {s.round}: {s.tables} tables seated in {s.ms:.0f} ms ({s.by})")
        if f.seatings and not any(s.round for s in f.seatings):
            first = f.seatings[0]
            lines.append(f"  the start: {first.tables} tables seated in {first.ms:.0f} ms")
        lines.append(
            f"  games played {f.games}, results written {f.results}, decisions {f.decisions} "
            f"({f.bot_decisions} by the event's bots), refused {dict(f.refused) or 0}"
        )
        lines.append(
            f"  tables {f.tables}, with bot seats {f.bot_seats}; tables started below {cfg.table_size}: "
            f"{f.short_tables}"
        )
        if f.seat_waits_s:
            w = f.seat_waits_s
            lines.append(
                f"  free -> seated: p50 {percentile(w, 50):.1f} s, p95 {percentile(w, 95):.1f} s, "
                f"max {max(w):.1f} s over {len(w)} waits (goal p95 <= {GOAL_SEAT_WAIT_P95_S:g} s)"
            )
        ms = f.standings_ms
        lines.append(
            f"  standings updates {len(ms)}: p50 {percentile(ms, 50):.1f} ms, "
            f"p95 {percentile(ms, 95):.1f} ms, max {max(ms, default=0):.1f} ms to read and encode "
            f"({f.standings_bytes / 1024:.0f} KB at most)"
        )
        results = f.results or 1
        standings, mine = f.pushes.get("standings", 0), f.pushes.get("me", 0)
        lines.append(
            f"  pushes: {standings:.0f} standings + {mine:.0f} own-entry = "
            f"{(standings + mine) / results:.2f} per result ({standings / results:.2f} standings per result)"
        )
        lines.append(f"  rebuild_tournament: {f.rebuild} ({'same' if f.rebuild_ok else 'DIFFERENT'})")
    return lines
