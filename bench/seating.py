"""Seating benchmark: a simulated Swiss event of N players (random places), each round timed."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from tournaments.scoring import table_points
from tournaments.seating import Player, conflicts_of, seat_arena, seat_swiss


@dataclass
class RoundFigure:
    round: int
    ms: float
    conflicts: int


def swiss_rounds(players: int, size: int, rounds: int, seed: int = 1) -> list[RoundFigure]:
    """Seat `rounds` Swiss rounds of `players`; random places; each round's seating timed."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(players), 0)
    met: dict[int, dict[int, int]] = {i: {} for i in range(players)}
    entrants = list(range(players))
    rng.shuffle(entrants)
    out = []
    for r in range(1, rounds + 1):
        order = sorted(entrants, key=lambda i: -score[i])
        field = [Player(i, score[i], dict(met[i])) for i in order]
        t0 = time.perf_counter()
        seating = seat_swiss(field, size)
        ms = (time.perf_counter() - t0) * 1000
        out.append(RoundFigure(r, ms, conflicts_of(seating, field)))
        for t in seating.tables:
            ranked = list(t.players)
            rng.shuffle(ranked)
            points = table_points(list(range(1, t.seats + 1)))
            for k, p in enumerate(ranked):
                score[p] += points[k]
                for q in t.players:
                    if q != p:
                        met[p][q] = met[p].get(q, 0) + 1
    return out


def arena_seating_ms(players: int, size: int, seed: int = 1) -> float:
    """One arena seating of `players` free at once, each with a last table to avoid."""
    rng = random.Random(seed)
    ids = list(range(players))
    rng.shuffle(ids)
    last = {i: frozenset(ids[(i // size) * size : (i // size + 1) * size]) - {ids[i]} for i in range(players)}
    field = [Player(ids[i], players - i, last=last[i], waiting=rng.random() * 10) for i in range(players)]
    t0 = time.perf_counter()
    seat_arena(field, size)
    return (time.perf_counter() - t0) * 1000


def median(xs: list[float]) -> float:
    return statistics.median(xs)
