"""The cost of the replay analysis (docs/ANALYSIS.md, "Cost"): 4-seat games between easy and
normal bots, analysed at the default budget. Run from the project root:
`python scripts/analysis_cost.py [PLAYOUTS] [--seeds 1 2 3] [--compare REF]`.

With `--compare REF` (a git commit or branch, e.g. `main`), the engine as it is at REF (its
`harehra/`, taken by `git archive` into a temporary package `harehra_ref`) runs beside this
checkout's in one process, interleaved (each game's order alternating): single playouts (worlds
dealt from the games' tables and played to the end), each game's whole analysis (its bytes
compared), and the hard bot's choices on random tables (compared). The winners and choices must be
alike when both engines draw the playouts' luck from the same generator; against an engine from
before `SplitMix64` they are only counted. The engine at REF runs without a compiled playout core
(none is built for it): against a REF that has one, the figures compare its pure playout."""

from __future__ import annotations

import argparse
import importlib
import io
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harehra import legal_commands, make_ruleset, replay, start_game, step, view_for
from harehra.analysis import DEFAULT_PLAYOUTS, analyse
from harehra.bots import get_bot
from harehra.events import DECISION_EVENTS
from harehra.fold import apply
from harehra.legal import legal_moves
from harehra.simulation import rng_shuffle

ROOT = Path(__file__).resolve().parents[1]


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


def engine_at(ref: str, into: Path) -> Any:
    """The package `harehra_ref`: this repository's `harehra/` as it is at `ref`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "harehra"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "harehra").rename(into / "harehra_ref")
    sys.path.insert(0, str(into))
    return importlib.import_module("harehra_ref")


class Way:
    """One engine's analysis, world dealing and playout, by module."""

    def __init__(self, name: str, package: str) -> None:
        self.name = name
        self.analysis = importlib.import_module(f"{package}.analysis")
        self.search = importlib.import_module(f"{package}.bots.search")
        # The playouts' generator: SplitMix64 where the engine has it, else Python's own.
        self.generator = getattr(importlib.import_module(f"{package}.bots.playout"), "SplitMix64", None)

    def playouts(self, views: list[dict[str, Any]], per_view: int, seed: int) -> list[int | None]:
        """`per_view` worlds of each view dealt and played to the end: the winners."""
        rng = self.generator(seed) if self.generator else random.Random(seed)
        deal = getattr(self.search, "dealer", None)
        winners = []
        for view in views:
            dealing = deal(view) if deal else (lambda r, v=view: self.search.world(v, r))
            for _ in range(per_view):
                w = dealing(rng)
                seed = rng.next() if self.generator else rng.getrandbits(64)
                luck = self.generator(seed) if self.generator else random.Random(seed)
                winners.append(self.analysis.play_to_end(w, luck))
        return winners


def tables(events: list[Any]) -> list[dict[str, Any]]:
    """The public view of every 10th table of a game at which someone decides."""
    state, out = None, []
    for i, e in enumerate(events):
        state = apply(state, e)
        if i % 10 == 0 and state.result is None and state.awaiting is not None:
            out.append(view_for(state, None))
    return out


