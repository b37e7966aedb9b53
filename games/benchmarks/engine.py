"""Old against new rules engine in one run (`manage.py simulate --compare REF`).

This machine's speed drifts from minute to minute, so figures of two runs cannot be compared.
Here the engine and simulator of a git revision (REF) are unpacked beside the working copy and
both play the same seeded games in alternating rounds, each round in a fresh process timed in
its own CPU seconds, with the reference loop (games.benchmarks.service.reference_loop_ms) timed
before each round. The figure is the median round.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from .service import reference_loop_ms

ROOT = Path(__file__).resolve().parents[2]

# Timed in CPU seconds of the process (time.process_time): the machine is shared, and wall time
# counts whatever else ran meanwhile.
_ROUND = """
import json, sys, time
from games.simulation import simulate
games, players, seed, record = json.loads(sys.argv[1])
kwargs = {} if record is None else {"record": record}
t0 = time.process_time()
report = simulate(games, players, seed=seed, **kwargs)
print(json.dumps([games / (time.process_time() - t0), report.wins]))
"""


def unpack(ref: str, into: Path) -> Path:
    """games/engine and games/simulation.py as they are at `ref`, as a package of their own."""
    data = subprocess.run(
        ["git", "archive", ref, "games/engine", "games/simulation.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    (into / "games" / "__init__.py").write_text("")
    return into


def _round(path: Path, games: int, players: int, seed: int, record: bool | None) -> tuple[float, list[int]]:
    out = subprocess.run(
        [sys.executable, "-c", _ROUND, json.dumps([games, players, seed, record])],
        cwd=path,
        env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rate, wins = json.loads(out)
    return float(rate), list(wins)


@dataclass
class Variant:
    label: str
    rates: list[float] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)


def compare(ref: str, games: int, players: int, seed: int, rounds: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        old_path = unpack(ref, Path(tmp))
        variants = [
            (Variant(f"{ref}, recording events"), old_path, None),
            (Variant("new, recording events"), ROOT, True),
            (Variant("new, playouts (no events)"), ROOT, False),
        ]
        refs: list[float] = []
        for _ in range(rounds):
            refs.append(reference_loop_ms())
            for variant, path, record in variants:
                rate, wins = _round(path, games, players, seed, record)
                variant.rates.append(rate)
                variant.wins = wins
    base = statistics.median(variants[0][0].rates)
    lines = [
        f"{games} games × {rounds} rounds, {players} players, seed {seed}; reference loop "
        f"{min(refs):.1f}–{max(refs):.1f} ms (median {statistics.median(refs):.1f})",
        f"{'code':<32} {'games/CPU s':>15} {'range':>15} {'× old':>6}  wins by seat (same games)",
    ]
    for variant, _, _ in variants:
        median = statistics.median(variant.rates)
        span = f"{min(variant.rates):,.0f}–{max(variant.rates):,.0f}"
        lines.append(f"{variant.label:<32} {median:>15,.0f} {span:>15} {median / base:>6.2f}  {variant.wins}")
    return lines
