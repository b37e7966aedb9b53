"""Random-legal games played through the engine: a benchmark and an invariant check.

Every game is played by `step` (decide, also returning the folded state) choosing uniformly among
`legal_commands`. The simulator owns the randomness: one `random.Random(seed)` seeds each game's
RNG, which supplies the deal and every reshuffle. With `check`, the invariants below are asserted
after every event (and the views and legal commands after every command); the tests in
tests/engine/test_properties.py use the same checks.
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CARD_NAMES
from .decide import advance, decide, keep_order, start_game, step
from .errors import EngineError
from .events import EventType, RulesEvent
from .fold import apply, replay
from .legal import legal_commands, legal_moves
from .ruleset import make_ruleset
from .state import GameState, Result, private_draft
from .views import event_for, view_for

CARD_IDS = frozenset(CARD_NAMES)
MAX_LISTED_VIOLATIONS = 20

Progress = Callable[[int, int], None]


def rng_shuffle(rng: random.Random) -> Callable[[Sequence[str]], list[str]]:
    """A shuffle drawing from `rng`, the caller's own RNG (the engine never holds one)."""

    def shuffle(cards: Sequence[str]) -> list[str]:
        return rng.sample(list(cards), len(cards))

    return shuffle


# --- invariants ------------------------------------------------------------------------------


def state_violations(state: GameState, e: Mapping[str, Any]) -> list[str]:
    """Invariants of a state just after `e` was folded into it."""
    out: list[str] = []
    held = sum(len(h) for h in state.hands) + len(state.draw_pile) + len(state.discard_pile)
    deck = sum(n for _, n in state.ruleset.deck)
    if held != deck:
        out.append(f"cards not conserved: {held} held, deck has {deck}")
    # Within one decision, DamageTaken reaching the maximum is followed at once by
    # PlayerEliminated, which empties the hand: check that event's successor, not it.
    if e["type"] != EventType.DAMAGE_TAKEN:
        for seat in range(state.players):
            if state.is_eliminated(seat) and state.hands[seat]:
                out.append(f"eliminated seat {seat} holds {list(state.hands[seat])}")
    if state.awaiting is not None and state.is_eliminated(state.awaiting.seat):
        out.append(f"eliminated seat {state.awaiting.seat} is awaited")
    if e["type"] == EventType.TURN_STARTED:
        for seat in range(state.players):
            if len(state.hands[seat]) > state.max_hand(seat):
                out.append(
                    f"turn {state.turn_number} begins with seat {seat} holding "
                    f"{len(state.hands[seat])} > max {state.max_hand(seat)}"
                )
    return out


# A card id as a JSON string value (not as a key: the ruleset's deck is keyed by card id).
_CARD_VALUE = re.compile(r'"(?:{})"(?!\s*:)'.format("|".join(sorted(CARD_IDS))))


def _shown_cards(data: Mapping[str, Any], allowed: Sequence[str]) -> list[str]:
    """The card ids in `data` serialised to JSON, outside the keys in `allowed`."""
    text = json.dumps({k: v for k, v in data.items() if k not in allowed})
    return [m.strip('"') for m in _CARD_VALUE.findall(text)]


def view_violations(state: GameState, seat: int | None) -> list[str]:
    """`view_for(state, seat)` shows that seat's own hand and the discard pile, no other card.

    The view is serialised to JSON, so what is checked is what would be sent: no card id may
    appear in it outside `hand` (which must be the seat's own), `discard_top` and `discard_pile`
    (which must be the face-up pile itself). This also rules out another hand and the draw
    pile's order.
    """
    view = view_for(state, seat)
    out: list[str] = []
    own = list(state.hands[seat]) if seat is not None else None
    if json.loads(json.dumps(view.get("hand"))) != own:
        out.append(f"view for {seat}: hand {view.get('hand')} is not the seat's own {own}")
    cards = _shown_cards(view, ("hand", "discard_top", "discard_pile"))
    if cards:
        out.append(f"view for {seat} shows cards outside its hand: {cards}")
    top = view.get("discard_top")
    if top != (state.discard_pile[-1] if state.discard_pile else None):
        out.append(f"view for {seat}: discard_top {top!r} is not the top card")
    if view.get("discard_pile") != list(state.discard_pile):
        out.append(f"view for {seat}: discard_pile is not the face-up pile")
    return out