def hard_cases(count: int, seed: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Decisions with a choice, met in random-legal 2-4 seat games."""
    master = random.Random(seed)
    cases: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    while len(cases) < count:
        shuffle = rng_shuffle(random.Random(master.getrandbits(32)))
        state = replay(start_game(make_ruleset(()), master.randint(2, 4), 0, shuffle))
        while state.result is None and len(cases) < count:
            assert state.awaiting is not None
            seat = state.awaiting.seat
            legal = legal_commands(state, seat)
            if len(legal) > 1 and master.random() < 0.15:
                cases.append((view_for(state, seat), legal))
            _, state = step(state, master.choice(legal_moves(state, seat)), shuffle)
    return cases


def compare(ref: str, seeds: list[int], playouts: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine_at(ref, Path(tmp))
        ways = [Way(ref, "harehra_ref"), Way("this", "harehra")]
        games = [bot_game(seed) for seed in seeds]
        views = [v for events in games for v in tables(events)]
        cpu = dict.fromkeys(("old", "new"), 0.0)
        winners: dict[str, list[int | None]] = {}
        alike_luck = (ways[0].generator is None) == (ways[1].generator is None)
        same_winners = 0
        rounds, per_view = 4, 8
        for r in range(rounds):
            for label, way in (
                zip(("old", "new"), ways, strict=True)
                if r % 2 == 0
                else [
                    ("new", ways[1]),
                    ("old", ways[0]),
                ]
            ):
                began = time.process_time()
                winners[label] = way.playouts(views, per_view, r)
                cpu[label] += time.process_time() - began
            assert winners["old"] == winners["new"] or not alike_luck, "the playouts' winners differ"
            same_winners += sum(a == b for a, b in zip(winners["old"], winners["new"], strict=True))
        n = rounds * per_view * len(views)
        print(
            f"one playout (a world dealt from a table's public view and played to the end), {n} each: "
            f"{ref} {cpu['old'] / n * 1e3:.3f} ms, this {cpu['new'] / n * 1e3:.3f} ms CPU; "
            f"{cpu['old'] / cpu['new']:.2f}x; winners alike: {same_winners} of {n}",
            flush=True,
        )
        totals = dict.fromkeys(("old", "new"), 0.0)
        for k, (seed, events) in enumerate(zip(seeds, games, strict=True)):
            texts, cpus = {}, {}
            order = [("old", ways[0]), ("new", ways[1])]
            for label, way in order if k % 2 == 0 else order[::-1]:
                began = time.process_time()
                result = way.analysis.analyse(events, playouts, salt=str(seed))
                cpus[label] = time.process_time() - began
                texts[label] = way.analysis.analysis_json(result)
                totals[label] += cpus[label]
            same = "identical" if texts["old"] == texts["new"] else "DIFFERENT"
            print(
                f"game {seed}: {len(events)} events, {len(result['decisions'])} judged: "
                f"{ref} {cpus['old']:.1f} s, this {cpus['new']:.1f} s CPU; "
                f"{cpus['old'] / cpus['new']:.2f}x; analysis_json {same}",
                flush=True,
            )
        g = len(games)
        print(
            f"per game's analysis ({playouts} playouts): {ref} {totals['old'] / g:.1f} s, "
            f"this {totals['new'] / g:.1f} s CPU; {totals['old'] / totals['new']:.2f}x",
            flush=True,
        )
        cases = hard_cases(100, 5)
        bots = [way.search.SearchBot(200) for way in ways]
        spent = [0.0, 0.0]
        same_choices = 0
        for i, (view, legal) in enumerate(cases):
            chosen = [None, None]
            for j in (0, 1) if i % 2 == 0 else (1, 0):
                began = time.process_time()
                chosen[j] = bots[j].choose(view, legal)
                spent[j] += time.process_time() - began
            assert chosen[0] == chosen[1] or not alike_luck, f"the hard bot chose otherwise at case {i}"
            same_choices += chosen[0] == chosen[1]
        print(
            f"hard bot, 200 playouts, {len(cases)} decisions: {ref} {spent[0] / len(cases) * 1e3:.1f} ms, "
            f"this {spent[1] / len(cases) * 1e3:.1f} ms CPU a decision; {spent[0] / spent[1]:.2f}x; "
            f"choices alike: {same_choices} of {len(cases)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("playouts", nargs="?", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="the games' seeds")
    parser.add_argument(
        "--compare", metavar="REF", help="also run the engine at this git commit, interleaved"
    )
    args = parser.parse_args()
    if args.compare:
        compare(args.compare, args.seeds, args.playouts)
        return
    for seed in args.seeds:
        events = bot_game(seed)
        cpu, wall = time.process_time(), time.perf_counter()
        result = analyse(events, args.playouts, salt=str(seed))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        decisions = sum(1 for e in events if e["type"] in DECISION_EVENTS)
        labels = sum(1 for d in result["decisions"] if d["label"])
        print(
            f"game {seed}: {len(events)} events, {decisions} decisions, {len(result['decisions'])} judged, "
            f"{cpu:.1f} s CPU, {wall:.1f} s wall, {labels} labelled ({args.playouts} playouts)",
            flush=True,
        )


if __name__ == "__main__":
    main()
