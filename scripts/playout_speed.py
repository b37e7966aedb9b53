"""Playouts per CPU second, each way on the same tables in one run (docs/ANALYSIS.md, "The compiled
playout core"). Run from the project root:
`python scripts/playout_speed.py [--games 4] [--worlds 16] [--rounds 5] [--mypyc]`.

The tables are worlds dealt from the public view of every 10th table of 4-seat games between easy and
normal bots (as scripts/analysis_cost.py plays them), each played to its end, the same worlds with
the same seeds by every way:
- `before`: the pure playout as the analysis played it before the compiled core: `normal_move`
  move by move, its reshuffles drawn from Python's `random` (`rng.sample`);
- `pure`: `pure_moves`, the compiled core's specification (`normal_move` with `SplitMix64`), what
  plays where the core is not built;
- `compiled`: the Cython core (`play_moves`), when built (scripts/build_playout_core);
- with `--mypyc`, the two mypyc prototypes the Cython core was chosen against, built by mypyc in a
  temporary directory (the build times printed): `mypyc-core`, the Cython core line by line in
  typed Python (scripts/prototypes/playout_core_mypyc.py), and `mypyc-spec`, `pure_moves` with
  harehra/bots/playout.py compiled as it is (the package copied as `harehra_mypyc`).
The ways run interleaved, one round of all tables each in turn, `--rounds` times; the figure is
the total CPU time (process_time) of the playouts alone (the worlds are dealt and copied outside
it). Every way must find the same winners as `pure` (and `before` as itself over its own RNG).
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from analysis_cost import bot_game  # noqa: E402
from analysis_cost import tables as views_of  # noqa: E402

from harehra.bots.playout import CORE_COMPILED, SplitMix64, normal_move, play_moves, pure_moves  # noqa: E402
from harehra.bots.search import dealer  # noqa: E402
from harehra.state import Draft, Result, private_draft  # noqa: E402

FOREVER = 1 << 30


def before(d: Draft, seed: int) -> int | None:
    rng = random.Random(seed)

    def shuffle(cards: Any) -> list[str]:
        return rng.sample(list(cards), len(cards))

    while d.result is None and d.awaiting is not None:
        normal_move(d, shuffle)
    return d.winner if d.result is Result.WIN else None


def by_runner(runner: Callable[[Draft, SplitMix64, int], list[int]]) -> Callable[[Draft, int], int | None]:
    def play(d: Draft, seed: int) -> int | None:
        runner(d, SplitMix64(seed), FOREVER)
        return d.winner if d.result is Result.WIN else None

    return play


def tables(games: int, worlds: int) -> list[tuple[Draft, int]]:
    master = SplitMix64(1)
    out = []
    for seed in range(1, games + 1):
        for view in views_of(bot_game(seed)):
            deal = dealer(view)
            for _ in range(worlds):
                w = deal(master)
                if w is not None:
                    out.append((w, master.next()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=16, help="worlds dealt per table")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mypyc", action="store_true", help="also build and measure the mypyc prototypes")
    args = parser.parse_args()

    ways: dict[str, Callable[[Draft, int], int | None]] = {"before": before, "pure": by_runner(pure_moves)}
    if CORE_COMPILED:
        ways["compiled"] = by_runner(play_moves)
    else:
        print("the compiled core is not built (scripts/build_playout_core): compiled left out")
    if args.mypyc:
        tmp = tempfile.mkdtemp()
        build_mypyc(Path(tmp))
        sys.path.insert(0, tmp)
        ways["mypyc-core"] = by_runner(importlib.import_module("playout_core_mypyc").play_moves)
        mypyc = importlib.import_module("harehra_mypyc.bots.playout")
        mypyc_state = importlib.import_module("harehra_mypyc.state")
        assert mypyc.__file__ is not None and not mypyc.__file__.endswith(".py"), "not compiled"

        def with_mypyc(d: Draft, seed: int) -> int | None:
            mypyc.pure_moves(d, mypyc.SplitMix64(seed), FOREVER)
            return d.winner if d.result is not None and d.result.value == "win" else None

        ways["mypyc-spec"] = with_mypyc

    made = time.process_time()
    worlds = tables(args.games, args.worlds)
    made = time.process_time() - made
    print(f"{len(worlds)} tables (worlds of {args.games} 4-seat games) dealt in {made:.1f} s CPU")
    cpu = dict.fromkeys(ways, 0.0)
    winners: dict[str, list[int | None]] = {}
    for r in range(args.rounds):
        names = list(ways)
        names = names[r % len(names) :] + names[: r % len(names)]  # each way first in turn
        for name in names:
            if name == "mypyc-spec":
                drafts = [_mypyc_copy(w, mypyc_state) for w, _ in worlds]
            else:
                drafts = [private_draft(w) for w, _ in worlds]
            play = ways[name]
            start = time.process_time()
            found = [play(d, seed) for d, (_, seed) in zip(drafts, worlds, strict=True)]
            cpu[name] += time.process_time() - start
            winners.setdefault(name, found)
    for name in ways:
        if name not in ("before", "pure"):
            assert winners[name] == winners["pure"], f"{name} finds other winners than pure"
    played = len(worlds) * args.rounds
    base = played / cpu["before"]
    print(f"{'way':<10}{'playouts':>10}{'CPU s':>9}{'per s':>10}{'us each':>10}{'x before':>10}")
    for name in ways:
        rate = played / cpu[name]
        print(f"{name:<10}{played:>10}{cpu[name]:>9.2f}{rate:>10.0f}{1e6 / rate:>10.1f}{rate / base:>10.1f}")


def build_mypyc(into: Path) -> None:
    """The mypyc prototypes built in `into` (see the docstring)."""
    shutil.copy(ROOT / "scripts" / "prototypes" / "playout_core_mypyc.py", into)
    skip = shutil.ignore_patterns("*.so", "*.pyx", "__pycache__")
    shutil.copytree(ROOT / "harehra", into / "harehra_mypyc", ignore=skip)
    for path in (into / "harehra_mypyc").rglob("*.py"):
        path.write_text(
            path.read_text()
            .replace("from harehra.", "from harehra_mypyc.")
            .replace("from harehra import", "from harehra_mypyc import")
        )
    env = {"MYPYPATH": str(ROOT), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}
    for target in ("playout_core_mypyc.py", "harehra_mypyc/bots/playout.py"):
        start = time.monotonic()
        subprocess.run(["mypyc", target], cwd=into, env=env, check=True, capture_output=True)
        print(f"mypyc built {target} in {time.monotonic() - start:.1f} s")


def _mypyc_copy(w: Draft, mypyc_state: Any) -> Any:
    """A private draft of `w` made of the copied package's classes (its own Decision and Volley)."""
    source = private_draft(w)
    d = object.__new__(mypyc_state.Draft)
    for name in mypyc_state.Draft.__slots__:
        setattr(d, name, getattr(source, name))
    if d.awaiting is not None:
        d.awaiting = mypyc_state.Awaiting(d.awaiting.seat, mypyc_state.Decision(d.awaiting.kind.value))
    if d.volley is not None:
        d.volley = mypyc_state.Volley(d.volley.attacker, d.volley.target, d.volley.count)
    return d


if __name__ == "__main__":
    main()