# The keys of an event a seat may read card ids in; every other card id would be a leak.
_PUBLIC_CARD_KEYS: dict[str, tuple[str, ...]] = {
    EventType.CARDS_PLAYED: ("cards",),
    EventType.REACTION_PLAYED: ("card",),
    EventType.CARD_BURNED: ("card",),
    EventType.CARDS_DISCARDED: ("cards",),
    EventType.PLAYER_ELIMINATED: ("cards",),  # the hand goes face up onto the discard pile
}


def event_view_violations(e: Mapping[str, Any], seat: int | None) -> list[str]:
    """`event_for(e, seat)` never shows another seat's drawn cards, hands, or a pile's order."""
    seen = event_for(e, seat)
    kind = e["type"]
    allowed = _PUBLIC_CARD_KEYS.get(kind, ())
    if kind == EventType.CARDS_DRAWN and e["seat"] == seat:
        allowed = ("cards",)
    if kind == EventType.GAME_STARTED:
        allowed = ("hand",)
        own = list(e["hands"][seat]) if seat is not None else None
        if seen.get("hand") != own:
            return [f"GameStarted for {seat}: hand {seen.get('hand')} is not the seat's own"]
    cards = _shown_cards(seen, allowed)
    if cards:
        return [f"{kind} for {seat} shows hidden cards: {cards}"]
    return []


def command_violations(state: GameState) -> list[str]:
    """Every `legal_commands` entry of the awaited seat is accepted by `decide`; no other seat has any.

    The trial decisions shuffle with `keep_order`, not the game's RNG, so that checking a game
    does not change how it is played.
    """
    out: list[str] = []
    for seat in range(state.players):
        legal = legal_commands(state, seat)
        awaited = state.awaiting is not None and state.awaiting.seat == seat
        if legal and not awaited:
            out.append(f"seat {seat} has legal commands but is not awaited")
        if awaited and not legal:
            out.append(f"seat {seat} is awaited but has no legal command")
        for cmd in legal:
            try:
                decide(state, cmd, keep_order)
            except EngineError as exc:
                out.append(f"legal command {cmd} refused: {exc}")
    return out


# --- playing ---------------------------------------------------------------------------------


@dataclass
class GameRecord:
    turns: int
    events: int
    result: Result
    winner: int | None
    violations: list[str]


def play_game(
    players: int,
    shuffler: int,
    rng: random.Random,
    *,
    packs: Sequence[str] = (),
    mini: int = 0,
    check: bool = False,
    record: bool = True,
) -> GameRecord:
    """One random-legal game; with `check`, every invariant after every event.

    Without `record`, the game is played as search playouts are, by `advance` (no events; the
    record's event count is 0). Both ways make the same choices from the same RNG.
    """
    shuffle = rng_shuffle(rng)
    events: list[RulesEvent] = start_game(make_ruleset(packs, mini=mini), players, shuffler, shuffle)
    state = replay(events)
    violations: list[str] = []
    if check:
        folded = None
        for e in events:
            folded = apply(folded, e)
            violations += state_violations(folded, e)
        violations += _command_checks(state)
    count = len(events)
    choice = rng.choice
    if not record:  # a search playout's loop: the same rules, folded in place, no events
        draft = private_draft(state)
        while draft.result is None:
            assert draft.awaiting is not None
            advance(draft, choice(legal_moves(draft, draft.awaiting.seat)), shuffle)
        return GameRecord(draft.turn_number, 0, draft.result, draft.winner, violations)
    while state.result is None:
        assert state.awaiting is not None
        command = choice(legal_moves(state, state.awaiting.seat))
        new_events, new_state = step(state, command, shuffle)
        count += len(new_events)
        if check:
            violations += _step_checks(state, new_events, new_state)
            events += new_events
        state = new_state
    if check and replay(events) != state:
        violations.append("replay(events) differs from the state step by step")
    return GameRecord(state.turn_number, count, state.result or Result.ABORTED, state.winner, violations)


