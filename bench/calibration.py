"""Does the replay analysis mean anything (docs/ANALYSIS.md, "Calibration" and "Two seeds"): bot
games' public win chances set against who won, by decile, with the Brier score; and whole games
analysed with two salts, how far the runs lie apart."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harehra import legal_commands, replay, step, view_for
from harehra.analysis import DEFAULT_PLAYOUTS, analyse, public_chances
from harehra.bots import Bot, SearchBot, get_bot
from harehra.decide import start_game
from harehra.events import StoredEvent
from harehra.fold import apply
from harehra.ruleset import make_ruleset
from harehra.simulation import rng_shuffle
from harehra.state import GameState, Result

Progress = Callable[[int, int], None]
BUCKETS = 10  # deciles of the predicted chance
ENOUGH = 100  # a decile with fewer samples than this is shown but not judged


def _bot(level: str, hard_playouts: int | None) -> Bot:
    return SearchBot(hard_playouts) if level == "hard" and hard_playouts is not None else get_bot(level)


def bot_game(
    seed: int, players: int, levels: Sequence[str], hard_playouts: int | None = None
) -> tuple[list[StoredEvent], list[str]]:
    """A game between bots whose levels are drawn from `levels` (one each seat, by `seed`), from a
    seeded deal and a seeded shuffler: its events and the seats' levels."""
    rng = random.Random(seed)
    shuffle = rng_shuffle(rng)
    seat_levels = [rng.choice(list(levels)) for _ in range(players)]
    bots = [_bot(level, hard_playouts) for level in seat_levels]
    events: list[Any] = start_game(make_ruleset(()), players, rng.randrange(players), shuffle)
    state = replay(events)
    while state.result is None:
        assert state.awaiting is not None
        seat = state.awaiting.seat
        command = bots[seat].choose(view_for(state, seat), legal_commands(state, seat))
        new, state = step(state, command, shuffle)
        events += new
    return events, seat_levels


def decision_tables(events: Sequence[StoredEvent]) -> list[tuple[int, GameState]]:
    """(step, state) of every table a seat decides at: the state after a command settled."""
    out = []
    state: GameState | None = None
    for i, e in enumerate(events):
        state = apply(state, e)
        nxt = events[i + 1]["type"] if i + 1 < len(events) else None
        if state.result is None and state.awaiting is not None and nxt in _STARTS:
            out.append((i, state))
    return out


_STARTS = frozenset({"CardsPlayed", "ReactionPlayed", "ReactionDeclined", "CardBurned", "CardsDiscarded"})


@dataclass
class Calibration:
    players: list[int] = field(default_factory=list)  # per sample: the table size
    predicted: list[float] = field(default_factory=list)  # per sample (a seat at a step)
    won: list[int] = field(default_factory=list)
    games: int = 0
    steps: int = 0
    draws: int = 0  # games that ended at the turn limit (nobody won)

    def brier(self) -> float:
        return statistics.fmean((p - y) ** 2 for p, y in zip(self.predicted, self.won, strict=True))

    def brier_uniform(self) -> float:
        """The Brier score of saying 1/N for every seat at every step."""
        return statistics.fmean((1 / n - y) ** 2 for n, y in zip(self.players, self.won, strict=True))

    def rows(self) -> list[dict[str, Any]]:
        """Per decile of the predicted chance: samples, mean predicted, observed win rate and its
        standard error (binomial, as if the samples were independent: steps of one game are not, so
        the true error is somewhat larger), and whether it lies within 5 points."""
        out = []
        for b in range(BUCKETS):
            low, high = b / BUCKETS, (b + 1) / BUCKETS
            idx = [
                i for i, p in enumerate(self.predicted) if low <= p < high or (b == BUCKETS - 1 and p == 1.0)
            ]
            n = len(idx)
            if not n:
                out.append({"low": low, "high": high, "n": 0})
                continue
            predicted = statistics.fmean(self.predicted[i] for i in idx)
            observed = statistics.fmean(self.won[i] for i in idx)
            se = math.sqrt(max(observed * (1 - observed), 1e-9) / n)
            within = abs(observed - predicted) <= 0.05
            row = {"n": n, "predicted": predicted, "observed": observed, "se": se, "within": within}
            out.append({"low": low, "high": high, **row})
        return out

    def lines(self) -> list[str]:
        out = [
            f"calibration: {self.games} games, {self.steps} steps, {len(self.predicted)} samples "
            f"(a seat at a step), {self.draws} drawn games",
            "predicted     samples  mean predicted  observed win rate (± s.e.)  within 5 points",
        ]
        for r in self.rows():
            span = f"{100 * r['low']:3.0f}–{100 * r['high']:3.0f}%"
            if not r["n"]:
                out.append(f"{span}  {0:>9}")
                continue
            judged = ("yes" if r["within"] else "NO") if r["n"] >= ENOUGH else "(few samples)"
            out.append(
                f"{span}  {r['n']:>9}  {100 * r['predicted']:13.1f}%  "
                f"{100 * r['observed']:10.1f}% ± {100 * r['se']:4.1f}      {judged}"
            )
        out.append(
            f"Brier score {self.brier():.4f}; saying 1/N for every seat: {self.brier_uniform():.4f} "
            f"(lower is better)"
        )
        return out


