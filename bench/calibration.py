"""Does the replay analysis mean anything? (docs/ANALYSIS.md, "Calibration" and "Two seeds")

- **Calibration.** Bots of mixed levels play games through the engine (no database); at a few
  steps of each (where a seat decides) every seat's public win chance is estimated as the
  analysis estimates it (`harehra.analysis.public_chances`), and set against who won. Grouped by
  decile of the predicted chance, a calibrated estimate wins as often as it says; the Brier score
  (mean squared error of the chance against 1 won / 0 not) is compared with always saying 1/N.
- **Two seeds.** Whole games analysed twice with two salts: how many labels agree, how far the
  chances, placings and luck parts of the two runs lie apart, and whether the drops' differences
  stay within their standard errors (|z| > 2 about one time in twenty if the errors are honest).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harehra import legal_commands, replay, step, view_for
from harehra.analysis import (
    CALIBRATION_SEATS,
    DEFAULT_PLAYOUTS,
    analyse,
    calibrated,
    command_of,
    judge,
    public_chances,
)
from harehra.bots import Bot, SearchBot, get_bot
from harehra.decide import start_game
from harehra.events import DECISION_EVENTS, StoredEvent
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
    raw: list[float] = field(default_factory=list)  # ... the share of worlds won, before the map
    table: list[int] = field(default_factory=list)  # ... the step it was taken at (within its game)
    won: list[int] = field(default_factory=list)
    game: list[int] = field(default_factory=list)  # per sample: the game it was taken in
    games: int = 0
    steps: int = 0
    draws: int = 0  # games that ended at the turn limit (nobody won)

    def samples(self) -> dict[str, Any]:
        """The samples, to be pooled with other runs' (`pooled`)."""
        return {
            "players": self.players,
            "predicted": self.predicted,
            "raw": self.raw,
            "table": self.table,
            "won": self.won,
            "game": self.game,
            "games": self.games,
            "steps": self.steps,
            "draws": self.draws,
        }

    @classmethod
    def pooled(cls, runs: Sequence[dict[str, Any]]) -> Calibration:
        """One calibration of several runs' samples (runs of other seeds: other games)."""
        out = cls()
        for run in runs:
            out.players += run["players"]
            out.predicted += run["predicted"]
            out.raw += run.get("raw", [])
            out.table += run.get("table", [])
            out.won += run["won"]
            out.game += run["game"]
            out.games += run["games"]
            out.steps += run["steps"]
            out.draws += run["draws"]
        return out

    def brier(self) -> float:
        return statistics.fmean((p - y) ** 2 for p, y in zip(self.predicted, self.won, strict=True))

    def brier_uniform(self) -> float:
        """The Brier score of saying 1/N for every seat at every step."""
        return statistics.fmean((1 / n - y) ** 2 for n, y in zip(self.players, self.won, strict=True))

    def rows(self) -> list[dict[str, Any]]:
        """Per decile of the predicted chance: samples, mean predicted, observed win rate and its
        standard error (binomial, as if the samples were independent), the gap (observed less
        predicted) with its standard error counted by game (the seats and steps of one game are
        not independent: the error of a mean over clusters, `_clustered_se`), and whether the gap
        lies within 5 points."""
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
            gaps = [self.won[i] - self.predicted[i] for i in idx]
            gap_se = _clustered_se(gaps, [self.game[i] for i in idx]) if self.game else se
            out.append(
                {
                    "low": low,
                    "high": high,
                    "n": n,
                    "predicted": predicted,
                    "observed": observed,
                    "se": se,
                    "gap": observed - predicted,
                    "gap_se": gap_se,
                    "within": abs(observed - predicted) <= 0.05,
                }
            )
        return out

    def lines(self) -> list[str]:
        out = [
            f"calibration: {self.games} games, {self.steps} steps, {len(self.predicted)} samples "
            f"(a seat at a step), {self.draws} drawn games",
            "predicted     samples  mean predicted  observed win rate (± s.e.)  gap (± s.e. by game)  "
            "within 5 points",
        ]
        for r in self.rows():
            span = f"{100 * r['low']:3.0f}–{100 * r['high']:3.0f}%"
            if not r["n"]:
                out.append(f"{span}  {0:>9}")
                continue
            judged = ("yes" if r["within"] else "NO") if r["n"] >= ENOUGH else "(few samples)"
            out.append(
                f"{span}  {r['n']:>9}  {100 * r['predicted']:13.1f}%  "
                f"{100 * r['observed']:10.1f}% ± {100 * r['se']:4.1f}      "
                f"{100 * r['gap']:+5.1f} ± {100 * r['gap_se']:3.1f}          {judged}"
            )
        out.append(
            f"Brier score {self.brier():.4f}; saying 1/N for every seat: {self.brier_uniform():.4f} "
            f"(lower is better)"
        )
        return out