def _step_checks(
    before: GameState,
    events: list[RulesEvent],
    after: GameState,
) -> list[str]:
    out: list[str] = []
    folded = before
    for e in events:
        folded = apply(folded, e)
        out += state_violations(folded, e)
        for seat in [*range(folded.players), None]:
            out += event_view_violations(e, seat)
    if folded != after:
        out.append("folding the events one by one differs from the state `step` returned")
    return out + _command_checks(after)


def _command_checks(state: GameState) -> list[str]:
    out = command_violations(state)
    for seat in [*range(state.players), None]:
        out += view_violations(state, seat)
    return out


# --- a run of games --------------------------------------------------------------------------


@dataclass
class Report:
    games: int
    players: int
    packs: tuple[str, ...]
    mini: int
    seed: int
    check: bool
    record: bool = True
    seconds: float = 0.0
    events: int = 0
    turns: list[int] = field(default_factory=list)
    draws: int = 0
    wins: list[int] = field(default_factory=list)
    violations: int = 0
    examples: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0

    def turn_stats(self) -> tuple[float, int, int]:
        """Median, p99 (nearest rank) and maximum turns per game."""
        ordered = sorted(self.turns)
        p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
        return statistics.median(ordered), p99, ordered[-1]

    def lines(self) -> list[str]:
        packs = ", ".join(self.packs) or "none"
        median, p99, longest = self.turn_stats()
        out = [
            f"{self.games} games, {self.players} players, packs: {packs}, mini: {self.mini}, "
            f"seed {self.seed}"
            + (", invariants checked after every event" if self.check else "")
            + ("" if self.record else ", played as search playouts (no events)"),
            f"time:          {self.seconds:.2f} s, {self.games_per_second:,.0f} games/s"
            + (f", {self.events_per_second:,.0f} events/s" if self.record else ""),
        ]
        if self.record:
            out.append(f"events:        {self.events:,} ({self.events / self.games:.1f} per game)")
        out += [
            f"turns/game:    median {median:g}, p99 {p99}, max {longest}",
            f"turn limit:    {self.draws} draws ({100 * self.draws / self.games:.2f}%)",
            "wins by seat:  "
            + "  ".join(f"{s}: {n} ({100 * n / self.games:.1f}%)" for s, n in enumerate(self.wins)),
        ]
        if self.check:
            out.append(
                "invariants:    all held"
                if not self.violations
                else f"invariants:    {self.violations} violations; first ones:"
            )
            out += [f"  {v}" for v in self.examples]
        return out


def simulate(
    games: int,
    players: int,
    *,
    packs: Sequence[str] = (),
    mini: int = 0,
    seed: int = 0,
    check: bool = False,
    record: bool = True,
    progress: Progress | None = None,
) -> Report:
    """Play `games` games; the shuffler passes one seat clockwise after each game (R13)."""
    make_ruleset(packs, mini=mini)  # raises InvalidRuleset early
    master = random.Random(seed)
    report = Report(games, players, tuple(packs), mini, seed, check, record, wins=[0] * players)
    start = time.perf_counter()
    for i in range(games):
        game_seed = master.getrandbits(64)
        shuffler = (players - 1 + i) % players
        game = play_game(
            players, shuffler, random.Random(game_seed), packs=packs, mini=mini, check=check, record=record
        )
        report.events += game.events
        report.turns.append(game.turns)
        if game.result is Result.DRAW:
            report.draws += 1
        elif game.winner is not None:
            report.wins[game.winner] += 1
        if game.violations:
            report.violations += len(game.violations)
            room = MAX_LISTED_VIOLATIONS - len(report.examples)
            report.examples += [f"game {i} (seed {game_seed}): {v}" for v in game.violations[:room]]
        if progress is not None:
            progress(i + 1, games)
    report.seconds = time.perf_counter() - start
    return report
