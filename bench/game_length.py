"""How long a game lasts at each table size: its decisions (normal bots through the engine) times a
stated pace per decision (docs/TOURNAMENTS.md), and the ceiling with each timer used in full."""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass

from harehra.bots import get_bot
from harehra.decide import start_game, step
from harehra.fold import replay
from harehra.legal import legal_commands
from harehra.ruleset import make_ruleset
from harehra.simulation import rng_shuffle
from harehra.state import Decision
from harehra.views import view_for

# The seconds a person takes over one decision, by kind (a forced one, with one legal command,
# still waits for its person's click: counted at the same pace). Set so that a table of 4 lasts
# the about 7 minutes people took in a real arena (the 4-minute arena: one game each).
PACE = {Decision.TURN: 4.0, Decision.VOLLEY: 2.0, Decision.SKIP: 2.0, Decision.DISCARD: 2.0}
TIMER = {Decision.TURN: 30.0, Decision.VOLLEY: 10.0, Decision.SKIP: 10.0, Decision.DISCARD: 10.0}


@dataclass
class Lengths:
    seats: int
    decisions: list[int]  # per game
    minutes: list[float]  # per game, at PACE
    ceiling: list[float]  # per game, every decision taking its whole timer

    def line(self) -> str:
        d = sorted(self.decisions)
        m = sorted(self.minutes)

        def q(xs: list[float] | list[int], p: float) -> float:
            return float(xs[min(len(xs) - 1, int(p * len(xs)))])

        return (
            f"{self.seats} seats, {len(d)} games: decisions p50 {q(d, 0.5):.0f} p90 {q(d, 0.9):.0f}; "
            f"minutes at the pace p50 {q(m, 0.5):.1f} p90 {q(m, 0.9):.1f} (mean "
            f"{statistics.mean(m):.1f}); every timer used in full p50 {statistics.median(self.ceiling):.0f}"
        )


def game_lengths(seats: int, games: int, seed: int = 0, level: str = "normal") -> Lengths:
    ruleset = make_ruleset(("big-warren",) if seats > 4 else ())
    bot = get_bot(level)
    master = random.Random(seed * 100 + seats)
    out = Lengths(seats, [], [], [])
    for i in range(games):
        shuffle = rng_shuffle(random.Random(master.getrandbits(64)))
        state = replay(start_game(ruleset, seats, i % seats, shuffle))
        decisions, seconds, ceiling = 0, 0.0, 0.0
        while state.awaiting is not None and state.result is None:
            seat, kind = state.awaiting.seat, state.awaiting.kind
            legal = legal_commands(state, seat)
            command = bot.choose(view_for(state, seat), legal)
            decisions += 1
            seconds += PACE[kind]
            ceiling += TIMER[kind]
            _, state = step(state, command, shuffle)
        out.decisions.append(decisions)
        out.minutes.append(seconds / 60)
        out.ceiling.append(ceiling / 60)
    return out
