"""Reading a game's event log: rows to engine events, and the state they fold to (the write
side is games/services/moves.py)."""

from __future__ import annotations

from django.db.models import QuerySet

from harehra import GameState, StoredEvent, replay, snapshot_is_current, state_from_dict

from . import sql
from .models import Game, GameEvent

# The newest state of recently used games in this process: (seq, state) by game. Every read
# checks the seq against the database, so a stale entry is never used, only replaced. The key
# includes the game's random replay key, so a reused primary key can never hit an old entry.
_STATE_CACHE: dict[tuple[int, str], tuple[int, GameState]] = {}
_STATE_CACHE_SIZE = 2048


def row_to_event(row: GameEvent) -> StoredEvent:
    """A row as the event it stores, with the keys the log adds (a deadline) kept."""
    return {**row.payload, "type": row.type, "version": row.version}


def event_rows(game: Game, after: int = 0, upto: int | None = None) -> QuerySet[GameEvent]:
    rows = GameEvent.objects.filter(game=game, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return rows.order_by("seq")


def events_with_seq(game: Game, after: int = 0, upto: int | None = None) -> list[tuple[int, StoredEvent]]:
    return [(row.seq, row_to_event(row)) for row in event_rows(game, after, upto)]


def fold_from_log(game: Game, upto: int | None = None) -> GameState:
    """The state refolded from the events (up to seq `upto`), ignoring snapshots and caches."""
    return replay(event for _, event in events_with_seq(game, upto=upto))


def load_state(game: Game, use_snapshot: bool = True) -> GameState:
    """The state at `game.last_seq`: the cache (caught up with the events after it, if any), else
    the snapshot plus the events after it, else the whole log."""
    cached = _STATE_CACHE.get((game.pk, game.replay_key))
    state: GameState | None = None
    seq = 0
    if cached and cached[0] <= game.last_seq:
        # The log is append-only and the cache holds committed states only, so the events after
        # the cached seq lead from it to now: another process usually moved once since.
        seq, state = cached
        if seq == game.last_seq:
            return state
    elif use_snapshot:
        snap = sql.snapshot_of(game.pk)
        if snap is not None and snap[0] <= game.last_seq and snapshot_is_current(snap[1]):
            seq, state = snap[0], state_from_dict(snap[1])
    state = replay(sql.events_between(game.pk, seq, game.last_seq), state)
    remember_state(game, state)
    return state


def remember_state(game: Game, state: GameState) -> None:
    remember_state_at(game.pk, game.replay_key, game.last_seq, state)


def remember_state_at(game_id: int, replay_key: str, seq: int, state: GameState) -> None:
    """Cache `state` as the game's state at `seq`; call it only for what has been committed."""
    if len(_STATE_CACHE) >= _STATE_CACHE_SIZE:
        _STATE_CACHE.pop(next(iter(_STATE_CACHE)), None)
    _STATE_CACHE[(game_id, replay_key)] = (seq, state)


def forget_states() -> None:
    _STATE_CACHE.clear()
