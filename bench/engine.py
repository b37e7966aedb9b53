"""Old against new rules engine in one run (`manage.py simulate --compare REF`): REF's engine
unpacked beside this one as `games_ref`, both playing the same seeded games in interleaved batches,
each timed in CPU seconds, the reference loop between batches."""

from __future__ import annotations

import importlib
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from bench.kit.stats import reference_loop_ms

ROOT = Path(__file__).resolve().parents[1]
REF_PACKAGE = "games_ref"


def unpack(ref: str, into: Path) -> Path:
    """The pure game as it is at `ref`, as the package `games_ref`: `harehra/` since the engine
    became a package of its own, `games/engine` and `games/simulation.py` before."""
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", ref, "harehra"], cwd=ROOT, check=True, capture_output=True
    ).stdout.strip()
    paths, top = (["harehra"], "harehra") if listed else (["games/engine", "games/simulation.py"], "games")
    data = subprocess.run(["git", "archive", ref, *paths], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    (into / top).rename(into / REF_PACKAGE)
    if top == "games":
        (into / REF_PACKAGE / "__init__.py").write_text("")
    return into


@dataclass
class Variant:
    label: str
    run: Callable[[int, int, int], Any]  # (games, players, seed) -> Report
    seconds: float = 0.0
    games: int = 0
    wins: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def compare(ref: str, games: int, players: int, seed: int, rounds: int, batch: int = 25) -> list[str]:
    from harehra import simulation

    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, str(unpack(ref, Path(tmp))))
        try:
            old = importlib.import_module(f"{REF_PACKAGE}.simulation")
        finally:
            sys.path.pop(0)
    variants = [
        Variant(f"{ref}, recording events", lambda g, p, s: old.simulate(g, p, seed=s)),
        Variant("new, recording events", lambda g, p, s: simulation.simulate(g, p, seed=s)),
        Variant("new, playouts (no events)", lambda g, p, s: simulation.simulate(g, p, seed=s, record=False)),
    ]
    refs: list[float] = []
    clock = time.thread_time
    for r in range(rounds):
        refs.append(reference_loop_ms())
        for start in range(0, games, batch):
            n = min(batch, games - start)
            batch_seed = seed * 1_000_003 + r * 10_007 + start  # the same games for every variant
            for v in variants:
                t0 = clock()
                report = v.run(n, players, batch_seed)
                v.seconds += clock() - t0
                v.games += n
                v.wins = [a + b for a, b in zip(v.wins or [0] * players, report.wins, strict=True)]
    base = variants[0].rate
    lines = [
        f"{games} games × {rounds} rounds, {players} players, seed {seed}, interleaved in batches of "
        f"{batch}; reference loop {min(refs):.1f}–{max(refs):.1f} ms (median {statistics.median(refs):.1f})",
        f"{'code':<32} {'games/CPU s':>12} {'× old':>6}  wins by seat (the same games)",
    ]
    for v in variants:
        lines.append(f"{v.label:<32} {v.rate:>12,.0f} {v.rate / base:>6.2f}  {v.wins}")
    return lines