def calibrate(
    games: int,
    *,
    players: Sequence[int] = (4,),
    levels: Sequence[str] = ("easy", "normal", "hard"),
    steps_per_game: int = 10,
    playouts: int = DEFAULT_PLAYOUTS,
    hard_playouts: int | None = 100,
    seed: int = 0,
    progress: Progress | None = None,
) -> Calibration:
    """Play `games` bot games (table sizes cycling through `players`), sample `steps_per_game`
    decision tables of each at random (by `seed`) and estimate every seat's public win chance
    there with `playouts` worlds."""
    out = Calibration()
    pick = random.Random(f"calibration {seed}")
    for g in range(games):
        n = players[g % len(players)]
        events, _ = bot_game(seed * 1_000_003 + g, n, levels, hard_playouts)
        end = events[-1]
        winner = end.get("winner") if end.get("result") == Result.WIN.value else None
        out.games += 1
        out.draws += winner is None
        tables = decision_tables(events)
        for i, state in sorted(pick.sample(tables, min(steps_per_game, len(tables))), key=lambda t: t[0]):
            out.steps += 1
            for s, p in enumerate(public_chances(state, playouts, salt=f"calibration {seed} {g}", step=i)):
                if state.is_eliminated(s):
                    continue  # a seat already out: 0 for certain, no test of anything
                out.players.append(n)
                out.predicted.append(p)
                out.won.append(1 if s == winner else 0)
        if progress is not None:
            progress(g + 1, games)
    return out


def _luck_parts() -> dict[str, list[float]]:
    return {"decisions": [], "draws": [], "others": []}


