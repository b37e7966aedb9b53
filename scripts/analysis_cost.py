"""The cost of the replay analysis (docs/ANALYSIS.md, "Cost"): 4-seat games between easy and
normal bots, analysed at the default budget. Run from the project root:
`python scripts/analysis_cost.py [PLAYOUTS] [--compare] [--seeds 1 2 3]`.

With `--compare`, the playouts' two ways of playing a move (harehra/bots/playout.py: the fast
`normal_move` and `reference_move`, the rules' general path) run interleaved in one process:
first single playouts (worlds dealt from each game's settled tables, each played to its end both
ways), then each game's whole analysis both ways, checked to give the same bytes."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harehra import legal_commands, replay, step, view_for
from harehra.analysis import DEFAULT_PLAYOUTS, analyse, analysis_json, play_to_end
from harehra.bots import get_bot
from harehra.bots.playout import Mover, normal_move, reference_move
from harehra.bots.search import world
from harehra.decide import start_game
from harehra.events import DECISION_EVENTS
from harehra.fold import apply
from harehra.ruleset import make_ruleset
from harehra.simulation import rng_shuffle
from harehra.state import Draft, private_draft

WAYS: tuple[tuple[str, Mover], ...] = (("old", reference_move), ("new", normal_move))


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


def run(events: list[Any], playouts: int, salt: str, mover: Mover) -> tuple[dict[str, Any], float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = analyse(events, playouts, salt=salt, mover=mover)
    return result, time.process_time() - cpu, time.perf_counter() - wall


def worlds(events: list[Any], count: int, seed: int) -> list[tuple[Draft, int]]:
    """`count` worlds dealt from the public view of the game's tables (every 10th event's), each
    with the seed of its playout's RNG."""
    rng = random.Random(seed)
    state = None
    tables = []
    for i, e in enumerate(events):
        state = apply(state, e)
        if i % 10 == 0 and state.result is None and state.awaiting is not None:
            tables.append(view_for(state, None))
    out = []
    while len(out) < count:
        w = world(rng.choice(tables), rng)
        if w is not None:
            out.append((w, rng.getrandbits(64)))
    return out


def playout_cost(games: list[list[Any]], per_game: int, rounds: int = 5) -> dict[str, float]:
    """CPU seconds per playout played to the end, each way, in alternate rounds."""
    dealt = [w for g, events in enumerate(games) for w in worlds(events, per_game, g)]
    cpu = {name: 0.0 for name, _ in WAYS}
    for r in range(rounds):
        for name, mover in WAYS if r % 2 == 0 else WAYS[::-1]:
            began = time.process_time()
            for w, seed in dealt:
                play_to_end(private_draft(w), random.Random(seed), mover)
            cpu[name] += time.process_time() - began
    return {name: spent / (rounds * len(dealt)) for name, spent in cpu.items()}


def compare(seeds: list[int], playouts: int) -> None:
    games = [bot_game(seed) for seed in seeds]
    per = playout_cost(games, 400)
    print(
        f"one playout to the end (public worlds of the games' tables): old {per['old'] * 1e3:.3f} ms, "
        f"new {per['new'] * 1e3:.3f} ms CPU; {per['old'] / per['new']:.2f}x",
        flush=True,
    )
    totals = {name: 0.0 for name, _ in WAYS}
    for k, (seed, events) in enumerate(zip(seeds, games, strict=True)):
        texts, cpus = {}, {}
        for name, mover in WAYS if k % 2 == 0 else WAYS[::-1]:  # alternate which goes first
            result, cpus[name], _ = run(events, playouts, str(seed), mover)
            texts[name] = analysis_json(result)
            totals[name] += cpus[name]
        same = "identical" if texts["old"] == texts["new"] else "DIFFERENT"
        print(
            f"game {seed}: {len(events)} events, {len(result['decisions'])} judged: old {cpus['old']:.1f} s, "
            f"new {cpus['new']:.1f} s CPU; {cpus['old'] / cpus['new']:.2f}x; analysis_json {same}",
            flush=True,
        )
    n = len(games)
    print(
        f"per game analysis ({playouts} playouts): old {totals['old'] / n:.1f} s, "
        f"new {totals['new'] / n:.1f} s CPU; {totals['old'] / totals['new']:.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("playouts", nargs="?", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--compare", action="store_true", help="the old and the new playouts, interleaved")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="the games' seeds")
    args = parser.parse_args()
    if args.compare:
        compare(args.seeds, args.playouts)
        return
    for seed in args.seeds:
        events = bot_game(seed)
        result, cpu, wall = run(events, args.playouts, str(seed), normal_move)
        decisions = sum(1 for e in events if e["type"] in DECISION_EVENTS)
        labels = sum(1 for d in result["decisions"] if d["label"])
        print(
            f"game {seed}: {len(events)} events, {decisions} decisions, {len(result['decisions'])} judged, "
            f"{cpu:.1f} s CPU, {wall:.1f} s wall, {labels} labelled ({args.playouts} playouts)",
            flush=True,
        )


if __name__ == "__main__":
    main()