def _clustered_se(values: Sequence[float], clusters: Sequence[int]) -> float:
    """The standard error of the mean of `values` when those of one cluster (a game) may be
    correlated: the spread of the clusters' sums of deviations (the sandwich estimator, with the
    small-sample factor G/(G-1)). Equal to the plain error when every value is its own cluster."""
    n = len(values)
    mean = statistics.fmean(values)
    sums: dict[int, float] = {}
    for v, c in zip(values, clusters, strict=True):
        sums[c] = sums.get(c, 0.0) + v - mean
    g = len(sums)
    if g < 2:
        return 0.0
    return math.sqrt(g / (g - 1) * sum(x * x for x in sums.values())) / n


def mapped(shares: Sequence[float], power: float, lead: float) -> list[float]:
    """`harehra.analysis.calibrated` with other parameters (the map being fitted)."""
    total = sum(shares)
    weights = [p**power * max(1.0 - p, 1e-9) ** lead if p > 0 else 0.0 for p in shares]
    weight = sum(weights)
    return [total * w / weight for w in weights] if weight > 0 else list(shares)


def _tables(cal: Calibration) -> list[list[int]]:
    """The samples of each table (a game's step): the seats still in there (the seats already out
    are not sampled; they won no world)."""
    tables: dict[tuple[int, int], list[int]] = {}
    for i, key in enumerate(zip(cal.game, cal.table, strict=True)):
        tables.setdefault(key, []).append(i)
    return list(tables.values())


def fit_map(cal: Calibration) -> tuple[float, float, float]:
    """The parameters (power, lead) of the calibration map (`harehra.analysis.calibrated`) that
    give the samples' raw shares the least Brier score, and that score: a grid of steps of 0.1,
    then of 0.01 around its best. The samples of one table are mapped together, as the analysis
    maps a step's seats together; tables of fewer than CALIBRATION_SEATS seats in keep their shares,
    as in the analysis (and count in the score as they are)."""
    groups = [([cal.raw[i] for i in idx], [cal.won[i] for i in idx]) for idx in _tables(cal)]
    kept = sum(
        (q - y) ** 2
        for shares, won in groups
        if len(shares) < CALIBRATION_SEATS
        for q, y in zip(shares, won, strict=True)
    )
    groups = [g for g in groups if len(g[0]) >= CALIBRATION_SEATS]

    def score(power: float, lead: float) -> float:
        total = kept
        for shares, won in groups:
            total += sum((q - y) ** 2 for q, y in zip(mapped(shares, power, lead), won, strict=True))
        return total / len(cal.raw)

    best = (1.0, 0.0, score(1.0, 0.0))
    for grid, span in ((0.1, 10), (0.01, 10)):
        centre_power, centre_lead = best[0], best[1]
        for i in range(-span, span + 1):
            for j in range(-span, span + 1):
                power, lead = round(centre_power + i * grid, 4), round(centre_lead + j * grid, 4)
                if power <= 0 or lead > 0:
                    continue  # not monotone, or not a sharpening of the leader
                s = score(power, lead)
                if s < best[2]:
                    best = (power, lead, s)
    return best


