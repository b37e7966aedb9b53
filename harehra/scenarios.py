"""Rules scenarios: JSON files that set up a table, send commands and check the state (docs/SCENARIOS.md).

Pure Python on top of the engine: `load_scenario` reads a file, `run_scenario` plays it and returns
a `ScenarioResult`. After every accepted command the runner also checks that replaying all events
so far gives the same state as stepping through them.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .decide import deal, setup_event, start_events, step
from .errors import EngineError, IllegalCommand
from .events import GameStarted, StoredEvent
from .fold import replay
from .ruleset import DEFAULT_TURN_LIMIT, Ruleset, make_ruleset
from .state import CCW, CW, GameState

COMMAND_KEYS = ("play", "react", "discard", "burn")
EXPECT_KEYS = frozenset(
    {
        "turn",
        "awaiting",
        "damage",
        "max_hand",
        "hand_sizes",
        "hands",
        "direction",
        "protected",
        "eliminated",
        "winner",
        "over",
        "draw_pile_size",
        "discard_pile_size",
        "discard_top",
        "drawn_since_taken",
    }
)


class ScenarioError(Exception):
    """The scenario file itself is malformed (not a rules failure)."""


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    title: str
    passed: bool
    step: int | None = None  # 1-based index into `steps`; None for a setup failure or a pass
    message: str = ""

    def describe(self) -> str:
        if self.passed:
            return "ok"
        where = "setup" if self.step is None else f"step {self.step}"
        return f"{where}: {self.message}"


class _Failure(Exception):
    pass


# --- loading -------------------------------------------------------------------------------


def load_scenario(path: str | Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    return data


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, folders searched recursively for *.json (sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(p.rglob("*.json")))
        elif p.exists():
            out.append(p)
        else:
            raise ScenarioError(f"no such file or folder: {p}")
    return out


# --- setting up ----------------------------------------------------------------------------


def _seeded_shuffle(rng: random.Random) -> Callable[[Sequence[str]], list[str]]:
    def shuffle(cards: Sequence[str]) -> list[str]:
        out = list(cards)
        rng.shuffle(out)
        return out

    return shuffle


def _ruleset(data: Mapping[str, Any]) -> Ruleset:
    return make_ruleset(
        packs=data.get("packs", []),
        mini=int(data.get("mini", 0)),
        turn_limit=int(data.get("turn_limit", DEFAULT_TURN_LIMIT)),
    )


def _first_event(data: Mapping[str, Any], ruleset: Ruleset, rng: random.Random) -> GameStarted:
    if "players" not in data:
        raise ScenarioError("`players` is required")
    players = int(data["players"])
    shuffler = int(data.get("shuffler", players - 1))
    if "deck" in data and "hands" in data:
        raise ScenarioError("give either `deck` or `hands`, not both")
    options: dict[str, Any] = {}
    if "damage" in data:
        options["damage"] = list(data["damage"])
    if "direction" in data:
        if data["direction"] not in ("cw", "ccw"):
            raise ScenarioError("`direction` is cw or ccw")
        options["direction"] = CW if data["direction"] == "cw" else CCW
    if "protected" in data:
        options["protected"] = list(data["protected"])
    if "turn" in data:
        options["turn"] = int(data["turn"])
    if "hands" in data:
        hands = data["hands"]
        if len(hands) != players:
            raise ScenarioError("`hands` needs one list per seat")
        return setup_event(
            ruleset,
            players=players,
            shuffler=shuffler,
            hands=hands,
            draw_pile=data.get("draw_pile", []),
            discard_pile=data.get("discard_pile", []),
            **options,
        )
    if "deck" in data:
        deck = list(data["deck"])
    else:
        deck = ruleset.cards()
        rng.shuffle(deck)
    dealt = deal(ruleset, players, shuffler, deck)
    if not options:
        return dealt
    return setup_event(
        ruleset,
        players=players,
        shuffler=shuffler,
        hands=dealt["hands"],
        draw_pile=dealt["draw_pile"],
        **options,
    )


# --- checking ------------------------------------------------------------------------------


def observe(state: GameState, key: str) -> Any:
    """The value of one `expect` key in `state`, in the scenario format."""
    n = range(state.players)
    if key == "turn":
        return state.turn_seat
    if key == "awaiting":
        a = state.awaiting
        return None if a is None else {"seat": a.seat, "kind": a.kind.value}
    if key == "damage":
        return list(state.damage)
    if key == "max_hand":
        return [state.max_hand(s) for s in n]
    if key == "hand_sizes":
        return [len(h) for h in state.hands]
    if key == "drawn_since_taken":  # per seat [volley, skip], null where never taken
        return [
            [v if v >= 0 else None, k if k >= 0 else None]
            for v, k in zip(state.drawn_since_volley_taken, state.drawn_since_skip_taken, strict=True)
        ]
    if key == "direction":
        return "cw" if state.direction == CW else "ccw"
    if key == "protected":
        return sorted(state.protected)
    if key == "eliminated":
        return [s for s in n if state.is_eliminated(s)]
    if key == "winner":
        return state.winner
    if key == "over":
        return state.over
    if key == "draw_pile_size":
        return len(state.draw_pile)
    if key == "discard_pile_size":
        return len(state.discard_pile)
    if key == "discard_top":
        return state.discard_pile[-1] if state.discard_pile else None
    raise ScenarioError(f"unknown expect key {key!r}")


def _check(state: GameState, expect: Mapping[str, Any]) -> None:
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        raise ScenarioError(f"unknown expect key(s): {', '.join(sorted(unknown))}")
    for key, want in expect.items():
        if key == "hands":
            for seat, cards in want.items():
                s = int(seat)
                if not 0 <= s < state.players:
                    raise ScenarioError(f"hands: no seat {seat}")
                got = state.hands[s]
                if Counter(got) != Counter(cards):
                    raise _Failure(f"hands[{seat}]: expected {sorted(cards)}, got {sorted(got)}")
            continue
        got = observe(state, key)
        if got != want:
            raise _Failure(f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}")


def _command(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The command of a step: everything but `error`. Malformed commands reach the engine (bad_command)."""
    if not any(k in entry for k in COMMAND_KEYS):
        raise ScenarioError("a step is {'expect': {...}} or a command with one of play/react/discard/burn")
    return {k: v for k, v in entry.items() if k != "error"}