@dataclass
class SeedAgreement:
    games: int = 0
    judged: int = 0  # decisions judged (the same in both runs: they depend on the log alone)
    labelled: int = 0  # decisions labelled in either run
    agreeing: int = 0  # ... with the same label in both
    same_all: int = 0  # judged decisions with the same label (or none) in both
    chance_diffs: list[float] = field(default_factory=list)
    placing_diffs: list[float] = field(default_factory=list)
    z: list[float] = field(default_factory=list)  # drop difference over its standard error
    drop_diffs: list[float] = field(default_factory=list)
    drop_ses: list[float] = field(default_factory=list)
    luck_diffs: dict[str, list[float]] = field(default_factory=_luck_parts)
    luck_ses: dict[str, list[float]] = field(default_factory=_luck_parts)
    luck_z: dict[str, list[float]] = field(default_factory=_luck_parts)
    seconds: list[float] = field(default_factory=list)  # CPU per analysis

    def lines(self) -> list[str]:
        def pts(x: float) -> str:
            return f"{100 * x:.1f}"

        z_big = sum(1 for z in self.z if abs(z) > 2)
        rms = math.sqrt(statistics.fmean(z * z for z in self.z)) if self.z else 0.0
        out = [
            f"two seeds: {self.games} games, {self.judged} judged decisions, "
            f"{statistics.fmean(self.seconds):.1f} s CPU per analysis",
            f"labels: {self.agreeing} of {self.labelled} decisions labelled in either run carry the same "
            f"label in both ({100 * self.agreeing / max(1, self.labelled):.0f}%); "
            f"{self.same_all} of {self.judged} judged decisions alike "
            f"({100 * self.same_all / max(1, self.judged):.0f}%)",
            f"win chance per step and seat: mean |difference| {pts(statistics.fmean(self.chance_diffs))} "
            f"points, largest {pts(max(self.chance_diffs))}",
            f"expected placing per step and seat: mean |difference| "
            f"{statistics.fmean(self.placing_diffs):.3f} places, largest {max(self.placing_diffs):.3f}",
            f"drops: mean |difference| {pts(statistics.fmean(self.drop_diffs))} points, mean standard "
            f"error {pts(statistics.fmean(self.drop_ses))}; difference / combined error: root mean square "
            f"{rms:.2f} (1 if the errors are honest), |z| > 2 in {z_big} of {len(self.z)} "
            f"({100 * z_big / max(1, len(self.z)):.0f}%; about 5% if honest)",
            "luck per seat and game, mean |difference| (largest), points: "
            + ", ".join(
                f"{k} {pts(statistics.fmean(v))} ({pts(max(v))})" for k, v in self.luck_diffs.items() if v
            ),
            "luck's standard error per seat and game (mean), points: "
            + ", ".join(f"{k} {pts(statistics.fmean(v))}" for k, v in self.luck_ses.items() if v)
            + "; difference / combined error, root mean square: "
            + ", ".join(
                f"{k} {math.sqrt(statistics.fmean(z * z for z in v)):.2f}"
                for k, v in self.luck_z.items()
                if v
            ),
        ]
        return out


def compare_seeds(
    games: int,
    *,
    players: int = 4,
    levels: Sequence[str] = ("easy", "normal"),
    playouts: int = DEFAULT_PLAYOUTS,
    hard_playouts: int | None = 100,
    seed: int = 0,
    progress: Progress | None = None,
    clock: Callable[[], float] | None = None,
) -> SeedAgreement:
    """Analyse each of `games` bot games with two salts and compare the runs."""
    out = SeedAgreement()
    for g in range(games):
        events, _ = bot_game(seed * 1_000_003 + g, players, levels, hard_playouts)
        runs = []
        for salt in ("A", "B"):
            start = clock() if clock else 0.0
            runs.append(analyse(events, playouts, salt=f"seed {salt} game {g}"))
            if clock:
                out.seconds.append(clock() - start)
        a, b = runs
        out.games += 1
        for da, db in zip(a["decisions"], b["decisions"], strict=True):
            assert da["step"] == db["step"]
            out.judged += 1
            out.same_all += da["label"] == db["label"]
            if da["label"] or db["label"]:
                out.labelled += 1
                out.agreeing += da["label"] == db["label"]
            diff = da["drop"] - db["drop"]
            se = math.hypot(da["se"], db["se"])
            out.drop_diffs.append(abs(diff))
            out.drop_ses.append((da["se"] + db["se"]) / 2)
            if se > 0:
                out.z.append(diff / se)
            elif diff == 0:
                out.z.append(0.0)
        for ca, cb in zip(a["chances"], b["chances"], strict=True):
            out.chance_diffs.extend(abs(x - y) for x, y in zip(ca, cb, strict=True))
        for pa, pb in zip(a["placings"], b["placings"], strict=True):
            out.placing_diffs.extend(abs(x - y) for x, y in zip(pa, pb, strict=True))
        for la, lb, sa, sb in zip(a["luck"], b["luck"], a["luck_se"], b["luck_se"], strict=True):
            for k in out.luck_diffs:
                out.luck_diffs[k].append(abs(la[k] - lb[k]))
                out.luck_ses[k].append((sa[k] + sb[k]) / 2)
                if sa[k] or sb[k]:
                    out.luck_z[k].append((la[k] - lb[k]) / math.hypot(sa[k], sb[k]))
        if progress is not None:
            progress(g + 1, games)
    return out