def remapped(cal: Calibration, power: float, lead: float) -> Calibration:
    """The samples with their raw shares mapped by (power, lead) instead of the analysis's map
    (tables of fewer than CALIBRATION_SEATS seats in keep their shares)."""
    out = Calibration(**{k: list(v) if isinstance(v, list) else v for k, v in vars(cal).items()})
    for idx in _tables(cal):
        shares = [cal.raw[i] for i in idx]
        for i, q in zip(
            idx, mapped(shares, power, lead) if len(idx) >= CALIBRATION_SEATS else shares, strict=True
        ):
            out.predicted[i] = q
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
            shares = public_chances(state, playouts, salt=f"calibration {seed} {g}", step=i, raw=True)
            for s, (p, q) in enumerate(zip(calibrated(shares, len(state.alive())), shares, strict=True)):
                if state.is_eliminated(s):
                    continue  # a seat already out: 0 for certain, no test of anything
                out.players.append(n)
                out.predicted.append(p)
                out.raw.append(q)
                out.table.append(i)
                out.won.append(1 if s == winner else 0)
                out.game.append(seed * 1_000_003 + g)
        if progress is not None:
            progress(g + 1, games)
    return out


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
    luck_diffs: dict[str, list[float]] = field(
        default_factory=lambda: {"decisions": [], "draws": [], "others": []}
    )
    luck_ses: dict[str, list[float]] = field(
        default_factory=lambda: {"decisions": [], "draws": [], "others": []}
    )
    luck_z: dict[str, list[float]] = field(
        default_factory=lambda: {"decisions": [], "draws": [], "others": []}
    )
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


# --- Against a reference: the default budget's labels beside those of 16 times its worlds -------

BANDS: dict[str | None, int] = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
REFERENCE_FACTOR = 16


def judged_decisions(events: Sequence[StoredEvent], playouts: int, salt: str) -> list[dict[str, Any]]:
    """The `decisions` of `analyse(events, playouts, salt=salt)`, alone: each decision judged as
    the analysis judges it (the same seeds), without the chances, placings and luck, which cost
    as much again and are not labels."""
    out = []
    state: GameState | None = None
    for i, e in enumerate(events):
        before, state = state, apply(state, e)
        if e["type"] in DECISION_EVENTS and before is not None:
            seat = e["seat"]
            if before.awaiting is not None and before.awaiting.seat == seat:
                judged = judge(before, seat, command_of(e), playouts, salt, i)
                if judged is not None:
                    out.append({"step": i, **judged})
    return out