# --- running -------------------------------------------------------------------------------


def run_scenario(data: Mapping[str, Any]) -> ScenarioResult:
    """Play a scenario; the result names the first failing step, if any."""
    title = str(data.get("title", "(untitled)"))
    rng = random.Random(data.get("seed", 0))
    shuffle = _seeded_shuffle(rng)
    try:
        events = start_events(_first_event(data, _ruleset(data), rng))
    except EngineError as exc:
        if data.get("setup_error") == exc.code.value:
            return ScenarioResult(title, True)
        return ScenarioResult(title, False, None, f"setup refused: {exc}")
    except (ScenarioError, KeyError, TypeError, ValueError) as exc:
        return ScenarioResult(title, False, None, f"{type(exc).__name__}: {exc}")
    if "setup_error" in data:
        return ScenarioResult(
            title, False, None, f"expected setup error {data['setup_error']}, but it was accepted"
        )
    state = replay(events)
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        return ScenarioResult(title, False, None, "`steps` is a list")
    for index, entry in enumerate(steps, start=1):
        try:
            if not isinstance(entry, dict):
                raise ScenarioError("a step is a JSON object")
            if "expect" in entry:
                if len(entry) != 1:
                    raise ScenarioError("an expect step holds only `expect`")
                _check(state, entry["expect"])
                continue
            command = _command(entry)
            if "error" in entry:
                _expect_refusal(state, events, command, entry["error"], shuffle)
                continue
            try:
                new_events, state = step(state, command, shuffle)
            except IllegalCommand as exc:
                raise _Failure(f"{json.dumps(command)} refused: {exc}") from exc
            events.extend(new_events)
            if replay(events) != state:
                raise _Failure("replaying the events does not give the stepwise state")
        except (_Failure, ScenarioError) as exc:
            return ScenarioResult(title, False, index, str(exc))
        except Exception as exc:  # an engine crash fails this step, not the runner
            return ScenarioResult(title, False, index, f"{type(exc).__name__}: {exc}")
    return ScenarioResult(title, True)


def _expect_refusal(
    state: GameState,
    events: Sequence[StoredEvent],
    command: Mapping[str, Any],
    code: str,
    shuffle: Callable[[Sequence[str]], list[str]],
) -> None:
    shown = json.dumps(dict(command))
    try:
        step(state, command, shuffle)
    except IllegalCommand as exc:
        if exc.code.value != code:
            raise _Failure(f"{shown}: expected error {code}, got {exc.code.value} ({exc.detail})") from exc
    else:
        raise _Failure(f"{shown}: expected error {code}, but it was accepted")
    if replay(events) != state:
        raise _Failure("a refused command changed the state")


def run_file(path: str | Path) -> ScenarioResult:
    try:
        data = load_scenario(path)
    except (OSError, ValueError, ScenarioError) as exc:
        return ScenarioResult(str(path), False, None, f"cannot load: {exc}")
    return run_scenario(data)
