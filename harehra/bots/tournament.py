"""Bots against bots through the engine alone (no database): `manage.py bot_tournament`.

Game i seats the entrants rotated by i (entrant k at seat (k + i) mod n) and hands the shuffle to
seat (i // n) mod n, so every entrant plays every seat and every distance from the shuffler
alike. Each bot is asked exactly as in a real game: `choose(view_for(state, seat),
legal_commands(state, seat))`, and its time per decision is measured around that call.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..decide import start_game, step
from ..fold import replay
from ..legal import legal_commands
from ..ruleset import make_ruleset
from ..simulation import rng_shuffle
from ..views import view_for
from . import get_bot
from .search import SearchBot

Progress = Callable[[int, int], None]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class LevelStats:
    level: str
    entrants: int = 0  # how many seats of each game it holds
    seats_played: int = 0  # games × entrants
    wins: int = 0
    by_seat: list[list[int]] = field(default_factory=list)  # [wins, games] per seat
    times: list[float] = field(default_factory=list)  # seconds per decision with a choice

    def percentile(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else math.nan


@dataclass
class Tournament:
    bots: tuple[str, ...]
    games: int
    seed: int
    stats: dict[str, LevelStats]
    draws: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        n = len(self.bots)
        out = [
            f"{self.games} games, {n} players: {' vs '.join(self.bots)}; seats and shuffler rotated, "
            f"seed {self.seed}; {self.draws} draws; {self.seconds:.0f} s",
            f"{'bot':<8} {'seats':>6} {'wins':>6} {'win rate':>9} {'Wilson 95%':>16}   "
            + "  ".join(f"seat {s}" for s in range(n)),
        ]
        for st in self.stats.values():
            lo, hi = wilson(st.wins, st.seats_played)
            rate = st.wins / st.seats_played if st.seats_played else 0.0
            seats = "  ".join(f"{100 * w / g:5.1f}%" if g else "    - " for w, g in st.by_seat)
            share = f" (per seat; {st.entrants} seats a game)" if st.entrants > 1 else ""
            out.append(
                f"{st.level:<8} {st.seats_played:>6} {st.wins:>6} {100 * rate:>8.1f}% "
                f"[{100 * lo:5.1f}, {100 * hi:5.1f}]%   {seats}{share}"
            )
        out.append("CPU time per decision with a choice (one core):")
        for st in self.stats.values():
            if st.times:
                mean = 1000 * sum(st.times) / len(st.times)
                out.append(
                    f"  {st.level:<8} {len(st.times):>7} decisions  mean {mean:7.2f} ms"
                    f"  p99 {1000 * st.percentile(0.99):7.2f} ms  max {1000 * max(st.times):7.2f} ms"
                )
        return out


def play(
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    progress: Progress | None = None,
    playouts: int | None = None,
) -> Tournament:
    """`playouts` sets the hard bot's playouts per decision (default: the level's own)."""
    n = len(bots)
    ruleset = make_ruleset()
    players = {
        level: SearchBot(playouts) if level == "hard" and playouts is not None else get_bot(level)
        for level in bots
    }
    stats: dict[str, LevelStats] = {}
    for level in bots:
        st = stats.setdefault(level, LevelStats(level, by_seat=[[0, 0] for _ in range(n)]))
        st.entrants += 1
    master = random.Random(seed)
    result = Tournament(tuple(bots), games, seed, stats)
    start = time.perf_counter()
    clock = time.thread_time  # CPU time of this thread: one core, whatever else the machine runs
    for i in range(games):
        rng = random.Random(master.getrandbits(64))
        shuffle = rng_shuffle(rng)
        seat_level = [bots[(s - i) % n] for s in range(n)]  # entrant k sits at (k + i) mod n
        state = replay(start_game(ruleset, n, (i // n) % n, shuffle))
        while state.awaiting is not None and state.result is None:
            seat = state.awaiting.seat
            legal = legal_commands(state, seat)
            view = view_for(state, seat)
            t0 = clock()
            command = players[seat_level[seat]].choose(view, legal)
            spent = clock() - t0
            if len(legal) > 1:
                stats[seat_level[seat]].times.append(spent)
            _, state = step(state, command, shuffle)
        for s, level in enumerate(seat_level):
            st = stats[level]
            st.seats_played += 1
            st.by_seat[s][1] += 1
            if state.winner == s:
                st.wins += 1
                st.by_seat[s][0] += 1
        if state.winner is None:
            result.draws += 1
        if progress is not None:
            progress(i + 1, games)
    result.seconds = time.perf_counter() - start
    return result
