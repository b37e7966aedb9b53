"""Hand-made positions for the replay analysis: where the truth is known (docs/ANALYSIS.md,
"Hand-made positions").

A position file (tests/analysis_positions/*.json) sets a table up as the rules scenarios do
(`players`, `shuffler`, `turn`, `damage`, `hands`, `discard_pile`, `protected`, `direction`),
plays a few commands on it (`steps`), and names a decision taken there (`decision`) with the
verdict the analysis must give it (`expect`: its `label`, null for none, and the `best` option,
or a list of options equally good, any of which may come out on top).
Pure (no Django): `position_events` builds the log, `judge_position` judges the decision with
`harehra.analysis.judge`, `check_position` compares the verdict with the expected one.

Every card the file does not place (in a hand or on the discard pile) goes to the draw pile in
an order drawn from `seed`, so the table always holds the whole deck, as the analysis's worlds
need; a hand given as a number is that many cards dealt from those. The deciding seat's judgement
never sees the other hands or the draw order (it samples worlds from the seat's view), so only the
deciding seat's hand and the public table decide the verdict.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .analysis import DEFAULT_PLAYOUTS, judge
from .commands import Command, command_to_dict, parse_command
from .decide import setup_event, start_events, step
from .fold import replay
from .ruleset import DEFAULT_TURN_LIMIT, make_ruleset
from .state import CCW, CW, GameState

LABELS = (None, "inaccuracy", "mistake", "blunder")


class PositionError(ValueError):
    """The position file itself is malformed (not a verdict that differs)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    title: str
    judged: dict[str, Any]  # harehra.analysis.judge's record of the decision
    failures: tuple[str, ...]  # what differs from the file's `expect`; empty when it agrees

    @property
    def passed(self) -> bool:
        return not self.failures

    def describe(self) -> str:
        d = self.judged
        options = ", ".join(
            f"{json.dumps(o['command'])} {100 * o['win']:.1f}% ± {100 * o['se']:.1f}" for o in d["options"]
        )
        return (
            f"{self.title}: label {d['label']}, drop {100 * d['drop']:.1f} ± {100 * d['se']:.1f} points, "
            f"best {json.dumps(d['options'][d['best']]['command'])}; options: {options}"
            + (f"; FAILED: {'; '.join(self.failures)}" if self.failures else "")
        )


def load_position(path: str | Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or "decision" not in data or "expect" not in data:
        raise PositionError(f"{path}: a position is a JSON object with `decision` and `expect`")
    return data


def position_events(data: Mapping[str, Any]) -> tuple[list[Any], GameState]:
    """The log of the position up to the decision (the table set up, then `steps`) and its state."""
    ruleset = make_ruleset(
        packs=data.get("packs", []),
        mini=int(data.get("mini", 0)),
        turn_limit=int(data.get("turn_limit", DEFAULT_TURN_LIMIT)),
    )
    players = int(data["players"])
    rng = random.Random(data.get("seed", 0))
    given = data["hands"]
    discard = list(data.get("discard_pile", []))
    if len(given) != players:
        raise PositionError("`hands` needs one entry per seat: a list of cards or a number")
    rest = Counter(dict(ruleset.deck))
    rest.subtract(discard)
    for hand in given:
        if not isinstance(hand, int):
            rest.subtract(hand)
    if any(n < 0 for n in rest.values()):
        raise PositionError("the hands and the discard pile hold more of a card than the deck has")
    pile = sorted(rest.elements())
    rng.shuffle(pile)
    hands: list[list[str]] = []
    for hand in given:
        if isinstance(hand, int):
            hands.append(pile[:hand])
            del pile[:hand]
        else:
            hands.append(list(hand))
    direction = data.get("direction", "cw")
    if direction not in ("cw", "ccw"):
        raise PositionError("`direction` is cw or ccw")
    first = setup_event(
        ruleset,
        players=players,
        shuffler=int(data.get("shuffler", players - 1)),
        hands=hands,
        draw_pile=pile,
        discard_pile=discard,
        damage=data.get("damage"),
        direction=CW if direction == "cw" else CCW,
        protected=data.get("protected", []),
        turn=data.get("turn"),
    )
    events: list[Any] = start_events(first)
    state = replay(events)

    def shuffle(cards: Any) -> list[str]:
        out = list(cards)
        rng.shuffle(out)
        return out

    for command in data.get("steps", []):
        new, state = step(state, command, shuffle)
        events += new
    return events, state


def _command(data: Any) -> Command:
    if not isinstance(data, Mapping):
        raise PositionError('a command is a JSON object such as {"seat": 1, "react": "taptap"}')
    return parse_command(data)


def judge_position(data: Mapping[str, Any], playouts: int | None = None) -> dict[str, Any]:
    """`harehra.analysis.judge` of the position's decision, seeded as the analysis of a game whose
    log this is would seed it (salt: the file's `salt`, step: the decision's place in the log)."""
    events, state = position_events(data)
    chosen = _command(data["decision"])
    if state.awaiting is None or state.awaiting.seat != chosen.seat:
        raise PositionError(f"the decision is not seat {chosen.seat}'s to make at this table")
    budget = int(data.get("playouts", DEFAULT_PLAYOUTS)) if playouts is None else playouts
    judged = judge(state, chosen.seat, chosen, budget, str(data.get("salt", "")), len(events))
    if judged is None:
        raise PositionError("the decision had one legal option (or the one named is not legal)")
    return judged


def check_position(data: Mapping[str, Any], playouts: int | None = None) -> Verdict:
    """Judge the position and compare the verdict with its `expect`."""
    expect = data["expect"]
    if expect.get("label") not in LABELS:
        raise PositionError(f"`expect.label` is one of {LABELS}")
    judged = judge_position(data, playouts)
    failures = []
    if judged["label"] != expect.get("label"):
        failures.append(f"label {judged['label']}, expected {expect.get('label')}")
    best = judged["options"][judged["best"]]["command"]
    named = expect["best"] if isinstance(expect["best"], list) else [expect["best"]]
    want = [command_to_dict(_command(c)) for c in named]
    if best not in want:
        failures.append(f"best {json.dumps(best)}, expected {' or '.join(map(json.dumps, want))}")
    return Verdict(str(data.get("title", "(untitled)")), judged, tuple(failures))