@dataclass
class LabelPair:
    """Two label sets of the same decisions: `a` (the default analysis) against `b` (the
    reference, or a second seed)."""

    judged: int = 0
    alike: int = 0  # the same label, or none in both
    labelled: int = 0  # labelled in either
    labelled_alike: int = 0
    far: int = 0  # two or more bands apart (none against mistake or blunder, inaccuracy against blunder)
    b_serious: int = 0  # `b` says mistake or blunder ...
    b_serious_labelled: int = 0  # ... and `a` gives a label
    matrix: dict[tuple[int, int], int] = field(default_factory=dict)  # (band in a, band in b) -> count

    def add(self, a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> None:
        for da, db in zip(a, b, strict=True):
            assert da["step"] == db["step"]
            x, y = BANDS[da["label"]], BANDS[db["label"]]
            self.judged += 1
            self.alike += x == y
            if x or y:
                self.labelled += 1
                self.labelled_alike += x == y
            self.far += abs(x - y) >= 2
            if y >= 2:
                self.b_serious += 1
                self.b_serious_labelled += x >= 1
            self.matrix[(x, y)] = self.matrix.get((x, y), 0) + 1

    def lines(self, a: str, b: str) -> list[str]:
        def pct(k: int, n: int) -> str:
            return f"{k} of {n} ({100 * k / max(1, n):.1f}%)"

        names = ["none", "inaccuracy", "mistake", "blunder"]
        out = [
            f"  judged decisions alike: {pct(self.alike, self.judged)}; labelled in either, alike: "
            f"{pct(self.labelled_alike, self.labelled)}",
            f"  two or more bands apart: {pct(self.far, self.judged)}",
            f"  {b} says mistake or blunder, {a} gives a label: "
            f"{pct(self.b_serious_labelled, self.b_serious)}",
            f"  labels ({a} down, {b} across): " + "  ".join(f"{n:>10}" for n in names),
        ]
        for x, name in enumerate(names):
            out.append(
                f"  {name:>27}: " + "  ".join(f"{self.matrix.get((x, y), 0):>10}" for y in range(len(names)))
            )
        return out


@dataclass
class ReferenceAgreement:
    games: int = 0
    playouts: int = DEFAULT_PLAYOUTS
    reference: LabelPair = field(default_factory=LabelPair)  # the default (seed A) against the reference
    seeds: LabelPair = field(default_factory=LabelPair)  # seed A against seed B, both at the default
    seconds: list[float] = field(default_factory=list)  # CPU per game: judging its decisions at the default
    reference_seconds: list[float] = field(default_factory=list)  # ... at the reference's budget

    def lines(self) -> list[str]:
        r = self.reference
        far_ok = r.far <= 0.01 * r.judged
        serious_ok = r.b_serious_labelled >= 0.95 * r.b_serious
        return [
            f"reference: {self.games} games, {r.judged} judged decisions; the default budget "
            f"({self.playouts} worlds) against the reference ({REFERENCE_FACTOR * self.playouts})",
            *r.lines("default", "reference"),
            f"  must, at most 1% two or more bands apart: {'met' if far_ok else 'NOT met'}; "
            f"must, at least 95% of the reference's mistakes and blunders labelled: "
            f"{'met' if serious_ok else 'NOT met'}; goal, 90% alike: "
            f"{100 * r.alike / max(1, r.judged):.1f}%",
            f"two seeds at the default budget ({self.playouts} worlds):",
            *self.seeds.lines("seed A", "seed B"),
            f"CPU per game, the decisions judged: {statistics.fmean(self.seconds):.1f} s at the default "
            f"(each seed), {statistics.fmean(self.reference_seconds):.1f} s at the reference",
        ]


def compare_reference(
    games: int,
    *,
    players: int = 4,
    levels: Sequence[str] = ("easy", "normal"),
    playouts: int = DEFAULT_PLAYOUTS,
    hard_playouts: int | None = 100,
    seed: int = 0,
    first: int = 0,
    progress: Progress | None = None,
    clock: Callable[[], float] | None = None,
) -> ReferenceAgreement:
    """Judge every decision of `games` bot games (from the `first`) at `playouts` with two salts
    and at REFERENCE_FACTOR times `playouts` with a third, and compare the labels."""
    out = ReferenceAgreement(playouts=playouts)
    for k, g in enumerate(range(first, first + games)):
        events, _ = bot_game(seed * 1_000_003 + g, players, levels, hard_playouts)
        runs = []
        for salt, budget in ((f"seed A game {g}", playouts), (f"seed B game {g}", playouts)):
            start = clock() if clock else 0.0
            runs.append(judged_decisions(events, budget, salt))
            if clock:
                out.seconds.append(clock() - start)
        start = clock() if clock else 0.0
        reference = judged_decisions(events, REFERENCE_FACTOR * playouts, f"reference game {g}")
        if clock:
            out.reference_seconds.append(clock() - start)
        out.games += 1
        out.reference.add(runs[0], reference)
        out.seeds.add(runs[0], runs[1])
        if progress is not None:
            progress(k + 1, games)
    return out
