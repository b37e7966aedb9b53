"""The cost of the replay analysis (docs/ANALYSIS.md, "Cost"): 4-seat games between easy and
normal bots, analysed at the default budget. Run from the project root:
`python scripts/analysis_cost.py [PLAYOUTS]`."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harehra import legal_commands, replay, step, view_for
from harehra.analysis import DEFAULT_PLAYOUTS, analyse
from harehra.bots import get_bot
from harehra.decide import start_game
from harehra.events import DECISION_EVENTS
from harehra.ruleset import make_ruleset
from harehra.simulation import rng_shuffle


def bot_game(seed: int, players: int = 4) -> list[Any]:
    rng = random.Random(seed)
    shuffle = rng_shuffle(rng)
    events: list[Any] = start_game(make_ruleset(()), players, players - 1, shuffle)
    state = replay(events)
    bots = [get_bot(("easy", "normal")[i % 2]) for i in range(players)]
    while state.result is None:
        assert state.awaiting is not None
        seat = state.awaiting.seat
        command = bots[seat].choose(view_for(state, seat), legal_commands(state, seat))
        new, state = step(state, command, shuffle)
        events += new
    return events


def main() -> None:
    playouts = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PLAYOUTS
    for seed in (1, 2, 3):
        events = bot_game(seed)
        cpu, wall = time.process_time(), time.perf_counter()
        result = analyse(events, playouts, salt=str(seed))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        decisions = sum(1 for e in events if e["type"] in DECISION_EVENTS)
        labels = sum(1 for d in result["decisions"] if d["label"])
        print(
            f"game {seed}: {len(events)} events, {decisions} decisions, {len(result['decisions'])} judged, "
            f"{cpu:.1f} s CPU, {wall:.1f} s wall, {labels} labelled ({playouts} playouts)",
            flush=True,
        )


if __name__ == "__main__":
    main()
